"""The canonical printer (dsl/printer.py): every rules file of the repository prints to
text that parses to the same IR, printing twice changes nothing, no comment is lost,
and the printer changes whitespace only; plus focused tests of the layout."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.dsl import RulesError, RulesSyntaxError, ir_from_text
from meeple.dsl.parse import grammar
from meeple.dsl.printer import print_rules
from meeple.dsl.walk import positionless

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
ALL_FILES = sorted([*ROOT.glob("games/**/*.rules"), *FIXTURES.glob("**/*.rules")])
GOOD = sorted(FIXTURES.glob("good/*.rules"))


@cache
def _source_ir(path: Path) -> Any:
    """The IR of a file without positions, or None if it does not parse."""
    try:
        return positionless(ir_from_text(path.read_text(encoding="utf-8"), path.name))
    except RulesError:
        return None


FILES = [p for p in ALL_FILES if _source_ir(p) is not None]
UNPARSED = [p for p in ALL_FILES if p not in FILES]


@cache
def _printed(path: Path) -> tuple[str, str]:
    """A file's text and its print (printed once for all the tests here)."""
    text = path.read_text(encoding="utf-8")
    return text, print_rules(text, path.name)


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _tokens(text: str) -> list[tuple[str, str]]:
    """The code tokens of ``text`` (type, text), read by lark's lexer."""
    return [(t.type, str(t)) for t in grammar().lex(text, dont_ignore=True) if t.type not in ("WS", "COMMENT")]


def _comments(text: str) -> list[str]:
    return [str(t).rstrip() for t in grammar().lex(text, dont_ignore=True) if t.type == "COMMENT"]


def _assert_comments_kept(source: str, printed: str) -> None:
    """Each comment of ``source`` stands in ``printed``, in order (several trailing comments
    that land on one line print as one)."""
    joined = "\n".join(_comments(printed))
    at = 0
    for comment in _comments(source):
        found = joined.find(comment, at)
        assert found >= 0, f"comment lost or out of order: {comment!r}"
        at = found + len(comment)


def _fmt(text: str) -> str:
    return print_rules(text, "test.rules")


def test_the_files_cover_the_games_and_fixtures() -> None:
    names = {_name(p) for p in FILES}
    assert {"games/hare.rules", "games/luckydog.rules"} <= names
    for folder in ("good", "engine", "bad"):  # bad: those that parse and fail later
        assert any(folder in p.parts for p in FILES), folder
    assert len(UNPARSED) >= 5


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_printing_keeps_the_ir(path: Path) -> None:
    assert positionless(ir_from_text(_printed(path)[1], path.name)) == _source_ir(path)


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_printing_is_idempotent(path: Path) -> None:
    printed = _printed(path)[1]
    assert print_rules(printed, path.name) == printed


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_printing_keeps_every_comment(path: Path) -> None:
    text, printed = _printed(path)
    assert len(_comments(printed)) == len(_comments(text))
    _assert_comments_kept(text, printed)


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_printing_changes_whitespace_only(path: Path) -> None:
    """The same tokens in the same order: no bracket added or dropped, no word respelled."""
    text, printed = _printed(path)
    assert _tokens(printed) == _tokens(text)


