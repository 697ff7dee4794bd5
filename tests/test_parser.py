"""The parser (dsl.parse): the example game parses, positions are right, and syntax
errors are reported where they are, all of them, in the user's words."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from meeple.dsl import RulesError, RulesSyntaxError, read_ir
from meeple.dsl import ast as A
from meeple.dsl.parse import MAX_DEPTH, MAX_NESTING, MAX_SOURCE_BYTES, MAX_SYNTAX_ERRORS, parse

SMALL = """\
game "Small"
players 2..3
zone deck hidden
zone hand per player private
cards chip in deck {
  6 low { value = 1 }
}
var total = 0
turn {
  choose play: 1 card from hand(current) to deck
  set total = total + 1
}
end when total >= 5
"""


def locate(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """1-based line and column of the ``nth`` occurrence of ``needle``."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def syntax_errors(text: str) -> list[tuple[int, int, str]]:
    with pytest.raises(RulesSyntaxError) as info:
        parse(text, "t.rules")
    return [(d.line, d.col, d.message) for d in info.value.diagnostics]


def walk(node):
    """Every AST node under ``node`` (itself included)."""
    yield node
    if isinstance(node, A.Node):
        for f in dataclasses.fields(node):
            if f.name != "span":
                yield from walk(getattr(node, f.name))
    elif isinstance(node, (list, tuple)):
        for v in node:
            yield from walk(v)


# ---- the example game -------------------------------------------------------


def test_hare_parses(hare_path: Path) -> None:
    rf = parse(hare_path.read_text(), str(hare_path))
    assert rf.title == "The Hare and the Tortoise"
    assert (rf.players.lo, rf.players.hi) == (2, 5)
    assert rf.max_steps == 4000
    assert [p.name.text for p in rf.params] == ["track_length", "stream_count", "deal_size", "hand_size",
                                                 "table_limit", "animal_limit", "podium_size"]
    assert [t.name.text for t in rf.tracks] == ["course"]
    assert [v.text for v in rf.pieces[0].values] == ["hare", "tortoise", "wolf", "fox", "sheep"]
    assert [(z.name.text, z.per_player, z.visibility) for z in rf.zones] == [
        ("deck", False, "hidden"), ("discard", False, "public"), ("table", False, "public"),
        ("bet_pile", False, "hidden"), ("hand", True, "private"), ("bets", True, "private")]
    assert sum(v.count.value for v in rf.cards[0].varieties) == 81
    assert [d.name.text for d in rf.defines] == ["on_table", "howling", "runs", "leads"]
    assert [p.name.text for p in rf.phases] == ["race"]
    assert len(rf.setup) == 4 and len(rf.turn) == 3 and len(rf.end) == 1 and len(rf.reports) == 3
    assert rf.score.player.text == "p" and rf.tiebreak is not None


def test_every_span_is_one_based_and_inside_the_file(hare_path: Path) -> None:
    text = hare_path.read_text()
    lines = text.splitlines()
    spans = [n.span for n in walk(parse(text)) if isinstance(n, A.Node) and n.span != A.NOWHERE]
    assert len(spans) > 300
    for s in spans:
        assert 1 <= s.line <= s.end_line <= len(lines)
        assert s.col >= 1 and s.end_col >= 1
        assert (s.end_line, s.end_col) > (s.line, s.col)
        assert s.col <= len(lines[s.line - 1])


def test_spans_of_declarations(hare_path: Path) -> None:
    text = hare_path.read_text()
    rf = parse(text)
    pieces = rf.pieces[0]
    assert (pieces.span.line, pieces.span.col) == locate(text, "pieces animal on course")
    assert (pieces.name.span.line, pieces.name.span.col) == locate(text, "animal on course")
    assert pieces.name.span.end_col == pieces.name.span.col + len("animal")
    assert (pieces.track.span.line, pieces.track.span.col) == locate(text, "course { hare")
    assert (pieces.values[2].span.line, pieces.values[2].span.col) == locate(text, "wolf fox")
    param = rf.params[3]
    assert param.name.text == "hand_size"
    assert (param.span.line, param.span.col) == locate(text, "param hand_size")
    line = text.splitlines()[param.span.line - 1]
    assert (param.span.end_line, param.span.end_col) == (param.span.line, len(line) + 1)
    track = rf.tracks[0]
    assert (track.span.line, track.span.col) == locate(text, "track course")
    assert (track.span.end_line, track.span.end_col) == (locate(text, "}\n\n# The animals")[0], 2)
    howling = rf.defines[1]
    assert (howling.span.line, howling.span.col) == locate(text, "define howling")
    assert (howling.body.span.line, howling.body.span.col) == locate(text, "count(table where howl)")
    race = rf.phases[0]
    assert (race.name.span.line, race.name.span.col) == locate(text, "race {")
    assert (rf.score.span.line, rf.score.span.col) == locate(text, "score(p) =")


