"""A weighted random choice (docs/language.md, "set ... = random"): 'set v = random { a: 3, b: 1 }',
its chances on both paths, weights that are expressions or 0, and the mistakes around it."""

from __future__ import annotations

from collections import Counter

import pytest

from meeple import RuleRuntimeError
from rules_text import errors_of, load_text

GAME = """
game "Weather"
players 2
enum sky { sunny rainy stormy }
var weather = sunny
var storms = 0
var who = none
turn {
  TURN
  end game
}
report "sky" = weather
"""


def game(tmp_path, turn: str):
    return load_text(tmp_path, GAME.replace("TURN", turn))


def test_each_value_is_as_likely_as_its_weight(tmp_path):
    g = game(tmp_path, "set weather = random { sunny: 3, rainy: 1, stormy: storms }")
    st = g.new_state(2, chance="explicit")
    assert [(a.text, p) for a, p in st.chance_outcomes()] == [("weather = sunny", 0.75), ("weather = rainy", 0.25)]
    seen = Counter(g.report_values(g.new_state(2, seed=s))["sky"] for s in range(4000))
    assert set(seen) == {"sunny", "rainy"}
    assert abs(seen["sunny"] - 3000) < 5 * (4000 * 0.75 * 0.25) ** 0.5


def test_a_value_named_twice_has_the_sum_of_its_weights(tmp_path):
    g = game(tmp_path, "set weather = random { sunny: 1, rainy: 1, sunny: 2 }")
    st = g.new_state(2, chance="explicit")
    assert [(a.text, p) for a, p in st.chance_outcomes()] == [("weather = sunny", 0.75), ("weather = rainy", 0.25)]


def test_players_and_numbers_can_be_picked_by_weight(tmp_path):
    g = game(tmp_path, "set who = random { seat(0): 1, seat(1): 3 }\n  set storms = random { 10: 1, 20: 0 }")
    st = g.new_state(2, chance="explicit")
    assert [a.text for a, _ in st.chance_outcomes()] == ["who = seat 0", "who = seat 1"]
    st.apply(st.chance_outcomes()[1][0])
    assert [(a.text, p) for a, p in st.chance_outcomes()] == [("storms = 10", 1.0)]


def test_all_weights_zero_or_a_negative_weight_is_a_rules_error(tmp_path):
    with pytest.raises(RuleRuntimeError, match="every weight is 0"):
        game(tmp_path, "set weather = random { sunny: storms, rainy: 0 }").new_state(2, seed=0)
    with pytest.raises(RuleRuntimeError, match="a weight of -1"):
        game(tmp_path, "set weather = random { sunny: storms - 1, rainy: 1 }").new_state(2, seed=0)


@pytest.mark.parametrize("turn, message", [
    ("set weather = random { sunny: 1, 2: 1 }", "the values of a random choice are of one type"),
    ("set weather = random { sunny: -2, rainy: 1 }", "a weight cannot be negative (-2)"),
    ("set weather = random { sunny: true }", "a weight must be a number, not true/false"),
    ("set storms = random { sunny: 1 }", "'storms' holds a number but is set to a value of 'sky'"),
])
def test_mistakes_in_a_weighted_choice_are_told(tmp_path, turn, message):
    assert any(m.startswith(message) for m in errors_of(tmp_path, GAME.replace("TURN", turn)))
