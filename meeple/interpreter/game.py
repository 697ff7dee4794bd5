"""A compiled game (``Game``) and the loader (``load``): rules file or IR → Game."""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import linecache
import random
import re
from collections.abc import Callable
from os import PathLike
from pathlib import Path
from typing import Any, Optional

from meeple import __version__
from meeple.dsl import check_ir, ir_from_json, read_checked
from meeple.dsl.checked import CheckedGame
from meeple.dsl.limits import MAX_CARDS, MAX_DICE, MAX_NUMBER, MAX_SPACES
from meeple.dsl.diagnostics import Diagnostic, RuleRuntimeError, RulesError, RulesSemanticError, printable
from meeple.dsl.walk import positionless, span, unnamed

from .code import local
from .code import name as code_name
from .statements import END_TEST
from .expressions import ExprCompiler, SlotAllocator, TooDeep
from .flow import varieties_by_zone
from .boards import MAX_COORD, Board
from .layout import NO_VALUE, Layout
from .codecache import ModuleCache, game_key
from .program import compile_program, fixed_tags, write_segments
from .moves import TileLay
from .ops import CHANCE as CHANCE_OP
from .ops import CHOICE
from .state import STATE_VERSION, IllegalAction, State, seeded_random, whole_number

DEFAULT_MAX_STEPS = 10_000


class StateError(ValueError):
    """A saved state that cannot be loaded into this game (another game, another format)."""


def load(path: str, params: Optional[dict[str, int]] = None) -> "Game":
    """Load, check and compile a ``.rules`` file (or an IR ``.json``). Raises ``RulesError`` (and a
    ``TypeError`` for a path that is no path, or params that are not a dict of names to numbers)."""
    if not isinstance(path, (str, PathLike)):
        raise TypeError(f"load takes the path of a rules or IR file (a str or a Path), not {type(path).__name__}")
    return compile_checked(read_checked(str(path), params))


def compile_checked(checked: CheckedGame) -> "Game":
    """The game of a checked game; Python's own limits on nesting reported as a rules error."""
    path, ir = checked.source_path, checked.ir
    try:
        return Game(checked)
    except TooDeep as e:  # Python's limits on nesting are not all the checker's
        at = e.at or [0, 0, 0, 0]
        sources = ir.get("sources") or [str(path)]
        file = sources[at[4]] if len(at) > 4 and at[4] < len(sources) else str(path)
        if str(path).endswith(".json"):
            raise RulesSemanticError([Diagnostic(str(path), f"{e} (from {ir.get('source', '')}:{at[0]}:{at[1]})",
                                                 path="$")]) from None
        raise RulesSemanticError([Diagnostic(file, str(e), *at[:4])]) from None


