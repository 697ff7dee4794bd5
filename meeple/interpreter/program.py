"""Compile statements into a flat program (``compile_program``).

A program is a list of instructions, each a tuple ``(op, a, b)``. Loops and
branches become jumps, phases are inlined where they run, and locals live in
numbered slots of ``State.locals``, so a ``State`` is plain data: where it
stands is just ``pc``. Decisions and chance events are instructions at which
the state stops and waits for an action.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Iterator, Optional

from . import capacity
from .boards import MAX_COORD, ROW
from .code import VARS, Code, local, name
from .expressions import MARK, TILE, Env, ExprCompiler, Fn, Probe, TooDeep, _faces, _seat_of, _set_cell
from .statements import StatementWriter, end_if
from .flow import filled_by, varieties_by_zone
from .flow import zone_name as flow_zone
from meeple.dsl.limits import MAX_NUMBER
from meeple.dsl.checked import BUILTIN, CURRENT, DEFINE, GRID, GRID_COUNT, ROUTE, TILE_VAR, VAR, ZONE, CheckedGame
from meeple.dsl.diagnostics import RuleRuntimeError
from meeple.dsl.checked import BOARD as BOARD_NAME
from meeple.dsl.checked import CELLS
from meeple.dsl.walk import names, same
from meeple.dsl.walk import nodes as walk_nodes
from meeple.dsl.walk import span

from .layout import NO_VALUE
from .moves import Action, CardChoice, DieRoll, Draw, OptionChoice, RandomPick, TileLay, TilePlacement, WeightedPick

from .ops import CHANCE, CHOICE, END, EXEC, JUMP, JUMP_IF_NOT, NEXT_TURN, RUN  # noqa: F401  (the program's words)

Instr = tuple[int, Any, Any]


class ProgramBuilder:
    """Emits instructions for statement lists."""

    def __init__(self, exprs: ExprCompiler, ir: dict, reads: set[str]):
        self.x = exprs
        self.writer = StatementWriter(exprs, reads)
        self.layout = exprs.layout
        self.code: list[Instr] = []
        self.positions: dict[int, Optional[list[int]]] = {}  # instruction → the rules statement it runs
        # each 'for' loop: its body's instructions (first, past the last), the slots of its items and index
        self.loops: list[tuple[int, int, int, int]] = []
        self.can_hold = exprs.can_hold or varieties_by_zone(exprs.checked)
        self.filled = filled_by(exprs.checked)  # zone → the statements that can bring cards into it
        last_at = exprs.at
        counts = [exprs.gen(v["count"], {}).value for c in ir["cards"] for v in c["varieties"]]
        exprs.at = last_at  # (working the counts out writes no code: what comes next is not theirs)
        # the most cards of each variety the game has (None: it depends on the number of players)
        self.most_held = counts if all(isinstance(n, int) and not isinstance(n, bool) for n in counts) else None

    def chooser(self, s: dict, env: Env) -> Fn:
        """Who takes decision ``s``: the current player, or its ``by`` player, checked not to be
        none when it is read from a var."""
        if s["chooser"] is None:
            fn = lambda st: st.current  # noqa: E731
            fn.text = "st.current"
            return fn
        who = self.x.gen(s["chooser"], env)
        if not who.known and VARS in who.reads:
            who = self.x.guarded("_seat", who, s["chooser"])
        return self.x.function(who, purpose="chooser", inline=True)

    def apply_written(self, spec: Any, lines: list[str], operands: tuple[str, ...] = ()) -> None:
        """A decision's action applied by ``lines`` of the module (the action is ``picked``): its
        ``turn`` writes them out, and its ``apply`` (the program taken step by step) is the same
        lines as a function. ``operands``: lines that read what the action works on, which the
        turn reads once, before the pick, for the pick (``capacity.pick_lines``) and the action."""
        spec.operand_lines, spec.apply_lines = operands, lines
        spec.apply = self.x.statements([*operands, *lines], params=("picked",), purpose="apply")

    def emit(self, op: int, a: Any = None, b: Any = None) -> int:
        """Append an instruction. For EXEC, CHOICE and CHANCE, ``b`` names the part of
        the state it writes (``None``: only locals); later it becomes "check the end after"."""
        self.code.append((op, a, b))
        return len(self.code) - 1

    def mark_end_checks(self, reads: set[str]) -> None:
        """Turn each write category into a flag: can this step change an end condition? (A
        straight run tests the end itself, after each statement that can: it says RUN.)"""
        for n, (op, a, b) in enumerate(self.code):
            if op == EXEC:
                self.code[n] = (op, a, RUN if b == RUN else b in reads)
            elif op in (CHOICE, CHANCE):  # (``b``: one category, or a tuple of those it writes)
                a.check_end = any(w in reads for w in b) if isinstance(b, tuple) else b in reads
                self.code[n] = (op, a, None)
            elif op == NEXT_TURN:  # passing the turn changes who moves
                self.code[n] = (op, "current" in reads, b)

    def thread_jumps(self) -> None:
        """A jump to a plain jump goes straight to where that one goes (the end of an option's
        body to the top of its loop, say)."""
        def final(target: int) -> int:
            for _ in range(len(self.code)):  # bounded: a cycle of plain jumps is left as it is
                op, _, b = self.code[target] if target < len(self.code) else (None, None, None)
                if op != JUMP:
                    return target
                target = b
            return target
        for n, (op, a, b) in enumerate(self.code):
            if op in (JUMP, JUMP_IF_NOT) and b is not None:
                self.code[n] = (op, a, final(b))

    def patch(self, at: int, target: int) -> None:
        op, a, _ = self.code[at]
        self.code[at] = (op, a, target)

    def block(self, stmts: list, env: Env) -> None:
        """The statements: each straight run of them one function, the others as instructions."""
        env = dict(env)
        run: list[dict] = []
        for s in stmts:
            if self.writer.straight(s):
                run.append(s)
                continue
            self.straight_run(run, env)
            run = []
            self.stmt(s, env)
        self.straight_run(run, env)

    def straight_run(self, run: list[dict], env: Env) -> None:
        """One EXEC of a function that runs the statements ``run`` (no decision nor chance in them);
        it returns how the game ended, if it did."""
        if not run:
            return
        lines = self.writer.block(run, env, 0)
        at = span(run[0])
        with self.x.placed(at):
            fn = self.x.statements([t for t, _ in lines], purpose="run", marks=[m for _, m in lines])
        if len(lines) <= LONGEST_WRITTEN_OUT and _stands_anywhere([t for t, _ in lines]):  # (see _step_lines)
            fn.inline_lines = [t + self.x.mark(m) if m else t for t, m in lines]
        self.positions[self.emit(EXEC, fn, RUN)] = at

    def stmt(self, s: dict, env: Env) -> None:
        start = len(self.code)
        here = span(s)
        with self.x.placed(here):  # the functions made for it are under its line in the module
            getattr(self, "s_" + s["node"])(s, env)
        for n in range(start, len(self.code)):  # a statement inside this one has marked its own already
            self.positions.setdefault(n, here)

    # ---- control ----
    def s_if(self, s, env):
        test = self.x.compile(s["test"], env)
        branch = self.emit(JUMP_IF_NOT, test)
        self.block(s["body"], env)
        if s["else_"]:
            skip = self.emit(JUMP)
            self.patch(branch, len(self.code))
            self.block(s["else_"], env)
            self.patch(skip, len(self.code))
        else:
            self.patch(branch, len(self.code))

    def s_for(self, s, env):
        x = self.x
        kind, values = x.domain_code(s["domain"], env)
        items_slot, index_slot, var_slot = x.slots.new(), x.slots.new(), x.slots.new()
        holds = x.slots.holds[var_slot] = self.holds(s["domain"], kind)
        x.slots.holds[items_slot] = "items:" + holds
        items = f"_cards({values})" if kind == "cards" else f"list({values})"
        known = self.known_range(s["domain"], env)
        if known is not None:  # (a few numbers known when compiling: written out)
            items = f"[{', '.join(map(str, known))}]"
        start = [f"L[{items_slot}] = {items}", f"L[{index_slot}] = 0"]
        begin = x.statements(start, purpose="loop")
        begin.inline_lines = start  # (what a segment writes instead of calling it: it sets locals only)
        self.emit(EXEC, begin)
        inner = dict(env)
        inner[s["var"]] = local(var_slot)
        # A test that does not look at the loop variable, once false, stays false: nothing runs
        # between two tests but the variable's change. So the loop ends there.
        settled = s["where"] is not None and not mentions(s["where"], {s["var"]})
        test = ["    return True"] if s["where"] is None else [f"    if {x.gen(s['where'], inner)}:",
                                                             "        return True"]
        if s.get("while_") is not None:  # tested first: once it fails, the loop is over
            test = [f"    if not {x.gen(s['while_'], inner)}:", f"        L[{index_slot}] = len(_items)",
                    "        return False", *test]
        if settled:
            test += [f"    L[{index_slot}] = len(_items)", "    return False"]
        read = mentions([s["body"], s["where"], s.get("while_")], {s["var"]})  # (else its value is not kept)
        step = [f"_items = L[{items_slot}]", f"while L[{index_slot}] < len(_items):",
                *([f"    L[{var_slot}] = _items[L[{index_slot}]]"] if read else []), f"    L[{index_slot}] += 1"]
        has_next = x.statements([*step, *test, "return False"], purpose="next")
        # (what a segment writes for ``if <has_next>:`` instead of calling it: ``_more`` is the answer)
        has_next.inline_if = [step[0] + x.mark(span(s)), "_more = False", *step[1:], *_answered(test)]
        top = self.emit(JUMP_IF_NOT, has_next)
        self.block(s["body"], inner)
        self.emit(JUMP, None, top)
        self.patch(top, len(self.code))
        self.loops.append((top + 1, len(self.code), items_slot, index_slot))

    def known_range(self, d: dict, env: Env) -> range | None:
        """The values of ``lo..hi``, when both are known when compiling and they are a few."""
        if d["hi"] is None or d["players"]:
            return None
        lo, hi = self.x.gen(d["lo"], env), self.x.gen(d["hi"], env)
        if not (lo.known and hi.known and type(lo.value) is int and type(hi.value) is int):
            return None
        few = 0 <= hi.value - lo.value < RANGE_WRITTEN and -MAX_NUMBER <= lo.value and hi.value <= MAX_NUMBER
        return range(lo.value, hi.value + 1) if few else None

    def s_run(self, s, env):
        self.emit(EXEC, self.x.statements(self.writer.told(("phase", s["phase"])), purpose="phase"))
        self.block(self.x.sym.phases[s["phase"]]["body"], {})

    def s_set_random(self, s, env):
        kind, values = self.x.domain(s["domain"], env)
        names = self.layout.value_names
        is_player = s["domain"]["players"]

        shown = self.shown_as(s["domain"], kind)

        def outcome_name(v: int) -> str:
            if shown == "cell":
                return self.layout.cell_name(v)
            return f"seat {v}" if is_player or kind != "values" else (names[v] if 0 <= v < len(names) and
                                                                      not _is_range(s) else str(v))
        self.emit(CHANCE, RandomPick(s["target"], values, self.setter(s, env), outcome_name, self.seat_set(s, env),
                                     self.cell_set(s, env)),
                  self.writer.written(s["target"]))

    def s_set_weighted(self, s, env):
        x = self.x
        pairs = ", ".join(f"({x.gen(c['value'], env)}, {x.gen(c['weight'], env)})" for c in s["choices"])
        values = x.function(Code(f"[{pairs}]"), purpose="weights")
        t = x.checked.type_of(s["choices"][0]["value"])
        names = self.layout.value_names

        def outcome_name(v: int) -> str:
            if t == "player":
                return f"seat {v}"
            if t == "cell":
                return self.layout.cell_name(v)
            return names[v] if t.startswith("kind:") and 0 <= v < len(names) else str(v)
        self.emit(CHANCE, WeightedPick(s["target"], values, self.setter(s, env), outcome_name, self.seat_set(s, env),
                                       self.cell_set(s, env)),
                  self.writer.written(s["target"]))

    def s_roll(self, s, env):
        """``roll n dice of s into v``: one chance event a die (faces 1..s, each equally likely),
        the faces summed in a local, the sum set into v after the last die."""
        x = self.x
        total, left = x.slots.new(), x.slots.new()
        x.slots.holds[left] = "dice"
        self.emit(EXEC, x.statements([f"L[{total}] = 0", f"L[{left}] = _dice({x.gen(s['count'], env)})"],
                                     purpose="roll"))
        top = self.emit(JUMP_IF_NOT, x.function(Code(f"L[{left}] > 0"), purpose="dice_left"))
        sides = x.compile(s["sides"], env)

        def faces(st):
            return _faces(sides(st))

        def add_face(st, v):
            st.locals[total] += v
            st.locals[left] -= 1
        self.emit(CHANCE, DieRoll(s["target"], faces, add_face, self.seat_set(s, env), self.cell_set(s, env)), None)
        self.emit(JUMP, None, top)
        self.patch(top, len(self.code))
        lines = self.writer.assign(s["target"], s["index"], local(total), env)
        self.emit(EXEC, x.statements(lines, purpose="rolled"), self.writer.written(s["target"]))

    def seat_set(self, s, env) -> Optional[Fn]:
        """For a chance event that sets one player's value of a per-player var (``roll 1 dice of 6
        into face(p)``): the seat whose it is, as a function of the state (``RandomPick.seat``)."""
        name = s["target"]
        if s.get("index") is None or name == "current" or name in self.layout.tile_var_names \
                or name in self.layout.cell_var_names:
            return None
        return self.x.compile(s["index"], env)

    def cell_set(self, s, env) -> Optional[Fn]:
        """For a chance event that sets one cell's value of a var per cell of a board (``roll 1
        dice of 6 into face(c)``): the cell whose it is, as a function of the state (``RandomPick.cell``)."""
        if s.get("index") is None or s["target"] not in self.layout.cell_var_names:
            return None
        return self.x.compile(s["index"], env)

    def setter(self, s, env) -> Callable[[Any, Any], None]:
        name = s["target"]
        if name == "current":
            def set_current(st, v):
                st.current = _seat_of(v, st.players)
            return set_current
        if name in self.layout.tile_var_names:
            k = self.layout.tile_var_names.index(name)
            tile = self.x.compile(s["index"], env)

            def set_tile_var(st, v):
                t = tile(st)
                if t < 0:
                    raise RuleRuntimeError(f"'set {name}(...)' of no tile: the tile is none")
                st.grid.tv[k][t] = v
            return set_tile_var
        vi = self.layout.var_names.index(name)
        if name in self.layout.cell_var_names:
            base, cell = self.layout.shared_var_slot[name], self.x.compile(s["index"], env)

            def set_cell_var(st, v):
                _set_cell(st.vars, base, cell(st), v, name)
            return set_cell_var
        if s["index"] is None:
            def set_var(st, v):
                st.vars[st.var_base[vi]] = v
            return set_var
        seat = self.x.compile(s["index"], env)

        def set_player_var(st, v):
            st.vars[st.var_base[vi] + seat(st)] = v
        return set_player_var

    def squares_passing(self, test: Code, neighbours: bool, start: list[str]) -> Fn:
        """``squares(st, keys, sides)``: the squares (by key: the frontier's, or ``Board.near``'s)
        that ``test``, a test of the square ``(_x, _y)`` (``probing``), passes, as (x, y, sides),
        their sides read from ``sides`` (0 without); the tiles beside a square, where the test
        reads them, are looked up as it reads them (``NEIGHBOUR_KEYS``); ``start``: the lines that
        read once what the test reads of the state (``hoisting``), run before the loop."""
        return self.x.statements([
            *start,
            *(["_on = G.at", "_at = _on.get"] if neighbours else []),
            "_kept = []",
            "for _k in _keys:",
            f"    _x = (_k + {MAX_COORD}) // {ROW}",
            f"    _y = (_k + {MAX_COORD}) % {ROW} - {MAX_COORD}",
            f"    if {test}:",
            "        _kept.append((_x, _y, _sides[_k] if _sides is not None else 0))",
            "return _kept"], params=("_keys", "_sides"), purpose="squares")

    def s_place(self, s, env):
        x, lay = self.x, self.layout
        slot = x.slots.new()
        x.slots.holds[slot] = "tile"  # (or none)
        chooser = self.chooser(s, env)
        within = x.compile(s["within"], env) if s["within"] is not None else _beside
        source_code = x.gen(s["source"], env)
        source = x.function(source_code)
        where, at_square = None, None
        per_square = s["where"] is not None and not reads_shape(s["where"], self.x.checked)
        if per_square:  # judged once per square: as a function of the square, when that is the same test
            probe = Probe()
            with x.probing(probe), x.hoisting() as start:  # (what it reads of the state: read once)
                code = x.gen(s["where"], {**env, s["var"]: probe.tile})
            if probe.exact:
                where, at_square = self.squares_passing(code, probe.neighbours, start), probe.neighbours
        if s["where"] is not None and where is None:  # judged with the new tile on the grid: never none there
            where = x.function(x.gen(s["where"], {**env, s["var"]: TILE}), assign=("_tile", f"L[{slot}]"))
        env[s["var"]] = local(slot)  # after the statement the name is the tile placed, or none
        inits = [x.compile(self.x.sym.vars[n]["init"], {}) for n in lay.tile_var_names]
        fixed = [getattr(f, "constant", None) for f in inits]

        def starts(st):  # the new tile's per-tile vars (read, never changed, by Board.place)
            return fixed if None not in fixed else [f(st) for f in inits]
        lo = x.compile(s["lo"], env)
        spec = TilePlacement(s["label"], chooser, getattr(lo, "constant", 1) == 0, source, within, where, slot,
                             lay.variety_names, lay.shapes.tile_varieties, lay.shapes, starts, s["matching"],
                             s["joining"], per_square, at_square)
        new_vars = x.constant(tuple(fixed), "STARTS") if None not in fixed else f"{x.ref(starts, 'starts')}(st)"
        self.apply_written(spec, [
            "if picked is None:", f"    L[{slot}] = {NO_VALUE}", "else:", "    _v, _x, _y, _r = picked",
            "    S[_v] -= 1", *(["    st.forget(S, _v, 1)"] if lay.reveals else []),
            f"    L[{slot}] = G.place(_x, _y, _v, _r, {x.constant(spec.ends, 'ENDS')}[_v][_r], {new_vars})"],
            operands=(f"S = {source_code}",))
        if spec.pick_payload is not None:  # (the pick counts the tiles of the source the turn has read)
            spec.pick_lines = [f"picked = {x.ref(spec.pick_payload, 'pick')}(st, rand, S)", "if picked == -1:",
                               "    return -1"]
        if not s.get("otherwise"):
            self.emit(CHOICE, spec, ("grid", "zones"))  # (the card leaves its zone)
            return

        def can_place(st):
            legal = spec.legal(st)
            if legal:
                st._legal = legal  # the decision that comes next has these actions
            return bool(legal)
        branch = self.emit(JUMP_IF_NOT, can_place)
        self.emit(CHOICE, spec, ("grid", "zones"))
        skip = self.emit(JUMP)
        self.patch(branch, len(self.code))
        self.emit(EXEC, x.statements([f"L[{slot}] = {NO_VALUE}"], purpose="placed_none"))  # nothing was placed
        self.block(s["otherwise"], env)
        self.patch(skip, len(self.code))

    def s_choose_one(self, s, env):
        x = self.x
        chooser = self.chooser(s, env)
        option_slot = x.slots.new()
        options, inners = [], []
        with x.hoisting() as start:  # (values the tests read, or look values up in: read or made once per run)
            for o in s["options"]:
                inner = dict(env)
                # Each part of an 'and' in 'where' is tested as soon as the variables it uses are bound:
                # the parts that use none once, before anything else; the others inside one Python
                # comprehension over the domains, which gives every tuple of values at once.
                parts = conjuncts(o["where"]) if o["where"] is not None else []
                names = {b["var"] for b in o["bindings"]}
                first = [p for p in parts if not mentions(p, names)]
                first_code = x.gen(_and(first), env) if first else None
                loops, in_loop, bound, slots, shown = [], dict(env), set(), [], []
                cards: list[int] = []  # the variables so far that take cards (each zone as ``_zK``)
                card_bindings = [b for b in o["bindings"] if b["domain"]["hi"] is None and not b["domain"]["players"]]
                for i, b in enumerate(o["bindings"]):
                    kind, dom = x.domain_code(b["domain"], in_loop)
                    over_tiles = b["domain"]["hi"] is None and not b["domain"]["players"] \
                        and x.checked.what(b["domain"]["lo"]) == GRID
                    flagged = x.flagged_tiles(parts, b["var"]) if over_tiles else None
                    if flagged is not None:  # only the tiles with a flag the test asks for
                        dom, parts = Code(flagged[0]), flagged[1]
                    var = name(f"_b{i}", sure=True)  # it runs over values that exist
                    # A card taken by an earlier variable from the same zone (the same list, as the
                    # game runs) is not there to take again.
                    taken = [k for k in cards if kind != "values"]
                    held = f"_n{i}" if not taken else \
                        f"_n{i} > " + " + ".join(f"({var} == _b{k} and _z{i} is _z{k})" for k in taken)
                    if kind != "values" and len(card_bindings) > 1:
                        loops.append(f"for _z{i} in ({dom},)")
                        dom = f"_z{i}"
                    loops.append(f"for {var} in {dom}" if kind == "values" else
                                 f"for {var}, _n{i} in enumerate({dom}) if {held}")
                    if kind != "values":
                        cards.append(i)
                    in_loop[b["var"]] = var
                    before = set(bound)
                    bound.add(b["var"])
                    test = [p for p in parts if mentions(p, bound - before) and not mentions(p, names - bound)]
                    if test:
                        loops.append(f"if {x.gen(_and(test), in_loop)}")
                    slot = x.slots.new()
                    x.slots.holds[slot] = self.holds(b["domain"], kind)
                    slots.append(slot)
                    shown.append(self.shown_as(b["domain"], kind))
                    inner[b["var"]] = local(slot)
                values = None
                if o["bindings"]:
                    # A row is the values, then the square of each tile among them (to show the action).
                    tiles = "".join(f"G.x[_b{i}], G.y[_b{i}], " for i, how in enumerate(shown) if how == "tile")
                    row = "(" + "".join(f"_b{i}, " for i in range(len(o["bindings"]))) + tiles + ")"
                    values = (row, " ".join(loops), len(o["bindings"]))
                options.append((o["name"], slots, shown, first_code, values))
                inners.append(inner)
        x.slots.holds[option_slot] = f"option:{len(options)}"
        spec = OptionChoice(s["label"], chooser, [o[:3] for o in options], option_slot, self.value_text)
        plain = {k: x.constant(Action(spec, (k, ())), "plain") for k, o in enumerate(options) if o[4] is None}
        spec.legal = self.option_legal(spec, options, plain, start)
        if len(options) <= OPTIONS_WRITTEN:  # (else Python would refuse an if/elif that long: by legal, apply)
            spec.pick_lines = self.option_pick(options, start)
            self.apply_written(spec, self.option_apply(option_slot, [o[1] for o in options]))
        self.emit(CHOICE, spec, None)
        ends = []
        for k, (o, inner) in enumerate(zip(s["options"], inners)):
            branch = self.emit(JUMP_IF_NOT, x.function(Code(f"L[{option_slot}] == {k}"), purpose="chose", inline=True))
            self.block(o["body"], inner)
            ends.append(self.emit(JUMP))
            self.patch(branch, len(self.code))
        for at in ends:
            self.patch(at, len(self.code))

    def option_legal(self, spec: OptionChoice, options: list[tuple], plain: dict[int, str], start: list[str]):
        """``legal(st)`` of a choice among options as one generated function: each option's test
        of no variable, then one comprehension over its variables' domains (``plain``: the
        module's name of the action of each option without variables; ``start``: the lines that
        start its tests, from ``hoisting``)."""
        x = self.x
        action, me = x.constant(Action, "Action"), x.constant(spec, "choice")
        lines = [*start, "_out = []"]
        for k, (_, _, _, first, values) in enumerate(options):
            if values is None:
                add = f"_out.append({plain[k]})"
            else:
                row, loops, _ = values
                add = f"_out += [{action}({me}, ({k}, {row})) {loops}]"
            lines += [f"if {first}:", f"    {add}"] if first is not None else [add]
        return x.statements(lines + ["return _out"], purpose="legal")

    @staticmethod
    def option_pick(options: list[tuple], start: list[str]) -> list[str]:
        """The lines of a decision's ``turn`` that pick the action ``legal[int(rand() * len(legal))]``
        would be, making no ``Action``, only its payload: each option's values listed (the
        options with none counted), one number drawn, the option it falls in and its values
        worked out. They set ``picked``, or leave the turn by ``return -1``."""
        lines, ends, picks = list(start), [], []
        for k, (_, _, _, first, values) in enumerate(options):
            if values is None:  # one action, or none
                count = "1" if first is None else f"(1 if {first} else 0)"
                took = [f"picked = ({k}, ())"]  # (the payload of ``plain[k]``)
            else:  # the values of its variables, as ``legal`` has them; the payload made from those picked
                row, loops, n = values
                bound = ", ".join(f"_b{i}" for i in range(n))
                listed = f"[{bound} {loops}]" if n == 1 else f"[({bound}) {loops}]"
                lines.append(f"_o{k} = {listed}" if first is None else f"_o{k} = {listed} if {first} else ()")
                count = f"len(_o{k})"
                took = [f"{bound} = _o{k}[_k - {ends[-1]}]" if ends else f"{bound} = _o{k}[_k]",
                        f"picked = ({k}, {row})"]
            lines.append(f"_e{k} = {ends[-1] + ' + ' if ends else ''}{count}")
            ends.append(f"_e{k}")
            picks.append(took)
        lines += [f"if not {ends[-1]}:", "    return -1", f"_k = int(rand() * {ends[-1]})"]
        if len(picks) == 1:
            return lines + picks[0]
        for k, took in enumerate(picks):
            test = "else:" if k == len(picks) - 1 else f"{'if' if k == 0 else 'elif'} _k < {ends[k]}:"
            lines += [test, *(f"    {line}" for line in took)]
        return lines

    @staticmethod
    def option_apply(option_slot: int, slots: list[list[int]]) -> list[str]:
        """``OptionChoice.apply`` written out for the decision's turn: the option's number, then
        its values, each in its variable's slot."""
        taking = [(k, option) for k, option in enumerate(slots) if option]
        lines = [f"L[{option_slot}] = _option = picked[0]" if taking else f"L[{option_slot}] = picked[0]"]
        for j, (k, option) in enumerate(taking):
            lines.append(f"{'if' if j == 0 else 'elif'} _option == {k}:")
            lines += [f"    L[{slot}] = picked[1][{i}]" for i, slot in enumerate(option)]
        return lines

    def shown_as(self, d: dict, kind: str) -> str:
        """How a bound value is written in an action's text: 'player', 'int', 'tile', 'value' or 'card'."""
        if d["players"]:
            return "player"
        if d["hi"] is not None:
            return "int"
        lo = d["lo"]
        if self.x.checked.what(lo) == GRID:
            return "tile"
        if self.x.checked.what(lo) == BOARD_NAME or (lo["node"] == "call" and
                                                     self.x.checked.types.get(id(lo)) == CELLS):
            return "cell"
        return "card" if kind == "cards" else "value"

    def holds(self, d: dict, kind: str) -> str:
        """What a loop's or an option's variable over the domain ``d`` holds (``SlotAllocator.holds``)."""
        shown = self.shown_as(d, kind)
        if shown == "value":  # a kind's values (anything else: a number)
            return f"kind:{d['lo']['id']}" if d["lo"].get("node") == "name" else "int"
        return shown

    def value_text(self, shown_as: str, v: int, square: tuple[int, int] | None) -> str:
        if shown_as == "player":
            return f"seat {v}"
        if shown_as == "tile":
            return f"{square[0]},{square[1]}" if square else str(v)
        if shown_as == "card":
            return self.layout.variety_names[v]
        if shown_as == "cell":
            return self.layout.cell_name(v)
        if shown_as == "value" and 0 <= v < len(self.layout.value_names):
            return self.layout.value_names[v]
        return "none" if shown_as == "value" and v == NO_VALUE else str(v)

    def draw_loop(self, more_code: str, s: dict, dest: dict, env: Env, label: str,
                  more_lines: Optional[list[str]] = None, to_draw: Optional[str] = None,
                  counted_down: Optional[tuple[str, list[str]]] = None, due_test: Optional[str] = None) -> None:
        """while more: (reshuffle the pile into the source when it is empty) draw one card.
        ``more_code``: the test, as an expression of the module's code; ``more_lines``: lines
        that set ``more`` after a card is drawn, where ``S`` and ``D`` are the source and the
        destination; ``to_draw``: how many cards are due, when that is known before the first
        (then ``more`` counts them down); ``counted_down``: for ``more_lines`` that count a
        slot down, the cards due before the first and the lines that leave the slot as the
        last card does. ``due_test``: ``more_code`` as a test of ``due`` (the cards due, counted
        from the destination ``D``), when ``to_draw`` is known before the first: then a segment
        that writes the draw out works ``due`` out once, for the test and the draws (``fused``)."""
        x = self.x
        source_code, dest_code = x.gen(s["source"], env), x.gen(dest, env)
        pile = x.compile(s["reshuffle"], env) if s["reshuffle"] is not None else None
        pile_ref = x.ref(pile, "pile") if pile else None
        can_draw = x.statements([f"if not {more_code}:", "    return False", f"_src = {source_code}",
                                 f"return any(_src) or _reshuffled(_src, {pile_ref}, st)"], purpose="can_draw")
        can_draw.text = f"({more_code}) and (any(_src := {source_code}) or _reshuffled(_src, {pile_ref}, st))"
        draw = Draw(label, x.function(source_code), x.function(dest_code), self.layout.variety_names, can_draw)
        nv = len(self.layout.variety_names)  # (each card's record, made once: the draw and its variety)
        drawn = x.constant(tuple(("chance", draw, i) for i in range(nv)), label)
        # The seeded path: every draw that is due, each one recorded, with the end (when a zone
        # is what it reads) and the step cap checked after each; ``st.pc`` stays on the draw
        # only if the game ended there.
        source = flow_zone(s["source"], x.checked)
        in_source = self.zone_count("S", source)
        if source is None or source == flow_zone(dest, x.checked):  # the same zone, maybe: count it each time
            total, counted = in_source, []
            reshuffle = [f"more = more and (any(S) or _reshuffled(S, {pile_ref}, st))"]
        else:  # the cards left in the source, kept as a number
            total, counted, reshuffle = "total", ["total -= 1"], ["if more and not total:",
                                                                  f"    more = _reshuffled(S, {pile_ref}, st)",
                                                                  f"    total = {in_source}"]
        if to_draw is not None:
            more_lines, counted_down = ["due -= 1", "more = due > 0"], (to_draw, [])
        ends = "zones" in self.writer.end_reads
        one_card = [f"r = int(rng.random() * {total})  # each card of the source alike",
                    *self.walk(source),
                    "S[i] -= 1",
                    "D[i] += 1",
                    *(["st.forget(S, i, 1)"] if self.layout.reveals else []),
                    *counted,
                    f"log.append({drawn}[i])"]
        # When the cards due are known, the source holds them all and the step cap is further
        # off, nothing needs checking between two cards: they are drawn by a loop of their own.
        straight = counted and counted_down is not None and not ends

        at = len(self.code) + 1  # (the draw's step: after the test that skips it)

        def lines(ended: str, done: str, fused: bool = False, segment: bool = False) -> list[str]:
            # ``ended``: how it stops when the game ends; ``fused``: ``S``, ``D``, ``due`` and
            # ``total`` are set already (by the test: ``can_draw.fused``); ``segment``: lines a
            # segment writes out, which sets ``st.pc`` to the draw only where the draws are
            # checked (the straight draws neither end the game nor read it, and whatever the
            # segment does next sets it before it is read: ``Draw.sets_pc``)
            loop = [
                "while True:",
                *(f"    {line}" for line in one_card),
                *(f"    {line}" for line in more_lines or [f"more = {more_code}"]),
                *(f"    {line}" for line in reshuffle),
                "    if not more:",
                "        st.pc += 1",
                *([f"    {end_if(x)}", "        st.outcome = 'end'", f"        {ended}"] if ends else []),
                "    if len(log) >= cap:",
                "        st.outcome = 'step cap'",
                f"        {ended}",
                "    if not more:",
                f"        {done}"]
            if not straight:
                return [f"S = {source_code}", f"D = {dest_code}", *([f"total = {in_source}"] if counted else []),
                        *([f"due = {counted_down[0]}"] if to_draw is not None else []), *loop]  # type: ignore[index]
            start = [] if fused else [f"S = {source_code}", f"D = {dest_code}", f"total = {in_source}",
                                      f"due = {counted_down[0]}"]  # type: ignore[index]
            return [*start,
                    "if due <= total and len(log) + due < cap:  # (no reshuffle, no step cap)",
                    "    while True:",
                    *(f"        {line}" for line in one_card),
                    "        due -= 1",
                    "        if not due:",
                    "            break",
                    *([] if segment else ["    st.pc += 1"]),
                    *(f"    {line}" for line in counted_down[1]),  # type: ignore[index]
                    "else:",
                    *([f"    st.pc = {at}"] if segment else []),
                    *(f"    {line}" for line in loop)]
        draw.run_seeded = x.statements(lines("return", "return"), params=("rng",), purpose="draw")
        draw.inline_lines = lines("return None", "break", segment=True)  # (a segment's: see _step_lines)
        draw.sets_pc = straight
        if due_test is not None and straight and to_draw is not None:  # (a segment's: see _if_lines)
            # (the cards in the source counted by the test, and again after a reshuffle)
            can_draw.fused = ([f"S = {source_code}", f"D = {dest_code}", f"due = {to_draw}",
                               f"if {due_test} and ((total := {in_source}) or _reshuffled(S, {pile_ref}, st) "
                               f"and (total := {in_source})):"],
                              draw, lines("return None", "break", fused=True, segment=True))
        skip = self.emit(JUMP_IF_NOT, can_draw)
        chance = self.emit(CHANCE, draw, "zones")
        assert chance == at, "the draw's lines set st.pc to another step than its own"
        self.patch(skip, len(self.code))

    def zone_count(self, local: str, zone: Optional[str]) -> str:
        """The cards in the zone named ``zone`` (None: not known), held by the local ``local``."""
        held = self.can_hold[zone] if zone is not None else range(len(self.layout.variety_names))
        return self.x.zone_count(name(local), held).text

    def walk(self, source: Optional[str]) -> list[str]:
        """The lines that find the variety ``i`` of the ``r``-th card (from 0) of the counts ``S``:
        the varieties the source can hold one by one, written out when they are few."""
        held = sorted(self.can_hold[source]) if source is not None else []
        if not held or len(held) > WALK_WRITTEN:
            return ["i = 0", "while r >= S[i]:", "    r -= S[i]", "    i += 1"]
        if len(held) == 1:
            return [f"i = {held[0]}"]
        lines = [f"c = S[{held[0]}]", "if r < c:", f"    i = {held[0]}"]
        for v in held[1:-1]:
            lines += [f"elif r < (c := c + S[{v}]):", f"    i = {v}"]
        return lines + ["else:", f"    i = {held[-1]}"]

    def s_deal(self, s, env):
        x = self.x
        slot = x.slots.new()
        self.emit(EXEC, x.statements([f"L[{slot}] = {x.gen(s['amount'], env)}"], purpose="deal"))
        more = x.statements([f"L[{slot}] -= 1", f"return L[{slot}] >= 0"], purpose="more")
        self.draw_loop(f"{x.ref(more, 'more')}(st)", s, s["dest"], env, "deal",
                       [f"L[{slot}] -= 1", f"more = L[{slot}] >= 0"],
                       counted_down=(f"L[{slot}] + 1", [f"L[{slot}] = -1"]))

    def s_refill(self, s, env):
        x = self.x
        size = x.gen(s["size"], env)
        more_code = f"sum({x.gen(s['zone'], env)}) < {size}"
        # The cards due are known before the first when nothing but the draws changes the
        # destination: a constant size, and neither the source nor the pile can be it.
        zone = flow_zone(s["zone"], x.checked)
        others = [flow_zone(s["source"], x.checked)] + \
            ([flow_zone(s["reshuffle"], x.checked)] if s["reshuffle"] is not None else [])
        alone = size.known and zone is not None and None not in others and zone not in others
        in_zone = self.zone_count("D", zone)
        self.draw_loop(more_code, s, s["zone"], env, "draw", [f"more = {in_zone} < {size}"],
                       f"{size} - {in_zone}" if alone else None, due_test="due > 0")

    def s_choose(self, s, env):
        x = self.x
        chooser = self.chooser(s, env)
        groups: list[list[int]]
        source = flow_zone(s["source"], self.x.checked)
        # Only the varieties that can ever be in the source zone are worth looking at.
        candidates = sorted(self.can_hold[source]) if source else range(len(self.layout.variety_names))
        if s["same"] is not None:
            column = self.layout.attr_table[s["same"]]
            by_value: dict[Any, list[int]] = {}
            for i in candidates:
                by_value.setdefault(column[i], []).append(i)
            groups = list(by_value.values())
        else:
            groups = [list(candidates)]
        keeping = x.compile(s["keeping"], env) if s["keeping"] is not None else None
        caps = self.capacities(s, env)
        choice = CardChoice(s["label"], chooser, x.compile(s["lo"], env), x.compile(s["hi"], env), groups,
                            x.compile(s["source"], env), x.compile(s["dest"], env), keeping,
                            self.layout.variety_names, caps,
                            may_alias=source is None or source == flow_zone(s["dest"], self.x.checked))
        if caps is not None or keeping is None:  # limits only, or nothing to keep: room to count, no test
            choice.limits_kept = self.limits_kept(s, caps)
            choice.most_held = self.most_held
            choice.legal = capacity.legal_function(choice, caps or [], s, x, env)
            if choice.may_alias:  # (its pick judges the choices within one zone: a function of its own)
                choice.pick = capacity.pick_function(choice, caps or [], s, x, env)
            else:  # (written into the decision's turn)
                choice.pick_lines = capacity.pick_lines(choice, caps or [], s, x, env, inline=True)
        self.apply_written(choice, ["for i, k in picked:", "    S[i] -= k", "    D[i] += k",
                                    *(["    st.forget(S, i, k)"] if self.layout.reveals else [])],
                           capacity.operands(s, x, env))
        self.emit(CHOICE, choice, "zones")

    def limits_kept(self, s: dict, caps: Optional[list[capacity.Capacity]]) -> bool:
        """Whether the limits ``caps`` of choice ``s`` on its destination always hold: they hold for
        the empty zone, no card starts there and no rule but ``s`` (which keeps them) can bring
        one (``flow.filled_by``). Its code then tests none of them, and ``State.set_zone``
        refuses a position that breaks one."""
        dest = flow_zone(s["dest"], self.x.checked)
        starts_empty = all(c["zone"] != dest for c in self.x.checked.ir["cards"])
        # (a limit below 0 does not hold even for the empty zone: ``count(table) < 0`` turns every
        # choice away, and its table of the most that fits has no entries)
        if not caps or dest is None or self.filled.get(None) or not starts_empty \
                or any(bound < 0 for _, bound in caps):
            return False
        fillers = self.filled.get(dest, [])
        if len(fillers) != 1 or fillers[0] is not s:
            return False
        self.x.kept_limits[dest] = caps
        return True

    def capacities(self, s: dict, env: Env) -> Optional[list[capacity.Capacity]]:
        """The limits on ``dest`` when ``keeping`` is only that."""
        if s["keeping"] is None or same(s["source"], s["dest"]):
            return None
        return capacity.capacity_form(s["keeping"], s["dest"], self.x, env)

    def lay_tracks(self, ir: dict) -> None:
        """At the very start: each track with tiles gets one chance draw per space (but those
        tagged at fixed places)."""
        last_at = self.x.at
        fixed = fixed_tags(ir, lambda e: self.x.gen(e, {}).value)
        self.x.at = last_at  # (working out the spaces is no code written: the functions below are not theirs)
        for ti, t in enumerate(ir["tracks"]):
            if t["tiles"]:
                slot = self.x.slots.new()
                self.x.slots.holds[slot] = f"space:{ti}"
                start = self.x.statements([f"L[{slot}] = 0"], purpose="lay")
                skip = [f"while L[{slot}] in {self.x.constant(dict(sorted(fixed[ti].items())), 'fixed')}:",
                        f"    L[{slot}] += 1"] if fixed[ti] else []
                more = self.x.statements([f"L[{slot}] += 1", *skip, f"return L[{slot}] <= st.track_length[{ti}]"],
                                         purpose="more")
                self.emit(EXEC, start)
                top = self.emit(JUMP_IF_NOT, more)
                lay = TileLay(ti, t["name"], slot, [tc["tag"] for tc in t["tiles"]])
                at = self.emit(CHANCE, lay, "tracks")
                self.emit(JUMP, None, top)
                self.patch(top, len(self.code))
                with self.x.placed(span(t)):  # (under the track's line in the module)
                    self.lay_seeded(lay, at, len(self.code), more)

    def lay_seeded(self, lay: TileLay, at: int, after: int, more: Fn) -> None:
        """The seeded path of a track's tiles (``lay.run_seeded``): this space's tile and every
        later space's, each one random pick recorded, the end and the step cap checked after
        each; then the state goes on at ``after`` (past the loop), or stays past ``at`` if the
        game ended there."""
        x = self.x
        me, tags = x.constant(lay, f"lay_{lay.track_name}"), x.constant(tuple(lay.tags), "tags")
        ended = [f"        st.pc = {at + 1}"]
        lay.run_seeded = x.statements([
            f"bag, tags = st.bags[{lay.track}], st.tags[{lay.track}]",
            "while True:",
            f"    space = L[{lay.slot}]",
            "    r = int(rng.random() * sum(bag))  # each tile left alike",
            "    t = 0",
            "    while r >= bag[t]:",
            "        r -= bag[t]",
            "        t += 1",
            "    bag[t] -= 1",
            f"    tags[space] = {tags}[t]",
            f"    log.append(('chance', {me}, (space, t)))",
            *([f"    {end_if(x)}", *ended, "        st.outcome = 'end'", "        return"]
              if "tracks" in self.writer.end_reads else []),
            "    if len(log) >= cap:", *ended, "        st.outcome = 'step cap'",
            "        return",
            f"    if not {x.ref(more, 'more')}(st):", f"        st.pc = {after}", "        return"],
            params=("rng",), purpose="lay")
        lay.goes_on_elsewhere = True  # (a segment hands back after it: see _segment_lines)


