"""The invariants every game keeps and those its rules declare, judged after a step."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from .game import Game
    from .state import State


def total_cards(state: State) -> int:
    """The cards in play: every zone's, and the tiles laid on a grid (no rule destroys a card)."""
    return sum(sum(z) for z in state.zones) + (len(state.grid.x) if state.grid is not None else 0)


def broken_after(game: Game, state: State, before: State, cards: int) -> Optional[tuple[str, str, Optional[list]]]:
    """The first invariant that a step from ``before`` to ``state`` broke, as (name, what, where
    it is declared), or None. Checked: no card created or lost (``cards`` at the start), and the
    rules' own invariants."""
    now = total_cards(state)
    if now != cards:
        return "cards kept", f"{cards} cards at the start, {now} now", None
    for name, test, at in game.invariants:
        if not test(state, before):
            return name, "it does not hold", at
    return None
