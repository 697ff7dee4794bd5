"""The ``meeple`` command line: exit codes, messages, JSON outputs, and playing through piped input."""

from __future__ import annotations

import io
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from meeple.tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
RULES = str(ROOT / "games" / "hare.rules")

BAD_RULES = """\
game "Broken"
players 2..4
zone pile hidden
turn {
  move runner by 2
}
"""


@pytest.fixture
def bad_file(tmp_path: Path) -> str:
    path = tmp_path / "bad.rules"
    path.write_text(BAD_RULES)
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# ---- validate ----
def test_validate_ok(capsys):
    code, out, _ = run(capsys, "validate", RULES)
    assert code == 0
    assert out.strip() == f"{RULES}: ok (0 warnings)"


def test_validate_error_has_position_and_caret(capsys, bad_file):
    code, _, err = run(capsys, "validate", bad_file)
    assert code == 1
    assert re.search(rf"^{re.escape(bad_file)}:5:\d+: error: ", err, re.MULTILINE), err
    assert re.search(r"^\s+5 \| .*runner", err, re.MULTILINE), err
    assert re.search(r"^\s+\|\s+\^+\s*$", err, re.MULTILINE), err  # the caret line
    assert re.search(r"\d+ errors?", err)


def test_validate_several_files_fails_if_any_fails(capsys, bad_file):
    code, out, err = run(capsys, "validate", RULES, bad_file)
    assert code == 1
    assert f"{RULES}: ok" in out
    assert "error:" in err


def test_validate_json(capsys, bad_file):
    code, out, _ = run(capsys, "validate", "--json", bad_file)
    assert code == 1
    diags = json.loads(out)
    assert isinstance(diags, list) and diags
    assert any(d["kind"] == "error" and d["line"] == 5 and d["file"] == bad_file for d in diags)
    assert {"file", "line", "col", "kind", "message"} <= set(diags[0])

    code, out, _ = run(capsys, "validate", "--json", RULES)
    assert code == 0 and json.loads(out) == []


def test_validate_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, "validate", str(tmp_path / "nope.rules"))
    assert code == 2  # a file that is not there: a usage mistake
    assert "no such file" in err


def test_validate_not_utf8_and_directory(capsys, tmp_path):
    junk = tmp_path / "junk.rules"
    junk.write_bytes(b"\xff\xfe\x00garbage")
    code, _, err = run(capsys, "validate", str(junk))
    assert code == 1 and "junk.rules" in err
    code, _, err = run(capsys, "validate", str(junk), str(tmp_path))  # a folder: a usage mistake, said first
    assert code == 2 and "is a folder" in err


def test_validate_of_a_record_says_it_is_one_and_how_to_replay_it(capsys, tmp_path):
    """A record given where rules are read (validate, play, ...) got the parser's "unexpected '{'"
    under its first line, as a .jsonl; as a .json, "`meeple replay` reads it" without the file."""
    records = tmp_path / "runs"
    assert main(["simulate", RULES, "--games", "1", "--workers", "1", "--records", str(records), "--json"]) == 0
    capsys.readouterr()
    path = next(records.iterdir())
    for name in ("game.jsonl", "game one.json"):
        path = path.rename(tmp_path / name)
        for command in ("validate", "play"):
            code, _, err = run(capsys, command, str(path))
            assert code == 1 and f"{path}:1:1: error: this is a game record (JSON lines), not a game's rules: " \
                                 f"`meeple replay {shlex.quote(str(path))}` runs it" in err, err
            assert "unexpected" not in err


def test_validate_unknown_param(capsys):
    code, _, err = run(capsys, "validate", RULES, "--param", "no_such_param=3")
    assert code == 2 and "-p no_such_param: unknown param" in err


# ---- ir / schema ----
def test_ir_is_json_and_loads_back(capsys, tmp_path):
    code, out, _ = run(capsys, "ir", RULES)
    assert code == 0
    ir = json.loads(out)
    assert ir["title"] and ir["players"]["lo"] >= 1
    path = tmp_path / "game.json"
    path.write_text(out)
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 0 and "ok" in out
    code, out, _ = run(capsys, "simulate", str(path), "--games", "4", "--players", "3", "--json", "--workers", "1")
    assert code == 0 and json.loads(out)["completed"] == 4


def test_ir_of_bad_file(capsys, bad_file):
    code, out, err = run(capsys, "ir", bad_file)
    assert code == 1 and out == "" and "error:" in err


def test_schema_is_json(capsys):
    code, out, _ = run(capsys, "schema")
    assert code == 0
    assert "$schema" in json.loads(out)