def test_spans_of_statements_and_expressions(hare_path: Path) -> None:
    text = hare_path.read_text()
    rf = parse(text)
    choose = rf.turn[0]
    assert isinstance(choose, A.Choose)
    assert (choose.span.line, choose.span.col) == locate(text, "choose play")
    assert (choose.label.span.line, choose.label.span.col) == locate(text, "play:")
    assert (choose.same.span.line, choose.same.span.col) == locate(text, "animal from hand")
    # The statement runs over two more lines, to the end of its 'keeping' test.
    assert choose.span.end_line == locate(text, "and all(on_table(a)")[0]
    assert (choose.keeping.span.line, choose.keeping.span.col) == locate(text, "count(table) <= table_limit")
    sheep = rf.phases[0].body[4]
    assert isinstance(sheep, A.If)
    move = sheep.body[0]
    assert isinstance(move, A.Move)
    assert (move.span.line, move.span.col) == locate(text, "move sheep")
    assert (move.piece.span.line, move.piece.span.col) == locate(text, "sheep by")
    assert (move.stop_at.span.line, move.stop_at.span.col) == locate(text, "stream\n")
    steps = move.steps
    assert isinstance(steps, A.BinOp) and steps.op == "+"
    assert (steps.span.line, steps.span.col) == locate(text, "on_table(sheep) + 1")
    assert (steps.span.end_line, steps.span.end_col) == (steps.span.line, steps.span.col + len("on_table(sheep) + 1"))
    run = rf.turn[2].body[0]
    assert isinstance(run, A.Run)
    assert (run.phase.span.line, run.phase.span.col) == locate(text, "race\n")


# ---- syntax errors ----------------------------------------------------------


def test_syntax_error_position_and_expected_terminals() -> None:
    text = SMALL.replace("zone hand per player private", "zone hand per player secret")
    line, col = locate(text, "secret")
    assert syntax_errors(text) == [(line, col, "unexpected name 'secret'; expected 'public', 'private' or 'hidden'")]


def test_expected_lists_readable_terminals() -> None:
    text = SMALL.replace("cards chip in deck {", "cards chip in deck")
    assert syntax_errors(text) == [(6, 3, "unexpected number '6'; expected '{'")]
    text = SMALL.replace("var total = 0", "var = 0")
    assert syntax_errors(text) == [(8, 5, "unexpected '='; expected a name")]
    text = SMALL.replace("set total = total + 1", "set total =")
    [(line, col, message)] = syntax_errors(text)
    assert (line, col) == (12, 1)
    # the names of things come first, then the keywords, then operators and brackets, quoted
    assert message.startswith("unexpected '}'; expected a name, a number, 'case', 'false', ")


def test_unexpected_character() -> None:
    text = SMALL.replace("set total = total + 1", "set total = total + 1 @")
    assert syntax_errors(text) == [(11, 25, "unexpected character '@'")]


def test_unexpected_end_of_file_points_past_the_last_token() -> None:
    text = SMALL[:SMALL.index("end when")] + "end when total >=  \n\n"
    [(line, col, message)] = syntax_errors(text)
    line_of_test, col_of_ge = locate(text, ">=  ")
    assert (line, col) == (line_of_test, col_of_ge + 2)  # just past '>='
    assert message.startswith("unexpected end of file; expected a name, a number, 'case', ")
    assert syntax_errors('game "x"\nturn {') == [
        (2, 7, "unexpected end of file; expected '}', 'choose', 'deal', 'end', 'for', 'if', 'let', 'move', ...")]


