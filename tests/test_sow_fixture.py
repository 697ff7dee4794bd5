"""Sow (tests/fixtures/good/sow.rules), a sowing game in the manner of Kalah: the rules held to a
model of them written here in Python, a scenario for each rule, and each rule's change caught.

The board is 8 x 2 cells: seat 0's pits are 1,0 to 6,0 and its store 7,0; seat 1's pits are 6,1 to
1,1 (sown right to left) and its store 0,1. Cells are numbered x + 8y, as the state numbers them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

import meeple
from mutations import assert_caught, assert_unique_ids, rep
from rules_text import take

RULES = Path(__file__).parent / "fixtures" / "good" / "sow.rules"
SEEDS = 4
RING = [1, 2, 3, 4, 5, 6, 7, 14, 13, 12, 11, 10, 9, 8]  # the cells anticlockwise, from seat 0's first pit
STORE = (7, 8)  # each seat's store
PITS = (range(1, 7), range(9, 15))  # each seat's pits


def load(path: Path | str = RULES):
    return meeple.load(str(path))


@pytest.fixture(scope="module")
def game():
    return load()


def name(cell: int) -> str:
    return f"{cell % 8},{cell // 8}"


def held(st) -> list[int]:
    return [st.var("held", c) for c in range(16)]


def position(g, seeds: dict[int, int], seat: int = 0):
    """A state at ``seat``'s decision with the seeds where ``seeds`` (cell → seeds) puts them, none elsewhere."""
    st = g.new_state(2, seed=0)
    for c in range(16):
        st.set_var("held", seeds.get(c, 0), c)
    st.current = seat
    st.restart_turn()
    return st


