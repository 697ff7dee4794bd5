"""Colonies (tests/fixtures/good/colonies.rules), claiming the cells of a map and scoring the
largest colony: the rules held to a model of them written here in Python, a scenario for each
rule, and each rule's change caught.

The game has no query for the connected areas of a board: the rules work them out with passes of
a flood fill over a per-cell var (phase 'measure'), and the tests hold the result to a search.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

import meeple
from mutations import assert_caught, assert_unique_ids, rep
from rules_text import take

RULES = Path(__file__).parent / "fixtures" / "good" / "colonies.rules"
SIZE, HAND = 5, 2
TERRAINS = ("forest", "lake", "field")
CARDS = {"plot_forest": 8, "plot_lake": 8, "plot_field": 8, "wild": 4}
CELLS = [(x, y) for y in range(SIZE) for x in range(SIZE)]  # row by row from the bottom, as the board


def load(path: Path | str = RULES):
    return meeple.load(str(path))


@pytest.fixture(scope="module")
def game():
    return load()


def claims(st) -> dict[tuple[int, int], int]:
    """Who claimed each claimed cell."""
    return {c: st.var("claim", c) for c in CELLS if st.var("claim", c) != -1}


def lands(g, st) -> dict[tuple[int, int], str]:
    return {c: g.value_name(st.var("land", c)) for c in CELLS}


def fits(card: str, land: str) -> bool:
    return card == "wild" or card == f"plot_{land}"


def legal(hand: dict[str, int], land: dict, claimed: dict) -> list[str]:
    """The moves the rules allow: claim a free cell a card fits; else throw a card away."""
    moves = [f"claim {k} {x},{y}" for k in hand for (x, y) in CELLS
             if (x, y) not in claimed and fits(k, land[(x, y)])]
    return moves or [f"throw {k}" for k in hand]


def largest(claimed: dict, seat: int, corners: bool = False) -> int:
    """The most cells of ``seat`` joined side by side, by a search."""
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)] + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if corners else [])
    seen: set = set()
    best = 0
    for start in (c for c, p in claimed.items() if p == seat):
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            x, y = todo.pop()
            for dx, dy in steps:
                n = (x + dx, y + dy)
                if claimed.get(n) == seat and n not in group:
                    group.add(n)
                    todo.append(n)
        seen |= group
        best = max(best, len(group))
    return best


def results(claimed: dict, players: int) -> tuple[list[int], list[int]]:
    """The scores and the winners: the largest colony, then the most cells."""
    scores = [largest(claimed, p) for p in range(players)]
    cells = [sum(1 for q in claimed.values() if q == p) for p in range(players)]
    best = max(zip(scores, cells))
    return scores, [p for p in range(players) if (scores[p], cells[p]) == best]


def position(g, land: dict, claimed: dict, hand: dict[str, int], seat: int = 0, players: int = 2):
    """A state at ``seat``'s decision: the map's terrains (cell → terrain, forest where not given),
    the claims, ``hand`` in the seat's hand, the other hands empty, the rest of the cards in the deck."""
    st = g.new_state(players, seed=0)
    for c in CELLS:
        st.set_var("land", land.get(c, "forest"), c)
        st.set_var("claim", claimed.get(c, -1), c)
    for p in range(players):
        st.set_zone("hand", hand if p == seat else {}, seat=p)
    st.set_zone("discard", {})
    st.set_zone("deck", {k: n - hand.get(k, 0) for k, n in CARDS.items()})
    st.current = seat
    st.restart_turn()
    return st


def referee_game(g, players: int, games: int = 6, seed: int = 0) -> None:
    for i in range(games):
        st = g.new_state(players, seed=seed + i)
        rng = random.Random(seed + i)
        land = lands(g, st)
        claimed: dict = {}
        while not st.is_terminal():
            me = st.current_player()
            assert claims(st) == claimed
            moves = legal(st.zone("hand", me), land, claimed)
            assert sorted(a.text for a in st.legal_actions()) == sorted(moves)
            move = rng.choice(moves)
            take(st, move)
            if move.startswith("claim"):
                x, y = move.split()[2].split(",")
                claimed[(int(x), int(y))] = me
            left = sum(st.zone("deck").values()) + sum(st.zone("discard").values())
            assert st.is_terminal() or sum(st.zone("hand", me).values()) == HAND or left == 0
            assert sum(sum(st.zone("hand", p).values()) for p in range(players)) + left == sum(CARDS.values())
        assert st.outcome == "end" and len(claimed) == SIZE * SIZE
        assert (st.scores(), st.winners()) == results(claimed, players)


# ---- players, components, setup ----
@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(game, players):
    assert (game.min_players, game.max_players) == (2, 4)
    with pytest.raises(ValueError):
        game.new_state(players, seed=0)


def test_twenty_eight_land_cards(game):
    st = game.new_state(3, seed=0)
    held = [st.zone("deck"), *(st.zone("hand", p) for p in range(3))]
    assert {k: sum(z.get(k, 0) for z in held) for k in CARDS} == CARDS and sum(sum(z.values()) for z in held) == 28


