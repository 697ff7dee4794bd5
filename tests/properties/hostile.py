"""What the hostile-input properties share (tests/properties/test_hostile_input.py): the
oracle (``outcome_of_text``, ``outcome_of_ir``: a clean error that says where, or a game that
plays), the host game generated fragments go into, and the strategies: text from the grammar,
damaged real files, IR documents, hostile sizes.

The oracle's outcomes are strings, for ``hypothesis.event`` (``--hypothesis-show-statistics``
shows how many inputs got how far): "syntax error", "semantic error", "played", "runtime error".
Any other exception propagates: that is the failure these properties look for.
"""

from __future__ import annotations

import json
import os
import random
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import LarkStrategy
from lark import Lark
from lark.grammar import NonTerminal

import meeple
from meeple.dsl import RulesError, RulesSyntaxError, ir_from_text
from meeple.dsl.diagnostics import RuleRuntimeError, source_lines
from meeple.dsl.limits import MAX_NUMBER
from meeple.dsl.parse import grammar
from meeple.dsl.schema import validate_ir

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted((ROOT / "games").glob("*.rules"))
VARIANTS = sorted((ROOT / "games" / "variants").glob("*.rules"))
PLAY_STEPS = 40  # random steps played of every game that loads

# The host of generated fragments: a small valid game that uses most of the language.
HOST = '''\
game "Mini"
players 2..3
max_steps 300

param goal = 6 in 3..12 "spaces to the finish"

track lane {
  spaces goal
  tiles { 1 mud, (goal - 1) grass }
}

pieces runner on lane { red blue }
enum shade { light dark }

zone deck hidden
zone pile public
zone hand per player private

cards chip in deck {
  4 red_chip { runner = red, tone = light }
  4 blue_chip { runner = blue, tone = dark, fast }
}

var roll = 0
var leader = none
var points per player = 0

define bonus(c) = if c.fast then 1 else 0
define ahead(r) = pos(r) >= max(pos(x) for x in runner)

setup {
  set current = random player
  for p in player {
    deal 2 from deck to hand(p)
  }
}

turn {
  set roll = random 1..3
  choose play: 1 card from hand(current) to pile
  for c in pile {
    move c.runner by roll + bonus(c) stopping at mud
    if ahead(c.runner) {
      set points(current) = points(current) + 1
      set leader = current
    }
  }
  move all from pile to deck
  refill hand(current) to 2 from deck
  run extra
}

phase extra {
  choose nudge by current {
    pass { }
    push r in runner where not finished(r) and roll == 1 { move r by 1 }
  }
}

end when finishers(lane) >= 1

score(p) = points(p)
tiebreak(p) = count(hand(p))
report "first" = at_place(lane, 1)
report "tones" = count(deck where tone == dark)
invariant points_never_negative: all(points(p) >= 0 for p in player)
'''
# Where fragments go in the host: a block of statements into the turn, an expression in
# place of the end test, a declaration at the end.
HOST_TURN = "turn {\n"
HOST_END = "end when finishers(lane) >= 1"
HOST_NAMES = ["goal", "lane", "runner", "red", "blue", "shade", "light", "dark", "deck", "pile", "hand", "chip",
              "red_chip", "blue_chip", "tone", "fast", "roll", "leader", "points", "bonus", "ahead", "extra",
              "mud", "grass", "current", "players", "p", "c", "r", "x"]
BUILTIN_NAMES = ["count", "pos", "finished", "place", "at_place", "finishers", "min", "max", "abs", "sum", "any",
                 "all", "was", "col", "row", "neighbour", "opposite", "open", "joined", "includes", "N", "E", "S",
                 "W"]
ODD_TEXT = ["\x00", "\x01", "\x07", "\x08", "\t", "\x0b", "\x0c", "\r", "\r\n", "\x1b", "\x7f", "\x85", "\xa0",
            "\u00ad", "\u200b", "\u200e", "\u202e", "\u2028", "\u2029", "\ufeff", "\ufffd", "\uffff",
            "\U0001f407", "e\u0301", "\u0130", "\u212a", "\u00b9", "\u0663", "\uff11", "\"", "#", "{", "}", "(",
            ")", "[", "]", "..", ".", "=", "\n", "\\", "'", "`", "$", "@"]
SURROGATES = ["\ud800", "\udfff", "\udc80", "\ud83d"]  # only in str passed to ir_from_text: no file holds them


# ---- the oracle ------------------------------------------------------------------------------