class Game:
    """A game compiled once from a checked game; makes states.

    ``Game(checked)`` takes the front end's ``CheckedGame``; given an IR document instead
    (``Game(ir, params)``), it runs the front end on it first: no code is ever made from IR
    that did not pass the schema and the checker."""

    def __init__(self, checked: CheckedGame | dict, params: Optional[dict[str, int]] = None,
                 source_path: str = ""):
        if not isinstance(checked, CheckedGame):
            checked = _check_document(checked, params, source_path)
        elif params:
            raise ValueError("a checked game has its params: give them to the front end (load(path, params))")
        ir = checked.ir
        self.checked = checked
        self.ir = ir
        self.source_path = source_path = checked.source_path
        self.warnings: list[Diagnostic] = list(checked.warnings)
        self.params = dict(checked.params)
        # (the texts the rules give, printed by the tools: control characters shown, not sent)
        self.title = printable(ir["title"] or Path(source_path).stem)
        self.min_players, self.max_players = ir["players"]["lo"], ir["players"]["hi"]
        self.max_steps = ir["max_steps"] or DEFAULT_MAX_STEPS
        self.sym = checked.symbols
        self._bases: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self._zone_slots: dict[int, list[tuple[int, Optional[int]]]] = {}
        self._starts: dict[int, State] = {}  # player count → the state before the first step
        self._queries: dict[str, Any] = {}  # define name → its compiled body, for ``query``
        self.layout = Layout(ir, self.sym, self.params)
        self.turn_order = self.layout.turn_order  # (State.pass_turn, or simply seat order)
        slots = SlotAllocator()
        self.exprs = ExprCompiler(checked, self.layout, slots, varieties_by_zone(checked))
        self.exprs.cache = ModuleCache(game_key(ir, self.params), self.exprs.module.filename)
        # The end conditions first: a lone one is written out where the program tests the end.
        at = self.exprs.at  # (put back after: what the program compiles next is placed as before)
        ends = [self.exprs.compile(e["test"], {}, "end", span(e), inline=True) for e in ir["end"]]
        self.exprs.at = at
        if len(ends) == 1 and getattr(ends[0], "text", None):
            self.exprs.end_text = (ends[0].text, span(ir["end"][0]))
        self.code, self.turn_start, self.positions, self.loops = compile_program(ir, self.exprs)
        self.ends = list(zip(ends, [span(e) for e in ir["end"]]))  # (for why a game ended: ``why_ended``)
        self.end_test = ends[0] if len(ends) == 1 else (lambda st: any(f(st) for f in ends))
        self.exprs.module.table(END_TEST, self.end_test)  # the straight runs test the end by this name
        # the seeded path from a decision to the next, as one function each
        self.segments = write_segments(self.code, self.positions, self.exprs)
        # each decision's generated turn by its step (None elsewhere): what ``State.play_out`` runs
        self.turn_at = tuple(spec.turn if op == CHOICE else None for op, spec, _ in self.code)
        self.score = self._per_player(ir["score"], slots, "score")
        self.tiebreak = self._per_player(ir["tiebreak"], slots, "tiebreak") or (lambda st, seat: 0)
        # what each player gets, if the rules declare it (else a share of the win), and whether
        # the rules say it adds up to 0
        self.declared_returns = self._per_player(ir.get("returns"), slots, "returns")
        self.zero_sum = bool(ir.get("returns") and ir["returns"].get("zero_sum"))
        self.returns_at = span(ir["returns"]) if ir.get("returns") else None
        # (label, compiled expression, whether its value is a piece or enum value to show by name)
        self.reports = [(printable(r["label"]), self._placed(self.exprs.compile(r["expr"], {}, "report", span(r)), r),
                         checked.type_of(r["expr"])) for r in ir["reports"]]
        # what meeple play shows: (label, value(state) or value(state, seat), per player, names a value)
        self.shows = [(printable(sh["label"]), self._per_player(sh, slots, "show") if sh.get("player") else
                       self._placed(self.exprs.compile(sh["expr"], {}, "show", span(sh)), sh), bool(sh.get("player")),
                       checked.type_of(sh["expr"])) for sh in ir.get("shows", [])]
        # what each show reads that not every seat may see: None, "private" or "hidden"
        self.show_secrecy = [self._secrecy(sh["expr"], sh.get("player")) for sh in ir.get("shows", [])]
        self.labels = {lb["target"]: printable(lb["text"]) if lb.get("text") is not None else None
                       for lb in ir.get("labels", [])}  # (None: a var never shown)
        # (name, test(state, state before the step), where it is declared)
        self.invariants = [(inv["name"], self._placed(self._invariant(inv), inv), span(inv))
                           for inv in ir.get("invariants", [])]
        self.var_inits = [self._placed(self.exprs.compile(self.sym.vars[n]["init"], {}, "start", span(self.sym.vars[n]),
                                                          kept=True), self.sym.vars[n])
                          for n in self.layout.var_names]
        self.n_locals = slots.count
        self.local_holds = slots.holds  # what a saved state's locals may hold (``_locals_fit``)
        self.const = {  # counts known once the params are: cards, track lengths
            # (a count that depends on the number of players is a function of the state)
            "cards": [self._count(v["count"]) for c in ir["cards"] for v in c["varieties"]],
            "track_length": [self._const(t["spaces"]) for t in ir["tracks"]],
            "tiles": [[self._const(tc["count"]) for tc in t["tiles"]] for t in ir["tracks"]],
            "fixed": fixed_tags(ir, self._const),
        }
        self.card_zone = [self.layout.zone_names.index(c["zone"]) for c in ir["cards"]
                          for _ in c["varieties"]]
        self.source_hash = _files_hash(ir.get("sources") or [source_path]) if source_path else ""
        self.module = self.exprs.module
        self.tile_flags = tuple(self.exprs.flag_columns)  # (the flags a board keeps lists of tiles by)
        self.module.program(self.code, self.turn_start)
        self.module.publish(self)
        self.exprs.cache.save()

    @functools.cached_property
    def game_hash(self) -> str:
        """A hash of the game and its params (records and saved states name it): made when first
        needed, as a large game's IR takes a while to hash."""
        return _game_hash(self.ir, self.params)

    @functools.cached_property
    def program_hash(self) -> str:
        """A hash of the compiled program, which a saved state's program counter and locals index:
        a state saved by a meeple that compiled the rules otherwise is restored by replaying it."""
        steps = [(op, getattr(a, "__name__", type(a).__name__), b if b is None or isinstance(b, (bool, int, str))
                  else "") for op, a, b in self.code]
        text = json.dumps([__version__, self.module.code_lines(), repr(steps), self.n_locals])
        return hashlib.sha256(text.encode()).hexdigest()

    def _count(self, e: dict) -> Any:
        """A count of cards: a number, or (one that reads 'players') a function of the state."""
        value = self.exprs.gen(e, {}).value
        return value if value is not None else self.exprs.compile(e, {}, "count", span(e))

    def _const(self, e: dict) -> int:
        value = self.exprs.gen(e, {}).value
        if value is None:  # the checker holds counts and lengths to constants
            raise LookupError("a count or length known only at run time: this is a bug in meeple")
        return value

    def _invariant(self, inv: dict) -> Any:
        x = self.exprs
        with x.placed(span(inv)):
            return x.statements([f"return {x.gen(inv['test'], {})}"], params=("_before",), purpose="invariant")

    def _per_player(self, decl: Optional[dict], slots: SlotAllocator, purpose: str):
        if decl is None:
            return None
        slot = slots.new()
        fn = self.exprs.compile(decl["expr"], {decl["player"]: local(slot)}, purpose, span(decl))

        def per_player(st, seat):
            saved = st.locals[slot]  # asking for a score must not change the state
            st.locals[slot] = seat
            try:
                return fn(st)
            except RuleRuntimeError as e:
                raise self.located_at(e, span(decl)) from None
            finally:
                st.locals[slot] = saved
        return per_player

    def _placed(self, fn: Any, decl: dict) -> Any:
        """``fn``, whose run-time rules errors name ``decl``'s place in the rules."""
        def placed(*args: Any) -> Any:
            try:
                return fn(*args)
            except RuleRuntimeError as e:
                raise self.located_at(e, span(decl)) from None
        return placed

    def bases(self, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Where each zone's and var's slots start, for a player count (computed once per count)."""
        found = self._bases.get(players)
        if found is None:
            found = self._bases[players] = self.layout.bases(players)
        return found

    def zone_slots(self, players: int) -> list[tuple[int, Optional[int]]]:
        """Each zone slot of a state of ``players`` (``State.zones``): its zone's index and its
        owner (None for a shared zone). Computed once per player count."""
        if players in self._zone_slots:
            return self._zone_slots[players]
        zone_base = self.bases(players)[0]
        out: list[tuple[int, Optional[int]]] = [(0, None)] * sum(
            players if self.sym.zones[name]["per_player"] else 1 for name in self.layout.zone_names)
        for zi, name in enumerate(self.layout.zone_names):
            for seat in range(players) if self.sym.zones[name]["per_player"] else [None]:
                out[zone_base[zi] + (seat or 0)] = (zi, seat)
        self._zone_slots[players] = out
        return out

    def sees(self, slot: int, seat: int, players: int) -> bool:
        """May ``seat`` see the cards of zone slot ``slot`` (a public zone, or its own private one)?"""
        zi, owner = self.zone_slots(players)[slot]
        visibility = self.sym.zones[self.layout.zone_names[zi]]["visibility"]
        return visibility == "public" or (visibility == "private" and owner == seat)

    # ---- states ----
    def new_state(self, players: int, seed: Optional[int] = None, chance: Optional[str] = None,
                  listen: Optional[Callable[[tuple], None]] = None, rng: Optional[random.Random] = None) -> State:
        """A game at its start. With ``seed`` chance is sampled; with ``chance="explicit"``
        every chance node waits for the caller (``chance_outcomes`` / ``apply``). ``listen``:
        set as the state's ``listen`` before its setup runs (``State.listen``). ``rng``, instead
        of ``seed``: a ``random.Random`` that chance draws from, the caller's own (not a copy), so
        that one generator seeded once can serve a whole game (``play_out(rng)`` with the same)."""
        if not whole_number(players):
            raise TypeError(f"players is a whole number, not {players!r}")
        if seed is not None and not whole_number(seed):
            raise TypeError(f"seed is a whole number or None, not {seed!r}")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} is for {self.min_players}..{self.max_players} players, not {players}")
        if chance not in (None, "explicit", "sampled"):
            raise ValueError(f"chance must be 'explicit' or 'sampled', not {chance!r}")
        if rng is not None and (not isinstance(rng, random.Random) or isinstance(rng, random.SystemRandom)):
            # (a SystemRandom has no state to copy: a state's generator is copied with the state)
            raise TypeError(f"rng is a random.Random or None, not {type(rng).__name__}")
        if rng is not None and (seed is not None or chance == "explicit"):
            raise ValueError("give rng or seed, not both, and no rng with chance='explicit'")
        start = self._starts.get(players)
        if start is None:
            start = self._starts[players] = self._start(players)
        st = start.clone(log=False)
        if chance != "explicit":
            # (a new game's generator: as random.Random(seed), sooner; or the caller's own)
            st.rng = rng if rng is not None else seeded_random(seed)
        st.listen = listen
        st._advance()
        return st

    def _start(self, players: int) -> State:
        """The state before the program's first step (the same for every game of ``players``)."""
        st = State(self, players)
        n_zone_slots = sum(players if z["per_player"] else 1 for z in self.sym.zones.values())
        nv = len(self.layout.variety_names)
        st.zones = [[0] * nv for _ in range(n_zone_slots)]
        for i, count in enumerate(self.const["cards"]):
            st.zones[st.zone_base[self.card_zone[i]]][i] += count if isinstance(count, int) else count(st)
        st.vars = [0] * self.layout.var_slots(players)
        for i, name in enumerate(self.layout.var_names):  # in declaration order: a start value
            init = self.var_inits[i]  # may read earlier vars
            count = self.layout.var_size(name, players)
            st.vars[st.var_base[i]:st.var_base[i] + count] = [init(st)] * count
        nvalues = len(self.layout.value_names)
        st.pos, st.place = [0] * nvalues, [0] * nvalues
        st.track_length = list(self.const["track_length"])
        st.podium = [[] for _ in st.track_length]
        st.tags = [[None] * (n + 1) for n in st.track_length]
        for tags, fixed in zip(st.tags, self.const["fixed"]):  # (``tag at 5, 11``: there from the start)
            for space, tag in fixed.items():
                tags[space] = tag
        st.bags = [list(b) for b in self.const["tiles"]]
        st.locals = [0] * self.n_locals
        if self.layout.shapes is not None:
            st.grid = Board(len(self.layout.tile_var_names), self.tile_flags)
        return st

    def state_from_json(self, doc: dict[str, Any]) -> State:
        """The state ``State.to_json`` described. Raises ``StateError`` for a document that is not
        a saved state of this game (another game, other params, another format).

        A state saved by meeple 0.1 (no ``"meeple_state"`` key) carries no game hash: it is
        rebuilt by replaying its history, which is also what tells whether it is this game's."""
        if not isinstance(doc, dict):
            raise StateError("a saved state is a JSON object (made by State.to_json())")
        version = doc.get("meeple_state")
        if version is None and isinstance(doc.get("history"), list) and isinstance(doc.get("players"), int):
            return self._replayed(doc)
        if version != STATE_VERSION:
            raise StateError(f"saved state format {version!r} is not one this meeple reads (it reads "
                             f"{STATE_VERSION}, and states of meeple 0.1)")
        if doc.get("game") != self.game_hash:
            raise StateError(f"this saved state is not a state of {self.title} with these params "
                             f"(it was saved from another game, or other params)")
        if doc.get("program") != self.program_hash:  # saved by a meeple that compiled the rules otherwise
            if not (isinstance(doc.get("players"), int) and not isinstance(doc["players"], bool)
                    and isinstance(doc.get("history"), list)):
                raise StateError("the saved state is damaged: it needs 'players' (a number) and 'history' (a list)")
            return self._replayed(doc, check=True)
        try:
            st = State(self, doc["players"])
            for key in ("pc", "current", "turns", "outcome", "zones", "vars", "pos", "place", "podium", "tags",
                        "bags", "track_length", "locals"):
                setattr(st, key, copy.deepcopy(doc[key]))  # the state must not share lists with ``doc``
            if self.layout.reveals:
                st.known = _known_from_json(doc.get("known", []))
            st.log = [(a, None, t) for a, t in doc["history"]]
            if self.layout.shapes is not None:
                st.grid = self._board_from_json(doc.get("grid"))
            _restore_rng(st, doc)
            problem = self._shape_problem(st)
            if problem:
                raise StateError(f"the saved state is damaged: {problem}")
            return st
        except (KeyError, IndexError, TypeError, ValueError, OverflowError, AttributeError) as e:
            if isinstance(e, StateError):
                raise
            raise StateError(f"the saved state is damaged: {type(e).__name__}: {e}") from None

    def _loops_fit(self, st: State) -> bool:
        """Each loop the saved state waits in holds a list of items and an index into it (one it
        waits outside of may hold anything a local holds)."""
        for first, end, items, index in self.loops:
            if st.outcome is None and first <= st.pc < end:
                if not (isinstance(st.locals[items], list) and not isinstance(st.locals[index], bool)
                        and isinstance(st.locals[index], int) and 0 <= st.locals[index] <= len(st.locals[items])):
                    return False
        return True

    def _locals_fit(self, st: State) -> bool:
        """Each local holds what the compiler put there (``SlotAllocator.holds``), or 0, where every
        local starts: a loop's items a list of what its variable takes, the others a number, and a
        seat, a tile, a cell, a card or a kind's value one of this game's (the generated code indexes
        the state by them); an option's number, a track's space, the dice left within their range.
        (A local not read again before it is set may hold a stale value: it is one of these too.)"""
        if not (whole_number(st.pc) and 0 <= st.pc < len(self.code) and isinstance(st.track_length, list)
                and len(st.track_length) == len(self.const["track_length"])
                and all(whole_number(n) for n in st.track_length)):
            return True  # (their own checks refuse them)
        for slot, v in enumerate(st.locals):
            holds = self.local_holds.get(slot, "int")
            items = holds.startswith("items:")
            if isinstance(v, list) != items and not (items and v == 0):
                return False
            values = v if isinstance(v, list) else [v]
            of = holds.removeprefix("items:")
            allowed = self._allowed(of, st)
            if allowed is not None and not all(whole_number(i) and (i in allowed or i == 0) for i in values):
                return False
            if items and (of in ("player", "tile", "cell") or of.startswith("kind:")) and NO_VALUE in values:
                return False  # (a loop over seats, tiles, cells or a kind's values never runs over none)
        waits = self.code[st.pc][1] if st.outcome is None else None
        if isinstance(waits, TileLay):  # (the space whose tile is drawn: one of the track's)
            return 1 <= st.locals[waits.slot] <= st.track_length[waits.track]
        return True

    def _allowed(self, t: str, st: State) -> Optional[Any]:
        """The values a var or local of type ``t`` may hold in ``st`` (a range or a set), or None:
        any number. A player, a tile, a cell or a kind's value may be none."""
        tiles = len(st.grid) if st.grid is not None else 0
        if t == "player":
            return range(NO_VALUE, st.players)
        if t == "tile":
            return range(NO_VALUE, tiles)
        if t == "cell":
            return range(NO_VALUE, self.layout.cells)
        if t == "card":
            return range(len(self.layout.variety_names))
        if t.startswith("option:"):
            return range(int(t[7:]))
        if t.startswith("space:"):  # (past the loop that lays a track's tiles: one past its last space)
            return range(st.track_length[int(t[6:])] + 2)
        if t == "dice":
            return range(MAX_DICE + 1)
        if t[5:] in self.layout.kind_values:
            return {NO_VALUE, *self.layout.kind_values[t[5:]]}
        return None

    def _board_from_json(self, doc: Any) -> Board:
        """The grid of a saved state: its tiles, each a variety and a rotation of this game's, laid
        on distinct squares, and a list per tile var."""
        shapes = self.layout.shapes
        ok = isinstance(doc, dict) and isinstance(doc.get("tiles"), list) and isinstance(doc.get("vars"), list) \
            and len(doc["vars"]) == len(self.layout.tile_var_names) and len(doc["tiles"]) <= MAX_CARDS \
            and all(isinstance(t, list) and len(t) == 4 and all(whole_number(n) for n in t)
                    and 0 <= t[2] < len(shapes.ends) and 0 <= t[3] < len(shapes.ends[t[2]])
                    and abs(t[0]) < MAX_COORD and abs(t[1]) < MAX_COORD for t in doc["tiles"]) \
            and len({(t[0], t[1]) for t in doc["tiles"]}) == len(doc["tiles"]) \
            and all(isinstance(v, list) and len(v) == len(doc["tiles"]) for v in doc["vars"])
        if not ok:
            raise StateError("the saved state is damaged: its 'grid' does not fit this game")
        return Board.from_json(doc, shapes, self.tile_flags)

    def _shape_problem(self, st: State) -> str:
        """What is wrong with the shape of a restored state (sizes, types and ranges), or ""."""
        if not (whole_number(st.players) and self.min_players <= st.players <= self.max_players):
            return f"players {st.players!r} (the game is for {self.min_players}..{self.max_players})"
        zone_slots = sum(st.players if z["per_player"] else 1 for z in self.sym.zones.values())
        var_slots = self.layout.var_slots(st.players)
        nv, nvalues = len(self.layout.variety_names), len(self.layout.value_names)
        tracks = len(self.const["track_length"])
        start = self._starts.get(st.players) or self._start(st.players)
        zones_fit = isinstance(st.zones, list) and len(st.zones) == zone_slots \
            and all(isinstance(z, list) and len(z) == nv and all(whole_number(c) and c >= 0 for c in z)
                    for z in st.zones)
        checks = [
            ("zones", zones_fit and _cards_by_variety(st, nv) == _cards_by_variety(start, nv)),  # (cards kept)
            ("vars", isinstance(st.vars, list) and len(st.vars) == var_slots
             and all(isinstance(v, int) and -MAX_NUMBER <= v <= MAX_NUMBER for v in st.vars)),
            ("locals", isinstance(st.locals, list) and len(st.locals) == self.n_locals
             and all(_plain_local(v) for v in st.locals) and self._loops_fit(st) and self._locals_fit(st)),
            ("pos", isinstance(st.pos, list) and len(st.pos) == nvalues
             and all(whole_number(p) and 0 <= p <= MAX_NUMBER for p in st.pos)),  # (as State.move_piece)
            ("place", isinstance(st.place, list) and len(st.place) == nvalues
             and all(whole_number(p) and 0 <= p <= nvalues for p in st.place)),
            ("pc", whole_number(st.pc) and 0 <= st.pc < len(self.code)  # (a game goes on where it waits)
             and (st.outcome is not None or self.code[st.pc][0] == CHOICE
                  or (self.code[st.pc][0] == CHANCE_OP and st.rng is None))),
            ("current", whole_number(st.current) and 0 <= st.current < st.players),
            ("turns", whole_number(st.turns) and 0 <= st.turns <= self.max_steps + 1),
            ("outcome", st.outcome in (None, "end", "draw", "step cap")),
            ("track_length", isinstance(st.track_length, list) and len(st.track_length) == tracks
             and all(whole_number(n) and 0 <= n <= MAX_SPACES for n in st.track_length)),
            ("podium", isinstance(st.podium, list) and len(st.podium) == tracks
             and all(isinstance(p, list) and all(whole_number(v) and 0 <= v < nvalues for v in p) for p in st.podium)),
            ("tags", isinstance(st.tags, list) and len(st.tags) == tracks
             and all(isinstance(t, list) and len(t) == n + 1 and all(g is None or isinstance(g, str) for g in t)
                     for t, n in zip(st.tags, st.track_length))),
            ("bags", isinstance(st.bags, list) and len(st.bags) == len(self.const["tiles"])
             and all(isinstance(b, list) and len(b) == len(c)
                     and all(whole_number(n) and 0 <= n <= MAX_SPACES for n in b)
                     for b, c in zip(st.bags, self.const["tiles"]))),
            ("known", all(0 <= slot < zone_slots and 0 <= seat < st.players and len(counts) == nv
                          and all(0 <= k <= c for k, c in zip(counts, st.zones[slot]))
                          for (slot, seat), counts in st.known.items())),
        ]
        shape = next((f"its '{key}' does not fit this game" for key, ok in checks if not ok), "")
        return shape or self._values_out_of_range(st) or self._cards_out_of_place(st)

    def _values_out_of_range(self, st: State) -> str:
        """A var that holds a player, a tile or a value of a kind, holding none of them; or ""."""
        for i, name in enumerate(self.layout.var_names):
            t = self.checked.var_types.get(name, "")
            allowed = self._allowed(t, st) if t in ("player", "tile") or t.startswith("kind:") else None
            base = st.var_base[i]
            wrong = [v for v in st.vars[base:base + self.layout.var_size(name, st.players)]
                     if allowed is not None and not (whole_number(v) and v in allowed)]
            if wrong:
                return f"its var '{name}' holds {wrong[0]!r}, which is no {t.removeprefix('kind:')} of this game"
        return ""

    def _cards_out_of_place(self, st: State) -> str:
        """A card in a zone no rule can bring it to (the compiled rules never look for it there, and a
        draw would take a card the zone does not hold), as ``State.set_zone`` refuses it; or ""."""
        for slot, (zi, _) in enumerate(self.zone_slots(st.players)):
            name = self.layout.zone_names[zi]
            never = self.never_held(name, st.zones[slot])
            if never:
                return f"its zone '{name}' holds {never}, which no rule ever brings there"
            over = self.over_limits(name, st.zones[slot])
            if over:
                return f"its zone '{name}' holds {over}"
        return ""

    def over_limits(self, zone: str, counts: list[int]) -> str:
        """What ``counts`` (per variety) in ``zone`` breaks of what the compiled rules count on
        there, or "": more than a limit that the one rule filling the zone keeps
        (``program.limits_kept``: its code never tests it)."""
        names = self.layout.variety_names
        for idx, bound in self.exprs.kept_limits.get(zone, ()):
            held = sum(counts[i] for i in idx)
            if held > bound:
                every = set(idx) >= set(self.exprs.can_hold.get(zone, range(len(names))))
                which = "" if every else f" of {', '.join(repr(names[i]) for i in idx)}"
                return f"{held} cards{which}, more than the {bound} its rules ever let it hold"
        return ""

    def never_held(self, zone: str, counts: list[int]) -> list[str]:
        """The varieties ``counts`` (per variety) holds that no rule can bring into ``zone``: the
        compiled rules look at no other variety there."""
        can_hold = self.exprs.can_hold.get(zone)
        names = self.layout.variety_names
        return [names[v] for v, c in enumerate(counts) if c and can_hold is not None and v not in can_hold]

    def _replayed(self, doc: dict[str, Any], check: bool = False) -> State:
        """A state rebuilt by replaying its history: one of meeple 0.1's format, or one saved by a
        meeple whose compiled program differs (``check``: then the game's own parts of the result
        must be what the document says)."""
        try:
            st = self.new_state(doc["players"], chance="explicit")
        except ValueError as e:  # the player count
            raise StateError(f"this saved state is not a state of {self.title}: {e}") from None
        for step, entry in enumerate(doc["history"], 1):
            text = entry[1] if isinstance(entry, list) and len(entry) == 2 else entry
            try:
                st.apply(str(text))
            except (IllegalAction, ValueError, TypeError) as e:
                raise StateError(f"this saved state is not a state of {self.title}: step {step} of its "
                                 f"history ({text!r}) cannot be played here ({e})") from None
        try:
            _restore_rng(st, doc)
        except (TypeError, ValueError) as e:
            raise StateError(f"the saved state is damaged: its random generator: {e}") from None
        if check:
            now = st.to_json()
            differs = [k for k in GAME_PARTS if k in doc and doc[k] != now[k]]
            if differs:
                raise StateError(f"the saved state is damaged: its {differs[0]!r} is not what its history gives "
                                 f"(a position arranged by hand, with set_zone, set_var or restart_turn, can be "
                                 f"restored only by the meeple that saved it)")
        return st

    def located(self, error: RuleRuntimeError, pc: int) -> RuleRuntimeError:
        """``error``, raised while instruction ``pc`` ran, with the rules file, line and column of
        the statement it runs (kept if the error has them already): of the game's function the
        error was raised in, when it was."""
        at = self.module.position_in(error.__traceback__)
        if at is None and 0 <= pc < len(self.positions):
            at = self.positions[pc]
        return self.located_at(error, at)

    def located_at(self, error: RuleRuntimeError, at: Optional[list]) -> RuleRuntimeError:
        """``error`` with the rules file, line and column of ``at`` (kept if it has them already)."""
        if error.line == 0 and at:
            sources = self.ir.get("sources") or [self.source_path]
            error.file = sources[at[4]] if len(at) > 4 and at[4] < len(sources) else self.source_path
            error.line, error.col = at[0], at[1]
        return error

    # ---- views ----
    def shown(self, st: State, seat: Optional[int] = None) -> list[tuple[str, list]]:
        """The values the rules' ``show`` declarations show, as a person reads them: (label, a value
        for each player, or one value). A player as "seat N", a value of a kind by its name, none as
        "—", a flag as yes/no. As ``seat`` sees them (None: all of them): while the game goes on, a
        show that reads what the seat may not see is "?" (its own value of a private one it sees)."""
        self._own_seat(st, seat)

        def text(v: Any, t: str) -> Any:
            if v is True or v is False:
                return "yes" if v else "no"
            if v == NO_VALUE and (t in ("player", "cell", "none") or t.startswith("kind:")):
                return "—"
            if t == "player":
                return f"seat {v}"
            if t.startswith("kind:"):
                return self.value_name(v)
            if t == "cell":
                return self.layout.cell_name(v)
            return v
        out = []
        for (label, fn, per_player, t), secret in zip(self.shows, self.show_secrecy):
            values = [fn(st, s) for s in range(st.players)] if per_player else [fn(st)]
            shown = [text(v, t) for v in values]
            if secret and seat is not None and st.outcome is None:  # (a seat sees its own private values)
                shown = [v if secret == "private" and per_player and i == seat else "?" for i, v in enumerate(shown)]
            out.append((label, shown))
        return out

    def _secrecy(self, expr: Any, own: Optional[str] = None, seen: Optional[set] = None) -> Optional[str]:
        """What ``expr`` reads that not every seat may see: "hidden" (a hidden var, the cards of a
        hidden zone), "private" (a private var, the cards of a private zone), or None (only what all
        may see; a zone's count is seen by all). ``own``: the player a per-player show is of; a
        private thing counts as "private" (its own seat sees it) only when it is that player's,
        read as ``face(p)`` or ``hand(p)``, and as "hidden" when it is another's (``face(next(p))``)."""
        from meeple.dsl.walk import nodes
        seen = set() if seen is None else seen
        found: set[str] = set()
        counted = {id(n["args"][0]) for n in nodes(expr) if n.get("node") == "call" and n.get("func") == "count"
                   and len(n.get("args") or []) == 1}
        if own is not None and any(n.get("var") == own or own in (n.get("vars") or []) for n in nodes(expr)):
            own = None  # (a loop inside binds the name again: what it reads may be anyone's)

        def of_own(n: dict) -> bool:  # ``thing(p)``, p the show's player
            args = n.get("args") or []
            return own is not None and len(args) == 1 and args[0].get("node") == "name" and args[0].get("id") == own
        for n in nodes(expr):
            name = n.get("id") if n.get("node") == "name" else n.get("func") if n.get("node") == "call" else None
            if not isinstance(name, str):
                continue
            if name in self.sym.vars or (name in self.sym.zones and id(n) not in counted):
                decl = self.sym.vars.get(name) or self.sym.zones[name]
                visibility = decl.get("visibility", "public")
                found.add("hidden" if visibility == "private" and not of_own(n) else visibility)
            elif name in self.sym.defines:
                define = self.sym.defines[name]
                args = n.get("args") or []  # (the show's player, passed on: the define's parameter)
                passed = [q for q, a in zip(define.get("params") or [], args)
                          if own is not None and a.get("node") == "name" and a.get("id") == own]
                inner = passed[0] if passed else None
                if (name, inner) not in seen:
                    seen.add((name, inner))
                    found.add(self._secrecy(define["body"], inner, seen) or "public")
        return "hidden" if "hidden" in found else "private" if "private" in found else None

    def why_ended(self, st: State, end_at: Optional[list] = None) -> Optional[str]:
        """Why a finished game ended, in rules terms: the ``end when`` that holds (its file, line and
        text), an ``end game`` of the rules (its line, when ``end_at``, its position, is known: a
        state's listener hears it), every player out, or the step cap; None while it goes on."""
        self._own(st)
        if st.outcome is None:
            return None
        if st.outcome == "step cap":
            return f"the step cap: {self.max_steps:,} {self.cap_reached(st)}"
        if end_at:  # (the position of the 'if' around the 'end game', or of the 'end game')
            line, where = self._source_line(end_at)
            end = "end game" + (" with no winner" if st.outcome == "draw" else "")
            test = re.match(r"(?:\}\s*else\s+)?(if .*?)\s*\{?$", line)
            return f"{test[1]} → {end} ({where})" if test else f"{end} ({where})"
        if st.outcome == "draw":
            return "an 'end game with no winner' of the rules"
        for test, at in self.ends:
            if at and test(st):
                line, where = self._source_line(at)
                return f"{line or 'an end when'} ({where})"
        if self.turn_order and not st.seats_in():
            return "every player is out"
        return "an 'end game' of the rules"

    def cap_reached(self, st: State) -> str:
        """What of a game the step cap stopped reached the cap: "steps" or "turns" (it caps both;
        "step" or "turn" for a cap of 1)."""
        self._own(st)
        of = "step" if len(st.log) >= self.max_steps else "turn"
        return of + ("s" if self.max_steps != 1 else "")

    def why_won(self, st: State) -> Optional[str]:
        """What decided the winners of a finished game: the rules' score line and each seat's
        score, highest first (and the tiebreak, when it decided); None without a score or a winner."""
        self._own(st)
        winners = st.winners()
        if not winners or self.score is None:
            return None
        scores = st.scores()
        seats = st.seats_in()  # (some are in: a winner is)
        ranked = ", ".join(f"seat {s}: {scores[s]}" for s in sorted(seats, key=lambda s: -scores[s]))
        line, where = self._source_line((self.ir["score"].get("at") or {}).get("span"))
        text = f"the highest {line or 'score'} ({where}): {ranked}" if where else f"the highest score: {ranked}"
        best = scores[winners[0]]
        if sum(1 for s in seats if scores[s] == best) > len(winners):
            text += "; the tie broken by the rules' tiebreak"
        return text

    def _source_line(self, at: Optional[list]) -> tuple[str, str]:
        """The rules line at a position, stripped (of a rule's ``[name]`` too), and ``file:line``
        ("", "" without a position)."""
        if not at:
            return "", ""
        sources = self.ir.get("sources") or [self.source_path]
        file = sources[at[4]] if len(at) > 4 and at[4] < len(sources) else self.source_path
        linecache.checkcache(file)  # (the file as it is now, should it have changed since it was read)
        line = re.sub(r"^\[[A-Za-z_][\w.]*\]\s*", "", linecache.getline(file, at[0]).strip())
        return line, f"{file}:{at[0]}"

    def value_name(self, v: Any) -> Any:
        if isinstance(v, bool) or not isinstance(v, int):
            return v
        return self.layout.value_names[v] if 0 <= v < len(self.layout.value_names) else \
            ("none" if v == NO_VALUE else v)

    def broken_invariants(self, st: State, before: Optional[State] = None) -> list[str]:
        """The names of the rules' invariants that do not hold in ``st``, ``before`` being the
        state before the last step (``was(e)`` reads it; at the start, ``st`` itself)."""
        self._own(st)
        before = st if before is None else before
        self._own(before)
        return [name for name, test, _ in self.invariants if not test(st, before)]

    def _own(self, st: Any) -> None:
        """``st`` must be a state of this game (of another Game object loaded from the same rules
        and params too): a state of another game read by this one's layout gives wrong answers."""
        if not isinstance(st, State):
            raise TypeError(f"a state of {self.title} is wanted here, not {type(st).__name__}")
        if st.game is not self and (st.game.game_hash != self.game_hash or st.game.program_hash != self.program_hash):
            raise ValueError(f"the state is one of {st.game.title}, not of the game {self.title} asked")

    def _own_seat(self, st: Any, seat: Any) -> None:
        """``st`` a state of this game (``_own``) and ``seat`` one of its seats, or None (all)."""
        self._own(st)
        if seat is not None and not (whole_number(seat) and 0 <= seat < st.players):
            raise ValueError(f"seat {seat!r}: the game has seats 0..{st.players - 1}")

    def route(self, st: State, name: str, *args: Any) -> int:
        """The value of the rules' route query ``name`` in ``st`` (args: seats, values)."""
        self._own(st)
        if name not in self.sym.routes:
            raise KeyError(f"{self.title} declares no route '{name}'")
        wanted = len(self.sym.routes[name]["params"])
        if len(args) != wanted:
            raise TypeError(f"route '{name}' takes {wanted} argument(s), not {len(args)}")
        if not all(whole_number(a) and -MAX_NUMBER <= a <= MAX_NUMBER for a in args):
            raise TypeError(f"route '{name}' takes seats and numbers, not {args!r}")
        try:
            return self.exprs.ns[self.exprs.route_function(name)](st, *args)
        except (IndexError, TypeError, KeyError):  # (an argument that is no seat of the game)
            raise ValueError(f"route '{name}'{args!r}: an argument is no seat or number this game has "
                             f"there") from None

    def query(self, st: State, name: str, *args: Any) -> Any:
        """The value in ``st`` of the rules' define, route or var ``name``, given its arguments
        (seats, numbers, or value names such as ``"red"``), as the rules would read it."""
        self._own(st)
        sym, lay = self.sym, self.layout
        unknown = [a for a in args if isinstance(a, str) and a not in lay.value_id]
        if unknown:
            raise ValueError(f"{self.title} has no value {unknown[0]!r}")
        args = tuple(lay.value_id[a] if isinstance(a, str) else a for a in args)
        if not all(whole_number(a) and -MAX_NUMBER <= a <= MAX_NUMBER for a in args if not isinstance(a, tuple)):
            raise TypeError(f"'{name}' takes seats, numbers and value names, not {args!r}")
        if name in sym.routes:
            return self.route(st, name, *args)
        if name in sym.defines:
            define = sym.defines[name]
            if len(args) != len(define["params"]):
                raise TypeError(f"'{name}' takes {len(define['params'])} argument(s), not {len(args)}")
            fn = self._queries.get(name)
            if fn is None:
                params = tuple(f"_q{i}" for i in range(len(args)))
                body = self.exprs.inline(define, [code_name(p) for p in params])
                fn = self._queries[name] = self.exprs.function(body, params=params)
            try:
                return fn(st, *args)
            except (IndexError, TypeError, KeyError):  # (an argument that is no seat, value or tile of the game)
                raise ValueError(f"'{name}'{args!r}: an argument is no seat, value or number this game "
                                 f"has there") from None
        if name in lay.cell_var_names:
            if len(args) != 1:
                raise TypeError(f"var '{name}' takes one cell")
            return st.var(name, args[0])
        if name in sym.vars:
            per = sym.vars[name]["per_player"]
            if len(args) != (1 if per else 0):
                raise TypeError(f"var '{name}' takes {'one player' if per else 'no argument'}")
            return st.var(name, *args)
        raise KeyError(f"{self.title} declares no define, route or var '{name}'")

    def report_values(self, st: State) -> dict[str, Any]:
        """Each report's value: a number or true/false as it is, a kind's value by its name, a
        player as 'seat N', and none as 'none'."""
        self._own(st)
        return {label: self.shown_report(fn(st), t) for label, fn, t in self.reports}

    def shown_report(self, v: Any, t: str) -> Any:
        if t.startswith("kind:"):
            return self.value_name(v)
        if t == "player":
            return "none" if v == NO_VALUE else f"seat {v}"
        if t == "cell":  # (as a move and a show name it: "x,y")
            return "none" if v == NO_VALUE else self.layout.cell_name(v)
        if t == "none":  # (a var only ever set to none)
            return "none" if v == NO_VALUE else v
        return v

    def zone_view(self, st: State, seat: Optional[int]) -> dict[str, Any]:
        """Zones as ``seat`` sees them (``None``: everything): a zone it may see as its cards by
        variety, another as ``{"size": n}``, with ``"known"``: the cards of it that 'reveal'
        showed the seat, while they are there."""
        self._own_seat(st, seat)
        names = self.layout.variety_names
        out: dict[str, Any] = {}
        for zi, zname in enumerate(self.layout.zone_names):
            z = self.sym.zones[zname]
            owners = range(st.players) if z["per_player"] else [None]
            views = []
            for owner in owners:
                slot = st.zone_base[zi] + (owner or 0)
                vec = st.zones[slot]
                visible = seat is None or z["visibility"] == "public" or \
                    (z["visibility"] == "private" and owner == seat)
                view = {names[i]: c for i, c in enumerate(vec) if c} if visible else {"size": sum(vec)}
                known = st.known.get((slot, seat)) if not visible else None
                if known:  # the cards 'reveal' showed this seat, still there
                    view["known"] = {names[i]: k for i, k in enumerate(known) if k}
                views.append(view)
            out[zname] = views if z["per_player"] else views[0]
        return out

    def observe(self, st: State, seat: Optional[int]) -> dict[str, Any]:
        self._own_seat(st, seat)
        lay = self.layout
        present = [p for p in lay.piece_ids if lay.piece_owner.get(p, 0) < st.players]  # (not absent seats')
        pieces = {lay.value_names[p]: st.pos[p] for p in present}
        doc: dict[str, Any] = {
            "seat": seat, "players": st.players, "current": st.current, "turn": st.turns,
            "to_move": st.current_player(), "decision": st.decision(),
            "zones": self.zone_view(st, seat), "pieces": pieces,
            "podium": {t: [self.layout.value_names[p] for p in st.podium[i]]
                       for i, t in enumerate(self.layout.track_names)},
            "tracks": {t: st.tags[i][1:] for i, t in enumerate(self.layout.track_names)},
            "piece_tracks": {self.layout.value_names[p]: self.layout.track_names[self.layout.piece_track[p]]
                             for p in present if self.layout.track_names},
            "vars": {n: st.vars[st.var_base[i]:st.var_base[i] + self.layout.var_size(n, st.players)]
                     for i, n in enumerate(self.layout.var_names)},
            "outcome": st.outcome,
        }
        named = {n: self._cell_values(n, doc["vars"][n]) for n in lay.var_names if n not in lay.cell_var_names
                 and (self.checked.var_types.get(n, "").startswith("kind:") or self.checked.var_types.get(n) == "cell")}
        if named:  # vars that hold a value of a kind or a cell, as a reader names them ("NE", "2,3")
            doc["var_shown"] = {n: ["none" if v is None else v for v in values] for n, values in named.items()}
        self._hide_vars(doc, seat)
        shaped = [p for p in present if lay.track_loop[lay.piece_track[p]] or p in lay.piece_home]
        if shaped:  # circuits and home stretches: where each piece stands, besides its progress
            doc["circuits"] = [t for t, loop in zip(lay.track_names, lay.track_loop) if loop]
            doc["piece_spaces"] = {lay.value_names[p]: st.space_of(p, st.pos[p], lay.piece_track[p]) for p in shaped}
            doc["home_stretch"] = {lay.value_names[p]: [st.pos[p] - st.track_length[lay.piece_track[p]],
                                                        lay.piece_home[p]]
                                   for p in shaped if lay.piece_home.get(p) and not st.place[p]
                                   and st.pos[p] > st.track_length[lay.piece_track[p]]}
        if self.layout.board_name is not None:
            doc["board"] = {"name": lay.board_name, "columns": lay.columns, "rows": lay.rows,
                            "vars": {n: self._cell_values(n, doc["vars"][n]) for n in lay.cell_var_names}}
        if st.grid is not None:
            names = self.layout.variety_names
            doc["grid"] = [{"x": x, "y": y, "tile": names[v], "rotation": r,
                            **{n: st.grid.tv[k][t] for k, n in enumerate(self.layout.tile_var_names)}}
                           for t, (x, y, v, r) in enumerate(zip(st.grid.x, st.grid.y, st.grid.variety,
                                                                st.grid.rot))]
        if st.outcome is not None:
            doc["winners"] = st.winners()
            if self.score is not None:
                doc["scores"] = st.scores()
        return doc

    def _hide_vars(self, doc: dict[str, Any], seat: Optional[int]) -> None:
        """What ``seat`` may not see of the vars, as None: another player's value of a ``private``
        var, every value of a ``hidden`` one (and of a shared private one, which nobody owns).
        ``seat`` None sees everything."""
        if seat is None:
            return
        for n in self.layout.var_names:
            decl = self.sym.vars[n]
            seen = decl.get("visibility", "public")
            if seen == "public":
                continue
            mine = seen == "private" and decl["per_player"]
            for part in ("vars", "var_shown"):
                values = doc.get(part, {}).get(n)
                if values is not None:
                    doc[part][n] = [v if mine and s == seat else None for s, v in enumerate(values)]

    def _cell_values(self, name: str, values: list) -> list:
        """A per-cell var's values, for a drawing: none as None, a value by its name, a seat as
        ``"seat N"``, a cell as ``"x,y"``; numbers and flags as they are."""
        t = self.checked.var_types.get(name, "")
        if t.startswith("kind:"):
            return [None if v == NO_VALUE else self.value_name(v) for v in values]
        if t == "player":
            return [None if v == NO_VALUE else f"seat {v}" for v in values]
        if t == "cell":
            return [None if v == NO_VALUE else self.layout.cell_name(v) for v in values]
        if t == "none":
            return [None] * len(values)
        return values

    def describe(self, st: State) -> str:
        obs = self.observe(st, None)
        return f"<{self.title}: turn {obs['turn']}, to move {obs['to_move']}, pieces {obs['pieces']}>"


def check_players(game: Game, players: int) -> None:
    if not game.min_players <= players <= game.max_players:
        raise RulesError([Diagnostic(game.source_path, f"{game.title} is for {game.min_players}.."
                                                       f"{game.max_players} players, not {players}")])


def _known_from_json(entries: Any) -> dict[tuple[int, int], list[int]]:
    """``State.known`` from its JSON form, ``[[slot, seat, counts], ...]``."""
    if not isinstance(entries, list):
        raise ValueError("'known' is a list of [zone slot, seat, counts]")
    known = {}
    for e in entries:
        if not (isinstance(e, list) and len(e) == 3 and all(isinstance(x, int) and not isinstance(x, bool)
                                                            for x in e[:2])
                and isinstance(e[2], list) and all(isinstance(c, int) and not isinstance(c, bool) for c in e[2])):
            raise ValueError("'known' is a list of [zone slot, seat, counts]")
        known[e[0], e[1]] = list(e[2])
    return known


def _cards_by_variety(st: State, varieties: int) -> list[int]:
    """How many cards of each of the game's varieties the state holds, in its zones and on its grid."""
    counts = [sum(column) for column in zip(*st.zones)] if st.zones else [0] * varieties
    for v in st.grid.variety if st.grid is not None else ():
        counts[v] += 1
    return counts


def _plain_local(v: Any) -> bool:
    """What a local of a saved state may hold: a number (a flag, a seat, a value, a card...) or a
    loop's items, a list of numbers."""
    if isinstance(v, list):
        return len(v) <= MAX_CARDS and all(isinstance(i, int) and -MAX_NUMBER <= i <= MAX_NUMBER for i in v)
    return isinstance(v, int) and -MAX_NUMBER <= v <= MAX_NUMBER


def _restore_rng(st: State, doc: dict[str, Any]) -> None:
    """The random generator of a seeded state, as ``State.to_json`` saved it (none: explicit chance)."""
    if "rng" in doc:
        version, internal, gauss = doc["rng"]
        st.rng = random.Random()
        st.rng.setstate((version, tuple(internal), gauss))


# What a saved state holds of the game itself (the rest is the engine's: pc, locals).
GAME_PARTS = ("players", "current", "turns", "outcome", "zones", "vars", "pos", "place", "podium", "tags", "bags",
              "track_length", "grid", "history", "waiting", "known")


def _game_hash(ir: dict, params: dict[str, int]) -> str:
    """A hash of the game itself: its IR without positions, file names and the names of rules (a
    comment or a [name] added to the rules changes none of them) and its param values."""
    game = {k: v for k, v in unnamed(positionless(ir)).items() if k not in ("source", "sources")}
    text = json.dumps({"ir": game, "params": params}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _files_hash(paths: list[str]) -> str:
    """A hash of the rules files a game is made of (a variant's bases too); "" if one is gone."""
    digest = hashlib.sha256()
    for path in paths:
        if not Path(path).is_file():
            return ""
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


def _check_document(ir: dict, params: Optional[dict[str, int]], source_path: str) -> CheckedGame:
    """The front end on an IR document given as a dict: the schema, then the checker."""
    where = source_path or "<ir>"
    return check_ir(ir_from_json(json.dumps(ir), where), where, params)
