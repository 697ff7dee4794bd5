"""Seats (docs/language.md, "Built-in queries"): seat(n), number(p), next(p) and previous(p), seats
numbered from 0, and the hint a comparison of a player with a number gets."""

from __future__ import annotations

import pytest

from meeple import RuleRuntimeError
from rules_text import errors_of, load_text

GAME = """
game "Seats"
players 2..4
var who = none
turn {
  end game
}
"""


def values(tmp_path, players: int, exprs: dict[str, str]) -> dict:
    text = GAME + "".join(f'report "{k}" = {v}\n' for k, v in exprs.items())
    g = load_text(tmp_path, text)
    return g.report_values(g.new_state(players, seed=0))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_next_and_previous_go_round_the_seats(tmp_path, players):
    got = values(tmp_path, players, {
        "next": "number(next(seat(0)))", "after the last": f"number(next(seat({players - 1})))",
        "previous": "number(previous(seat(0)))", "round": "next(previous(current)) == current",
        "first is seat 0": "number(current)",
    })
    assert got == {"next": 1, "after the last": 0, "previous": players - 1, "round": True, "first is seat 0": 0}


def test_a_player_that_is_none_is_a_rule_error(tmp_path):
    turn = "  if false {\n    set who = current\n  }\n  if number(who) == 1 {\n    end game\n  }"
    g = load_text(tmp_path, GAME.replace("  end game", turn))
    with pytest.raises(RuleRuntimeError, match="a player is none here"):
        g.new_state(2, seed=0)


def test_a_player_compared_with_a_number_is_told_how_to_write_it(tmp_path):
    found = errors_of(tmp_path, GAME + "define first_seat = current == 0\n")
    assert any("cannot compare a player with a number: a player is seat(n), a player's seat number is "
               "number(p)" in m for m in found), found


def test_a_game_may_still_declare_next_or_number(tmp_path):
    text = GAME + "define next(n) = n + 1\ndefine number = 5\nreport \"mine\" = next(3) + number\n"
    g = load_text(tmp_path, text)
    assert g.report_values(g.new_state(2, seed=0)) == {"mine": 9}
