"""Reversi (games/reversi.rules), rule by rule: one scenario per rule of docs/rules/reversi.md, and
whole games compared move by move with an independent Reversi written from OpenSpiel's othello
(tests/reversi_reference.py); with OpenSpiel installed (``pip install open_spiel``), with it too.

Positions are drawn as OpenSpiel prints them, top row first, but with meeple's coordinates: the
top row is y = 7, the left column x = 0; ``x`` is a disc of seat 0 (black), ``o`` of seat 1 (white).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import meeple
from positions import set_current
from reversi_reference import PASS, Othello, from_cell, to_cell
from rules_text import assert_doc_quotes, take

RULES = Path(__file__).resolve().parents[1] / "games" / "reversi.rules"
MARKS = {"x": 0, "o": 1, ".": None}


def load(path: Path | str = RULES):
    return meeple.load(str(path))


@pytest.fixture(scope="module")
def g():
    return load()


def start(g):
    st = g.new_state(2, seed=0)
    assert st.decision() == "move"
    return st


def board(st) -> dict[tuple[int, int], int]:
    """Every cell with a disc: (x, y) → seat."""
    cells = st.observation(0)["board"]
    out = {}
    for c, v in enumerate(cells["vars"]["disc"]):
        if v is not None:
            out[c % cells["columns"], c // cells["columns"]] = int(v.removeprefix("seat "))
    return out


def position(g, picture: str, to_move: int = 0):
    """A state at seat ``to_move``'s move, the board as ``picture`` draws it (8 rows of 8 marks)."""
    st = start(g)
    rows = [line.split() for line in picture.strip().splitlines()]
    assert len(rows) == 8 and all(len(r) == 8 for r in rows)
    for i, row in enumerate(rows):
        for x, mark in enumerate(row):
            seat = MARKS[mark]
            st.set_var("disc", -1 if seat is None else seat, (x, 7 - i))
    set_current(st, to_move)
    st.restart_turn()
    return st


def moves(st) -> set[str]:
    return {a.text for a in st.legal_actions()}


play = take


EMPTY_ROW = ". . . . . . . ."


def picture(*rows: str) -> str:
    """Eight rows, top first: the rows given, then empty ones."""
    return "\n".join([*rows, *[EMPTY_ROW] * (8 - len(rows))])


# ---- [board] and [setup] ----

def test_the_board_is_8_by_8(g):
    cells = start(g).observation(0)["board"]
    assert (cells["columns"], cells["rows"]) == (8, 8)


def test_the_four_centre_discs_and_black_moves_first(g):
    st = start(g)
    # OpenSpiel: white on (3,3) and (4,4), black on (3,4) and (4,3), rows from the top.
    assert board(st) == {to_cell(3 * 8 + 3): 1, to_cell(4 * 8 + 4): 1, to_cell(3 * 8 + 4): 0, to_cell(4 * 8 + 3): 0}
    assert st.current_player() == 0
    # OpenSpiel's first legal actions: d3, c4, f5, e6 (19, 26, 37, 44).
    assert moves(st) == {"put {},{}".format(*to_cell(a)) for a in (19, 26, 37, 44)}


# ---- [moves] ----

def test_a_move_must_flank_a_line(g):
    st = position(g, picture(
        "x o . . . . . .",
        ". . . . . . . .",
        ". . . o x . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". o . x . . . .",
    ), to_move=0)
    # x at 0,7 flanks o at 1,7 from 2,7; 3,5 (next to o, nothing of x's beyond) flanks nothing.
    assert "put 2,7" in moves(st)
    assert "put 2,5" in moves(st)  # o at 3,5 closed by x at 4,5
    assert "put 5,5" not in moves(st)  # next to x only
    assert "put 3,4" not in moves(st)  # below o, an empty cell beyond
    assert "put 0,0" not in moves(st)  # o at 1,0, then a gap before the x at 3,0
    assert moves(st) == {"put 2,7", "put 2,5"}


def test_a_taken_cell_is_no_move(g):
    st = position(g, picture(
        "x o x . . . . .",
    ), to_move=0)
    assert "put 1,7" not in moves(st) and "put 2,7" not in moves(st)


# ---- [flips] ----

def test_every_flanked_line_turns_in_all_eight_directions(g):
    st = position(g, picture(
        "x . . x . . x .",
        ". o . o . o . .",
        ". . o o o . . .",
        "x o o . o o x .",
        ". . o o o . . .",
        ". o . o . o . .",
        "x . . x . . x .",
    ), to_move=0)
    play(st, "put 3,4")
    b = board(st)
    turned = [(1, 6), (3, 6), (5, 6), (2, 5), (3, 5), (4, 5), (1, 4), (2, 4), (4, 4), (5, 4),
              (2, 3), (3, 3), (4, 3), (1, 2), (3, 2), (5, 2)]
    assert all(b[c] == 0 for c in turned), {c: b[c] for c in turned}
    assert b.get((3, 4)) == 0
    assert sum(1 for v in b.values() if v == 1) == 0


