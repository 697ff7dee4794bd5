"""Every file in games/variants/: a short file that says what it tries and extends a bundled game,
validates with no warning, and plays seeded games between random players to their end."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.tools.cli import main
from meeple.tools.simulate import END, play_one

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = sorted((ROOT / "games" / "variants").glob("*.rules"))


def test_there_are_variants_of_each_game() -> None:
    names = {p.stem for p in VARIANTS}
    assert {"hare-boost", "hare-delayed-howl", "hare-long-track", "hare-six-animals",
            "luckydog-adjacent-start", "luckydog-detour-all", "luckydog-short"} <= names


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_a_variant_says_what_it_tries_and_extends_a_game(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# "), "a variant starts with a comment saying what it tries"
    code = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    assert code[0].startswith('extends "../') and code[0].endswith('.rules"')
    assert (path.parent / code[0].split('"')[1]).is_file()


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_a_variant_validates_and_plays_to_the_end(path: Path, capsys) -> None:
    assert main(["validate", str(path)]) == 0
    assert "ok (0 warnings)" in capsys.readouterr().out
    game = meeple.load(str(path))
    for players in sorted({game.min_players, game.max_players}):
        for index in range(2):
            kind, turns, *_, error = play_one(game, players, seed=7, index=index)
            assert (kind, error) == (END, None), f"{players} players, game {index + 1}: {kind} after {turns} turns"
