"""Where an ``end when`` can cut a block in two (``end_cuts``, a warning of the checker).

An ``end when`` is judged after every statement that changes what it reads, even in the middle of
a block, so a block whose first statement makes the end true never runs the rest. That is meant
where the rest is about other things (the third piece over the line ends the game before the fourth
moves), and a trap where the rest finishes what the statement began: the last card leaves a hand,
and the game ends before what the card does is done; a player is put out, and the game ends
before their hand is put away. The checker tells the two apart by what the statements are about:
it warns where a statement changes what an ``end when`` reads, and a later statement of the same
block works on the same card, player or value (a name a loop, an option or a ``let`` around them
bound) and changes something other than who moves next."""

from __future__ import annotations

from typing import Any, Callable, Iterator, NamedTuple, Optional

from . import checked as C
from .walk import nodes

# The built-in queries that read where pieces are, and those that read the grid.
PIECE_QUERIES = {"pos", "finished", "place", "at_place", "finishers", "space", "tagged"}
GRID_QUERIES = {"col", "row", "neighbour", "open", "joined", "includes"}

# Who moves next means nothing once the game is over: a statement that only sets it loses nothing.
TURN_ORDER = {"current", ("var", "next")}

Binding = Callable[[dict], Optional[C.Binding]]  # a name's or call's binding (None: none)


class Cut(NamedTuple):
    """``stmt`` changes what ``end`` (the index of an ``end when``) reads, and ``later``, in the
    same block, works on ``name`` too: an end there leaves ``later`` undone."""

    stmt: dict
    later: dict
    end: int
    name: str


def end_cuts(ir: dict, binding: Binding, players_out: bool) -> list[Cut]:
    """Every statement of the game after which an ``end when`` can end it before a later statement
    of its block that works on the same thing (see the module's docstring). ``players_out``: the
    game uses the engine's ``out`` (then every loop over the players reads it)."""
    reads = [_reads(e["test"], binding, players_out, set()) for e in ir["end"]]
    if not any(reads):
        return []
    phases = {ph["name"]: ph["body"] for ph in ir["phases"]}
    out: list[Cut] = []
    for block in [ir["setup"], ir["turn"], *phases.values()]:
        out += _block(block, set(), reads, binding, phases)
    return out


def _block(stmts: list, scope: set[str], reads: list[set], binding: Binding, phases: dict) -> list[Cut]:
    out: list[Cut] = []
    scope = set(scope)
    for i, s in enumerate(stmts):
        written = _writes(s, binding, phases, set())
        end = next((k for k, r in enumerate(reads) if r & written), None)
        if end is not None:
            mine = _locals(s, binding) & scope
            for later in stmts[i + 1:]:
                shared = sorted(mine & _locals(later, binding))
                if shared and _writes(later, binding, phases, set()) - TURN_ORDER:
                    out.append(Cut(s, later, end, shared[0]))
                    break
        for inner, bound in _inner_blocks(s):
            out += _block(inner, scope | bound, reads, binding, phases)
        if s["node"] == "let":
            scope.add(s["name"])
        elif s["node"] == "place":  # (the tile placed, for the rest of the block)
            scope.add(s["var"])
    return out


def _inner_blocks(s: dict) -> Iterator[tuple[list, set[str]]]:
    """The blocks inside statement ``s``, each with the names it binds for them."""
    node = s["node"]
    if node == "if":
        yield s["body"], set()
        yield s["else_"] or [], set()
    elif node == "for":
        yield s["body"], {s["var"]}
    elif node == "choose_one":
        for option in s["options"]:
            yield option["body"], {b["var"] for b in option.get("bindings") or []}
    elif node == "place" and s.get("otherwise"):
        yield s["otherwise"], set()


def _locals(s: dict, binding: Binding) -> set[str]:
    """The local names (loop variables, option bindings, lets) that ``s`` reads."""
    out = set()
    for n in nodes(s):
        if n.get("node") in ("name", "call"):
            b = binding(n)
            if b is not None and b.what == C.LOCAL:
                out.add(b.name)
    return out


def _zone(e: Any, binding: Binding) -> set:
    if isinstance(e, dict) and e.get("node") in ("name", "call"):
        b = binding(e)
        if b is not None and b.what == C.ZONE:
            return {("zone", b.name)}
        if b is not None and b.what == C.LOCAL and isinstance(b.decl, dict):  # one card: from its zone
            return _zone(b.decl, binding)
    return set()


def _writes(s: dict, binding: Binding, phases: dict, seen: set[str]) -> set:
    """What statement ``s`` (with the blocks inside it and the phases it runs) can change."""
    out: set = set()
    for n in nodes(s):
        node = n.get("node")
        if node in ("set", "set_random", "set_weighted", "roll"):
            out.add("current" if n["target"] == "current" else ("var", n["target"]))
        elif node == "move":
            out.add("pieces")
        elif node == "move_to":
            card = _zone(n["piece"], binding)
            out |= card | _zone(n["to"], binding) if card else {"pieces"}
        elif node in ("move_all", "move_cards", "move_where", "deal", "refill", "choose", "place"):
            for key in ("source", "dest", "zone", "reshuffle"):
                out |= _zone(n.get(key), binding)
            if node == "place":
                out.add("grid")
        elif node == "run" and n["phase"] in phases and n["phase"] not in seen:
            seen.add(n["phase"])
            for inner in phases[n["phase"]]:
                out |= _writes(inner, binding, phases, seen)
    return out


def _reads(e: Any, binding: Binding, players_out: bool, seen: set[str]) -> set:
    """What the expression ``e`` reads of the state (through the defines it uses)."""
    out: set = set()
    for n in nodes(e):
        if players_out and n.get("node") == "domain" and n.get("players"):
            out.add(("var", "out"))
        if n.get("node") not in ("name", "call"):
            continue
        b = binding(n)
        if b is None:
            continue
        if b.what == C.DEFINE and b.name not in seen:
            seen.add(b.name)
            out |= _reads(b.decl["body"], binding, players_out, seen)
        elif b.what == C.VAR:
            out.add(("var", b.name))
        elif b.what == C.ZONE:
            out.add(("zone", b.name))
        elif b.what == C.CURRENT:
            out.add("current")
        elif b.what == C.BUILTIN and b.name in PIECE_QUERIES:
            out.add("pieces")
        elif b.what in (C.GRID, C.ROUTE, C.GRID_COUNT, C.TILE_VAR) or (b.what == C.BUILTIN
                                                                      and b.name in GRID_QUERIES):
            out.add("grid")
        elif b.what == C.BUILTIN and b.name in ("next", "previous") and players_out:
            out.add(("var", "out"))
    return out
