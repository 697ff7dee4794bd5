"""Dice and private values (docs/language.md, "var": who sees a var; "roll"): vars that are private
or hidden as zones are, what each seat's observation shows of them, 'roll n dice of s into v' as one
chance event a die, and the mistakes around both."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest

import meeple
from meeple import RuleRuntimeError
from meeple.tools.fuzz import fuzz, hidden_shown
from rules_text import errors_of, load_text, take

BLUFF = Path(__file__).parent / "fixtures" / "good" / "bluff.rules"

GAME = """
game "Dice"
players 2..3
var throw per player private = 0
var secret hidden = 0
var board_sum = 0
turn {
  TURN
  end game
}
"""


def game(tmp_path, turn: str):
    return load_text(tmp_path, GAME.replace("TURN", turn))


def test_each_seat_sees_its_own_private_value_and_no_hidden_one(tmp_path):
    g = game(tmp_path, "set throw(current) = 4\n  set throw(seat(1)) = 5\n  set secret = 9\n  set board_sum = 2")
    st = g.new_state(3, seed=0)
    assert st.observation(0)["vars"] == {"throw": [4, None, None], "secret": [None], "board_sum": [2]}
    assert st.observation(1)["vars"] == {"throw": [None, 5, None], "secret": [None], "board_sum": [2]}
    assert st.observation(None)["vars"] == {"throw": [4, 5, 0], "secret": [9], "board_sum": [2]}
    assert all(hidden_shown(g, st, seat) is None for seat in range(3))


def test_the_rules_read_a_private_value_as_always(tmp_path):
    g = game(tmp_path, "set throw(seat(1)) = 5\n  set board_sum = throw(seat(1)) + 1")
    assert g.new_state(2, seed=0).observation(0)["vars"]["board_sum"] == [6]  # what goes public is public


def test_a_private_value_of_a_kind_is_hidden_by_name_too(tmp_path):
    text = GAME.replace("var board_sum = 0", "enum colour { red blue }\nvar pick per player private = red").replace(
        "TURN", "set pick(seat(1)) = blue")
    g = load_text(tmp_path, text)
    obs = g.new_state(2, seed=0).observation(0)
    assert obs["var_shown"]["pick"] == ["red", None]


def test_play_shows_what_a_seat_may_not_see_as_unknown(tmp_path, capsys):
    from meeple.tools.play import render_observation
    from rich.console import Console
    g = game(tmp_path, "set throw(current) = 4\n  set throw(seat(1)) = 5\n  set secret = 9")
    st = g.new_state(2, seed=0)
    console = Console(width=100, color_system=None)
    render_observation(g.observe(st, 0), 0, console, None, plain=True)
    out = capsys.readouterr().out
    assert "throw: seat 0: 4, seat 1: ?" in out and "secret: ?" in out


def test_fuzz_finds_a_private_value_shown(tmp_path, monkeypatch):
    g = game(tmp_path, "set throw(seat(1)) = 5")
    assert fuzz(g, examples=5, seed=1).failure is None
    monkeypatch.setattr(type(g), "_hide_vars", lambda self, doc, seat: None)  # a leak: nothing hidden
    failure = fuzz(g, examples=5, seed=1).failure
    assert failure is not None and "var throw of seat 1" in failure.message


def test_a_roll_is_one_chance_event_a_die_and_sets_the_sum(tmp_path):
    g = game(tmp_path, "roll 3 dice of 4 into throw(current)")
    st = g.new_state(2, chance="explicit")
    for face in (2, 4, 1):
        outcomes = st.chance_outcomes()
        assert [a.text for a, _ in outcomes] == [f"die {f} into throw" for f in range(1, 5)]
        assert all(p == pytest.approx(1 / 4) for _, p in outcomes)
        st.apply(next(a for a, _ in outcomes if a.text == f"die {face} into throw"))
    assert st.is_terminal() and st.observation(None)["vars"]["throw"] == [7, 0]


@pytest.mark.parametrize("turn, seats", [
    ("roll 2 dice of 4 into throw(next(current))", [1, 1]),  # every die of the roll: the seat after current
    ("set throw(previous(current)) = random 1..3", [1]),
    ("set throw(current) = random { 1: 2, 5: 1 }", [0]),
    ("roll 1 dice of 4 into board_sum", [None]),  # a shared var: no seat's
    ("set secret = random 1..3", [None]),
])
def test_a_chance_event_that_sets_one_players_value_names_the_seat(tmp_path, turn, seats):
    """``RandomPick.seat``: the seat whose value of a per-player var a chance event sets, worked
    out by the rules' own expression at that event (what records and play name the seat by)."""
    g = game(tmp_path, turn)
    st = g.new_state(2, chance="explicit")
    found = []
    while st.is_chance_node():
        spec = g.code[st.pc][1]
        found.append(None if spec.seat is None else spec.seat(st))
        st.apply(st.chance_outcomes()[0][0])
    assert found == seats


