"""Semantic checks of an IR document (``check``): names resolve, types fit, counts
are possible, nothing is declared twice or left unused. All problems are collected."""

from __future__ import annotations

import contextlib
import math
import re
from dataclasses import replace

from collections.abc import Iterator
from typing import Any, Optional

from . import checked as C
from .diagnostics import Diagnostic, did_you_mean
from .decks import generate_varieties
from .endings import end_cuts
from .expand import expansion_problems, on_cycles
from .fold import fold
from .limits import (MAX_CARDS, MAX_CELLS, MAX_CHOSEN_CARDS, MAX_DICE, MAX_NESTED_RUNS, MAX_OPTION_VALUES,
                     MAX_PLAYERS, MAX_RANGE, MAX_SIDE, MAX_SPACES, MAX_STEPS, MAX_SUGGESTION_WORK)
from .symbols import (AGGREGATES, ANY, BOARD, BOOL, BUILTIN_VARS, BUILTINS, CARD, CELL, CELL_FORMS, CELLS, DIRECTION,
                      DIRECTION_KIND, DIRECTION_NAMES, EDGE, EDGE_NAMES, EDGES, GRID, INT, KEYWORD_NAMES, NONE, PLAYER,
                      LATER_BUILTINS, ROUTE_CLAUSES, TILE, ZONE, Symbols, attr_type, collect, kind_type)
from .walk import at_span, children, names, nodes, same, span

WAS = "was"  # was(e) in an invariant: the value of e before the step
BINDERS = {"for": "loop variable", "comprehension": "loop variable", "binding": "option variable",
           "place": "placement's tile"}  # the nodes that bind a variable ('var'), as a message names each
ARITH = {"+", "-", "*", "/", "%"}
ORDER = {"<", "<=", ">", ">="}
EQUALITY = {"==", "!="}
LOGIC = {"and", "or"}


def check(ir: dict, file: str, params: Optional[dict[str, int]] = None) -> list[Diagnostic]:
    """Every semantic problem of a schema-valid IR document (warnings included)."""
    return Checker(ir, file, params or {}).run()


def checked_game(ir: dict, file: str, params: Optional[dict[str, int]] = None
                 ) -> tuple[Optional[C.CheckedGame], list[Diagnostic]]:
    """Check ``ir``: its diagnostics, and the checked game when none of them is an error."""
    written = ir
    loops = {f"$.cards[{i}].varieties[{j}]": v for i, c in enumerate(ir.get("cards", ()))
             for j, v in enumerate(c.get("varieties", ())) if v.get("node") == "variety_loop"}
    ir, problems = generate_varieties(ir, params or {})  # a generated deck, written out
    checker = Checker(ir, file, params or {})
    checker.used.update(names(list(loops.values())))  # (the params and kinds its loops ran over)
    for node, message in problems:  # (the rest of the file is checked too: all its errors at once)
        checker.error(node, message, "$.cards", notes=("the cards this loop would make are left out of the "
                                                        "checks of the rest of the file",))
    diags = checker.run()
    for path, loop in loops.items():
        if not loop["varieties"]:
            checker.error(loop, "this loop of the deck writes out no variety (its braces are empty): put the "
                                "varieties it makes in them, as 'for s in suit { 1 card { suit = s } }'", path)
    if any(d.kind == "error" for d in diags):
        return None, diags
    game = C.CheckedGame(ir, checker.sym, dict(checker.values), file, [d for d in diags if d.kind != "error"],
                         dict(checker.var_types), checker.bindings, checker.types, written=written)
    return game, diags


SAME_FOR_ALL = {  # what a score, tiebreak or returns the same for every player means
    "score": "every game that has a winner is a shared win of all the players (a cooperative game means "
             "that; else write what player '{p}' scores, as in score({p}) = count(hand({p})))",
    "tiebreak": "it never breaks a tie",
    "returns": "every player gets the same return",
}

# Words of other languages for the values this one writes in lower case ('None', 'null', 'True').
OTHER_LANGUAGES_WORDS = {"None": "none", "null": "none", "nil": "none", "NULL": "none", "undefined": "none",
                         "True": "true", "TRUE": "true", "False": "false", "FALSE": "false"}


class _Attr(str):
    """The type of a card attribute in the scope of 'where' (a name bound to the card's attribute)."""


class _Card(str):
    """The type of a name bound to one card of a zone (a loop's, an option's): ``zone`` is the
    expression of the zone it was taken from, where 'move c to z' takes it from; ``at`` the zone
    a 'move c to z' of the block put it in (None: not moved), where 'reveal c' shows it."""

    zone: dict
    at: Optional[dict] = None