def test_each_cell_gets_a_terrain_at_random_and_each_player_two_cards(game):
    st = game.new_state(3, chance="explicit")
    for _ in CELLS:  # one draw a cell, each terrain as likely
        outcomes = st.chance_outcomes()
        assert sorted(a.text for a, _ in outcomes) == sorted(f"land = {t}" for t in TERRAINS)
        assert all(abs(p - 1 / 3) < 1e-9 for _, p in outcomes)
        st.apply(outcomes[0][0])
    assert sorted(a.text for a, _ in st.chance_outcomes()) == [f"current = seat {p}" for p in range(3)]
    for seed in range(4):
        st = game.new_state(3, seed=seed)
        assert [sum(st.zone("hand", p).values()) for p in range(3)] == [HAND] * 3 and claims(st) == {}


def test_hands_are_private(game):
    st = position(game, {}, {}, {"wild": 1, "plot_lake": 1})
    assert set(st.observation(1)["zones"]["hand"][0]) == {"size"}
    assert st.observation(0)["zones"]["hand"][0] == {"wild": 1, "plot_lake": 1}


# ---- a turn ----
def test_a_card_claims_a_free_cell_of_its_terrain_and_a_wild_one_any(game):
    land = {(0, 0): "lake", (1, 0): "field", (2, 0): "lake"}
    claimed = {c: 1 for c in CELLS if c[1] > 0}
    claimed[(2, 0)] = 0
    st = position(game, land, claimed, {"plot_lake": 1})
    assert [a.text for a in st.legal_actions()] == ["claim plot_lake 0,0"]
    st = position(game, land, claimed, {"plot_lake": 1, "wild": 1})
    assert sorted(a.text for a in st.legal_actions()) == sorted(
        ["claim plot_lake 0,0", "claim wild 0,0", "claim wild 1,0", "claim wild 3,0", "claim wild 4,0"])


def test_the_card_is_discarded_and_the_hand_refilled(game):
    st = position(game, {(3, 3): "field"}, {}, {"plot_field": 1, "plot_lake": 1})
    take(st, "claim plot_field 3,3")
    assert st.var("claim", (3, 3)) == 0 and st.zone("discard") == {"plot_field": 1}
    assert sum(st.zone("hand", 0).values()) == 2 and st.zone("hand", 0)["plot_lake"] >= 1
    assert st.current_player() == 1


def test_a_player_who_can_claim_nothing_throws_a_card_away(game):
    land = {c: "lake" for c in CELLS}
    st = position(game, land, {}, {"plot_field": 1, "plot_forest": 1})
    assert sorted(a.text for a in st.legal_actions()) == ["throw plot_field", "throw plot_forest"]
    take(st, "throw plot_forest")
    assert st.zone("discard") == {"plot_forest": 1} and claims(st) == {}
    st = position(game, land, {}, {"plot_field": 1, "plot_lake": 1})
    assert all(a.text.startswith("claim") for a in st.legal_actions())  # one card fits: no throwing


def test_the_discard_is_shuffled_in_when_the_deck_runs_out(game):
    st = position(game, {(0, 0): "lake"}, {}, {"plot_lake": 1, "wild": 1})
    st.set_zone("discard", {k: n - (k in ("plot_lake", "wild")) for k, n in CARDS.items()})
    st.set_zone("deck", {})
    take(st, "claim plot_lake 0,0")
    assert sum(st.zone("hand", 0).values()) == 2
    assert sum(st.zone("deck").values()) == sum(CARDS.values()) - 2 and not st.zone("discard")


# ---- the end ----
# Seat 0's colony winds over the map, 18 cells (the rules need five passes to join it); seat 1 has a
# colony of 4 cells in row 1 and one of 3 in row 3.
SNAKE = {**{(x, 0): 0 for x in range(5)}, (4, 1): 0, **{(x, 2): 0 for x in range(5)}, (0, 3): 0, (4, 3): 0,
         **{(x, 4): 0 for x in range(5)}}


def test_a_full_map_ends_the_game_and_the_largest_colony_scores(game):
    claimed = {c: SNAKE.get(c, 1) for c in CELLS}
    del claimed[(4, 4)]  # the last free cell
    st = position(game, {}, claimed, {"wild": 1, "plot_lake": 1})
    take(st, "claim wild 4,4")
    assert st.is_terminal() and st.outcome == "end"
    assert st.scores() == [18, 4] and st.winners() == [0]


def test_cells_joined_corner_to_corner_are_not_one_colony(game):
    chequer = {c: (c[0] + c[1]) % 2 for c in CELLS}  # seat 0 has 13 cells, seat 1 has 12
    del chequer[(0, 0)]
    st = position(game, {}, chequer, {"wild": 1})
    take(st, "claim wild 0,0")
    assert st.scores() == [1, 1]
    assert st.winners() == [0]  # tied on colonies: the more cells wins


