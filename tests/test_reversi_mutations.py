"""The Reversi scenarios are faithful: change one rule of games/reversi.rules and the scenario of
that rule fails (tests/mutations.py says how a case runs)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import test_reversi_rules as R

from mutations import assert_caught, assert_unique_ids, rep

SOURCE = R.RULES.read_text()

MUTATIONS: list[tuple[str, Callable[[str], str], Callable]] = [
    # [board] and [setup]
    ("8 columns", rep("columns 8 rows 8", "columns 9 rows 8"), R.test_the_board_is_8_by_8),
    ("8 rows", rep("columns 8 rows 8", "columns 8 rows 7"), R.test_the_board_is_8_by_8),
    ("black on 3,3", rep("set disc(cell(felt, 3, 3)) = seat(0)", "set disc(cell(felt, 3, 3)) = seat(1)"),
     R.test_the_four_centre_discs_and_black_moves_first),
    ("black on 4,4", rep("set disc(cell(felt, 4, 4)) = seat(0)", "set disc(cell(felt, 4, 5)) = seat(0)"),
     R.test_the_four_centre_discs_and_black_moves_first),
    ("white on 3,4", rep("set disc(cell(felt, 3, 4)) = seat(1)", "set disc(cell(felt, 3, 4)) = seat(0)"),
     R.test_the_four_centre_discs_and_black_moves_first),
    ("white on 4,3", rep("set disc(cell(felt, 4, 3)) = seat(1)", "set disc(cell(felt, 4, 2)) = seat(1)"),
     R.test_the_four_centre_discs_and_black_moves_first),
    ("black moves first", rep("set current = seat(0)", "set current = seat(1)"),
     R.test_the_four_centre_discs_and_black_moves_first),
    # [moves] and [flanking]
    ("a rival's disc, not an empty cell", rep("define rival(x, p) = disc(x) != none and disc(x) != p",
                                              "define rival(x, p) = disc(x) != p"), R.test_a_move_must_flank_a_line),
    ("flanking needs a rival's disc next to the cell",
     rep("define flanks(c, d, p) = rival(neighbour(c, d), p) and ", "define flanks(c, d, p) = "),
     R.test_a_move_must_flank_a_line),
    ("the line is closed by the first disc that is not a rival's",
     rep("first(x for x in line(c, d) where not rival(x, p))", "first(x for x in line(c, d) where disc(x) == p)"),
     R.test_a_move_must_flank_a_line),
    ("a line is closed by a disc of the mover's", rep("disc(closing(c, d, p)) == p", "closing(c, d, p) != none"),
     R.test_a_move_must_flank_a_line),
    ("a taken cell is no move", rep("define can_take(c, p) = disc(c) == none and ", "define can_take(c, p) = "),
     R.test_a_taken_cell_is_no_move),
    ("any of the 8 directions", rep("any(flanks(c, d, p) for d in direction)",
                                    "any(flanks(c, d, p) for d in direction where d <= SE)"),
     R.test_a_move_must_flank_a_line),
    # [flips]
    ("every flanked line turns", rep("for d in direction where flanks(c, d, current) {",
                                     "for d in direction where d <= SE and flanks(c, d, current) {"),
     R.test_every_flanked_line_turns_in_all_eight_directions),
    ("only flanked lines turn", rep("for d in direction where flanks(c, d, current) {", "for d in direction {"),
     R.test_only_the_lines_of_the_move_turn),
    ("the run stops at the closing disc", rep("for x in line(c, d) while rival(x, current) {",
                                              "for x in line(c, d) while disc(x) != none {"),
     R.test_a_line_not_closed_does_not_turn_and_the_run_stops_at_the_closing_disc),
    ("the disc is put on the cell", rep("      set disc(c) = current\n", ""),
     R.test_every_flanked_line_turns_in_all_eight_directions),
    # [pass]
    ("pass only without a move", rep("pass where not can_move(current) {", "pass {"),
     R.test_a_player_with_no_move_passes_and_only_then),
    # [the end] and [winner]
    ("the end when neither can move", rep("if not any(can_move(p) for p in player) {", "if not can_move(current) {"),
     R.test_the_game_goes_on_while_one_player_can_move),
    ("equal discs is a draw", rep("      end game with no winner\n", ""), R.test_equal_discs_is_a_draw),
    ("most discs wins", rep("score(p) = discs(p)", "score(p) = 0 - discs(p)"),
     R.test_the_winner_is_who_has_more_discs_not_who_moved_last),
    ("discs are counted per player", rep("define discs(p) = count(disc(c) == p for c in felt)",
                                         "define discs(p) = count(disc(c) != p for c in felt)"),
     R.test_the_game_ends_when_neither_can_move_and_most_discs_wins),
]


def test_mutation_ids_are_unique():
    assert_unique_ids(MUTATIONS)


@pytest.mark.parametrize("change,scenario", [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_scenario_catches_the_changed_rule(tmp_path, change, scenario):
    assert_caught(tmp_path, SOURCE, "reversi.rules", R.load, change, scenario)
