"""Twenty-one (tests/fixtures/good/dealer.rules), a push-your-luck card game against a dealer the
rules play: a scenario for each rule, every card dealt chosen (chance explicit), and each rule's
change caught."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

import meeple
from mutations import assert_caught, assert_unique_ids, rep
from rules_text import take

RULES = Path(__file__).parent / "fixtures" / "good" / "dealer.rules"


def load(path: Path | str = RULES):
    return meeple.load(str(path))


@pytest.fixture(scope="module")
def game():
    return load()


def deal(st, *ranks: int) -> None:
    for r in ranks:
        st.apply(f"deal card_{r}")


def moves(st) -> list[str]:
    return [a.text for a in st.legal_actions()]


def hand(up: int, hole: int, players: int = 1, g=None):
    """A game at seat 0's bet, the dealer showing ``up`` with ``hole`` face down."""
    st = g.new_state(players, chance="explicit")
    deal(st, up, hole)
    return st


def one_hand(g, dealer: tuple[int, ...], mine: tuple[int, ...], stake: int = 2) -> int:
    """One player's chips after a hand: the dealer's cards in the order dealt (up, hole, then what it
    draws), the player's (the first two dealt, then one hit each); the player stands when not at 21."""
    st = hand(dealer[0], dealer[1], g=g)
    take(st, f"stake {stake}")
    deal(st, *mine[:2])
    for card in mine[2:]:
        take(st, "hit")
        deal(st, card)
    if st.decision() == "act":
        take(st, "stand")
    deal(st, *dealer[2:])
    assert st.var("round") == 1 and st.decision() is None  # (the next round's dealer cards next)
    return st.var("chips", 0)


# ---- a hand ----
def test_the_dealer_shows_one_card_and_hides_one_and_a_player_stakes_one_to_three(game):
    st = hand(10, 7, players=2, g=game)
    assert st.zone("dealer_up") == {"card_10": 1} and st.zone("hole") == {"card_7": 1}
    assert all(st.observation(s)["zones"]["hole"] == {"size": 1} for s in (0, 1))
    assert st.observation(1)["zones"]["dealer_up"] == {"card_10": 1}
    assert moves(st) == ["stake 1", "stake 2", "stake 3"]
    assert game.min_players == 1 and game.max_players == 4


def test_a_stake_leaves_the_purse_and_two_cards_are_dealt_then_hit_or_stand(game):
    st = hand(10, 7, g=game)
    take(st, "stake 3")
    assert st.var("chips", 0) == 7 and st.var("bet", 0) == 3
    deal(st, 5, 6)
    assert st.zone("hand", 0) == {"card_5": 1, "card_6": 1} and moves(st) == ["hit", "stand"]
    take(st, "hit")
    deal(st, 2)
    assert moves(st) == ["hit", "stand"]


def test_a_hand_at_21_or_over_takes_no_more_cards(game):
    st = hand(10, 7, players=2, g=game)
    take(st, "stake 1")
    deal(st, 9, 3)
    take(st, "hit")
    deal(st, 9)  # 21: the turn is over
    assert st.current == 1 and moves(st) == ["stake 1", "stake 2", "stake 3"]
    st = hand(10, 7, players=2, g=game)
    take(st, "stake 1")
    deal(st, 9, 3)
    take(st, "hit")
    deal(st, 12)  # 22: over
    assert st.current == 1 and st.decision() == "wager"


def test_a_player_with_no_chips_sits_out(game):
    st = hand(10, 7, players=2, g=game)
    st.set_var("chips", 0, 0)
    st.restart_turn()
    assert moves(st) == ["sit_out"]
    take(st, "sit_out")
    assert st.current == 1 and st.zone("hand", 0) == {}


# ---- the dealer ----
def test_the_dealer_turns_its_card_and_draws_while_under_17(game):
    st = hand(10, 4, g=game)
    take(st, "stake 1")
    deal(st, 10, 8)
    take(st, "stand")
    assert st.is_chance_node()  # 14: the dealer draws
    deal(st, 2)  # 16: again
    assert st.var("round") == 0 and st.is_chance_node()
    deal(st, 13)  # 26: over
    assert st.var("chips", 0) == 11  # 18 against a dealer over 21


def test_the_dealer_stands_on_17(game):
    assert one_hand(game, (10, 7), (10, 8)) == 12  # 18 against 17: no card for the dealer


# ---- the cards' values ----
def test_court_cards_count_10_and_an_ace_11_unless_that_goes_over(game):
    assert one_hand(game, (10, 9), (1, 8)) == 10  # ace 11: 19 against 19, a tie
    assert one_hand(game, (10, 9), (1, 8, 5)) == 8  # ace 1: 14, under the dealer
    assert one_hand(game, (10, 6, 10), (1, 5, 6)) == 12  # ace 1: 12, not 22, against a dealer over
    assert one_hand(game, (13, 12), (1, 9)) == 10  # 20 against 20


# ---- settling ----
@pytest.mark.parametrize("dealer, mine, chips", [
    ((10, 8), (10, 9), 12),  # closer: the bet back and as much again
    ((10, 9), (10, 8), 8),  # further: the bet lost
    ((10, 8), (10, 8), 10),  # a tie: the bet back
    ((10, 6, 10), (10, 6, 10), 8),  # over 21 loses, even when the dealer goes over too
    ((10, 8), (1, 13), 13),  # a natural: one and a half times the bet
    ((1, 13), (1, 12), 10),  # a natural against the dealer's 21: a tie
])
def test_the_bets_are_settled_against_the_dealer(game, dealer, mine, chips):
    assert one_hand(game, dealer, mine) == chips


