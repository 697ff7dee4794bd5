"""docs/language.md is the reference of the rules language; these tests hold it to the grammar
(dsl/rules.lark), the built-ins (dsl/symbols.py) and the checker, so that it cannot drift.

How the doc is read:

* Sections are its markdown headings. A comment ``<!-- grammar: rule rule ... -->`` in a section
  names the grammar rules (and ``-> alias`` names) the section documents. Every rule and alias of
  the grammar is named in some section, and every name there is a rule or alias of the grammar
  (so a rename is caught). The right examples of a section (see below) must use each construct it
  names that a parse tree can show (a ``?rule`` that the parser always inlines cannot be: it is
  only listed), and a section that names any must have one.
* Examples are fenced code blocks. A block marked ``rules-file NAME`` is a whole game: it must
  pass ``meeple validate`` (load and compile) and play to its end between random players; it is
  saved as ``NAME.rules`` next to the others, so that fragments (and other files, with
  ``extends "NAME.rules"``) can build on it. A block marked ``rules`` is a fragment, its info
  string saying what it is: ``decl`` (declarations; the default), ``stmt`` (statements) or
  ``expr`` (expressions, one per unindented line). A fragment that also names a rules-file is
  checked in that game: as a variant of it (``extends "NAME.rules"``, statements as
  ``replace turn { ... }``, each expression as a ``report``), loaded and compiled like a file. A
  fragment without a game is only parsed (statements as the body of ``turn { }``).
* A comment ``# error: MESSAGE`` in an example says that it is wrong: checking it must fail, with
  an error whose message contains MESSAGE (for a fragment only parsed, a syntax error). Every
  other example, a *right* one, must check without errors (warnings are allowed).
* Every built-in query of ``BUILTINS`` and route clause of ``ROUTE_CLAUSES`` has a table row that
  starts with its signature (``| `neighbour(t, e)` |``, ``| `stops(t, e) = ...` |``) with as many
  arguments as it takes; the aggregates, ``players``, ``current`` and ``was`` are shown too.
* Every keyword and symbol of the grammar is used in a right example, and the list of keywords
  that follows ``<!-- keywords -->`` is exactly the grammar's.
* Links within the doc (``[...](#anchor)``) lead to its headings.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import pytest
from lark import Tree

import meeple
from meeple.dsl import RulesError
from meeple.dsl.check import MAX_CARDS, MAX_PLAYERS, MAX_SPACES, MAX_STEPS, WAS
from meeple.dsl.parse import grammar, parse
from meeple.dsl.symbols import AGGREGATES, BUILTINS, KEYWORD_NAMES, ROUTE_CLAUSES

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "language.md"
LARK = ROOT / "meeple" / "dsl" / "rules.lark"
KINDS = ("decl", "stmt", "expr")
EXPECTED_ERROR = re.compile(r"#\s*error:\s*(.+?)\s*$", re.M)
GRAMMAR_COMMENT = re.compile(r"<!--\s*grammar:(.*?)-->", re.S)
FENCE = re.compile(r"^```")


# ---- the grammar ----------------------------------------------------------------------------


def grammar_names() -> tuple[set[str], set[str]]:
    """(the rules of dsl/rules.lark, the aliases its alternatives are given with ``-> name``),
    read from the file's text."""
    text = re.sub(r"//[^\n]*", "", LARK.read_text(encoding="utf-8"))
    rules = set(re.findall(r"^[?!]*([a-z_][a-z0-9_]*)\s*:", text, re.M))
    aliases = set(re.findall(r"->\s*([a-z_][a-z0-9_]*)", text))
    return rules, aliases


def tree_names() -> set[str]:
    """The names that nodes of a parse tree can have: each rule's own name, unless all of its
    alternatives are inlined (``?rule`` with one child) or aliased, and every alias."""
    out = set()
    for r in grammar().rules:
        if r.origin.name.startswith("_"):  # lark's helper rules for * and +, always inlined
            continue
        if r.alias:
            out.add(str(r.alias))
        elif not (r.options.expand1 and len(r.expansion) == 1):
            out.add(r.origin.name)
    return out