def fixed_tags(ir: dict, value: Callable[[dict], Any]) -> list[dict[int, str]]:
    """Per track, the spaces tagged at fixed places (``mud at 5, 11``) and their tags; ``value``
    gives a space's number (the checker holds them to numbers and params)."""
    return [{value(e): f["tag"] for f in t.get("fixed", ()) for e in f["spaces"]} for t in ir["tracks"]]


SHAPE_QUERIES = {"open", "joined", "includes"}


def _and(parts: list[dict]) -> dict:
    test = parts[0]
    for p in parts[1:]:
        test = {"node": "bin_op", "op": "and", "left": test, "right": p}
    return test


def _beside(st) -> int:
    """A placement's reach with no 'within': the squares beside a tile."""
    return 1


_beside.constant = 1  # type: ignore[attr-defined]


def conjuncts(e: dict) -> list[dict]:
    """``a and b and c`` → [a, b, c]."""
    if e["node"] == "bin_op" and e["op"] == "and":
        return conjuncts(e["left"]) + conjuncts(e["right"])
    return [e]


def mentions(e: Any, which: set[str]) -> bool:
    """Does the expression use any of ``which`` (as a plain name)?"""
    return bool(which) and not names(e).isdisjoint(which)


def reads_shape(e: Any, checked: CheckedGame, seen: set[str] | None = None) -> bool:
    """Can the expression see which tile lies where, or how it is turned (not only where tiles are)?
    A placement test that cannot is judged once per square instead of once per tile and rotation."""
    seen = set() if seen is None else seen
    for n in walk_nodes(e):
        what = checked.what(n)
        if n["node"] == "attr" or what in (ROUTE, TILE_VAR) or (what == BUILTIN and n["func"] in SHAPE_QUERIES):
            return True
        if what == DEFINE and n.get("id", n.get("func")) not in seen:
            seen.add(n.get("id", n.get("func")))
            if reads_shape(checked.binding(n).decl["body"], checked, seen):
                return True
    return False


