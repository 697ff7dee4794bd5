"""The checked game: what the front end gives the engine, and the only thing it compiles.

A ``CheckedGame`` is the IR that passed the schema and the checker, with what the checker
found out kept instead of thrown away:

* ``symbols``: the one symbol table (every declaration by name);
* a **binding** for every ``name`` and ``call`` node: what the name refers to (a local, a card
  attribute, a param, a define, a value of a kind, a zone, a var, a route, a built-in query...),
  with its declaration;
* a **type** for every expression the checker typed (see ``symbols`` for the type names), and
  ``var_types``, the type each var holds;
* ``params``: the value of every param, the defaults with those given.

The compiler, the renderer and every tool read names and types from here and never resolve or
type an expression again; the lookup order is the checker's (``check.Checker.e_name``). A node
the checker did not see has no binding: asking for it is an internal error, never a guess.
Bindings and types are keyed by the node's identity, so the IR of a checked game must not be
copied or rebuilt (it is not: the engine only reads it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from .diagnostics import Diagnostic
from .symbols import CELLS, DIRECTION_NAMES, DIRECTION_STEPS, EDGE_NAMES, EDGES, Symbols
from .walk import span

__all__ = ["CheckedGame", "Binding", "Symbols", "EDGE_NAMES", "EDGES", "CELLS", "DIRECTION_NAMES", "DIRECTION_STEPS"]

# What a name or a call refers to (Binding.what).
LOCAL = "local"            # a let, a loop variable, an option's binding, a placed tile, a define's or route's parameter
ATTRIBUTE = "attribute"    # a card's attribute, inside 'where'
PLAYERS = "players"        # the number of players
CURRENT = "current"        # the player to move
PARAM = "param"
DEFINE = "define"
VALUE = "value"            # a value of an enum or a piece kind (an edge is a value too)
ZONE = "zone"              # a zone (shared: a name; per player: a call with the player)
VAR = "var"                # a var (shared: a name; per player: a call with the player)
TILE_VAR = "tile_var"      # a per-tile var, called with the tile
TRACK = "track"
GRID = "grid"
KIND = "kind"              # a kind, as the domain of a loop
ROUTE = "route"            # a route query, called with its arguments
GRID_COUNT = "grid_count"  # count(<grid>): the tiles placed
BUILTIN = "builtin"        # a built-in query (see symbols.BUILTINS)
WAS = "was"                # was(e) in an invariant
TAG = "tag"                # a track's tag, the last argument of tagged(track, space, tag)
BOARD = "board"            # a board of cells (as a domain: its cells)
CELL_VAR = "cell_var"      # a per-cell var, called with the cell


@dataclass(frozen=True)
class Binding:
    """What a name or call node refers to: ``what`` (one of the constants above), the name, and
    the declaration node when there is one (a param's, zone's, var's, define's or route's)."""

    what: str
    name: str
    decl: Optional[dict] = None


@dataclass
class CheckedGame:
    """The IR of a game that passed the schema and the checker, with its symbol table, the
    binding of every name and the type of every expression (see the module's docstring)."""

    ir: dict[str, Any]
    symbols: Symbols
    params: dict[str, int]
    source_path: str = ""
    warnings: list[Diagnostic] = field(default_factory=list)
    var_types: dict[str, str] = field(default_factory=dict)
    bindings: dict[int, Binding] = field(default_factory=dict, repr=False)
    types: dict[int, str] = field(default_factory=dict, repr=False)
    # the IR as written, with its generated decks as loops (``ir`` has them written out, for the
    # params given): what ``meeple ir`` prints, so that it stays the game for any params
    written: Optional[dict[str, Any]] = field(default=None, repr=False)
    # the rules texts the loader read (the file and the bases it extends), by path: the only
    # files whose lines are shown beside the code (an IR document's "sources" are its word only)
    texts: dict[str, str] = field(default_factory=dict, repr=False)

    def binding(self, node: dict) -> Binding:
        """What the name or call ``node`` refers to."""
        found = self.bindings.get(id(node))
        if found is None:
            where = span(node)
            raise LookupError(f"the checker bound no name at {node.get('node')} {where}: "
                              f"this is a bug in meeple")
        return found

    def card_zone(self, s: dict) -> Optional[dict]:
        """For 'move c to zone' and 'reveal c' of a card ``c`` that a loop or an option took from
        a zone: that zone's expression (the checker binds such a name with it); None for any
        other statement."""
        piece = s.get("piece") if s.get("node") == "move_to" else s.get("what") if s.get("node") == "reveal" else None
        if isinstance(piece, dict) and piece.get("node") == "name":
            b = self.binding(piece)
            return b.decl if b.what == LOCAL else None
        return None

    def what(self, node: Any) -> Optional[str]:
        """What a name or call node refers to (``binding(node).what``); None for any other node."""
        if isinstance(node, dict) and node.get("node") in ("name", "call"):
            return self.binding(node).what
        return None

    def type_of(self, node: dict) -> str:
        """The type of the expression ``node`` (for a define's body: at its last use)."""
        found = self.types.get(id(node))
        if found is None:
            raise LookupError(f"the checker typed no expression at {node.get('node')} {span(node)}: "
                              f"this is a bug in meeple")
        return found