def assert_says_where(e: RulesError, text: str | None, json_path: bool = False) -> None:
    """Every diagnostic of ``e`` gives a line and column (within ``text`` when given), or, for IR
    read as JSON, a JSON path; and the error renders."""
    assert e.diagnostics, "a RulesError carries at least one diagnostic"
    for d in e.diagnostics:
        if json_path and d.path:
            assert d.path.startswith("$"), d
            continue
        assert d.line >= 1 and d.col >= 1, f"no position: {d}"
        if text is not None and d.file == e.diagnostics[0].file and not e.texts:
            assert d.line <= len(source_lines(text)), d
    assert str(e)  # renders, carets and all


def play(game: Any, seed: int) -> str:
    """A few random steps of ``game``, looking at each state as a client would."""
    rng = random.Random(seed)
    players = rng.randint(game.min_players, game.max_players)
    state = game.new_state(players, seed=seed)
    for _ in range(PLAY_STEPS):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        if not actions:  # stuck: a flaw of the rules (``meeple fuzz`` reports it), not of the engine
            break
        state.apply(rng.choice(actions))
        game.report_values(state)
    state.observation(0)
    state.scores()
    state.winners()
    game.broken_invariants(state)
    json.dumps(state.to_json())
    return "played"


def load_and_play(path: Path, text: str | None, seed: int, json_path: bool = False) -> str:
    """``meeple.load`` then a few random steps; a rule failing at run time is a clean error."""
    try:
        game = meeple.load(str(path))
    except RulesError as e:
        assert_says_where(e, text, json_path)
        return "syntax error" if isinstance(e, RulesSyntaxError) else "semantic error"
    try:
        return play(game, seed)
    except RuleRuntimeError as e:
        assert str(e)
        return "runtime error"


def outcome_of_text(text: str, path: Path, seed: int, schema: str = "") -> str:
    """Rules text through the whole pipeline: parse and lower (with ``schema``, the IR checked
    valid against the schema: the "document", or its generated "statement" or "expression"),
    check, compile, play. Text that cannot be a file (lone surrogates) goes to ``ir_from_text``
    only."""
    try:
        text.encode("utf-8")
        writable = True
    except UnicodeEncodeError:
        writable = False
    if schema or not writable:
        try:
            ir = ir_from_text(text, str(path))
        except RulesError as e:
            assert_says_where(e, text)
            return "syntax error" if isinstance(e, RulesSyntaxError) else "semantic error"
        if schema:
            assert schema_problems(ir, schema) == [], "lowered IR must match the schema"
        if not writable:
            return "parsed"
    path.write_text(text, encoding="utf-8")
    return load_and_play(path, text, seed)


def outcome_of_ir(doc: Any, path: Path, seed: int) -> str:
    """An IR document read as JSON: rejected naming its JSON path, or compiled and played."""
    path.write_text(json.dumps(doc), encoding="utf-8")
    return load_and_play(path, None, seed, json_path=True)


# ---- text from the grammar ---------------------------------------------------------------------

def _pad(s: str) -> str:
    return f" {s} "


def numbers() -> st.SearchStrategy[str]:
    return st.one_of(st.integers(0, 12), st.integers(0, 10**6), st.sampled_from([0, 1, MAX_NUMBER, MAX_NUMBER + 1,
                                                                                   10**100])).map(str) | \
        st.just("9" * 5000)


def names(extra: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(extra + BUILTIN_NAMES),
                     st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True))


@lru_cache(maxsize=1)
def grammar_source() -> Lark:
    """dsl/rules.lark as the parser reads it, not from lark's cache (which keeps no grammar to generate from)."""
    import meeple.dsl.parse
    return Lark.open("rules.lark", rel_to=meeple.dsl.parse.__file__, parser="lalr", maybe_placeholders=False)


class _BoundedLark(LarkStrategy):
    """``from_lark``'s strategy, bounded: past ``DEPTH`` nested rules, or ``TOKENS`` tokens, each
    rule takes its shortest expansion. (Drawn freely, this grammar's expressions nest past the
    depth Hypothesis allows a test case, so that most draws are thrown away, and its nested
    lists make files of hundreds of kilobytes.)"""

    DEPTH = 10
    TOKENS = 160

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.depth = 0
        self.tokens = 0
        self.shortest = {name: s.elements[0] for name, s in self.nonterminal_strategies.items()}

    def do_draw(self, data: Any) -> str:
        self.depth = self.tokens = 0
        return super().do_draw(data)

    def draw_symbol(self, data: Any, symbol: Any, draw_state: list[str]) -> None:
        if isinstance(symbol, NonTerminal) and (self.depth >= self.DEPTH or self.tokens >= self.TOKENS):
            for e in self.shortest[symbol.name]:
                self.draw_symbol(data, e, draw_state)
            return
        self.tokens += 1
        self.depth += 1
        try:
            super().draw_symbol(data, symbol, draw_state)
        finally:
            self.depth -= 1