def _is_range(s: dict) -> bool:
    return s["domain"]["hi"] is not None


def compile_program(ir: dict, exprs: ExprCompiler) -> tuple[list[Instr], int, list[Optional[list[int]]],
                                                              list[tuple[int, int, int, int]]]:
    """The whole game as one program: lay tracks, setup, then the turn loop.
    Returns the code, the index where each turn starts, each instruction's rules position, and
    each loop's body (first instruction, past the last) and the slots of its items and index."""
    reads = end_reads(ir, exprs.checked)
    b = ProgramBuilder(exprs, ir, reads)
    b.lay_tracks(ir)
    b.block(ir["setup"], {})
    turn_start = len(b.code)
    b.block(ir["turn"], {})
    b.emit(NEXT_TURN, None, turn_start)
    b.mark_end_checks(reads)
    b.thread_jumps()
    return b.code, turn_start, [b.positions.get(n) for n in range(len(b.code))], b.loops


SEGMENT_STEPS = 60  # the most steps one segment follows before it hands back to State._advance
WALK_WRITTEN = 12  # a draw from a zone that can hold more varieties finds the card's by a loop
RANGE_WRITTEN = 16  # a loop over at most this many numbers known when compiling lists them in its code
OPTIONS_WRITTEN = 200  # a choice among more options is picked from its legal list and applied by its apply


