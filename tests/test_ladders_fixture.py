"""Ladders (tests/fixtures/good/ladders.rules), a race of dice up a track of ladders and snakes
with no decision at all: a scenario for each rule, driven with chance explicit (each roll chosen),
and each rule's change caught."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import meeple
from mutations import assert_caught, assert_unique_ids, rep

RULES = Path(__file__).parent / "fixtures" / "good" / "ladders.rules"
JUMPS = {3: 11, 8: 16, 14: 25, 17: 4, 22: 9, 27: 13}


def load(path: Path | str = RULES):
    return meeple.load(str(path))


@pytest.fixture(scope="module")
def game():
    return load()


def start(g, players: int = 2, at: dict[int, int] | None = None):
    """A game at seat 0's roll, each seat's token at ``at`` (seat → space; 0 elsewhere)."""
    st = g.new_state(players, chance="explicit")
    for seat, space in (at or {}).items():
        st.pos[g.layout.value_id[f"t_{seat}"]] = space
    return st


def at(st, seat: int) -> int:
    return st.pos[st.game.layout.value_id[f"t_{seat}"]]


def roll(st, n: int) -> None:
    st.apply(f"roll = {n}")


# ---- the start and a roll ----
def test_every_token_starts_off_the_track_and_seat_0_rolls_a_die(game):
    st = start(game, 3)
    assert [at(st, s) for s in range(3)] == [0, 0, 0] and st.current == 0
    assert [a.text for a, _ in st.chance_outcomes()] == [f"roll = {n}" for n in range(1, 7)]
    assert game.min_players == 2 and game.max_players == 4


def test_a_roll_moves_the_players_own_token_and_the_turn_passes(game):
    st = start(game, 3)
    roll(st, 4)
    assert [at(st, s) for s in range(3)] == [4, 0, 0] and st.current == 1
    roll(st, 2)
    assert [at(st, s) for s in range(3)] == [4, 2, 0] and st.current == 2


# ---- ladders and snakes ----
@pytest.mark.parametrize("land", sorted(JUMPS))
def test_a_token_landing_at_the_foot_of_a_ladder_or_the_head_of_a_snake_jumps(game, land):
    st = start(game, at={0: land - 2})
    roll(st, 2)
    assert at(st, 0) == JUMPS[land]


def test_a_token_passing_over_a_ladder_does_not_climb_it(game):
    st = start(game, at={0: 2})
    roll(st, 2)
    assert at(st, 0) == 4


# ---- the end ----
def test_a_roll_past_the_last_space_leaves_the_token_where_it_is(game):
    st = start(game, at={0: 28})
    roll(st, 3)
    assert at(st, 0) == 28 and st.current == 1 and not st.is_terminal()


def test_landing_exactly_on_the_last_space_wins(game):
    st = start(game, at={0: 28, 1: 26})
    roll(st, 2)
    assert st.is_terminal() and st.outcome == "end"
    assert st.scores() == [30, 26] and st.winners() == [0]


# ---- a six ----
def test_a_six_rolls_again(game):
    st = start(game)
    roll(st, 6)
    assert at(st, 0) == 6 and st.current == 0
    roll(st, 1)
    assert at(st, 0) == 7 and st.current == 1


def test_a_third_six_in_a_row_passes_the_turn_and_the_count_starts_again(game):
    st = start(game)
    roll(st, 6)
    roll(st, 6)
    assert st.current == 0
    roll(st, 6)  # 18: no third roll again
    assert at(st, 0) == 18 and st.current == 1
    roll(st, 6)  # seat 1's first six
    assert st.current == 1


def test_random_games_end_with_one_token_on_the_last_space(game):
    for i in range(20):
        st = game.new_state(2 + i % 3, seed=i)
        assert st.is_terminal() and st.outcome == "end"  # (no decision: the seeded game plays itself out)
        assert max(at(st, s) for s in range(st.players)) == 30
        assert len(st.winners()) == 1 and at(st, st.winners()[0]) == 30


# ---- each rule's change is caught ----
SOURCE = RULES.read_text()


def scenario(test: Callable, **kw) -> Callable:
    return lambda g: test(g, **kw)


MUTATIONS: list[tuple[str, Callable[[str], str], Callable]] = [
    ("thirty spaces", rep("param goal = 30", "param goal = 31"), test_landing_exactly_on_the_last_space_wins),
    ("a die of six", rep("set roll = random 1..6", "set roll = random 1..5"),
     test_every_token_starts_off_the_track_and_seat_0_rolls_a_die),
    ("one's own token", rep("owner(q) == current and", "owner(q) != current and"),
     test_a_roll_moves_the_players_own_token_and_the_turn_passes),
    ("exact landing", rep("pos(q) + roll <= goal {", "pos(q) + roll <= goal + 6 {"),
     test_a_roll_past_the_last_space_leaves_the_token_where_it_is),
    ("ladder at 3", rep("3: 11,", "3: 12,"),
     scenario(test_a_token_landing_at_the_foot_of_a_ladder_or_the_head_of_a_snake_jumps, land=3)),
    ("ladder at 14", rep("14: 25,", "14: 24,"),
     scenario(test_a_token_landing_at_the_foot_of_a_ladder_or_the_head_of_a_snake_jumps, land=14)),
    ("snake at 17", rep("17: 4,", "17: 5,"),
     scenario(test_a_token_landing_at_the_foot_of_a_ladder_or_the_head_of_a_snake_jumps, land=17)),
    ("snake at 27", rep("27: 13,", "27: 27,"),
     scenario(test_a_token_landing_at_the_foot_of_a_ladder_or_the_head_of_a_snake_jumps, land=27)),
    ("ladders tagged", rep("ladder at 3, 8, 14", "ladder at 8, 14"),
     scenario(test_a_token_landing_at_the_foot_of_a_ladder_or_the_head_of_a_snake_jumps, land=3)),
    ("snakes tagged", rep("snake at 17, 22, 27", "snake at 17, 27"),
     scenario(test_a_token_landing_at_the_foot_of_a_ladder_or_the_head_of_a_snake_jumps, land=22)),
    ("a six again", rep("if roll == 6 and", "if roll == 5 and"), test_a_six_rolls_again),
    ("at most two more", rep("sixes < 2", "sixes < 3"),
     test_a_third_six_in_a_row_passes_the_turn_and_the_count_starts_again),
    ("the count starts again", rep("set sixes = 0", "set sixes = sixes"),
     test_a_third_six_in_a_row_passes_the_turn_and_the_count_starts_again),
    ("the last space ends", rep("end when any(pos(q) == goal", "end when any(pos(q) == goal + 1"),
     test_landing_exactly_on_the_last_space_wins),
    ("the furthest wins", rep("score(p) = sum(pos(q)", "score(p) = 0 - sum(pos(q)"),
     test_landing_exactly_on_the_last_space_wins),
]


def test_mutation_ids_are_unique():
    assert_unique_ids(MUTATIONS)


@pytest.mark.parametrize("change,scenario", [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_scenario_catches_the_changed_rule(tmp_path, change, scenario):
    assert_caught(tmp_path, SOURCE, "ladders.rules", load, change, scenario)
