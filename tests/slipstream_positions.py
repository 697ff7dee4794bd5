"""Building Slipstream positions for scenario tests.

This is the ONE module of the Slipstream tests that touches the interpreter's state
internals (the var slots). Everything else (``tests/test_slipstream_rules.py``,
``tests/test_slipstream_mutations.py``) goes through the functions here and the public
``State`` API. Zones are read and written as ``{variety name: count}`` dicts, with the
zone helpers of tests/positions.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import meeple
from positions import all_cards, set_current, set_zone, zone  # noqa: F401 (part of this module's API)

RULES = Path(__file__).resolve().parents[1] / "games" / "slipstream.rules"


def load(path: Path | str = RULES, params: Mapping[str, int] | None = None):
    """The compiled game of a rules file (the project's slipstream.rules by default)."""
    return meeple.load(str(path), dict(params) if params else None)


def start(g, players: int = 2, seed: int = 0):
    """A state at the first "play" decision, chance sampled from ``seed``. Public API only."""
    st = g.new_state(players, seed=seed)
    assert st.decision() == "play", st.decision()
    return st


def space(st, seat: int) -> int:
    """The space of the seat's pawn."""
    return st.var("space", seat)


def spaces(st) -> list[int]:
    return [space(st, seat) for seat in range(st.players)]


def set_spaces(st, where: Mapping[int, int]) -> None:
    """Put pawns on spaces: ``{seat: space}``."""
    for seat, value in where.items():
        st.set_var("space", value, seat)