def keywords() -> set[str]:
    """Every string that a terminal of the grammar matches: keywords and symbols (not NAME, INT, ...,
    which are patterns)."""
    text = re.sub(r"//[^\n]*", "", LARK.read_text(encoding="utf-8"))
    out: set[str] = set()
    for definition in re.findall(r"^[A-Z_]+\s*:(.*)$", text, re.M):
        if not definition.strip().startswith("/"):
            out.update(re.findall(r'"([^"]+)"', definition))
    return out


# ---- the doc ----------------------------------------------------------------------------------


@dataclass
class Section:
    heading: str
    line: int
    grammar: list[str] = field(default_factory=list)
    examples: list["Example"] = field(default_factory=list)
    text: str = ""  # the prose, without the code blocks


@dataclass
class Example:
    line: int  # the doc's line of the example's first line of code
    lang: str
    words: list[str]
    code: str
    section: Section

    @property
    def is_file(self) -> bool:
        return self.lang == "rules-file"

    @property
    def kind(self) -> str:
        return "file" if self.is_file else next((w for w in self.words if w in KINDS), "decl")

    @property
    def context(self) -> Optional[str]:
        """The rules-file a fragment is checked in, if any."""
        return None if self.is_file else next((w for w in self.words if w not in KINDS), None)

    @property
    def name(self) -> str:
        """The file name of a rules-file example."""
        return (self.words[0] if self.words else f"example-{self.line}") + ".rules"

    @property
    def expected(self) -> list[str]:
        return EXPECTED_ERROR.findall(self.code)

    def where(self) -> str:
        return f"docs/language.md:{self.line} ({self.section.heading})"


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def read_doc() -> tuple[list[Section], list[Example], str]:
    """The sections, the examples, and all the code of the doc (inline code and code blocks)."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    sections = [Section("(top)", 1)]
    examples: list[Example] = []
    code: list[str] = []
    prose: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if FENCE.match(line):
            info = line[3:].split()
            start = i + 1
            i += 1
            while i < len(lines) and not FENCE.match(lines[i]):
                i += 1
            body = "\n".join(lines[start:i]) + "\n"
            code.append(body)
            if info and info[0].startswith("rules"):
                ex = Example(start + 1, info[0], info[1:], body, sections[-1])
                examples.append(ex)
                sections[-1].examples.append(ex)
        elif re.match(r"#{1,6} ", line):
            sections.append(Section(line.lstrip("#").strip(), i + 1))
        else:
            prose.append((i, line))
        i += 1
    # comments may run over several lines: read them from the prose of each section
    text_by_section: dict[int, list[str]] = {}
    s = 0
    for i, line in prose:
        while s + 1 < len(sections) and sections[s + 1].line <= i + 1:
            s += 1
        text_by_section.setdefault(s, []).append(line)
        code.extend(re.findall(r"`([^`\n]+)`", line))
    for s, text in text_by_section.items():
        sections[s].text = "\n".join(text)
        for names in GRAMMAR_COMMENT.findall(sections[s].text):
            sections[s].grammar.extend(names.split())
    return sections, examples, "\n".join(code)


SECTIONS, EXAMPLES, CODE = read_doc()
FILES = [e for e in EXAMPLES if e.is_file]
FRAGMENTS = [e for e in EXAMPLES if not e.is_file]


# ---- checking an example --------------------------------------------------------------------------


def expressions(code: str) -> list[tuple[int, str]]:
    """The expressions of an ``expr`` block: (line offset, text); an indented line continues."""
    out: list[tuple[int, list[str]]] = []
    for n, line in enumerate(code.splitlines()):
        if line.strip() and not line[0].isspace() and not line.startswith("#"):
            out.append((n, [line]))
        elif out:
            out[-1][1].append(line)
    return [(n, "\n".join(text)) for n, text in out]


def wrapped(ex: Example) -> tuple[str, int]:
    """The example as the text of a file (a variant of its game, if it has one), and the number
    of lines put before its code."""
    if ex.kind == "stmt":
        text, before = ("replace turn {\n" if ex.context else "turn {\n") + ex.code + "}\n", 1
    elif ex.kind == "expr":
        lines = ex.code.splitlines()
        for k, (n, _) in enumerate(expressions(ex.code)):
            lines[n] = f'report "doc example {k + 1}" = ' + lines[n]
        text, before = "\n".join(lines) + "\n", 0
    else:
        text, before = ex.code, 0
    if ex.context:
        return f'extends "{ex.context}.rules"\n' + text, before + 1
    return text, before


def trees(ex: Example) -> list[Tree]:
    """The parse trees of what the example itself writes (not of what wraps it)."""
    text, _ = wrapped(ex)
    tree = grammar().parse(text)
    items = [c for c in tree.children if isinstance(c, Tree)]
    if ex.context:
        items = items[1:]  # the extends line
    if ex.kind == "file" or ex.kind == "decl":
        return [tree] if not ex.context else items
    if ex.kind == "stmt":
        (turn,) = items
        turn = turn.children[-1] if turn.data == "replace_decl" else turn
        block = turn.children[-1]
        return [c for c in block.children if isinstance(c, Tree)]
    return [item.children[-1] for item in items]  # report "..." = EXPR


def names_in(tree: Tree) -> set[str]:
    return {str(t.data) for t in tree.iter_subtrees()}


def messages(error: RulesError) -> list[str]:
    return [d.message for d in error.diagnostics if d.kind == "error"]


def doc_lines(error: RulesError, ex: Example, path: str) -> str:
    """The errors, each at its line of the doc when it lies in the example."""
    _, before = wrapped(ex)
    out = []
    for d in error.diagnostics:
        if d.kind == "error":
            inside = d.file == path and d.line > before
            out.append(f"{f'docs/language.md:{ex.line + d.line - 1 - before}' if inside else d.file}: {d.message}")
    return "\n".join(out)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding every rules-file example, by its name."""
    folder = tmp_path_factory.mktemp("doc-games")
    for ex in FILES:
        (folder / ex.name).write_text(ex.code, encoding="utf-8")
    return folder