@lru_cache(maxsize=None)
def grammar_text(start: str) -> st.SearchStrategy[str]:
    """Strings of the rules grammar from rule ``start`` (``hypothesis.extra.lark``), every token
    padded with spaces (so that two names stay two names), names of the host game mostly,
    numbers small mostly."""
    lark = grammar_source()
    terminals, rules, ignored = lark.grammar.compile([start], ())
    used = {t.name for t in terminals} | set(ignored)
    explicit: dict[str, st.SearchStrategy[str]] = {
        t.name: st.just(_pad(t.pattern.value)) for t in lark.terminals if t.pattern.type == "str"}
    explicit.update(
        NAME=names(HOST_NAMES).map(_pad),
        INT=numbers().map(_pad),
        STRING=st.sampled_from(["Mini", "x", "../hare.rules", "hare.rules", "", "a b", "é"]).map(
            lambda s: f' "{s}" '),
        VISIBILITY=st.sampled_from(["public", "private", "hidden"]).map(_pad),
        WS=st.sampled_from([" ", "\n", "\t", "\r\n", "\x0c"]),
        COMMENT=st.sampled_from(["# a note\n", "#\n"]),
    )
    explicit = {k: v for k, v in explicit.items() if k in used}
    return _BoundedLark(lark, start, explicit, st.characters(codec="utf-8"))


@st.composite
def generated_rules(draw: st.DrawFn) -> tuple[str, str]:
    """A whole file from the grammar, or a fragment from it put into the host game; and where
    the generated part lands in the IR ("statement", "expression" or "document")."""
    where = draw(st.sampled_from(["file", "statements", "expression", "declaration"]))
    if where == "file":
        return draw(grammar_text("start")), "document"
    if where == "statements":
        block = draw(grammar_text("block"))
        return HOST.replace(HOST_TURN, HOST_TURN + "  if roll > 0 " + block + "\n", 1), "statement"
    if where == "expression":
        return HOST.replace(HOST_END, "end when " + draw(grammar_text("expr")), 1), "expression"
    return HOST + "\n" + draw(grammar_text("item")) + "\n", "document"


@lru_cache(maxsize=None)
def part_validator(kind: str) -> Any:
    """The schema's validator (dsl/schema.py) for one union of its ``$defs`` ("stmt", "expr")."""
    from meeple.dsl.schema import validator
    return type(validator())({"$defs": schema()["$defs"], "$ref": f"#/$defs/{kind}"})


def schema_problems(ir: dict, part: str) -> list:
    """What the schema says of the generated part of ``ir`` (the host's other parts are valid:
    checking them again each time would double the time of the property)."""
    if part == "statement":
        return list(part_validator("stmt").iter_errors(ir["turn"][0]))
    if part == "expression":
        return list(part_validator("expr").iter_errors(ir["end"][0]["test"]))
    return validate_ir(ir, "generated.rules")


# ---- damaged real files ---------------------------------------------------------------------------

@lru_cache(maxsize=None)
def tokens(text: str) -> list[tuple[int, int, str]]:
    """(start, end, type) of every token of a valid rules file, as lark's lexer finds them."""
    return [(t.start_pos, t.end_pos, t.type) for t in grammar().lex(text, dont_ignore=True)
            if t.type not in ("WS", "COMMENT")]


def literal_tokens() -> list[str]:
    """Every keyword and symbol of the language."""
    return sorted(t.pattern.value for t in grammar().terminals if t.pattern.type == "str")


@st.composite
def damaged(draw: st.DrawFn, text: str, surrogates: bool = False) -> str:
    """``text`` (a valid rules file) after one to four mutations: tokens dropped, duplicated,
    swapped or retyped, the text cut short, odd characters put in."""
    spans = tokens(text)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["drop", "duplicate", "swap", "retype", "cut", "insert", "insert"]))
        if kind == "cut" or not spans:
            text = text[:draw(st.integers(0, len(text)))]
            spans = [s for s in spans if s[1] <= len(text)]
            continue
        i = draw(st.integers(0, len(spans) - 1))
        a, b, _ = spans[i]
        if kind == "drop":
            j = min(len(spans) - 1, i + draw(st.integers(0, 3)))
            text = text[:a] + text[spans[j][1]:]
        elif kind == "duplicate":
            at = spans[draw(st.integers(0, len(spans) - 1))][0]
            text = text[:at] + text[a:b] + " " + text[at:]
        elif kind == "swap":
            (a, b, _), (c, d, _) = sorted([spans[i], spans[draw(st.integers(0, len(spans) - 1))]])
            if b <= c:
                text = text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
        elif kind == "retype":
            other = draw(st.one_of(st.sampled_from(literal_tokens()), names(HOST_NAMES), numbers(),
                                   st.sampled_from(['"x"', '"', "none", "-1"])))
            text = text[:a] + other + text[b:]
        else:
            at = draw(st.integers(0, len(text)))
            odd = ODD_TEXT + (SURROGATES if surrogates else [])
            junk = draw(st.sampled_from(odd) | st.text(st.characters(codec="utf-8"), min_size=1, max_size=3))
            text = text[:at] + junk + text[at:]
        spans = [(m.start(), m.end(), "?") for m in PLAIN_TOKEN.finditer(text)]  # damaged text need not lex
    return text


