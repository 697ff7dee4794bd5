"""Boards of cells, as found in review: a cell held in a var read by neighbour(), a none from
'first' used as a seat or a direction, 'while' in a 'keeping' test."""

from __future__ import annotations

import pytest

import meeple
from meeple.dsl.diagnostics import RuleRuntimeError


def game(tmp_path, text: str):
    path = tmp_path / "g.rules"
    path.write_text(text)
    return meeple.load(str(path))


def test_neighbour_of_a_cell_held_in_a_var(tmp_path):
    g = game(tmp_path, """game "V"
players 2
board b { columns 3 rows 3 }
var at = none
var k = 0
turn {
  set at = cell(b, 1, 1)
  if neighbour(at, E) == cell(b, 2, 1) and neighbour(neighbour(at, E), E) == none { set k = 1 }
  end game
}
""")
    st = g.new_state(2, seed=0)
    assert st.is_terminal() and st.var("k") == 1


@pytest.mark.parametrize("use", ["set disc(neighbour(cell(b, 1, 1), far)) = current",
                                 "for x in line(cell(b, 1, 1), opposite(far)) { set disc(x) = current }"])
def test_a_direction_that_first_did_not_find(tmp_path, use):
    g = game(tmp_path, f"""game "D"
players 2
board b {{ columns 3 rows 3 }}
var disc per b = none
define far = first(d for d in direction where players > 100)
turn {{
  {use}
  end game
}}
""")
    with pytest.raises(RuleRuntimeError, match="a direction is none here"):
        g.new_state(2, seed=0)


def test_a_player_that_first_did_not_find(tmp_path):
    g = game(tmp_path, """game "P"
players 1..2
var pts per player = 0
define other = first(p for p in player where p != current)
turn {
  set pts(other) = pts(other) + 1
  end game
}
""")
    assert g.new_state(2, seed=0).var("pts", 1) == 1
    with pytest.raises(RuleRuntimeError, match="a player is none here"):
        g.new_state(1, seed=0)


def test_while_in_a_keeping_test(tmp_path):
    g = game(tmp_path, """game "Cap"
players 2
enum colour { red blue }
zone deck public
zone table public
zone hand per player public
cards chip in deck {
  10 r { colour = red }
  10 b { colour = blue }
}
setup {
  move all from deck to hand(seat(0))
}
turn {
  choose play: 1..3 cards from hand(current) to table
    keeping all(count(table where colour == c) <= 1 for c in colour while c == red)
  end game
}
""")
    legal = {a.text for a in g.new_state(2, seed=0).legal_actions()}
    assert "play 3 b" in legal and "play 2 r" not in legal