def write_segments(code: list[Instr], positions: list[Optional[list[int]]], x: ExprCompiler) -> dict[int, Fn]:
    """For the start and each step after a decision: a function that does what the program does
    from there on when the state draws chance itself (a seed), up to the next decision; it
    returns the step the state goes on from (the next decision, or a step it does not write),
    or None if the game ended. The shapes it writes: straight runs, draws and random picks, a
    track's tiles, an ``if`` without ``else`` (one last in a loop's body too: both ways go back
    to the loop's test), an ``if``/``elif``/``else`` whose branches are
    such steps and all go on at one step (an option's branches), a loop whose body starts by a
    decision, a ``while`` loop of such steps with no decision in it, the next turn; at any
    other step it hands back, and ``State._advance`` goes on from there step by step. Each
    stands under the decision it follows; a rules error raised in it is placed by the step that
    failed (``shared``). Then each decision gets its ``turn`` (``_turn_function``), which runs
    the segment after it."""
    out = {}

    def segment(entry: int) -> Optional[list[str]]:  # None: nothing to gain (it would hand back at once)
        return _segment_lines(code, entry, x) if entry < len(code) and code[entry][0] != CHOICE else None

    def begin() -> Optional[Fn]:
        lines = segment(0)
        return x.statements(lines, shared=True, purpose="begin") if lines is not None else None
    with x.placed(positions[0]):
        begun = _written(x, begin)
    if begun is not None:
        out[0] = begun
    # (after a decision, the segment is written into its turn; the last decision's first, so that
    # a turn that goes on to a later decision can call that one's turn: see _handed_on)
    later: dict[int, tuple[Fn, Optional[list[int]]]] = {}  # the later decisions whose turns call no other
    for n in reversed([n for n, (op, _, _) in enumerate(code) if op == CHOICE]):
        spec = code[n][1]
        with x.placed(positions[n]):
            spec.turn = _written(x, lambda spec=spec, n=n: _turn_function(spec, n, segment(n + 1), x, later)) \
                or _turn_function(spec, n, None, x)  # (too deep: the program goes on step by step)
        if not spec.turn.hands_on:
            later[n] = spec.turn, positions[n]
    return out


