"""Straight runs of statements as Python (``StatementWriter``).

A run of statements with no decision and no chance in it (sets, lets, moves, ifs and loops
of those) becomes one function of the game's module, written as a person would write it:
``if``/``for`` as Python's own, each statement under a comment with its rules line. The
function returns None to go on, or how the game ended: after each statement that changes what
an ``end when`` reads, the end is tested there (as the flat program did after each step).
"""

from __future__ import annotations

from typing import Any, Optional

from meeple.dsl.limits import MAX_NUMBER
from meeple.dsl.checked import CheckedGame
from meeple.dsl.walk import names, span

from dataclasses import replace

from .code import VARS, Code, local, paren
from .expressions import Env, ExprCompiler

# Statements a straight run may hold; if, for and run hold them only if their bodies are straight.
STRAIGHT = {"let", "set", "move", "move_to", "move_all", "move_cards", "move_where", "reveal", "reset", "end_game",
            "if", "for", "run"}
# Blocks inside blocks a straight run may hold: Python allows 100 levels of indentation, and a
# statement nested deeper is left to the flat program (an 'else if' chain stays flat: elif).
MAX_DEPTH = 30
MAX_LOOPS = 15  # loops inside loops: Python allows 20 blocks of them in one function
MOVE_ALL_WRITTEN = 12  # a move of all cards from a zone that can hold more varieties calls _move_all
END_TEST = "_end_test"  # the name under which the module knows the end test (the game sets it)
Lines = list[tuple[str, Optional[list[int]]]]  # (a line of Python, the rules position it starts, if it does)


def end_test(x: Any) -> str:
    """``if <the end test>:``. When the game has a single end condition and it compiles to an
    expression (``ExprCompiler.end_text``, set by the game), that expression written out (``end_if``
    marks the line with the condition's rules position, so that a rules error in it names the end);
    else a call of the end test by its name, ``END_TEST``."""
    if x.end_text is None:
        return f"if {END_TEST}(st):"
    text, at = x.end_text
    return f"if {text}:  # (the end condition{f', line {at[0]}' if at else ''})"


def end_if(x: Any) -> str:
    """``end_test`` as a line of a function's body, marked with the end condition's position."""
    return end_test(x) + (x.mark(x.end_text[1]) if x.end_text is not None else "")