def test_several_syntax_errors_on_different_lines_are_all_reported() -> None:
    text = SMALL.replace("zone deck hidden", "zone deck hiden") \
                .replace("set total = total + 1", "set total = total + * 1") \
                .replace("end when total >= 5", "end when total >= 5 5")
    assert syntax_errors(text) == [
        (3, 11, "unexpected name 'hiden'; expected 'per' or 'public', 'private' or 'hidden'"),
        (11, 23, "unexpected '*'; expected a name, a number, 'case', 'false', 'none', 'true', '(', '-'"),
        (13, 21, "unexpected number '5'; expected 'and', 'or', '%', '*', '+', '-', '.', '/'"),  # (same line)
    ]


@pytest.mark.parametrize("old, new, word, meant", [
    ("turn {\n", "turn {\n  settotal = total + 1\n", "settotal", "set total"),
    ("turn {\n", "turn {\n  set2 = total + 1\n", "set2", None),
    ("choose play: 1 card", "choose_play: 1 card", "choose_play", None),
    ("end when total >= 5", "end when total >= 5\nturn { endgame }", "endgame", "end game"),
])
def test_a_keyword_run_together_with_the_word_after_it_is_an_error(old: str, new: str, word: str,
                                                                    meant: str | None) -> None:
    """Where no name may stand, the lexer reads a keyword at the start of a longer word, and then a
    name ('setx = 1' as 'set x = 1'): such a word is an error where it starts, not a statement."""
    text = SMALL.replace(old, new)
    errors = syntax_errors(text)
    said = f"unknown word '{word}'" + (f" (did you mean '{meant}'?)" if meant else "")
    assert (*locate(text, word), said) in errors, errors


def test_a_name_that_begins_with_a_keyword_is_a_name() -> None:
    """'settled', 'notes', 'ending' are names wherever a name may stand."""
    text = SMALL.replace("var total = 0", "var settled = false\nvar notes = 0\nvar ending = none") \
        .replace("set total = total + 1", "set total = total + 1\n  set notes = notes + 1")
    parse(text, "t.rules")


@pytest.mark.parametrize("old, new, where", [
    ("choose play: 1 card from hand(current) to deck", "choose play: 1 card from hand(current to deck", "to deck"),
    ("turn {", "turn", "choose play"),
    # 'end' may start the statement 'end game': the error is at 'when'
    ("  set total = total + 1\n}", "  set total = total + 1\n", "when"),
])
def test_one_missing_bracket_is_one_error(old: str, new: str, where: str) -> None:
    """The parser recovers: the lines after a missing bracket do not each get an error."""
    text = SMALL.replace(old, new)
    [(line, col, message)] = syntax_errors(text)
    assert (line, col) == locate(text, where)


def test_syntax_errors_are_capped() -> None:
    text = SMALL.replace("turn {\n", "turn {\n" + "  set total = total + * 1\n" * 40)
    errors = syntax_errors(text)
    assert len(errors) == MAX_SYNTAX_ERRORS
    assert [line for line, _, _ in errors] == list(range(10, 10 + MAX_SYNTAX_ERRORS))


def test_declared_twice_is_reported_by_the_parser() -> None:
    text = SMALL.replace("players 2..3\n", "players 2..3\nplayers 2..4\n")
    with pytest.raises(RulesError) as info:
        parse(text, "t.rules")
    assert [(d.line, d.col, d.message) for d in info.value.diagnostics] == [(3, 1, "'players' is declared twice")]


def test_error_renders_with_a_caret() -> None:
    text = SMALL.replace("set total = total + 1", "set total = total + 1 @")
    with pytest.raises(RulesSyntaxError) as info:
        parse(text, "t.rules")
    assert str(info.value).splitlines() == [
        "t.rules:11:25: error: unexpected character '@'",
        "   11 |   set total = total + 1 @",
        "      |                         ^",
        "1 error",
    ]


# ---- edge cases -------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "  \t\r\n# a\n# b"])
def test_empty_file_parses_to_an_empty_rules_file(text: str) -> None:
    empty = A.RulesFile(extends=None, changes=[], title="", players=None, max_steps=0, params=[], enums=[],
                        tracks=[], pieces=[], grids=[],
                        routes=[], zones=[], cards=[], vars=[], defines=[], setup=[], turn=[], phases=[], end=[],
                        score=None, tiebreak=None, reports=[], invariants=[])
    assert parse(text) == empty


