"""Recognise capacity constraints in a choice's ``keeping`` test (``capacity_form``).

Many rules limit what a zone may hold: "the table may never hold more than 8
cards, nor more than 4 of one colour". Written as a ``keeping`` test, such a rule
is a conjunction of ``count(dest [where test]) <= bound`` with constant bounds.
In that form the legal choices follow from a few subtractions (how much room
each limit has left) instead of judging the test once per candidate. Any other
test is left to be judged as written.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from meeple.dsl.checked import BUILTIN, DEFINE, KIND
from meeple.dsl.walk import AT

from .code import lit, name
from .expressions import Env, ExprCompiler, with_local
from .moves import SINGLES_KEPT, most_table

Capacity = tuple[tuple[int, ...], int]  # (varieties counted, most the zone may hold of them)
MOST_TABLED = 64  # limits up to this are read from a table of the most that fits (``most_by_table``)
TABLE_ENTRIES = 5_000  # ... which is read by how many the source holds too when it has no more entries


def capacity_form(test: dict, dest: dict, x: ExprCompiler, env: Env) -> Optional[list[Capacity]]:
    """The test as capacities of the zone ``dest``, or None if it is not only that.

    A count is of ``dest`` when its zone is the same expression as ``dest`` where the choice
    stands: names are compared as bound, not as spelled (``_same``: a define's parameter stands
    for its argument)."""
    out: list[Capacity] = []
    if not _collect(test, _same(dest, x, env, {}), x, env, {}, out):
        return None
    possible = x.possible(dest, env)
    return [(tuple(i for i in idx if i in possible), bound) for idx, bound in out]


Same = Any  # what ``_same`` makes: equal for two expressions that read the same value


def _same(e: Any, x: ExprCompiler, env: Env, args: dict[str, Same]) -> Same:
    """A value equal to that of another expression exactly when both are the same expression with
    their names bound alike: a define as its body, its parameters (in ``args``) as its arguments,
    a local of the statement or a loop (in ``env``) as itself, any other name as what it names.
    Positions in the rules file are left out."""
    if isinstance(e, list):
        return tuple(_same(v, x, env, args) for v in e)
    if not isinstance(e, dict):
        return e
    if e.get("node") in ("name", "call") and x.checked.what(e) == DEFINE:  # as its body, inlined
        define = x.checked.binding(e).decl
        given = {p: _same(a, x, env, args) for p, a in zip(define["params"], e.get("args", []))}
        return _same(define["body"], x, {}, given)
    if e.get("node") == "name":
        if e["id"] in args:
            return args[e["id"]]
        if e["id"] in env:
            return ("local", id(env[e["id"]]))
        return ("name", x.checked.what(e), e["id"])
    return tuple((k, _same(v, x, env, args)) for k, v in sorted(e.items()) if k != AT)


def _collect(e: dict, dest: Same, x: ExprCompiler, env: Env, args: dict[str, Same], out: list[Capacity]) -> bool:
    node = e["node"]
    if node == "bin_op" and e["op"] == "and":
        return _collect(e["left"], dest, x, env, args, out) and _collect(e["right"], dest, x, env, args, out)
    if node == "comprehension" and e["func"] == "all" and e["where"] is None and e.get("while_") is None \
            and not e["domain"]["players"] \
            and e["domain"]["hi"] is None and e["domain"]["lo"]["node"] == "name" \
            and x.checked.what(e["domain"]["lo"]) == KIND \
            and not x.layout.seat_pieces.get(e["domain"]["lo"]["id"]):  # (pieces per player: the seats in play)
        for value in x.layout.kind_values[e["domain"]["lo"]["id"]]:
            if not _collect(e["body"], dest, x, with_local(env, e["var"], lit(value)), args, out):
                return False
        return True
    if x.checked.what(e) == DEFINE:
        inner, inner_args = _define_env(e, x, env, args)
        return _collect(x.checked.binding(e).decl["body"], dest, x, inner, inner_args, out)
    if node == "bin_op" and e["op"] in ("<=", "<", ">=", ">"):
        counted, bound_expr, op = e["left"], e["right"], e["op"]
        if op in (">=", ">"):
            counted, bound_expr, op = e["right"], e["left"], "<=" if op == ">=" else "<"
        bound = x.gen(bound_expr, env).value
        idx = _counted(counted, dest, x, env, args)
        if bound is None or isinstance(bound, bool) or idx is None:
            return False
        out.append((idx, bound - 1 if op == "<" else bound))
        return True
    return False


def _define_env(call: dict, x: ExprCompiler, env: Env, args: dict[str, Same]) -> tuple[Env, dict[str, Same]]:
    """Where the body of the define that ``call`` calls is read: its parameters as the code of the
    arguments (to work out bounds and tests), and as what ``_same`` makes of them."""
    params = x.checked.binding(call).decl["params"]
    given = call["args"] if call["node"] == "call" else []
    return ({p: x.gen(a, env) for p, a in zip(params, given)},
            {p: _same(a, x, env, args) for p, a in zip(params, given)})


def _counted(e: dict, dest: Same, x: ExprCompiler, env: Env, args: dict[str, Same]) -> Optional[tuple[int, ...]]:
    """The varieties that ``e`` counts in ``dest``, if ``e`` is such a count."""
    if e["node"] == "call" and x.checked.what(e) == DEFINE:
        inner, inner_args = _define_env(e, x, env, args)
        return _counted(x.checked.binding(e).decl["body"], dest, x, inner, inner_args)
    if x.checked.what(e) == BUILTIN and e["func"] == "count" and len(e["args"]) == 1 \
            and _same(e["args"][0], x, env, args) == dest:
        return tuple(range(len(x.layout.variety_names)))
    if e["node"] == "filtered" and e["func"] == "count" and _same(e["zone"], x, env, args) == dest:
        decided = [x.gen(e["where"], x.card_env(env, lit(i))).value for i in range(len(x.layout.variety_names))]
        if any(d is None for d in decided):
            return None
        return tuple(i for i, d in enumerate(decided) if d)
    return None


def legal_function(choice, caps: list[Capacity], s: dict, x: ExprCompiler, env: Env):
    """The compiled ``legal`` of ``choice`` (a CardChoice whose ``keeping`` is the limits ``caps``
    on its destination, or that has no ``keeping``: no limits): the room each limit has left,
    then, for each variety in a group of its
    own, one action per count up to the most that fits; groups of several are left to
    ``choice.shared_choices``. (The same actions as ``choice.judged`` gives, in another order.)"""
    w = _Writer(choice, caps, s, x, env)
    return x.statements(w.twice(lambda: _legal_body(choice, w)), purpose="legal")


def _legal_body(choice, w: "_Writer") -> list[str]:
    body = w.start([f"return {w.me}.judged(st)"], "return []")

    def singles(held: bool) -> list[str]:
        lines = [f"out = [{w.me}.nothing]" if w.nothing == "1" else "out = []" if w.nothing == "0"
                 else f"out = [{w.me}.nothing] if lo == 0 else []"]
        for i in choice.alone:
            fast = w.most_by_table(i, held)
            lines += [*fast, "if m:"] if fast is not None else w.most(i)
            taken = f"{w.one}[{i}][{w.first}:m + 1]"
            lines.append(f"    out += {taken}" if w.kept_all
                         else f"    out += {taken} if m <= {SINGLES_KEPT} else {w.me}.counted({i}, {w.first}, m)")
        return lines
    body += w.guarded(singles)
    if choice.shared:
        body += [*w.shared(), "    out += found"]
    body.append("return out")
    return body


def operands(s: dict, x: ExprCompiler, env: Env) -> tuple[str, ...]:
    """A card choice's source and destination, read into ``S`` and ``D``."""
    return f"S = {x.gen(s['source'], env)}", f"D = {x.gen(s['dest'], env)}"


