"""Invariants declared in rules files (``invariant name: test``, with ``was(e)`` for the value
before a step): they hold through random games of every bundled game, and a broken rule breaks
the invariant that guards it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import meeple
from meeple.dsl import read_ir
from meeple.dsl.diagnostics import RulesError

ROOT = Path(__file__).resolve().parents[1]
GAMES = [ROOT / "games" / "hare.rules", ROOT / "games" / "luckydog.rules", ROOT / "games" / "slipstream.rules",
         *sorted((ROOT / "games" / "variants").glob("*.rules"))]


def first_broken(g, players: int, seed: int) -> tuple[list[str], int]:
    """Play a seeded random game, checking the invariants after every step: (broken names, step)."""
    state = g.new_state(players, chance="explicit")
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        before = state.clone()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
        steps += 1
        broken = g.broken_invariants(state, before)
        if broken:
            return broken, steps
    return [], steps


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_the_declared_invariants_hold_in_random_games(path: Path) -> None:
    g = meeple.load(str(path))
    assert g.invariants, "every bundled game declares invariants"
    assert g.broken_invariants(g.new_state(g.min_players, seed=0)) == []
    for seed in range(6):
        broken, steps = first_broken(g, g.max_players if seed % 2 else g.min_players, seed)
        assert broken == [], f"seed {seed}: {broken} broken at step {steps}"


def mutated(tmp_path: Path, path: Path, old: str, new: str, **params: int):
    text = path.read_text()
    assert text.count(old) == 1
    copy = tmp_path / path.name
    copy.write_text(text.replace(old, new))
    return meeple.load(str(copy), params=params or None)


def test_an_animal_sent_back_breaks_animals_never_go_back(tmp_path: Path) -> None:
    g = mutated(tmp_path, GAMES[0], "move fox by on_table(fox)", "move fox by 3 - 2 * on_table(fox)")
    found = [first_broken(g, 3, seed)[0] for seed in range(10)]
    assert any("animals_never_go_back" in b for b in found)


def test_a_target_without_its_floor_breaks_targets_at_least_one(tmp_path: Path) -> None:
    g = mutated(tmp_path, GAMES[1], "define target(p) = max(1, ", "define target(p) = max(0, ", goal=1)
    found = [first_broken(g, 4, seed)[0] for seed in range(40)]
    assert any("targets_at_least_one" in b for b in found)


def test_a_card_too_many_breaks_cards_kept(tmp_path: Path) -> None:
    g = mutated(tmp_path, GAMES[0], "cards race in deck {", "cards race in deck {\n  1 stray { animal = hare }")
    broken = g.broken_invariants(g.new_state(3, seed=1))
    assert broken == ["cards_kept"]


def test_was_is_for_invariants_only(tmp_path: Path) -> None:
    text = (GAMES[0]).read_text().replace("report \"1st\" = at_place(course, 1)",
                                          "report \"1st\" = was(at_place(course, 1))")
    path = tmp_path / "was.rules"
    path.write_text(text)
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    assert any("for invariants only" in d.message for d in info.value.diagnostics)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_params_anywhere_in_their_ranges_make_a_valid_game(path: Path) -> None:
    """All params at one end of their ranges, or any two at opposite ends, still give a game
    that loads (the hare's streams once could outnumber the spaces of its track). Each end of
    all is loaded whole (checked, compiled, a state made); each pair is checked (the checks are
    where a param meets the others)."""
    from meeple.dsl import read_checked
    ranges = {p["name"]: (p["lo"], p["hi"]) for p in meeple.load(str(path)).ir["params"]}
    for i in (0, 1):
        game = meeple.load(str(path), params={name: ends[i] for name, ends in ranges.items()})
        game.new_state(game.max_players, seed=i)
    for a in ranges:
        for b in ranges:
            if a != b:
                read_checked(str(path), {a: ranges[a][0], b: ranges[b][1]})
