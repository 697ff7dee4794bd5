"""Every file in tests/fixtures/bad/ is a small game with one mistake; its first line
says the error it must produce:

    # error: 12:9: unknown name 'wolff' (did you mean 'wolf'?)

``read_ir`` must report exactly that error and no other, and ``meeple validate``
must print it compiler-style (``FILE:line:col: error: message``, then the source
line and a caret) and exit with status 1.
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from meeple.dsl import RulesError, RulesSyntaxError, read_ir
from meeple.tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
BAD = Path(__file__).parent / "fixtures" / "bad"
FILES = sorted(BAD.glob("*.rules"))
HEADER = re.compile(r"# error: (\d+):(\d+): (.+)")


def expected(path: Path) -> tuple[int, int, str]:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    m = HEADER.fullmatch(first)
    assert m, f"{path.name}: the first line must read '# error: LINE:COL: MESSAGE'"
    return int(m[1]), int(m[2]), m[3]


def test_the_fixtures_cover_syntax_and_meaning() -> None:
    assert len(FILES) >= 12
    syntax = semantic = 0
    for path in FILES:
        try:
            read_ir(str(path))
        except RulesSyntaxError:
            syntax += 1
        except RulesError:
            semantic += 1
    assert syntax >= 5 and semantic >= 10
    messages = [expected(p)[2] for p in FILES]
    for start in ("unexpected end of file", "unexpected character", "unexpected '"):
        assert any(m.startswith(start) for m in messages), start


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_bad_fixture_reports_exactly_its_error(path: Path) -> None:
    line, col, message = expected(path)
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    errors = [(d.line, d.col, d.message) for d in info.value.diagnostics if d.kind == "error"]
    assert (line, col, message) in errors
    assert len(errors) == 1, errors


class Run(NamedTuple):
    returncode: int
    stderr: str


def _validate(path: Path) -> Run:
    """``meeple validate FILE`` (in this process: the command's own entry point, its output caught)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()), contextlib.chdir(ROOT):
        code = main(["validate", str(path.relative_to(ROOT))])
    return Run(code, err.getvalue())


@pytest.fixture(scope="module")
def validate_runs() -> dict[Path, Run]:
    return {path: _validate(path) for path in FILES}


def test_the_command_in_its_own_process_prints_the_same() -> None:
    """One fixture through ``python -m meeple``, as a user runs it: the same output as in-process."""
    path = FILES[0]
    ran = subprocess.run([sys.executable, "-m", "meeple", "validate", str(path.relative_to(ROOT))],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert (ran.returncode, ran.stderr) == tuple(_validate(path))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_cli_validate_shows_the_error_with_a_caret(path: Path, validate_runs: dict) -> None:
    line, col, message = expected(path)
    result = validate_runs[path]
    assert result.returncode == 1, result.stderr
    lines = result.stderr.splitlines()
    headline = f"{path.relative_to(ROOT)}:{line}:{col}: error: {message}"
    assert headline in lines, result.stderr
    source_line = path.read_text(encoding="utf-8").splitlines()[line - 1]
    shown, caret = lines[lines.index(headline) + 1: lines.index(headline) + 3]
    assert shown == f"{line:>5} | {source_line}"
    assert re.fullmatch(r" +\| +\^+", caret), caret
    assert caret.index("^") - caret.index("|") - 2 == col - 1