class Checker:
    def __init__(self, ir: dict, file: str, params: dict[str, int]):
        self.ir = ir
        self.file = file
        self.sources = ir.get("sources") or [file]  # a merged variant's files (see dsl/variants.py)
        self.sym: Symbols = collect(ir)
        self.values = {p["name"]: p["default"] for p in ir["params"]}
        self.values.update(params)
        self.diags: list[Diagnostic] = []
        self.seen: set[Diagnostic] = set()  # the diags, for a constant-time "reported already?"
        self.used: set[str] = set()
        self.define_stack: list[str] = []
        self.nesting: list[int] = []  # the values of each loop and aggregate around the node checked
        self.var_types: dict[str, str] = {}  # filled in declaration order
        self.route_stack: list[str] = []
        self.in_invariant = False  # was(...) is allowed there only
        self.in_was = False  # inside was(...): another was(...) is meaningless
        self.domain_nodes: set[int] = set()  # the expressions a loop runs over (line(c, d) is one of them only)
        self.board_size: dict[str, tuple[int, int]] = {}
        self.bindings: dict[int, C.Binding] = {}  # id(name or call node) → what it refers to
        self.types: dict[int, str] = {}  # id(expression node) → its type
        self.suggestion_work = MAX_SUGGESTION_WORK  # names left to compare for "did you mean"
        self.global_names: Optional[list[str]] = None  # for "did you mean", once needed
        # the locals bound so far (a loop's, an option's variable, a let): name -> (node, field, what), for a
        # note when one is used outside the block that knows it
        self.bound_locals: dict[str, tuple[dict, Optional[str], str]] = {}
        self.index = {(key, d["name"]): i for key in ("defines", "routes", "phases")
                      for i, d in reversed(list(enumerate(ir.get(key, ()))))}  # the first of a name

    # ---- reporting ----
    def error(self, node: Any, message: str, path: str, at_field: Optional[str] = None, kind: str = "error",
              notes: tuple[str, ...] = ()) -> None:
        """Report ``message`` at ``node`` (at its field ``at_field``'s text, when that has a position)."""
        at = span(node, at_field) or span(node)
        line, col, end_line, end_col = at[:4] if at else (0, 0, 0, 0)
        file = self.where_file(at)
        d = Diagnostic(file, message, line, col, end_line, end_col, path=path, kind=kind, notes=notes)
        if d not in self.seen:
            self.seen.add(d)
            self.diags.append(d)

    def where_file(self, at: Optional[list]) -> str:
        return self.sources[at[4]] if at and len(at) > 4 and at[4] < len(self.sources) else self.file

    def first_place(self, node: Any, at_field: Optional[str] = "name") -> tuple[str, ...]:
        """A note naming where ``node`` (the first of two of the same name) stands."""
        at = span(node, at_field) or span(node)
        return (f"the first is at {self.where_file(at)}:{at[0]}:{at[1]}",) if at else ()

    def warn(self, node: Any, message: str, path: str, at_field: Optional[str] = None,
             notes: tuple[str, ...] = ()) -> None:
        self.error(node, message, path, at_field, kind="warning", notes=notes)

    def suggest(self, name: str, *groups: Any) -> str:
        """``did_you_mean`` over the names of ``groups``, while the work allowed lasts: each
        suggestion compares ``name`` with every name (a file of thousands of unknown names
        among thousands of names would take minutes)."""
        if self.suggestion_work <= 0:
            return ""
        known = [n for g in groups for n in g]
        self.suggestion_work -= len(known)
        return did_you_mean(name, known)

    # ---- whole file ----
    def run(self) -> list[Diagnostic]:
        ir = self.ir
        before = len(self.diags)  # (a generated deck's problems, said already)
        for p in expansion_problems(ir):  # before any work that grows with them
            self.error(p.node, p.message, p.path, p.at_field)
        if len(self.diags) > before:
            return self.diags
        self.check_names()
        self.check_players()
        self.check_params()
        for i, v in enumerate(ir["vars"]):
            t = self.expr(v["init"], {}, f"$.vars[{i}].init")
            on_board = v.get("grid") in self.sym.boards
            want = {INT, BOOL, NONE} if on_board else {INT, BOOL} if v.get("grid") else {INT, BOOL, PLAYER, NONE}
            if not v.get("grid") and t.startswith("kind:") and t != "kind:*":
                want = {t}  # a value of a kind (an enum's, a piece): the var holds values of that kind
            if on_board and t.startswith("kind:") and t != "kind:*":  # (a value of a kind on every cell)
                self.error(v["init"], f"a per-cell var's start value is a number, true/false or none: one that holds "
                                      f"values of '{t[5:]}' starts as none (var {v['name']} per {v['grid']} = none) "
                                      f"and is set where the rules say (in the setup: for c in {v['grid']} "
                                      f"{{ set {v['name']}(c) = ... }})", f"$.vars[{i}].init")
            else:
                self.expect(v["init"], t, want, "a var's start value", f"$.vars[{i}].init")
            self.var_types.setdefault(v["name"], t)
            if on_board and v["init"]["node"] not in ("bool", "none_value") and self.const(v["init"]) is None \
                    and t in want:  # (one of another type has had its error)
                self.error(v["init"], "a per-cell var's start value is a number, true/false or none, or made of "
                                      "params: the same on every cell, known before the game starts",
                           f"$.vars[{i}].init")
            if v.get("grid") and v.get("visibility", "public") != "public":
                self.error(v, f"what lies on a {'board' if on_board else 'grid'} is in plain sight: a var per "
                              f"{'cell' if on_board else 'tile'} is public", f"$.vars[{i}]")
            elif v.get("visibility") == "private" and not v["per_player"]:
                self.warn(v, f"a shared private var is seen by no one: write 'var {v['name']} hidden' to say so",
                          f"$.vars[{i}]")
            if v.get("grid") and v["grid"] not in self.sym.grids and not on_board:
                seats = v["grid"].lower() in ("players", "seat", "seats", "each_player", "everyone", "person")
                hint = f" (a value for each player is 'var {v['name']} per player = ...')" if seats else \
                    self.suggest(v['grid'], self.sym.grids, self.sym.boards)
                self.error(v, f"unknown grid or board '{v['grid']}'{hint}", f"$.vars[{i}]", "grid")
        for name, v in self.sym.vars.items():
            if v.get("builtin"):  # out(p), next: kept by the engine for a game that uses them
                self.var_types[name] = BUILTIN_VARS[name][1]
        self.scout_var_types()
        self.check_tracks()
        self.check_grids()
        self.check_boards()
        self.check_pieces()
        self.check_cards()
        if not ir["turn"] and span(ir, "turn"):  # written, with nothing in it
            self.error(ir, "the 'turn' block is empty: put in it what happens in a player's turn (such as "
                           "a decision, 'choose NAME { OPTION { ... } }')", "$.turn", "turn")
        elif not ir["turn"]:
            self.error(at_span([1, 1, 1, 2]), "the game has no 'turn { ... }' block", "$.turn")
        self.block(ir["setup"], {}, "$.setup")
        self.block(ir["turn"], {}, "$.turn")
        for i, ph in enumerate(ir["phases"]):
            if ph["name"] not in self.used:
                self.block(ph["body"], {}, f"$.phases[{i}].body")
        self.check_phase_cycles()
        for i, e in enumerate(ir["end"]):
            self.expect(e["test"], self.expr(e["test"], {}, f"$.end[{i}].test"), {BOOL}, "'end when'",
                        f"$.end[{i}].test")
            self.constant_test(e["test"], "end", f"$.end[{i}].test")
        puts_out = self.sym.vars.get("out", {}).get("builtin", False)  # (every player out ends the game)

        def ends(n: dict) -> bool:  # 'end game', or a player put out ('set out(p) = false' puts none out)
            return n.get("node") == "end_game" or (puts_out and n.get("target") == "out"
                                                   and (n.get("value") or {}).get("value") is not False)
        if not ir["end"] and not any(ends(n) for part in ("setup", "turn", "phases") for n in nodes(ir[part])):
            self.warn(at_span([1, 1, 1, 2]), "nothing ends the game: there is no 'end when TEST' and no 'end game' "
                                             "statement, so every game runs into the step cap", "$.end")
        for key in ("score", "tiebreak", "returns"):
            pe = ir.get(key)
            if pe:
                scope = {pe["player"]: PLAYER}
                self.expect(pe["expr"], self.expr(pe["expr"], scope, f"$.{key}.expr"), {INT}, f"'{key}'",
                            f"$.{key}.expr")
                if pe["player"] not in names(pe["expr"]):
                    self.warn(pe, f"{key}({pe['player']}) does not read '{pe['player']}', so it is the same for "
                                  f"every player: {SAME_FOR_ALL[key].format(p=pe['player'])}", f"$.{key}", "player")
        labels: set[str] = set()
        for i, r in enumerate(ir["reports"]):
            if r["label"] in labels:
                self.error(r, f"report \"{r['label']}\" is declared twice", f"$.reports[{i}]")
            labels.add(r["label"])
            self.expr(r["expr"], {}, f"$.reports[{i}].expr")
        self.check_invariants()
        self.check_shown()
        self.check_routes()
        for i, d in enumerate(ir["defines"]):
            if len(set(d["params"])) != len(d["params"]):
                twice = next(p for j, p in enumerate(d["params"]) if p in d["params"][:j])
                self.error(d, f"define '{d['name']}' names its parameter '{twice}' twice", f"$.defines[{i}]", "name")
            if d["name"] not in self.used:  # checked once, its params taken as anything
                self.define_stack.append(d["name"])
                self.expr(d["body"], {p: ANY for p in d["params"]}, f"$.defines[{i}].body")
                self.define_stack.pop()
        self.check_unused()
        if not any(d.kind == "error" for d in self.diags):  # (a name misspelt where a var is read: not unread)
            self.check_never_read()
            self.check_end_cuts()
            self.check_card_flow()
        return self.diags

    def zones_named(self, e: Any, depth: int = 0) -> Optional[set[str]]:
        """The zones a zone expression may name (``hand(p)`` → {"hand"}, through defines that name
        zones); None when it cannot be told."""
        if not isinstance(e, dict) or depth > 20:
            return None
        name = e.get("id") if e.get("node") == "name" else e.get("func") if e.get("node") in ("call", "filtered") \
            else None
        if not isinstance(name, str):
            return None
        if name in self.sym.zones:
            return {name}
        define = self.sym.defines.get(name)
        return self.zones_named(define["body"], depth + 1) if define is not None else None

    def check_card_flow(self) -> None:
        """Which kinds of cards may ever lie in each zone (where they start, then every statement
        that moves cards: a deal, a refill and its reshuffle, a move, a choice of cards), and a
        warning where cards are taken from a zone none can reach (the statement takes nothing: a
        choice or a placement from it never has a move), or where a placement or a 'move N
        variety' takes cards of a kind that never lies there."""
        ir, sym = self.ir, self.sym
        held: dict[str, set[str]] = {z: set() for z in sym.zones}
        for c in ir["cards"]:
            if c.get("zone") in held:
                held[c["zone"]].add(c["name"])
        flows: list[tuple[Optional[set[str]], Optional[set[str]], Optional[str]]] = []  # (from, to, kind only)
        takes: list[tuple[dict, str, dict, Optional[str]]] = []  # (statement, path, source, the kind it takes)
        places = [(ir["setup"], "$.setup"), (ir["turn"], "$.turn"),
                  *((ph["body"], f"$.phases[{i}].body") for i, ph in enumerate(ir["phases"]))]

        def walk(x: Any, path: str) -> None:
            if isinstance(x, list):
                for i, v in enumerate(x):
                    walk(v, f"{path}[{i}]")
                return
            if not isinstance(x, dict):
                return
            kind = x.get("node")
            if kind in ("deal", "refill", "move_all", "move_where", "move_cards", "choose", "place"):
                only = None
                if kind == "move_cards":
                    only = (sym.varieties.get(x.get("variety")) or (None,))[0]
                elif kind == "place":
                    only = (sym.grids.get(x.get("grid")) or {}).get("tiles")
                if kind != "place":
                    flows.append((self.zones_named(x["source"]), self.zones_named(x["zone" if kind == "refill"
                                                                                       else "dest"]), only))
                if x.get("reshuffle") is not None:  # the pile goes back into the zone drawn from
                    flows.append((self.zones_named(x["reshuffle"]), self.zones_named(x["source"]), None))
                takes.append((x, path, x["source"], only))
            elif kind == "move_to":  # a card a loop or an option took, to a zone (a piece: to a progress)
                dest = self.zones_named(x.get("to"))
                if dest is not None:
                    flows.append((None, dest, None))
            for f, v in children(x):
                walk(v, f"{path}.{f}")

        for block, path in places:
            walk(block, path)
        zones = list(held)
        out_of: dict[str, list[tuple[Optional[set[str]], Optional[str]]]] = {}  # zone → where its cards go
        if any(source is None for source, _, _ in flows):  # a card from any zone: "" gathers them all
            held[""] = set()
            for z in zones:
                out_of[z] = [({""}, None)]
        for source, dest, only in flows:
            for z in (source or {""}):
                out_of.setdefault(z, []).append((dest, only))
        todo = list(zones)  # (a zone whose cards grew: they go on; each zone grows at most once per kind)
        while todo:
            z = todo.pop()
            for dest, only in out_of.get(z, ()):
                moved = held[z] if only is None else held[z] & {only}
                for d in (zones if dest is None else dest):
                    if not moved <= held[d]:
                        held[d] |= moved
                        todo.append(d)
        told: set[tuple[str, Optional[str]]] = set()
        for stmt, path, source, only in takes:
            named = self.zones_named(source)
            if named is None:
                continue
            there = set().union(*(held[z] for z in named))
            name = "', '".join(sorted(named))
            if not there and (name, None) not in told:
                told.add((name, None))
                self.warn(source, f"no card ever lies in zone '{name}': none start there and no rule moves any "
                                  f"there, so this takes nothing from it", f"{path}.source")
            elif there and only is not None and only not in there and (name, only) not in told:
                told.add((name, only))
                what = "placement has no tile to lay" if stmt["node"] == "place" else "takes nothing"
                kinds = ", ".join(f"'{k}'" for k in sorted(there))
                self.warn(source, f"no card of kind '{only}' ever lies in zone '{name}' (only {kinds} cards do), "
                                  f"so this {what}", f"{path}.source")

    def check_shown(self) -> None:
        """``show`` values are values of the game; a ``label`` names a var, a card variety, a
        decision or an option (``decision.option``), and only a var may be ``hidden``."""
        shown: dict[str, dict] = {}
        for i, sh in enumerate(self.ir.get("shows", [])):
            if sh["label"] in shown:  # (it would be a second row of one name in play)
                self.error(sh, f"show \"{sh['label']}\" is declared twice: give each its own text (a variant "
                               f"changes the base's with 'replace show \"{sh['label']}\" = ...')", f"$.shows[{i}]",
                           notes=self.first_place(shown[sh["label"]], None))
            shown.setdefault(sh["label"], sh)
            scope = {sh["player"]: PLAYER} if sh.get("player") else {}
            t = self.expr(sh["expr"], scope, f"$.shows[{i}].expr")
            if t in (ZONE, GRID, BOARD, CELLS, CARD):
                self.error(sh["expr"], f"'show' shows a value, not {_show(t)}", f"$.shows[{i}].expr")
        decisions = {n.get("label"): n for n in nodes([self.ir["setup"], self.ir["turn"],
                                                          *(ph["body"] for ph in self.ir["phases"])])
                     if n.get("node") in ("choose", "place", "choose_one") and isinstance(n.get("label"), str)}
        options = {f"{label}.{o['name']}" for label, d in decisions.items() for o in d.get("options") or []}
        labelled: dict[str, dict] = {}
        for i, lb in enumerate(self.ir.get("labels", [])):
            target = lb["target"]
            first = labelled.get(target)
            line = span(first) if first is not None else None  # (without positions: maybe a variant's merge)
            if line and span(lb) and self.source_of(first) == self.source_of(lb):  # (a variant may relabel)
                self.warn(lb, f"'{target}' is labelled twice (first at line {line[0]}): the last label holds",
                          f"$.labels[{i}]", "target")
            labelled[target] = lb
            known = target in self.sym.vars or target in self.sym.varieties or target in decisions or target in options
            if not known:
                names = [*self.sym.vars, *self.sym.varieties, *decisions, *options]
                self.error(lb, f"'label' names a var, a card variety, a decision or an option (decision.option), "
                               f"not '{target}'{self.suggest(target, names)}", f"$.labels[{i}]", "target")
            elif lb.get("text") is None and target not in self.sym.vars:
                self.error(lb, f"only a var can be 'hidden' from play; give '{target}' a label in quotes",
                           f"$.labels[{i}]", "target")

    def check_rule_names(self) -> None:
        """A rule's name ([name]) names one rule of the game."""
        seen: dict[str, dict] = {}
        for node in nodes([self.ir["setup"], self.ir["turn"], *(ph["body"] for ph in self.ir["phases"]),
                           self.ir["end"]]):
            name = node.get("rule") if node.get("node") != "rule_change" else None
            if not isinstance(name, str):
                continue
            if name in seen:
                here, other = node, seen[name]
                if self.source_of(other) < self.source_of(here):  # (said in the file nearest the one checked)
                    here, other = other, here
                at = span(other)
                k = self.source_of(other)
                file = "" if k == self.source_of(here) else f"{self.sources[k]}:"
                where = f"; the other is at {file or 'line '}{at[0]}" if at else ""
                self.error(here, f"two rules are named [{name}]{where}", "$", "rule")
            else:
                seen[name] = node

    def source_of(self, node: dict) -> int:
        """The index in ``sources`` of the file a node stands in (0: the file checked)."""
        at = span(node)
        return at[4] if at and len(at) > 4 and at[4] < len(self.sources) else 0

    def check_end_cuts(self) -> None:
        """Warn where an 'end when' can end the game between two statements about one thing
        (dsl/endings.py)."""
        out = self.sym.vars.get("out", {}).get("builtin", False)
        paths = self.node_paths()
        for cut in end_cuts(self.ir, lambda n: self.bindings.get(id(n)), out):
            end, later = span(self.ir["end"][cut.end]), span(cut.later)
            before = f"line {later[0]}" if later else "a later statement"  # (an IR document may have no positions)
            self.warn(cut.stmt, f"the game can end right after this, before {before} "
                                f"(which works on '{cut.name}' too) runs: the 'end when'"
                                f"{f' at line {end[0]}' if end else ''} reads what "
                                f"this changes, and it is judged after every statement; if the rest of the block "
                                f"must run first, change that last, or end the game with 'end game' where the "
                                f"block is done", paths.get(id(cut.stmt), "$"))

    def node_paths(self) -> dict[int, str]:
        """The JSON path of every node of the game's blocks, by its id."""
        out: dict[int, str] = {}

        def walk(x: Any, path: str) -> None:
            if isinstance(x, dict):
                out[id(x)] = path
                for k, v in x.items():
                    walk(v, f"{path}.{k}")
            elif isinstance(x, list):
                for i, v in enumerate(x):
                    walk(v, f"{path}[{i}]")

        walk(self.ir["setup"], "$.setup")
        walk(self.ir["turn"], "$.turn")
        for i, ph in enumerate(self.ir["phases"]):
            walk(ph["body"], f"$.phases[{i}].body")
        return out

    def check_invariants(self) -> None:
        names: set[str] = set()
        for i, inv in enumerate(self.ir.get("invariants", ())):
            path = f"$.invariants[{i}]"
            if inv["name"] in names:
                self.error(inv, f"invariant '{inv['name']}' is declared twice", path, "name")
            names.add(inv["name"])
            self.in_invariant = True
            self.expect(inv["test"], self.expr(inv["test"], {}, f"{path}.test"), {BOOL}, "an invariant",
                        f"{path}.test")
            self.in_invariant = False

    def scout_var_types(self) -> None:
        """A var that starts as ``none`` holds what it is set to; read the statements once,
        quietly, to learn that from every ``set`` wherever it stands in the file, so that a
        read written above the first ``set`` is typed too."""
        if NONE not in self.var_types.values():
            return
        diags, seen, used = self.diags, self.seen, set(self.used)
        self.diags, self.seen = [], set()
        self.block(self.ir["setup"], {}, "$.setup")
        self.block(self.ir["turn"], {}, "$.turn")
        for i, ph in enumerate(self.ir["phases"]):
            self.block(ph["body"], {}, f"$.phases[{i}].body")
        self.diags, self.seen, self.used = diags, seen, used

    def check_names(self) -> None:
        seen: dict[str, str] = {}
        first: dict[str, Any] = {}
        groups = [("param", "params"), ("kind", "enums"), ("track", "tracks"), ("kind", "pieces"),
                  ("grid", "grids"), ("board", "boards"), ("route", "routes"), ("zone", "zones"), ("var", "vars"),
                  ("define", "defines")]
        if self.sym.grids:
            seen["edge"] = "kind"
            seen.update((e, "value") for e in EDGE_NAMES)
        elif self.sym.boards:
            seen[DIRECTION_KIND] = "kind that a board brings"
            seen.update((d, "direction that a board brings") for d in DIRECTION_NAMES)
        reserved = (set(KEYWORD_NAMES) | set(BUILTINS) | AGGREGATES | {WAS}) - LATER_BUILTINS
        for what, key in groups:
            for i, d in enumerate(self.ir.get(key, ())):
                name = d["name"]
                if name in reserved:
                    self.error(d, f"'{name}' is a built-in name and cannot be declared", f"$.{key}[{i}]",
                               "name")
                elif name in seen:
                    message = f"{what} '{name}' is declared twice" if seen[name] == what else \
                        f"{what} '{name}' clashes with the {seen[name]} of the same name"
                    self.error(d, message, f"$.{key}[{i}]", "name", notes=self.first_place(first.get(name)))
                else:
                    seen[name], first[name] = what, d
        for key in ("enums", "pieces"):
            for i, d in enumerate(self.ir[key]):
                values = d["values"]
                if d.get("per_player") and self.sym.kinds.get(d["name"]) is not None and \
                        self.sym.piece_kinds.get(d["name"]) == d["track"]:
                    values = self.sym.kinds[d["name"]]  # a_0 b_0 a_1 ...: the names the rules use
                for j, v in enumerate(values):
                    path = f"$.{key}[{i}].values[{j % max(1, len(d['values']))}]"
                    at = span(d, "values")
                    j = j % max(1, len(d["values"]))
                    node = at_span(at[j]) if at and j < len(at) else d
                    if v in seen:
                        self.error(node, f"value '{v}' clashes with the {seen[v]} of the same name", path,
                                   notes=self.first_place(first.get(v)))
                    else:
                        seen[v], first[v] = "value", node
        self.check_unique("phases", "phase")
        self.check_unique("cards", "card kind")
        varieties: dict[str, Any] = {}
        for i, c in enumerate(self.ir["cards"]):
            for j, v in enumerate(c["varieties"]):
                if v["name"] in varieties:
                    self.error(v, f"card '{v['name']}' is declared twice", f"$.cards[{i}].varieties[{j}]",
                               "name", notes=self.first_place(varieties[v["name"]]))
                varieties.setdefault(v["name"], v)

    def check_unique(self, key: str, what: str) -> None:
        names: dict[str, Any] = {}
        for i, d in enumerate(self.ir[key]):
            if d["name"] in names:
                self.error(d, f"{what} '{d['name']}' is declared twice", f"$.{key}[{i}]", "name",
                           notes=self.first_place(names[d["name"]]))
            names.setdefault(d["name"], d)

    def check_players(self) -> None:
        if not 0 <= self.ir["max_steps"] <= MAX_STEPS or (self.ir["max_steps"] == 0 and span(self.ir, "max_steps")):
            self.error(self.ir, f"max_steps must be within 1..{MAX_STEPS}", "$.max_steps", "max_steps")
        p = self.ir["players"]
        if p is None:
            self.error(at_span([1, 1, 1, 2]), "the game does not say how many play: add 'players MIN..MAX'",
                       "$.players")
            return
        if not (1 <= p["lo"] <= MAX_PLAYERS and 1 <= p["hi"] <= MAX_PLAYERS):
            self.error(p, f"players {p['lo']}..{p['hi']}: a game is for 1 to {MAX_PLAYERS} players", "$.players")
        elif p["lo"] > p["hi"]:
            self.error(p, f"players {p['lo']}..{p['hi']}: the range runs backwards; write "
                          f"'players {p['hi']}..{p['lo']}'", "$.players")

    def check_params(self) -> None:
        for c in self.ir.get("changes", []):  # left only in a file that extends nothing
            self.error(c, f"'{c['action']}' changes a base game, so it belongs in a variant: a file that "
                          f"starts with 'extends \"base.rules\"'", "$.changes")
        for key in ("rule_changes", "extensions"):
            for c in self.ir.get(key, []):
                verb = "extend" if key == "extensions" else "insert" if c["action"] in ("before", "after") \
                    else c["action"]
                self.error(c, f"'{verb}' changes a base game, so it belongs in a variant: a file that "
                              f"starts with 'extends \"base.rules\"'", f"$.{key}")
        self.check_rule_names()
        for i, p in enumerate(self.ir["params"]):
            if p["lo"] is None or p["hi"] is None:
                self.error(p, f"param '{p['name']}' needs a range: param {p['name']} = {p['default']} in LOW..HIGH",
                           f"$.params[{i}]")
                continue
            if p["lo"] > p["hi"]:
                self.error(p, f"param '{p['name']}' has an empty range {p['lo']}..{p['hi']}", f"$.params[{i}]")
            elif not p["lo"] <= p["default"] <= p["hi"]:
                self.error(p, f"param '{p['name']}' = {p['default']} lies outside its range "
                              f"{p['lo']}..{p['hi']}", f"$.params[{i}]")
            value = self.values.get(p["name"])
            if value is not None and value != p["default"] and not p["lo"] <= value <= p["hi"]:
                self.error(p, f"param '{p['name']}' was set to {value}, outside its range "
                              f"{p['lo']}..{p['hi']}", f"$.params[{i}]")
                self.diags[-1] = replace(self.diags[-1], param=p["name"])

    def check_tracks(self) -> None:
        for i, t in enumerate(self.ir["tracks"]):
            path = f"$.tracks[{i}]"
            spaces = self.count(t["spaces"], f"{path}.spaces", MAX_SPACES, "spaces")
            if t.get("loop") and spaces == 0:  # (its spaces go round: space_of counts modulo them)
                self.error(t["spaces"], f"circuit '{t['name']}' has no spaces to go round: give it at least 1",
                           f"{path}.spaces")
            total: Optional[int] = 0
            for j, tc in enumerate(t["tiles"]):
                n = self.count(tc["count"], f"{path}.tiles[{j}].count", MAX_SPACES, "tiles")
                total = None if n is None or total is None else total + n
            fixed = self.fixed_spaces(t, path, spaces)
            if t["tiles"] and spaces is not None and total is not None and fixed is not None \
                    and total != spaces - len(fixed):
                self.error(t, f"track '{t['name']}' has {spaces} spaces but its tiles add up to {total}"
                           + (f" (with {len(fixed)} of them tagged at fixed places, the tiles are for "
                              f"{spaces - len(fixed)})" if fixed else ""), path)

    def fixed_spaces(self, t: dict, path: str, spaces: Optional[int]) -> Optional[dict[int, str]]:
        """The spaces of a track that carry a tag from the start (``mud at 5, 11``), checked: each
        one of the track's spaces, none named twice. None if one is not known here, or is wrong
        (the tiles are then not counted against the spaces left: that error would follow from this one)."""
        out: dict[int, str] = {}
        known = True
        for j, f in enumerate(t.get("fixed", ())):
            if not f["spaces"]:  # (only an IR document can say so: the rules text needs one)
                self.error(f, f"'{f['tag']} at' names no space of track '{t['name']}'", f"{path}.fixed[{j}]")
            for k, e in enumerate(f["spaces"]):
                at = f"{path}.fixed[{j}].spaces[{k}]"
                typed = self.expr(e, {}, at)
                self.expect(e, typed, {INT}, "a space's number", at)
                space = self.const(e)
                if space is None:
                    if typed == INT:  # (any other type is reported as such)
                        self.error(e, "a space's number here must be a number or made of params", at)
                    known = False
                elif spaces is not None and not 1 <= space <= spaces:
                    self.error(e, f"track '{t['name']}' has spaces 1..{spaces}: no space {space} to tag "
                                  f"'{f['tag']}'", at)
                    known = False
                elif space in out:
                    self.error(e, f"space {space} of track '{t['name']}' is named twice for '{f['tag']}'"
                               if out[space] == f["tag"] else f"space {space} of track '{t['name']}' is "
                               f"tagged twice ('{out[space]}' and '{f['tag']}')", at)
                    known = False
                else:
                    out[space] = f["tag"]
        return out if known else None

    def check_grids(self) -> None:
        for i, g in enumerate(self.ir.get("grids", ())):
            path = f"$.grids[{i}]"
            if i > 0:
                self.error(g, "a game may have one grid", path, "name")
            if g["tiles"] not in self.sym.card_kinds:
                self.error(g, f"unknown card kind '{g['tiles']}'"
                              f"{self.suggest(g['tiles'], self.sym.card_kinds)}",
                           path, "tiles")
            if self.sym.attrs.get(g["paths"]) != EDGES:
                what = "is not a list of edge sets" if g["paths"] in self.sym.attrs else "is not a card attribute"
                self.error(g, f"'{g['paths']}' {what}: write it on each tile, as {g['paths']} = [N S]", path,
                           "paths")
            else:
                for c in self.ir["cards"]:
                    for v in c["varieties"] if c["name"] == g["tiles"] else ():
                        paths = next((a["value"] for a in v["attrs"] if a["name"] == g["paths"]), [])
                        if not isinstance(paths, list) or not all(isinstance(p, list) for p in paths):
                            continue  # (a value of another type: the cards' check says so)
                        ends = [e for p in paths for e in p]
                        if len(ends) != len(set(ends)):
                            self.error(v, f"tile '{v['name']}' has two paths through one edge", path, "name")

    def check_boards(self) -> None:
        self.board_size: dict[str, tuple[int, int]] = {}
        for i, b in enumerate(self.ir.get("boards", ())):
            path = f"$.boards[{i}]"
            if i > 0:
                self.error(b, "a game may have one board, for now", path, "name")
            if self.sym.grids:
                self.error(b, "a game may have a grid or a board, not both, for now (the grid's edges N, E, S "
                              "and W would be the board's directions too)", path, "name")
            cols = self.count(b["columns"], f"{path}.columns", MAX_SIDE, "columns")
            rows = self.count(b["rows"], f"{path}.rows", MAX_SIDE, "rows")
            for n, what, at in ((cols, "columns", "columns"), (rows, "rows", "rows")):
                if n == 0:
                    self.error(b[at], f"a board needs at least one of its {what}", f"{path}.{at}")
            if cols and rows:
                if cols * rows > MAX_CELLS:
                    self.error(b, f"board '{b['name']}' has {cols * rows:,} cells; at most {MAX_CELLS:,} are "
                                  f"allowed", path, "name")
                self.board_size.setdefault(b["name"], (cols, rows))

    def check_routes(self) -> None:
        for i, r in enumerate(self.ir.get("routes", ())):
            path = f"$.routes[{i}]"
            if r["grid"] not in self.sym.grids:
                self.error(r, f"unknown grid '{r['grid']}'{self.suggest(r['grid'], self.sym.grids)}", path,
                           "grid")
            if len(set(r["params"])) != len(r["params"]):
                self.error(r, f"route '{r['name']}' names a parameter twice", path, "name")
            if r["name"] not in self.used:  # checked once, its params taken as anything
                self.route_body(r, path, [ANY] * len(r["params"]))
            seen: set[str] = set()
            for j, c in enumerate(r["clauses"]):
                cpath = f"{path}.clauses[{j}]"
                name = c["name"]
                if name not in ROUTE_CLAUSES:
                    self.error(c, f"unknown route clause '{name}'{self.suggest(name, ROUTE_CLAUSES)}", cpath,
                               "name")
                    continue
                if name in seen:
                    self.error(c, f"route clause '{name}' is given twice", cpath, "name")
                seen.add(name)
                types, _ = ROUTE_CLAUSES[name]
                if len(c["params"]) != len(types):
                    names = {0: "no parameters", 1: "one parameter (the tile)", 2: "two parameters (tile, edge)"}
                    self.error(c, f"'{name}' takes {names[len(types)]}", cpath, "name")
                if self.uses_route(c["value"], set(), {*r["params"], *c["params"]}):
                    self.error(c, f"route clause '{name}' uses a route (routes may not use routes)", cpath, "name")
            for required in ("start", "start_edge"):
                if required not in seen:
                    self.error(r, f"route '{r['name']}' needs a '{required} = ...' clause", path, "name")

    def route_body(self, r: dict, path: str, arg_types: list[str]) -> None:
        """Check a route's clauses with its parameters of the given types."""
        scope = dict(zip(r["params"], arg_types))
        for j, c in enumerate(r["clauses"]):
            if c["name"] not in ROUTE_CLAUSES or self.uses_route(c["value"], set(), {*r["params"], *c["params"]}):
                continue
            types, result = ROUTE_CLAUSES[c["name"]]
            if len(c["params"]) != len(types):
                continue
            cpath = f"{path}.clauses[{j}]"
            got = self.expr(c["value"], {**scope, **dict(zip(c["params"], types))}, f"{cpath}.value")
            want = {result, NONE} if result in (TILE, EDGE) else {result}
            self.expect(c["value"], got, want, f"'{c['name']}'", f"{cpath}.value")

    def uses_route(self, e: Any, seen: set[str], local: set[str]) -> bool:
        """Does the expression call a route, directly or through a define? (It runs before the
        expression is typed, so it reads names: ``local`` are the parameters that hide globals.)"""
        for n in nodes(e):
            name = n.get("func") if n["node"] in ("call", "filtered") else n.get("id") if n["node"] == "name" else None
            if n["node"] == "name" and name in local:  # a parameter; f(...) is always the global f
                continue
            if name in self.sym.routes:
                return True
            if name in self.sym.defines and name not in seen:
                seen.add(name)
                define = self.sym.defines[name]
                if self.uses_route(define["body"], seen, set(define["params"])):
                    return True
        return False

    def check_pieces(self) -> None:
        for i, p in enumerate(self.ir["pieces"]):
            if p["track"] not in self.sym.tracks:
                self.error(p, f"unknown track '{p['track']}'{self.suggest(p['track'], self.sym.tracks)}",
                           f"$.pieces[{i}]", "track")
            if len(set(p["values"])) != len(p["values"]):
                self.error(p, f"pieces '{p['name']}' lists a piece twice", f"$.pieces[{i}]")
            self.piece_shape(p, f"$.pieces[{i}]")

    def piece_shape(self, p: dict, path: str) -> None:
        """``per player``, ``entering at`` and ``home`` of a pieces declaration."""
        track = self.sym.tracks.get(p["track"])
        entering, home = p.get("entering", []), p.get("home")
        if not p.get("per_player"):
            for what, there in (("entering at", entering), ("home", home)):
                if there:
                    self.error(p, f"'{what}' is for pieces per player: write 'pieces {p['name']} on {p['track']} "
                                  f"per player {{ ... }}'", path, "name")
            return
        spaces = self.const(track["spaces"]) if track is not None else None
        seats = self.ir["players"]["hi"] if isinstance(self.ir.get("players"), dict) else 1
        if entering:
            if track is not None and not track.get("loop"):
                self.error(entering[0], f"players enter at spaces of their own on a circuit: declare "
                                        f"'circuit {p['track']} {{ ... }}' instead of 'track'", f"{path}.entering[0]")
            if len(entering) < seats:
                self.error(entering[-1], f"'entering at' gives {len(entering)} space(s), one for each seat: the "
                                         f"game may have {seats} players", f"{path}.entering")
            for k, e in enumerate(entering):
                at = f"{path}.entering[{k}]"
                self.expect(e, self.expr(e, {}, at), {INT}, "an entry space", at)
                space = self.const(e)
                if space is None:
                    self.error(e, "an entry space must be a number or made of params", at)
                elif spaces is not None and not 1 <= space <= spaces:
                    self.error(e, f"track '{p['track']}' has spaces 1..{spaces}: no space {space} to enter at", at)
        if home is not None:
            self.count(home, f"{path}.home", MAX_SPACES, "spaces of a home stretch")

    def check_cards(self) -> None:
        total = 0
        attr_types: dict[str, tuple[str, str]] = {}
        for i, c in enumerate(self.ir["cards"]):
            if c["zone"] not in self.sym.zones:
                self.error(c, f"unknown zone '{c['zone']}'{self.suggest(c['zone'], self.sym.zones)}",
                           f"$.cards[{i}]", "zone")
            elif self.sym.zones[c["zone"]]["per_player"]:
                self.error(c, f"cards start in a shared zone; '{c['zone']}' is per player", f"$.cards[{i}]",
                           "zone")
            self.used.add(c["zone"])
            for j, v in enumerate(c["varieties"]):
                path = f"$.cards[{i}].varieties[{j}]"
                n = self.card_count(v["count"], f"{path}.count")
                total += n or 0
                for k, a in enumerate(v["attrs"]):
                    value = a["value"]
                    if isinstance(value, list):
                        bad = [e for p in value for e in p if e not in EDGE_NAMES]
                        if bad:
                            self.error(a, f"unknown edge '{bad[0]}': edges are N, E, S and W", f"{path}.attrs[{k}]")
                        elif not self.sym.grids:
                            self.error(a, "edges belong to tiles: declare a grid first", f"{path}.attrs[{k}]")
                    elif isinstance(value, str) and value not in self.sym.value_kind:
                        self.error(a, f"unknown value '{value}'{self.suggest(value, self.sym.value_kind)}",
                                   f"{path}.attrs[{k}]")
                        continue
                    t = attr_type(value, self.sym.value_kind)
                    first = attr_types.setdefault(a["name"], (t, v["name"]))
                    if first[0] != t:
                        self.error(a, f"attribute '{a['name']}' is {_show(t)} here but {_show(first[0])} on "
                                      f"card '{first[1]}'", f"{path}.attrs[{k}]")
        if total > MAX_CARDS:
            self.error(self.ir["cards"][0], f"the game has {total:,} cards; at most {MAX_CARDS:,} are allowed",
                       "$.cards")

    def card_count(self, e: dict, path: str) -> Optional[int]:
        """The count of a variety of cards, which may also depend on the number of players
        (``(players + 1)``): checked for each number of players the game allows; the most of them."""
        if "players" not in names(e) or self.const(e) is not None:
            return self.count(e, path, MAX_CARDS, "cards")
        self.expect(e, self.expr(e, {}, path), {INT}, "a count", path)
        p = self.ir["players"] or {"lo": 1, "hi": MAX_PLAYERS}
        values = []
        for n in range(p["lo"], p["hi"] + 1):
            value = self.const(e, players=n)
            if value is None:
                self.error(e, "a count here must be a number or made of params and 'players'", path)
                return None
            if value < 0:
                self.error(e, f"a count of cards cannot be negative ({value} with {n} players)", path)
                return None
            values.append(value)
        if max(values) > MAX_CARDS:
            self.error(e, f"{max(values):,} cards is more than the limit of {MAX_CARDS:,}", path)
        return max(values)

    def count(self, e: dict, path: str, limit: int, what: str) -> Optional[int]:
        t = self.expr(e, {}, path)
        self.expect(e, t, {INT}, "a count", path)
        value = self.const(e)
        if value is None:
            if t == INT:
                self.error(e, "a count here must be a number or made of params", path)
            return None
        if value < 0:
            self.error(e, f"a count of {what} cannot be negative ({value})", path)
        elif value > limit:
            self.error(e, f"{value:,} {what} is more than the limit of {limit:,}", path)
        return value

    def const(self, e: dict, players: Optional[int] = None) -> Optional[int]:
        """The value of a count made of numbers, params and arithmetic, else None (``dsl/fold.py``
        computes it, as the compiler does); given ``players``, the name 'players' is that number."""
        if not all(n["node"] in ("int", "name", "un_op", "bin_op") and n.get("op", "-") in ARITH
                   for n in nodes(e)):
            return None
        if players is None:
            value = fold(e, self.param_value)
        else:
            value = fold(e, lambda n: players if n["id"] == "players" and n["id"] not in self.sym.params
                         and self.bound(n) in (C.PLAYERS, None) else self.param_value(n))
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def param_value(self, e: dict) -> Optional[int]:
        """A param's value, for a name that is the param (not a local that hides it)."""
        if e["id"] in self.sym.params and self.bound(e) in (C.PARAM, None):  # None: not typed yet
            return self.values.get(e["id"])
        return None

    def check_phase_cycles(self) -> None:
        graph = {name: _runs(ph["body"]) for name, ph in self.sym.phases.items()}
        looping = on_cycles(graph)
        for i, ph in enumerate(self.ir["phases"]):
            if ph["name"] in looping:
                self.error(ph, f"phase '{ph['name']}' runs itself (rules may not loop)", f"$.phases[{i}]", "name")

    def check_unused(self) -> None:
        for key, what in (("params", "param"), ("zones", "zone"), ("defines", "define"), ("phases", "phase"),
                          ("vars", "var"), ("routes", "route")):
            for i, d in enumerate(self.ir[key]):
                if d["name"] not in self.used:
                    verb = "never runs" if key == "phases" else "is never used"
                    self.warn(d, f"{what} '{d['name']}' {verb}", f"$.{key}[{i}]", "name")

    def check_never_read(self) -> None:
        """A var the rules set (or roll into, or reset) that nothing reads: no statement, test, define,
        'end when', score, report, show or invariant uses its value (its own update, 'set n = n + 1',
        is no use of it). A var on the grid or board (drawn
        there), one holding a tile or a cell (a mark on it) and one with a label (there for players
        to see) are not warned, nor the engine's own (next, out)."""
        labelled = {lb["target"] for lb in self.ir.get("labels", ()) if lb.get("text") is not None}
        written: dict[str, dict] = {}
        own: set[int] = set()  # the reads of a var in its own update ('set n = n + 1'): not a use of its value
        for n in nodes([self.ir["setup"], self.ir["turn"], *(ph["body"] for ph in self.ir["phases"])]):
            target = n.get("var") if n.get("node") == "reset" else n.get("target")
            if n.get("node") in ("set", "set_random", "set_weighted", "roll", "reset") and isinstance(target, str):
                written.setdefault(target, n)
                if n["node"] == "set":
                    own.update(id(x) for x in nodes(n["value"]) if x.get("id", x.get("func")) == target)
        read = {b.name for key, b in self.bindings.items()
                if b.what in (C.VAR, C.TILE_VAR, C.CELL_VAR) and key not in own}
        for i, v in enumerate(self.ir["vars"]):
            name = v["name"]
            if name in read or name not in written or name in labelled or v.get("grid") \
                    or self.var_types.get(name) in (TILE, CELL) or self.sym.vars.get(name, v).get("builtin"):
                continue
            at = span(written[name])
            self.warn(v, f"var '{name}' is set but never read: no rule, test, score, report, show or invariant "
                         f"uses its value (if it is there for players to see in 'meeple play', say so with a "
                         f"label: label {name} \"...\")", f"$.vars[{i}]", "name",
                      notes=(f"it is set at {self.where_file(at)}:{at[0]}:{at[1]}",) if at else ())

    # ---- statements ----
    def block(self, stmts: list, scope: dict, path: str) -> None:
        scope = dict(scope)
        ended: Optional[dict] = None  # a statement that ends the game whatever happens: what follows never runs
        for i, s in enumerate(stmts):
            if ended is not None and ended is not True:
                at = span(ended)
                how = "an 'end game'" if ended.get("node") == "end_game" else "an 'if' whose every branch ends it"
                self.warn(s, "this never runs: the game is over before it (" + how + " comes first)",
                          f"{path}[{i}]", notes=(f"the game ends at {self.where_file(at)}:{at[0]}:{at[1]}",)
                          if at else ())
                ended = True  # (told once a block)
            self.stmt(s, scope, f"{path}[{i}]")
            if ended is None and _always_ends(s):
                ended = s

    def warn_same_zone(self, s: dict, path: str) -> None:
        """Cards moved from a zone to that same zone: the statement changes nothing."""
        if same(s["source"], s["dest"]):
            self.warn(s, "the cards go from a zone to that same zone: nothing changes", path)

    def warn_draw_into_itself(self, s: dict, dest: dict, path: str) -> None:
        """A pile reshuffled into the zone it is drawn from does nothing; a refill drawing from the
        zone it fills, or reshuffling that zone into its source, never fills it once it is short
        (the cards drawn come back): it draws until the step cap stops the game."""
        if s["reshuffle"] is not None and same(s["reshuffle"], s["source"]):
            self.warn(s["reshuffle"], "the pile reshuffled is the zone drawn from: the reshuffle does nothing",
                      f"{path}.reshuffle")
        if s["node"] != "refill":
            return
        if same(s["source"], dest):
            self.warn(s, "the refill draws from the zone it fills: that zone never grows, so a refill that "
                         "draws never ends (the step cap stops the game)", path)
        elif s["reshuffle"] is not None and same(s["reshuffle"], dest):
            self.warn(s["reshuffle"], "the refill reshuffles the zone it fills into its source: when the source "
                                      "runs out, the cards drawn go back, and the refill never ends (the step cap "
                                      "stops the game)", f"{path}.reshuffle")

    def warn_unseen_choice(self, s: dict, zone: dict, path: str, seen: frozenset[str] = frozenset()) -> None:
        """A decision among the cards of a zone its chooser cannot see (a hidden zone, or another
        player's private one): the legal moves name the cards, so they show what the zone holds."""
        name = zone.get("id") if zone["node"] == "name" else zone.get("func") if zone["node"] == "call" else None
        define = self.sym.defines.get(name) if isinstance(name, str) and name not in self.sym.zones else None
        if define is not None and name not in seen and define["body"]["node"] in ("name", "call"):
            # a define that names a zone ('define theirs = hand(next(current))'): the zone it names; its
            # parameters, plain names, may well be the chooser (not warned)
            self.warn_unseen_choice(s, {**define["body"], "at": zone.get("at")}, path, seen | {name})
            return
        decl = self.sym.zones.get(name) if isinstance(name, str) else None
        if decl is None or decl.get("visibility", "public") == "public":
            return
        chooser = s["chooser"] if s["chooser"] is not None else {"node": "name", "id": "current"}
        if decl["visibility"] == "private" and decl.get("per_player") and zone["node"] == "call" \
                and len(zone["args"]) == 1 and (same(zone["args"][0], chooser) or zone["args"][0]["node"] == "name"):
            return  # (the chooser's own; or a player by a name, which may well be the chooser: not warned)
        whose = "hidden" if decl["visibility"] == "hidden" else \
            "private to another player" if decl.get("per_player") else "private (seen by no one)"
        self.warn(zone, f"decision '{s['label']}' chooses among the cards of zone '{name}', which is {whose}: "
                        "its moves name the cards, so they show the chooser what the zone holds (to take "
                        "an unseen card at random, deal it: 'deal 1 from ZONE to ...')", path)

    def stmt(self, s: dict, scope: dict, path: str) -> None:
        node = s["node"]
        if node == "let":
            self.warn_let_hides(s, scope, path)
            scope[s["name"]] = t = self.expr(s["value"], scope, f"{path}.value")
            self.bound_locals.setdefault(s["name"], (s, "name", "by a 'let'"))
            if t in (ZONE, GRID, BOARD, CELLS):
                self.error(s["value"], f"'let' cannot name {_show(t)}: write it where it is used", f"{path}.value")
        elif node in ("set", "set_random", "set_weighted"):
            want = self.target(s, scope, path)
            if node == "set":
                got = self.expr(s["value"], scope, f"{path}.value")
            elif node == "set_weighted":
                got = self.weighted(s, scope, path)
            else:
                got = self.domain(s["domain"], scope, f"{path}.domain", loop=False)
                d = s["domain"]
                lo, hi = (self.const(d["lo"]), self.const(d["hi"])) if d["hi"] is not None else (None, None)
                if lo is not None and hi is not None and hi < lo:
                    self.error(d["lo"], f"'random {lo}..{hi}' picks from nothing: the range runs backwards "
                                        f"(write 'random {hi}..{lo}')", f"{path}.domain")
            if want == NONE and got in (PLAYER, TILE, CELL) or (want == NONE and got.startswith("kind:")):
                self.var_types[s["target"]] = got  # a var that starts as none holds what it is first set to
            elif want == NONE and got not in (NONE, ANY):
                held = "a player, a tile, a cell or a value of a kind" if self.sym.boards else \
                    "a player, a tile or a value of a kind"
                hint = " (a var of numbers starts as a number: -1, say, for 'not yet')" if got == INT else \
                    " (a var of flags starts as false or true)" if got == BOOL else ""
                self.error(s, f"a var that starts as none can hold {held}, not {_show(got)}{hint}", path)
            elif s["target"] == "current" and got == NONE:
                self.error(s, "'current' must be a player, not none", path)
            elif s["target"] == "current" and node == "set" and self.const(s["value"]) is not None:
                self.check_seat(s["value"], self.const(s["value"]), f"{path}.value")
            elif want not in (None, ANY) and got not in (want, ANY, NONE if want not in (INT, BOOL) else ANY) \
                    and not (want == PLAYER and got == INT and s["target"] == "current"):
                hint = ": a player is seat(n)" if want == PLAYER and got == INT else ""
                self.error(s, f"'{s['target']}' holds {_show(want)} but is set to {_show(got)}{hint}", path)
        elif node == "roll":
            for key, what in (("count", "the number of dice"), ("sides", "a die's sides")):
                self.expect(s[key], self.expr(s[key], scope, f"{path}.{key}"), {INT}, what, f"{path}.{key}")
            if (self.const(s["count"]) or 0) < 0 or (self.const(s["count"]) or 0) > MAX_DICE:
                self.error(s["count"], f"a roll is of 0..{MAX_DICE:,} dice, not {self.const(s['count'])}",
                           f"{path}.count")
            if self.const(s["sides"]) is not None and not 1 <= self.const(s["sides"]) <= MAX_RANGE:
                self.error(s["sides"], f"a die has 1..{MAX_RANGE:,} sides, not {self.const(s['sides'])}",
                           f"{path}.sides")
            want = self.target(s, scope, path)
            if want not in (None, ANY, INT):
                self.error(s, f"'{s['target']}' holds {_show(want)}, but a roll is a number (the sum of the dice)",
                           path)
        elif node == "if":
            self.expect(s["test"], self.expr(s["test"], scope, f"{path}.test"), {BOOL}, "'if'", f"{path}.test")
            self.constant_test(s["test"], "if", f"{path}.test")
            self.block(s["body"], scope, f"{path}.body")
            self.block(s["else_"], scope, f"{path}.else_")
        elif node == "for":
            self.check_for(s, scope, path)
        elif node == "move":
            t = self.moved_piece(s, "'move ... by'", scope, path)
            self.expect(s["steps"], self.expr(s["steps"], scope, f"{path}.steps"), {INT}, "the steps",
                        f"{path}.steps")
            tag = s["stop_at"]
            if tag is not None:
                tags = self.sym.tags.get(self.sym.piece_kinds.get(t[5:], ""), self.sym.all_tags())
                if tag not in tags:
                    self.error(s, f"unknown tag '{tag}'{self.suggest(tag, tags)}", path, "stop_at")
        elif node == "move_to" and s["piece"]["node"] == "name" and isinstance(scope.get(s["piece"]["id"]), _Card):
            self.expr(s["piece"], scope, f"{path}.piece")  # one card, from the zone it was taken from
            self.zone(s["to"], scope, f"{path}.to")
            if same(scope[s["piece"]["id"]].zone, s["to"]):
                self.warn(s, "the card goes from a zone to that same zone: nothing changes", path)
            moved = _Card(CARD)  # (for the rest of the block the card is where it went: 'reveal c' shows it there;
            moved.zone = scope[s["piece"]["id"]].zone  # 'move c' again takes it from where it was taken, as before)
            moved.at = s["to"]
            scope[s["piece"]["id"]] = moved
        elif node == "move_to":
            t = self.moved_piece(s, "'move ... to'", scope, path)
            to = self.expr(s["to"], scope, f"{path}.to")
            if t == CARD and to == ZONE:
                self.error(s["piece"], "'move c to zone' moves a card that a loop or an option took from a zone "
                                       "(for c in hand(p), play c in hand(p)): name it so", f"{path}.piece")
            elif not (t == ANY and to == ZONE):  # (a card that is not one: said already)
                self.expect(s["to"], to, {INT}, "where the piece goes", f"{path}.to")
        elif node == "move_all":
            self.zone(s["source"], scope, f"{path}.source")
            self.zone(s["dest"], scope, f"{path}.dest")
            self.warn_same_zone(s, path)
        elif node == "deal":
            self.cards_moved(s, "cards dealt", scope, path)
            if s["reshuffle"] is not None:
                self.zone(s["reshuffle"], scope, f"{path}.reshuffle")
            else:  # (reshuffling, an empty zone first takes the other's cards)
                self.warn_same_zone(s, path)
            self.warn_draw_into_itself(s, s["dest"], path)
        elif node == "refill":
            self.zone(s["zone"], scope, f"{path}.zone")
            self.expect(s["size"], self.expr(s["size"], scope, f"{path}.size"), {INT}, "the size", f"{path}.size")
            self.not_negative(s["size"], "a hand's size", f"{path}.size")
            self.zone(s["source"], scope, f"{path}.source")
            if s["reshuffle"] is not None:
                self.zone(s["reshuffle"], scope, f"{path}.reshuffle")
            self.warn_draw_into_itself(s, s["zone"], path)
        elif node == "choose":
            self.check_choose(s, scope, path)
        elif node == "move_cards":
            if s["variety"] not in self.sym.varieties:
                self.error(s, f"unknown card '{s['variety']}'{self.suggest(s['variety'], self.sym.varieties)}",
                           path, "variety")
            self.cards_moved(s, "cards moved", scope, path)
            self.warn_same_zone(s, path)
        elif node == "move_where":
            self.cards_moved(s, "cards moved", scope, path)
            self.card_test(s["where"], scope, f"{path}.where")
            self.warn_same_zone(s, path)
        elif node == "reveal":
            self.check_reveal(s, scope, path)
        elif node == "reset":
            name = s["var"]
            if name == "current":
                self.error(s, "'current' is the player to move, not a var: 'set current = ...' says who it is",
                           path, "var")
            elif name not in self.sym.vars:
                self.error(s, f"unknown var '{name}'{self.suggest(name, self.sym.vars)}", path, "var")
        elif node == "place":
            self.check_place(s, scope, path)
        elif node == "choose_one":
            self.check_choose_one(s, scope, path)
        elif node == "run":
            if s["phase"] not in self.sym.phases:
                self.error(s, f"unknown phase '{s['phase']}'{self.suggest(s['phase'], self.sym.phases)}", path,
                           "phase")
            elif s["phase"] not in self.used:
                self.used.add(s["phase"])
                i = self.index["phases", s["phase"]]
                self.block(self.sym.phases[s["phase"]]["body"], {}, f"$.phases[{i}].body")

    def cards_moved(self, s: dict, what: str, scope: dict, path: str) -> None:
        """A statement that moves an amount of cards from a source zone to a destination zone."""
        self.expect(s["amount"], self.expr(s["amount"], scope, f"{path}.amount"), {INT}, "the amount",
                    f"{path}.amount")
        self.not_negative(s["amount"], what, f"{path}.amount")
        self.zone(s["source"], scope, f"{path}.source")
        self.zone(s["dest"], scope, f"{path}.dest")

    def weighted(self, s: dict, scope: dict, path: str) -> str:
        """The type of the values of 'random { value: weight, ... }' (one type for all); the
        weights are numbers, none of them negative."""
        got = ANY
        for i, c in enumerate(s["choices"]):
            t = self.expr(c["value"], scope, f"{path}.choices[{i}].value")
            if t in (ZONE, GRID, BOARD, CELLS, CARD):
                self.error(c["value"], f"a random choice picks a value, not {_show(t)}", f"{path}.choices[{i}].value")
            elif got == ANY:
                got = t
            elif t not in (got, ANY):
                self.error(c["value"], f"the values of a random choice are of one type: {_show(got)}, not "
                                       f"{_show(t)}", f"{path}.choices[{i}].value")
            self.expect(c["weight"], self.expr(c["weight"], scope, f"{path}.choices[{i}].weight"), {INT}, "a weight",
                        f"{path}.choices[{i}].weight")
            w = self.const(c["weight"])
            if w is not None and w < 0:
                self.error(c["weight"], f"a weight cannot be negative ({w})", f"{path}.choices[{i}].weight")
        weights = [self.const(c["weight"]) for c in s["choices"]]
        if weights and all(isinstance(w, int) and w == 0 for w in weights):
            self.error(s, "every weight of this random choice is 0: it can pick nothing (give one a weight above 0)",
                       path)
        return got

    def moved_piece(self, s: dict, what: str, scope: dict, path: str) -> str:
        """The type of the piece a move statement moves, which must be a piece."""
        t = self.expr(s["piece"], scope, f"{path}.piece")
        if t != ANY and not self.is_piece(t):
            self.error(s["piece"], f"{what} needs a piece, not {_show(t)}", f"{path}.piece")
        return t

    def chooser_and_count(self, s: dict, scope: dict, path: str) -> tuple[Optional[int], Optional[int]]:
        """Check a decision's 'by' and its 'lo..hi' cards; the counts' values when known."""
        if s["chooser"] is not None:
            self.expect(s["chooser"], self.expr(s["chooser"], scope, f"{path}.chooser"), {PLAYER}, "'by'",
                        f"{path}.chooser")
        for key in ("lo", "hi"):
            self.expect(s[key], self.expr(s[key], scope, f"{path}.{key}"), {INT}, "a number of cards",
                        f"{path}.{key}")
        return self.const(s["lo"]), self.const(s["hi"])

    def check_seat(self, e: dict, seat: int, path: str) -> None:
        """A seat number written as a number: it exists with every count of players, or it is said."""
        p = self.ir["players"] or {"lo": 1, "hi": MAX_PLAYERS}
        if not 0 <= seat < p["hi"]:
            self.error(e, f"seat {seat} does not exist: the game is for {p['lo']}..{p['hi']} players, seats "
                          f"0..{p['hi'] - 1}", path)
        elif seat >= p["lo"]:
            self.warn(e, f"seat {seat} exists only with {seat + 1} or more players (the game is for "
                         f"{p['lo']}..{p['hi']}); with fewer, this fails at run time", path)

    def seat_written(self, e: dict, path: str) -> None:
        """seat(n) with n written out (no params): a seat no count of players has is an error here,
        not a run-time error in every game. (One that only some counts have is no warning: a rule may
        well read it only when there are that many players.)"""
        seat = fold(e, lambda name: None)
        p = self.ir["players"] or {"lo": 1, "hi": MAX_PLAYERS}
        if isinstance(seat, int) and not isinstance(seat, bool) and not 0 <= seat < p["hi"]:
            self.error(e, f"seat {seat} does not exist: the game is for {p['lo']}..{p['hi']} players, seats "
                          f"0..{p['hi'] - 1}", path)

    def not_negative(self, e: dict, what: str, path: str) -> None:
        """A count that is negative whatever the game does (numbers and params): an error here, not a
        game that is stuck every time."""
        value = self.const(e)
        if value is not None and value < 0:
            self.error(e, f"a count of {what} cannot be negative ({value})", path)

    def check_for(self, s: dict, scope: dict, path: str) -> None:
        self.warn_hidden_local(s, scope, path)
        inner = dict(scope)
        inner[s["var"]] = self.domain(s["domain"], scope, f"{path}.domain")
        self.bound_locals.setdefault(s["var"], (s, "var", "by a 'for' loop"))
        with self.nested(s["domain"], f"{path}.domain"):
            if s.get("while_") is not None and inner[s["var"]] == CARD:
                self.error(s["while_"], "a zone's cards have no order: 'while' runs over a board's cells, a line, a "
                                        "range, the players or a kind", f"{path}.while_")
            if s.get("while_") is not None:
                self.expect(s["while_"], self.expr(s["while_"], inner, f"{path}.while_"), {BOOL}, "'while'",
                            f"{path}.while_")
            if s["where"] is not None:
                self.expect(s["where"], self.expr(s["where"], inner, f"{path}.where"), {BOOL}, "'where'",
                            f"{path}.where")
                self.constant_test(s["where"], "where", f"{path}.where")
            self.block(s["body"], inner, f"{path}.body")

    @contextlib.contextmanager
    def nested(self, d: dict, path: str) -> Iterator[None]:
        """Inside a loop or an aggregate over the domain ``d``: loops and aggregates inside one
        another run as often as the product of their values (the ranges known when checking,
        the kinds, the players), each time they are reached; past ``MAX_NESTED_RUNS`` the
        innermost that crosses it is an error (else one step of a game could run for hours)."""
        size = 1
        if d["players"]:
            hi = (self.ir.get("players") or {}).get("hi")
            size = hi if isinstance(hi, int) and 0 < hi <= MAX_PLAYERS else 1
        elif d["hi"] is not None:  # (a range past MAX_RANGE is an error of its own: counted as MAX_RANGE)
            lo, hi = self.const(d["lo"]), self.const(d["hi"])
            size = min(max(1, hi - lo + 1), MAX_RANGE) if lo is not None and hi is not None else 1
        elif d["lo"] is not None and d["lo"]["node"] == "name" and d["lo"]["id"] in self.sym.kinds:
            size = max(1, len(self.sym.kinds[d["lo"]["id"]]))
        before = math.prod(self.nesting)
        self.nesting.append(size)
        try:
            if before * size > MAX_NESTED_RUNS >= before:
                sizes = " x ".join(f"{n:,}" for n in self.nesting if n > 1)
                self.error(d["lo"] if d["lo"] is not None else d, f"loops and aggregates inside one another run "
                           f"{before * size:,} times ({sizes}) each time they are reached; at most "
                           f"{MAX_NESTED_RUNS:,} are allowed: narrow the ranges", path)
            yield
        finally:
            self.nesting.pop()

    def constant_test(self, e: dict, where: str, path: str) -> None:
        """A warning for a test that is true or false whatever happens (numbers and literals only:
        one made of params may be meant for another value of them)."""
        value = fold(e, lambda name: None)
        if isinstance(value, bool):
            what = {("if", True): "always true: the 'else' never runs",
                    ("if", False): "always false: the block never runs",
                    ("where", True): "always true: it filters nothing",
                    ("where", False): "always false: the loop never runs",
                    ("end", True): "always true: every game ends at once",
                    ("end", False): "never true: this 'end when' never ends the game"}[where, value]
            self.warn(e, f"the test is {what}", path)

    def check_place(self, s: dict, scope: dict, path: str) -> None:
        lo, hi = self.chooser_and_count(s, scope, path)
        if (lo, hi) not in ((1, 1), (0, 1)):
            self.error(s["lo"], "a placement is of '1 card' or '0..1 card'", f"{path}.lo")
        self.zone(s["source"], scope, f"{path}.source")
        self.warn_unseen_choice(s, s["source"], f"{path}.source")
        if s["grid"] not in self.sym.grids:
            self.error(s, f"unknown grid '{s['grid']}'{self.suggest(s['grid'], self.sym.grids)}", path, "grid")
        if s["within"] is not None:
            self.expect(s["within"], self.expr(s["within"], scope, f"{path}.within"), {INT}, "'within'",
                        f"{path}.within")
            d = self.const(s["within"])
            if d is None or not 1 <= d <= 8:
                self.error(s["within"], "'within' must be a number from 1 to 8", f"{path}.within")
        scope[s["var"]] = TILE
        if s["where"] is not None:
            self.expect(s["where"], self.expr(s["where"], scope, f"{path}.where"), {BOOL}, "'where'",
                        f"{path}.where")
        if s.get("otherwise") and (lo, hi) == (0, 1):
            self.warn(s, "with '0..1 card', placing nothing is always a move: this placement's 'else' never runs",
                      f"{path}.otherwise")
        self.block(s.get("otherwise", []), scope, f"{path}.otherwise")

    def check_choose_one(self, s: dict, scope: dict, path: str) -> None:
        if not s["options"]:  # (the language's grammar has one at least; an IR document may not)
            self.error(s, f"decision '{s['label']}' has no option (a choose among options lists one or more)",
                       f"{path}.options")
        if s["chooser"] is not None:
            self.expect(s["chooser"], self.expr(s["chooser"], scope, f"{path}.chooser"), {PLAYER}, "'by'",
                        f"{path}.chooser")
        names: set[str] = set()
        for i, o in enumerate(s["options"]):
            opath = f"{path}.options[{i}]"
            if o["name"] in names:
                self.error(o, f"option '{o['name']}' is given twice", opath, "name")
            names.add(o["name"])
            inner = dict(scope)
            for j, b in enumerate(o["bindings"]):
                if any(c["var"] == b["var"] for c in o["bindings"][:j]):
                    self.error(b, f"'{b['var']}' is bound twice in option '{o['name']}'", f"{opath}.bindings[{j}]",
                               "var")
                self.warn_hidden_local(b, scope, f"{opath}.bindings[{j}]")
                inner[b["var"]] = self.domain(b["domain"], inner, f"{opath}.bindings[{j}].domain")
                how = f"by option '{o['name']}' of decision '{s['label']}'"
                self.bound_locals.setdefault(b["var"], (b, "var", how))
                if b["domain"]["hi"] is None and not b["domain"]["players"] and inner[b["var"]] == CARD:
                    self.warn_unseen_choice(s, b["domain"]["lo"], f"{opath}.bindings[{j}].domain.lo")
            self.option_values(o, opath)
            if o["where"] is not None:
                self.expect(o["where"], self.expr(o["where"], inner, f"{opath}.where"), {BOOL}, "'where'",
                            f"{opath}.where")
            self.block(o["body"], inner, f"{opath}.body")

    def option_values(self, o: dict, path: str) -> None:
        """An option whose variables run through more combinations of values than a decision can
        look at (counting the ranges known now) is refused: each is tried as the game runs."""
        sizes = []
        for b in o["bindings"]:
            d = b["domain"]
            lo, hi = (self.const(d["lo"]), self.const(d["hi"])) if d["hi"] is not None else (None, None)
            if lo is not None and hi is not None:
                sizes.append(max(0, hi - lo + 1))
        combinations = math.prod(sizes)
        if combinations > MAX_OPTION_VALUES:
            self.error(o, f"option '{o['name']}' runs through {combinations:,} combinations of values "
                          f"({' x '.join(f'{n:,}' for n in sizes)}), each tried when the decision comes; at "
                          f"most {MAX_OPTION_VALUES:,} are allowed: narrow its ranges", path, "name")

    def check_choose(self, s: dict, scope: dict, path: str) -> None:
        lo, hi = self.chooser_and_count(s, scope, path)
        if lo is not None and lo < 0:
            self.error(s["lo"], f"cannot choose {lo} cards", f"{path}.lo")
        if lo is not None and hi is not None and lo > hi:
            self.error(s["lo"], f"impossible choice: at least {lo} and at most {hi} cards", f"{path}.lo")
        if hi is not None and hi > MAX_CHOSEN_CARDS:
            self.error(s["hi"], f"choosing up to {hi} cards at once is beyond the limit of {MAX_CHOSEN_CARDS}",
                       f"{path}.hi")
        if s["same"] is not None and s["same"] not in self.sym.attrs:
            self.error(s, f"unknown card attribute '{s['same']}'{self.suggest(s['same'], self.sym.attrs)}", path,
                       "same")
        self.zone(s["source"], scope, f"{path}.source")
        self.zone(s["dest"], scope, f"{path}.dest")
        self.warn_unseen_choice(s, s["source"], f"{path}.source")
        if s["keeping"] is not None:
            self.expect(s["keeping"], self.expr(s["keeping"], scope, f"{path}.keeping"), {BOOL}, "'keeping'",
                        f"{path}.keeping")

    def target(self, s: dict, scope: dict, path: str) -> Optional[str]:
        name, index = s["target"], s["index"]
        if name == "current":
            if index is not None:
                self.error(s, "'current' takes no player", path, "target")
            return PLAYER
        var = self.sym.vars.get(name)
        if var is None:
            self.error(s, f"unknown var '{name}'{self.suggest(name, self.sym.vars)}", path, "target")
            return None
        self.used.add(name)
        want = self.var_type(name, s, path, "target")
        per = PLAYER if var["per_player"] else (CELL if var["grid"] in self.sym.boards else TILE) \
            if var.get("grid") else None
        if per is not None and index is None:
            self.error(s, f"var '{name}' is per {per}: write {name}({per[0]})", path, "target")
        elif per is None and index is not None:
            self.error(s, f"var '{name}' is shared: it takes no player", path, "target")
        elif index is not None and per == TILE and var["grid"] not in self.sym.grids:
            self.expr(index, scope, f"{path}.index")  # (an unknown grid has its error, at the var)
        elif index is not None:
            self.expect(index, self.expr(index, scope, f"{path}.index"), {per, NONE} if per == CELL else {per},
                        f"the {per} of '{name}'", f"{path}.index")
        return want

    def var_type(self, name: str, node: dict, path: str, at_field: Optional[str] = None) -> str:
        """The type of a var's start value; a start value may use only the vars above it."""
        if name not in self.var_types:
            self.error(node, f"var '{name}' has no value yet: a var's start value can use only the vars "
                             f"declared before it", path, at_field)
            return ANY
        return self.var_types[name]

    def zone(self, e: dict, scope: dict, path: str) -> None:
        t = self.expr(e, scope, path)
        if t not in (ZONE, ANY):
            self.error(e, f"expected a zone, found {_show(t)}", path)

    def domain(self, d: dict, scope: dict, path: str, loop: bool = True) -> str:
        """The type of the values ``d`` runs over (``loop``: a loop's, an aggregate's or an option's
        domain, not that of 'random', which says more of a range that runs backwards)."""
        if d["players"]:
            return PLAYER
        if d["lo"] is None:  # only IR read as JSON can lack it
            self.error(d, "a loop needs a kind, a zone, 'player' or a range to run over", path)
            return ANY
        if d["hi"] is not None:
            self.expect(d["lo"], self.expr(d["lo"], scope, f"{path}.lo"), {INT}, "a range", f"{path}.lo")
            self.expect(d["hi"], self.expr(d["hi"], scope, f"{path}.hi"), {INT}, "a range", f"{path}.hi")
            lo, hi = self.const(d["lo"]), self.const(d["hi"])
            written = fold(d["lo"], lambda name: None), fold(d["hi"], lambda name: None)  # (numbers alone)
            if loop and all(type(v) is int for v in written) and written[1] < written[0]:
                self.warn(d["lo"], f"the range {written[0]}..{written[1]} runs backwards, so it holds no value: "
                                   f"this runs over nothing (a range counts up: write {written[1]}..{written[0]})",
                          path)
            if lo is not None and hi is not None and hi - lo + 1 > MAX_RANGE:
                self.error(d["lo"], f"the range {lo}..{hi} has {hi - lo + 1:,} values; at most {MAX_RANGE:,} are "
                                    f"allowed", path)
            return INT
        lo = d["lo"]
        if lo["node"] == "name" and lo["id"] in self.sym.kinds and lo["id"] not in scope:
            self.bind(lo, C.KIND)
            return kind_type(lo["id"])
        self.domain_nodes.add(id(lo))
        t = self.expr(lo, scope, f"{path}.lo")
        if t == ZONE:
            card = _Card(CARD)
            card.zone = lo
            return card
        if t == GRID:
            if self.bound(lo) != C.GRID:
                self.error(lo, "a loop over a grid's tiles names the grid itself, not a define's parameter "
                               "that holds it", f"{path}.lo")
            return TILE
        if t == BOARD:
            if self.bound(lo) != C.BOARD:
                self.error(lo, "a loop over a board's cells names the board itself, not a define's parameter "
                               "that holds it", f"{path}.lo")
            return CELL
        if t == CELLS:
            return CELL
        if t != ANY:
            self.error(lo, f"cannot loop over {_show(t)}: expected a kind, a zone, 'player' or a range", path)
        return ANY

    # ---- expressions ----
    def expect(self, e: dict, got: str, want: set[str], what: str, path: str) -> None:
        if got != ANY and got not in want:
            why = ""
            if got == NONE and e.get("node") == "name" and self.bound(e) == C.VAR:  # (a var only ever none)
                why = (f" (var '{e['id']}' starts as none and no rule sets it to anything else, so it is none in "
                       f"every game: set it where the rules choose one)")
            self.error(e, f"{what} must be {' or '.join(_show(w) for w in sorted(want))}, not {_show(got)}{why}",
                       path)

    def is_piece(self, t: str) -> bool:
        return t.startswith("kind:") and (t[5:] in self.sym.piece_kinds or t == "kind:*")

    def expr(self, e: dict, scope: dict, path: str) -> str:
        node = e["node"]
        method = getattr(self, "e_" + node)
        self.types[id(e)] = t = method(e, scope, path)
        return t

    def bound(self, e: dict) -> Optional[str]:
        """What the name or call ``e`` was bound to so far (None: not bound, or not a name)."""
        found = self.bindings.get(id(e))
        return found.what if found is not None else None

    def bind(self, e: dict, what: str, decl: Optional[dict] = None) -> None:
        self.bindings[id(e)] = C.Binding(what, e.get("id") or e.get("func"), decl)

    def e_int(self, e, scope, path):
        return INT

    def e_bool(self, e, scope, path):
        return BOOL

    def e_none_value(self, e, scope, path):
        return NONE

    def e_name(self, e, scope, path):
        name = e["id"]
        if name in scope:
            t = scope[name]
            self.bind(e, C.ATTRIBUTE if isinstance(t, _Attr) else C.LOCAL, t.zone if isinstance(t, _Card) else None)
            return str(t)
        if name in KEYWORD_NAMES:
            self.bind(e, C.PLAYERS if name == "players" else C.CURRENT)
            return KEYWORD_NAMES[name]
        sym = self.sym
        self.used.add(name)
        if name in sym.params:
            self.bind(e, C.PARAM, sym.params[name])
            return INT
        if name in sym.defines:
            self.bind(e, C.DEFINE, sym.defines[name])
            return self.call_define(e, sym.defines[name], [], scope, path)
        if name in sym.value_kind:
            self.bind(e, C.VALUE)
            return kind_type(sym.value_kind[name])
        if name in sym.zones:
            if sym.zones[name]["per_player"]:
                self.error(e, f"zone '{name}' is per player: write {name}(p)", path)
                return ANY
            self.bind(e, C.ZONE, sym.zones[name])
            return ZONE
        if name in sym.vars:
            if sym.vars[name]["per_player"] or sym.vars[name].get("grid"):
                per = "player" if sym.vars[name]["per_player"] else "cell" if sym.vars[name]["grid"] in sym.boards \
                    else "tile"
                self.error(e, f"var '{name}' is per {per}: write {name}({per[0]})", path)
                return ANY
            self.bind(e, C.VAR, sym.vars[name])
            return self.var_type(name, e, path)
        if name in sym.tracks:
            self.bind(e, C.TRACK, sym.tracks[name])
            return "track"
        if name in sym.grids:
            self.bind(e, C.GRID, sym.grids[name])
            return GRID
        if name in sym.boards:
            self.bind(e, C.BOARD, sym.boards[name])
            return BOARD
        if name in sym.kinds:
            self.error(e, f"'{name}' is a kind, not a value: loop over it with 'for x in {name}'", path)
            return ANY
        if name in BUILTINS:
            self.error(e, f"'{name}' is a built-in query and needs arguments: {name}(...)", path)
            return ANY
        if name in sym.varieties:
            self.error(e, f"'{name}' is a variety of cards, not one card: a loop or an option takes one from a zone "
                          f"(for c in hand(p) where ...), and 'move 1 {name} from ... to ...' moves one by its "
                          f"variety", path)
            return ANY
        if self.global_names is None:
            self.global_names = list(sym.global_names())
        notes: tuple[str, ...] = ()
        if name in self.bound_locals:  # (a local used after the block that knew it)
            node, field, how = self.bound_locals[name]
            at = span(node, field) or span(node)
            if at:
                notes = (f"'{name}' is bound at {self.where_file(at)}:{at[0]}:{at[1]} {how}, and known only inside "
                         f"its block: to use it after the block, keep it in a var (set there)",)
        meant = OTHER_LANGUAGES_WORDS.get(name)
        hint = f" (write '{meant}')" if meant and not notes else ""
        self.error(e, f"unknown name '{name}'"
                      f"{hint or self.suggest(name, scope, KEYWORD_NAMES, self.global_names)}", path, notes=notes)
        return ANY

    def e_call(self, e, scope, path):
        func, args = e["func"], e["args"]
        sym = self.sym
        outer_was = self.in_was
        if func == WAS and func not in sym.defines:
            if outer_was:
                self.error(e, "was(...) inside was(...): the state before the step has no step before it", path)
            self.in_was = True
        tag_arg = func in BUILTINS and func not in sym.defines and BUILTINS[func][0][-1:] == ("tag",) \
            and len(args) == len(BUILTINS[func][0])  # (a tag is a name of the track's, not a value)
        try:
            types = [self.expr(a, scope, f"{path}.args[{i}]") if not (tag_arg and i == len(args) - 1) else "tag"
                     for i, a in enumerate(args)]
        finally:
            self.in_was = outer_was
        self.used.add(func)
        if func in sym.defines:
            self.bind(e, C.DEFINE, sym.defines[func])
            return self.call_define(e, sym.defines[func], types, scope, path)
        if func == WAS and func not in sym.defines:
            self.bind(e, C.WAS)
            if not self.in_invariant:
                self.error(e, "was(...) is the value before the last step: it is for invariants only", path)
            if len(args) != 1:
                self.error(e, "was(...) takes one expression", path)
                return ANY
            for n in _outer_cards(args[0], self.bindings):
                self.error(n, f"was(...) cannot read '{n['id']}', an attribute of the card an enclosing 'where' "
                              f"looks at: put was(...) around the whole count", path)
            return types[0]
        if func in sym.routes:
            route = sym.routes[func]
            self.bind(e, C.ROUTE, route)
            if len(args) != len(route["params"]):
                self.error(e, f"route '{func}' takes {len(route['params'])} argument(s), not {len(args)}", path)
            elif func not in self.route_stack:
                self.used.add(func)
                self.route_stack.append(func)
                i = self.index["routes", func]
                self.route_body(route, f"$.routes[{i}]", types)
                self.route_stack.pop()
            return INT
        if func in sym.vars and sym.vars[func].get("grid") in sym.boards:
            self.bind(e, C.CELL_VAR, sym.vars[func])
            if len(args) != 1:
                self.error(e, f"'{func}' takes one cell", path)
            else:
                self.expect(args[0], types[0], {CELL, NONE}, f"the cell of '{func}'", f"{path}.args[0]")
            return self.var_type(func, e, path)
        if func in sym.vars and sym.vars[func].get("grid"):
            self.bind(e, C.TILE_VAR, sym.vars[func])
            if len(args) != 1:
                self.error(e, f"'{func}' takes one tile", path)
            elif sym.vars[func]["grid"] in sym.grids:  # (an unknown one has its error, at the var)
                self.expect(args[0], types[0], {TILE}, f"the tile of '{func}'", f"{path}.args[0]")
            return self.var_type(func, e, path)
        if func == "count" and len(args) == 1 and types[0] == GRID:
            if self.bound(args[0]) != C.GRID:
                self.error(args[0], "count(...) of a grid names the grid itself, not a define's parameter "
                                    "that holds it", f"{path}.args[0]")
            self.bind(e, C.GRID_COUNT)
            return INT
        if func in sym.zones or (func in sym.vars and not (sym.vars[func].get("builtin") and func in BUILTINS)):
            decl = sym.zones.get(func) or sym.vars[func]
            self.bind(e, C.ZONE if func in sym.zones else C.VAR, decl)
            if not decl["per_player"]:
                self.error(e, f"'{func}' is shared: it takes no player", path)
            elif len(args) != 1:
                self.error(e, f"'{func}' takes one player", path)
            else:
                self.expect(args[0], types[0], {PLAYER}, f"the player of '{func}'", f"{path}.args[0]")
            return ZONE if func in sym.zones else self.var_type(func, e, path)
        if func in BUILTINS:
            self.bind(e, C.BUILTIN)
            want, result = BUILTINS[func]
            if func in ("min", "max") and len(args) >= 2:
                want = (INT,) * len(args)
            if func in CELL_FORMS and (types[:1] in ([CELL], [DIRECTION]) or (sym.boards and not sym.grids)):
                want, result = CELL_FORMS[func]  # (on a board, whatever it is given: a direction is said wanted)
            if func == "line":
                if id(e) not in self.domain_nodes:
                    self.error(e, "line(...) is a row of cells, to loop over: for x in line(c, d) { ... }, "
                                  "count(... for x in line(c, d))", path)
                    result = ANY  # (said once: not again by what takes it)
                if len(args) == 2:
                    want = want[:2]
            if func == "line" and len(args) not in (2, 3):
                self.error(e, f"'line' takes 2 or 3 arguments (a cell, a direction and at most how many cells), "
                              f"not {len(args)}", path)
                return ANY
            if len(args) != len(want):
                some = "2 or more numbers" if func in ("min", "max") else \
                    f"{len(want)} argument{'s' if len(want) != 1 else ''}"
                self.error(e, f"'{func}' takes {some}, not {len(args)}", path)
                return result if result != "kind:*" else ANY
            for i, (w, t) in enumerate(zip(want, types)):
                a = args[i]
                if w == "piece":
                    if t != ANY and not self.is_piece(t):
                        self.error(a, f"'{func}' needs a piece, not {_show(t)}", f"{path}.args[{i}]")
                elif w == "track":
                    if t not in ("track", ANY):
                        self.error(a, f"'{func}' needs a track, not {_show(t)}", f"{path}.args[{i}]")
                elif w == "tag":
                    self.tag(a, args[0], func, f"{path}.args[{i}]")
                elif w in (TILE, CELL):
                    self.expect(a, t, {w, NONE}, f"argument {i + 1} of '{func}'", f"{path}.args[{i}]")
                elif w == BOARD:
                    if t not in (BOARD, ANY) or self.bound(a) not in (C.BOARD, None):
                        self.error(a, f"'{func}' needs the board's name, not {_show(t)}", f"{path}.args[{i}]")
                elif w in (EDGE, DIRECTION) and t not in (w, ANY):
                    example = ", ".join(["..."] * i + ["N"] + ["..."] * (len(want) - i - 1))
                    self.error(a, f"argument {i + 1} of '{func}' must be {_show(w)}, not {_show(t)}: write it by "
                                  f"its name, as in {func}({example})", f"{path}.args[{i}]")
                else:
                    self.expect(a, t, {w}, f"argument {i + 1} of '{func}'", f"{path}.args[{i}]")
            if func == "seat" and types[0] == INT:
                self.seat_written(args[0], f"{path}.args[0]")
            if func == "cell" and self.bound(args[0]) == C.BOARD:
                self.cell_off_the_board(e, args, path)
            if func == "at_place" and args and args[0]["node"] == "name":
                kinds = [k for k, tr in sym.piece_kinds.items() if tr == args[0]["id"]]
                return kind_type(kinds[0]) if kinds else ANY
            return result
        if func in AGGREGATES:
            self.error(e, f"'{func}' is written {func}(expression for x in ...)", path)
            return ANY
        if func in ("score", "tiebreak", "returns"):
            self.error(e, f"'{func}(p)' is worked out when the game ends, for the results; the rules cannot "
                          f"read it: name the expression with a define (define points(p) = ...) and use that "
                          f"in both", path)
            return ANY
        if func in sym.attrs and len(args) == 1 and func not in sym.defines:  # 'steps(c)' for 'c.steps'
            card = args[0]["id"] if args[0]["node"] == "name" else "c"
            self.error(e, f"unknown query '{func}': '{func}' is a card attribute, read with a dot "
                          f"({card}.{func})", path)
            return ANY
        self.error(e, f"unknown query '{func}'"
                      f"{self.suggest(func, sym.defines, sym.zones, BUILTINS, sym.vars, sym.routes)}", path)
        return ANY

    def cell_off_the_board(self, e: dict, args: list, path: str) -> None:
        """cell(board, x, y) with x and y known here (numbers and params) off the board: it is none,
        always (so setting a per-cell var of it stops every game). Warned."""
        size = self.board_size.get(args[0]["id"])
        x, y = self.const(args[1]), self.const(args[2])
        if size is None or x is None or y is None or (0 <= x < size[0] and 0 <= y < size[1]):
            return
        self.warn(e, f"cell({args[0]['id']}, {x}, {y}) is off the board, whose columns are 0..{size[0] - 1} and rows "
                     f"0..{size[1] - 1} (cells count from 0): it is none", path)

    def tag(self, a: dict, track: dict, func: str, path: str) -> None:
        """``a``, the tag argument of ``func``: a name among the tags of ``track`` (its tiles' and
        those at fixed places); any tag of any track when the track is not named here."""
        if a["node"] != "name":
            self.error(a, f"the last argument of '{func}' is a tag of the track, a name as its tiles "
                          f"or its fixed places give it", path)
            return
        named = track["id"] if track["node"] == "name" and track["id"] in self.sym.tracks else None
        tags = self.sym.tags.get(named, set()) if named else self.sym.all_tags()
        if a["id"] not in tags:
            where = f"track '{named}'" if named else "any track"
            self.error(a, f"'{a['id']}' is not a tag of {where}{self.suggest(a['id'], tags)}", path)
            return
        self.bind(a, C.TAG)

    def call_define(self, e, define, types, scope, path):
        name = define["name"]
        if len(types) != len(define["params"]):
            self.error(e, f"'{name}' takes {len(define['params'])} argument(s), not {len(types)}", path)
            return ANY
        if name in self.define_stack:
            self.error(e, f"define '{name}' uses itself (rules may not loop)", path)
            return ANY
        self.define_stack.append(name)
        i = self.index["defines", name]
        result = self.expr(define["body"], dict(zip(define["params"], types)), f"$.defines[{i}].body")
        self.define_stack.pop()
        return result

    def e_filtered(self, e, scope, path):
        if e["func"] != "count":
            self.error(e, f"only count(zone where ...) takes 'where', not '{e['func']}'", path)
        self.zone(e["zone"], scope, f"{path}.zone")
        self.card_test(e["where"], scope, f"{path}.where")
        return INT

    def card_test(self, where: dict, scope: dict, path: str) -> None:
        """A test of one card, its attributes read by their bare names (``count(zone where fast)``,
        ``move 1 from a to b where colour == c``); a local of an attribute's name hides it."""
        inner = {**{a: _Attr(t) for a, t in self.sym.attrs.items()}, **scope}
        for n in nodes(where):
            if n.get("node") == "name" and n["id"] in self.sym.attrs and n["id"] in scope \
                    and not isinstance(scope[n["id"]], _Attr):
                self.warn(n, f"'{n['id']}' here is the local name (a parameter, 'let' or loop variable), which "
                             f"hides the card attribute '{n['id']}'; rename the local to read the attribute",
                          path)
        self.expect(where, self.expr(where, inner, path), {BOOL}, "'where'", path)

    def warn_let_hides(self, s: dict, scope: dict, path: str) -> None:
        """A 'let' named as a shared var or a param hides it in the rest of its block: there the name
        reads the let's value, while 'set NAME = ...' still sets the var. Warned, with where the var
        (or param) is declared. (A per-player var is read as NAME(p), which a 'let' does not hide.)"""
        name = s["name"]
        hidden = None if name in scope else self.hidden_global(name)
        if hidden is None:
            return
        what, note = hidden
        then = f"; 'set {name} = ...' still sets the var" if what == "var" else ""
        self.warn(s, f"'let {name}' hides the {what} '{name}': in the rest of this block, '{name}' is the let's "
                     f"value, not the {what}'s{then}; give the let another name", path, "name", notes=note)

    def hidden_global(self, name: str) -> Optional[tuple[str, tuple[str, ...]]]:
        """What a local named ``name`` hides that is read by its bare name: a shared var or a param
        ("var" or "param", and a note naming where it is declared); None if nothing. (A per-player
        var is read as NAME(p), which a local does not hide.)"""
        var, param = self.sym.vars.get(name), self.sym.params.get(name)
        if var is not None and (var.get("builtin") or var["per_player"] or var.get("grid")):
            return None
        if var is None and param is None:
            return None
        what = "var" if var is not None else "param"
        decl = var if var is not None else param
        at = span(decl, "name") or span(decl)
        return what, ((f"the {what} '{name}' is declared at {self.where_file(at)}:{at[0]}:{at[1]}",) if at else ())

    def warn_hidden_local(self, binder: dict, scope: dict, path: str) -> None:
        """A loop's or an option's variable (``binder`` at ``path``) that takes the name of a local it
        stands in (a parameter, a 'let', an outer loop's or option's variable) hides that local inside:
        ``for q in player { choose x { pair a in hand(q), q in player ... } }`` reads ``hand(q)`` with
        the option's ``q`` in the option's body. Warned, with where the hidden one is bound; so is one
        named as a shared var or a param, which it hides too."""
        name = binder["var"]
        what = "option variable" if binder["node"] == "binding" else "loop variable"
        hidden = self.hidden_global(name) if name not in scope else None
        if hidden is not None:  # (a shared var's or a param's name: inside, the name is this variable)
            self.warn(binder, f"{what} '{name}' hides the {hidden[0]} '{name}': inside, '{name}' means this {what}, "
                              f"not the {hidden[0]}; rename the {what}", path, "var", notes=hidden[1])
            return
        if name not in scope or isinstance(scope[name], _Attr):
            return
        outer, at = self.bound_before(path, name)
        line = f" of line {at[0]}" if at else ""
        self.warn(binder, f"{what} '{name}' hides the {outer} '{name}'{line}: inside, '{name}' means this {what}; "
                          f"rename one of them", path, "var",
                  notes=(f"the hidden '{name}' is bound at {self.where_file(at)}:{at[0]}:{at[1]}",) if at else ())

    def bound_before(self, path: str, name: str) -> tuple[str, Optional[list]]:
        """What binds the local ``name`` where ``path`` stands, and where: the innermost of the
        parameters, loops, options and 'let's (and placements) around it or before it in its blocks."""
        found: tuple[str, Optional[list]] = ("local", None)
        x: Any = self.ir
        for key, index in re.findall(r"\.(\w+)|\[(\d+)\]", path):
            step: Any = int(index) if index else key
            if isinstance(x, list):  # a block (or an option's variables): what the items before bind
                for s in x[:step]:
                    kind = s.get("node") if isinstance(s, dict) else None
                    if kind == "let" and s["name"] == name:
                        found = ("'let' name", span(s, "name"))
                    elif kind in ("place", "binding") and s["var"] == name:
                        found = (BINDERS[kind], span(s, "var"))
            elif isinstance(x, dict):
                kind = x.get("node")
                if kind in BINDERS and x.get("var") == name and step in ("body", "where", "while_", "otherwise"):
                    found = (BINDERS[kind], span(x, "var"))
                elif kind == "option" and step in ("body", "where"):
                    for b in x["bindings"]:
                        if b["var"] == name:
                            found = ("option variable", span(b, "var"))
                elif name in (x.get("params") or ()):
                    spans = (x.get("at") or {}).get("params") or []
                    i = x["params"].index(name)
                    found = ("parameter", spans[i] if i < len(spans) else span(x, "name"))
                elif x.get("player") == name and step == "expr":
                    found = ("player name", span(x, "player"))
            x = x[step]
        return found

    def check_reveal(self, s: dict, scope: dict, path: str) -> None:
        """'reveal c [to p]' of a card a loop or an option took from a zone, or 'reveal zone [to p]'."""
        what = s["what"]
        t = self.expr(what, scope, f"{path}.what")
        card = scope.get(what["id"]) if what["node"] == "name" else None
        zone = (card.at or card.zone) if isinstance(card, _Card) else what if t == ZONE else None
        if isinstance(card, _Card) and card.at is not None:
            self.bind(what, C.LOCAL, card.at)  # (shown in the zone it was moved to)
        if zone is None and t != ANY:
            hint = (": name one that a loop or an option took from a zone (for c in hand(p)), or the zone"
                    if t == CARD else "")
            self.error(what, f"'reveal' shows a card or a zone's cards, not {_show(t)}{hint}", f"{path}.what")
        if s["to"] is not None:
            self.expect(s["to"], self.expr(s["to"], scope, f"{path}.to"), {PLAYER}, "who is shown", f"{path}.to")
        name = zone["id"] if zone is not None and zone["node"] == "name" else \
            zone.get("func") if zone is not None else None
        if self.sym.zones.get(name, {}).get("visibility") == "public":
            self.warn(s, f"zone '{name}' is public: everyone sees its cards already, and 'reveal' changes nothing",
                      path)

    def e_comprehension(self, e, scope, path):
        self.warn_hidden_local(e, scope, path)
        inner = dict(scope)
        inner[e["var"]] = self.domain(e["domain"], scope, f"{path}.domain")
        with self.nested(e["domain"], f"{path}.domain"):
            return self.aggregate(e, inner, path)

    def aggregate(self, e: dict, inner: dict, path: str) -> str:
        func = e["func"]
        if inner[e["var"]] == CARD and (e.get("while_") is not None or func == "first"):
            self.error(e, f"a zone's cards have no order: {'first' if func == 'first' else 'while'} runs over a "
                          f"board's cells, a line, a range, the players or a kind", f"{path}.domain")
        if e.get("while_") is not None:
            self.expect(e["while_"], self.expr(e["while_"], inner, f"{path}.while_"), {BOOL}, "'while'",
                        f"{path}.while_")
        if e["where"] is not None:
            self.expect(e["where"], self.expr(e["where"], inner, f"{path}.where"), {BOOL}, "'where'",
                        f"{path}.where")
        body = self.expr(e["body"], inner, f"{path}.body")
        if func not in AGGREGATES:
            self.error(e, f"unknown aggregate '{func}'{self.suggest(func, AGGREGATES)}", path)
            return ANY
        if func == "first":
            if body != ANY and body not in (PLAYER, TILE, CELL) and not body.startswith("kind:"):
                self.error(e["body"], f"'first' gives a player, a tile, a cell or a value (or none if no item "
                                      f"passes), not {_show(body)}", f"{path}.body")
                return ANY
            return body
        if func in ("any", "all", "count"):
            self.expect(e["body"], body, {BOOL}, f"the body of '{func}'", f"{path}.body")
            return INT if func == "count" else BOOL
        self.expect(e["body"], body, {INT}, f"the body of '{func}'", f"{path}.body")
        return INT

    def e_case(self, e, scope, path):
        subject = self.expr(e["subject"], scope, f"{path}.subject")
        result = None
        values = [a["value"] for a in e["arms"]] + ([e["default"]] if e["default"] is not None else [])
        matched: dict[Any, int] = {}
        for i, arm in enumerate(e["arms"]):
            m = self.expr(arm["match"], scope, f"{path}.arms[{i}].match")
            if ANY not in (m, subject) and m != subject:
                self.error(arm["match"], f"case on {_show(subject)} cannot match {_show(m)}", f"{path}.arms[{i}]")
            match = arm["match"]
            key = ("name", match["id"]) if match["node"] == "name" else ("value", self.const(match))
            if key[1] is not None and key in matched:
                self.warn(match, f"this arm matches what arm {matched[key] + 1} of the case matches already: it "
                                 f"is never taken (the first arm that matches is)", f"{path}.arms[{i}].match")
            matched.setdefault(key, i)
        for i, v in enumerate(values):
            t = self.expr(v, scope, f"{path}.arms[{i}].value")
            if result in (None, ANY) or (result == NONE and _holds_none(t)):
                result = t
            elif t == NONE and _holds_none(result):
                continue
            elif t not in (result, ANY):
                self.error(v, f"the cases give {_show(result)} and {_show(t)}", path)
        if e["default"] is None:
            self.error(e, "a case needs an 'else: ...' for values no arm matches", path)
        return result or ANY

    def e_attr(self, e, scope, path):
        t = self.expr(e["obj"], scope, f"{path}.obj")
        name = e["name"]
        if t not in (CARD, TILE, ANY):
            self.error(e, f"only cards and tiles have attributes; this is {_show(t)}", path)
            return ANY
        if name not in self.sym.attrs:
            self.error(e, f"unknown card attribute '{name}'{self.suggest(name, self.sym.attrs)}", path)
            return ANY
        if t == TILE and name not in self.sym.tile_attrs:
            self.error(e, f"'{name}' is not an attribute of the grid's tiles", path)
        elif t == CARD and name in self.sym.tile_attrs:
            self.error(e, f"'{name}' is a tile attribute: read it from a placed tile", path)
        return self.sym.attrs[name]

    def e_bin_op(self, e, scope, path):
        op = e["op"]
        a = self.expr(e["left"], scope, f"{path}.left")
        b = self.expr(e["right"], scope, f"{path}.right")
        if op in ARITH:
            self.expect(e["left"], a, {INT}, f"'{op}'", f"{path}.left")
            self.expect(e["right"], b, {INT}, f"'{op}'", f"{path}.right")
            divisor = fold(e["right"], lambda name: None) if op in ("/", "%") else None
            if divisor == 0 and not isinstance(divisor, bool):  # (numbers alone: a param may be meant to vary)
                self.warn(e["right"], f"'{op}' by 0 always gives 0 (a rule never stops the game for it): "
                                      f"the divisor here is 0 whatever happens", f"{path}.right")
            return INT
        if op in ORDER and a == b and a.startswith("kind:"):
            return BOOL  # values of one kind are ordered as declared
        if op in ORDER and INT not in (a, b) and ANY not in (a, b):  # (one mistake: said once)
            self.error(e, f"'{op}' compares numbers, or values of one kind in the order declared; not "
                          f"{_show(a)} with {_show(b)}", path)
            return BOOL
        if op in ORDER:
            self.expect(e["left"], a, {INT}, f"'{op}'", f"{path}.left")
            self.expect(e["right"], b, {INT}, f"'{op}'", f"{path}.right")
            return BOOL
        if op in EQUALITY:
            if ANY not in (a, b) and not _comparable(a, b):
                hint = ": a player is seat(n), a player's seat number is number(p)" if {a, b} == {PLAYER, INT} else ""
                self.error(e, f"cannot compare {_show(a)} with {_show(b)}{hint}", path)
            return BOOL
        if op in LOGIC:
            self.expect(e["left"], a, {BOOL}, f"'{op}'", f"{path}.left")
            self.expect(e["right"], b, {BOOL}, f"'{op}'", f"{path}.right")
            return BOOL
        self.error(e, f"unknown operator '{op}'", path)
        return ANY

    def e_un_op(self, e, scope, path):
        t = self.expr(e["operand"], scope, f"{path}.operand")
        if e["op"] == "not":
            self.expect(e["operand"], t, {BOOL}, "'not'", f"{path}.operand")
            return BOOL
        self.expect(e["operand"], t, {INT}, "'-'", f"{path}.operand")
        return INT

    def e_cond(self, e, scope, path):
        self.expect(e["test"], self.expr(e["test"], scope, f"{path}.test"), {BOOL}, "'if'", f"{path}.test")
        a = self.expr(e["then_"], scope, f"{path}.then_")
        b = self.expr(e["else_"], scope, f"{path}.else_")
        for one, other in ((a, b), (b, a)):
            if one == NONE and _holds_none(other):
                return other
        if ANY not in (a, b) and a != b:
            self.error(e, f"the branches give {_show(a)} and {_show(b)}", path)
        return a if a != ANY else b