@pytest.mark.parametrize("path", UNPARSED, ids=_name)
def test_a_file_that_does_not_parse_raises_its_diagnostics(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    with pytest.raises(RulesError) as printing:
        print_rules(text, path.name)
    with pytest.raises(RulesError) as lowering:
        ir_from_text(text, path.name)
    assert [d.headline() for d in printing.value.diagnostics] == [d.headline() for d in lowering.value.diagnostics]


def test_a_syntax_error_names_its_place() -> None:
    with pytest.raises(RulesSyntaxError) as info:
        print_rules('game "G"\nplayers 2..\n', "g.rules")
    d = info.value.diagnostics[0]
    assert (d.file, d.line, d.col) == ("g.rules", 2, 12)


def test_an_option_named_as_a_word_of_the_language_is_printed() -> None:
    """An option 'score' after the block of another parses (the parser reads the word as a name):
    printing it is no internal error from a parse of its own that did not."""
    text = ('game "G"\nplayers 2\nvar x = 0\nturn {\n  choose act {\n    up {\n      set x = x + 1\n    }\n'
            '    score  where x > 1 {\n      end game\n    }\n  }\n}\nscore(p) = x\n')
    assert print_rules(text) == text.replace("score  where", "score where")


def test_printed_lines_end_clean() -> None:
    for path in FILES:
        printed = _printed(path)[1]
        assert printed.endswith("\n") and not printed.endswith("\n\n")
        assert not printed.startswith("\n")
        assert all(line == line.rstrip() for line in printed.split("\n")), path
        assert "\n\n\n" not in printed and "\t" not in printed


# ---- the layout ------------------------------------------------------------------


def test_spacing_of_tokens() -> None:
    text = ('game   "G"\nplayers 2 .. 4\nparam n=-1 in -3 ..4 "a # b"\n'
            'define f( a ,b )=max( a ,b )+ - 1*g (a) . x\n'
            'report "r"=sum( c . v for c in 1 .. 3 where not(c>1) )\n'
            'score ( p ) = case p { 1 : 2 , else : 0 }\n')
    assert _fmt(text) == ('game "G"\nplayers 2..4\nparam n = -1 in -3..4 "a # b"\n'
                          'define f(a, b) = max(a, b) + -1 * g(a).x\n'
                          'report "r" = sum(c.v for c in 1..3 where not (c > 1))\n'
                          'score(p) = case p { 1: 2, else: 0 }\n')


def test_blocks_open_on_their_line_and_close_alone() -> None:
    text = "turn{if a{end game}else if b{run p}else{end game with no winner}}\nphase p\n{\nset x=1 set y(current)=2}\n"
    assert _fmt(text) == ("turn {\n"
                          "  if a {\n    end game\n  } else if b {\n    run p\n"
                          "  } else {\n    end game with no winner\n  }\n"
                          "}\n"
                          "phase p {\n  set x = 1\n  set y(current) = 2\n}\n")


def test_inline_braces_stay_on_one_line_and_structural_ones_do_not() -> None:
    text = ("enum e {\n a\n b }\npieces r on t { x y }\ntrack t { spaces 5 tiles { 2 a, (n - 2) b } }\n"
            "cards k in z { 3 a  1 long_one { e = a, w }  2 b { e = b } }\n")
    assert _fmt(text) == ("enum e { a b }\npieces r on t { x y }\n"
                          "track t {\n  spaces 5\n  tiles { 2 a, (n - 2) b }\n}\n"
                          "cards k in z {\n  3 a\n  1 long_one { e = a, w }\n  2 b        { e = b }\n}\n")


def test_options_of_a_choice_stand_one_a_line() -> None:
    text = ("turn { choose move by current { pass { end game } "
            "give q in player, n in 1..2 where q != current { run p } } }\n")
    assert _fmt(text) == ("turn {\n  choose move by current {\n    pass {\n      end game\n    }\n"
                          "    give q in player, n in 1..2 where q != current {\n      run p\n    }\n  }\n}\n")


def test_blank_lines_keep_the_designers_groups_only() -> None:
    text = "\n\n# head\n\n\n\ngame \"G\"\nplayers 2..4\n\n\nzone z public\nturn {\n\n  end game\n\n  end game\n\n}\n\n"
    assert _fmt(text) == "# head\n\ngame \"G\"\nplayers 2..4\n\nzone z public\nturn {\n  end game\n\n  end game\n}\n"


def test_comments_keep_their_places() -> None:
    text = ("# before\nzone a public # a\nzone long_name public    # b\n\nturn {   # the turn\n"
            "      # first\n  end game\n        # last\n}   # after\n# at the end\n")
    assert _fmt(text) == ("# before\nzone a public          # a\nzone long_name public  # b\n\n"
                          "turn {  # the turn\n  # first\n  end game\n  # last\n}  # after\n# at the end\n")


def test_a_comment_where_no_line_break_is_kept_moves_to_the_end_of_the_line() -> None:
    assert _fmt("define f = max(  # first\n  1, 2)\n") == "define f = max(1, 2)  # first\n"
    assert _fmt("enum e { a\n# about b\nb }\n") == "enum e { a b }  # about b\n"


def test_continuation_lines_line_up_with_what_they_continue() -> None:
    text = ("invariant i: a +  b\n   + c == 3\n"
            "define d = x and (y\n or z)\n"
            "define s = sum(v\n  for v in 1..3)\n"
            "define m = max(1,\n2)\n"
            "turn {\n"
            "choose c: 1 card from h to t\n keeping count(t) < 3\n and ok\n"
            "for p in player\nwhere p != current { end game }\n"
            "}\n")
    assert _fmt(text) == ("invariant i: a + b\n             + c == 3\n"
                          "define d = x and (y\n                  or z)\n"
                          "define s = sum(v\n               for v in 1..3)\n"
                          "define m = max(1,\n               2)\n"
                          "turn {\n"
                          "  choose c: 1 card from h to t\n    keeping count(t) < 3\n            and ok\n"
                          "  for p in player\n      where p != current {\n    end game\n  }\n"
                          "}\n")


def test_a_value_on_a_line_of_its_own_is_indented_four() -> None:
    text = "invariant i:\ncount(t) <= 3\n and ok\ndefine d =\n        1\n"
    assert _fmt(text) == "invariant i:\n    count(t) <= 3\n    and ok\ndefine d =\n    1\n"


def test_other_line_breaks_are_joined() -> None:
    assert _fmt("define f = g(\n  a).\n  b\nturn\n{\nend\ngame\n}\n") == "define f = g(a).b\nturn {\n  end game\n}\n"


def test_an_empty_file_prints_empty() -> None:
    assert _fmt("") == ""
    assert _fmt("\n\n# only a comment   \n\n") == "# only a comment\n"


def test_the_games_are_canonical_but_for_a_few_lines() -> None:
    """The bundled games already follow the printer's layout nearly everywhere."""
    for name in ("games/hare.rules", "games/luckydog.rules"):
        text, out = _printed(ROOT / name)
        source, printed = text.split("\n"), out.split("\n")
        assert len(printed) == len(source)
        differ = [i for i, (a, b) in enumerate(zip(source, printed)) if a != b]
        assert len(differ) <= 12, (name, differ)


# ---- properties --------------------------------------------------------------------


def _pieces(text: str) -> list[str]:
    """``text`` cut into its tokens, whitespace runs and comments (which join back to it)."""
    pieces = [str(t) for t in grammar().lex(text, dont_ignore=True)]
    assert "".join(pieces) == text
    return pieces


def _respace(text: str, rng: random.Random, breaks: bool) -> str:
    """``text`` with other whitespace between its tokens. Without ``breaks``, line breaks
    stay where they are (a blank line stays blank); with it, any gap may become one."""
    out: list[str] = []
    for piece in _pieces(text):
        ws = not piece.strip()
        if ws and not breaks:
            newlines = piece.count("\n")
            if newlines:
                newlines = 1 if newlines == 1 else rng.randint(2, 3)
                piece = "".join(rng.choice(["", " ", "\t "]) + "\n" for _ in range(newlines))
                piece += rng.choice(["", "  ", "\t", "      "])
            else:
                piece = rng.choice([" ", "  ", "\t", " \t  "])
        elif ws and not (out and out[-1].startswith("#")):  # a comment's line break stays
            piece = rng.choice([" ", "\n", "\n    ", piece, piece])
        elif out and out[-1].strip() and not out[-1].startswith("#") and rng.random() < 0.3:
            out.append(rng.choice([" ", "\n  "]) if breaks else " ")  # a gap where there was none
        out.append(piece)
    return "".join(out)


@given(st.sampled_from(GOOD), st.randoms(use_true_random=False))
def test_spacing_and_indentation_do_not_change_the_print(path: Path, rng: random.Random) -> None:
    text = path.read_text(encoding="utf-8")
    assert _fmt(_respace(text, rng, breaks=False)) == _fmt(text)


@given(st.sampled_from(GOOD), st.randoms(use_true_random=False))
def test_any_line_breaks_print_to_the_same_ir_idempotently(path: Path, rng: random.Random) -> None:
    text = _respace(path.read_text(encoding="utf-8"), rng, breaks=True)
    printed = _fmt(text)
    assert positionless(ir_from_text(printed, "t")) == positionless(ir_from_text(text, "t"))
    assert _fmt(printed) == printed
    _assert_comments_kept(text, printed)


def test_a_wrapped_list_of_tagged_spaces_lines_up_under_its_first_space() -> None:
    text = ('game "F"\nplayers 2\ntrack lane {\n  spaces 30\n  mud at 1, 2,\n    3   # wrapped\n}\n'
            'pieces runner on lane { red blue }\nturn {\n  move red by 2 stopping at mud\n}\n'
            'end when finishers(lane) >= 1\n')
    out = _fmt(text)
    assert "  mud at 1, 2,\n         3  # wrapped\n" in out, out
    assert _fmt(out) == out