def test_the_last_claim_may_be_the_rivals(game):
    claimed = {c: SNAKE.get(c, 1) for c in CELLS}
    del claimed[(0, 1)]
    st = position(game, {}, claimed, {"wild": 1}, seat=1)
    take(st, "claim wild 0,1")
    assert st.scores() == [18, 4] and st.winners() == [0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_follow_the_rules(game, players):
    referee_game(game, players)


# ---- each rule's change is caught ----
SOURCE = RULES.read_text()
FITS = "define fits(k, c) = claim(c) == none and (k.wild or k.terrain == land(c))"


def scenario(test: Callable, **kw) -> Callable:
    return lambda g: test(g, **kw)


MUTATIONS: list[tuple[str, Callable[[str], str], Callable]] = [
    ("2 to 4 players", rep("players 2..4", "players 2..5"), scenario(test_two_to_four_players, players=5)),
    ("8 plots of each terrain", rep("8 plot", "9 plot"), test_twenty_eight_land_cards),
    ("4 wild cards", rep("4 wild", "3 wild"), test_twenty_eight_land_cards),
    ("a hand of 2", rep("param hand_size = 2", "param hand_size = 3"),
     test_each_cell_gets_a_terrain_at_random_and_each_player_two_cards),
    ("three terrains", rep("enum terrain { forest lake field }", "enum terrain { forest lake field moor }"),
     test_each_cell_gets_a_terrain_at_random_and_each_player_two_cards),
    ("a random first player", rep("set current = random player", "set current = seat(0)"),
     test_each_cell_gets_a_terrain_at_random_and_each_player_two_cards),
    ("hands private", rep("zone hand per player private", "zone hand per player public"), test_hands_are_private),
    ("a free cell", rep(FITS, FITS.replace("claim(c) == none and ", "")),
     test_a_card_claims_a_free_cell_of_its_terrain_and_a_wild_one_any),
    ("of the card's terrain", rep(FITS, FITS.replace("k.terrain == land(c)", "k.terrain != land(c)")),
     test_a_card_claims_a_free_cell_of_its_terrain_and_a_wild_one_any),
    ("a wild card fits any", rep(FITS, FITS.replace("k.wild or ", "")),
     test_a_card_claims_a_free_cell_of_its_terrain_and_a_wild_one_any),
    ("the claim is the player's", rep("set claim(c) = current", "set claim(c) = next(current)"),
     test_the_card_is_discarded_and_the_hand_refilled),
    ("the card is discarded", rep("      move k to discard\n      set claim", "      set claim"),
     test_the_card_is_discarded_and_the_hand_refilled),
    ("throw only when nothing fits", rep("where not any(any(fits(k2, c)", "where any(any(fits(k2, c)"),
     test_a_player_who_can_claim_nothing_throws_a_card_away),
    ("a thrown card is discarded", rep("    throw k in hand(current) where not any(any(fits(k2, c) for c in map) "
                                       "for k2 in hand(current)) {\n      move k to discard",
                                       "    throw k in hand(current) where not any(any(fits(k2, c) for c in map) "
                                       "for k2 in hand(current)) {\n      move k to deck"),
     test_a_player_who_can_claim_nothing_throws_a_card_away),
    ("refill the hand", rep("[draw] refill hand(current) to hand_size",
                            "[draw] refill hand(current) to hand_size - 1"),
     test_the_card_is_discarded_and_the_hand_refilled),
    ("reshuffle the discard", rep("from deck reshuffling discard", "from deck"),
     test_the_discard_is_shuffled_in_when_the_deck_runs_out),
    ("a full map ends the game", rep("if all(claim(c) != none for c in map) {",
                                     "if all(claim(c) == none for c in map) {"),
     test_a_full_map_ends_the_game_and_the_largest_colony_scores),
    ("side by side", rep("define side(d) = d == N or d == E or d == S or d == W", "define side(d) = true"),
     test_cells_joined_corner_to_corner_are_not_one_colony),
    ("enough passes", rep("for i in 1..size * size {", "for i in 1..3 {"),
     test_a_full_map_ends_the_game_and_the_largest_colony_scores),
    ("one player's colony", rep("if claim(neighbour(c, d)) == claim(c) and", "if"),
     test_a_full_map_ends_the_game_and_the_largest_colony_scores),
    ("the largest colony scores", rep("define largest(p) = max(", "define largest(p) = min("),
     test_a_full_map_ends_the_game_and_the_largest_colony_scores),
    ("more cells break a tie", rep("tiebreak(p) = count(claim(c) == p for c in map)",
                                   "tiebreak(p) = 0 - count(claim(c) == p for c in map)"),
     test_cells_joined_corner_to_corner_are_not_one_colony),
    ("the map is measured at the end", rep("    run measure\n", ""), test_the_last_claim_may_be_the_rivals),
]


def test_mutation_ids_are_unique():
    assert_unique_ids(MUTATIONS)


@pytest.mark.parametrize("change,scenario", [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_scenario_catches_the_changed_rule(tmp_path, change, scenario):
    assert_caught(tmp_path, SOURCE, "colonies.rules", load, change, scenario)