PLAIN_TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_0-9]+|\.\.|[=!<>]=|[^\s#]')


# ---- IR documents ------------------------------------------------------------------------------

def schema() -> dict:
    return json.loads((ROOT / "meeple" / "dsl" / "schema.json").read_text())


class IRStrategies:
    """IR documents from the schema. hypothesis-jsonschema's ``from_schema`` cannot take the IR
    schema whole: its ``$ref``s are recursive (an expression holds expressions), and, with this
    version of Hypothesis, it fails on any object schema (``from_object_schema`` uses a Hypothesis
    internal that is gone). So ``from_schema`` makes the leaves it supports (integers, strings,
    names, positions, the value of an attribute) and objects, ``$ref``s and recursion are composed
    here, following the schema, to a bounded depth."""

    LEAF_DEPTH = 2

    def __init__(self) -> None:
        self.schema = schema()
        self.defs = self.schema["$defs"]
        self.cache: dict[tuple[str, int], st.SearchStrategy] = {}

    def leaf(self, s: dict) -> st.SearchStrategy:
        from hypothesis_jsonschema import from_schema
        if s.get("pattern") == "^[A-Za-z_][A-Za-z0-9_]*$":  # names: mostly ones the host declares
            return st.sampled_from(HOST_NAMES + BUILTIN_NAMES) | from_schema(s)
        if s.get("type") == "integer":
            return st.integers(-3, 12) | from_schema(s)
        return from_schema(s)

    def of(self, s: dict, depth: int) -> st.SearchStrategy:
        if "$ref" in s:
            name = s["$ref"].rsplit("/", 1)[1]
            key = (name, depth)
            if key not in self.cache:
                self.cache[key] = st.deferred(lambda: self.of(self.defs[name], depth - 1))
            return self.cache[key]
        if "anyOf" in s:
            return st.one_of([self.of(x, depth) for x in s["anyOf"]])
        if "allOf" in s:  # a union: one of its kinds (leaves only, past the depth)
            kinds = s["properties"]["node"]["enum"]
            if depth <= 0:
                kinds = [k for k in kinds if not _refs_in(self.defs[k])] or kinds[:1]
            return st.one_of([self.of({"$ref": f"#/$defs/{k}"}, depth) for k in kinds])
        if s.get("type") == "object":
            props = s["properties"]
            required = {k: self.of(v, depth) for k, v in props.items() if k in s.get("required", ())}
            optional = {k: self.of(v, depth) for k, v in props.items() if k not in s.get("required", ())}
            return st.fixed_dictionaries(required, optional=optional)
        if s.get("type") == "array" and _refs_in(s):
            return st.lists(self.of(s["items"], depth), max_size=2 if depth > 0 else 1)
        return self.leaf(s)

    def document(self) -> st.SearchStrategy[dict]:
        return self.of({k: v for k, v in self.schema.items() if k != "$defs"}, self.LEAF_DEPTH)


def _refs_in(s: Any) -> bool:
    return "$ref" in json.dumps(s)


def ir_paths(doc: Any, path: tuple = ()) -> list[tuple]:
    """The JSON path of every value in ``doc``."""
    out = [path]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += ir_paths(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += ir_paths(v, (*path, i))
    return out


def hostile_value() -> st.SearchStrategy[Any]:
    """A value that does not belong where it is put."""
    return st.one_of(
        st.sampled_from([None, True, False, 0, -1, -(2**31), 2**31, MAX_NUMBER, MAX_NUMBER + 1, 10**100, 1.5,
                         2.0, float("inf"), "", "x", "zzz_unknown", "players", "current", "none", [], {}, [[]],
                         [0, 0, 0, 0], [1, 1, 1, 1, 7], {"node": "int", "value": 1}, {"node": "nope"},
                         {"node": "name", "id": "zzz"}]),
        st.sampled_from(HOST_NAMES + BUILTIN_NAMES),
        st.integers(),
        st.text(max_size=5),
    )


@st.composite
def mutated_ir(draw: st.DrawFn, doc: dict) -> dict:
    """``doc`` (a valid game's IR) with one to four values replaced, keys deleted or added,
    list items dropped or repeated, at random JSON paths."""
    doc = json.loads(json.dumps(doc))
    for _ in range(draw(st.integers(1, 4))):
        paths = [p for p in ir_paths(doc) if p]
        path = draw(st.sampled_from(paths))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        kind = draw(st.sampled_from(["replace", "replace", "delete", "add", "repeat"]))
        if kind == "replace":
            parent[key] = draw(hostile_value())
        elif kind == "delete":
            del parent[key]
        elif kind == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "node", "at", "name", "value", "args"]))] = draw(hostile_value())
        elif isinstance(parent, list):
            parent.insert(key, json.loads(json.dumps(parent[key])))
    return doc


