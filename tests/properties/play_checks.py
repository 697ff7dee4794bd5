"""Checks that the play properties of every game share."""

from __future__ import annotations

from typing import Any


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