def pick_function(choice, caps: list[Capacity], s: dict, x: ExprCompiler, env: Env):
    """``pick(st, rand)``: the action ``legal[int(rand() * len(legal))]`` would be, ``legal``
    being what ``legal_function`` gives, without making that list (None when it is empty): the
    actions counted part by part, one number drawn, the part it falls in worked out."""
    return x.statements(pick_lines(choice, caps, s, x, env), params=("rand",), purpose="pick")


def pick_lines(choice, caps: list[Capacity], s: dict, x: ExprCompiler, env: Env,
               inline: bool = False) -> list[str]:
    """The body of ``pick_function``; ``inline``: lines that set ``picked`` (the action's payload)
    instead, and leave the function by ``return -1`` when there is none (the start of a decision's
    ``turn``: ``program._turn_function``), the source and the destination being already ``S``
    and ``D`` there (``operands``). A choice within one zone judges each action: not inline."""
    assert not (inline and choice.may_alias)
    w = _Writer(choice, caps, s, x, env)
    return w.twice(lambda: _pick_body(choice, w, inline))


def _pick_body(choice, w: "_Writer", inline: bool) -> list[str]:
    none = "return -1" if inline else "return None"
    body = w.start([f"_legal = {w.me}.judged(st)", "return _legal[int(rand() * len(_legal))] if _legal else None"],
                   none, operands_set=inline)
    if w.nothing != "0":  # (placing nothing may come first)
        body.append(f"n = {w.nothing}" if w.nothing == "1" else "n = 1 if lo == 0 else 0")
    ends = ["n" if w.nothing != "0" else "0"]  # how many actions come before each part, then after it
    ends += [f"n{k}" for k in range(len(choice.alone))]

    def counts(held: bool) -> list[str]:
        lines = []
        for k, i in enumerate(choice.alone):
            counted = f"m{k} = m" if w.first == "1" else f"m{k} = m - {w.first} + 1 if m >= {w.first} else 0"
            fast = w.most_by_table(i, held)
            m = "m" if fast is not None and w.first == "1" else f"m{k}"
            if fast is None:
                lines += [*w.most(i, else_zero=f"m{k}"), f"    {counted}"]
            elif w.first == "1" and len(fast) == 1:  # (one read: the most, and the count, 0 counting as none)
                m = fast[0].removeprefix("m = ")
            elif w.first == "1":  # (m is already the most, and the count: 0 counts as none)
                lines += fast
            else:
                lines += [*fast, counted]
            lines.append(f"n{k} = {m}" if ends[k] == "0" else f"n{k} = {ends[k]} + {m}")  # (m is never below 0)
        return lines
    body += w.guarded(counts)
    if choice.shared:
        body += ["found = ()", *w.shared()]
    counted = [] if ends[-1] == "0" else [ends[-1]]
    body += [f"actions = {' + '.join(counted + (['len(found)'] if choice.shared else [])) or '0'}",
             "if not actions:", f"    {none}",
             "k = int(rand() * actions)"]
    parts = [("k < n", f"{w.me}.nothing")] if w.nothing != "0" else []
    for k, i in enumerate(choice.alone):
        count = f"{w.first} + k - {ends[k]}" if ends[k] != "0" else f"{w.first} + k"
        parts.append((f"k < n{k}", f"{w.one}[{i}][{count}]" if w.kept_all else
                      f"{w.one}[{i}][{count}] if {count} <= {SINGLES_KEPT} else {w.me}.action((({i}, {count}),))"))
    last = (f"found[k - {ends[-1]}]" if ends[-1] != "0" else "found[k]") if choice.shared else None
    if not inline:
        for test, action in parts:
            body += [f"if {test}:", f"    return {action}"]
        return body + [f"return {last}" if last else "raise AssertionError('no part holds k')"]
    for n, (test, action) in enumerate(parts):
        body += [f"{'if' if n == 0 else 'elif'} {test}:", f"    action = {action}"]
    if not parts:
        return body + [f"action = {last}", "picked = action.payload"]
    return body + ["else:", f"    action = {last}" if last else "    raise AssertionError('no part holds k')",
                   "picked = action.payload"]


