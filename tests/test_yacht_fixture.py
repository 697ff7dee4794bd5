"""Yacht (tests/fixtures/good/yacht.rules), a dice game of rerolls and a score card: five dice on
a board of 5 x 1 cells (a var per cell each for the face and for a hold), seven boxes a player
fills once each. A scenario for each rule, the dice chosen (chance explicit), and each rule's
change caught."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

import meeple
from mutations import assert_caught, assert_unique_ids, rep
from rules_text import take

RULES = Path(__file__).parent / "fixtures" / "good" / "yacht.rules"
BOXES = ["chance", "three", "four", "full_house", "short_run", "long_run", "yacht"]


def load(path: Path | str = RULES):
    return meeple.load(str(path))


@pytest.fixture(scope="module")
def game():
    return load()


def faces(st) -> list[int]:
    return [st.var("face", (x, 0)) for x in range(5)]


def roll(st, dice: list[int]) -> None:
    """The turn's first throw, each die as ``dice`` says."""
    for f in dice:
        st.apply(f"die {f} into face")


def rethrow(st, dice: list[int]) -> None:
    """A reroll's dice, the dice not held, from the left."""
    take(st, "reroll")
    for f in dice:
        st.apply(f"face = {f}")


def moves(st) -> list[str]:
    return [a.text for a in st.legal_actions()]


def scored(g, dice: list[int], box: str) -> int:
    st = g.new_state(1, chance="explicit")
    roll(st, dice)
    take(st, box)
    return st.var("points", 0)


# ---- a turn ----
def test_a_turn_throws_five_dice_then_the_player_holds_rerolls_or_fills_a_box(game):
    st = game.new_state(2, chance="explicit")
    assert [a.text for a, _ in st.chance_outcomes()] == [f"die {f} into face" for f in range(1, 7)]
    roll(st, [5, 2, 5, 1, 6])
    assert faces(st) == [5, 2, 5, 1, 6] and st.current_player() == 0
    assert moves(st) == [f"hold {x},0" for x in range(5)] + ["reroll"] + BOXES


def test_a_reroll_throws_the_dice_not_held_and_two_are_allowed(game):
    st = game.new_state(2, chance="explicit")
    roll(st, [5, 2, 5, 1, 6])
    take(st, "hold 0,0")
    take(st, "hold 2,0")
    assert "hold 0,0" not in moves(st)
    rethrow(st, [5, 3, 4])
    assert faces(st) == [5, 5, 5, 3, 4]
    rethrow(st, [5, 5, 5])
    assert faces(st) == [5] * 5
    assert moves(st) == BOXES  # (no third reroll, and nothing left to hold for)


def test_filling_a_box_ends_the_turn_and_the_next_turn_holds_nothing(game):
    st = game.new_state(2, chance="explicit")
    roll(st, [5, 2, 5, 1, 6])
    take(st, "hold 0,0")
    take(st, "chance")
    assert st.var("points", 0) == 19 and st.var("used_chance", 0)
    roll(st, [1, 1, 1, 1, 1])
    assert st.current_player() == 1 and not any(st.var("held", (x, 0)) for x in range(5))
    assert "chance" in moves(st) and "reroll" in moves(st)


def test_each_box_is_filled_once(game):
    st = game.new_state(1, chance="explicit")
    roll(st, [1, 2, 3, 4, 5])
    take(st, "long_run")
    roll(st, [1, 2, 3, 4, 5])
    assert "long_run" not in moves(st) and len(moves(st)) == 5 + 1 + 6


# ---- the boxes ----
@pytest.mark.parametrize("dice, box, points", [
    ([6, 6, 5, 1, 2], "chance", 20),
    ([4, 4, 4, 2, 1], "three", 15), ([4, 4, 3, 2, 1], "three", 0), ([4, 4, 4, 4, 1], "three", 17),
    ([3, 3, 3, 3, 6], "four", 18), ([3, 3, 3, 2, 6], "four", 0), ([2, 2, 2, 2, 2], "four", 10),
    ([2, 2, 5, 5, 5], "full_house", 25), ([2, 2, 5, 5, 4], "full_house", 0), ([5, 5, 5, 5, 5], "full_house", 0),
    ([3, 1, 4, 2, 6], "short_run", 30), ([6, 3, 4, 5, 3], "short_run", 30), ([1, 2, 3, 5, 6], "short_run", 0),
    ([2, 3, 4, 5, 6], "long_run", 40), ([5, 4, 3, 2, 1], "long_run", 40), ([1, 2, 3, 4, 6], "long_run", 0),
    ([6, 6, 6, 6, 6], "yacht", 50), ([6, 6, 6, 6, 5], "yacht", 0),
], ids=lambda v: "".join(map(str, v)) if isinstance(v, list) else str(v))
def test_a_box_scores_what_the_dice_fit(game, dice, box, points):
    assert scored(game, dice, box) == points