def test_file_too_large_is_a_diagnostic(tmp_path: Path) -> None:
    path = tmp_path / "big.rules"
    path.write_text("#" * (MAX_SOURCE_BYTES + 1))
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    [d] = info.value.diagnostics
    assert (d.line, d.col) == (1, 1)
    assert d.message.startswith("file too large (2,000,001 characters")


def test_bracket_nesting_too_deep_is_a_diagnostic(tmp_path: Path) -> None:
    path = tmp_path / "deep.rules"
    deep = "(" * MAX_NESTING + "1" + ")" * MAX_NESTING
    path.write_text(SMALL.replace("set total = total + 1", f"set total = {deep}"))
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    # 'turn {' is the first bracket: the last '(' is the one too many
    assert [(d.line, d.col, d.message) for d in info.value.diagnostics] == [
        (11, len('  set total = ') + MAX_NESTING, f"nesting deeper than {MAX_NESTING} brackets")]


@pytest.mark.parametrize("deep", [
    "if " + "not " * 1000 + "true then 1 else 0",
    "- " * 1000 + "1",
    " + ".join(["1"] * 1000),
    "abs(- " * 90 + "1" + ")" * 90,
])
def test_nesting_too_deep_without_brackets_is_a_diagnostic(tmp_path: Path, deep: str) -> None:
    path = tmp_path / "deep.rules"
    path.write_text(SMALL.replace("set total = total + 1", f"set total = {deep}"))
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    [d] = info.value.diagnostics
    assert d.message == f"nesting deeper than {MAX_DEPTH} levels"
    assert d.line == 11 and d.col > 1


def test_long_else_if_chain_is_a_diagnostic(tmp_path: Path) -> None:
    path = tmp_path / "deep.rules"
    chain = "if total == 1 { set total = 2 } else " * 500 + "{ set total = 1 }"
    path.write_text(SMALL.replace("set total = total + 1", chain))
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    assert [d.message for d in info.value.diagnostics] == [f"nesting deeper than {MAX_DEPTH} levels"]


def test_moderate_nesting_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "ok.rules"
    path.write_text(SMALL.replace("set total = total + 1", "set total = " + "(" * 60 + "total + 1" + ")" * 60))
    read_ir(str(path))


def test_non_utf8_file_is_a_diagnostic(tmp_path: Path) -> None:
    path = tmp_path / "latin1.rules"
    path.write_bytes('game "Caf\u00e9"\n'.encode("latin-1") + SMALL.encode()[len('game "Small"\n'):])
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    [d] = info.value.diagnostics
    assert d.kind == "error" and d.file == str(path)
    assert d.message == "the file is not UTF-8 text: byte 9 is 0xe9 (save the file as UTF-8)"


def test_missing_file_is_a_diagnostic(tmp_path: Path) -> None:
    with pytest.raises(RulesError) as info:
        read_ir(str(tmp_path / "nope.rules"))
    assert info.value.diagnostics[0].message.startswith("cannot read the file")


def test_a_byte_order_mark_is_not_part_of_the_rules(tmp_path, hare_path) -> None:
    from meeple.dsl import read_ir
    marked = tmp_path / "marked.rules"
    marked.write_bytes(b"\xef\xbb\xbf" + hare_path.read_bytes())
    plain, _ = read_ir(str(hare_path))
    with_mark, _ = read_ir(str(marked))
    assert with_mark["turn"] == plain["turn"] and with_mark["params"] == plain["params"]


def test_a_second_game_line_is_named_as_written() -> None:
    with pytest.raises(RulesError) as info:
        parse('game "A"\ngame "B"\n')
    assert [(d.line, d.col, d.message) for d in info.value.diagnostics] == [(2, 1, "'game' is declared twice")]


ROOT = Path(__file__).resolve().parent.parent
CACHE_CHECKED = sorted([*ROOT.glob("games/*.rules"), *(ROOT / "tests" / "fixtures" / "bad").glob("*.rules")])


def _outcome(text: str) -> str:
    try:
        return repr(parse(text, "x.rules"))
    except RulesError as e:
        return f"{type(e).__name__}: {e}"


