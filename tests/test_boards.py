"""Boards of cells (docs/language.md, `board`): cells and their coordinates, the eight directions,
line(c, d), 'while' and 'first', per-cell vars and none, seat(n), what the checker refuses, what an
observation and `meeple play` show, and the names a game may still declare."""

from __future__ import annotations

import pytest

import meeple
from meeple.dsl.diagnostics import RuleRuntimeError
from meeple.tools.play import board_of_cells, cell_spots
from rules_text import errors_of

HEAD = """
game "Cells"
players 2..3
board patch { columns 4 rows 3 }
var mark per patch = none
var tally per patch = 0
"""


def game(tmp_path, body: str, reports: dict[str, str] | None = None, head: str = HEAD):
    text = head + body + "".join(f'\nreport "{k}" = {v}' for k, v in (reports or {}).items())
    path = tmp_path / "cells.rules"
    path.write_text(text)
    return meeple.load(str(path))


def reports(tmp_path, exprs: dict[str, str], setup: str = "") -> dict:
    g = game(tmp_path, f"setup {{\n{setup}\n}}\nturn {{\n  end game\n}}\n", exprs)
    return g.report_values(g.new_state(2, seed=0))


errors = errors_of


def test_cells_coordinates_and_the_edge(tmp_path):
    got = reports(tmp_path, {
        "col": "col(cell(patch, 3, 2))", "row": "row(cell(patch, 3, 2))",
        "off": "cell(patch, 4, 0) == none", "below": "cell(patch, 0, -1) == none",
        "count": "count(true for c in patch)",
        "first row": "count(row(c) == 0 for c in patch)",
        "order": "col(first(c for c in patch where row(c) == 1))",
    })
    assert got == {"col": 3, "row": 2, "off": True, "below": True, "count": 12, "first row": 4, "order": 0}


def test_the_eight_directions_and_their_neighbours(tmp_path):
    got = reports(tmp_path, {
        "directions": "count(true for d in direction)",
        "N": "row(neighbour(cell(patch, 1, 1), N))", "NE": "col(neighbour(cell(patch, 1, 1), NE))",
        "SW": "col(neighbour(cell(patch, 1, 1), SW)) + 10 * row(neighbour(cell(patch, 1, 1), SW))",
        "past the edge": "neighbour(cell(patch, 0, 0), W) == none",
        "opposite": "opposite(NE) == SW and opposite(W) == E",
        "order": "N < NE and NE < E and SE < S and W < NW",
        "of none": "neighbour(neighbour(cell(patch, 0, 0), S), N) == none",
        "col of none": "col(cell(patch, 9, 9))",
    })
    assert got == {"directions": 8, "N": 2, "NE": 2, "SW": 0, "past the edge": True, "opposite": True,
                   "order": True, "of none": True, "col of none": 0}


def test_a_line_runs_to_the_edge_nearest_first_and_can_be_cut(tmp_path):
    got = reports(tmp_path, {
        "to the edge": "count(true for x in line(cell(patch, 0, 0), E))",
        "nearest first": "col(first(x for x in line(cell(patch, 0, 0), E)))",
        "diagonal": "count(true for x in line(cell(patch, 0, 0), NE))",
        "cut": "count(true for x in line(cell(patch, 0, 0), E, 2))",
        "cut below 0": "count(true for x in line(cell(patch, 0, 0), E, -3))",
        "from none": "count(true for x in line(cell(patch, 9, 9), E))",
        "from the edge": "count(true for x in line(cell(patch, 3, 0), E))",
    })
    assert got == {"to the edge": 3, "nearest first": 1, "diagonal": 2, "cut": 2, "cut below 0": 0,
                   "from none": 0, "from the edge": 0}


def test_while_stops_at_the_first_failure_and_first_finds_the_first_pass(tmp_path):
    setup = "\n".join(f"  set tally(cell(patch, {x}, 0)) = {v}" for x, v in enumerate((1, 1, 0, 1)))
    got = reports(tmp_path, {
        "run": "count(true for x in line(cell(patch, 0, 1), S) while tally(x) == 1)",
        "row run": "count(true for c in patch while tally(c) == 1)",
        "with where": "count(true for c in patch while row(c) == 0 where tally(c) == 1)",
        "sum while": "sum(tally(c) for c in patch while tally(c) > 0)",
        "first": "col(first(c for c in patch where tally(c) == 0))",
        "first none": "first(c for c in patch where tally(c) > 5) == none",
        "first player": "first(p for p in player where p != current) == seat(1)",
        "range while": "max(i for i in 1..10 while i * i < 30)",
    }, setup)
    assert got == {"run": 1, "row run": 2, "with where": 3, "sum while": 2, "first": 2, "first none": True,
                   "first player": True, "range while": 5}