# ---- usage errors ----
@pytest.mark.parametrize("argv", [
    [],
    ["bogus"],
    ["simulate"],
    ["simulate", RULES, "--games", "x"],
    ["simulate", RULES, "--games", "-3"],
    ["simulate", RULES, "--players", "0"],
    ["simulate", RULES, "--workers", "0"],
    ["simulate", RULES, "--param", "novalue"],
    ["simulate", RULES, "--param", "track_length=long"],
    ["validate"],
    ["replay"],
    ["play", RULES, "--seat", "x"],
    ["ir", RULES, "extra"],
])
def test_bad_arguments_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert "usage:" in err or "usage:" in out


def test_help_teaches(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "examples:" in out
    for command in ("validate", "ir", "schema", "simulate", "replay", "play"):
        code, out, _ = run(capsys, command, "--help")
        assert code == 0 and "usage:" in out
        assert "example" in out, command


def test_players_out_of_range(capsys):
    code, _, err = run(capsys, "simulate", RULES, "--players", "9", "--games", "2")
    assert code == 2 and "players" in err


def test_module_entry_point_no_traceback():
    r = subprocess.run([sys.executable, "-m", "meeple", "simulate", RULES, "--games", "x"],
                       capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and "--games" in r.stderr
    r = subprocess.run([sys.executable, "-m", "meeple", "validate", RULES],
                       capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    assert r.returncode == 0 and "ok" in r.stdout


# ---- play ----
def test_play_full_game_through_piped_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 5000))
    code, out, _ = run(capsys, "play", RULES, "--players", "3", "--seat", "1", "--seed", "4")
    assert code == 0
    assert "game over" in out
    assert "Outcome: end" in out
    assert "you:" in out and "(bot)" in out
    for label in ("1st", "2nd", "3rd"):  # the rules' reports
        assert f"{label}:" in out


def test_play_accepts_text_help_and_rejects_nonsense(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("?\n0\nnot a move\nq\n"))
    code, out, _ = run(capsys, "play", RULES, "--players", "2", "--seat", "0", "--seed", "1")
    assert code == 0
    assert "Answer with the number" in out
    assert out.count("Not a legal move") == 2
    assert "Quit." in out


def test_play_exact_text(capsys, monkeypatch):
    # see the moves at seat 0's first decision, then answer with the first one's text
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, _ = run(capsys, "play", RULES, "--players", "2", "--seat", "0", "--seed", "3")
    move = re.search(r"^\s+1\. (.+)$", out, re.MULTILINE).group(1).strip()
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{move}\nq\n"))
    code, out, _ = run(capsys, "play", RULES, "--players", "2", "--seat", "0", "--seed", "3")
    assert code == 0 and f"you: {move}" in out


def test_play_eof_exits_cleanly(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, _ = run(capsys, "play", RULES, "--players", "2", "--seed", "2")
    assert code == 1 and "End of input before the game ended" in out  # a script can tell: not finished


def test_play_bad_seat(capsys):
    code, _, err = run(capsys, "play", RULES, "--players", "2", "--seat", "2")
    assert code == 2 and "--seat" in err


def test_play_hides_other_seats_private_moves(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 5000))
    code, out, _ = run(capsys, "play", RULES, "--players", "4", "--seat", "0", "--seed", "9")
    assert code == 0
    # bets go to a private zone: a bot's bet is never shown
    assert re.search(r"seat \d \(bot\): bet \(hidden from you\)", out)
    assert not re.search(r"seat \d \(bot\): bet 1 ", out)


def test_play_subprocess_pipe():
    r = subprocess.run([sys.executable, "-m", "meeple", "play", RULES, "--players", "2", "--seed", "5"],
                       input="1\n" * 5000, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    assert r.returncode == 0, r.stderr
    assert "game over" in r.stdout and "Traceback" not in r.stderr


def test_an_engine_bug_is_an_internal_error_never_blamed_on_the_rules(monkeypatch, capsys):
    """An exception from the engine's own code is a bug: exit 3, said to be one, with how to report it."""
    import meeple.interpreter.game as game_module

    def broken(*args, **kwargs):
        raise TypeError("unsupported operand type(s) for +: 'int' and 'NoneType'")
    monkeypatch.setattr(game_module, "compile_program", broken)
    assert main(["validate", RULES]) == 3
    err = capsys.readouterr().err
    assert "internal error: TypeError" in err and "bug in meeple" in err and "MEEPLE_DEBUG=1" in err
    assert "do not compile" not in err and "rules" not in err.split("\n")[0]


def test_a_rule_that_fails_in_play_is_the_rules_mistake(tmp_path, monkeypatch, capsys):
    """A rules error at run time is shown with its rules line and exit 1, not as a bug in meeple."""
    path = tmp_path / "rt.rules"
    path.write_text('game "RT"\nplayers 2..2\nvar w = none\ntrack lane { spaces 5 }\npieces runner on lane { r1 }\n'
                    'turn {\n  if false { set w = r1 }\n  move w by 1\n}\n')
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", str(path), "--players", "2", "--seat", "0"]) == 1
    err = capsys.readouterr().err
    assert f"{path}:8:3: " in err and "none" in err and "bug in meeple" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["schema"], ["validate", str(ROOT / "games" / "hare.rules")],
                                  ["simulate", str(ROOT / "games" / "hare.rules"), "--games", "3", "--workers", "1"]])