def test_the_parser_kept_in_the_cache_parses_as_the_one_lark_builds(monkeypatch) -> None:
    """``grammar()`` reads the parser back from meeple's cache (a pickle): every bundled game, and
    every file with a mistake, gives the same AST or the same errors as with Lark's own parser
    (its shift and reduce actions, told apart by identity, kept so)."""
    from functools import lru_cache

    from lark import Lark

    from meeple.dsl import parse as P
    P.grammar.cache_clear()
    P.grammar()  # (built and kept, if the cache did not hold it yet)
    P.grammar.cache_clear()
    assert P.grammar_cache().exists()
    kept = P.grammar()
    texts = [p.read_text(encoding="utf-8") for p in CACHE_CHECKED]
    texts += [t[:len(t) // 2] + "}" + t[len(t) // 2:] for t in texts[:5]]  # (errors in the middle of games)
    ours = [_outcome(t) for t in texts]
    assert sum(o.startswith("RulesSyntaxError") for o in ours) >= 10
    built = Lark.open("rules.lark", rel_to=P.__file__, parser="lalr", propagate_positions=True, cache=True,
                      maybe_placeholders=False, lexer_callbacks={"NAME": P._name_seen})
    assert built is not kept
    monkeypatch.setattr(P, "grammar", lru_cache(maxsize=1)(lambda: built))
    assert [_outcome(t) for t in texts] == ours


def test_a_damaged_parser_cache_is_built_again() -> None:
    from meeple.dsl import parse as P
    path = P.grammar_cache()
    path.parent.mkdir(parents=True, exist_ok=True)
    kept = path.read_bytes() if path.exists() else b"\x80\x05" * 100
    flipped = kept[:len(kept) // 2] + bytes([kept[len(kept) // 2] ^ 0xFF]) + kept[len(kept) // 2 + 1:]
    for damaged in (b"", b"not a pickle", kept[:1000], flipped):
        path.write_bytes(damaged)
        P.grammar.cache_clear()
        try:
            assert parse(SMALL).title == "Small"
        finally:
            P.grammar.cache_clear()
        assert path.read_bytes() != damaged  # (written anew)


@pytest.mark.parametrize("statement", ["if total > 3 {\n    end game\n  }", "set total = 3", "end game"])
def test_a_statement_after_options_left_open_names_the_block_not_a_name_error(statement: str) -> None:
    """A '}' left out after the options of a 'choose': the statement that follows is read as a
    name, where an option may stand; it is said to be a statement where none can stand, with a
    note naming the '{' left open, and nothing after it on the line is an error of its own."""
    text = SMALL.replace("  choose play: 1 card from hand(current) to deck\n",
                         "  choose go {\n    up { set total = total + 1 }\n    stay\n\n  " + statement + "\n")
    with pytest.raises(RulesSyntaxError) as info:
        parse(text, "t.rules")
    first = info.value.diagnostics[0]
    word, opened = statement.split()[0], locate(text, "choose go {")[0]
    assert (first.line, first.col) == (opened + 4, 3)
    assert first.message == (f"'{word}' starts a statement, and no statement can stand here: is a '}}' "
                             f"missing before it?")
    assert first.notes == (f"the '{{' at line {opened}, column 13 is not closed (a '}}' is missing)",)
    assert [d for d in info.value.diagnostics if d.line == first.line] == [first]


def test_a_decision_without_choose_is_told_how_a_decision_is_written() -> None:
    text = SMALL.replace("  choose play: 1 card from hand(current) to deck\n", "  pick by current {\n    a\n  }\n")
    first = syntax_errors(text)[0]
    assert first[:2] == locate(text, "pick") and "(a decision is written 'choose pick ...')" in first[2]


@pytest.mark.parametrize("broken, valid", [
    ("invariant a: all(total >= 0 for p player)", "invariant b: total >= 0"),
    ("end when total >= 5 5", "report \"runner\" = total"),
])
def test_after_a_syntax_error_no_word_is_said_to_run_a_keyword_together(broken: str, valid: str) -> None:
    """Past a syntax error the parser's recovery may read a keyword anywhere: a valid line after it
    ('invariant', 'runner') is not said to be a keyword run together with a name."""
    text = SMALL.replace("end when total >= 5", broken) + valid + "\n"
    assert not [e for e in syntax_errors(text) if "unknown word" in e[2]]


def test_a_word_with_a_keyword_inside_is_said_once() -> None:
    text = SMALL.replace("turn {\n", "turn {\n  endgames\n")
    assert [e[2] for e in syntax_errors(text)] == ["unknown word 'endgames' (did you mean 'end games'?)"]


def test_an_option_named_like_a_statement_in_a_closed_block_is_not_said_to_be_a_statement() -> None:
    """Options written as deep as their 'choose' (no indentation): an option 'move' after one that
    left out its block is that mistake, not a '}' left out (every '{' of the file is closed)."""
    text = SMALL.replace("  choose play: 1 card from hand(current) to deck\n",
                         "choose go {\nstay\nmove where total >= 0 {\nset total = total + 1\n}\n}\n")
    [(line, col, message)] = syntax_errors(text)
    assert "starts a statement" not in message and "an option that leaves out its block must be the last" in message


@pytest.mark.parametrize("word", ["move", "score", "deal", "roll", "set", "run", "zone", "turn", "report"])
def test_an_option_named_as_a_word_of_the_language_after_a_block_is_a_name(word: str) -> None:
    """A word that is not reserved is a name where no keyword can stand, also as an option's name
    after the block of the option before it (where LALR's state after a '}' had the lexer read it
    as the keyword: 'unexpected 'score'', then errors down the file)."""
    text = SMALL.replace("  choose play: 1 card from hand(current) to deck\n",
                         f"  choose go {{\n    up {{\n      set total = total + 1\n    }}\n"
                         f"    {word} where total > 0 {{\n      set total = total + 2\n    }}\n    stay\n  }}\n")
    [choose] = [s for s in walk(parse(text, "t.rules")) if isinstance(s, A.ChooseOne)]
    assert [o.name.text for o in choose.options] == ["up", word, "stay"]


def test_a_misspelt_word_of_the_language_is_read_as_one_so_the_next_mistake_is_said_too() -> None:
    """'publik' where 'public', 'private' or 'hidden' goes: said, then read as the closest of those
    words, so that the next line (a second mistake) is read as written and said too."""
    text = SMALL.replace("zone deck hidden", "zone deck publik\nzone pile hiden\nzone heap bogus")
    assert [(line, message.split(";")[0]) for line, _, message in syntax_errors(text)] == [
        (3, "unexpected name 'publik'"), (4, "unexpected name 'hiden'"), (5, "unexpected name 'bogus'")]


@pytest.mark.parametrize("line, last, then", [
    ("  deal 1 from deck to hand(current) reshuffling", "reshuffling", "  end game"),
    ("  move all from hand(current) to", "to", "  set total = 1"),
    ("  set total = total +", "+", "  set total = 2"),
])
def test_a_line_left_wanting_a_name_before_a_statement_is_said_where_it_ends(line: str, last: str,
                                                                             then: str) -> None:
    """'... reshuffling' with its pile forgotten, then 'end game': 'end' is read as the pile, and the
    parser stops at 'game' (with a note that a '{' is not closed, which it is); the mistake is the
    line before, said where it ends."""
    text = SMALL.replace("  set total = total + 1", f"{line}\n{then}")
    [(at_line, col, message)] = syntax_errors(text)
    assert (at_line, col) == locate(text, f"{last}\n")
    word = then.split()[0]
    assert message.endswith(f"the '{word}' that starts the next line was read as a name going on with it")
    assert ("which a name must follow" in message) == last.isalpha()


@pytest.mark.parametrize("line, shown", [("total = 2", "set total = ..."), ("hand(current) = 2", "set hand(current)")])
def test_a_var_given_a_value_without_set_is_told_to_use_set(line: str, shown: str) -> None:
    text = SMALL.replace("  set total = total + 1", f"  {line}")
    [(at_line, col, message)] = syntax_errors(text)
    assert (at_line, col) == locate(text, line)
    assert message.startswith(f"unexpected name '{line.split('(')[0].split()[0]}'; expected 'set', ")
    assert f"(a var is given a value by '{shown}" in message


@pytest.mark.parametrize("line", ["let r = random 1..6", "set total = 1 + random 1..6"])
def test_random_out_of_a_set_says_where_it_stands_and_over_what(line: str) -> None:
    """'random' in an expression: said at 'random', with the forms it has (not 'random ZONE': a var
    never holds a card)."""
    text = SMALL.replace("  set total = total + 1", f"  {line}")
    [(at_line, col, message)] = syntax_errors(text)
    assert (at_line, col) == locate(text, "random")
    assert message == ("'random' cannot stand here ('random' stands only in 'set VAR = random DOMAIN', the domain a "
                       "range LOW..HIGH, 'player', a kind or the grid, and in 'set VAR = random { VALUE: WEIGHT, "
                       "... }')")


def test_a_line_left_in_the_middle_of_an_expression_is_said_where_it_ends() -> None:
    """'var a = 1 +' then 'var b = 2': the 'var' of the next line is read as a name going on with
    the expression, and the parser stops at 'b'; the mistake is the line before, said where it ends."""
    text = SMALL.replace("var total = 0", "var total = 0 +\n\nvar other = 2")
    [(line, col, message)] = syntax_errors(text)
    assert (line, col) == locate(text, "+\n")
    assert message.startswith("this line ends in the middle of an expression ('+'): the 'var' that starts the next")


@pytest.mark.parametrize("block", ["cards card in deck { }", "cards card in deck {\n}"])
def test_a_cards_block_with_nothing_in_it_says_what_it_holds(block: str) -> None:
    """One error at the '}', saying a cards block lists its varieties, with one written out."""
    text = f'game "t"\nplayers 2..2\nzone deck hidden\n{block}\nturn {{\n  end game\n}}\n'
    [(at_line, col, message)] = syntax_errors(text)
    assert text.splitlines()[at_line - 1][col - 1] == "}" and at_line >= 4
    assert message.endswith("(a cards block lists its varieties, one or more: '4 ace { rank = 1 }')")


@pytest.mark.parametrize("old, new, where, hint", [
    # a 'while' statement (there is none): one error, not also one at the 'end game' after the loop
    ("  set total = total + 1\n", "  while total < 3 {\n    set total = total + 1\n  }\n  end game\n", "while",
     "there is no 'while' statement: a loop runs over a domain, 'for x in DOMAIN while TEST { ... }'; to repeat "
     "while a test holds, 'for i in 1..N where TEST { ... }'"),
    ("set total = total + 1", "set total += 1", "+=", "there is no '+=': write 'set total = total + ...'"),
    ("set total = total + 1", "set total *= 2", "*=", "there is no '*=': write 'set total = total * ...'"),
])
def test_a_statement_of_another_language_is_one_error_that_says_what_to_write(old: str, new: str, where: str,
                                                                              hint: str) -> None:
    text = SMALL.replace(old, new)
    [(line, col, message)] = syntax_errors(text)
    assert (line, col) == locate(text, where) and message.endswith(f"({hint})"), message


def test_an_option_written_with_a_colon_says_how_an_option_is_written() -> None:
    text = SMALL.replace("choose play: 1 card from hand(current) to deck",
                         "choose go {\n    take: deal 1 from deck to hand(current)\n  }")
    errors = syntax_errors(text)
    line, col = locate(text, "take:")
    assert errors[0][:2] == (line, col + 4)
    assert errors[0][2].endswith("(an option is written 'NAME { ... }' or 'NAME x in DOMAIN where TEST { ... }', "
                                 "with no ':')")


def test_end_game_where_declarations_go_after_an_error_is_not_a_second_error() -> None:
    """A block closed early by a mistake leaves its 'end game' where declarations go: that is the
    echo of the mistake, and the declarations after it are read as written."""
    loop = "  while total < 3 {\n    set total = total + 1\n  }\n  end game\n"
    text = SMALL.replace("  set total = total + 1\n", loop) + "score(p) = total\n"
    assert [(line, col) for line, col, _ in syntax_errors(text)] == [locate(text, "while")]
    alone = SMALL + "end game\n"  # (with no mistake before it, it is the mistake)
    assert [(line, col) for line, col, _ in syntax_errors(alone)] == [locate(alone, "game", 1)]


def test_any_number_of_options_named_as_words_of_the_language_parse() -> None:
    """Each option named as a keyword is read as a name; that is no mistake, so it does not count
    towards the recoveries a file may take (500): 40 phases of 13 such options each parse."""
    words = "move set roll deal refill reveal reset run choose place let score tiebreak".split()
    phases = "".join(f"phase p{i} {{\n  choose c{i} {{\n    first {{ set total = 1 }}\n"
                     + "".join(f"    {w} {{ set total = 2 }}\n" for w in words) + "  }\n}\n" for i in range(40))
    text = f'game "x"\nplayers 2\nvar total = 0\n{phases}turn {{\n  run p0\n}}\nend when total > 1\n'
    rules = parse(text)
    assert len(rules.phases) == 40