def test_seeded_rolls_have_the_chances_of_dice(tmp_path):
    g = game(tmp_path, "roll 2 dice of 6 into throw(current)")
    sums = Counter(g.new_state(2, seed=s).observation(None)["vars"]["throw"][0] for s in range(3600))
    exact = Counter(a + b for a, b in itertools.product(range(1, 7), repeat=2))
    assert set(sums) <= set(exact)
    for total in (2, 7, 12):  # within 5 standard deviations of 3600 * p
        p = exact[total] / 36
        assert abs(sums[total] - 3600 * p) < 5 * (3600 * p * (1 - p)) ** 0.5


def test_a_roll_of_no_dice_sets_zero_and_a_bad_count_is_a_rules_error(tmp_path):
    g = game(tmp_path, "set throw(current) = 3\n  roll 0 dice of 6 into throw(current)")
    assert g.new_state(2, seed=0).observation(None)["vars"]["throw"][0] == 0
    g = game(tmp_path, "roll board_sum - 1 dice of 6 into throw(current)")
    with pytest.raises(RuleRuntimeError, match="a roll of -1 dice"):
        g.new_state(2, seed=0)
    g = game(tmp_path, "roll 1 dice of board_sum into throw(current)")
    with pytest.raises(RuleRuntimeError, match="a die of 0 sides"):
        g.new_state(2, seed=0)


@pytest.mark.parametrize("text, message", [
    ("roll 2 dice of 6 into nothing", "unknown var 'nothing'"),
    ("roll 2 dice of 6 into throw", "var 'throw' is per player: write throw(p)"),
    ("roll 2 dice of 0 into board_sum", "a die has 1..10,000 sides, not 0"),
    ("roll 2000 dice of 6 into board_sum", "a roll is of 0..1,000 dice, not 2000"),
    ("roll true dice of 6 into board_sum", "the number of dice must be a number, not true/false"),
])
def test_mistakes_with_dice_are_told(tmp_path, text, message):
    assert any(m.startswith(message) for m in errors_of(tmp_path, GAME.replace("TURN", text)))


def test_a_shared_private_var_is_warned_about(tmp_path):
    text = GAME.replace("var board_sum = 0", "var board_sum private = 0").replace("TURN", "set board_sum = 1")
    g = load_text(tmp_path, text)
    assert any("seen by no one" in w.message for w in g.warnings)


def test_roll_stays_usable_as_a_name(tmp_path):
    # files from before 'roll', 'dice' and 'into' were words of the language keep working
    text = GAME.replace("var board_sum = 0", "var roll = 0\nvar dice = 1\nvar into = 2").replace(
        "TURN", "set roll = random 1..6\n  set dice = roll + into")
    g = load_text(tmp_path, text)
    assert g.new_state(2, seed=0).observation(None)["vars"]["dice"][0] in range(3, 9)


def test_bluff_plays_to_its_end_with_each_die_kept_to_its_player():
    g = meeple.load(str(BLUFF))
    for seed in range(30):
        st = g.new_state(3, seed=seed)
        rng = random.Random(seed)
        while st.outcome is None:
            for seat in range(3):
                faces = st.observation(seat)["vars"]["face"]
                assert [f is not None for f in faces] == [s == seat for s in range(3)]
            take(st, rng.choice(st.legal_actions()).text)
        assert sum(st.returns()) == 0 and len(st.winners()) == 1