def test_a_for_loop_with_while_stops_where_the_test_fails_as_it_goes(tmp_path):
    body = """
setup {
  set mark(cell(patch, 2, 0)) = seat(1)
  for x in line(cell(patch, 0, 0), E) while mark(x) == none {
    set mark(x) = current
  }
}
turn {
  end game
}
"""
    g = game(tmp_path, body, {"mine": "count(mark(c) == seat(0) for c in patch)",
                              "theirs": "count(mark(c) == seat(1) for c in patch)"})
    assert g.report_values(g.new_state(2, seed=0)) == {"mine": 1, "theirs": 1}


def test_per_cell_vars_of_none_and_setting_none_is_a_rule_error(tmp_path):
    got = reports(tmp_path, {"none": "mark(cell(patch, 7, 7)) == none", "zero": "tally(cell(patch, 7, 7))"})
    assert got == {"none": True, "zero": 0}
    g = game(tmp_path, "turn {\n  set mark(neighbour(cell(patch, 0, 0), S)) = current\n}\n")
    with pytest.raises(RuleRuntimeError, match="of no cell"):
        g.new_state(2, seed=0)


def test_seat_of_a_seat_the_game_has_not_is_a_rule_error(tmp_path):
    g = game(tmp_path, "turn {\n  set mark(cell(patch, 0, 0)) = seat(2)\n  end game\n}\n")
    assert g.new_state(3, seed=0).is_terminal()
    with pytest.raises(RuleRuntimeError, match=r"seat\(2\): this 2-player game has seats 0..1"):
        g.new_state(2, seed=0)


def test_a_direction_var_never_set_is_a_rule_error(tmp_path):
    body = ("var way = none\nturn {\n  if false {\n    set way = N\n  }\n"
            "  set mark(neighbour(cell(patch, 1, 1), way)) = current\n}\n")
    g = game(tmp_path, body)
    with pytest.raises(RuleRuntimeError, match="a direction is none here"):
        g.new_state(2, seed=0)


def test_a_decision_over_cells_is_shown_and_taken_as_x_y(tmp_path):
    body = """
turn {
  choose put {
    put c in patch where mark(c) == none and row(c) == 0 {
      set mark(c) = current
    }
  }
  end game
}
"""
    g = game(tmp_path, body)
    st = g.new_state(2, seed=0)
    assert [a.text for a in st.legal_actions()] == ["put 0,0", "put 1,0", "put 2,0", "put 3,0"]
    st.apply("put 2,0")
    board = st.observation(1)["board"]
    assert board["vars"]["mark"][2] == "seat 0" and board["vars"]["tally"][2] == 0
    assert cell_spots(g.new_state(2, seed=0).legal_actions()) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    drawn = board_of_cells(board, spots=[(3, 0)])
    assert drawn[1].split() == ["0", "1", "2", "3"]
    assert drawn[-2].split() == ["0", ".", ".", "0", "+", "0"]  # row 0: seat 0's mark at 2,0
    assert drawn[2].split()[0] == "2"  # the top row first
    assert drawn[0].startswith("patch: 4 × 3 cells, showing mark, tally")
    # the rules' labels: a var labelled hidden is not drawn, another goes by its label
    labelled = board_of_cells(board, labels={"tally": None, "mark": "stone"})
    assert labelled[0] == "patch: 4 × 3 cells, showing stone" and labelled[-2].split() == ["0", ".", ".", "0", ".", "0"]
    for same in ({"mark": "stone", "tally": "stone"}, {"mark": "tally"}):  # (two vars by one name: by their own)
        assert board_of_cells(board, labels=same)[0] == "patch: 4 × 3 cells, showing mark, tally"


def test_a_random_cell_is_one_of_the_board_named_x_y(tmp_path):
    g = game(tmp_path, "var spot = none\nsetup {\n  set spot = random patch\n}\nturn {\n  end game\n}\n")
    st = g.new_state(2, chance="explicit")
    names = [o.text for o, _ in st.chance_outcomes()]
    assert len(names) == 12 and names[0] == "spot = 0,0" and names[-1] == "spot = 3,2"