class _Writer:
    """The parts ``legal_function`` and ``pick_function`` share: bounds, room per limit, the most
    of one variety that fits, the table of what the groups of several allow."""

    def __init__(self, choice, caps: list[Capacity], s: dict, x: ExprCompiler, env: Env):
        self.choice, self.caps, self.s, self.x, self.env = choice, caps, s, x, env
        self.me = x.constant(choice, s["label"])
        self.one = x.constant(choice.singles, f"{s['label']}_one_of")
        self.lo, self.hi = x.gen(s["lo"], env), x.gen(s["hi"], env)
        lo, hi = self.lo, self.hi
        self.hi_text = str(max(hi.value, 0)) if hi.known else "hi"
        self.first = str(max(lo.value, 1)) if lo.known else "(lo if lo > 1 else 1)"
        self.nothing = ("1" if lo.value <= 0 else "0") if lo.known else None  # (None: known as it runs)
        self.kept_all = hi.known and hi.value <= SINGLES_KEPT  # every count that fits has its action made
        self.rooms: list[str] = []  # the room each limit has left, as code
        self.reads: dict[str, int] = {"S": 0, "D": 0}  # how often the lines read a count of the source, the destination
        self.unpacked: set[str] = set()  # those read into locals first (``twice``)
        # the limits whose room the code names (``r0``...): all, unless the limits are kept (none is tested)
        self.named = self.rooms_read() if choice.limits_kept else set(range(len(caps)))

    def start(self, aliased: list[str], over: str, operands_set: bool = False) -> list[str]:
        choice, x, s, env, lo, hi = self.choice, self.x, self.s, self.env, self.lo, self.hi
        possible = set(x.possible(s["dest"], env))
        body = [] if operands_set else list(operands(s, x, env))
        if choice.may_alias:  # within one zone the limits are not room left: judge each choice
            body += ["if S is D:", *(f"    {line}" for line in aliased)]
        for zone in sorted(self.unpacked, reverse=True):  # (S, then D)
            body.append(f"{', '.join(self.local(zone, i) for i in range(len(x.layout.variety_names)))} = {zone}")
        if not lo.known:  # a bound known only as the game runs
            body.append(f"lo = max({lo}, 0)")
        if not hi.known:  # (a bound below 0 allows no card, as 0 does)
            body.append(f"hi = max(_at_most_chosen({hi}), 0)")
        for c, (idx, bound) in enumerate(self.caps):
            # Varieties the zone can never hold are 0 there: counting all that it can is sum().
            counted = x.zone_count(name("D"), idx).text if set(idx) == possible and "D" not in self.unpacked \
                else " + ".join(self.read("D", i) for i in idx) or "0"
            room = f"{bound} - ({counted})" if " + " in counted and counted[0] != "(" else f"{bound} - {counted}"
            self.rooms.append(room)
            if c in self.named:
                body.append(f"r{c} = {room}")
        if self.rooms and not choice.limits_kept:  # over a limit: nothing helps
            body += [f"if {' or '.join(f'r{c} < 0' for c in range(len(self.rooms)))}:", f"    {over}"]
        return body

    def twice(self, lines: Callable[[], list[str]]) -> list[str]:
        """``lines()``, written once to count how often they read the counts of the source and of
        the destination (``read``), then again with each zone whose counts are read at least
        half as many times as the game has varieties, and once more, unpacked into locals first
        (``s0, s1, ... = S``): a local is read by one instruction of Python's, ``S[1]`` by three
        (two saved a read); the unpacking costs one per variety, and two."""
        lines()
        varieties = len(self.x.layout.variety_names)
        self.unpacked = {zone for zone, n in self.reads.items() if 2 * n >= varieties + 2}
        self.rooms = []
        return lines()

    def read(self, zone: str, i: int) -> str:
        """The code of the count of variety ``i`` in ``zone``, "S" (the source) or "D" (the
        destination), counted in ``reads``."""
        self.reads[zone] += 1
        return self.local(zone, i) if zone in self.unpacked else f"{zone}[{i}]"

    @staticmethod
    def local(zone: str, i: int) -> str:
        return f"{zone.lower()}{i}"

    def rooms_read(self) -> set[int]:
        """The limits whose room the code reads: those of a variety whose most is worked out by
        ``most``, those a table reads by room rather than by the count of its one variety, those
        the groups of several read."""
        choice, read = self.choice, set()
        for i in choice.alone:
            if self.table_reads(i) is None:
                read.update(choice.limits_of[i])
            else:
                read.update(c for c in choice.limits_of[i] if self.caps[c][0] != (i,))
        read.update(c for group in choice.shared for i in group for c in choice.limits_of[i])
        return read

    def room(self, c: int) -> str:
        """The room limit ``c`` has left: its name when the code has it, else worked out."""
        return f"r{c}" if c in self.named else f"({self.rooms[c]})"

    def most(self, i: int, else_zero: str | None = None) -> list[str]:
        """``m``: the most cards of lone variety ``i`` that fit (lines under ``if m:``)."""
        names = self.x.layout.variety_names
        body = [f"m = {self.read('S', i)}  # {names[i]}", "if m:",
                f"    if m > {self.hi_text}:", f"        m = {self.hi_text}"]
        for c in self.choice.limits_of[i]:
            body += [f"    if m > {self.room(c)}:", f"        m = {self.room(c)}"]
        return body if else_zero is None else [f"{else_zero} = 0", *body]

    def guarded(self, lines: Callable[[bool], list[str]]) -> list[str]:
        """``lines(True)``, which may read a table by how many cards of a variety the source holds,
        falling back on ``lines(False)``, which does not, when the source holds more of one than
        the game has (``State.set_zone`` can make such a position; its table then has no entry:
        an IndexError, which costs nothing until it happens). Only ``lines(False)`` when no
        table is read so."""
        if not any(self.most_held_of(i) is not None for i in self.choice.alone):
            return lines(False)
        return ["try:", *(f"    {line}" for line in lines(True)),
                "except IndexError:  # (the source holds more of a variety than the game has: set_zone)",
                *(f"    {line}" for line in lines(False))]

    def most_held_of(self, i: int) -> Optional[int]:
        """How many cards of variety ``i`` the game has, when its table is read by how many the
        source holds (a known number, and a table not too large); else None."""
        reads = self.table_reads(i)
        held = self.choice.most_held[i] if self.choice.most_held and reads is not None else None
        if held is None:
            return None
        entries = held + 1
        for c in self.choice.limits_of[i]:
            entries *= self.caps[c][1] + 1
        return held if entries <= TABLE_ENTRIES else None

    def most_by_table(self, i: int, held_read: bool = False) -> Optional[list[str]]:
        """``m``: the most cards of lone variety ``i`` that fit, read from a table (none if there is
        no table to make: a bound known only as the game runs, more than two limits, or limits too
        large to tabulate). A limit of ``i`` alone is read by how many the destination holds
        (``D[i]``), any other by its room; with ``held_read``, when the game has a known number
        of cards of ``i`` (``most_held_of``), by how many the source holds too: ``m =
        table[D[i]][S[i]]`` (under ``guarded``). The limits hold here (they are kept by the
        rules, or their test turned the choice away)."""
        reads = self.table_reads(i)
        if reads is None:
            return None
        limits = tuple((self.caps[c][1], by_count) for c, (_, by_count) in zip(self.choice.limits_of[i], reads))
        held = self.most_held_of(i) if held_read else None
        hi = max(self.hi.value, 0)
        name_ = self.x.constant(most_table(hi, limits, held), "most", f"_most_table({hi}, {limits}, {held})")
        index = "".join(f"[{self.read('D', i) if by_count else self.room(c)}]"
                        for c, (_, by_count) in zip(self.choice.limits_of[i], reads))
        variety = self.x.layout.variety_names[i]
        if held is not None:
            return [f"m = {name_}{index}[{self.read('S', i)}]  # {variety}"]
        return [f"m = {self.read('S', i)}  # {variety}", f"c = {name_}{index}", "if m > c:", "    m = c"]

    def table_reads(self, i: int) -> Optional[list[tuple[str, bool]]]:
        """How ``most_by_table`` reads its table for variety ``i``: per limit, the code of its index
        and whether it is a count (``D[i]``) rather than a room; None when there is no table. (The
        code as it would be read without ``unpack``: ``most_by_table`` writes its own reads.)"""
        limits = self.choice.limits_of[i]
        bounds = [self.caps[c][1] for c in limits]
        if not self.hi.known or not limits or len(limits) > 2 or max(bounds) > MOST_TABLED:
            return None
        return [(f"D[{i}]", True) if self.caps[c][0] == (i,) else (f"r{c}", False) for c in limits]

    def shared(self) -> list[str]:
        """``found``: what the groups of several varieties allow. It depends only on how many of
        each the source holds, the room of the limits they count in and the bounds: a table of
        it, filled as positions come (``choice.known``)."""
        choice, lo, hi = self.choice, self.lo, self.hi
        names = self.x.layout.variety_names
        members = [i for group in choice.shared for i in group]
        touched = sorted({c for i in members for c in choice.limits_of[i]})
        key = ", ".join([self.read("S", i) for i in members] + [self.room(c) for c in touched]
                        + ([] if lo.known else ["lo"]) + ([] if hi.known else ["hi"]))
        return [f"if {' or '.join(self.read('S', i) for i in members)}:  # {', '.join(names[i] for i in members)}",
                f"    key = ({key},)" if "," not in key else f"    key = ({key})",
                f"    found = {self.me}.known.get(key)",
                "    if found is None:",
                f"        allowed = {self.me}.shared_choices(S, {self.first}, {self.hi_text}, "
                f"[{', '.join(self.room(c) for c in range(len(self.rooms)))}], [])",
                f"        found = {self.me}.remember(key, allowed)"]