def _holds_none(t: str) -> bool:
    """Can a value of type ``t`` be none? None stands for no player, tile, cell or kind's value."""
    return t in (PLAYER, TILE, CELL) or t.startswith("kind:")


def _comparable(a: str, b: str) -> bool:
    if a == b:
        return True
    kinds = {a, b}
    if NONE in kinds and all(k.startswith("kind:") or k in (NONE, TILE, CELL, PLAYER) for k in kinds):
        return True
    return "kind:*" in kinds and all(k.startswith("kind:") for k in kinds)


def _outer_cards(e: Any, bindings: dict) -> list[dict]:
    """The names in ``e`` bound to the attribute of a card that a 'where' outside ``e`` looks at."""
    if isinstance(e, list):
        return [n for v in e for n in _outer_cards(v, bindings)]
    if not isinstance(e, dict):
        return []
    if e.get("node") == "filtered":  # its own card: only its zone can read an outer one
        return _outer_cards(e.get("zone"), bindings)
    if e.get("node") == "name":
        b = bindings.get(id(e))
        return [e] if b is not None and b.what == C.ATTRIBUTE else []
    return [n for _, v in children(e) for n in _outer_cards(v, bindings)]


def _always_ends(s: Any) -> bool:
    """Does statement ``s`` end the game whichever way it goes (an ``end game``, an ``if`` with an
    ``else`` each of whose branches holds one that does)?"""
    if not isinstance(s, dict):
        return False
    if s.get("node") == "end_game":
        return True
    return s.get("node") == "if" and bool(s.get("else_")) and all(
        any(_always_ends(t) for t in branch) for branch in (s.get("body") or [], s.get("else_") or []))


def _runs(stmts: list) -> list[str]:
    return [s["phase"] for s in nodes(stmts) if s["node"] == "run"]


def _show(t: Optional[str]) -> str:
    if t is None:
        return "nothing"
    if t == EDGE:
        return f"an edge ({', '.join(EDGE_NAMES[:-1])} or {EDGE_NAMES[-1]})"
    if t == DIRECTION:
        return f"a direction ({', '.join(DIRECTION_NAMES[:-1])} or {DIRECTION_NAMES[-1]})"
    if t.startswith("kind:"):
        return "a piece or value" if t == "kind:*" else f"a value of '{t[5:]}'"
    return {INT: "a number", BOOL: "true/false", PLAYER: "a player", ZONE: "a zone", CARD: "a card",
            NONE: "no value", "track": "a track", GRID: "a grid", TILE: "a tile",
            EDGES: "a set of edges", BOARD: "a board", CELL: "a cell", CELLS: "a row of cells"}.get(t, t)
