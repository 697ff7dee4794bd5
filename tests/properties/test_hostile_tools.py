"""The tools under fire: whatever is typed on the command line, given as a record to replay, or
typed as a move in ``meeple play``, the answer is a message and exit status 0, 1 or 2, never a
traceback or "internal error" (status 3).

Three kinds of input:

1. command lines: a command, then options and values drawn from every option meeple has and from
   hostile values (huge, negative and non-numbers, NUL and control characters, files that are not
   there, a folder), in any order;
2. records: a real record damaged (lines dropped, swapped, repeated or cut; values replaced by
   other JSON; bytes put in) and replayed;
3. typed moves: any text, one answer per line, fed to ``meeple play``.

``make hunt`` runs them with 25,000 inputs each (``MEEPLE_HOSTILE_EXAMPLES``).
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hostile
from meeple.tools.cli import main

GAME = hostile.ROOT / "games" / "slipstream.rules"
FORBIDDEN = ("Traceback (most recent call last)", "internal error")


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the game, a record of it, a folder and a text file."""
    root = tmp_path_factory.mktemp("tools")
    shutil.copy(GAME, root / "game.rules")
    (root / "folder").mkdir()
    (root / "notes.txt").write_text("not rules\n")
    out, code = run(root, ["simulate", "game.rules", "--games", "1", "--players", "2", "--workers", "1",
                           "--records", str(root / "runs")])
    assert code == 0, out
    return root


def run(folder: Path, argv: list[str], stdin: str = "") -> tuple[str, int]:
    """``meeple ARGV`` in-process, in ``folder``: its output and exit status."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    with contextlib.chdir(folder), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        sys.stdin = io.StringIO(stdin)
        try:
            code = main(argv)
        except SystemExit as e:  # (main returns its status; nothing may exit under it)
            code = e.code if isinstance(e.code, int) else 2
        finally:
            sys.stdin = saved
    return out.getvalue() + err.getvalue(), code


def assert_answered(output: str, code: int, allowed: tuple[int, ...] = (0, 1, 2)) -> None:
    assert code in allowed, f"exit status {code}\n{output}"
    for bad in FORBIDDEN:
        assert bad not in output, output


# ---- 1. command lines ----------------------------------------------------------------------------

HOSTILE_VALUES = ["0", "-1", "1", "2", "3", "x", "", "1e5", "2.5", "9" * 40, "-" + "9" * 5000, "１２",
                  "\x00", "a\x00b", "\x1b[31m", "nothere.rules", "folder", "notes.txt", "game.rules",
                  "goal=3", "=3", "size=", "track_length=9" + "9" * 30, "players=2"]
OPTIONS = ["--games", "-n", "--players", "--seed", "--workers", "-j", "--records", "--json", "--param", "-p",
           "--examples", "--params", "--shrink-time", "--thorough", "--record", "--check", "--write", "-w",
           "--verbose", "-v", "--seat", "--help", "--version", "--gmaes", "-x", "--"]
COMMANDS = ["validate", "ir", "schema", "simulate", "fuzz", "fmt", "diff", "replay", "play", "simualte", ""]
# Values a command would take as a lot of work: kept small where they would be valid.
SMALL = {"--games": "2", "-n": "2", "--examples": "2", "--shrink-time": "1"}


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    words = [draw(st.sampled_from(COMMANDS))]
    if draw(st.booleans()):  # most often a real file: then the options are what is tried
        words.append(draw(st.sampled_from(["game.rules", "runs/game-00001.jsonl", "folder", "notes.txt"])))
    for _ in range(draw(st.integers(0, 6))):
        words.append(draw(st.one_of(st.sampled_from(OPTIONS), st.sampled_from(HOSTILE_VALUES),
                                    st.text(max_size=12))))
    # a value that would be a valid big number of games is made small: the property is about answers
    for i, w in enumerate(words[:-1]):
        if w in SMALL and words[i + 1].isdigit() and 0 < len(words[i + 1]) < 30:
            words[i + 1] = SMALL[w]
    if "--write" in words or "-w" in words:  # never rewrite the game the other inputs use
        words = [w for w in words if w not in ("--write", "-w")]
    return words


@hostile.hunt
@given(argv=command_lines())
def test_any_command_line_is_answered(work: Path, argv: list[str]) -> None:
    output, code = run(work, argv)
    assert_answered(output, code)


# ---- 2. records ----------------------------------------------------------------------------------

def record_lines(work: Path) -> list[str]:
    (record,) = sorted((work / "runs").glob("*.jsonl"))
    return record.read_text(encoding="utf-8").splitlines()


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                         max_size=3),
                           max_leaves=6)


@st.composite
def damaged_records(draw: st.DrawFn, lines: list[str]) -> str:
    lines = list(lines)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["drop", "swap", "repeat", "cut", "value", "bytes", "number"]))
        if how == "drop" and len(lines) > 1:
            del lines[i]
        elif how == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif how == "repeat":
            lines.insert(i, lines[i])
        elif how == "cut":
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
            lines = lines[:i + 1]
        elif how == "bytes":
            k = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:k] + draw(st.text(min_size=1, max_size=4)) + lines[i][k:]
        else:
            try:
                doc = json.loads(lines[i])
            except ValueError:
                continue
            if isinstance(doc, dict) and doc:
                key = draw(st.sampled_from(sorted(doc)))
                doc[key] = draw(JSON_VALUES) if how == "value" else draw(st.sampled_from(
                    [10**40, -(10**40), 2**63, -1, 0, 17]))
                lines[i] = json.dumps(doc)
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


@hostile.hunt
@given(data=st.data())
def test_any_damaged_record_is_answered(work: Path, data: st.DataObject) -> None:
    text = data.draw(damaged_records(record_lines(work)))
    (work / "damaged.jsonl").write_text(text, encoding="utf-8", errors="surrogatepass")
    output, code = run(work, ["replay", "damaged.jsonl"])
    assert_answered(output, code, (0, 1))


# ---- 3. typed moves ------------------------------------------------------------------------------

ANSWERS = st.one_of(st.text(max_size=30), st.sampled_from(["1", "2", "0", "-1", "9" * 5000, "?", "o", "h", "１",
                                                           "play 1 one", "play", "q", "u", "undo", "t", "m",
                                                           "", "[/b]"]))


@hostile.hunt
@given(answers=st.lists(ANSWERS, max_size=12), seed=st.integers(0, 2**32),
       seats=st.sampled_from(["0", "1", "0,1", "1,0"]))
def test_any_typed_moves_are_answered(work: Path, answers: list[str], seed: int, seats: str) -> None:
    """Any answers, with one person or two at the terminal (hot seat), taking moves back or not:
    a message each, and the game as far as it went replays from its record."""
    stdin = "".join(a.replace("\n", " ").replace("\r", " ") + "\n" for a in answers)
    record = work / "played.jsonl"
    record.unlink(missing_ok=True)
    output, code = run(work, ["play", "game.rules", "--players", "2", "--seed", str(seed), "--seat", seats,
                              "--record", str(record)], stdin)
    assert_answered(output, code, (0, 1))
    output, code = run(work, ["replay", str(record)])
    assert code == 0, output
