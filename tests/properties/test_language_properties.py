"""Properties of the front end: whatever text it is given, ``read_ir`` either returns
checked IR or raises ``RulesError`` whose every diagnostic says where (a line and
column, or a JSON path); never any other exception.

The inputs are games/hare.rules with random damage (hostile.damaged): tokens deleted,
duplicated or swapped, odd characters inserted, the text cut short.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from meeple.dsl import RulesError, read_ir
from meeple.dsl.diagnostics import source_lines
from meeple.dsl.parse import parse

import hostile

ROOT = Path(__file__).resolve().parents[2]
SOURCE = (ROOT / "games" / "hare.rules").read_text(encoding="utf-8")


def damaged() -> st.SearchStrategy[str]:
    """hare.rules after one to four random mutations (the hostile-input tests' damage)."""
    return hostile.damaged(SOURCE)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("damaged")


def assert_reads_or_says_where(text: str, path: Path) -> None:
    path.write_text(text, encoding="utf-8")
    try:
        read_ir(str(path))
    except RulesError as e:
        assert e.diagnostics, "a RulesError carries at least one diagnostic"
        lines = len(source_lines(text))  # (a lone CR ends a line too)
        for d in e.diagnostics:
            assert d.file == str(path)
            if d.line:
                assert 1 <= d.line <= lines and d.col >= 1, d
            else:
                assert d.path.startswith("$"), d
        assert str(e)  # renders, carets and all


@given(text=damaged())
@example(text=SOURCE[:SOURCE.index("phase race")])
@example(text=SOURCE.replace("{", "", 1))
@example(text="{" + SOURCE)
@example(text="\ufeff" + SOURCE)
def test_damaged_rules_give_diagnostics_not_crashes(text: str, workdir: Path) -> None:
    assert_reads_or_says_where(text, workdir / "damaged.rules")


@given(text=st.text(st.characters(codec="utf-8"), max_size=200))
def test_any_short_text_gives_diagnostics_not_crashes(text: str, workdir: Path) -> None:
    assert_reads_or_says_where(text, workdir / "short.rules")


@given(text=damaged())
def test_the_parser_reports_a_bounded_number_of_errors(text: str) -> None:
    try:
        parse(text, "x.rules")
    except RulesError as e:
        assert 1 <= len(e.diagnostics) <= 11
