"""The rule scenarios are faithful: change one rule of games/luckydog.rules and the
scenario of that rule fails.

Each case writes an altered copy of luckydog.rules (one rule changed by a string
replacement) to a temporary directory, checks that the copy still loads, and runs
the matching scenario of tests/test_luckydog_rules.py against it, expecting it to
fail: an assertion fails, or the engine refuses a step the scenario takes.
"""

from __future__ import annotations

from collections.abc import Callable

import luckydog_positions as P
import pytest
import test_luckydog_rules as R

from mutations import assert_caught, assert_unique_ids, rep

SOURCE = P.RULES.read_text()


def scenario(test: Callable, **kw) -> Callable:
    """A parametrized scenario with its parameters fixed."""
    return lambda g: test(g, **kw)


TARGET = "define target(p) = max(1, goal + sum(c.target_change for c in front(p)) + " \
         "sum(c.target_change for c in detours(p)))"
FIRST_END = "define first_end(t, e) = open(t, e) and not any(joined(t, d, e) for d in edge where d < e)"
MARKER_AT = "at e in edge where (t.signal and open(t, e)) or (not t.signal and first_end(t, e))"
REDEAL = "for i in 1..redeals where count(hand(p) where road) == 0"
POLICE = "police u in table where count(hand(current) where officer) >= 1 and u.signal\n" \
         "                              and not policed(u) and count(policed(v) for v in table) < officers"
CONSTRUCTION = "construction u in table where count(hand(current) where closure) >= 1 and not closed(u)\n" \
               "                                    and not has_marker(u)"
EMPTY_DECK_DRAW = "  if count(deck) == 0 and all(count(hand(p)) == 0 for p in player) {\n" \
                  "    end game with no winner\n  }\n"
IDLE_DRAW = "  if idle >= players {\n    end game with no winner\n  }\n"
ONE_APART = "define one_apart(t, u) = u != none and ((col(t) == col(u) and abs(row(t) - row(u)) == 2)\n" \
            "                                        or (row(t) == row(u) and abs(col(t) - col(u)) == 2))"

