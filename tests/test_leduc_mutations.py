"""The Leduc hold'em scenarios are faithful: change one rule of games/leduc.rules and the scenario of
that rule fails (tests/mutations.py says how a case runs)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import test_leduc_rules as R

from mutations import assert_caught, assert_unique_ids, rep

SOURCE = R.RULES.read_text()
# (Not here: weighing the higher card above the lower one. With one public card shared by both
# hands, any order that is monotone in each card ranks two hands alike: no scenario can tell.)


def rounds_end(g) -> None:
    """The round-end scenario, for every way a round ends."""
    for bets in R.ROUNDS:
        R.test_a_round_ends_when_all_check_or_all_call_the_last_raise(g, bets)


MUTATIONS: list[tuple[str, Callable[[str], str], Callable]] = [
    # [cards]
    ("two jacks", rep("1 jack_2  { rank = 1, suit = 2 }", "2 jack_2  { rank = 1, suit = 2 }"),
     R.test_six_cards_two_suits_of_jack_queen_and_king),
    ("king's rank", rep("1 king_1  { rank = 3, suit = 1 }", "1 king_1  { rank = 2, suit = 1 }"),
     R.test_six_cards_two_suits_of_jack_queen_and_king),
    ("private hands", rep("zone hand per player private", "zone hand per player public"),
     R.test_one_private_card_each_seat_0_first_then_seat_0_bets),
    # [chips] and [ante]
    ("a stack of 100", rep('param stack = 100 in', 'param stack = 50 in'),
     R.test_each_player_antes_one_chip_of_a_hundred),
    ("an ante of 1", rep('param ante = 1 in', 'param ante = 2 in'), R.test_each_player_antes_one_chip_of_a_hundred),
    ("the ante is the bet to match", rep("  set stake = ante\n", ""), R.test_each_player_antes_one_chip_of_a_hundred),
    ("the ante goes into the pot", rep("    set pot = pot + ante\n", ""),
     R.test_each_player_antes_one_chip_of_a_hundred),
    # [deal]
    ("one card each", rep("    deal 1 from deck to hand(p)\n", "    deal 2 from deck to hand(p)\n"),
     R.test_one_private_card_each_seat_0_first_then_seat_0_bets),
    ("seat 0 bets first", rep("  set current = seat(0)\n}", "  set current = seat(1)\n}"),
     R.test_one_private_card_each_seat_0_first_then_seat_0_bets),
    # [fold], [call], [raise]
    ("fold only under a bet", rep("fold where stake > in_pot(current) {", "fold {"),
     R.test_fold_only_when_there_is_a_bet_to_match),
    ("a fold puts the player out", rep("      set out(current) = true\n", ""),
     R.test_a_fold_ends_the_game_and_the_last_player_in_takes_the_pot),
    ("the last player in takes the pot",
     rep("      set money(p) = money(p) + pot\n    }\n    set pot = 0\n    end game",
         "    }\n    set pot = 0\n    end game"),
     R.test_a_fold_ends_the_game_and_the_last_player_in_takes_the_pot),
    ("a call matches the bet", rep("      set in_pot(current) = stake\n      set calls = calls + 1",
                                   "      set calls = calls + 1"),
     R.test_a_call_matches_the_bet_and_a_check_puts_nothing_in),
    ("a raise of 2 first", rep('param first_raise = 2 in', 'param first_raise = 3 in'),
     R.test_a_raise_adds_2_in_the_first_round_and_4_in_the_second),
    ("a raise of 4 second", rep('param second_raise = 4 in', 'param second_raise = 2 in'),
     R.test_a_raise_adds_2_in_the_first_round_and_4_in_the_second),
    ("two raises a round", rep('param max_raises = 2 in', 'param max_raises = 3 in'),
     R.test_at_most_two_raises_a_round),
    ("raises counted", rep("      set raises = raises + 1\n", ""), R.test_at_most_two_raises_a_round),
    ("a raise resets the calls", rep("      set calls = 0\n    }\n  }", "    }\n  }"),
     rounds_end),
    # [round end] and [rounds]
    ("all check", rep("(raises == 0 and calls == in_game)", "(raises == 0 and calls == 1)"),
     rounds_end),
    ("all call the raise", rep("(raises > 0 and calls == in_game - 1)", "(raises > 0 and calls == in_game)"),
     rounds_end),
    ("seat 0 opens the second round", rep("    set next = seat(0)\n", ""),
     R.test_the_public_card_comes_after_the_first_round_and_seat_0_bets_first_again),
    ("the public card", rep("    deal 1 from deck to community\n", ""),
     R.test_the_public_card_comes_after_the_first_round_and_seat_0_bets_first_again),
    ("calls counted afresh", rep("    set calls = 0\n    deal", "    deal"),
     R.test_the_public_card_comes_after_the_first_round_and_seat_0_bets_first_again),
    # [showdown]
    ("a pair beats a high card", rep("then 100 + rank_of(p)", "then rank_of(p)"),
     R.test_a_pair_with_the_public_card_beats_any_high_card),
    ("the lower card next", rep("else 10 * max(rank_of(p), public_rank) + min(rank_of(p), public_rank)",
                                "else 10 * max(rank_of(p), public_rank)"),
     R.test_with_the_same_high_card_the_lower_card_decides),
    ("equal hands split", rep("set money(p) = money(p) + pot / winners", "set money(p) = money(p) + pot"),
     R.test_equal_hands_split_the_pot),
    ("the best hand wins",
     rep("let best = max(strength(p) for p in player)", "let best = min(strength(p) for p in player)"),
     R.test_else_the_higher_card_wins),
    # [result]
    ("returns against the stack", rep("zero_sum returns(p) = money(p) - stack", "returns(p) = money(p)"),
     R.test_the_result_is_in_chips_and_zero_sum),
    ("the winner has more chips", rep("score(p) = money(p)", "score(p) = 0 - money(p)"),
     R.test_else_the_higher_card_wins),
]


def test_mutation_ids_are_unique():
    assert_unique_ids(MUTATIONS)


@pytest.mark.parametrize("change,scenario", [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_scenario_catches_the_changed_rule(tmp_path, change, scenario):
    assert_caught(tmp_path, SOURCE, "leduc.rules", R.load, change, scenario)