def test_a_line_not_closed_does_not_turn_and_the_run_stops_at_the_closing_disc(g):
    st = position(g, picture(
        ". . . . . . . .",
        ". o o x o x . .",
        ". . . . . . . .",
        ". o o . . . . .",
    ), to_move=0)
    play(st, "put 0,6")  # flanks 1,6 and 2,6 (closed by x at 3,6); o at 4,6 beyond stays
    b = board(st)
    assert b[1, 6] == 0 and b[2, 6] == 0 and b[4, 6] == 1
    assert b[1, 4] == 1 and b[2, 4] == 1  # another row, not flanked


def test_only_the_lines_of_the_move_turn(g):
    st = position(g, picture(
        ". . . . . . . .",
        ". x o . . . . .",
        ". . . . o . . .",
        ". . o . . . . .",
        ". . x . . . . .",
    ), to_move=0)
    play(st, "put 3,6")
    b = board(st)
    assert b[2, 6] == 0 and b[2, 4] == 1
    assert b[4, 5] == 1  # next to the cell, but no disc of x's closes the line


# ---- [pass] ----

def test_a_player_with_no_move_passes_and_only_then(g):
    st = position(g, picture(
        "x o . . . . . .",
        "o o . . . . . .",
    ), to_move=1)
    assert moves(st) == {"pass"}  # o flanks nothing
    play(st, "pass")
    assert st.current_player() == 0 and "pass" not in moves(st)


# ---- [the end] and [winner] ----

def test_the_game_ends_when_neither_can_move_and_most_discs_wins(g):
    st = position(g, picture(
        "x o . . . . . .",
    ), to_move=0)
    assert moves(st) == {"put 2,7"}
    play(st, "put 2,7")
    assert st.is_terminal() and st.winners() == [0] and st.returns() == [1.0, 0.0]


def test_the_game_goes_on_while_one_player_can_move(g):
    st = position(g, picture(
        "x o . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "o x x . . . . .",
    ), to_move=0)
    play(st, "put 2,7")  # x has no move left; o has one (3,4 flanks 2,4 and 1,4, closed by o at 0,4)
    assert "put 3,4" in moves(st)
    assert not st.is_terminal()
    assert st.current_player() == 1


def test_equal_discs_is_a_draw(g):
    st = position(g, picture(
        "x o . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "o o o . . . . .",
    ), to_move=0)
    play(st, "put 2,7")  # x: 0,7 1,7 2,7; o: 0,4 1,4 2,4; nobody can move
    assert st.is_terminal() and st.outcome == "draw" and st.winners() == []


def test_the_winner_is_who_has_more_discs_not_who_moved_last(g):
    st = position(g, picture(
        "x o . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "o o o o . . . .",
    ), to_move=0)
    play(st, "put 2,7")
    assert st.is_terminal() and st.winners() == [1]


# ---- whole games against the reference ----

def _same_game(g, seed: int) -> int:
    st, ref, rng = g.new_state(2, seed=seed), Othello(), random.Random(seed)
    turns = 0
    while not ref.over:
        assert not st.is_terminal()
        assert st.current_player() == ref.player
        want = {"pass" if a == PASS else "put {},{}".format(*to_cell(a)) for a in ref.legal_actions()}
        assert moves(st) == want
        a = rng.choice(ref.legal_actions())
        ref.apply(a)
        play(st, "pass" if a == PASS else "put {},{}".format(*to_cell(a)))
        assert board(st) == ref.cells()
        turns += 1
    assert st.is_terminal()
    expected = ref.returns()
    assert (st.winners() == [] and st.outcome == "draw") if expected == [0.0, 0.0] else \
        st.winners() == [expected.index(1.0)]
    return turns


def test_random_games_play_as_the_reference_does(g):
    lengths = [_same_game(g, seed) for seed in range(25)]
    assert min(lengths) > 8  # whole games, not a few moves


def test_against_openspiel_when_it_is_installed(g):
    pyspiel = pytest.importorskip("pyspiel")
    for seed in range(5):
        game, rng = pyspiel.load_game("othello"), random.Random(seed)
        state, st = game.new_initial_state(), g.new_state(2, seed=seed)
        while not state.is_terminal():
            want = {"pass" if a == PASS else "put {},{}".format(*to_cell(a)) for a in state.legal_actions()}
            assert moves(st) == want
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            play(st, "pass" if a == PASS else "put {},{}".format(*to_cell(a)))
        assert st.is_terminal()
        returns = state.returns()
        assert st.winners() == ([] if returns[0] == returns[1] else [0 if returns[0] > 0 else 1])


def test_cells_map_to_openspiel_actions_and_back():
    assert all(from_cell(*to_cell(a)) == a for a in range(64))
    assert to_cell(0) == (0, 7) and to_cell(63) == (7, 0)


def test_rules_doc_quotes_the_rules_file():
    """docs/rules/reversi.md quotes reversi.rules: every quoted line is in it, every test it names exists."""
    assert_doc_quotes(RULES.parents[1] / "docs" / "rules" / "reversi.md", RULES, globals())