MUTATIONS: list[tuple[str, Callable[[str], str], Callable]] = [
    # components
    ("8 straights", rep("8 straight ", "9 straight "), R.test_components),
    ("4 t-junctions", rep("4 t_junction ", "3 t_junction "), R.test_components),
    ("6 police cards", rep("6 police ", "5 police "), R.test_components),
    ("3 detour cards", rep("3 detour ", "4 detour "), R.test_components),
    ("curve N-E", rep("roads = [N E] }", "roads = [N S] }"), R.test_components),
    ("t-junction N-E-W", rep("roads = [N E W] }", "roads = [N E S W] }"), R.test_components),
    ("double curve: two roads", rep("roads = [N W] [S E]", "roads = [N W S E]"), R.test_components),
    ("dead end: one edge", rep("roads = [N] }", "roads = [N S] }"), R.test_components),
    ("red axis N-S", rep("red = [N S]", "red = [E W]"),
     R.test_worked_example_police_on_the_upper_crossroads_counts_two_or_five_with_a_pass),
    ("red axis both edges", rep("red = [N S]", "red = [N]"), R.test_placements_that_leave_the_same_table_are_one_move),
    ("hands are private", rep("zone hand per player private", "zone hand per player public"),
     R.test_hands_private_deck_hidden_cards_in_front_and_detours_public),
    ("the deck is hidden", rep("zone deck hidden", "zone deck public"),
     R.test_hands_private_deck_hidden_cards_in_front_and_detours_public),
    ("cards in front are public", rep("zone front per player public", "zone front per player private"),
     R.test_hands_private_deck_hidden_cards_in_front_and_detours_public),
    # setup
    ("5 cards a hand", rep("param hand_size = 5", "param hand_size = 6"),
     scenario(R.test_five_cards_dealt_each_and_refilled_after_the_start_tile, players=3)),
    ("refill after the start tile", rep("    refill hand(p) to hand_size from deck\n", ""),
     scenario(R.test_five_cards_dealt_each_and_refilled_after_the_start_tile, players=4)),
    ("no road tile: dealt again", rep(REDEAL, REDEAL.replace("== 0", "< 0")),
     R.test_a_hand_without_a_road_tile_is_dealt_again),
    ("dealt again more than once", rep("param redeals = 100 in 20..1000", "param redeals = 1 in 1..1000"),
     R.test_a_hand_without_a_road_tile_is_dealt_again),
    ("the hand goes back to the deck", rep("move all from hand(p) to deck", "move all from hand(p) to discard"),
     R.test_a_hand_without_a_road_tile_is_dealt_again),
    ("random first player", rep("set current = random player", "set current = 0"),
     R.test_first_player_is_random_and_the_start_tiles_go_clockwise),
    ("first start tile anywhere", rep("start_allowed(t) = count(table) == 1", "start_allowed(t) = count(table) == 0"),
     R.test_the_first_start_tile_goes_anywhere_any_distinct_rotation),
    ("start tile within 2", rep("onto table within 2 as t", "onto table within 1 as t"),
     R.test_later_start_tiles_one_empty_square_from_another_start_tile),
    ("start tile touches no tile", rep("or (touches_none(t) and any(", "or (any("),
     R.test_a_start_tile_touches_no_tile_and_counts_only_start_tiles),
    ("start tile in a column", rep(ONE_APART, ONE_APART.replace("(col(t) == col(u) and abs", "(abs")),
     R.test_a_start_tile_touches_no_tile_and_counts_only_start_tiles),
    ("exactly one square between", rep(ONE_APART, ONE_APART.replace("col(u)) == 2))", "col(u)) >= 2))")),
     R.test_a_start_tile_touches_no_tile_and_counts_only_start_tiles),
    ("one apart from a start tile", rep("any(one_apart(t, start(q)) for q in player)",
                                        "any(one_apart(t, u) for u in table)"),
     R.test_a_start_tile_touches_no_tile_and_counts_only_start_tiles),
    ("one marker place per road", rep(FIRST_END, "define first_end(t, e) = open(t, e)"),
     scenario(R.test_marker_on_an_entry_edge_of_a_crossroads_or_on_one_road, tile="straight", rotation=0,
              edges={"N"})),
    ("the first end stands for the road", rep(FIRST_END, FIRST_END.replace("d < e", "d > e")),
     scenario(R.test_marker_on_an_entry_edge_of_a_crossroads_or_on_one_road, tile="double_curve", rotation=1,
              edges={"N", "S"})),
    ("a crossroads: any entry edge", rep(MARKER_AT, MARKER_AT.replace("(t.signal and open(t, e))",
                                                                      "(t.signal and first_end(t, e))")),
     scenario(R.test_marker_on_an_entry_edge_of_a_crossroads_or_on_one_road, tile="crossroads", rotation=1,
              edges={"N", "E", "S", "W"})),
    ("the marker's edge kept", rep("set start_edge(p) = e", "set start_edge(p) = N"),
     scenario(R.test_marker_on_an_entry_edge_of_a_crossroads_or_on_one_road, tile="t_junction", rotation=2,
              edges={"E"})),
    # a turn: the road tile
    ("the road tile is optional", rep("place road by current: 0..1 card", "place road by current: 1 card"),
     R.test_the_road_tile_is_optional),
    ("sides match", rep("onto table matching joining as t", "onto table joining as t"),
     R.test_placement_road_meets_road_and_a_road_joins),
    ("a road joins", rep("onto table matching joining as t", "onto table matching as t"),
     R.test_placement_road_meets_road_and_a_road_joins),
    # a turn: effect cards
    ("stop ends the effect cards", rep("set stopped = true", "set stopped = false"),
     R.test_effect_cards_one_at_a_time_until_the_player_stops),
    ("any number of effect cards", rep("for i in 1..hand_size where not stopped", "for i in 1..1 where not stopped"),
     R.test_effect_cards_one_at_a_time_until_the_player_stops),
    ("police on a crossroads only", rep(POLICE, POLICE.replace(" and u.signal", "")),
     R.test_police_on_a_crossroads_without_police_closed_or_not),
    ("police where there is none", rep(POLICE, POLICE.replace("and not policed(u) ", "")),
     R.test_police_on_a_crossroads_without_police_closed_or_not),
    ("police on a closed crossroads", rep(POLICE, POLICE.replace(" and u.signal", " and u.signal and not closed(u)")),
     R.test_police_on_a_crossroads_without_police_closed_or_not),
    ("the police card is discarded", rep("move 1 police from hand(current) to discard",
                                         "move 1 police from hand(current) to front(current)"),
     R.test_police_on_a_crossroads_without_police_closed_or_not),
    ("police sets the marker", rep("set policed(u) = true", "set policed(u) = false"),
     R.test_police_on_a_crossroads_without_police_closed_or_not),
    ("6 police markers", rep("param officers = 6", "param officers = 5"), R.test_police_markers_run_out_at_six),
    ("no 7th police marker", rep("count(policed(v) for v in table) < officers",
                                 "count(policed(v) for v in table) <= officers"),
     R.test_police_markers_run_out_at_six),
    ("construction not on a marker", rep(CONSTRUCTION, CONSTRUCTION.replace("\n                                    "
                                                                            "and not has_marker(u)", "")),
     R.test_construction_closes_a_tile_without_a_marker),
    ("construction not on a closed tile", rep(CONSTRUCTION, CONSTRUCTION.replace(" and not closed(u)", "")),
     R.test_construction_closes_a_tile_without_a_marker),
    ("the construction card is discarded", rep("move 1 construction from hand(current) to discard",
                                               "move 1 construction from hand(current) to front(current)"),
     R.test_construction_closes_a_tile_without_a_marker),
    ("construction closes", rep("set closed(u) = true", "set policed(u) = true"),
     R.test_construction_closes_a_tile_without_a_marker),
    ("run-red-light stays in front", rep("move 1 run_red_light from hand(current) to front(current)",
                                         "move 1 run_red_light from hand(current) to discard"),
     R.test_run_red_light_cards_pass_one_red_signal_each_none_used_up),
    ("one pass per card", rep("red_passes = 1", "red_passes = 2"),
     R.test_run_red_light_cards_pass_one_red_signal_each_none_used_up),
    ("the passes count", rep("passes = sum(c.red_passes for c in front(p))", "passes = 0"),
     R.test_worked_example_police_on_the_upper_crossroads_counts_two_or_five_with_a_pass),
    ("the passes are the player's", rep("passes = sum(c.red_passes for c in front(p))",
                                        "passes = sum(c.red_passes for c in front(current))"),
     R.test_run_red_light_cards_pass_one_red_signal_each_none_used_up),
    ("accelerate stays in front", rep("move 1 accelerate from hand(current) to front(current)",
                                      "move 1 accelerate from hand(current) to discard"),
     R.test_accelerate_in_front_detour_onto_another_player),
    ("detour onto another player", rep("detour q in player where q != current and", "detour q in player where"),
     R.test_accelerate_in_front_detour_onto_another_player),
    ("detour onto the chosen player", rep("to detours(q)", "to detours(current)"),
     R.test_accelerate_in_front_detour_onto_another_player),
    ("goal 10", rep("param goal = 10", "param goal = 9"),
     R.test_target_ten_minus_accelerate_plus_two_per_detour_never_below_one),
    ("accelerate -1", rep("target_change = -1", "target_change = -2"),
     R.test_target_ten_minus_accelerate_plus_two_per_detour_never_below_one),
    ("detour +2", rep("target_change = 2", "target_change = 3"),
     R.test_target_ten_minus_accelerate_plus_two_per_detour_never_below_one),
    ("detours count", rep(TARGET, TARGET.replace(" + sum(c.target_change for c in detours(p))", "")),
     R.test_target_ten_minus_accelerate_plus_two_per_detour_never_below_one),
    ("target never below 1", rep(TARGET, TARGET.replace("max(1, ", "max(0, ")),
     R.test_target_ten_minus_accelerate_plus_two_per_detour_never_below_one),
    # a turn: the goal and the refill
    ("the goal of the player to move only", rep("if drive(current) >= target(current)",
                                                "if any(drive(q) >= target(q) for q in player)"),
     R.test_goal_checked_for_the_player_to_move_only),
    ("at least the target", rep("if drive(current) >= target(current)", "if drive(current) > target(current)"),
     R.test_a_route_reaching_the_target_on_the_own_turn_wins),
    ("the route must reach the target", rep("if drive(current) >= target(current)",
                                            "if drive(current) >= target(current) - 1"),
     R.test_a_route_reaching_the_target_on_the_own_turn_wins),
    ("the player to move wins", rep("score(p) = if p == current", "score(p) = if p != current"),
     R.test_a_route_reaching_the_target_on_the_own_turn_wins),
    ("refill after a turn", rep("  refill hand(current) to hand_size from deck\n", ""),
     R.test_refill_to_five_if_the_deck_allows),
    # the route
    ("closed tiles cannot be entered", rep("blocked(t) = closed(t)", "blocked(t) = false"),
     R.test_route_cannot_enter_a_closed_tile),
    ("marker tiles can be driven through", rep("blocked(t) = closed(t)",
                                               "blocked(t) = closed(t) or (has_marker(t) and t != start(p))"),
     R.test_route_drives_through_other_players_marker_tiles),
    ("police stop a route", rep("stops(t, e) = policed(t) and includes(t.red, e)", "stops(t, e) = false"),
     R.test_worked_example_police_on_the_upper_crossroads_counts_two_or_five_with_a_pass),
    ("police stop across the red axis only", rep("stops(t, e) = policed(t) and includes(t.red, e)",
                                                 "stops(t, e) = policed(t)"),
     R.test_route_red_axis_turns_with_the_tile),
    ("stops need police", rep("stops(t, e) = policed(t) and includes(t.red, e)",
                              "stops(t, e) = includes(t.red, e)"),
     R.test_worked_example_counts_five),
    ("a crossroads start is entered", rep("enter_start(t) = t.signal", "enter_start(t) = false"),
     scenario(R.test_route_from_a_crossroads_starts_by_entering_at_the_marker, edge="N", policed=True, passes=0,
              count=0)),
    ("a crossroads start: no U-turn", rep("enter_start(t) = t.signal", "enter_start(t) = false"),
     scenario(R.test_route_from_a_crossroads_starts_by_entering_at_the_marker, edge="N", policed=False, passes=0,
              count=2)),
    ("the route counts up to the target", rep("enough = target(p)", "enough = 4"),
     R.test_worked_example_counts_five),
    ("the route starts at the marker", rep("start_edge = start_edge(p)", "start_edge = N"),
     R.test_route_leaves_by_either_end_of_the_marker_road),
    ("the route starts on the player's tile", rep("start = start(p)", "start = start(current)"),
     R.test_route_red_axis_turns_with_the_tile),
    # the end
    ("draw: deck and hands empty", rep(EMPTY_DECK_DRAW, ""), R.test_draw_when_the_deck_and_every_hand_are_empty),
    ("draw: every hand empty", rep("all(count(hand(p)) == 0 for p in player)", "count(hand(current)) == 0"),
     R.test_draw_when_the_deck_and_every_hand_are_empty),
    ("draw: a full round", rep(IDLE_DRAW, ""), scenario(R.test_draw_after_a_full_round_without_a_card_played,
                                                        players=3)),
    ("draw: a round is as many turns as players", rep("if idle >= players", "if idle > players"),
     scenario(R.test_draw_after_a_full_round_without_a_card_played, players=4)),
    ("draw: not before a full round", rep("if idle >= players", "if idle >= players - 1"),
     scenario(R.test_draw_after_a_full_round_without_a_card_played, players=3)),
    ("a card played starts the round again", rep("    set idle = 0\n", "    set idle = idle\n"),
     R.test_a_card_played_starts_the_round_again),
]


def test_mutation_ids_are_unique():
    assert_unique_ids(MUTATIONS)


@pytest.mark.parametrize("change,scenario", [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_scenario_catches_the_changed_rule(tmp_path, change, scenario):
    assert_caught(tmp_path, SOURCE, "luckydog.rules", P.load, change, scenario)