class Model:
    """The rules of Sow as they read."""

    def __init__(self, seeds: list[int], seat: int = 0) -> None:
        self.held, self.current, self.over = list(seeds), seat, False

    def legal(self) -> list[str]:
        return [f"take {name(c)}" for c in sorted(PITS[self.current], key=lambda c: (c // 8, c % 8)) if self.held[c]]

    def sow(self, cell: int) -> None:
        me, rival = self.current, 1 - self.current
        n, self.held[cell] = self.held[cell], 0
        at = RING.index(cell)
        for _ in range(n):
            at = (at + 1) % len(RING)
            if RING[at] == STORE[rival]:
                at = (at + 1) % len(RING)
            self.held[RING[at]] += 1
        last = RING[at]
        across = last + 8 if last < 8 else last - 8
        again = last == STORE[me]
        if not again and last in PITS[me] and self.held[last] == 1 and self.held[across] > 0:
            self.held[STORE[me]] += self.held[last] + self.held[across]
            self.held[last] = self.held[across] = 0
        if any(not any(self.held[c] for c in PITS[p]) for p in (0, 1)):
            for p in (0, 1):
                for c in PITS[p]:
                    self.held[STORE[p]] += self.held[c]
                    self.held[c] = 0
            self.over = True
        elif not again:
            self.current = rival

    def scores(self) -> list[int]:
        return [self.held[STORE[0]], self.held[STORE[1]]]


def referee_game(g, games: int = 20, seed: int = 0) -> None:
    for i in range(games):
        st = g.new_state(2, seed=seed + i)
        rng = random.Random(seed + i)
        model = Model(held(st))
        while not st.is_terminal():
            assert st.current_player() == model.current
            assert [a.text for a in st.legal_actions()] == model.legal()
            move = rng.choice(model.legal())
            take(st, move)
            x, y = move.split()[1].split(",")
            model.sow(int(x) + 8 * int(y))
            assert held(st) == model.held, move
        assert model.over and st.outcome == "end"
        assert st.scores() == model.scores()
        best = max(model.scores())
        assert st.winners() == [p for p in (0, 1) if model.scores()[p] == best]


# ---- the board and the start ----
def test_two_players_only(game):
    assert game.min_players == game.max_players == 2


def test_four_seeds_in_each_pit_and_seat_0_first(game):
    st = game.new_state(2, seed=0)
    assert held(st) == [0] + [SEEDS] * 6 + [0, 0] + [SEEDS] * 6 + [0]
    assert st.current_player() == 0
    assert [a.text for a in st.legal_actions()] == [f"take {x},0" for x in range(1, 7)]


# ---- a move ----
def test_only_a_pit_of_ones_own_with_seeds_may_be_sown(game):
    st = position(game, {2: 3, 5: 1, 7: 4, 9: 2, 13: 1}, seat=1)
    assert [a.text for a in st.legal_actions()] == ["take 1,1", "take 5,1"]


def test_seeds_go_one_by_one_anticlockwise_through_ones_own_store(game):
    st = position(game, {4: 5, 10: 1})
    take(st, "take 4,0")
    assert held(st) == [0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 0, 0, 1, 1, 0]
    assert st.current_player() == 1


def test_the_rivals_store_is_passed_over(game):
    st = position(game, {6: 10, 12: 1, 3: 1})
    take(st, "take 6,0")  # 7,0 then 6,1 ... 1,1, not 0,1, then 1,0 2,0 3,0
    assert held(st)[8] == 0
    assert held(st) == [0, 1, 1, 2, 0, 0, 0, 1, 0, 1, 1, 1, 2, 1, 1, 0]


def test_a_last_seed_in_ones_own_store_earns_another_move(game):
    st = position(game, {5: 2, 3: 1, 12: 1}, seat=0)
    take(st, "take 5,0")
    assert held(st)[7] == 1 and st.current_player() == 0
    st = position(game, {10: 2, 12: 1, 3: 1}, seat=1)
    take(st, "take 2,1")
    assert held(st)[8] == 1 and st.current_player() == 1


def test_a_last_seed_in_an_empty_pit_of_ones_own_captures_the_pit_across(game):
    st = position(game, {2: 1, 11: 5, 4: 1, 14: 1})
    take(st, "take 2,0")  # into 3,0, empty; across it, 3,1 holds 5
    assert held(st)[3] == 0 and held(st)[11] == 0 and held(st)[7] == 6
    assert st.current_player() == 1


@pytest.mark.parametrize("seeds, why", [({2: 1, 3: 2, 11: 5, 14: 1}, "the pit was not empty"),
                                        ({2: 1, 14: 1, 9: 2}, "nothing across it")])
def test_no_capture_in_a_pit_that_held_seeds_or_with_nothing_across(game, seeds, why):
    st = position(game, seeds)
    take(st, "take 2,0")
    assert held(st)[7] == 0, why


def test_no_capture_on_the_rivals_side(game):
    st = position(game, {5: 3, 6: 2, 2: 1, 12: 3})
    take(st, "take 5,0")  # 6,0, 7,0, then 6,1, which was empty: the rival's
    assert held(st)[14] == 1 and held(st)[7] == 1 and held(st)[6] == 3


# ---- the end ----
def test_an_empty_row_ends_the_game_and_each_stores_the_seeds_on_their_side(game):
    st = position(game, {6: 1, 7: 10, 8: 12, 10: 3, 13: 2})
    take(st, "take 6,0")  # the last seed in seat 0's store; seat 0's row is empty
    assert st.is_terminal() and st.outcome == "end"
    assert held(st)[7] == 11 and held(st)[8] == 17 and sum(held(st)) == 28
    assert st.scores() == [11, 17] and st.winners() == [1]


def test_the_rows_are_swept_when_seat_1s_row_empties(game):
    st = position(game, {3: 4, 1: 2, 9: 1, 8: 5, 7: 3}, seat=1)
    take(st, "take 1,1")  # the seed goes into seat 1's store: seat 1's row is empty
    assert st.is_terminal() and held(st)[7] == 9 and held(st)[8] == 6


def test_more_seeds_in_store_wins_and_equal_stores_share(game):
    st = position(game, {6: 1, 7: 10, 8: 11, 10: 1})
    take(st, "take 6,0")
    assert st.scores() == [11, 12] and st.winners() == [1]
    st = position(game, {6: 1, 7: 11, 8: 11, 10: 1})
    take(st, "take 6,0")
    assert st.scores() == [12, 12] and st.winners() == [0, 1]


def test_random_games_follow_the_rules(game):
    referee_game(game)


# ---- each rule's change is caught ----
SOURCE = RULES.read_text()
AHEAD = "define ahead(c) = if row(c) == 0 then (if col(c) < 7 then neighbour(c, E) else cell(tray, 6, 1))"
CAPTURE = "held(last) == 1 and held(across(last)) > 0"


def scenario(test: Callable, **kw) -> Callable:
    return lambda g: test(g, **kw)


MUTATIONS: list[tuple[str, Callable[[str], str], Callable]] = [
    ("four seeds", rep("param seeds = 4", "param seeds = 5"), test_four_seeds_in_each_pit_and_seat_0_first),
    ("stores start empty", rep("for c in tray where pit(c) {", "for c in tray {"),
     test_four_seeds_in_each_pit_and_seat_0_first),
    ("six pits a row", rep("col(c) >= 1 and col(c) <= 6", "col(c) >= 1 and col(c) <= 5"),
     test_four_seeds_in_each_pit_and_seat_0_first),
    ("one's own pits", rep("pit(c) and side(c) == current and held(c) > 0", "pit(c) and held(c) > 0"),
     test_only_a_pit_of_ones_own_with_seeds_may_be_sown),
    ("a pit with seeds", rep("side(c) == current and held(c) > 0", "side(c) == current and held(c) >= 0"),
     test_only_a_pit_of_ones_own_with_seeds_may_be_sown),
    ("the pit is emptied", rep("set held(c) = 0\n      set last = c", "set last = c"),
     test_seeds_go_one_by_one_anticlockwise_through_ones_own_store),
    ("anticlockwise along row 0", rep(AHEAD, AHEAD.replace("then neighbour(c, E)", "then neighbour(c, W)")),
     test_seeds_go_one_by_one_anticlockwise_through_ones_own_store),
    ("from the store to row 1", rep(AHEAD, AHEAD.replace("cell(tray, 6, 1)", "cell(tray, 7, 1)")),
     test_the_rivals_store_is_passed_over),
    ("back along row 1", rep("neighbour(c, W) else cell(tray, 1, 0)", "neighbour(c, W) else cell(tray, 0, 0)"),
     test_the_rivals_store_is_passed_over),
    ("the rival's store passed over", rep("if ahead(c) == store(next(current)) then ahead(ahead(c)) else ahead(c)",
                                          "ahead(c)"), test_the_rivals_store_is_passed_over),
    ("one seed a pit", rep("set held(last) = held(last) + 1", "set held(last) = held(last) + 2"),
     test_seeds_go_one_by_one_anticlockwise_through_ones_own_store),
    ("another move", rep("[again] set next = current", "[again] set next = next(current)"),
     test_a_last_seed_in_ones_own_store_earns_another_move),
    ("another move in one's own store", rep("if last == store(current) {", "if last == store(next(current)) {"),
     test_a_last_seed_in_ones_own_store_earns_another_move),
    ("capture in an empty pit", rep(CAPTURE, CAPTURE.replace("held(last) == 1", "held(last) >= 1")),
     scenario(test_no_capture_in_a_pit_that_held_seeds_or_with_nothing_across, seeds={2: 1, 3: 2, 11: 5, 14: 1},
              why="")),
    ("capture with seeds across", rep(CAPTURE, CAPTURE.replace("> 0", ">= 0")),
     scenario(test_no_capture_in_a_pit_that_held_seeds_or_with_nothing_across, seeds={2: 1, 14: 1, 9: 2}, why="")),
    ("capture on one's own side", rep("pit(last) and side(last) == current and", "pit(last) and"),
     test_no_capture_on_the_rivals_side),
    ("capture both pits", rep("held(store(current)) + held(last) + held(across(last))",
                              "held(store(current)) + held(across(last))"),
     test_a_last_seed_in_an_empty_pit_of_ones_own_captures_the_pit_across),
    ("the pit across", rep("define across(c) = cell(tray, col(c), 1 - row(c))",
                           "define across(c) = cell(tray, 7 - col(c), 1 - row(c))"),
     test_a_last_seed_in_an_empty_pit_of_ones_own_captures_the_pit_across),
    ("either row empty ends", rep("row_empty(seat(0)) or row_empty(seat(1))",
                                  "row_empty(seat(0)) and row_empty(seat(1))"),
     test_an_empty_row_ends_the_game_and_each_stores_the_seeds_on_their_side),
    ("each stores their own side", rep("set held(store(side(c))) = held(store(side(c))) + held(c)",
                                       "set held(store(current)) = held(store(current)) + held(c)"),
     test_an_empty_row_ends_the_game_and_each_stores_the_seeds_on_their_side),
    ("the store wins", rep("score(p) = held(store(p))", "score(p) = 0 - held(store(p))"),
     test_more_seeds_in_store_wins_and_equal_stores_share),
]


def test_mutation_ids_are_unique():
    assert_unique_ids(MUTATIONS)


@pytest.mark.parametrize("change,scenario", [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_scenario_catches_the_changed_rule(tmp_path, change, scenario):
    assert_caught(tmp_path, SOURCE, "sow.rules", load, change, scenario)
