"""What a step did, for one seat's eyes (meeple/tools/events.py, issue 17 part 1 in part): pieces
moved and finished, cards in and out of each zone (by name where the seat sees them, as a count
where not), vars it may see; and meeple play printing them after every move."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import meeple
from meeple.tools.cli import main
from meeple.tools.events import changes

ROOT = Path(__file__).resolve().parents[1]


def test_pieces_zones_and_vars_as_a_seat_sees_them():
    before = {"seat": 0, "pieces": {"fox": 3, "hare": 9}, "podium": {"course": []},
              "zones": {"table": {"fox": 2}, "deck": {"size": 10}, "hand": [{"one": 1}, {"size": 3}]},
              "vars": {"space": [0, 2], "done": [False], "who": [-1]}}
    after = {"seat": 0, "pieces": {"fox": 7, "hare": 12}, "podium": {"course": ["hare"]},
             "zones": {"table": {}, "deck": {"size": 9}, "hand": [{"one": 1, "two": 1}, {"size": 2}]},
             "vars": {"space": [0, 4], "done": [True], "who": [1]}}
    assert changes(before, after, {"two": "a two"}, {"who": "player"}) == [
        "hare finishes, 1st on course", "fox: 3 → 7", "hare: 9 → 12", "table: −fox ×2", "deck: −1 card (now 9)",
        "hand (you): +a two", "hand (seat 1): −1 card (now 2)", "space: seat 1: 2 → 4", "done: no → yes",
        "who: — → 1"]
    assert changes(before, before) == []
    assert changes(before, after, {"space": None}, {})[-3:] == ["hand (seat 1): −1 card (now 2)", "done: no → yes",
                                                              "who: -1 → 1"]


def test_nothing_the_seat_may_not_see_is_told():
    """Leduc: the other player's private card is never named in what a step did."""
    g = meeple.load(str(ROOT / "games" / "leduc.rules"))
    for seed in range(30):
        st = g.new_state(2, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            before = st.observation(0)
            st.apply(rng.choice(st.legal_actions()))
            told = " ".join(changes(before, st.observation(0)))
            theirs = st.observation(None)["zones"]["hand"][1]
            assert not any(card in told for card in theirs if card not in st.observation(0)["zones"]["hand"][0]
                           and card not in st.observation(0)["zones"]["community"]), told


def test_play_tells_what_each_move_did(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 200))
    main(["play", str(ROOT / "games" / "hare.rules"), "--players", "3", "--seed", "2"])
    out = capsys.readouterr().out
    assert "· fox finishes, 1st on course" in out and "· discard: +" in out and "· table: +" in out
    assert "Why: [podium] end when finishers(course) >= podium_size" in out
