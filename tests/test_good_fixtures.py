"""The games in tests/fixtures/good/ are small but complete, each exercising other parts
of the language; each checks clean and plays to its end between random players."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import meeple
from meeple.dsl import read_ir

GOOD = Path(__file__).parent / "fixtures" / "good"
FILES = sorted(GOOD.glob("*.rules"))
GAMES = 20


VARIANTS = sorted((GOOD / "variants").glob("*.rules"))


def test_there_are_twenty_two_good_games() -> None:
    assert [p.stem for p in FILES] == ["bazaar", "bluff", "breakthrough", "claims", "colonies", "dash", "dealer",
                                       "eights", "fish", "gavel", "knockout", "ladders", "market", "orchard", "pig",
                                       "ring", "sow", "suits", "summit", "tictac", "tricks", "yacht"]
    assert [p.stem for p in VARIANTS] == ["claims-open", "colonies-wide", "gavel-bank", "orchard-quick", "sow-quiet",
                                          "summit-surefooted"]


@pytest.mark.parametrize("path", FILES + VARIANTS, ids=lambda p: p.stem)
def test_good_game_checks_clean(path: Path) -> None:
    _, warnings = read_ir(str(path))
    assert [w.headline() for w in warnings] == []


@pytest.mark.parametrize("path", FILES + VARIANTS, ids=lambda p: p.stem)
def test_good_game_plays_to_the_end(path: Path) -> None:
    game = meeple.load(str(path))
    ends = 0
    for i in range(GAMES):
        players = game.min_players + i % (game.max_players - game.min_players + 1)
        state = game.new_state(players, seed=i)
        rng = random.Random(i)
        steps = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            assert actions, f"{path.name}, game {i}: no legal action after {state.history()[-3:]}"
            state.apply(rng.choice(actions))
            steps += 1
            assert steps <= game.max_steps
        assert state.is_terminal()
        ends += state.outcome in ("end", "draw")  # (a draw is an end by the rules too)
        assert len(state.scores()) == players
        assert all(0 <= w < players for w in state.winners())
    assert ends == GAMES, "every game ends by its rules, not by the step cap"


def test_constructs_are_covered() -> None:
    """Between them the good games use most of the language."""
    text = "\n".join(p.read_text() for p in FILES)
    for construct in ("track ", "tiles {", "mud at ", "pieces ", "stopping at", "set roll = random 1..6",
                      "per player private", "case ", "else if", "run ", "phase ", "end game", "let ",
                      "reshuffling", "refill ",
                      "of one colour", "keeping ", "enum ", "define ", "tiebreak(p)", "report ", "move all",
                      "set current = random player", " where ", "for c in", "any(", "all(", "sum(", "max(",
                      "random {", "reveal ", "reset ", "show \"", "label ", "board ", "per player hidden"):
        assert construct in text, construct


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_a_good_variant_differs_from_its_base(path: Path, capsys) -> None:
    """The variants in tests/fixtures/good/variants/ each change their base game by a few lines,
    and 'meeple diff' names every change (exit 1: the games differ)."""
    from meeple.tools.cli import main

    assert main(["diff", str(path)]) == 1
    told = capsys.readouterr().out
    changes = [line for line in path.read_text().splitlines()
               if line.split(" ")[0] in ("param", "replace", "remove", "insert")]
    base = GOOD / f"{path.stem.split('-')[0]}.rules"
    assert changes and f"{path} changes {base} in {len(changes) + 1} places:" in told, told
