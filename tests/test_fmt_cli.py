"""``meeple fmt``: print, check and rewrite rules files in canonical form (dsl/printer.py)."""

from __future__ import annotations

from pathlib import Path

from meeple.tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted([*ROOT.glob("games/*.rules"), *ROOT.glob("games/variants/*.rules"),
                  *ROOT.glob("tests/fixtures/good/*.rules"), *ROOT.glob("tests/fixtures/broken/*.rules")])
MESSY = 'game  "G"\nplayers 2..3\nturn{\n    end game   # over\n}\n'
CANONICAL = 'game "G"\nplayers 2..3\nturn {\n  end game  # over\n}\n'


def test_every_bundled_file_is_in_canonical_form(capsys) -> None:
    assert len(BUNDLED) > 20
    assert main(["fmt", "--check", *map(str, BUNDLED)]) == 0, capsys.readouterr().out


def test_fmt_prints_check_finds_and_write_rewrites(tmp_path: Path, capsys) -> None:
    path = tmp_path / "g.rules"
    path.write_text(MESSY)
    assert main(["fmt", str(path)]) == 0 and capsys.readouterr().out == CANONICAL
    assert main(["fmt", "--check", str(path)]) == 1
    assert f"{path}: not in canonical form" in capsys.readouterr().out
    assert main(["fmt", "--write", str(path)]) == 0 and path.read_text() == CANONICAL
    assert main(["fmt", "--check", str(path)]) == 0


def test_a_file_that_does_not_parse_is_an_error_with_its_position(tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.rules"
    path.write_text('game "G"\nturn {\n')
    assert main(["fmt", "--check", str(path)]) == 1  # (exit 1: the input failed; 2 is for usage mistakes)
    assert f"{path}:2:7: error: unexpected end of file" in capsys.readouterr().err
    assert path.read_text() == 'game "G"\nturn {\n'
