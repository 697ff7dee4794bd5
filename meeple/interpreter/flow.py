"""Which card varieties can ever be in which zone (``varieties_by_zone``).

Cards start in the zone their ``cards`` block names and move only by the
statements that name a source and a destination (move all, move N ... where, deal,
refill, choose, and the piles they reshuffle; 'move c to zone' of a card a loop or
option took from a zone). Following those edges from each start zone gives, for every zone, the
varieties that can reach it. A choice then only looks at the
varieties its source can hold: cards that stay in a market never reach a hand, say.

The same edges tell which statements can bring cards into a zone (``filled_by``): a zone that
only one choice fills, whose limits that choice keeps, never holds more than them.
"""

from __future__ import annotations

from typing import Optional

from meeple.dsl.checked import ZONE, CheckedGame
from meeple.dsl.walk import nodes


def zone_name(e: Optional[dict], checked: CheckedGame) -> Optional[str]:
    """The zone a zone expression names (``deck``, ``hand(p)``), or None if it is not plain."""
    if checked.what(e) == ZONE:
        return e["id"] if e["node"] == "name" else e["func"]
    return None


Edge = tuple[Optional[str], Optional[str], dict]  # cards go from a zone to a zone by a statement (None: not plain)


def _edges(stmts: list, checked: CheckedGame, out: list[Edge]) -> None:
    for s in nodes(stmts):
        node = s["node"]
        if node == "move_to" and checked.card_zone(s) is not None:  # one card a loop or an option took
            out.append((zone_name(checked.card_zone(s), checked), zone_name(s["to"], checked), s))
            continue
        if node not in ("move_all", "deal", "choose", "move_cards", "move_where", "refill"):
            continue
        named = {key: zone_name(s.get(key), checked) for key in ("source", "dest", "zone", "reshuffle")}
        if node in ("move_all", "deal", "choose", "move_cards", "move_where"):
            out.append((named["source"], named["dest"], s))
        elif node == "refill":
            out.append((named["source"], named["zone"], s))
        if node in ("deal", "refill") and s["reshuffle"] is not None:
            out.append((named["reshuffle"], named["source"], s))


def _all_edges(checked: CheckedGame) -> list[Edge]:
    ir = checked.ir
    edges: list[Edge] = []
    for block in [ir["setup"], ir["turn"], *(p["body"] for p in ir["phases"])]:
        _edges(block, checked, edges)
    return edges


def filled_by(checked: CheckedGame) -> dict[Optional[str], list[dict]]:
    """Zone name → the statements that can bring cards into it; under None, those whose
    destination is not a plain zone (they may fill any)."""
    out: dict[Optional[str], list[dict]] = {}
    for _, b, s in _all_edges(checked):
        out.setdefault(b, []).append(s)
    return out


def varieties_by_zone(checked: CheckedGame) -> dict[str, set[int]]:
    """Zone name → indices (in declaration order) of the varieties that can be there."""
    ir, zones = checked.ir, checked.symbols.zones
    edges = _all_edges(checked)
    everywhere = any(a is None or b is None for a, b, _ in edges)
    after: dict[str, set[str]] = {}  # zone → the zones its cards go to in one move
    for a, b, _ in edges:
        if a is not None and b is not None:
            after.setdefault(a, set()).add(b)
    reach: dict[str, set[str]] = {}  # a zone cards start in → every zone they can reach (one walk each:
    # following the moves over and over, each zone's reach against each move, took minutes for a
    # thousand zones)

    def reached(start: str) -> set[str]:
        if start not in reach:
            seen, todo = {start}, [start]
            while todo:
                for b in after.get(todo.pop(), ()):
                    if b not in seen:
                        seen.add(b)
                        todo.append(b)
            reach[start] = seen
        return reach[start]

    out: dict[str, set[int]] = {z: set() for z in zones}
    index = 0
    for c in ir["cards"]:
        where = zones if everywhere else [z for z in reached(c["zone"]) if z in out]
        for _ in c["varieties"]:
            for z in where:
                out[z].add(index)
            index += 1
    return out
