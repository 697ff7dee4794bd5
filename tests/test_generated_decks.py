"""Generated decks and counts that depend on the number of players (docs/language.md, "cards"):
'for s in suit, r in 7..14 { ... }' inside a cards block, written out before the checker sees it
(meeple/dsl/decks.py), and '(players + 1) ace'."""

from __future__ import annotations

import pytest

from meeple.dsl.printer import print_rules
from rules_text import errors_of, load_text

HEAD = """
game "Deck"
players 2..6
enum suit { clubs hearts }
param top = 9 in 8..14
zone deck hidden
CARDS
turn {
  end game
}
report "cards" = count(deck)
report "rank sum" = sum(c.rank for c in deck)
"""


def deck(tmp_path, cards: str):
    return load_text(tmp_path, HEAD.replace("CARDS", cards))


def test_a_loop_writes_out_one_variety_for_each_combination(tmp_path):
    g = deck(tmp_path, "cards playing_card in deck {\n  for s in suit, r in 7..top {\n"
                       "    1 card { suit = s, rank = r }\n  }\n}")
    assert g.layout.variety_names == [f"card_{s}_{r}" for s in ("clubs", "hearts") for r in (7, 8, 9)]
    assert g.report_values(g.new_state(2, seed=0)) == {"cards": 6, "rank sum": 2 * (7 + 8 + 9)}
    assert g.layout.attr_table["suit"] == [g.layout.value_id[s] for s in ("clubs", "hearts") for _ in range(3)]


def test_a_param_sets_the_range_of_a_generated_deck(tmp_path):
    deck(tmp_path, "cards playing_card in deck {\n  for r in 1..top {\n    1 card { rank = r }\n  }\n}")
    import meeple
    g = meeple.load(str(tmp_path / "game.rules"), {"top": 12})
    assert len(g.layout.variety_names) == 12 and g.layout.variety_names[-1] == "card_12"


def test_a_loop_name_in_a_count_and_plain_varieties_beside_loops(tmp_path):
    g = deck(tmp_path, "cards playing_card in deck {\n  2 joker { rank = 0 }\n  for r in 1..3 {\n"
                       "    (4 - r) chip { rank = r }\n  }\n}")
    assert g.layout.variety_names == ["joker", "chip_1", "chip_2", "chip_3"]
    assert g.report_values(g.new_state(2, seed=0))["cards"] == 2 + 3 + 2 + 1


def test_negative_numbers_name_a_variety_with_m(tmp_path):
    g = deck(tmp_path, "cards playing_card in deck {\n  for r in -1..1 {\n    1 card { rank = r }\n  }\n}")
    assert g.layout.variety_names == ["card_m1", "card_0", "card_1"]


@pytest.mark.parametrize("players, cards", [(2, 3 + 4), (4, 5 + 8), (6, 7 + 12)])
def test_counts_may_depend_on_the_number_of_players(tmp_path, players, cards):
    g = deck(tmp_path, "cards playing_card in deck {\n  (players + 1) ace { rank = 1 }\n"
                       "  (2 * players) king { rank = 2 }\n}")
    assert g.report_values(g.new_state(players, seed=0))["cards"] == cards


@pytest.mark.parametrize("cards, message", [
    ("cards playing_card in deck {\n  (players - 3) ace\n}", "a count of cards cannot be negative (-1 with 2 players)"),
    ("cards playing_card in deck {\n  for s in shade {\n    1 card\n  }\n}",
     "'shade' is not an enum or a piece kind: a deck's loop runs over an enum, a piece kind or a range lo..hi"),
    ("cards playing_card in deck {\n  for r in 1..current {\n    1 card\n  }\n}",
     "a deck's range is made of numbers and params, known before the game"),
    ("cards playing_card in deck {\n  for p in player {\n    1 card\n  }\n}",
     "a deck's loop runs over an enum or a range of numbers, not the players"),
    ("cards playing_card in deck {\n  for r in 1..2 {\n    1 card\n  }\n  1 card_1\n}",
     "card 'card_1' is declared twice"),
    ("cards playing_card in deck {\n  for a in 1..400, b in 1..400 {\n    1 card\n  }\n}",
     "the loops make more than 100,000 varieties of cards"),
])
def test_mistakes_in_a_generated_deck_are_told(tmp_path, cards, message):
    assert any(m.startswith(message) for m in errors_of(tmp_path, HEAD.replace("CARDS", cards)))


