"""The Slipstream scenarios are faithful: change one rule of games/slipstream.rules and the
scenario of that rule fails.

Each case writes an altered copy of slipstream.rules (one line changed by a string
replacement) to a temporary directory, checks that the copy still loads, and runs the
matching scenario of tests/test_slipstream_rules.py against it, expecting it to fail.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import slipstream_positions as P
import test_slipstream_rules as R

from mutations import assert_caught, assert_unique_ids, rep

SOURCE = P.RULES.read_text()


def scenario(test: Callable, **kw) -> Callable:
    """A parametrized scenario with its parameters fixed."""
    return lambda g: test(g, **kw)


SHOVE = "set space(q) = max(0, space(q) - 2)"
RUN = "set space(current) = space(current) + c.steps"
DRAFT = "define drafting(p) = any(space(q) == space(p) for q in player where q != p)"

MUTATIONS: list[tuple[str, Callable[[str], str], Callable]] = [
    # players and components
    ("2 players allowed", rep("players 2..4", "players 3..4"), scenario(R.test_two_to_four_players, players=2)),
    ("5 players refused", rep("players 2..4", "players 2..5"),
     scenario(R.test_one_or_five_players_refused, players=5)),
    ("1 player refused", rep("players 2..4", "players 1..4"),
     scenario(R.test_one_or_five_players_refused, players=1)),
    ("8 ones", rep("8 one ", "9 one "), R.test_components),
    ("8 twos", rep("8 two ", "7 two "), R.test_components),
    ("4 threes", rep("4 three ", "5 three "), R.test_components),
    ("4 shoves", rep("4 shove ", "3 shove "), R.test_components),
    ("one is 1 step", rep("{ steps = 1 }", "{ steps = 2 }"), scenario(R.test_a_run_card_moves_your_pawn_its_steps,
                                                                       card="one")),
    ("two is 2 steps", rep("{ steps = 2 }", "{ steps = 1 }"), scenario(R.test_a_run_card_moves_your_pawn_its_steps,
                                                                       card="two")),
    ("three is 3 steps", rep("{ steps = 3 }", "{ steps = 4 }"),
     scenario(R.test_a_run_card_moves_your_pawn_its_steps, card="three")),
    ("hands are private", rep("zone hand per player private", "zone hand per player public"),
     R.test_hands_private_deck_hidden_table_and_discard_public),
    ("the deck is hidden", rep("zone deck hidden", "zone deck public"),
     R.test_hands_private_deck_hidden_table_and_discard_public),
    ("the discard is public", rep("zone discard public", "zone discard hidden"),
     R.test_hands_private_deck_hidden_table_and_discard_public),
    # setup
    ("seat 0 starts", rep("set current = 0", "set current = random player"),
     scenario(R.test_seat_0_starts_and_everyone_is_dealt_three, players=3)),
    ("3 cards in hand", rep("param hand_size = 3", "param hand_size = 4"),
     scenario(R.test_seat_0_starts_and_everyone_is_dealt_three, players=2)),
    ("3 cards dealt", rep("deal hand_size from deck", "deal hand_size - 1 from deck"),
     scenario(R.test_seat_0_starts_and_everyone_is_dealt_three, players=2)),
    # a turn
    ("one card", rep("choose play: 1 card", "choose play: 1..2 cards"), R.test_a_play_is_one_card_of_your_choice),
    ("no pass", rep("choose play: 1 card", "choose play: 0..1 card"), R.test_a_play_is_one_card_of_your_choice),
    ("run the card's steps", rep(RUN, RUN + " + 1"), scenario(R.test_a_run_card_moves_your_pawn_its_steps,
                                                              card="two")),
    ("slipstream 1 more", rep("set space(current) = space(current) + 1", "set space(current) = space(current) + 2"),
     R.test_slipstream_one_more_when_stopping_on_a_rival),
    ("slipstream on a rival only", rep(DRAFT, DRAFT.replace(" where q != p", "")),
     R.test_no_slipstream_when_passing_or_stopping_behind_a_rival),
    ("slipstream not when passing", rep(DRAFT, DRAFT.replace("space(q) == space(p)", "space(q) <= space(p)")),
     R.test_no_slipstream_when_passing_or_stopping_behind_a_rival),
    ("slipstream not behind", rep(DRAFT, DRAFT.replace("space(q) == space(p)", "space(q) - 1 <= space(p)")),
     R.test_no_slipstream_when_passing_or_stopping_behind_a_rival),
    ("slipstream once", rep("if drafting(current) {", "for i in 1..2 where drafting(current) {"),
     R.test_slipstream_once_per_run),
    ("slipstream needs a rival", rep("if drafting(current) {", "if not drafting(current) {"),
     R.test_slipstream_one_more_when_stopping_on_a_rival),
    ("shove 2 back", rep(SHOVE, SHOVE.replace("- 2", "- 1")), R.test_shove_sends_a_rival_of_your_choice_back_two),
    ("shove a rival", rep("back q in player where q != current", "back q in player"),
     R.test_shove_sends_a_rival_of_your_choice_back_two),
    ("shove not behind the start", rep(SHOVE, "set space(q) = space(q) - 2"),
     scenario(R.test_a_shove_never_sends_a_pawn_behind_the_start, before=1, after=0)),
    ("a shove is no run", rep("    if c.shove {", "    if c.shove and not drafting(current) {"),
     R.test_a_shove_is_no_run),
    ("played card to the discard", rep("move all from table to discard", "move all from table to deck"),
     R.test_the_card_is_discarded_and_the_hand_refilled_to_three),
    ("refill to 3", rep("refill hand(current) to hand_size", "refill hand(current) to hand_size - 1"),
     R.test_the_card_is_discarded_and_the_hand_refilled_to_three),
    ("reshuffle the discard", rep("from deck reshuffling discard", "from deck"),
     R.test_the_discard_is_reshuffled_when_the_deck_runs_out),
    # the end
    ("finish at 15", rep("param finish = 15", "param finish = 16"),
     scenario(R.test_the_game_ends_as_soon_as_a_pawn_reaches_fifteen, start=13, card="two", over=True)),
    ("finish not before 15", rep("param finish = 15", "param finish = 14"),
     scenario(R.test_the_game_ends_as_soon_as_a_pawn_reaches_fifteen, start=13, card="one", over=False)),
    ("reaching is enough", rep("any(space(p) >= finish", "any(space(p) > finish"),
     scenario(R.test_the_game_ends_as_soon_as_a_pawn_reaches_fifteen, start=13, card="two", over=True)),
    ("furthest wins", rep("score(p) = space(p)", "score(p) = 0 - space(p)"),
     R.test_the_furthest_pawn_wins_and_scores_are_spaces),
]


def test_mutation_ids_are_unique():
    assert_unique_ids(MUTATIONS)


@pytest.mark.parametrize("change,scenario", [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_scenario_catches_the_changed_rule(tmp_path, change, scenario):
    assert_caught(tmp_path, SOURCE, "slipstream.rules", P.load, change, scenario)