def check(ex: Example, folder: Path) -> tuple[Optional[RulesError], str]:
    """The errors of the example (or None), and the file it was checked as."""
    text, _ = wrapped(ex)
    if ex.kind != "file" and not ex.context:
        try:
            parse(text, "example.rules")
        except RulesError as e:
            return e, "example.rules"
        return None, "example.rules"
    path = folder / ex.name if ex.is_file else folder / f"fragment-{ex.line}.rules"
    if not ex.is_file:
        path.write_text(text, encoding="utf-8")
    try:
        meeple.load(str(path))
    except RulesError as e:
        return e, str(path)
    return None, str(path)


# ---- the tests ----------------------------------------------------------------------------------


def test_the_doc_has_examples_of_every_kind() -> None:
    kinds = {ex.kind for ex in EXAMPLES}
    assert kinds == {"file", "decl", "stmt", "expr"}, kinds
    assert len(FILES) >= 2 and sum(1 for ex in FRAGMENTS if ex.context) >= len(FRAGMENTS) // 2
    for ex in EXAMPLES:
        assert ex.lang in ("rules", "rules-file"), f"{ex.where()}: unknown code block '{ex.lang}'"


def test_the_grammar_read_from_its_text_is_the_one_lark_builds() -> None:
    rules, aliases = grammar_names()
    built = {r.origin.name for r in grammar().rules if not r.origin.name.startswith("_")}
    assert rules == built
    assert aliases == {str(r.alias) for r in grammar().rules if r.alias}