def _written(x: ExprCompiler, make: Callable[[], Optional[Fn]]) -> Optional[Fn]:
    """``make()``, writing the straight runs and draws out; if Python refuses that as nesting
    too deeply, calling them instead; if it still does, None."""
    try:
        return make()
    except TooDeep:
        x.calls_out = True
        try:
            return make()
        except TooDeep:
            return None
        finally:
            x.calls_out = False


def _actor(spec: Any, me: str) -> str:
    """Who takes the decision ``spec`` (named ``me`` in the module), as code."""
    return getattr(spec.actor, "text", None) or f"{me}.actor(st)"


def _turn_function(spec: Any, at: int, after: Optional[list[str]], x: ExprCompiler,
                   later: Optional[dict[int, tuple[Fn, Optional[list[int]]]]] = None) -> Fn:
    """``turn(st, picked, rand=None)``: the decision at ``at`` taken (``picked``, or with
    ``rand`` an action picked uniformly at random, as ``legal[int(rand() * len(legal))]``) and
    recorded, then the program run on to the next decision (``after``: the lines of the segment
    from there, when it has one), as ``State._do`` and ``State._advance`` would. With ``rand``
    it goes round again while the program comes back to the same decision (a turn that is one
    decision: the state's parts are read once for all). It returns the step the state goes on
    from, None if the game ended, -1 if there was no legal action to pick. ``State.apply``
    runs it with the action, ``State.play_out`` with ``rand``; with ``rand``, where the program
    goes on to a later decision whose turn is in ``later`` (with the decision's rules position),
    it calls that turn and returns what it returns, or goes round again (``_handed_on``)."""
    me = x.constant(spec, spec.label)
    inline = getattr(spec, "pick_lines", None)  # (lines that set ``picked``, the payload)
    if inline is not None:
        pick = inline
    elif spec.pick is not None:
        pick = [f"action = {x.ref(spec.pick, 'pick')}(st, rand)", "if action is None:", "    return -1",
                "picked = action.payload"]
    else:
        pick = [f"_legal = {me}.legal(st)", "if not _legal:", "    return -1",
                "picked = _legal[int(rand() * len(_legal))].payload"]
    apply = getattr(spec, "apply_lines", None) or [f"{me}.apply(st, picked)"]
    given = getattr(spec, "operand_lines", ())  # (what both the pick and the action read)
    lines = [*given, "if rand is not None:  # (a random playout: pick the action)", *(f"    {line}" for line in pick),
             f"actor = {_actor(spec, me)}", *apply,
             f"log.append((actor, {me}, picked))",
             f"st.pc = {at + 1}",
             *([end_if(x), "    st._finish('end')", "    return None"] if spec.check_end else []),
             "if len(log) >= cap:", "    st._finish('step cap')", "    return None",
             *(_again(after, at) if after is not None else [f"return {at + 1}"])]
    lines, hands_on = _handed_on(lines, later or {}, x, at)
    turn = x.statements(["while True:", *(f"    {line}" for line in lines)],
                        params=("picked", "rand=None"), purpose=f"turn_{spec.label}", shared=True)
    turn.hands_on = hands_on
    return turn


