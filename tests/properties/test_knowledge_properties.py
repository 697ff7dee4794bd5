"""Hypothesis properties of knowledge ('reveal'), on the Fish fixture (tests/fixtures/good/fish.rules):
Hypothesis picks every ask and every card drawn. Each card of Fish is unique, so what each seat
should know can be followed card by card, from the rules as written: asking shows everyone the card
asked with; cards handed over are shown to everyone in the asker's hand; a card is known in a hand
until it leaves that hand. At every step each seat's observation must give exactly that, of the
hands it may not see, and nothing of the pond; and what a seat knows never names a card that is not
there. Saved states, clones and records keep it.

Examples per test come from the Hypothesis profile (tests/conftest.py: ``ci``, ``dev``, ``fuzz``).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.tools.fuzz import hidden_shown
from play_checks import assert_looking_leaves_it_unchanged, check_who_moves

FISH = Path(__file__).resolve().parents[1] / "fixtures" / "good" / "fish.rules"
GAME = meeple.load(str(FISH))


def rank(card: str) -> str:
    return card.rsplit("_", 1)[1]


def follow(known: list[set[tuple[int, str]]], seat: int, action: str, before: list[dict], after: list[dict]) -> None:
    """What each seat should know after ``seat`` took ``action`` (the hands ``before`` and ``after``;
    ``seat`` -1 for a card drawn, which shows nothing)."""
    if action.startswith("ask "):
        _, _, asked_seat, card = action.split()
        q = int(asked_seat)
        others = [s for s in range(len(known)) if s != seat]
        for s in others:
            known[s].add((seat, card))
        if any(rank(d) == rank(card) for d in before[q]):  # handed over: shown in the asker's hand
            for d in after[seat]:
                if rank(d) == rank(card):
                    for s in others:
                        known[s].add((seat, d))
    for s in range(len(known)):  # a card known in a hand is forgotten once it has left that hand
        known[s] = {(o, c) for o, c in known[s] if c in after[o]}


@settings(deadline=None)
@given(data=st.data(), players=st.integers(2, 4))
def test_each_seat_knows_what_it_was_shown_and_is_still_there(data: st.DataObject, players: int) -> None:
    state = GAME.new_state(players, chance="explicit")
    known: list[set[tuple[int, str]]] = [set() for _ in range(players)]
    steps = 0
    while not state.is_terminal() and steps < 150:
        check_who_moves(state, players)
        hands = state.observation(None)["zones"]["hand"]
        if state.is_chance_node():
            seat, action = -1, data.draw(st.sampled_from([a for a, _ in state.chance_outcomes()]), label="card")
        else:
            seat, action = state.current_player(), data.draw(st.sampled_from(state.legal_actions()), label="move")
        state.apply(action)
        follow(known, seat, action.text, hands, state.observation(None)["zones"]["hand"])
        for seat in range(players):
            obs = state.observation(seat)["zones"]
            assert "known" not in obs["pond"]
            for owner in range(players):
                if owner != seat:
                    want = {c: 1 for o, c in known[seat] if o == owner}
                    assert obs["hand"][owner].get("known", {}) == want, (seat, owner)
            assert hidden_shown(GAME, state, seat) is None
        if steps % 7 == 0:
            assert_looking_leaves_it_unchanged(GAME, state)
            doc = state.to_json()
            assert GAME.state_from_json(doc).to_json() == doc
            copy = state.clone()
            if not copy.is_terminal():
                options = copy.legal_actions() or [a for a, _ in copy.chance_outcomes()]
                copy.apply(options[-1])
            assert state.to_json() == doc, "a clone's move changed what the state it was cloned from knows"
        steps += 1
    replay = GAME.new_state(players, chance="explicit")
    for _, text in state.history():
        replay.apply(text)
    assert replay.to_json()["known"] == state.to_json()["known"]