def test_every_grammar_rule_and_alias_has_a_section() -> None:
    rules, aliases = grammar_names()
    listed = {n for s in SECTIONS for n in s.grammar}
    missing = sorted((rules | aliases) - listed)
    assert not missing, f"grammar rules no section of docs/language.md covers (add them to a <!-- grammar: --> " \
                        f"comment): {missing}"
    unknown = sorted(f"{n} (in '{s.heading}')" for s in SECTIONS for n in s.grammar if n not in rules | aliases)
    assert not unknown, f"names in <!-- grammar: --> comments that the grammar does not have: {unknown}"


def test_each_section_shows_the_constructs_it_covers() -> None:
    """A construct named in a section's grammar comment appears in the parse tree of one of the
    section's examples (the right ones: an example of an error does not count)."""
    visible = tree_names()
    problems = []
    for s in SECTIONS:
        seen: set[str] = set()
        for ex in s.examples:
            if not ex.expected:
                for tree in trees(ex):
                    seen |= names_in(tree)
        lacking = [n for n in s.grammar if n in visible and n not in seen]
        if lacking:
            problems.append(f"docs/language.md:{s.line} '{s.heading}': no example uses {lacking}")
    assert not problems, "\n".join(problems)


def test_each_section_of_the_grammar_has_a_right_example() -> None:
    lacking = [f"docs/language.md:{s.line} '{s.heading}'" for s in SECTIONS
               if s.grammar and not any(not ex.expected for ex in s.examples)]
    assert not lacking, f"sections with no example that checks clean: {lacking}"


def test_every_fragment_names_known_things() -> None:
    names = {ex.name.removesuffix(".rules") for ex in FILES}
    assert len(names) == len(FILES), "two rules-file examples have one name"
    for ex in FRAGMENTS:
        kinds = [w for w in ex.words if w in KINDS]
        others = [w for w in ex.words if w not in KINDS]
        assert len(kinds) <= 1 and len(others) <= 1, f"{ex.where()}: say one kind and at most one game: {ex.words}"
        assert not others or others[0] in names, f"{ex.where()}: no rules-file example is named '{others[0]}'"


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda ex: f"line{ex.line}-{ex.kind}")
def test_example(ex: Example, games: Path) -> None:
    error, path = check(ex, games)
    if not ex.expected:
        if error is not None:
            pytest.fail(f"{ex.where()}: the example has errors:\n{doc_lines(error, ex, path)}", pytrace=False)
        return
    if error is None:
        pytest.fail(f"{ex.where()}: the example should fail with {ex.expected}, but checks clean", pytrace=False)
    found = messages(error)
    for want in ex.expected:
        if not any(want in m for m in found):
            pytest.fail(f"{ex.where()}: expected an error containing {want!r}; got {found}", pytrace=False)


@pytest.mark.parametrize("ex", [ex for ex in FILES if not ex.expected], ids=lambda ex: ex.name)
def test_example_games_play_to_their_end(ex: Example, games: Path) -> None:
    game = meeple.load(str(games / ex.name))
    for i in range(6):
        players = game.min_players + i % (game.max_players - game.min_players + 1)
        state = game.new_state(players, seed=i)
        rng = random.Random(i)
        while not state.is_terminal():
            actions = state.legal_actions()
            assert actions, f"{ex.where()}: game {i} is stuck after {state.history()[-3:]}"
            state.apply(rng.choice(actions))
        assert state.outcome in ("end", "draw"), f"{ex.where()}: game {i} ended by {state.outcome}"