@pytest.mark.parametrize("text,message", [
    (HEAD + "board more { columns 2 rows 2 }\nturn {\n  end game\n}\n", "a game may have one board"),
    (HEAD + "turn {\n  end game\n}\n".replace("end game", "end game") + "define far = line(cell(patch, 0, 0), N)\n",
     "line(...) is a row of cells, to loop over"),
    (HEAD.replace("columns 4", "columns 0") + "turn {\n  end game\n}\n", "a board needs at least one of its columns"),
    (HEAD.replace("columns 4", "columns 101") + "turn {\n  end game\n}\n", "101 columns is more than the limit of 100"),
    (HEAD + "turn {\n  set mark(3) = current\n}\n", "the cell of 'mark' must be a cell or no value, not a number"),
    (HEAD + "turn {\n  set mark = current\n}\n", "var 'mark' is per cell: write mark(c)"),
    (HEAD + "define f = first(row(c) for c in patch)\nturn {\n  end game\n}\n",
     "'first' gives a player, a tile, a cell or a value"),
    (HEAD + "zone deck public\ncards chip in deck { 2 red }\ndefine f = count(true for c in deck while true)\n"
     "turn {\n  end game\n}\n", "a zone's cards have no order"),
    (HEAD + "define f = cell(3, 0, 0)\nturn {\n  end game\n}\n", "'cell' needs the board's name"),
    (HEAD + "zone deck public\ncards tile in deck { 2 straight { ways = [N S] } }\n"
     "grid table { tiles tile paths ways }\nturn {\n  end game\n}\n", "a game may have a grid or a board, not both"),
    (HEAD + "var NE = 0\nturn {\n  end game\n}\n", "clashes"),
])
def test_the_checker_refuses(tmp_path, text, message):
    found = errors(tmp_path, text)
    assert any(message in m for m in found), found


def test_names_added_as_built_ins_later_may_still_be_declared(tmp_path):
    text = """
game "Old names"
players 2
var seat = 3
var first = 1
define line(a) = a + 1
define cell = 7
turn {
  set seat = line(seat)
  end game
}
report "seat" = seat
report "cell" = cell + first
"""
    path = tmp_path / "old.rules"
    path.write_text(text)
    g = meeple.load(str(path))
    assert g.report_values(g.new_state(2, seed=0)) == {"seat": 4, "cell": 8}


def test_a_per_cell_var_starts_the_same_on_every_cell(tmp_path):
    found = errors(tmp_path, HEAD + "var base = 5\nvar n per patch = base + 1\nturn {\n  end game\n}\n")
    assert any("a per-cell var's start value is a number, true/false or none, or made of params" in m for m in found)


def test_vars_holding_a_cell_or_a_direction_are_shown_by_name(tmp_path):
    body = "var pick = none\nvar way = none\nsetup {\n  set pick = cell(patch, 1, 2)\n  set way = NW\n}\n" \
           "turn {\n  end game\n}\n"
    g = game(tmp_path, body)
    assert g.new_state(2, seed=0).observation(0)["var_shown"] == {"pick": ["1,2"], "way": ["NW"]}


def test_a_cell_that_holds_something_and_a_move_can_take_is_marked_too():
    """A sowing game takes a pit that holds seeds: the pit shows its seeds and '+', so that the
    legend's '+ marks a cell you can take' holds for every cell a move takes."""
    board = {"name": "tray", "columns": 3, "rows": 1, "vars": {"held": [4, 0, 2]}}
    drawn = board_of_cells(board, spots=[(0, 0), (1, 0)])
    assert drawn[0] == "tray: 3 × 1 cells, showing held; + marks a cell you can take"
    assert drawn[-2].split() == ["0", "4+", "+", "2", "0"]
    assert board_of_cells(board)[-2].split() == ["0", "4", ".", "2", "0"]


def test_a_squares_key_turns_back_into_it_orders_squares_by_x_then_y_and_steps_across_sides() -> None:
    """square(x, y) is x * ROW + y: square_at is its inverse for every square within MAX_COORD
    (negative ones too), the keys sort as the squares do by x then y (squares_near lists them
    so), KEY_STEP steps to the square across each side, and the squares near (0, 0) have keys
    of one digit of Python's (below 2 ** 30)."""
    from meeple.interpreter.boards import KEY_STEP, MAX_COORD, ORIGIN, square, square_at
    from meeple.interpreter.routes import STEP
    edge = MAX_COORD - 1
    squares = [(x, y) for x in (-edge, -5, -1, 0, 1, 7, edge) for y in (-edge, -3, -1, 0, 1, 2, edge)]
    assert all(square_at(square(x, y)) == (x, y) for x, y in squares)
    assert sorted(squares, key=lambda s: square(*s)) == sorted(squares)
    assert all(square(x + STEP[e][0], y + STEP[e][1]) == square(x, y) + KEY_STEP[e]
               for x, y in squares for e in range(4))
    assert square(0, 0) == ORIGIN and all(abs(square(x, y)) < 2 ** 30 for x in range(-200, 201) for y in (-200, 200))