def test_a_natural_rounds_down(game):
    assert one_hand(game, (10, 8), (1, 13), stake=3) == 7 + 3 + 4


# ---- the end ----
def test_three_hands_then_the_most_chips_win_and_returns_are_the_chips_won(game):
    st = game.new_state(2, chance="explicit")
    for rnd in range(3):  # (each card of the 52 at most 4 times: nothing is reshuffled)
        deal(st, [10, 11, 12][rnd], 8)
        take(st, "stake 1")
        deal(st, 13, 9)  # seat 0 wins, 19 against 18
        take(st, "stand")
        take(st, "stake 2")
        deal(st, [12, 11, 10][rnd], 7)  # seat 1 loses, 17
        take(st, "stand")
    assert st.is_terminal() and st.outcome == "end"
    assert st.scores() == [13, 4] and st.winners() == [0] and st.returns() == [3, -6]


def test_random_games_keep_every_card_and_end_after_three_hands(game):
    for i in range(12):
        st = game.new_state(1 + i % 4, seed=i)
        rng = random.Random(i)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        assert st.outcome == "end" and st.var("round") == 3
        assert all(st.var("chips", p) >= 0 for p in range(st.players))


# ---- each rule's change is caught ----
SOURCE = RULES.read_text()


def settled(dealer: tuple[int, ...], mine: tuple[int, ...], chips: int) -> Callable:
    return lambda g: test_the_bets_are_settled_against_the_dealer(g, dealer, mine, chips)


MUTATIONS: list[tuple[str, Callable[[str], str], Callable]] = [
    ("the hole card is hidden", rep("zone hole hidden", "zone hole public"),
     test_the_dealer_shows_one_card_and_hides_one_and_a_player_stakes_one_to_three),
    ("stakes of one to three", rep("stake n in 1..3", "stake n in 1..4"),
     test_the_dealer_shows_one_card_and_hides_one_and_a_player_stakes_one_to_three),
    ("the stake leaves the purse", rep("chips(current) = chips(current) - n", "chips(current) = chips(current)"),
     test_a_stake_leaves_the_purse_and_two_cards_are_dealt_then_hit_or_stand),
    ("two cards", rep("deal 2 from deck to hand(current)", "deal 1 from deck to hand(current)"),
     test_a_stake_leaves_the_purse_and_two_cards_are_dealt_then_hit_or_stand),
    ("no card at 21", rep("best(hand(current)) < 21 and", "best(hand(current)) < 22 and"),
     test_a_hand_at_21_or_over_takes_no_more_cards),
    ("sitting out", rep("sit_out where chips(current) == 0", "sit_out where chips(current) < 0"),
     test_a_player_with_no_chips_sits_out),
    ("the dealer draws to 17", rep("where best(dealer_up) < 17", "where best(dealer_up) < 16"),
     test_the_dealer_turns_its_card_and_draws_while_under_17),
    ("the dealer stands on 17", rep("where best(dealer_up) < 17", "where best(dealer_up) < 18"),
     test_the_dealer_stands_on_17),
    ("court cards count 10", rep("min(c.rank, 10)", "min(c.rank, 11)"),
     test_court_cards_count_10_and_an_ace_11_unless_that_goes_over),
    ("an ace may count 11", rep("+ (if count(z where rank == 1) > 0", "+ (if count(z where rank == 2) > 0"),
     test_court_cards_count_10_and_an_ace_11_unless_that_goes_over),
    ("but not over 21", rep("hard(z) + 10 <= 21", "hard(z) + 10 <= 25"),
     test_court_cards_count_10_and_an_ace_11_unless_that_goes_over),
    ("a win pays the bet", rep("set chips(p) = chips(p) + 2 * bet(p)", "set chips(p) = chips(p) + 3 * bet(p)"),
     settled((10, 8), (10, 9), 12)),
    ("further loses", rep("(theirs > 21 or mine > theirs)", "(theirs > 21 or mine >= theirs)"),
     settled((10, 8), (10, 8), 10)),
    ("a tie takes the bet back", rep("set chips(p) = chips(p) + bet(p)\n", "set chips(p) = chips(p)\n"),
     settled((10, 8), (10, 8), 10)),
    ("over 21 loses", rep("} else if mine <= 21 and (theirs", "} else if (theirs"),
     settled((10, 6, 10), (10, 6, 10), 8)),
    ("a natural pays more", rep("bet(p) + bet(p) * 3 / 2", "bet(p) + bet(p)"), settled((10, 8), (1, 13), 13)),
    ("a natural is two cards", rep("count(hand(p)) == 2 and", "count(hand(p)) >= 2 and"),
     lambda g: (one_hand(g, (10, 8), (5, 6, 10)) == 12) or pytest.fail("")),
    ("not against the dealer's 21", rep("natural(p) and theirs != 21", "natural(p)"), settled((1, 13), (1, 12), 10)),
    ("three hands", rep("param rounds = 3", "param rounds = 4"),
     test_three_hands_then_the_most_chips_win_and_returns_are_the_chips_won),
    ("returns are the chips won", rep("returns(p) = chips(p) - purse", "returns(p) = chips(p)"),
     test_three_hands_then_the_most_chips_win_and_returns_are_the_chips_won),
]


def test_mutation_ids_are_unique():
    assert_unique_ids(MUTATIONS)


@pytest.mark.parametrize("change,scenario", [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_scenario_catches_the_changed_rule(tmp_path, change, scenario):
    assert_caught(tmp_path, SOURCE, "dealer.rules", load, change, scenario)