def signature_rows() -> dict[str, list[int]]:
    """Table rows whose first cell starts with a call or a clause, ``name(a, b)`` or ``name = ...``:
    the name → the numbers of arguments shown (-1 for ``...``)."""
    out: dict[str, list[int]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*`([a-z_]+)(?:\(([^()`]*)\))?(\s*=[^`]*)?`", line)
        if not m:
            continue
        args = [a.strip() for a in m.group(2).split(",")] if m.group(2) else []
        out.setdefault(m.group(1), []).append(-1 if "..." in args else len(args))
    return out


def test_every_builtin_query_is_listed_with_its_arguments() -> None:
    rows = signature_rows()
    for name, (args, _) in BUILTINS.items():
        assert name in rows, f"built-in '{name}' has no row | `{name}(...)` | in docs/language.md"
        variadic = name in ("min", "max")
        assert len(args) in rows[name] or (variadic and -1 in rows[name]), \
            f"'{name}' takes {len(args)} argument(s); the doc shows {rows[name]}"


def test_every_route_clause_is_listed_with_its_parameters() -> None:
    rows = signature_rows()
    for name, (params, _) in ROUTE_CLAUSES.items():
        assert name in rows, f"route clause '{name}' has no row | `{name} = ...` | in docs/language.md"
        assert len(params) in rows[name], f"route clause '{name}' takes {len(params)}; the doc shows {rows[name]}"


def test_aggregates_and_built_in_names_are_shown() -> None:
    for name in sorted(AGGREGATES):
        assert re.search(rf"\b{name}\(.* for ", CODE), f"aggregate '{name}(... for ...)' is not shown"
    for name in [*KEYWORD_NAMES, WAS]:
        assert re.search(rf"\b{name}\b", CODE), f"'{name}' is not shown"


def test_every_keyword_and_symbol_is_shown_in_use() -> None:
    """In the code of an example that checks clean."""
    code = "\n".join(re.sub(r"#[^\n]*", "", ex.code) for ex in EXAMPLES if not ex.expected)
    missing = []
    for kw in sorted(keywords()):
        pattern = rf"(?<!\w){re.escape(kw)}(?!\w)" if kw[0].isalpha() else re.escape(kw)
        if not re.search(pattern, code):
            missing.append(kw)
    assert not missing, f"keywords and symbols no example uses: {missing}"


def test_the_list_of_keywords_is_the_grammars() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert text.count("<!-- keywords -->") == 1
    paragraph = text.split("<!-- keywords -->", 1)[1].strip().split("\n\n", 1)[0]
    listed = re.findall(r"`([^`]+)`", paragraph)
    assert len(listed) == len(set(listed)) and listed == sorted(listed), "list each keyword once, in order"
    words = {k for k in keywords() if k[0].isalpha()}
    assert set(listed) == words, f"missing: {sorted(words - set(listed))}, not keywords: {sorted(set(listed) - words)}"


def test_the_limits_are_the_checkers() -> None:
    (limits,) = [s for s in SECTIONS if s.heading == "Limits"]
    rows = dict(re.findall(r"^\| (.+?) \| ([0-9,]+) \|$", limits.text, re.M))
    for what, n in (("players", MAX_PLAYERS), ("cards of a game", MAX_CARDS), ("spaces of a track", MAX_SPACES),
                    ("steps of a game", MAX_STEPS)):
        (shown,) = [v for k, v in rows.items() if k.startswith(what)]
        assert shown == f"{n:,}", f"the doc says {what}: {shown}; the checker allows {n:,}"


def test_links_within_the_doc_lead_to_headings() -> None:
    text = DOC.read_text(encoding="utf-8")
    anchors = {slug(s.heading) for s in SECTIONS}
    broken = sorted(set(re.findall(r"\]\(#([^)]+)\)", text)) - anchors)
    assert not broken, f"links to no heading: {broken}"


def test_the_error_examples_are_errors_of_each_kind_of_check() -> None:
    """Some examples are wrong on purpose; both kinds of check must be among them."""
    wrong = [ex for ex in EXAMPLES if ex.expected]
    assert any(ex.context for ex in wrong) and any(not ex.context for ex in wrong)


