"""The rule scenarios are faithful: change one rule of games/hare.rules and the
scenario of that rule fails.

Each case writes an altered copy of hare.rules (one rule changed by a string
replacement, or two race-phase blocks swapped) to a temporary directory, checks
that the copy still loads, and runs the matching scenario of
tests/test_hare_rules.py against it, expecting it to fail: an assertion (or a
``pytest.raises`` inside it) fails, or the engine refuses a step the scenario
takes (an illegal action, a refused player count).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import positions as P
import pytest
import test_hare_rules as R

from mutations import assert_caught, assert_unique_ids, rep

SOURCE = P.RULES.read_text()


def race_block(text: str, animal: str) -> str:
    """The statement of the race phase that moves ``animal`` (from its ``if`` to its ``}``)."""
    found = re.findall(r"\n  if runs\(" + animal + r"\).*?\n  }\n", text, flags=re.DOTALL)
    assert len(found) == 1, animal
    return found[0]


def swap(a: str, b: str) -> Callable[[str], str]:
    """Move ``a`` and ``b`` in the other order in the race phase."""
    def change(text: str) -> str:
        block_a, block_b = race_block(text, a), race_block(text, b)
        return text.replace(block_a, "\0").replace(block_b, block_a).replace("\0", block_b)
    return change


def then(*changes: Callable[[str], str]) -> Callable[[str], str]:
    def change(text: str) -> str:
        for c in changes:
            text = c(text)
        return text
    return change


RACE_END = "  [after_race] move all from table to discard\n}"
BET_DEAL = "deal (if players == 2 then 2 else 1) from bet_pile to bets(p)"
START_PICK = "  set current = random player\n"
SECOND_BET = "  for p in player {\n    choose bet by p"

MUTATIONS: list[tuple[str, Callable[[str], str], Callable]] = [
    # components and setup
    ("18 hares", rep("18 hare ", "17 hare "), R.test_components),
    ("13 plain wolves", rep("13 wolf ", "14 wolf "), R.test_components),
    ("track of 11", rep("param track_length = 11", "param track_length = 12"),
     R.test_track_has_eleven_spaces_two_of_them_streams_by_chance),
    ("2 streams", rep("param stream_count = 2", "param stream_count = 3"),
     R.test_track_has_eleven_spaces_two_of_them_streams_by_chance),
    ("2 bets with 2 players", rep(BET_DEAL, BET_DEAL.replace("then 2", "then 1")),
     lambda g: R.test_bets_dealt_one_each_two_with_two_players_rest_unseen(g, 2)),
    ("1 bet otherwise", rep(BET_DEAL, BET_DEAL.replace("else 1", "else 2")),
     lambda g: R.test_bets_dealt_one_each_two_with_two_players_rest_unseen(g, 3)),
    ("unused bets unseen", rep("zone bet_pile hidden", "zone bet_pile public"),
     lambda g: R.test_bets_dealt_one_each_two_with_two_players_rest_unseen(g, 3)),
    ("7 dealt", rep("param deal_size = 7", "param deal_size = 8"),
     lambda g: R.test_seven_dealt_one_moved_to_bets_six_kept(g, 3)),
    ("1 card to the bets", rep("choose bet by p: 1 card", "choose bet by p: 1..2 cards"),
     R.test_second_bet_is_a_choice_among_distinct_cards),
    ("start player random", rep("set current = random player", "set current = 0"),
     R.test_start_player_is_random_and_chosen_before_the_bets),
    ("start player before the bets", then(rep(START_PICK, ""), rep(SECOND_BET, START_PICK + SECOND_BET)),
     R.test_start_player_is_random_and_chosen_before_the_bets),
    ("players 2..5 (1)", rep("players 2..5", "players 1..5"),
     lambda g: R.test_one_or_six_players_refused(g, 1)),
    ("players 2..5 (6)", rep("players 2..5", "players 2..6"),
     lambda g: R.test_one_or_six_players_refused(g, 6)),
    ("players 2..5 (2)", rep("players 2..5", "players 3..5"),
     lambda g: R.test_two_to_five_players(g, 2)),
    # the card phase
    ("of one animal", rep("1..animal_limit cards of one animal", "1..animal_limit cards"),
     R.test_a_play_is_one_to_four_cards_of_one_animal),
    ("1 to 4 cards", rep("1..animal_limit cards of one animal", "1..3 cards of one animal"),
     R.test_a_play_is_one_to_four_cards_of_one_animal),
    ("at least 1 card", rep("1..animal_limit cards of one animal", "0..animal_limit cards of one animal"),
     R.test_a_play_is_one_to_four_cards_of_one_animal),
    ("howl wolves are wolves", rep("howl_wolf { animal = wolf, howl }", "howl_wolf { animal = fox, howl }"),
     R.test_howl_and_plain_wolves_are_distinct_moves),
    ("table limit 8", rep("keeping count(table) <= table_limit", "keeping count(table) <= table_limit + 1"),
     R.test_table_limits_make_plays_illegal),
    ("4 per animal", rep("all(on_table(a) <= animal_limit", "all(on_table(a) <= animal_limit + 1"),
     R.test_table_limits_make_plays_illegal),
    ("podium animals playable",
     rep("and all(on_table(a) <= animal_limit for a in animal)",
         "and all(on_table(a) <= animal_limit for a in animal)\n"
         "        and all(on_table(a) == 0 or not finished(a) for a in animal)"),
     R.test_cards_of_podium_animals_may_be_played),
    ("refill to 6", rep("param hand_size = 6", "param hand_size = 5"), R.test_refill_to_six),
    ("reshuffle the discard", rep("from deck reshuffling discard", "from deck"),
     R.test_refill_reshuffles_the_discard_when_the_deck_runs_out),
    # the race trigger
    ("exactly 8 (not 7)", rep("count(table) == table_limit or", "count(table) >= table_limit - 1 or"),
     lambda g: R.test_no_race_otherwise(g, {"hare": 1, "fox": 3, "sheep": 3})),
    ("exactly 4 (not 3)", rep("any(on_table(a) == animal_limit", "any(on_table(a) >= animal_limit - 1"),
     lambda g: R.test_no_race_otherwise(g, {"fox": 3})),
    ("8 triggers", rep("count(table) == table_limit or", "count(table) == table_limit + 1 or"),
     lambda g: R.test_race_runs_at_exactly_eight_or_four_of_one_animal(g, {"hare": 2, "fox": 3, "sheep": 3})),
    ("4 triggers", rep("any(on_table(a) == animal_limit", "any(on_table(a) == animal_limit + 1"),
     lambda g: R.test_race_runs_at_exactly_eight_or_four_of_one_animal(g, {"fox": 4})),
    # the order of the race
    ("hare before tortoise", swap("hare", "tortoise"), R.test_movement_order_hare_tortoise_wolf),
    ("tortoise before wolf", swap("tortoise", "wolf"), R.test_movement_order_hare_tortoise_wolf),
    ("wolf before fox", swap("wolf", "fox"), R.test_movement_order_wolf_fox_sheep),
    ("fox before sheep", swap("fox", "sheep"), R.test_movement_order_wolf_fox_sheep),
    # the hare
    ("hare 2 spaces", rep("move hare by 2", "move hare by 3"), R.test_hare_moves_two_with_any_card_zero_without),
    ("hare needs a card", rep("runs(hare) and on_table(hare) >= 1", "runs(hare)"),
     R.test_hare_moves_two_with_any_card_zero_without),
    ("hare sleeps", rep("\n     and not (on_table(hare) == 4 and leads(hare) and pos(hare) > 0)", ""),
     R.test_hare_sleeps_with_four_cards_while_leading),
    ("hare sleeps with 4 only", rep("on_table(hare) == 4 and leads", "on_table(hare) >= 3 and leads"),
     R.test_hare_sleeps_with_four_cards_while_leading),
    ("hare sleeps when tied", rep("define leads(a) = pos(a) >= max(pos(b) for b in animal where not finished(b))",
                                  "define leads(a) = pos(a) > max(pos(b) for b in animal "
                                  "where not finished(b) and b != a)"),
     R.test_hare_sleeps_with_four_cards_while_leading),
    ("hare lead among racing animals", rep("for b in animal where not finished(b))", "for b in animal)"),
     R.test_hare_sleeps_with_four_cards_while_leading),
    ("hare awake on the start line", rep(" and pos(hare) > 0)", ")"),
     R.test_hare_does_not_sleep_on_the_start_line),
    # the tortoise
    ("tortoise 2 with 4", rep("on_table(tortoise) == 4 then 2", "on_table(tortoise) == 4 then 3"),
     R.test_tortoise_one_space_even_without_cards_two_with_four),
    ("tortoise 1 otherwise", rep("on_table(tortoise) == 4 then 2 else 1", "on_table(tortoise) == 4 then 2 else 0"),
     R.test_tortoise_one_space_even_without_cards_two_with_four),
    # the wolf and its howl
    ("wolf x-1 with 3 or 4", rep("then on_table(wolf) - 1 else", "then on_table(wolf) else"), R.test_wolf_moves),
    ("wolf 1 with 1 or 2", rep("min(on_table(wolf), 1)", "on_table(wolf)"), R.test_wolf_moves),
    ("wolf x-1 from 3 cards", rep("on_table(wolf) >= 3 then", "on_table(wolf) >= 4 then"), R.test_wolf_moves),
    ("one howl is enough", rep("count(table where howl) >= 1", "count(table where howl) >= 2"),
     R.test_howl_only_the_wolf_moves),
    ("the howl silences", rep(" and (a == wolf or not howling)", ""), R.test_howl_only_the_wolf_moves),
    ("the wolf still runs", rep("(a == wolf or not howling)", "(not howling)"), R.test_howl_only_the_wolf_moves),
    # the fox
    ("fox x", rep("move fox by on_table(fox)", "move fox by min(on_table(fox), 3)"),
     R.test_fox_moves_as_many_as_its_cards),
    ("fox crosses streams", rep("move fox by on_table(fox)", "move fox by on_table(fox) stopping at stream"),
     R.test_sheep_stops_at_the_first_stream_it_enters),
    # the sheep
    ("sheep x+1", rep("on_table(sheep) + 1 stopping", "on_table(sheep) + 2 stopping"),
     R.test_sheep_moves_one_more_than_its_cards),
    ("sheep stops at a stream", rep(" stopping at stream", ""), R.test_sheep_stops_at_the_first_stream_it_enters),
    ("sheep needs a card", rep("runs(sheep) and on_table(sheep) >= 1", "runs(sheep)"),
     R.test_sheep_without_cards_stays),
    # podium and end
    ("podium animals stay", rep("define runs(a) = not finished(a) and ", "define runs(a) = "),
     R.test_podium_animals_do_not_move),
    ("ends at the 3rd", rep("param podium_size = 3", "param podium_size = 4"),
     R.test_game_ends_as_soon_as_the_third_animal_finishes),
    ("nobody moves after the 3rd", rep("end when finishers(course) >= podium_size",
                                       "end when finishers(course) >= podium_size and count(table) == 0"),
     R.test_game_ends_as_soon_as_the_third_animal_finishes),
    ("table to the discard", rep(RACE_END, "  [after_race] move all from table to deck\n}"),
     R.test_table_goes_to_the_discard_after_a_race),
    ("next player after the trigger",
     rep(RACE_END, RACE_END[:-1] + "  for p in player {\n    set current = p\n  }\n}"),
     lambda g: R.test_next_player_after_the_one_who_started_the_race(g, 3, 1)),
    # scoring
    ("5 for 1st", rep("{ 1: 5,", "{ 1: 4,"), R.test_scores_five_three_two_per_bet_card),
    ("3 for 2nd", rep(" 2: 3,", " 2: 4,"), R.test_scores_five_three_two_per_bet_card),
    ("2 for 3rd", rep(" 3: 2,", " 3: 1,"), R.test_scores_five_three_two_per_bet_card),
    ("tie-break by the best bet", rep("max(podium_size + 1 - place(c.animal)", "max(place(c.animal)"),
     R.test_tie_goes_to_the_best_placed_bet),
    ("tie-break exists", rep("tiebreak(p) = max(", "tiebreak(p) = 0 * max("), R.test_tie_goes_to_the_best_placed_bet),
    ("tie-break is the best, not the sum", rep("tiebreak(p) = max(", "tiebreak(p) = sum("),
     R.test_shared_win_when_still_tied),
]


def test_mutation_ids_are_unique():
    assert_unique_ids(MUTATIONS)


@pytest.mark.parametrize("change,scenario", [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_scenario_catches_the_changed_rule(tmp_path, change, scenario):
    assert_caught(tmp_path, SOURCE, "hare.rules", P.load, change, scenario)
