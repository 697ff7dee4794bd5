"""Hypothesis properties of Reversi (games/reversi.rules): Hypothesis picks every move of a whole
game; at each step meeple's game and the independent Reversi of tests/reversi_reference.py (written
from OpenSpiel's othello) offer the same moves and show the same board, who is to move is
consistent, looking at a state changes nothing, JSON round-trips and a clone plays on alone; the
game ends by the rules with the reference's result, and its record replays to the same state.

Examples per test come from the Hypothesis profile (tests/conftest.py: ``ci``, ``dev``, ``fuzz``).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hypothesis import event, given, settings
from hypothesis import strategies as st

import meeple
from play_checks import assert_looking_leaves_it_unchanged, check_who_moves

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from reversi_reference import PASS, Othello, to_cell  # noqa: E402

RULES = Path(__file__).resolve().parents[2] / "games" / "reversi.rules"
GAME = meeple.load(str(RULES))


def _text(action: int) -> str:
    return "pass" if action == PASS else "put {},{}".format(*to_cell(action))


def _board(state) -> dict:
    cells = state.observation(0)["board"]
    return {(c % 8, c // 8): int(v.removeprefix("seat ")) for c, v in enumerate(cells["vars"]["disc"])
            if v is not None}


@settings(deadline=None)
@given(data=st.data())
def test_hypothesis_games_play_as_the_reference(data: st.DataObject) -> None:
    state, ref = GAME.new_state(2, chance="explicit"), Othello()
    steps = 0
    while not ref.over:
        check_who_moves(state, 2)
        assert state.current_player() == ref.player
        legal = {a.text: a for a in state.legal_actions()}
        assert set(legal) == {_text(a) for a in ref.legal_actions()}
        if steps % 16 == 0:
            assert_looking_leaves_it_unchanged(GAME, state)
            doc = state.to_json()
            assert GAME.state_from_json(doc).to_json() == doc
            copy = state.clone()
            copy.apply(copy.legal_actions()[0])
            assert state.to_json() == doc, "a clone's move changed the state it was cloned from"
        a = data.draw(st.sampled_from(ref.legal_actions()), label="move")
        ref.apply(a)
        state.apply(legal[_text(a)])
        assert _board(state) == ref.cells()
        steps += 1
        assert steps <= 128  # OpenSpiel's longest game
    assert state.is_terminal()
    returns = ref.returns()
    event(f"result={returns}")
    assert state.winners() == ([] if returns[0] == returns[1] else [0 if returns[0] > 0 else 1])
    final = state.to_json()
    replay = GAME.new_state(2, chance="explicit")
    for actor, text in state.history():
        assert replay.current_player() == actor
        replay.apply(text)
    assert replay.to_json() == final


@given(seed=st.integers(0, 2**32 - 1))
def test_seeded_games_end_by_the_rules_and_play_the_same_again(seed: int) -> None:
    a, b = GAME.new_state(2, seed=seed), GAME.new_state(2, seed=seed)
    a.play_out(random.Random(seed))
    b.play_out(random.Random(seed))
    assert a.is_terminal() and a.outcome in ("end", "draw")
    assert a.history() == b.history()
    assert sum(1 for _, text in a.history() if text != "pass") <= 60