def host_ir() -> dict:
    return ir_from_text(HOST, "mini.rules")


# ---- hostile sizes ---------------------------------------------------------------------------------

def sized(kind: str, n: int) -> str:
    """The host game with one thing made ``n`` big."""
    makers: dict[str, Callable[[int], str]] = {
        "deck": lambda n: HOST.replace("4 red_chip", f"{n} red_chip", 1),
        "track": lambda n: HOST.replace("spaces goal\n  tiles { 1 mud, (goal - 1) grass }", f"spaces {n}", 1),
        "number": lambda n: HOST.replace("var roll = 0", f"var roll = {n}", 1),
        "parens": lambda n: HOST.replace("var roll = 0", "var roll = " + "(" * n + "0" + ")" * n, 1),
        "ifs": lambda n: HOST.replace(HOST_TURN, HOST_TURN + "if roll > 0 {\n" * n + "}\n" * n, 1),
        "nots": lambda n: HOST.replace(HOST_END, "end when " + "not " * n + "finishers(lane) >= 1", 1),
        "sum": lambda n: HOST.replace("var roll = 0", "var roll = " + " + ".join(["1"] * max(n, 1)), 1),
        "else_if": lambda n: HOST.replace(HOST_TURN, HOST_TURN + "if roll == 0 { } " + "else if roll == 1 { } " * n,
                                          1),
        "define_chain": lambda n: HOST + "define d0 = roll\n" + "".join(
            f"define d{i} = d{i - 1} + 1\n" for i in range(1, n + 1)) + f"report \"d\" = d{n}\n",
        "define_doubling": lambda n: HOST + "define d0 = roll\n" + "".join(
            f"define d{i} = d{i - 1} + d{i - 1}\n" for i in range(1, n + 1)) + f"report \"d\" = d{n}\n",
        "phase_chain": lambda n: HOST.replace("  run extra\n", "  run p0\n", 1) + "".join(
            f"phase p{i} {{ run p{i + 1} }}\n" for i in range(n)) + f"phase p{n} {{ run extra }}\n",
        "aggregates": lambda n: HOST.replace("var roll = 0", "var roll = 0\nvar deep = 0", 1).replace(
            "  run extra\n", "  run extra\n  set deep = " + "sum(roll + " * n + "1" + " for c in pile)" * n + "\n", 1),
        "range": lambda n: HOST.replace("set roll = random 1..3", f"set roll = random 1..{n}", 1),
        "line": lambda n: HOST.replace("var roll = 0", "var roll = 0" + " " * n, 1),
        "unknown_names": lambda n: HOST + "".join(f"report \"u{i}\" = unknown{i}\n" for i in range(n)),
    }
    return makers[kind](n)


SIZE_KINDS = ["deck", "track", "number", "parens", "ifs", "nots", "sum", "else_if", "define_chain",
              "define_doubling", "phase_chain", "aggregates", "range", "line", "unknown_names"]


SLOW = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large, HealthCheck.large_base_example,
        HealthCheck.function_scoped_fixture]
# (the tools' property runs 'meeple fuzz', itself a Hypothesis search, inside its own)
SLOW += [h for h in (getattr(HealthCheck, "nested_given", None),) if h is not None]


def hunt(test):
    """The profile's settings, slow generation allowed; ``MEEPLE_HOSTILE_EXAMPLES`` examples if set
    (``make hunt`` sets it)."""
    count = os.environ.get("MEEPLE_HOSTILE_EXAMPLES")
    extra = {"max_examples": int(count)} if count else {}
    return settings(suppress_health_check=SLOW, deadline=None, **extra)(test)
