"""Circuits, pieces per player, entry spaces, home stretches and 'move ... to' (docs/language.md,
`circuit` and `pieces`): where a piece stands for its progress, who owns it, what a loop over the
pieces runs over, what the checker refuses, and what an observation shows."""

from __future__ import annotations

import random

import pytest

from meeple import RuleRuntimeError
from rules_text import errors_of, load_text, take

RING = """
game "Ring"
players 2..4
circuit ring {
  spaces 12
  mud at 3
}
pieces pawn on ring per player { a b } entering at 1, 4, 7, 10 home 2
var steps = 0
turn {
  choose go {
    hop q in pawn where owner(q) == current {
      move q by steps
    }
    slide q in pawn where owner(q) == current {
      move q by steps stopping at mud
    }
    place_at q in pawn, n in 0..16 where owner(q) == current {
      move q to n
    }
  }
}
end when any(finished(q) for q in pawn)
score(p) = count(owner(q) == p and finished(q) for q in pawn)
"""


def game(tmp_path, text: str = RING, name: str = "ring.rules"):
    return load_text(tmp_path, text, name)


errors, play = errors_of, take


def space(st, piece: str) -> int:
    return st.observation(0)["piece_spaces"][piece]


def test_pieces_per_player_are_named_by_seat_and_owned(tmp_path):
    g = game(tmp_path)
    st = g.new_state(3, seed=1)
    obs = st.observation(0)
    assert sorted(obs["pieces"]) == ["a_0", "a_1", "a_2", "b_0", "b_1", "b_2"]  # no seat 3 in a 3-player game
    assert all(pos == 0 for pos in obs["pieces"].values())  # all in reserve
    assert {a.text for a in st.legal_actions() if a.text.startswith("hop")} == {"hop a_0", "hop b_0"}


def test_progress_1_is_the_entry_space_and_the_circuit_goes_round(tmp_path):
    g = game(tmp_path)
    st = g.new_state(4, seed=1)
    st.set_var("steps", 0)
    for seat, entry in enumerate((1, 4, 7, 10)):
        if st.current_player() != seat:
            break
        play(st, f"place_at a_{seat} 1")
        assert space(st, f"a_{seat}") == entry
    st = g.new_state(4, seed=1)
    play(st, "place_at a_0 12")  # a whole lap from space 1: the space before it, 12
    assert space(st, "a_0") == 12
    play(st, "place_at a_1 10")  # seat 1 enters at 4: progress 10 is space 13 → 1
    assert space(st, "a_1") == 1


def test_after_a_lap_the_home_stretch_then_the_finish(tmp_path):
    g = game(tmp_path)
    st = g.new_state(2, seed=1)
    play(st, "place_at b_0 13")  # the first home space of seat 0: 12 + 0 * 2 + 1
    assert space(st, "b_0") == 13 and not st.is_terminal()
    play(st, "place_at b_1 14")  # seat 1's second home space: 12 + 1 * 2 + 2
    assert space(st, "b_1") == 16
    assert st.observation(0)["home_stretch"] == {"b_0": [1, 2], "b_1": [2, 2]}
    play(st, "place_at a_0 15")  # past the home stretch: finished
    assert st.is_terminal() and st.winners() == [0]


def test_move_to_0_sends_a_piece_back_to_its_reserve(tmp_path):
    g = game(tmp_path)
    st = g.new_state(2, seed=1)
    play(st, "place_at a_0 5")
    play(st, "place_at a_1 3")
    play(st, "place_at a_0 0")
    assert st.observation(0)["pieces"]["a_0"] == 0 and space(st, "a_0") == 0


def test_stopping_at_a_tag_reads_the_spaces_the_piece_crosses(tmp_path):
    g = game(tmp_path)
    st = g.new_state(2, seed=1)
    play(st, "place_at a_0 1")  # seat 0 on space 1
    play(st, "place_at a_1 10")  # seat 1 on space 1 too (entered at 4, 10 on: 13 → 1)
    st.set_var("steps", 5)
    play(st, "slide a_0")  # 2, then 3: mud
    assert space(st, "a_0") == 3
    play(st, "slide a_1")  # seat 1 from space 1 (progress 10) crosses 2, 3 (mud): stops at progress 12
    assert space(st, "a_1") == 3 and st.observation(0)["pieces"]["a_1"] == 12


def test_a_circuit_without_home_never_finishes(tmp_path):
    text = RING.replace(" home 2", "").replace("end when any(finished(q) for q in pawn)",
                                               "end when any(pos(q) > 100 for q in pawn)")
    g = game(tmp_path, text)
    st = g.new_state(2, seed=1)
    play(st, "place_at a_0 16")
    assert space(st, "a_0") == 4 and not st.observation(0)["podium"]["ring"]


def test_a_track_without_entries_counts_spaces_as_before(tmp_path):
    text = """
game "Lane"
players 2
track lane { spaces 6 }
pieces runner on lane per player { r }
turn {
  for q in runner where owner(q) == current {
    move q by 4
  }
}
end when finishers(lane) >= 1
score(p) = count(owner(q) == p and finished(q) for q in runner)
"""
    g = game(tmp_path, text, "lane.rules")
    st = g.new_state(2, seed=1)
    st.play_out(random.Random(1))
    assert st.is_terminal() and st.winners() == [0]  # seat 0 reaches 8 > 6 first
    assert st.observation(0)["pieces"] == {"r_0": 8, "r_1": 4}


