"""When the game ends (docs/language.md, "end when", "invariant"): an 'end when' is judged after
every statement that changes what it reads, even in the middle of a block; the checker warns where
that can leave a later statement about the same thing undone (dsl/endings.py), on the two traps and
on no bundled game."""

from __future__ import annotations

from pathlib import Path

import pytest

from meeple.dsl import read_ir
from rules_text import load_text

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted([*ROOT.glob("games/*.rules"), *ROOT.glob("games/variants/*.rules"),
                  *ROOT.glob("tests/fixtures/good/*.rules")])

SHEDDING = """
game "Shed"
players 2
zone deck hidden
zone pile public
zone hand per player private
cards c in deck {
  6 red { rank = 1 }
  6 blue { rank = 2 }
}
var top = 0
setup {
  for p in player {
    deal 3 from deck to hand(p)
  }
}
turn {
  choose go {
    play c in hand(current) {
      PLAY
    }
  }
}
END
"""

ELIMINATION = """
game "Knock"
players 3
zone deck hidden
zone discard public
zone hand per player private
cards c in deck { 9 red }
var lives per player = 2
setup {
  for p in player {
    deal 3 from deck to hand(p)
  }
}
turn {
  choose hit {
    hit q in player where q != current {
      set lives(q) = lives(q) - 1
      if lives(q) == 0 {
        OUT
      }
    }
  }
}
end when count(true for p in player) == 1
"""


def warnings_of(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "game.rules"
    path.write_text(text)
    _, warnings = read_ir(str(path))
    return [f"{w.line}: {w.message}" for w in warnings if "the game can end right after this" in w.message]


def test_the_last_card_leaving_a_hand_before_it_takes_effect(tmp_path):
    text = SHEDDING.replace("PLAY", "move c to pile\n      set top = c.rank").replace(
        "END", "end when count(hand(current)) == 0")
    (warning,) = warnings_of(tmp_path, text)
    assert warning.startswith("20: the game can end right after this, before line 21 (which works on 'c' too)")
    assert "the 'end when' at line 25" in warning and "'end game'" in warning
    # and it is so: the last card leaves, and its rank never reaches the top
    g = load_text(tmp_path, text)
    st = g.new_state(2, chance="explicit")
    for card in ("blue", "blue", "red", "blue", "blue", "blue"):  # seat 0's three cards, then seat 1's
        st.apply(f"deal {card}")
    for play in ("play blue", "play blue", "play blue", "play blue", "play red"):
        st.apply(play)
    assert st.is_terminal() and st.zone("hand", 0) == {}
    assert st.var("top") == 2  # the blue before it: the red that emptied the hand never got there


def test_a_player_put_out_before_their_hand_is_put_away(tmp_path):
    text = ELIMINATION.replace("OUT", "set out(q) = true\n        move all from hand(q) to discard")
    (warning,) = warnings_of(tmp_path, text)
    assert warning.startswith("19: the game can end right after this, before line 20 (which works on 'q' too)")


@pytest.mark.parametrize("text", [
    # the statement that can end the game comes last
    SHEDDING.replace("PLAY", "set top = c.rank\n      move c to pile").replace(
        "END", "end when any(count(hand(p)) == 0 for p in player)"),
    # what follows works on something else
    SHEDDING.replace("PLAY", "move c to pile\n      set top = top + 1").replace(
        "END", "end when any(count(hand(p)) == 0 for p in player)"),
    # the end reads nothing the statement changes
    SHEDDING.replace("PLAY", "move c to pile\n      set top = c.rank").replace("END", "end when top >= 9"),
    # 'end game' where the block is done
    SHEDDING.replace("PLAY", "move c to pile\n      set top = c.rank\n      if count(hand(current)) == 0 {\n"
                             "        end game\n      }").replace("END", ""),
    # only who moves next is left undone, which means nothing once the game is over
    ELIMINATION.replace("OUT", "set out(q) = true\n        set next = q"),
])
def test_no_warning_where_nothing_about_the_same_thing_is_left_undone(tmp_path, text):
    assert warnings_of(tmp_path, text) == []


def test_a_let_and_a_phase_count(tmp_path):
    play = "let who = current\n      move 1 red from hand(who) to pile\n      deal 1 from deck to hand(who)"
    text = SHEDDING.replace("PLAY", play).replace("END", "end when count(pile) >= 3")
    (warning,) = warnings_of(tmp_path, text)
    assert "(which works on 'who' too)" in warning
    text = SHEDDING.replace("PLAY", "if c.rank == 1 {\n        run lay\n      }\n      set top = c.rank").replace(
        "END", "end when count(pile) >= 3\nphase lay {\n  move 1 red from hand(current) to pile\n}")
    (warning,) = warnings_of(tmp_path, text)
    assert "(which works on 'c' too)" in warning


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_no_bundled_game_or_fixture_is_warned(path):
    _, warnings = read_ir(str(path))
    assert [w.message for w in warnings if "the game can end" in w.message] == []


LAST_ROUND = """
game "Last round"
players 3
var pts per player = 0
var last_round = false
var starter = none
setup {
  set starter = current
}
turn {
  choose go {
    ok { }
  }
  if current == seat(1) {
    set pts(current) = pts(current) + 1
  }
  if pts(current) >= 2 {
    set last_round = true
  }
}
end when last_round and current == starter
score(p) = pts(p)
"""


@pytest.mark.parametrize("path", ["seeded", "explicit", "step by step"])
def test_an_end_that_reads_who_moves_is_judged_as_the_turn_passes(tmp_path, path):
    """'end when last_round and current == starter': the round ends as the turn comes back to the
    starter (seat 1 scores its second point in turn 5; seat 0's turn would be the 7th), on every path."""
    import random

    game = load_text(tmp_path, LAST_ROUND)
    if path == "step by step":
        from meeple.interpreter.ops import CHOICE
        game.segments = {}
        for op, spec, _ in game.code:
            if op == CHOICE:
                spec.turn = None
    st = game.new_state(3, chance="explicit") if path == "explicit" else game.new_state(3, seed=1)
    moves = random.Random(1)
    while not st.is_terminal():
        st.apply(moves.choice(st.legal_actions()))
    # (before seat 0 moves: six turns played, the sixth the last one counted)
    assert (st.outcome, st.turns, st.current, len(st.history())) == ("end", 5, 0, 6)
    assert game.why_ended(st).startswith("end when last_round and current == starter")
