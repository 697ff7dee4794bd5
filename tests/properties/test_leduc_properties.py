"""Hypothesis properties of Leduc hold'em (games/leduc.rules): Hypothesis picks every bet and every
card dealt; at each step meeple's game and the independent Leduc of tests/leduc_reference.py
(written from OpenSpiel's leduc_poker) deal the same cards with the same chances, offer the same
bets to the same player, and end with the same chips. Each seat's observation shows its own card
and the public one, never the other's private card; looking at a state changes nothing; JSON
round-trips; a clone plays on alone; a record replays to the same state.

Examples per test come from the Hypothesis profile (tests/conftest.py: ``ci``, ``dev``, ``fuzz``).
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

from hypothesis import event, given, settings
from hypothesis import strategies as st

import meeple
from play_checks import assert_looking_leaves_it_unchanged, check_who_moves

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from leduc_reference import ACTION_NAMES, CARD_NAMES, CHANCE, Leduc  # noqa: E402

RULES = Path(__file__).resolve().parents[2] / "games" / "leduc.rules"
GAME = meeple.load(str(RULES))


def _check_views(state, ref: Leduc) -> None:
    for seat in range(2):
        obs = state.observation(seat)
        mine, theirs = obs["zones"]["hand"][seat], obs["zones"]["hand"][1 - seat]
        own = ref.private[seat]
        assert mine == ({} if own is None else {CARD_NAMES[own]: 1})
        assert theirs == ({"size": 0} if ref.private[1 - seat] is None else {"size": 1})
        assert obs["zones"]["community"] == ({} if ref.public is None else {CARD_NAMES[ref.public]: 1})
        assert obs["zones"]["deck"] == {"size": sum(c is not None for c in ref.deck)}


@settings(deadline=None)
@given(data=st.data())
def test_hypothesis_games_play_as_the_reference(data: st.DataObject) -> None:
    state, ref = GAME.new_state(2, chance="explicit"), Leduc()
    steps = 0
    while not ref.is_terminal():
        check_who_moves(state, 2)
        _check_views(state, ref)
        if steps % 3 == 0:
            assert_looking_leaves_it_unchanged(GAME, state)
            doc = state.to_json()
            assert GAME.state_from_json(doc).to_json() == doc
            copy = state.clone()
            options = copy.legal_actions() or [a for a, _ in copy.chance_outcomes()]
            copy.apply(options[0])
            assert state.to_json() == doc, "a clone's move changed the state it was cloned from"
        if ref.player == CHANCE:
            outcomes = {a.text: (a, p) for a, p in state.chance_outcomes()}
            want = ref.chance_outcomes()
            assert set(outcomes) == {f"deal {CARD_NAMES[c]}" for c, _ in want}
            assert all(math.isclose(outcomes[f"deal {CARD_NAMES[c]}"][1], p) for c, p in want)
            card = data.draw(st.sampled_from([c for c, _ in want]), label="card")
            ref.apply(card)
            state.apply(outcomes[f"deal {CARD_NAMES[card]}"][0])
        else:
            assert state.current_player() == ref.player
            legal = {a.text: a for a in state.legal_actions()}
            assert list(legal) == [ACTION_NAMES[a] for a in ref.legal_actions()]
            bet = data.draw(st.sampled_from(ref.legal_actions()), label="bet")
            ref.apply(bet)
            state.apply(legal[ACTION_NAMES[bet]])
        steps += 1
        assert steps <= 3 + 2 * 4  # three cards dealt, at most four bets a round
    assert state.is_terminal()
    event(f"returns={state.returns()}")
    assert state.returns() == ref.returns() and sum(state.returns()) == 0
    final = state.to_json()
    replay = GAME.new_state(2, chance="explicit")
    for actor, text in state.history():
        assert replay.current_player() == (meeple.CHANCE if actor == "chance" else actor)
        replay.apply(text)
    assert replay.to_json() == final


@given(seed=st.integers(0, 2**32 - 1))
def test_seeded_games_end_with_chips_that_add_up(seed: int) -> None:
    a, b = GAME.new_state(2, seed=seed), GAME.new_state(2, seed=seed)
    a.play_out(random.Random(seed))
    b.play_out(random.Random(seed))
    assert a.is_terminal() and a.outcome == "end"
    assert a.history() == b.history()
    returns = a.returns()
    assert sum(returns) == 0 and max(abs(r) for r in returns) <= 13
    assert a.winners() == ([0, 1] if returns == [0.0, 0.0] else [returns.index(max(returns))])