@pytest.mark.parametrize("change,message", [
    (("circuit ring {", "track ring {"), "players enter at spaces of their own on a circuit"),
    (("entering at 1, 4, 7, 10", "entering at 1, 4, 7"), "'entering at' gives 3 space(s), one for each seat"),
    (("entering at 1, 4, 7, 10", "entering at 1, 4, 7, 13"), "track 'ring' has spaces 1..12: no space 13 to enter at"),
    (("per player { a b } entering at 1, 4, 7, 10 home 2", "{ a b } home 2"), "'home' is for pieces per player"),
    (("var steps = 0", "var steps = 0\nvar a_1 = 0"), "clashes"),
    (("      move q to n", "      move deck to n"), "unknown name 'deck'"),
    (("      move q to n", "      move q to true"), "where the piece goes must be a number"),
])
def test_the_checker_refuses(tmp_path, change, message):
    found = errors(tmp_path, RING.replace(*change))
    assert any(message in m for m in found), found


def test_card_names_spelled_as_keywords_still_move(tmp_path):
    text = """
game "Names"
players 2
zone deck public
zone hand per player public
cards thing in deck { 1 board 1 rows 1 columns 1 home 1 entering 1 circuit 1 zone }
turn {
  move 1 board from deck to hand(current)
  move 1 circuit from deck to hand(current)
  move 1 rows from deck to hand(current)
  move 1 zone from deck to hand(current)
  end game
}
"""
    g = game(tmp_path, text, "names.rules")
    st = g.new_state(2, seed=0)
    assert st.is_terminal()
    assert st.observation(0)["zones"]["hand"][0] == {"board": 1, "circuit": 1, "rows": 1, "zone": 1}


# ---- found in review ----

LAPS = """
game "Laps"
players 2
circuit ring {
  spaces 6
  mud at 2
}
pieces pawn on ring per player { a } entering at 1, 4
turn {
  choose go {
    slide q in pawn where owner(q) == current {
      move q by 4 stopping at mud
    }
  }
}
end when pos(a_1) > 30
score(p) = 0
"""


def test_stopping_at_holds_on_every_lap_of_a_circuit_without_home(tmp_path):
    st = game(tmp_path, LAPS).new_state(2, seed=1)
    seen = []
    for _ in range(6):
        play(st, "slide a_0")
        play(st, "slide a_1")
        seen.append((st.observation(0)["pieces"]["a_1"], space(st, "a_1")))
    # a_1 enters at 4: 4 5 6 1 | 2 (mud) | 3 4 5 6 | 1 2 (mud) ...: every lap it stops in the mud
    assert seen == [(4, 1), (5, 2), (9, 6), (11, 2), (15, 6), (17, 2)]


def test_a_circuit_needs_a_space(tmp_path):
    text = LAPS.replace("spaces 6\n  mud at 2", "spaces 0").replace(" entering at 1, 4", "")
    text = text.replace(" stopping at mud", "")
    assert errors(tmp_path, text) == ["circuit 'ring' has no spaces to go round: give it at least 1"]


def test_a_keeping_test_over_pieces_per_player_reads_only_the_seats_in_play(tmp_path):
    # As a capacity (the fast legal moves) and as a test judged as written, the same choices.
    text = """
game "Cap"
players 2..4
circuit ring {
  spaces 8
}
pieces pawn on ring per player { a } entering at 1, 3, 5, 7
zone deck public
zone pile public
cards c in deck { 3 x { who = a_3 } 3 y { who = a_0 } }
var k = 0
turn {
  set k = k + 1
  choose take: 0..3 cards from deck to pile keeping KEEP
}
end when k >= 3
score(p) = count(pile)
"""
    limit = "all(count(pile where who == q) <= 1 for q in pawn)"
    legal = [sorted(a.text for a in game(tmp_path, text.replace("KEEP", keep)).new_state(n, seed=0).legal_actions())
             for n in (2, 4) for keep in (limit, limit + " and k >= 0")]
    assert legal[0] == legal[1] and "take 3 x" in legal[0]  # no seat 3 in a 2-player game
    assert legal[2] == legal[3] and "take 2 x" not in legal[2]


def test_meeple_play_draws_a_finished_piece_past_the_end_not_at_the_start(tmp_path):
    import io

    from rich.console import Console

    from meeple.tools.play import render_observation

    text = LAPS.replace("entering at 1, 4", "entering at 1, 4 home 1").replace(" stopping at mud", "")
    st = game(tmp_path, text).new_state(2, seed=1)
    play(st, "slide a_0")
    play(st, "slide a_1")
    play(st, "slide a_0")  # progress 8: past its home stretch (6 + 1)
    obs = st.observation(0)
    assert obs["podium"]["ring"] == ["a_0"] and obs["piece_spaces"]["a_0"] == 0
    out = io.StringIO()
    render_observation(obs, 0, Console(file=out, width=80, color_system=None))
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:1] == ["start"])
    assert "a_0" not in " ".join(lines[start:start + 2])  # (a_1 stands on space 4)
    assert "past the end: 1. a_0" in out.getvalue()


def test_a_piece_of_a_seat_not_in_the_game_cannot_move(tmp_path):
    text = RING.replace("players 2..4", "players 1..4").replace("      move q to n", "      move a_3 to n")
    g = game(tmp_path, text)
    st = g.new_state(2, seed=1)
    with pytest.raises(RuleRuntimeError, match="'a_3' is seat 3's piece: this game has 2 players"):
        play(st, "place_at a_0 1")


def test_tags_named_as_new_keywords_still_parse(tmp_path):
    text = """
game "Tags"
players 2
track lane {
  spaces 8
  circuit at 3
  board at 5, 6
  tiles { 2 mud, 2 ice, 1 board }
}
pieces runner on lane { r }
turn {
  move r by 4 stopping at circuit
  end game
}
"""
    st = game(tmp_path, text, "tags.rules").new_state(2, seed=0)
    assert st.observation(0)["pieces"]["r"] == 3