def test_play_names_only_the_decision_of_a_bot_move_that_sets_a_private_var_or_hides_a_card(tmp_path):
    from meeple.tools.events import decision_visibility
    text = GAME.replace("var board_sum = 0", "var board_sum = 0\nzone deck hidden\nzone vault hidden\n"
                        "zone shown public\ncards chip in deck { 2 ace }").replace("TURN", """choose bid {
    offer n in 1..3 {
      set throw(current) = n
    }
  }
  choose say {
    loud n in 1..3 {
      set board_sum = n
    }
  }
  for c in deck {
    move c to shown
  }
  choose bury {
    hide c in shown {
      move c to vault
    }
  }
  choose show {
    up c in vault {
      move c to shown
    }
  }""")
    g = load_text(tmp_path, text)
    assert decision_visibility(g) == {"bid": False, "say": True, "bury": False, "show": True}


def test_play_shows_a_bot_move_of_an_option_that_hides_nothing(tmp_path):
    """Within one choice, an option that moves a card into a hidden zone is hidden, and one that
    only sets a public var is shown (the whole choice was hidden)."""
    from meeple.tools.events import decision_visibility, move_visibility
    text = GAME.replace("var board_sum = 0", "var board_sum = 0\nzone deck hidden\nzone vault hidden\n"
                        "cards chip in deck { 2 ace }").replace("TURN", """choose act {
    take c in deck {
      move c to vault
    }
    bump {
      set board_sum = board_sum + 1
    }
  }""")
    g = load_text(tmp_path, text)
    assert move_visibility(g) == {"act": {"take": False, "bump": True}}
    assert decision_visibility(g) == {"act": False}


# ---- whose roll: a chance step that sets one seat's value says whose it is ----
ROLLS = """
game "Rolls"
players 2..3
var total per player private = 0
var rounds = 0
turn {
  choose go {
    throw {
      roll 2 dice of 6 into total(current)
      set rounds = rounds + 1
    }
  }
}
end when rounds >= 3
score(p) = total(p)
"""


def test_a_private_roll_is_recorded_with_the_seat_it_is_for(tmp_path, capsys):
    """Bluff's dice, rolled in secret for each seat: the record says whose each die is ('die 2 into
    face' named only the var), replay -v names the seat, and replay -v --seat K shows K the value
    of its own die only ('die ? into face(seat 0)' for another's)."""
    import json

    from meeple.tools.cli import main
    from meeple.tools.records import replay_record
    from meeple.tools.simulate import simulate
    simulate(str(BLUFF), games=2, players=3, seed=5, workers=1, records_dir=str(tmp_path))
    path = tmp_path / "game-00001.jsonl"
    docs = [json.loads(line) for line in path.read_text().splitlines()]
    rolls = [d for d in docs[1:-1] if d.get("actor") == "chance"]
    assert [d["for"] for d in rolls] == [0, 1, 2] and all(set(d) == {"actor", "action", "for"} for d in rolls)
    assert not any("for" in d for d in docs[1:-1] if d.get("actor") != "chance")
    faces = [int(d["action"].split()[1]) for d in rolls]
    told: list[str] = []
    assert replay_record(path, verbose=told.append).ok
    assert [line.split(None, 2)[2] for line in told[:5:2]] == [f"die {f} into face(seat {s})"
                                                               for s, f in enumerate(faces)]
    for seat in range(3):
        assert main(["replay", str(path), "-v", "--seat", str(seat)]) == 0
        steps = capsys.readouterr().out.splitlines()[:6]
        for s, f in enumerate(faces):
            mine = f"die {f} into face(seat {s})" if s == seat else \
                f"die ? into face(seat {s}) (hidden from seat {seat})"
            assert any(line.endswith(mine) for line in steps), (seat, steps)


def test_a_record_that_says_a_roll_is_another_seats_is_a_mismatch(tmp_path, capsys):
    import json

    from meeple.tools.cli import main
    from meeple.tools.simulate import simulate
    simulate(str(BLUFF), games=1, players=2, seed=5, workers=1, records_dir=str(tmp_path))
    path = tmp_path / "game-00001.jsonl"
    docs = [json.loads(line) for line in path.read_text().splitlines()]
    docs[1]["for"] = 1
    path.write_text("\n".join(json.dumps(d) for d in docs) + "\n")
    assert main(["replay", str(path)]) == 1
    assert "step 1 (chance: die " in capsys.readouterr().out
    for edit, said in ((lambda d: d[1].update({"for": 2}), "'for' is the seat the chance step is for, 0..1, not 2"),
                       (lambda d: d[3].update({"for": 0}), "'for' names the seat a chance step is for; a seat's own")):
        bad = json.loads(json.dumps(docs))
        bad[1]["for"] = 0
        edit(bad)
        path.write_text("\n".join(json.dumps(d) for d in bad) + "\n")
        assert main(["replay", str(path)]) == 1
        out, err = capsys.readouterr()
        assert said in out + err and "Traceback" not in out + err