def _handed_on(lines: list[str], later: dict[int, tuple[Fn, Optional[list[int]]]], x: ExprCompiler,
               me: int) -> tuple[list[str], bool]:
    """A turn's lines with each ``return N`` to a decision of ``later`` made, in a random
    playout, the call of that decision's turn (what ``State.play_out`` would do next, without
    going back to it); and whether there was one. (Only turns that call none are called: a
    playout goes one call deeper at most.) Where the turn called comes back to this turn's
    decision, ``me`` (the next turn starts by it), this turn goes round again, as its own
    segment does (``_again``; outside its loops). The call is marked with the decision's
    position: a rules error in the lines of that turn that mark none (its pick) names the
    decision, as it does when ``State.play_out`` calls the turn."""
    out, hands_on = [], False
    for line, indent, in_loop in _in_loops(lines):
        text, mark = _unmarked(line)
        words = text.split()
        to = int(words[1]) if len(words) == 2 and words[0] == "return" and words[1].isdigit() else None
        if to not in later:
            out.append(line)
            continue
        pad = text[:indent]
        hands_on = True
        turn, at = later[to]
        call = f"{x.ref(turn, 'turn')}(st, None, rand)  # (on to its decision){x.mark(at)}"
        out += [f"{pad}if rand is None:{mark}", f"{pad}    return {to}", f"{pad}st.pc = {to}"]
        if in_loop:
            out.append(f"{pad}return {call}")
            continue
        out += [f"{pad}_next = {call}", f"{pad}if _next != {me}:  # (else back at this decision: round again)",
                f"{pad}    return _next", f"{pad}st.pc = {me}", f"{pad}continue"]
    return out, hands_on


