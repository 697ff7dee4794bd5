"""What a step did, for one seat's eyes (meeple/tools/events.py, issue 17 part 1 in part): pieces
moved and finished, cards in and out of each zone (by name where the seat sees them, as a count
where not), vars it may see; and meeple play printing them after every move."""

from __future__ import annotations

import io
import random
import re
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
        "who: — → seat 1"]
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
    assert "Why: end when finishers(course) >= podium_size" in out


# ---- what the engine tells a listener (State.listen): what a diff of two states cannot ----
def heard_in(game, players: int, seed: int) -> list[tuple]:
    """Everything a listener hears in one seeded game of random moves."""
    from meeple.tools.events import Listener
    st = game.new_state(players, seed=seed)
    listener = st.listen = Listener(game, players)
    heard, rng = [], random.Random(seed)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
        heard += listener.take()
    return heard + [("end_at", listener.end_at)]


def test_the_engine_tells_phases_stops_and_reshuffles():
    g = meeple.load(str(ROOT / "games" / "hare.rules"))
    heard = [e for seed in range(6) for e in heard_in(g, 3, seed)]
    assert ("phase", "race") in heard
    stops = [e for e in heard if e[0] == "stop"]
    assert stops and all(e[2] == "stream" and e[3] >= 1 for e in stops)  # (the hare rules stop at the stream)
    reshuffles = [e for e in heard if e[0] == "reshuffle"]
    assert reshuffles and all(e[1] == ("discard", None) and e[2] == ("deck", None) and e[3] > 0 for e in reshuffles)


def test_an_end_game_names_the_test_that_led_to_it():
    g = meeple.load(str(ROOT / "games" / "luckydog.rules"))
    st = g.new_state(3, seed=1)
    from meeple.tools.events import Listener
    listener = st.listen = Listener(g, 3)
    rng = random.Random(1)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    if st.outcome == "end":
        line = (ROOT / "games" / "luckydog.rules").read_text().splitlines()[listener.end_at[0] - 1]
        assert line.strip().startswith("if ") and "end game" not in line
        assert g.why_ended(st, listener.end_at).endswith(f" → end game ({g.source_path}:{listener.end_at[0]})")
    assert g.why_ended(st) is not None  # (without a listener, still a reason)


def test_listening_changes_nothing_and_clones_do_not_listen():
    """A game played with a listener is the same game: same moves, same state, same hash."""
    from meeple.tools.events import Listener
    from meeple.tools.records import state_hash
    g = meeple.load(str(ROOT / "games" / "hare.rules"))
    for seed in range(3):
        a, b = g.new_state(3, seed=seed), g.new_state(3, seed=seed)
        b.listen = Listener(g, 3)
        ra, rb = random.Random(seed), random.Random(seed)
        while not a.is_terminal():
            a.apply(ra.choice(a.legal_actions()))
            b.apply(rb.choice(b.legal_actions()))
            assert b.clone().listen is None
        assert state_hash(a) == state_hash(b) and a.history() == b.history()


def test_a_stop_is_told_on_the_piece_it_stopped():
    before = {"seat": 0, "pieces": {"sheep": 3}}
    after = {"seat": 0, "pieces": {"sheep": 6}}
    heard = [("stop", "sheep", "stream", 6)]
    assert changes(before, after, heard=heard) == ["sheep: 3 → 6, stopped by the stream at 6"]
    assert changes({}, {"seat": 1}, heard=[("reshuffle", ("discard", None), ("deck", None), 5),
                                          ("phase", "race")]) == ["phase race runs",
                                                                  "discard reshuffled into deck: 5 cards"]


def test_tiles_laid_and_cells_changed():
    before = {"seat": 0, "grid": [{"x": 0, "y": 0, "tile": "curve", "rotation": 2, "closed": False}],
              "board": {"columns": 3, "rows": 1, "vars": {"disc": [None, "seat 1", None]}}}
    after = {"seat": 0, "grid": [{"x": 0, "y": 0, "tile": "curve", "rotation": 2, "closed": True},
                                 {"x": 1, "y": 0, "tile": "straight", "rotation": 1, "closed": False}],
             "board": {"columns": 3, "rows": 1, "vars": {"disc": ["seat 0", "seat 0", None]}}}
    assert changes(before, after, {"straight": "a straight"}) == [
        "a straight laid at 1,0, turned 1", "closed at 0,0: no → yes", "disc: 0,0: — → seat 0, 1,0: seat 1 → seat 0"]
    assert changes(before, after, {"closed": None, "disc": None}) == ["straight laid at 1,0, turned 1"]


