"""Building Hare and Tortoise positions for scenario tests.

This is the ONE module of the tests that touches the interpreter's state
internals (zone slots, piece arrays, track tags, the podium). Everything else
(``tests/test_hare_rules.py``, ``tests/test_hare_mutations.py``) goes through
the functions here and the public ``State`` API, so when the interpreter's
internals are renamed only this file has to follow.

Zones are read and written as ``{variety name: count}`` dicts, pieces by
their names (``"hare"``, ``"fox"``, ...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import meeple

RULES = Path(__file__).resolve().parents[1] / "games" / "hare.rules"


def load(path: Path | str = RULES):
    """The compiled game of a rules file (the project's hare.rules by default)."""
    return meeple.load(str(path))


def start(g, players: int = 3, seed: int = 0):
    """A state at the first "play" decision: chance sampled from ``seed``, every
    setup bet taken as the first legal action. Public API only."""
    st = g.new_state(players, seed=seed)
    while st.decision() == "bet":
        st.apply(st.legal_actions()[0])
    assert st.decision() == "play", st.decision()
    return st


def _touched(st) -> None:
    st._legal = None


# ---- names ----
def variety_names(g) -> list[str]:
    return list(g.layout.variety_names)


def animals(g) -> list[str]:
    """The pieces, in the order they were declared."""
    return [g.layout.value_names[p] for p in g.layout.piece_ids]


# ---- zones ----
def zone(st, name: str, seat: int | None = None) -> dict[str, int]:
    """The cards in a zone (all of them, whatever its visibility), zero counts left out."""
    return st.zone(name, seat)


def set_zone(st, name: str, counts: Mapping[str, int], seat: int | None = None) -> None:
    """Make a zone hold exactly ``counts``."""
    st.set_zone(name, dict(counts), seat)


def all_cards(st) -> dict[str, int]:
    """Every card of the game, wherever it is (tiles on a grid included)."""
    names = st.game.layout.variety_names
    total = [0] * len(names)
    for vec in st.zones:
        for i, c in enumerate(vec):
            total[i] += c
    for v in st.grid.variety if st.grid is not None else ():
        total[v] += 1
    return {names[i]: c for i, c in enumerate(total) if c}


# ---- pieces and the podium ----
def _pid(st, animal: str) -> int:
    return st.game.layout.value_id[animal]


def position(st, animal: str) -> int:
    return st.pos[_pid(st, animal)]


def positions(st) -> dict[str, int]:
    return {a: position(st, a) for a in animals(st.game)}


def set_positions(st, where: Mapping[str, int]) -> None:
    """Put pieces on spaces (0 = start line); they are not on the podium."""
    for animal, space in where.items():
        pid = _pid(st, animal)
        if st.place[pid]:
            raise ValueError(f"{animal} is on the podium")
        st.pos[pid] = space
    _touched(st)


def podium(st) -> list[str]:
    """The animals on the podium, 1st first."""
    names = st.game.layout.value_names
    return [names[p] for p in st.podium[0]]


def place(st, animal: str) -> int:
    """The animal's podium place, 0 if it has not finished."""
    return st.place[_pid(st, animal)]


def set_podium(st, order: Iterable[str]) -> None:
    """Put these animals on the podium in this order (1st first), past the finish line."""
    for p in st.podium[0]:
        st.place[p] = 0
    st.podium[0] = []
    for animal in order:
        pid = _pid(st, animal)
        st.podium[0].append(pid)
        st.place[pid] = len(st.podium[0])
        st.pos[pid] = st.track_length[0] + 1
    _touched(st)


# ---- the track ----
def track_length(st) -> int:
    return st.track_length[0]


def tags(st) -> list[str]:
    """The tag of spaces 1..length."""
    return list(st.tags[0][1:])


def streams(st) -> list[int]:
    return [space for space, tag in enumerate(st.tags[0]) if tag == "stream"]


def set_tags(st, streams: Iterable[int]) -> None:
    """Lay the track again: these spaces are streams, the rest plain."""
    streams = set(streams)
    n = st.track_length[0]
    if not streams <= set(range(1, n + 1)):
        raise ValueError(f"streams must be spaces 1..{n}")
    for space in range(1, n + 1):
        st.tags[0][space] = "stream" if space in streams else "plain"
    _touched(st)


# ---- whose turn ----
def set_current(st, seat: int) -> None:
    """The seat whose turn it is (at a "play" decision: the one to play)."""
    st.current = seat
    _touched(st)