def _again(lines: list[str], at: int) -> list[str]:
    """A segment's lines with its ``return at`` (back to the decision it follows) made
    ``continue`` (outside its own loops, where a ``continue`` would be theirs)."""
    out = []
    for line, indent, in_loop in _in_loops(lines):
        text, mark = _unmarked(line)
        if text.strip() == f"return {at}" and not in_loop:  # (an action given: that one only)
            again = [f"if rand is None:{mark}", f"    return {at}", f"st.pc = {at}", "continue"]
            out += [f"{' ' * indent}{t}" for t in again]
            continue
        out.append(line)
    return out


def _in_loops(lines: list[str]) -> Iterator[tuple[str, int, bool]]:
    """Each of a function's lines, with its indent and whether it is inside a ``while`` or
    ``for`` of the lines (where a ``continue`` would be that loop's)."""
    loops: list[int] = []  # the indents of the loops the line is in
    for line in lines:
        indent = len(line) - len(line.lstrip())
        while loops and indent <= loops[-1]:
            loops.pop()
        yield line, indent, bool(loops)
        if line.lstrip().startswith(("while ", "for ")):
            loops.append(indent)


def _segment_lines(code: list[Instr], pc: int, x: ExprCompiler) -> Optional[list[str]]:
    lines: list[str] = []
    seen: set[int] = set()
    steps = 0
    while True:
        if pc in seen or steps >= SEGMENT_STEPS or pc >= len(code):
            break
        seen.add(pc)
        steps += 1
        op, a, b = code[pc]
        if op == JUMP:
            pc = b
            continue
        if op == NEXT_TURN:
            lines += _step_lines(code, pc, x)
            pc = b
            continue
        if op == JUMP_IF_NOT and b > pc and _simple(code, pc + 1, b):
            lines += _if_lines(code, pc, b, x)  # an ``if`` without ``else``: its steps, then on
            seen.update(range(pc + 1, b))
            pc = b
            continue
        back = _back_if(code, pc)
        if back is not None:  # an ``if`` without ``else`` last in a loop's body: both ways back to its test
            lines += _if_lines(code, pc, back, x)
            seen.update(range(pc + 1, back + 1))
            pc = b
            continue
        chain = _chain(code, pc) if op == JUMP_IF_NOT else None
        if chain is not None:  # if / elif / else, each branch a few steps, all going on at one step
            branches, otherwise, pc = chain
            for k, (test, steps_of) in enumerate(branches):
                lines.append(_opening("if" if k == 0 else "elif", test, x))
                lines += [f"    {line}" for n in steps_of for line in _step_lines(code, n, x)] or ["    pass"]
            if otherwise:
                lines.append("else:")
                lines += [f"    {line}" for n in otherwise for line in _step_lines(code, n, x)]
            seen.update(n for _, steps_of in branches for n in steps_of)
            continue
        if op == JUMP_IF_NOT and b > pc and code[pc + 1][0] == CHOICE:  # a loop whose body starts by a decision
            lines += [*_if_opening(a, x), f"    return {pc + 1}"]
            pc = b
            continue
        if op == JUMP_IF_NOT and b > pc and getattr(code[pc + 1][1], "goes_on_elsewhere", False):
            # a track's tiles: its seeded path lays them all, and the state goes on past its loop
            lines += [*_if_opening(a, x), *(f"    {line}" for line in _step_lines(code, pc + 1, x))]
            seen.update(range(pc, b))
            pc = b
            continue
        body = _loop_body(code, pc, b, x) if op == JUMP_IF_NOT else None
        if body is not None:  # a loop of steps with no decision in them
            lines += [_opening("while", a, x), *(f"    {line}" for line in body)]
            seen.update(range(pc, b))
            pc = b
            continue
        if op == CHANCE and getattr(a, "goes_on_elsewhere", False):  # its seeded path sets st.pc itself
            return lines + _step_lines(code, pc, x) + ["return st.pc"] if lines else None
        if op in (EXEC, CHANCE):
            lines += _step_lines(code, pc, x)
            pc += 1
            continue
        if op == END:
            return lines + _step_lines(code, pc, x)
        break  # a decision, a loop, a branch with an ``else``: the state goes on from here
    # (the step it stopped at is in ``seen``; one step written out saves State._advance's round)
    if sum(1 for n in seen if code[n][0] != JUMP) - 1 < 1:
        return None
    return lines + [f"return {pc}"]


def _loop_body(code: list[Instr], top: int, stop: int, x: ExprCompiler) -> Optional[list[str]]:
    """The lines of the body of the loop whose test is at ``top`` and which goes on at ``stop``,
    if it is one of steps a segment writes (no decision, no turn's end) and nothing in it jumps
    out; else None."""
    if not (stop > top + 1 and code[stop - 1][0] == JUMP and code[stop - 1][2] == top):
        return None
    return _range_lines(code, top + 1, stop - 1, top, x)


def _range_lines(code: list[Instr], start: int, stop: int, top: int, x: ExprCompiler) -> Optional[list[str]]:
    """The steps ``start`` .. ``stop - 1`` of a loop's body as lines, or None if they do what
    a segment does not write or jump out of it (a jump to ``top``, the loop's test, goes on
    at ``stop``: the body's end)."""
    lines: list[str] = []
    pc = start
    while pc < stop:
        op, a, b = code[pc]
        if op == EXEC or (op == CHANCE and not getattr(a, "goes_on_elsewhere", False)):
            lines += _step_lines(code, pc, x)
            pc += 1
            continue
        if op != JUMP_IF_NOT:
            return None
        target = stop if b == top else b
        if not pc < target <= stop:
            return None
        inner = _loop_body(code, pc, target, x)
        if inner is not None:  # a loop inside the loop
            lines += [_opening("while", a, x), *(f"    {line}" for line in inner)]
        else:
            then = _range_lines(code, pc + 1, target, top, x)  # an ``if`` without ``else``
            if then is None:
                return None
            fused = _fused_draw(code, pc, target, x)
            lines += fused or [*_if_opening(a, x), *(f"    {line}" for line in then or ["pass"])]
        pc = target
    return lines


def _if_lines(code: list[Instr], pc: int, stop: int, x: ExprCompiler) -> list[str]:
    """The ``if`` at ``pc`` whose steps, up to ``stop``, are simple (``_simple``), as lines."""
    fused = _fused_draw(code, pc, stop, x)
    if fused is not None:
        return fused
    steps = (line for n in range(pc + 1, stop) for line in _step_lines(code, n, x))
    return [*_if_opening(code[pc][1], x), *(f"    {line}" for line in steps)]


def _fused_draw(code: list[Instr], pc: int, stop: int, x: ExprCompiler) -> Optional[list[str]]:
    """A refill written out (``draw_loop``'s ``fused``): the cards due are worked out once, for
    the test at ``pc`` and for the draws, its one step. None if the ``if`` is not one."""
    op, test, _ = code[pc]
    fused = getattr(test, "fused", None)
    if fused is None or x.calls_out or stop != pc + 2 or code[pc + 1][0] != CHANCE or code[pc + 1][1] is not fused[1]:
        return None
    head, draw, body = fused
    mark = x.mark(getattr(test, "at", None))  # (on its first line: a rules error in any of them is the test's)
    return [head[0] + mark, *head[1:], f"    {body[0]}" + x.mark(getattr(draw.run_seeded, "at", None)),
            *(f"    {line}" for line in body[1:])]


def _simple(code: list[Instr], start: int, stop: int) -> bool:
    """Are the steps start..stop-1 ones a segment writes one after the other (no jump in them)?"""
    return all(code[n][0] in (EXEC, CHANCE, CHOICE, END) for n in range(start, stop))


def _back_if(code: list[Instr], pc: int) -> Optional[int]:
    """If the step at ``pc`` is the test of an ``if`` without ``else`` whose steps, all simple,
    end by going back to where the test goes when it fails (a loop's test: the ``if`` is the
    last statement of the loop's body), the step of that jump back; else None."""
    op, _, miss = code[pc]
    if op != JUMP_IF_NOT or miss >= pc:
        return None
    end = pc + 1
    while end < len(code) and _simple(code, end, end + 1):
        end += 1
    return end if end < len(code) and code[end][0] == JUMP and code[end][2] == miss else None