def test_play_tells_the_tiles_laid_and_the_discs_turned(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\nq\n"))
    main(["play", str(ROOT / "games" / "reversi.rules"), "--seed", "2"])
    out = capsys.readouterr().out
    assert re.search(r"you: put (\d),(\d)\n  · disc: .*\1,\2: — → seat 0", out)
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    main(["play", str(ROOT / "games" / "luckydog.rules"), "--seed", "3", "--players", "4"])
    out = capsys.readouterr().out
    assert re.search(r"seat 1 \(bot\): start_tile (\w+) at (-?\d+),(-?\d+) rotation (\d)\n  · \1 laid at \2,\3", out)


def test_a_stop_is_told_only_when_the_tag_cut_the_move_short():
    g = meeple.load(str(ROOT / "games" / "hare.rules"))
    st = g.new_state(3, seed=1)
    tags = st.tags[0]
    stream = max(i for i, tag in enumerate(tags) if tag == "stream")  # (a tag for each space, by its number)
    assert stream >= 2 and tags[stream - 1] != "stream"
    sheep = g.layout.value_names.index("sheep")
    heard = []
    st.listen = heard.append
    st.pos[sheep] = stream - 2
    st.move_piece(sheep, 0, 2, "stream")  # lands on the stream: not stopped short
    assert st.pos[sheep] == stream and heard == []
    st.pos[sheep] = stream - 2
    st.move_piece(sheep, 0, 5, "stream")  # would pass it: stopped there
    assert st.pos[sheep] == stream and heard == [("stop", sheep, 0, "stream", stream)]


def test_the_events_api_says_what_is_wrong_with_an_argument():
    """``changes`` compares two observations, a ``Listener`` listens to a game of so many players,
    and the labelled moves take a game, its state and a text: anything else is a TypeError (or a
    ValueError) that says what was expected, never an AttributeError from inside."""
    import pytest

    from meeple.tools.events import Listener, labelled_cards, labelled_move, turns_played
    game = meeple.load(str(ROOT / "games" / "hare.rules"))
    st = game.new_state(3, seed=1)
    view = st.observation(0)
    for call, error in [
        (lambda: changes(None, view, game.labels), TypeError), (lambda: changes(view, [], game.labels), TypeError),
        (lambda: changes(view, view, 5), TypeError), (lambda: changes(view, view, game.labels, heard=5), TypeError),
        (lambda: Listener(None, 3), TypeError), (lambda: Listener(game, 99), ValueError),
        (lambda: labelled_move(game, None, "x"), TypeError), (lambda: labelled_move(game, st, 3), TypeError),
        (lambda: labelled_move(meeple.load(str(ROOT / "games" / "slipstream.rules")), st, "x"), ValueError),
        (lambda: labelled_cards(None, "x"), TypeError), (lambda: turns_played(None), TypeError),
    ]:
        with pytest.raises(error) as info:
            call()
        assert type(info.value) is error and str(info.value)
    assert changes(view, view, game.labels) == []


def test_cards_shown_to_the_seat_are_told():
    """A 'reveal' of cards in a zone the seat may not see is told as what it showed that seat (it
    was told nothing before: the seat learnt a rival's hand with no line saying so)."""
    before = {"seat": 0, "zones": {"hand": [{}, {"size": 3, "known": {"fox": 1}}], "vault": {"size": 1}}}
    after = {"seat": 0, "zones": {"hand": [{}, {"size": 3, "known": {"fox": 2, "hare": 1}}],
                                  "vault": {"size": 2, "known": {"owl": 1}}}}
    assert changes(before, after, {"owl": "an owl"}) == [
        "hand (seat 1): shown to you: fox, hare", "vault: +1 card (now 2); shown to you: an owl"]
    # knowledge that is lost (the cards shown left the zone) is not news
    assert changes(after, before) == ["vault: −1 card (now 1)"]


def test_play_tells_the_cards_a_bot_reveals(tmp_path, monkeypatch, capsys):
    rules = tmp_path / "show.rules"
    rules.write_text('game "Show"\nplayers 2\nzone deck hidden\nzone hand per player private\n'
                     'cards gem in deck { 4 ruby { worth = 2 }  4 opal { worth = 1 } }\n'
                     'setup {\n  for p in player {\n    deal 2 from deck to hand(p)\n  }\n}\n'
                     'turn {\n  choose act {\n    boast {\n      reveal hand(current)\n    }\n  }\n'
                     '  if current == seat(1) {\n    end game\n  }\n}\n'
                     'score(p) = sum(c.worth for c in hand(p))\n')
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    assert main(["play", str(rules), "--seat", "0", "--seed", "3", "--plain"]) == 0
    out = capsys.readouterr().out
    told = re.search(r"seat 1 \(bot\): boast\n  · hand \(seat 1\): shown to you: (.*)\n", out)
    assert told and re.fullmatch(r"(ruby|opal)( ×2)?(, (ruby|opal))?", told.group(1)), out


def test_a_piece_on_a_circuit_is_told_with_the_space_it_stands_on():
    """On a circuit a piece's number is its progress, counted from its own entry space: the line
    under a move said 't2_1: 0 → 1' for a pawn the board drew on space 4. It names the space too."""
    before = {"seat": 0, "pieces": {"a_0": 0, "a_1": 0, "b_1": 3}, "piece_spaces": {"a_0": 0, "a_1": 0, "b_1": 6}}
    after = {"seat": 0, "pieces": {"a_0": 2, "a_1": 1, "b_1": 0}, "piece_spaces": {"a_0": 2, "a_1": 4, "b_1": 0}}
    assert changes(before, after) == ["a_0: 0 → 2", "a_1: 0 → 1 (on space 4)", "b_1: back to the start"]


# ---- a long line of changes, wrapped between its entries ----
def test_a_long_change_line_wraps_between_entries_never_inside_one(monkeypatch, capsys):
    """Sow at 80 columns: seeds sown into seven pits make a line of 'held' longer than the screen;
    it goes on under its first entry, each 'x,y: a → b' whole on one line (rich alone broke it as
    '... 7,0: 0 →' and '1, 6,1: 0 → 1')."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 40))
    monkeypatch.setenv("COLUMNS", "80")
    main(["play", str(ROOT / "tests" / "fixtures" / "good" / "sow.rules"), "--plain", "--seed", "3"])
    lines = capsys.readouterr().out.splitlines()
    entry = r"\d+,\d+: (?:\d+|—) → (?:\d+|—)"
    told = [i for i, line in enumerate(lines) if line.startswith("  · held: ")]
    assert told and all(len(line) <= 80 for line in lines if line.startswith("  "))
    wrapped = 0
    for i in told:
        assert re.fullmatch(rf"  · held: {entry}(?:, {entry})*(?:,| and \d+ more)?", lines[i]), lines[i]
        while lines[i].endswith(","):  # the line goes on, under the first entry
            i += 1
            wrapped += 1
            assert re.fullmatch(rf" {{10}}{entry}(?:, {entry})*(?:,| and \d+ more)?", lines[i]), lines[i]
    assert wrapped


def test_change_lines_keep_their_text_and_wrap_by_entry():
    from meeple.tools.events import Change, wrapped
    line = Change("held: ", [f"{x},0: 4 → 5" for x in range(8)])
    assert line == "held: " + ", ".join(f"{x},0: 4 → 5" for x in range(8)) and wrapped(line, 200) == [line]
    assert wrapped(line, 40, "  · ") == ["  · held: 0,0: 4 → 5, 1,0: 4 → 5,", "          2,0: 4 → 5, 3,0: 4 → 5,",
                                         "          4,0: 4 → 5, 5,0: 4 → 5,", "          6,0: 4 → 5, 7,0: 4 → 5"]
    assert wrapped("fox: 3 → 7", 5, "  · ") == ["  · fox: 3 → 7"]  # (one entry: as it is)
    hand = Change("hand (seat 1): ", ["−1 card (now 2);", "shown to you: fox,", "hare"], "")
    assert hand == "hand (seat 1): −1 card (now 2); shown to you: fox, hare"
    assert wrapped(hand, 36) == ["hand (seat 1): −1 card (now 2);", "               shown to you: fox,",
                                 "               hare"]


def test_a_long_change_line_of_one_entry_is_still_wrapped_by_words(monkeypatch, capsys):
    """'blue: 3 → 4, stopped by the mud at 4' is one entry: on 30 columns it goes on to the next
    line between two words, as before, not past the screen's edge."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 40))
    monkeypatch.setenv("COLUMNS", "30")
    main(["play", str(ROOT / "tests" / "fixtures" / "good" / "dash.rules"), "--plain", "--seed", "3"])
    out = capsys.readouterr().out
    assert re.search(r"(?m)^  · \w+: \d+ → \d+, stopped by\s*\nthe mud at \d+", out), out
    told = [line for line in out.splitlines() if line.startswith("  · ")]
    assert told and all(len(line) <= 30 for line in told)
