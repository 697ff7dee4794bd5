"""A var may start as a value of a kind (docs/language.md, `var`): it then holds values of that
kind, shared or per player, and is shown by the value's name."""

from __future__ import annotations

from rules_text import errors_of, load_text

GAME = """
game "Trumps"
players 2
enum suit { hearts spades clubs }
var trump = hearts
var lead per player = spades
turn {
  if trump == hearts {
    set trump = clubs
  }
  set lead(current) = trump
  end game
}
report "trump" = trump
report "lead 0" = lead(seat(0))
report "lead 1" = lead(seat(1))
"""


def test_a_var_starts_as_a_value_and_holds_values_of_its_kind(tmp_path):
    g = load_text(tmp_path, GAME)
    st = g.new_state(2, seed=0)
    assert g.report_values(st) == {"trump": "clubs", "lead 0": "clubs", "lead 1": "spades"}
    assert st.observation(0)["var_shown"]["lead"] == ["clubs", "spades"]


def test_a_value_var_set_to_another_kind_or_compared_with_a_number_is_an_error(tmp_path):
    found = errors_of(tmp_path, GAME.replace("set trump = clubs", "set trump = 2"))
    assert any("'trump' holds a value of 'suit' but is set to a number" in m for m in found), found
    found = errors_of(tmp_path, GAME + "define odd = trump == 1\n")
    assert any("cannot compare a value of 'suit' with a number" in m for m in found), found