def test_output_that_cannot_be_written_is_said_not_an_internal_error(argv):
    """A full disk (standard output on /dev/full): the machine's trouble, said as such, exit 1."""
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "meeple", *argv], stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=120)
    assert r.returncode == 1, r.stderr
    assert "No space left on device" in r.stderr and "internal error" not in r.stderr and "Traceback" not in r.stderr


def test_a_closed_standard_output_is_said_not_passed_over(monkeypatch, capsys):
    """Started with standard output closed (``>&-``), Python drops what is printed: the command
    says so and exits 1 rather than report success with its output lost (and in a real process,
    ``sh -c 'meeple validate RULES >&-'``)."""
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["validate", RULES]) == 1
    assert "standard output is closed" in capsys.readouterr().err
    r = subprocess.run(["sh", "-c", f'"{sys.executable}" -m meeple ir "{RULES}" >&-'], stderr=subprocess.PIPE,
                       text=True, timeout=120)
    assert r.returncode == 1 and "meeple ir: error: standard output is closed" in r.stderr, r.stderr


def test_a_command_that_writes_elsewhere_runs_with_standard_output_closed(tmp_path):
    """``compile -o`` and ``fmt --write`` do not write to standard output: closed, it is no error."""
    import shlex
    rules = tmp_path / "h.rules"
    rules.write_text(Path(RULES).read_text(encoding="utf-8"), encoding="utf-8")
    for argv in (["compile", str(rules), "-o", str(tmp_path / "h.py")], ["fmt", "--write", str(rules)]):
        r = subprocess.run(["sh", "-c", f"{shlex.quote(sys.executable)} -m meeple {shlex.join(argv)} >&-"],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
    assert (tmp_path / "h.py").read_text(encoding="utf-8").startswith('"""The Hare and the Tortoise')


@pytest.mark.parametrize("argv, closed, code", [
    (["simulate", RULES, "--games", "3", "--workers", "1"], "2>&-", 0),  # (messages and progress go nowhere)
    (["fuzz", str(ROOT / "games" / "slipstream.rules"), "--examples", "3"], "2>&-", 0),
    (["play", RULES, "--players", "3", "--plain"], "<&-", 1),  # (an input that has ended)
])
def test_a_closed_standard_input_or_error_is_no_internal_error(argv, closed, code):
    import shlex
    r = subprocess.run(["sh", "-c", f"{shlex.quote(sys.executable)} -m meeple {shlex.join(argv)} {closed}"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == code and "internal error" not in r.stdout + r.stderr, r.stdout + r.stderr


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs named pipes")
def test_a_pipe_named_as_a_file_is_refused_not_waited_on(tmp_path, capsys):
    """Opening a pipe waits for a writer: named on the command line, or by a record, it is said."""
    import os
    from meeple.dsl import RulesError, read_text
    pipe = tmp_path / "game.rules"
    os.mkfifo(pipe)
    assert main(["validate", str(pipe)]) == 2
    assert "is a pipe, not a file" in capsys.readouterr().err
    with pytest.raises(RulesError, match="it is a pipe, not a file"):
        read_text(str(pipe))


def test_a_record_with_a_byte_order_mark_is_read(tmp_path, capsys):
    """Some editors start a UTF-8 file with a byte-order mark: not part of the record."""
    records = tmp_path / "runs"
    assert main(["simulate", RULES, "--games", "1", "--workers", "1", "--records", str(records), "--json"]) == 0
    capsys.readouterr()
    record = next(records.iterdir())
    record.write_text(record.read_text(encoding="utf-8"), encoding="utf-8-sig")
    assert main(["replay", str(record)]) == 0
    assert ": ok (" in capsys.readouterr().out


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_said_to_be_utf16(capsys, tmp_path, encoding):
    """Some editors save UTF-16: said as such (it was 'byte 0 is 0xff', or a NUL error per line)."""
    path = tmp_path / "wide.rules"
    path.write_text(Path(RULES).read_text(encoding="utf-8"), encoding=encoding)
    code, _, err = run(capsys, "validate", str(path))
    assert code == 1 and "wide.rules:1:1: error: the file is UTF-16 text, not UTF-8" in err and err.count("error:") == 1


def test_a_file_name_that_is_not_utf8_is_pasted_as_its_bytes() -> None:
    """A name's byte that is not UTF-8 (read as a lone surrogate) is written as that byte, \\xff,
    which bash's $'...' reads back as the same name (\\udcff would be three other bytes)."""
    import os

    from meeple.tools.markup import shell_word
    name = os.fsdecode(b"g\xff.rules")
    assert shell_word(name) == "$'g\\xff.rules'"
