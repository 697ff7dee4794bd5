"""Checks that the play properties of every game share."""

from __future__ import annotations

import math
from typing import Any

import meeple


def assert_looking_leaves_it_unchanged(game: Any, state: Any) -> None:
    """Looking at a state (observation of every seat, legal actions, chance outcomes, to_json,
    scores, winners, returns, reports) does not change its ``to_json()``."""
    before = state.to_json()
    for seat in range(state.players):
        state.observation(seat)
    state.legal_actions()
    state.chance_outcomes()
    state.to_json()
    state.scores()
    state.winners()
    state.returns()
    game.report_values(state)
    after = state.to_json()
    changed = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
    assert not changed, f"queries changed the state ({state.outcome or 'live'}): {changed}"


def swap_one(zones: list[list[int]], i: int, j: int) -> bool:
    """Exchange one card of row ``i`` of ``zones`` for a card of another variety in row ``j``."""
    for a, ca in enumerate(zones[i]):
        for b, cb in enumerate(zones[j]):
            if ca and cb and a != b:
                zones[i][a] -= 1
                zones[j][a] += 1
                zones[j][b] -= 1
                zones[i][b] += 1
                return True
    return False


def check_who_moves(state: Any, players: int) -> None:
    """Who is to move is consistent, and a live state can always go on: a chance node has
    outcomes whose chances add up to 1, a seat to move has legal actions; no two are named alike."""
    actor = state.current_player()
    if state.is_terminal():
        assert actor == meeple.TERMINAL
        assert state.legal_actions() == [] and state.chance_outcomes() == []
    elif actor == meeple.CHANCE:
        assert state.is_chance_node() and state.legal_actions() == []
        outcomes = state.chance_outcomes()
        assert outcomes, "chance node without outcomes"
        assert all(p > 0 for _, p in outcomes), outcomes
        assert math.isclose(sum(p for _, p in outcomes), 1.0), outcomes
        texts = [a.text for a, _ in outcomes]
        assert len(set(texts)) == len(texts), texts
    else:
        assert 0 <= actor < players, actor
        assert not state.is_chance_node()
        legal = state.legal_actions()
        assert legal, f"no legal action for seat {actor} at a live decision ({state.decision()})"
        texts = [a.text for a in legal]
        assert len(set(texts)) == len(texts), f"duplicate legal actions: {texts}"