def test_a_loop_that_cannot_be_written_out_leaves_the_rest_of_the_file_checked(tmp_path):
    """All the errors of a file come at once: a deck's loop over no kind is told, with a note that
    its cards are left out, and so are the mistakes elsewhere in the file."""
    text = HEAD.replace("CARDS", "cards playing_card in deck {\n  for s in shade {\n    1 card { rank = 2 }\n  }\n"
                                 "  1 joker { rank = 0 }\n}") \
        .replace("  end game", "  end game\n  set nothing_declared = 1")
    errors = errors_of(tmp_path, text)
    assert len(errors) == 2, errors
    assert errors[0].startswith("'shade' is not an enum or a piece kind")
    assert "nothing_declared" in errors[1]


def test_fmt_lays_a_loop_out_one_variety_a_line():
    text = HEAD.replace("CARDS", "cards playing_card in deck { for s in suit,r in 7..top { 1 card {suit=s, rank=r} } }")
    assert "  for s in suit, r in 7..top {\n    1 card { suit = s, rank = r }\n  }\n" in print_rules(text)


def test_meeple_ir_keeps_the_loops_so_the_ir_is_the_game_for_any_params(tmp_path):
    import json

    import meeple
    from meeple.dsl import read_ir
    deck(tmp_path, "cards playing_card in deck {\n  for r in 1..top {\n    1 card { rank = r }\n  }\n}")
    ir, _ = read_ir(str(tmp_path / "game.rules"), {"top": 12})
    assert ir["cards"][0]["varieties"][0]["node"] == "variety_loop"
    (tmp_path / "game.json").write_text(json.dumps(ir))
    for top in (8, 12):
        from_json = meeple.load(str(tmp_path / "game.json"), {"top": top})
        from_rules = meeple.load(str(tmp_path / "game.rules"), {"top": top})
        assert from_json.layout.variety_names == from_rules.layout.variety_names
        assert len(from_json.layout.variety_names) == top


def test_an_ir_loop_with_more_names_than_domains_is_refused(tmp_path):
    import json

    from meeple.dsl import RulesError, read_ir
    deck(tmp_path, "cards playing_card in deck {\n  for r in 1..2 {\n    1 card { rank = r }\n  }\n}")
    ir, _ = read_ir(str(tmp_path / "game.rules"))
    ir["cards"][0]["varieties"][0]["vars"] = ["r", "s"]
    (tmp_path / "game.json").write_text(json.dumps(ir))
    with pytest.raises(RulesError, match=r"names 2 value\(s\) for 1 domain\(s\)"):
        read_ir(str(tmp_path / "game.json"))


EMPTY_LOOP = "this loop of the deck writes out no variety (its braces are empty)"


@pytest.mark.parametrize("loop", ["for s in suit { }", "for s in suit, r in 1..3 {\n  }"])
def test_a_loop_with_empty_braces_is_one_error_at_the_loop(tmp_path, loop):
    """An empty loop gave three parse errors (the braces wanted a variety; the parser then lost its
    way in what follows): it is one error at the 'for', with the file's other errors."""
    import meeple
    from meeple.dsl import RulesError
    text = HEAD.replace("CARDS", f"cards playing_card in deck {{\n  2 joker {{ rank = 0 }}\n  {loop}\n}}"
                        ).replace("  end game", "  set nothing = 1\n  end game")
    (tmp_path / "game.rules").write_text(text)
    with pytest.raises(RulesError) as info:
        meeple.load(str(tmp_path / "game.rules"))
    found = sorted((d.line, d.col, d.message.split(":")[0]) for d in info.value.diagnostics if d.kind == "error")
    assert found == [(9, 3, EMPTY_LOOP), (text.count("\n", 0, text.index("set nothing")) + 1, 7,
                                          "unknown var 'nothing'")]


def test_an_ir_loop_with_no_variety_is_the_same_error(tmp_path):
    import json

    from meeple.dsl import RulesError, read_ir
    deck(tmp_path, "cards playing_card in deck {\n  for r in 1..2 {\n    1 card { rank = r }\n  }\n}")
    ir, _ = read_ir(str(tmp_path / "game.rules"))
    ir["cards"][0]["varieties"][0]["varieties"] = []
    (tmp_path / "game.json").write_text(json.dumps(ir))
    with pytest.raises(RulesError) as info:
        read_ir(str(tmp_path / "game.json"))
    [d] = [d for d in info.value.diagnostics if d.message.startswith(EMPTY_LOOP)]  # (and 'rank', on no card)
    assert d.path == "$.cards[0].varieties[0]" and "(from " in d.message