def _chain(code: list[Instr], pc: int) -> Optional[tuple[list[tuple[Fn, range]], Optional[range], int]]:
    """The ``if``/``elif``/``else`` that starts at ``pc``, if it is one whose branches are plain
    steps that all end by going to one step: (each test and its steps, the ``else`` steps, where
    they all go on), or None."""
    branches: list[tuple[Fn, range]] = []
    goes_on = None
    while code[pc][0] == JUMP_IF_NOT:
        _, test, miss = code[pc]
        if miss <= pc or code[miss - 1][0] != JUMP or not _simple(code, pc + 1, miss - 1):
            break
        target = code[miss - 1][2]
        if goes_on is not None and target != goes_on:
            return None
        goes_on = target
        branches.append((test, range(pc + 1, miss - 1)))
        pc = miss
        if pc == goes_on:  # no else
            return branches, None, goes_on
    if not branches or goes_on is None:
        return None
    if code[pc][0] == JUMP_IF_NOT and code[pc][2] == goes_on:  # a last branch, with no else after it
        if goes_on > pc:  # it falls through to where they all go on
            if not _simple(code, pc + 1, goes_on):
                return None
            branches.append((code[pc][1], range(pc + 1, goes_on)))
            return branches, None, goes_on
        end = pc + 1  # they all go back (to a loop's test): it ends by going there too
        while end < len(code) and _simple(code, end, end + 1):
            end += 1
        if end < len(code) and code[end][0] == JUMP and code[end][2] == goes_on:
            branches.append((code[pc][1], range(pc + 1, end)))
            return branches, None, goes_on
        return None
    if pc < goes_on and _simple(code, pc, goes_on):
        return branches, range(pc, goes_on), goes_on
    return None


def _answered(lines: list[str]) -> list[str]:
    """A loop's test written out: its ``return True`` / ``return False`` (inside the loop over
    the items) made ``_more = True`` and ``break`` / ``break``."""
    out = []
    for line in lines:
        indent, text = line[:len(line) - len(line.lstrip())], line.strip()
        out += {"return True": [f"{indent}_more = True", f"{indent}break"],
                "return False": [f"{indent}break"]}.get(text, [line])
    return out


def _if_opening(test: Fn, x: ExprCompiler) -> list[str]:
    """``if`` and a test of the program, as a segment writes it: a loop's next step written out
    before it (``inline_if``, setting ``_more``), else as ``_opening``."""
    lines = getattr(test, "inline_if", None)
    if lines is None or x.calls_out:
        return [_opening("if", test, x)]
    return [*lines, "if _more:"]


def _opening(word: str, test: Fn, x: ExprCompiler) -> str:
    """``if``/``elif``/``while`` and a test of the program, as a segment writes it: the test's
    expression, if it has one, else a call; marked with the rules position of the test."""
    code = getattr(test, "text", None) or f"{x.ref(test, 'test')}(st)"
    return f"{word} {code}:{x.mark(getattr(test, 'at', None))}"


# A straight run longer than this stays a function of its own, called where it runs: written out,
# it would save one call against hundreds of lines' work, and judging whether it can be (parsing
# it) costs more than the call in a file of thousands of statements.
LONGEST_WRITTEN_OUT = 500


def _stands_anywhere(body: list[str]) -> bool:
    """Can ``body``, the lines of a straight run, be written out in another function? Only if
    the names it sets are its own (they start by ``_``; the rules' locals are slots of ``L``),
    it returns nothing but how the game ended, and holds no function."""
    tree = ast.parse("def run(st):\n" + "".join(f"    {line}\n" for line in [*body, "pass"])).body[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Return) and not (isinstance(node.value, ast.Constant)
                                                 and isinstance(node.value.value, str)):
            return False
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and not node.id.startswith("_"):
            return False
        if node is not tree and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Global,
                                                  ast.Nonlocal, ast.Yield, ast.YieldFrom)):
            return False
    return True


def _unmarked(line: str) -> tuple[str, str]:
    """A line and the mark at its end (``ExprCompiler.mark``; "" if none)."""
    text, sep, mark = line.partition(MARK)
    return text, sep + mark


def _ended_instead(lines: list[str], at: int) -> list[str]:
    """A straight run's lines, written out: its ``return <how it ended>`` ends the game there."""
    out = []
    for line in lines:
        text, mark = _unmarked(line)
        if text.strip().startswith("return "):
            pad = text[:len(text) - len(text.lstrip())]
            out += [f"{pad}st.pc = {at}{mark}", f"{pad}st._finish({text.strip()[len('return '):]})",
                    f"{pad}return None"]
        else:
            out.append(line)
    return out


def _step_lines(code: list[Instr], pc: int, x: ExprCompiler) -> list[str]:
    """One step of the program as the segment's lines (``State._advance`` does the same),
    the first marked with the rules position of its code (none: the engine's own)."""
    lines = _unmarked_step_lines(code, pc, x)
    op, a, _ = code[pc]
    fn = a.run_seeded if op == CHANCE else a
    return [lines[0] + x.mark(getattr(fn, "at", None)), *lines[1:]] if lines and MARK not in lines[0] else lines


def _unmarked_step_lines(code: list[Instr], pc: int, x: ExprCompiler) -> list[str]:
    op, a, b = code[pc]
    def ended(at: int, outcome: str) -> list[str]:
        return [f"st.pc = {at}", f"st._finish({outcome})", "return None"]
    if op == EXEC:
        call = f"{x.ref(a, 'run')}(st)"
        if b == RUN and getattr(a, "inline_lines", None) and not x.calls_out:  # a straight run, written out
            return _ended_instead(a.inline_lines, pc + 1)
        if b is False and getattr(a, "inline_lines", None) and not x.calls_out:  # a loop's start, written out
            return list(a.inline_lines)
        if b == RUN:  # a straight run: it says how the game ended, if it did
            return [f"ended = {call}", "if ended:", *(f"    {t}" for t in ended(pc + 1, "ended"))]
        if b is True:
            return [call, end_if(x), *(f"    {t}" for t in ended(pc + 1, "'end'"))]
        return [call]
    if op == CHANCE:
        if getattr(a, "inline_lines", None) and not x.calls_out:  # written out: it returns None if the game ended
            return list(a.inline_lines) if getattr(a, "sets_pc", False) else [f"st.pc = {pc}", *a.inline_lines]
        return [f"st.pc = {pc}", f"{x.ref(a.run_seeded, 'chance')}(st, rng)",
                "if st.outcome is not None:", "    return None"]
    if op == CHOICE:
        return [f"return {pc}"]
    if op == NEXT_TURN:  # ``a``: the end reads who moves (judged before the turn is counted: none began)
        end = [end_if(x), *(f"    {t}" for t in ended(b, "'end'"))] if a else []
        capped = [*end, "st.turns += 1", "if st.turns >= cap:", *(f"    {t}" for t in ended(b, "'step cap'"))]
        if x.layout.turn_order:  # players out, or 'set next': State.pass_turn
            return ["if not st.pass_turn():", *(f"    {t}" for t in ended(b, "'end'")), *capped]
        return ["st.current = (st.current + 1) % st.players", *capped]
    return ended(pc, repr(a or "end"))  # END


PIECE_QUERIES = {"pos", "finished", "place", "at_place", "finishers"}
GRID_QUERIES = {"col", "row", "neighbour", "open", "joined", "includes"}


def end_reads(ir: dict, checked: CheckedGame) -> set[str]:
    """Which parts of the state the end conditions read: "zones", "pieces", "vars", "current"."""
    out: set[str] = set()
    seen: set[str] = set()
    players_out = checked.symbols.vars.get("out", {}).get("builtin", False)  # then 'player' reads the vars

    def walk(e: Any) -> None:
        for n in walk_nodes(e):
            what = checked.what(n)
            if players_out and (n["node"] == "domain" and n["players"]
                                or what == BUILTIN and n["func"] in ("next", "previous")):
                out.add("vars")
            if n["node"] == "filtered":
                out.add("zones")
            elif what == DEFINE:
                define = checked.binding(n).decl
                if define["name"] not in seen:
                    seen.add(define["name"])
                    walk(define["body"])
            elif what == ZONE:
                out.add("zones")
            elif what == VAR:
                out.add("vars")
            elif what == TILE_VAR:
                out.add("grid")
            elif what in (ROUTE, GRID, GRID_COUNT) or (what == BUILTIN and n["func"] in GRID_QUERIES):
                out.update(("grid", "vars", "zones", "current"))
            elif what == CURRENT:
                out.add("current")
            elif what == BUILTIN and n["func"] in PIECE_QUERIES:
                out.add("pieces")
            elif what == BUILTIN and n["func"] == "tagged":
                out.add("tracks")
    walk([e["test"] for e in ir["end"]])
    return out
