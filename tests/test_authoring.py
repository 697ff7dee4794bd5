"""docs/authoring.md, the tutorial that builds Slipstream, stays true.

The tutorial marks each whole rules file it shows with ``<!-- file: NAME (step N) -->`` just
before its ```rules block, and the outputs the tests compare with ``<!-- output: WHAT -->``.
Checked here: the last file of the tutorial is games/slipstream.rules and its variant is
games/variants/slipstream-wide-draft.rules; every file it shows validates; the deliberate
mistakes give the errors it shows; the finished game simulates and fuzzes cleanly.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import meeple
from meeple.tools.cli import main
from meeple.tools.fuzz import fuzz
from meeple.tools.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "authoring.md").read_text()
GAME = ROOT / "games" / "slipstream.rules"
VARIANT = ROOT / "games" / "variants" / "slipstream-wide-draft.rules"

FILES = [(name, int(step), text) for name, step, text in
         re.findall(r"<!-- file: (\S+) \(step (\d+)\) -->\n```rules\n(.*?)```", DOC, flags=re.DOTALL)]
STEPS = [(step, text) for name, step, text in FILES if name == "slipstream.rules"]


def output(what: str) -> str:
    """The output the tutorial shows under ``<!-- output: what -->``, without its command line."""
    (block,) = re.findall(r"<!-- output: " + re.escape(what) + r" -->\n```console\n(.*?)```", DOC, flags=re.DOTALL)
    return "".join(line + "\n" for line in block.splitlines() if not line.startswith("$ "))


def step(n: int) -> str:
    (text,) = [t for s, t in STEPS if s == n]
    return text


def validate(tmp_path: Path, monkeypatch, capsys, text: str, name: str = "slipstream.rules") -> tuple[int, str]:
    """Run ``meeple validate NAME`` on ``text`` in a fresh folder, as the tutorial does: exit status, output."""
    (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    code = main(["validate", name])
    out = capsys.readouterr()
    return code, out.out + out.err


def changed(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1
    return text.replace(old, new)


# ---- (a) the tutorial ends with the bundled files ----
def test_the_tutorial_shows_each_step_in_order():
    assert [s for s, _ in STEPS] == list(range(1, len(STEPS) + 1)) and len(STEPS) >= 6


def test_the_last_file_of_the_tutorial_is_the_bundled_game():
    assert STEPS[-1][1] == GAME.read_text()


def test_the_variant_of_the_tutorial_is_the_bundled_variant():
    (text,) = [t for name, _, t in FILES if name == "wide-draft.rules"]
    assert changed(text, 'extends "slipstream.rules"', 'extends "../slipstream.rules"') == VARIANT.read_text()


# ---- (b) the finished game ----
def test_the_game_validates_without_warnings():
    assert meeple.load(str(GAME)).warnings == []
    assert meeple.load(str(VARIANT)).warnings == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_all_end(players):
    s = simulate(str(GAME), games=200, players=players, seed=1, workers=1)
    assert s["completed"] == 200, s
    assert (s["step_capped"], s["stuck"], s["errors"], s["draws"], s["shared"]) == (0, 0, 0, 0, 0)


def test_the_game_passes_fuzzing():
    report = fuzz(meeple.load(str(GAME)), examples=30, seed=1)
    assert report.failure is None, report.failure
    assert report.finished >= 30 and {"play", "shove"} <= report.decisions


def test_the_broken_shove_of_step_6_is_caught_by_fuzzing(tmp_path):
    path = tmp_path / "slipstream.rules"
    path.write_text(changed(GAME.read_text(), "set space(q) = max(0, space(q) - 2)", "set space(q) = space(q) - 2"))
    assert "          set space(q) = space(q) - 2\n" in DOC
    report = fuzz(meeple.load(str(path)), examples=30, seed=1, shrink_seconds=1)
    assert report.failure is not None and report.failure.invariant == "pawns_on_the_track"


# ---- (c) every file the tutorial shows ----
@pytest.mark.parametrize("name,n,text", FILES, ids=[f"{name} step {n}" for name, n, _ in FILES])
def test_every_file_of_the_tutorial_validates(tmp_path, monkeypatch, capsys, name, n, text):
    if name != "slipstream.rules":
        (tmp_path / "slipstream.rules").write_text(step(n - 1))  # a variant's base: the step before
    code, out = validate(tmp_path, monkeypatch, capsys, text, name)
    assert code == 0, out
    # step 1 leaves 'hand' unused; nothing ends the game of step 2, and nothing reads its 'space' yet
    assert out.startswith(f"{name}: ok ({ {1: '1 warning', 2: '2 warnings'}.get(n, '0 warnings')})"), out


def test_the_typo_gives_the_error_shown(tmp_path, monkeypatch, capsys):
    assert "```rules\ncards move in dek {\n```" in DOC
    code, out = validate(tmp_path, monkeypatch, capsys, changed(step(1), "cards move in deck {", "cards move in dek {"))
    assert code == 1 and out == output("the typo")


def test_the_grammar_mistake_gives_the_error_shown(tmp_path, monkeypatch, capsys):
    assert "with `players 2 to 4` you get" in DOC
    code, out = validate(tmp_path, monkeypatch, capsys, changed(step(1), "players 2..4", "players 2 to 4"))
    assert code == 1 and out == output("the grammar mistake")