# ---- the end ----
def test_seven_rounds_fill_every_card_and_the_highest_total_wins(game):
    st = game.new_state(2, chance="explicit")
    throws = {0: [6, 6, 6, 6, 6], 1: [1, 2, 3, 4, 5]}
    for box in BOXES:
        for seat in (0, 1):
            assert not st.is_terminal() and st.current == seat
            roll(st, throws[seat])
            take(st, box)
    assert st.is_terminal() and st.outcome == "end"
    assert st.scores() == [30 + 30 + 30 + 0 + 0 + 0 + 50, 15 + 0 + 0 + 0 + 30 + 40 + 0]
    assert st.winners() == [0]


def test_random_games_last_seven_turns_a_player(game):
    for i in range(12):
        players = 1 + i % 4
        st = game.new_state(players, seed=i)
        rng = random.Random(i)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        assert st.outcome == "end" and st.turns + 1 == 7 * players
        assert all(st.var(f"used_{b}", p) for p in range(players)
                   for b in ("chance", "three", "four", "full", "short", "long", "yacht"))


# ---- each rule's change is caught ----
SOURCE = RULES.read_text()


def box(dice: list[int], name: str, points: int) -> Callable:
    return lambda g: test_a_box_scores_what_the_dice_fit(g, dice, name, points)


MUTATIONS: list[tuple[str, Callable[[str], str], Callable]] = [
    ("five dice", rep("board dice { columns 5 rows 1 }", "board dice { columns 4 rows 1 }"),
     test_a_turn_throws_five_dice_then_the_player_holds_rerolls_or_fills_a_box),
    ("dice of six", rep("roll 1 dice of 6 into face(c)", "roll 1 dice of 5 into face(c)"),
     test_a_turn_throws_five_dice_then_the_player_holds_rerolls_or_fills_a_box),
    ("two rerolls", rep("set rolls_left = 2", "set rolls_left = 3"),
     test_a_reroll_throws_the_dice_not_held_and_two_are_allowed),
    ("held dice stay", rep("for c in dice where not held(c) {", "for c in dice {"),
     test_a_reroll_throws_the_dice_not_held_and_two_are_allowed),
    ("holds end with the turn", rep("  reset held\n", ""),
     test_filling_a_box_ends_the_turn_and_the_next_turn_holds_nothing),
    ("a box ends the turn", rep("points(current) + total\n        set scored = true", "points(current) + total"),
     test_filling_a_box_ends_the_turn_and_the_next_turn_holds_nothing),
    ("a box once", rep("long_run where not used_long(current) {", "long_run where true {"),
     test_each_box_is_filled_once),
    ("chance is the sum", rep("points(current) + total\n", "points(current) + total + 1\n"),
     box([6, 6, 5, 1, 2], "chance", 20)),
    ("three of a kind", rep("(if kind(3) then total", "(if kind(2) then total"), box([4, 4, 3, 2, 1], "three", 0)),
    ("four of a kind", rep("(if kind(4) then total", "(if kind(3) then total"), box([3, 3, 3, 2, 6], "four", 0)),
    ("matching dice", rep("any(n(v) >= k for v in 1..6)", "any(n(v) >= k for v in 1..5)"),
     box([6, 6, 6, 6, 6], "yacht", 50)),
    ("a full house of three", rep("any(n(v) == 3 for v in 1..6) and", "any(n(v) >= 2 for v in 1..6) and"),
     box([2, 2, 5, 5, 4], "full_house", 0)),
    ("a full house and two", rep("and any(n(v) == 2 for v in 1..6)", "and any(n(v) >= 1 for v in 1..6)"),
     box([5, 5, 5, 4, 1], "full_house", 0)),
    ("full house 25", rep("(if full then 25", "(if full then 20"), box([2, 2, 5, 5, 5], "full_house", 25)),
    ("short run of four", rep("(if run(4) then 30", "(if run(3) then 30"), box([1, 2, 3, 5, 6], "short_run", 0)),
    ("long run of five", rep("(if run(5) then 40", "(if run(4) then 40"), box([1, 2, 3, 4, 6], "long_run", 0)),
    ("runs up to six", rep("for v in 1..7 - len)", "for v in 1..6 - len)"), box([2, 3, 4, 5, 6], "long_run", 40)),
    ("yacht 50", rep("(if kind(5) then 50", "(if kind(5) then 40"), box([6, 6, 6, 6, 6], "yacht", 50)),
    ("every box ends", rep("used_yacht(p) and used_long(p)", "used_long(p)"),
     test_seven_rounds_fill_every_card_and_the_highest_total_wins),
    ("the most points win", rep("score(p) = points(p)", "score(p) = 0 - points(p)"),
     test_seven_rounds_fill_every_card_and_the_highest_total_wins),
]


def test_mutation_ids_are_unique():
    assert_unique_ids(MUTATIONS)


@pytest.mark.parametrize("change,scenario", [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_scenario_catches_the_changed_rule(tmp_path, change, scenario):
    assert_caught(tmp_path, SOURCE, "yacht.rules", load, change, scenario)