class StatementWriter:
    """Python lines of straight statements (``ProgramBuilder`` makes each run one function)."""

    def __init__(self, x: ExprCompiler, end_reads: set[str]):
        self.x = x
        self.layout = x.layout
        self.checked: CheckedGame = x.checked
        self.end_reads = end_reads
        self.tests: list[Any] = []  # the 'if's whose body is being written: their positions (None: an else)

    def straight(self, s: dict, depth: int = 0, loops: int = 0) -> bool:
        """Can ``s`` be written as Python in a straight run (no decision nor chance in it, and not
        nested too deeply)?"""
        node = s["node"]
        if node not in STRAIGHT or depth > MAX_DEPTH or loops > MAX_LOOPS:
            return False
        if node == "if":
            chained = _else_if(s) is not None
            return all(self.straight(b, depth + 1, loops) for b in s["body"]) and \
                all(self.straight(b, depth if chained else depth + 1, loops) for b in s["else_"] or [])
        if node == "for":
            return all(self.straight(b, depth + 1, loops + 1) for b in s["body"])
        if node == "run":
            return all(self.straight(b, depth, loops) for b in self.x.sym.phases[s["phase"]]["body"])
        return True

    def block(self, stmts: list, env: Env, depth: int) -> Lines:
        out: Lines = []
        for s in stmts:
            out += self.stmt(s, env, depth)
        return out or [("    " * depth + "pass", None)]

    def stmt(self, s: dict, env: Env, depth: int) -> Lines:
        """The statement's lines at indentation ``depth``, under a comment with its rules line."""
        here = span(s)
        with self.x.placed(here):
            items = getattr(self, "w_" + s["node"])(s, env)
        pad = "    " * depth
        out: Lines = [(pad + c, here) for c in self.x.module.comment(here)] if s["node"] != "run" else []
        for item in items:  # a line of this statement, or a (line, position) of a block inside it
            text, at = (item, None) if isinstance(item, str) else item
            out.append((pad + text, at))
        if out and out[0][1] is None:
            out[0] = (out[0][0], here)
        return out

    def check_end(self, written: str) -> list[str]:
        """After a change to what an end condition reads: is the game over?"""
        if written not in self.end_reads:
            return []
        at = self.x.end_text[1] if self.x.end_text is not None else None  # (a line and its position)
        return [(end_test(self.x), at), "    return 'end'"]

    def written(self, target: str) -> str:
        if target == "current":
            return "current"
        return "grid" if target in self.layout.tile_var_names else "vars"

    # ---- statements: each gives its lines (nested blocks as (line, position) pairs) ----
    def w_let(self, s, env):
        slot = self.x.slots.new()
        self.x.slots.holds[slot] = self.x.checked.type_of(s["value"])
        value = self.kept(self.x.gen(s["value"], env))
        env[s["name"]] = replace(local(slot), reads=value.reads)  # none, if what it keeps may be
        return [f"L[{slot}] = {value}"]

    def kept(self, value: Code) -> Code:
        return self.x.kept(value)

    def w_set(self, s, env):
        return [*self.assign(s["target"], s["index"], self.x.gen(s["value"], env), env),
                *self.check_end(self.written(s["target"]))]

    def assign(self, name: str, index: Optional[dict], value: Code, env) -> list[str]:
        """The line of ``set name[(index)] = value``, ``value`` already code."""
        lay, x = self.layout, self.x
        s = {"index": index}
        if name == "current":
            line = f"st.current = _seat_of({value}, st.players)"
        elif name in lay.cell_var_names:
            base, cell = lay.shared_var_slot[name], x.gen(s["index"], env).unwrapped()
            line = f"V[{base} + {cell}] = {self.kept(value)}" if cell.sure else \
                f"_set_cell(V, {base}, {cell}, {self.kept(value)}, {name!r})"
        elif name in lay.var_names and s["index"] is None:
            line = f"V[{lay.shared_var_slot[name]}] = {self.kept(value)}"  # (its slot is the same in every game)
        elif name in lay.var_names:
            seat = x.gen(s["index"], env)
            if VARS in seat.reads:  # a var's player may still be none
                seat = x.guarded("_seat", seat, s["index"])
            line = f"V[vb[{lay.var_names.index(name)}] + {seat}] = {self.kept(value)}"
        else:  # a per-tile var: the tile may be none
            k = lay.tile_var_names.index(name)
            line = f"_set_tile(G.tv[{k}], {self.kept(value)}, {x.gen(s['index'], env)}, {name!r})"
        return [line]

    def w_if(self, s, env):
        out: list[Any] = []
        keyword = "if"
        while True:
            out.append(f"{keyword} {self.x.gen(s['test'], env)}:")
            self.tests.append(span(s))  # (an 'end game' in the body tells this test's line)
            out += self.block(s["body"], dict(env), 1)
            self.tests.pop()
            chained = _else_if(s)
            if chained is None:
                break
            s, keyword = chained, "elif"  # 'else if': one level, as the rules wrote it
            out += [(c, span(s)) for c in self.x.module.comment(span(s))]
        if s["else_"]:
            out.append("else:")
            self.tests.append(None)  # (an 'end game' there: its own line, no test led to it)
            out += self.block(s["else_"], dict(env), 1)
            self.tests.pop()
        return out

    def w_for(self, s, env):
        x = self.x
        kind, values = x.domain_code(s["domain"], env)
        var_slot = x.slots.new()
        inner = dict(env)
        inner[s["var"]] = local(var_slot)
        if kind == "cards":
            items = f"_cards({values})"  # each card once, as it is before the loop
        else:
            items = values.text
        out: list[Any] = [f"for L[{var_slot}] in {items}:"]
        if s.get("while_") is not None:
            out += [f"    if not {x.gen(s['while_'], inner)}:", "        break"]
        if s["where"] is not None:
            # A test that does not look at the loop variable, once false, stays false: the loop ends.
            settled = s["var"] not in names(s["where"])
            out += [f"    if not {x.gen(s['where'], inner)}:", "        break" if settled else "        continue"]
        out += self.block(s["body"], inner, 1)
        return out

    @staticmethod
    def told(event: tuple) -> list[str]:
        """Lines that tell ``event`` to whoever listens to the state (``State.listen``)."""
        return ["if st.listen is not None:  # (someone follows the game)", f"    st.listen({event!r})"]

    def w_run(self, s, env):
        return self.told(("phase", s["phase"])) + self.block(self.x.sym.phases[s["phase"]]["body"], {}, 0)

    def w_end_game(self, s, env):
        at = self.tests[-1] if self.tests and self.tests[-1] else span(s)  # the test that led here, if any
        return self.told(("end", list(at or []))) + ["return 'draw'" if s.get("no_winner") else "return 'end'"]

    def w_move(self, s, env):
        piece, steps = self.x.gen(s["piece"], env), self.x.gen(s["steps"], env)
        lay = self.layout
        track = lay.piece_track.get(piece.value) if piece.known else None
        if track is None or lay.track_loop[track] or piece.value in lay.piece_home:
            tracks = self.x.constant(dict(self.layout.piece_track), "tracks")
            return [f"_move_piece(st, {tracks}, {piece}, {steps}, {s['stop_at']!r})", *self.check_end("pieces")]
        # A piece known when compiling, on a track that is no circuit: State.move_piece written
        # out (never behind the start; stopped on the first space with the stop's tag that it
        # enters; past the last space, onto the podium once).
        p, by, tag = piece.value, steps if steps.plain or steps.known else paren(steps), s["stop_at"]
        stop = [] if tag is None else [
            f"if _to > P[{p}]:  # (stopping at {tag}: the spaces it enters, up to the last)",
            f"    _tags = st.tags[{track}]",
            f"    for _s in range(P[{p}] + 1, min(_to, st.track_length[{track}]) + 1):",
            f"        if _tags[_s] == {tag!r}:",
            "            if _s < _to and st.listen is not None:  # (stopped short: someone follows the game)",
            f"                st.listen(('stop', {p}, {track}, {tag!r}, _s))",
            "            _to = _s",
            "            break"]
        return [f"_to = P[{p}] + {by}", "if _to < 0:", "    _to = 0", f"elif _to > {MAX_NUMBER}:",
                f"    _too_far(st, {p}, _to)", *stop, f"P[{p}] = _to",
                f"if _to > st.track_length[{track}] and not PL[{p}]:", f"    _podium = st.podium[{track}]",
                f"    _podium.append({p})", f"    PL[{p}] = len(_podium)", *self.check_end("pieces")]

    def w_move_to(self, s, env):
        source = self.x.checked.card_zone(s)
        if source is not None:  # one card, from the zone a loop or an option took it from
            card, dest = self.x.gen(s["piece"], env), self.x.gen(s["to"], env)
            names = self.x.constant(tuple(self.layout.variety_names), "VARIETIES")
            zone = self.x.gen(source, env)
            return [f"_move_card({zone}, {dest}, {card}, {names})", *self.forget(zone, card, 1),
                    *self.check_end("zones")]
        piece, to = self.x.gen(s["piece"], env), self.x.gen(s["to"], env)
        tracks = self.x.constant(dict(self.layout.piece_track), "tracks")
        return [f"_move_piece_to(st, {tracks}, {piece}, {to})", *self.check_end("pieces")]

    def w_move_all(self, s, env):
        x = self.x
        source, dest = x.gen(s["source"], env), x.gen(s["dest"], env)
        varieties = sorted(x.possible(s["source"], env))
        if len(varieties) > MOVE_ALL_WRITTEN:
            return [*self.forget(source), f"_move_all({source}, {dest})", *self.check_end("zones")]
        # Written out, one line per variety the source can hold (the others are never in it);
        # from a zone to itself nothing moves.
        empty = x.constant((0,) * len(self.layout.variety_names), "EMPTY")
        return [f"_S = {source}", f"_D = {dest}", *self.forget("_S"), "if _S is not _D:",
                *(f"    _D[{i}] += _S[{i}]" for i in varieties), f"    _S[:] = {empty}", *self.check_end("zones")]

    def w_move_cards(self, s, env):
        x = self.x
        v = self.layout.variety_names.index(s["variety"])
        source, amount, dest = x.gen(s["source"], env), x.gen(s["amount"], env), x.gen(s["dest"], env)
        if amount.value == 1 and not self.layout.reveals:  # (one card, if the source has one: written out)
            return [f"_S = {source}", f"_D = {dest}", f"if _S[{v}]:", f"    _S[{v}] -= 1", f"    _D[{v}] += 1",
                    *self.check_end("zones")]
        moved = f"_move_cards({amount}, {source}, {dest}, {v})"  # (how many)
        return [*(self.forget(source, v, moved) or [moved]), *self.check_end("zones")]

    def w_move_where(self, s, env):
        """The cards that pass the test, in the order the varieties are declared, up to the amount."""
        x = self.x
        i = x.name("i")
        test = x.gen(s["where"], x.card_env(env, i))
        varieties = sorted(x.possible(s["source"], env))
        left = x.name("left")
        lines = [f"_S = {x.gen(s['source'], env)}", f"_D = {x.gen(s['dest'], env)}",
                 f"{left} = {x.gen(s['amount'], env)}",
                 f"for {i} in {x.constant(tuple(varieties), 'V')}:",
                 f"    if {left} <= 0:", "        break",
                 f"    if _S[{i}] and {test}:",
                 f"        _k = min(_S[{i}], {left})",
                 f"        _S[{i}] -= _k", f"        _D[{i}] += _k", f"        {left} -= _k",
                 *(f"        {line}" for line in self.forget("_S", i, "_k"))]
        return [*lines, *self.check_end("zones")]

    def w_reveal(self, s, env):
        x = self.x
        source = self.checked.card_zone(s)
        to = "None" if s["to"] is None else f"_shown_to({x.gen(s['to'], env)})"
        if source is not None:  # one card, in the zone a loop or an option took it from
            return [f"st.reveal({x.gen(source, env)}, {to}, {x.gen(s['what'], env)})"]
        return [f"st.reveal({x.gen(s['what'], env)}, {to})"]

    def w_reset(self, s, env):
        """Every slot of the var (each player's, each cell's) back to its start value, worked out again."""
        lay, name = self.layout, s["var"]
        if name in lay.tile_var_names:  # (a per-tile var starts as it is on each tile as it is placed)
            k = lay.tile_var_names.index(name)
            return [f"st.grid.tv[{k}][:] = [{self.x.gen(self.x.sym.vars[name]['init'], {})}] * len(st.grid.tv[{k}])",
                    *self.check_end("grid")]
        i = lay.var_names.index(name)
        start = self.x.gen(self.x.sym.vars[name]["init"], {})
        size = "st.players" if self.x.sym.vars[name]["per_player"] else str(lay.var_size(name, 1))
        return [f"V[vb[{i}]:vb[{i}] + {size}] = [{start}] * {size}",
                *self.check_end(self.written(name))]

    def forget(self, zone: Any, variety: Any = None, n: Any = None) -> list[str]:
        """In a game that shows cards: the line that forgets what cards leaving ``zone`` were
        (``n`` of ``variety``, code of each; every card with ``variety`` None); none in another game."""
        if not self.layout.reveals:
            return []
        return [f"st.forget({zone})" if variety is None else f"st.forget({zone}, {variety}, {n})"]


def _else_if(s: dict) -> dict | None:
    """The ``if`` that is the whole ``else`` of ``s`` (``else if``), if it is."""
    rest = s["else_"] or []
    return rest[0] if len(rest) == 1 and rest[0]["node"] == "if" else None