def test_play_tells_a_bots_private_roll_by_its_seat_never_its_value(tmp_path, capsys, monkeypatch):
    """A bot's 'throw' is shown (the dice are chance's, not the move's), then each of its dice as a
    chance step for its seat, the value hidden; the seat's own dice by their value; a record of
    the game played says whose each die is."""
    import io
    import json
    import re
    import sys

    from meeple.tools.cli import main
    (tmp_path / "rolls.rules").write_text(ROLLS)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 10))
    monkeypatch.setenv("COLUMNS", "200")
    main(["play", str(tmp_path / "rolls.rules"), "--players", "3", "--seed", "3", "--plain",
          "--record", str(tmp_path / "r.jsonl")])
    out = capsys.readouterr().out
    assert "seat 1 (bot): throw\nchance: die ? into total(seat 1) (hidden from you)\n" \
           "chance: die ? into total(seat 1) (hidden from you)\n" in out
    mine = re.findall(r"chance: die (\d) into total\(seat 0\)\n", out)
    assert len(mine) == 2 and "(hidden from you)" not in out.split("seat 1 (bot)")[0]
    docs = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()[1:-1]]
    dice = [d for d in docs if d["actor"] == "chance"]
    assert [d["for"] for d in dice] == [0, 0, 1, 1, 2, 2] and [d["action"][4] for d in dice[:2]] == mine[:2]


def test_a_record_names_the_seat_of_each_random_value_drawn_for_one(tmp_path):
    """Claims draws each seat's secret favourite quarter in its setup ('set favourite(p) = random
    quarter'): each of those lines says its seat, and no other chance line has one."""
    import json

    from meeple.tools.simulate import simulate
    simulate(str(BLUFF.parent / "claims.rules"), games=1, players=3, seed=2, workers=1, records_dir=str(tmp_path))
    docs = [json.loads(line) for line in (tmp_path / "game-00001.jsonl").read_text().splitlines()[1:-1]]
    assert [(d["action"].split()[0], d["for"]) for d in docs if "for" in d] == [("favourite", s) for s in range(3)]
    assert all(("for" in d) == d["action"].startswith("favourite =") for d in docs)


CELL_DICE = ('game "Cells"\nplayers 1\nboard dice { columns 3 rows 1 }\nvar face per dice = 0\n'
             'turn {\n  for c in dice {\n    roll 1 dice of 6 into face(c)\n  }\n'
             '  set face(cell(dice, 1, 0)) = random 1..2\n  end game\n}\nscore(p) = sum(face(c) for c in dice)\n')


def test_a_chance_event_that_sets_one_cells_value_names_the_cell(tmp_path, capsys):
    """Dice kept on the cells of a board all read 'die 4 into face': play and replay -v name the
    cell whose value each sets ('die 4 into face(2,0)'), as they name a seat's; the record keeps
    the rules' own text."""
    from meeple.tools.cli import main
    rules = tmp_path / "cells.rules"
    rules.write_text(CELL_DICE)
    g = meeple.load(str(rules))
    st = g.new_state(1, chance="explicit")
    found = []
    while st.is_chance_node():
        found.append(g.code[st.pc][1].cell(st))
        st.apply(st.chance_outcomes()[0][0])
    assert found == [0, 1, 2, 1]
    record = tmp_path / "g.jsonl"
    assert main(["play", str(rules), "--watch", "--seed", "1", "--plain", "--record", str(record)]) == 0
    told = [line for line in capsys.readouterr().out.splitlines() if line.startswith("chance: ")]
    assert [line.split(" into ")[-1] if " into " in line else line.split(" = ")[0] for line in told] == \
        ["face(0,0)", "face(1,0)", "face(2,0)", "chance: face(1,0)"]
    assert main(["replay", str(record), "-v"]) == 0
    steps = [line.split()[-1] for line in capsys.readouterr().out.splitlines() if " chance " in line]
    assert steps[:3] == ["face(0,0)", "face(1,0)", "face(2,0)"]
    assert '"action": "die ' in record.read_text() and "into face(" not in record.read_text()
