"""meeple play as a session (issue 17, parts 1, 4 and 5): undo, a record of the game played, several
people at one terminal, moves named by the rules' labels, why the game ended and what decided it,
and the screen redrawn in place on a terminal (driven through tmux, as a person would)."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from meeple.tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
HARE = str(ROOT / "games" / "hare.rules")
LUCKYDOG = str(ROOT / "games" / "luckydog.rules")


def play(capsys, monkeypatch, answers: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    monkeypatch.setenv("COLUMNS", "200")  # (no line of the output wrapped)
    code = main(["play", *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in out + err
    return code, out + err


# ---- help ----
@pytest.mark.parametrize("rules, tiles", [(HARE, False), (LUCKYDOG, True)], ids=["no tiles", "tiles"])
def test_help_speaks_of_placing_tiles_only_in_a_game_that_places_them(capsys, monkeypatch, rules, tiles):
    code, out = play(capsys, monkeypatch, "?\nq\n", rules, "--players", "3", "--seed", "1", "--plain")
    assert code == 0 and "Answer with the number of a move" in out and "take back your last move" in out
    assert ("A placement may be written" in out) == tiles
    assert ("t   the tiles you may place" in out) == tiles


@pytest.mark.parametrize("setup, turn, said", [
    ("setup {\n  end game\n}\n", "turn {\n  set who = current\n}\n", "Outcome: end in the setup, before anyone moved"),
    ("", "turn {\n  end game\n}\n", "Outcome: end in turn 1, before anyone moved"),
    ("", "turn {\n  set who = current\n  if number(current) == 1 {\n    end game\n  }\n}\n",
     "Outcome: end in turn 2, before anyone moved"),
])
def test_a_game_without_decisions_ends_where_it_ends_and_a_player_var_shows_a_seat(capsys, monkeypatch, tmp_path,
                                                                                     setup, turn, said):
    rules = tmp_path / "g.rules"
    rules.write_text(f'game "G"\nplayers 2\nvar who = none\n{setup}{turn}')
    code, out = play(capsys, monkeypatch, "", str(rules), "--seed", "1", "--plain")
    assert code == 0 and said in out, out
    if "number(current) == 1" in turn:
        assert "who: seat 1" in out, out


def test_a_word_said_whole_picks_the_move_it_is_a_word_of_over_those_it_begins():
    """'n' at a decision 'move' among 'go N' and 'go NE' is 'go N' (the word said whole); 'g',
    the beginning of 'go' in three moves, is asked about."""
    from types import SimpleNamespace

    from meeple.tools.play import match_answer
    legal = [SimpleNamespace(text=t) for t in ("go N", "go NE", "go E", "stay")]
    assert match_answer("n", legal, "move")[0] is legal[0]
    assert match_answer("NE", legal, "move")[0] is legal[1]
    chosen, candidates = match_answer("g", legal, "move")
    assert chosen is None and candidates == legal[:3]


def test_the_parts_of_a_name_joined_by_underscores_are_words_of_the_move():
    """A generated deck names its cards 'card_hearts_3': 'hearts 3' is that card, '3' said whole picks
    it over 'card_hearts_13'; a move whose own words fit wins over one whose parts do."""
    from types import SimpleNamespace

    from meeple.tools.play import match_answer
    legal = [SimpleNamespace(text=t) for t in ("play card_hearts_3", "play card_hearts_13", "play card_clubs_3")]
    assert match_answer("hearts 3", legal, "lay")[0] is legal[0]
    assert match_answer("club", legal, "lay")[0] is legal[2]
    chosen, candidates = match_answer("hearts", legal, "lay")
    assert chosen is None and candidates == legal[:2]
    assert match_answer("spades 3", legal, "lay") == (None, [])
    both = [SimpleNamespace(text=t) for t in ("take red_fox", "take red")]
    assert match_answer("red", both, "buy")[0] is both[1]


def test_a_report_that_is_a_flag_is_written_as_simulate_writes_it(capsys, monkeypatch, tmp_path):
    rules = tmp_path / "f.rules"
    rules.write_text('game "F"\nplayers 2\nvar n = 0\nturn {\n  set n = n + 1\n  if n > 2 {\n    end game\n  }\n}\n'
                     'report "big" = n > 1\nreport "small" = n < 1\n')
    code, out = play(capsys, monkeypatch, "", str(rules), "--seed", "1", "--plain")
    assert code == 0 and "big: true" in out and "small: false" in out, out


@pytest.mark.parametrize("decision, labels, listed", [
    ("go", 'label go "decide"\nlabel go.put "drop a disc"\n', ["1. drop a disc 0,0", "2. drop a disc 1,0"]),
    ("go", 'label go "drop"\n', ["1. put 0,0", "2. put 1,0"]),  # (the decision's label is not its options')
    ("put", 'label put "drop"\n', ["1. put 0,0", "2. put 1,0"]),  # (nor when an option has the decision's name)
])
def test_an_options_label_names_its_moves_and_a_decisions_label_does_not(capsys, monkeypatch, tmp_path, decision,
                                                                         labels, listed):
    rules = tmp_path / "o.rules"
    rules.write_text('game "O"\nplayers 2\nboard b { columns 2 rows 1 }\nvar m per b = none\nturn {\n'
                     f'  choose {decision} {{\n    put c in b where m(c) == none {{\n      set m(c) = current\n'
                     '    }\n  }\n  if count(m(c) == none for c in b) == 0 {\n    end game\n  }\n}\n' + labels)
    code, out = play(capsys, monkeypatch, "2\nq\n", str(rules), "--seed", "1", "--plain")
    assert [line.strip() for line in out.splitlines() if line.strip()[:2] in ("1.", "2.")][:2] == listed, out
    assert f"you: {listed[1][3:]}" in out


@pytest.mark.parametrize("text", ["one", "one\\", "one\\\\", "one\\\\\\", "a[b]c\\", "[/dim]\\\\", "x\\[y]"])
def test_rules_text_escaped_for_markup_shows_as_written_wherever_it_stands(text):
    """Any number of backslashes at the end, and brackets, show as written: alone, inside a tag,
    before more text and before a tag (three at the end once made rich refuse the markup)."""
    from rich.markup import render

    from meeple.tools.markup import escape
    e = escape(text)
    assert {render(e).plain, render(f"[b]{e}[/b]").plain, render(f"{e} x").plain[:-2],
            render(f"{e}[dim] x[/dim]").plain[:-2]} == {text}


@pytest.mark.parametrize("ending", [1, 2, 3])
def test_a_label_ending_in_a_backslash_shows_as_written_in_every_place(capsys, monkeypatch, tmp_path, ending):
    """rich doubles a last backslash of escaped text (and refused three); the hand, the move list,
    the move and its changes show the label as the rules write it (a string keeps its backslashes)."""
    label = "one" + "\\" * ending
    rules = tmp_path / "b.rules"
    rules.write_text((ROOT / "games" / "slipstream.rules").read_text() + f'label one "{label}"\n')
    code, out = play(capsys, monkeypatch, "1\nq\n", str(rules), "--players", "2", "--seed", "1", "--plain")
    assert code == 0 and label + "\\" not in out, out
    for shown in (f"hand (you)     {label}, two", f"1. play 1 {label}\n", f"you: play 1 {label}\n",
                  f"discard: +{label}\n"):
        assert shown in out, (shown, out)


# ---- undo ----
def test_undo_takes_back_your_move_and_the_bots_since(capsys, monkeypatch):
    code, out = play(capsys, monkeypatch, "1\n1\nu\nu\nu\nq\n", HARE, "--players", "3", "--seed", "4")
    assert code == 0
    taken = re.findall(r"taken back: (.+)", out)
    # the second move first (with the two bots' moves after it), then the first; then nothing is left
    assert taken == ["play 1 hare and the 2 moves after it", "bet 1 hare and the 2 moves after it"]
    assert "Nothing of yours to take back yet." in out
    screens = out.split("your move (seat 0)")
    # after the last undo, the screen is the first one again: the same hand, the bet to make again
    assert screens[-1].split("move 1..")[0] == screens[1].split("move 1..")[0]


def test_after_an_undo_the_game_goes_on_from_there(capsys, monkeypatch, tmp_path):
    record = tmp_path / "game.jsonl"
    code, out = play(capsys, monkeypatch, "1\n1\nu\n2\n" + "1\n" * 300, HARE, "--players", "3", "--seed", "4",
                     "--record", str(record))
    assert code == 0 and "game over" in out
    lines = [json.loads(x) for x in record.read_text().splitlines()]
    mine = [x["action"] for x in lines[1:-1] if x["actor"] == 0]
    assert mine[:2] == ["bet 1 hare", "play 1 tortoise"]  # the move taken back is not in the record
    assert main(["replay", str(record)]) == 0


# ---- a record of the game played ----
def test_record_of_a_played_game_replays(capsys, monkeypatch, tmp_path):
    record = tmp_path / "played.jsonl"
    code, out = play(capsys, monkeypatch, "1\n" * 300, LUCKYDOG, "--players", "3", "--seed", "5",
                     "--record", str(record))
    assert code == 0 and f"written to {record}; replay it with: meeple replay {record}" in out
    assert main(["replay", str(record), "-v", "--seat", "0"]) == 0
    replayed = capsys.readouterr().out
    assert "game over: " in replayed and re.search(r"\n  why: .*\(.*luckydog.rules:\d+\)", replayed)


def test_who_moves_next_is_shown_once_the_rules_set_it(capsys, monkeypatch, tmp_path):
    """The built-in var 'next' (who moves after this turn) is no line of its own while it is
    none, as it is at every decision of most games; the step that sets it says so."""
    rules = tmp_path / "g.rules"
    rules.write_text('game "G"\nplayers 2\nvar n = 0\nturn {\n  choose go {\n    again { set next = current }\n'
                     '    pass { }\n  }\n  set n = n + 1\n  if n == 3 { end game }\n}\n'
                     'score(p) = 0\n')
    code, out = play(capsys, monkeypatch, "again\nagain\nagain\n", str(rules), "--seed", "1", "--plain")
    assert code == 0 and "next: — → seat 0" in out, out  # (the step that set it says so)
    assert not any(line.strip() == "next: —" for line in out.splitlines()), out


def test_record_of_a_game_left_unfinished(capsys, monkeypatch, tmp_path):
    record = tmp_path / "left.jsonl"
    code, out = play(capsys, monkeypatch, "1\nq\n", HARE, "--players", "2", "--seed", "1", "--record", str(record))
    assert code == 0 and "(the game was left unfinished)" in out
    assert main(["replay", str(record)]) == 0


@pytest.mark.parametrize("where,message", [("nowhere/x.jsonl", "does not exist"), (".", "is a folder")])
def test_a_record_that_cannot_be_written_is_refused_before_play(capsys, monkeypatch, tmp_path, where, message):
    code, out = play(capsys, monkeypatch, "1\n", HARE, "--record", str(tmp_path / where))
    assert code == 2 and message in out and "your move" not in out


# ---- several people at one terminal ----
def test_hot_seat_passes_the_screen_and_keeps_each_view(capsys, monkeypatch):
    answers = "\n".join(["1", "", "1", "", "1", "", "q"]) + "\n"  # (each pass of the screen: Enter)
    code, out = play(capsys, monkeypatch, answers, HARE, "--players", "3", "--seat", "0,2", "--seed", "4")
    assert code == 0
    assert "seats 0, 2 are played here, passing the screen" in out
    assert out.count("Pass the screen to seat 2, then press Enter (q quits)") >= 1
    assert out.count("Pass the screen to seat 0, then press Enter (q quits)") >= 1
    assert "seat 0, since you last looked:" in out or "seat 0: nothing you see has changed" in out
    # each person's screen shows their own hand, the other's as a count
    for screen in out.split("your move (seat 2)")[1:]:
        body = screen.split("move 1..")[0]
        assert re.search(r"hand \(you\)\s+\S", body) and re.search(r"hand \(seat 0\)\s+\d+ unseen", body)
    for screen in out.split("your move (seat 0)")[1:]:
        body = screen.split("move 1..")[0]
        assert re.search(r"hand \(seat 2\)\s+\d+ unseen", body)


def test_hot_seat_a_move_typed_where_the_screen_is_passed_is_the_next_answer(capsys, monkeypatch):
    """A piped script (or a quick player) that answers the pass-the-screen prompt with a move: it
    is that seat's move, not dropped (every later answer came one prompt late)."""
    with_blank = "\n".join(["1", "", "1", "", "1", "", "q"]) + "\n"
    typed = "\n".join(["1", "1", "1", "q"]) + "\n"
    moves = []
    for answers in (with_blank, typed):
        code, out = play(capsys, monkeypatch, answers, HARE, "--players", "3", "--seat", "0,2", "--seed", "4")
        assert code == 0 and "Not a legal move" not in out
        moves.append(re.findall(r"(?m)^(?:you|seat \d)[^\n]*: play [^\n]*", out))
    assert moves[0] and moves[0] == moves[1], moves


def test_hot_seat_seats_are_checked(capsys, monkeypatch):
    code, out = play(capsys, monkeypatch, "", HARE, "--players", "3", "--seat", "0,3")
    assert code == 2 and "--seat 3: with 3 players the seats are 0..2" in out
    code, out = play(capsys, monkeypatch, "", HARE, "--seat", "0,x")
    assert code == 2 and "expected a whole number" in out


# ---- names a person reads, and the end ----
def test_moves_are_shown_with_the_rules_labels_and_typed_either_way(capsys, monkeypatch):
    code, out = play(capsys, monkeypatch, "1\n" * 300, HARE, "--players", "3", "--seed", "4")
    assert "howling wolf" in out and "howl_wolf" not in out.split("game over")[0]
    assert "bet on the tortoise" in out
    code, out = play(capsys, monkeypatch, "1\n" * 300, LUCKYDOG, "--players", "3", "--seed", "4")
    assert "road: no card" in out and "road nothing" not in out


def test_the_end_says_why_and_what_decided_the_winner(capsys, monkeypatch):
    code, out = play(capsys, monkeypatch, "1\n" * 300, HARE, "--players", "3", "--seed", "4")
    end = out.split("game over")[1]
    assert re.search(r"Outcome: end in turn \d+", end)
    assert "Why: end when finishers(course) >= podium_size (" in end
    assert re.search(r"Won by: the highest score\(p\) = .*: seat \d: \d+, seat \d: \d+, seat \d: \d+\n", end)


def test_the_turn_a_game_ends_in_is_counted(capsys, monkeypatch, tmp_path):
    """'in turn N': the turn the game ended in, counted from 1 (the record keeps the turns passed on)."""
    record = tmp_path / "game.jsonl"
    code, out = play(capsys, monkeypatch, "1\n" * 300, HARE, "--players", "3", "--seed", "4", "--record", str(record))
    shown = int(re.search(r"Outcome: end in turn (\d+)", out).group(1))
    passed = json.loads(record.read_text().splitlines()[-1])["result"]["turns"]
    assert shown == passed + 1
    assert "Turn 1 · you are seat 0" in out  # (the first turn is turn 1)


# ---- the screen, in a real terminal ----
class Terminal:
    """A 120 × 50 terminal (tmux) running one command; everything it printed kept in a file."""

    def __init__(self, tmp_path: Path, *args: str, width: int = 120, height: int = 50):
        self.socket, self.log = f"meeple-test-{uuid.uuid4().hex[:8]}", tmp_path / "terminal.log"
        command = " ".join([sys.executable, "-m", "meeple", *args]) + "; echo EXITED $?; sleep 60"
        env = {**os.environ, "TERM": "xterm-256color"}
        for name in ("CI", "COLUMNS", "LINES"):  # (the terminal's own size, as a person's would be)
            env.pop(name, None)
        self.tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), command, env=env)
        self.tmux("pipe-pane", "-t", "t", "-o", f"cat >> {self.log}")

    def tmux(self, *args: str, env=None) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True,
                              env=env, timeout=30).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-t", "t", "-p")

    def wait_for(self, pattern: str, timeout: float = 30, settled: float = 0.3) -> str:
        """The screen once ``pattern`` is on it and it has not changed for ``settled`` seconds (a
        screen being redrawn may show the last prompt still, or half the new one)."""
        end = time.monotonic() + timeout
        last, since = None, time.monotonic()
        while time.monotonic() < end:
            shown = self.screen()
            if shown != last:
                last, since = shown, time.monotonic()
            elif re.search(pattern, shown) and time.monotonic() - since >= settled:
                return shown
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} not on the screen:\n{self.screen()}")

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", text)
        self.tmux("send-keys", "-t", "t", "Enter")

    def printed(self) -> str:
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r", "", self.log.read_text(errors="replace"))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)

    def play_on(self, answer, until: str = r"EXITED \d+", steps: int = 400) -> str:
        """Answer each prompt with ``answer(screen)`` until ``until`` is on the screen."""
        for _ in range(steps):
            shown = self.wait_for(r"(\(\? help, u undo, q quit\)>\s*$|" + until + ")")
            if re.search(until, shown):
                return shown
            self.type(answer(shown))
        raise AssertionError(f"no end after {steps} answers:\n{self.screen()}")


PROMPT = r"\(\? help, u undo, q quit\)>\s*$"
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@pytest.fixture
def terminal(tmp_path):
    made: list[Terminal] = []

    def start(*args: str, size: tuple[int, int] = (120, 50)) -> Terminal:
        made.append(Terminal(tmp_path, *args, width=size[0], height=size[1]))
        return made[-1]
    yield start
    for t in made:
        t.close()


def fits(screen: str, title: str) -> None:
    """The whole screen of a decision is in sight: its title at the top, the prompt at the bottom."""
    lines = screen.rstrip("\n").splitlines()
    assert any(line.startswith(title) or f"   {title}" in line for line in lines[:2]), screen
    assert lines[-1].startswith("move 1.."), screen


@needs_tmux
def test_a_hare_game_in_a_terminal(terminal, tmp_path):
    """Redrawn in place within 120 × 50; the log tells a race phase's moves, a reshuffle and the end."""
    t = terminal("play", HARE, "--players", "3", "--seed", "4", "--record", str(tmp_path / "hare.jsonl"))
    first = t.wait_for(PROMPT)
    fits(first, "The Hare and the Tortoise — seat 0")
    # the shortcut: the beginning of the last word of a move of its own (bet 1 tortoise: 'tor')
    moves = re.findall(r"^\s+(\d+)\. (.+)$", first, re.MULTILINE)
    last = [m.split()[-1] for _, m in moves]
    word = next(w for w in last if last.count(w) == 1 and not any(o != w and o.startswith(w[:3]) for o in last))
    t.type(word[:3])
    second = t.wait_for(r"decision: play")
    assert f"you: bet 1 {word}\n" in t.printed()
    fits(second, "The Hare and the Tortoise — seat 0")
    t.type("u")
    t.wait_for(r"decision: bet")
    assert "taken back: bet 1" in t.printed()
    t.tmux("resize-window", "-t", "t", "-x", "100", "-y", "50")  # the screen follows the terminal's size
    t.type("1")
    narrower = t.wait_for(r"decision: play")
    assert max(len(line) for line in narrower.splitlines()) <= 100
    assert re.search(r"^─+ recent ─+$", narrower, re.MULTILINE) and all(
        len(line) == 100 for line in narrower.splitlines() if line.startswith("───"))
    end = t.play_on(lambda screen: "1")
    assert "EXITED 0" in end
    log = t.printed()
    assert "· phase race runs" in log and re.search(r"· \w+: \d+ → \d+", log)
    assert re.search(r"· discard reshuffled into deck: \d+ cards", log)
    assert "Why: end when finishers(course) >= podium_size" in log
    assert "replay it with: meeple replay" in log
    assert main(["replay", str(tmp_path / "hare.jsonl")]) == 0


@needs_tmux
def test_a_lucky_dog_game_in_a_terminal(terminal):
    """A full table: the board, the view and the log side by side, within 120 × 50; routes and
    targets in sight; the game ends with its reason."""
    t = terminal("play", LUCKYDOG, "--players", "4", "--seed", "3")
    first = t.wait_for(PROMPT)
    fits(first, "Lucky Dog — seat 0")
    assert re.search(r"route: seat 0: \d+, seat 1: \d+, seat 2: \d+, seat 3: \d+", first)
    assert re.search(r"target: seat 0: \d+, seat 1: \d+, seat 2: \d+, seat 3: \d+", first)
    assert "recent" in first
    biggest = [first]

    def answer(screen: str) -> str:
        fits(screen, "Lucky Dog — seat 0")
        biggest[0] = max(biggest[0], screen, key=lambda s: int((re.search(r"table: (\d+) tiles", s) or [0, 0])[1]))
        return "1"
    end = t.play_on(answer)
    assert "EXITED 0" in end
    assert re.search(r"table: (\d+) tiles", biggest[0])
    log = t.printed()
    assert re.search(r"Why: if .* → end game( with no winner)? \(.*luckydog.rules:\d+\)", log)
    assert "Won by:" in log or "No winner." in log


@needs_tmux
def test_hot_seat_in_a_terminal(terminal):
    """Two people at one terminal: the screen is cleared before it is passed."""
    t = terminal("play", HARE, "--players", "3", "--seat", "0,1", "--seed", "4")
    first = t.wait_for(PROMPT)
    hand = re.search(r"hand\s+(you: .*?) ·", first).group(1)  # seat 0's own hand, as seat 0 sees it
    t.type("1")
    passing = t.wait_for(r"Pass the screen to seat 1, then press Enter \(q quits\)>\s*$")
    assert "hand" not in passing  # nothing of seat 0's is left in sight
    t.type("")
    screen = t.wait_for(PROMPT)
    assert "seat 1" in screen.splitlines()[0] and re.search(r"hand\s+seat 0: \d+ unseen · you: ", screen)
    history = t.tmux("capture-pane", "-t", "t", "-p", "-S", "-")  # the scrollback too: seat 0's hand is gone
    assert hand not in history and "hand (you)" not in history
    t.type("q")
    t.wait_for(r"EXITED 0")


# ---- what a review found (each once a bug) ----
def test_a_record_never_overwrites_the_rules_or_takes_an_empty_name(capsys, monkeypatch, tmp_path):
    rules = tmp_path / "v.rules"
    rules.write_text(Path(HARE).read_text())
    code, out = play(capsys, monkeypatch, "q\n", str(rules), "--record", str(rules))
    assert code == 2 and "is the rules file" in out and rules.read_text() == Path(HARE).read_text()
    code, out = play(capsys, monkeypatch, "q\n", HARE, "--record", "")
    assert code == 2 and "an empty file name" in out


def test_a_record_path_is_text_not_markup_and_a_failed_write_fails(capsys, monkeypatch, tmp_path):
    (tmp_path / "[").mkdir()
    monkeypatch.chdir(tmp_path)
    code, out = play(capsys, monkeypatch, "q\n", HARE, "--seed", "1", "--record", "[/b]x.jsonl")
    assert code == 0 and "written to [/b]x.jsonl" in out and (tmp_path / "[" / "b]x.jsonl").exists()
    if Path("/dev/full").exists():
        code, out = play(capsys, monkeypatch, "q\n", HARE, "--seed", "1", "--record", "/dev/full")
        assert code == 1 and "cannot write /dev/full" in out


def test_t_and_m_are_commands_in_every_game(capsys, monkeypatch):
    code, out = play(capsys, monkeypatch, "t\nm\nq\n", HARE, "--seed", "1")
    assert code == 0 and "No tiles to place in this decision." in out and "you: " not in out


def test_after_a_take_back_chance_is_drawn_anew():
    """What came after the move taken back (a card drawn, a die) is not known in advance."""
    import meeple
    from rich.console import Console

    from meeple.tools.bots import derive_seed
    from meeple.tools.play import Session
    game = meeple.load(str(ROOT / "games" / "leduc.rules"))
    answers = iter(["2", "u", "q"])
    session = Session(game, 2, [0], 2, Console(file=io.StringIO()), lambda prompt: next(answers), False, False)
    assert session.run() == 0 and session.undone == 1
    fresh = game.new_state(2, seed=derive_seed(2, 0, "chance"))
    assert session.state.history() == fresh.history()  # the same point of the same game ...
    assert session.state.rng.getstate() != fresh.rng.getstate()  # ... with chance to come drawn anew


def test_hot_seat_takes_back_no_other_persons_move(capsys, monkeypatch):
    answers = "\n".join(["", "1", "", "1", "", "1", "", "u", "q"]) + "\n"  # (seat 1 starts; Enter: pass)
    code, out = play(capsys, monkeypatch, answers, HARE, "--players", "2", "--seat", "0,1", "--seed", "1")
    assert code == 0 and "seat 1 has moved since your last move" in out and "taken back:" not in out
    assert "nothing is hidden between the seats played here" in out  # (piped)


def test_q_at_the_pass_prompt_quits(capsys, monkeypatch):
    code, out = play(capsys, monkeypatch, "1\nq\n", HARE, "--players", "2", "--seat", "0,1", "--seed", "1")
    assert code == 0 and out.rstrip().endswith("Quit.")


def test_replay_as_one_seat_hides_what_it_may_not_see(capsys, monkeypatch, tmp_path):
    record = tmp_path / "l.jsonl"
    play(capsys, monkeypatch, "1\n" * 20, str(ROOT / "games" / "leduc.rules"), "--seed", "2", "--record", str(record))
    assert main(["replay", str(record), "-v", "--seat", "0"]) == 0
    told = capsys.readouterr().out
    theirs = json.loads(record.read_text().splitlines()[2])["action"]  # the second card dealt: seat 1's
    assert theirs.startswith("deal ") and "(hidden from seat 0)" in told
    steps = [line for line in told.splitlines() if re.match(r"^ +\d+  ", line)]
    assert not any(line.endswith(theirs) for line in steps[1:2])
    assert main(["replay", str(record), "-v", "--seat", "2"]) == 2
    assert main(["replay", str(record), "--seat", "0"]) == 2
    assert "seats 0..1" in capsys.readouterr().err


def test_why_names_the_test_that_led_to_the_end(tmp_path, capsys, monkeypatch):
    rules = tmp_path / "ends.rules"
    body = """game "Ends"
players 2
var n = 0
turn {
  choose go by current {
    up {
      set n = n + 1
    }
  }
  if n >= 1 {
    [inner] if n < 3 {
      set n = n + 1
    } WHAT {
      end game
    }
  }
}
"""
    for what, why in (("else", "Why: end game ("), ("else if n >= 3", "Why: if n >= 3 → end game (")):
        rules.write_text(body.replace("WHAT", what))
        code, out = play(capsys, monkeypatch, "1\n" * 10, str(rules), "--seed", "1")
        assert code == 0 and why in out, out
    rules.write_text('game "Setup"\nplayers 2\nsetup {\n  end game\n}\nturn {\n  choose go { a }\n}\n')
    code, out = play(capsys, monkeypatch, "", str(rules), "--seed", "1")
    assert "Outcome: end in the setup, before anyone moved" in out and "Why: end game (" in out


@needs_tmux
def test_a_small_terminal_keeps_the_game_and_the_moves_in_sight(terminal):
    """80 × 24: the log gives way first, then the zones' header; the track, the hands and every
    move stay on the screen with the prompt."""
    t = terminal("play", HARE, "--players", "4", "--seed", "4", size=(80, 24))
    t.wait_for(PROMPT)
    t.type("1")
    screen = t.wait_for(r"decision: play|" + PROMPT)
    screen = t.wait_for(PROMPT)
    lines = screen.rstrip("\n").splitlines()
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    assert any(line.startswith("course: ") for line in lines) and any(line.startswith("hand ") for line in lines)
    moves = [line for line in lines if re.match(r"^\s+\d+\. ", line)]
    assert moves and lines[-1].startswith("move 1..") and f"move 1..{len(moves)} " in lines[-1]


def test_a_piped_answer_is_echoed_with_its_control_characters_escaped(capsys, monkeypatch):
    code, out = play(capsys, monkeypatch, "\x1b[31mred\x07\nq\n", str(ROOT / "games" / "leduc.rules"), "--seed", "1",
                     "--plain")
    assert "\x1b" not in out and "\x07" not in out and "> \\x1b[31mred\\x07" in out, out


def test_a_show_of_a_private_or_hidden_var_is_unknown_to_the_other_seats(capsys, monkeypatch, tmp_path):
    """'show' is what the rules want a person to see, but a show reading another seat's private
    var, or a hidden var, is '?' to the seat playing, as the var is, until the game is over."""
    rules = tmp_path / "s.rules"
    rules.write_text('game "S"\nplayers 2\nvar secret per player private = 0\nvar hid hidden = 0\nvar t = 0\n'
                     'show "their secret" (p) = secret(p)\nshow "hid" = hid\nshow "turns" = t\n'
                     'setup {\n  set hid = 7\n  for p in player { set secret(p) = 40 + number(p) }\n}\n'
                     'turn {\n  choose go { wait { set t = t + 1 } nap { set t = t + 1 } }\n'
                     '  if t >= 2 { end game }\n}\n'
                     'score(p) = 0\n')
    code, out = play(capsys, monkeypatch, "1\n1\n", str(rules), "--seat", "0", "--plain", "--seed", "1")
    during, after = out.split("game over")
    assert "their secret: seat 0: 40, seat 1: ?" in during and "hid: ?" in during and "turns: 0" in during
    assert "41" not in during and "hid: 7" not in during
    assert "their secret: seat 0: 40, seat 1: 41" in after and "hid: 7" in after


def test_a_per_player_show_of_another_seats_private_things_is_unknown_even_in_ones_own_row(capsys, monkeypatch,
                                                                                         tmp_path):
    """A seat sees its own value of a per-player show only where that value reads its own private
    things (``face(p)``, ``hand(p)``, a define given ``p``); one reading the next player's
    (``face(next(p))``) is '?' in every row, the seat's own too, until the game is over."""
    rules = tmp_path / "leak.rules"
    rules.write_text('game "Leak"\nplayers 2\nzone deck hidden\nzone hand per player private\n'
                     'cards c in deck {\n  for v in 1..5 {\n    2 num { val = v }\n  }\n}\n'
                     'var face per player private = 0\ndefine total(q) = sum(x.val for x in hand(q))\n'
                     'setup {\n  for p in player {\n    deal 2 from deck to hand(p)\n    set face(p) = 30 + number(p)\n'
                     '  }\n}\nturn {\n  choose go {\n    wait { }\n    stay\n  }\n  end game\n}\n'
                     'show "rival hand" (p) = sum(x.val for x in hand(next(p)))\n'
                     'show "rival face" (p) = face(next(p))\n'
                     'show "my face" (p) = face(p)\nshow "rival total" (p) = total(next(p))\n'
                     'show "my total" (p) = total(p)\nshow "shadow" (p) = max(face(p) for p in player)\n'
                     'define h(q) = max(face(q) for q in player)\nshow "define shadow" (p) = h(p)\n')
    code, out = play(capsys, monkeypatch, "q\n", str(rules), "--seat", "0", "--plain", "--seed", "2")
    for label in ("rival hand", "rival face", "rival total", "shadow", "define shadow"):  # (a loop rebinds p)
        assert f"{label}: seat 0: ?, seat 1: ?" in out, out
    assert "my face: seat 0: 30, seat 1: ?" in out and "31" not in out, out
    assert re.search(r"my total: seat 0: \d+, seat 1: \?", out), out


def test_a_game_stopped_by_the_cap_on_turns_says_the_turn_it_stopped_in(capsys, monkeypatch, tmp_path):
    """'max_steps 10' of a game with no decision: ten turns played, and the outcome, the reason
    and the last view all say turn 10."""
    rules = tmp_path / "cap.rules"
    rules.write_text('game "Cap"\nplayers 2\nmax_steps 10\nvar x = 0\nturn {\n  set x = x + 1\n}\nscore(p) = x\n')
    code, out = play(capsys, monkeypatch, "", str(rules), "--seed", "1", "--plain")
    assert "step cap in turn 10" in out and "Why: the step cap: 10 turns" in out and "Turn 10 ·" in out, out
    assert "x: 10" in out, out


def test_a_decision_of_the_setup_is_shown_as_the_setup_not_turn_1(capsys, monkeypatch):
    """Hare's bets are chosen in its setup: play named that view "Turn 1", as it names the first
    turn after it."""
    code, out = play(capsys, monkeypatch, "1\n1\nq\n", HARE, "--players", "2", "--seed", "1", "--plain")
    assert code == 0
    heads = re.findall(r"(?m)^(Setup|Turn \d+) · you are seat 0 of 2 · decision: (\w+)", out)
    assert heads[0] == ("Setup", "bet") and all(h[0] != "Setup" for h in heads[1:]) and len(heads) > 1, heads


def test_hot_seat_a_move_typed_for_a_seat_whose_move_is_forced_answers_no_one(capsys, monkeypatch, tmp_path):
    """A move typed at the pass-the-screen prompt of a seat whose only move is taken for it is
    not kept for the next seat asked (it answered seat 0's next prompt)."""
    rules = tmp_path / "forced.rules"
    rules.write_text('game "Forced"\nplayers 2..3\nvar n = 0\nvar a = 0\nvar b = 0\nturn {\n  set n = n + 1\n'
                     '  if current == seat(0) {\n    choose pick {\n      left { set a = a + 1 }\n'
                     '      right { set b = b + 1 }\n    }\n  } else {\n    choose go { on { } }\n  }\n}\n'
                     'end when n >= 6\nscore(p) = a\n', encoding="utf-8")
    code, out = play(capsys, monkeypatch, "1\n2\n\nq\n", str(rules), "--players", "2", "--seat", "0,1",
                     "--seed", "1", "--plain")
    assert code == 0
    assert "you: right" not in out and out.count("move 1..2 (? help") == 2, out


def test_the_help_fits_a_screen_of_80_columns():
    """The help was written with lines of 80 and 83 characters: an 80-column screen (and piped
    output) wrapped them again, leaving 'of a' alone on a line."""
    from meeple.tools.play import help_text

    for tiles in (False, True):
        assert max(len(line) for line in help_text(tiles).splitlines()) < 80


def test_one_player_and_one_game_are_said_in_the_singular(tmp_path, monkeypatch, capsys):
    """A solitaire game was 'Solo — 1 players' in play and '1 games, 1 players' in simulate."""
    from meeple.tools.cli import main

    rules = tmp_path / "solo.rules"
    rules.write_text('game "Solo"\nplayers 1\nvar total = 0\nturn {\n  roll 1 dice of 6 into total\n  end game\n}\n'
                     'score(p) = total\n')
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", str(rules), "--seed", "1", "--plain"]) == 0
    assert capsys.readouterr().out.startswith("Solo — 1 player, you are seat 0 (seed 1).")
    assert main(["simulate", str(rules), "--games", "1", "--seed", "1"]) == 0
    assert "): 1 game, 1 player, seed 1" in " ".join(capsys.readouterr().out.split())  # (rich wraps a long path)


# ---- each chance event told on its own, after the move that ran into it ----
def test_each_chance_event_is_told_on_its_own_line_not_with_the_move_before(capsys, monkeypatch):
    """Dash: a push refills the pusher's hand, then the next turn's die is rolled. The move's lines
    say what the push did; a 'chance:' line each for the card drawn (hidden when it went to a bot's
    hand) and for the roll, with what each did (the roll was told as the bot's doing before)."""
    code, out = play(capsys, monkeypatch, "1\n" * 40, str(ROOT / "tests" / "fixtures" / "good" / "dash.rules"),
                     "--seed", "3", "--plain")
    blocks = re.findall(r"(?m)^(you|seat 1 \(bot\)|chance): (.*)\n((?:  · .*\n)*)", out)
    moves = [b for b in blocks if b[0] != "chance"]
    assert moves and not any("roll:" in told or "deck: −1" in told for _, _, told in moves), moves
    rolls = [(said, told) for who, said, told in blocks if who == "chance" and said.startswith("roll = ")]
    assert rolls and all(told == f"  · roll: {old} → {said[7:]}\n" for said, told in rolls
                         for old in re.findall(r"roll: (\d+) →", told)), rolls
    assert re.search(r"seat 1 \(bot\): push 1 \w+\n(?:  · .*\n)*chance: \(hidden from you\)\n"
                     r"  · deck: −1 card \(now \d+\)\n  · hand \(seat 1\): \+1 card", out)
    assert re.search(r"\nchance: draw (\w+)\n  · deck: −1 card \(now \d+\)\n  · hand \(you\): \+\1\n", out)


# ---- --watch: bots play every seat ----
DASH = str(ROOT / "tests" / "fixtures" / "good" / "dash.rules")


def test_watch_plays_a_game_of_bots_through_when_input_is_not_a_terminal(capsys, monkeypatch, tmp_path):
    """Piped (here: no input at all), --watch waits for nothing: every seat a bot, everything
    shown (no move or chance hidden, no 'you'), the game to its end, its record replays."""
    record = tmp_path / "watched.jsonl"
    code, out = play(capsys, monkeypatch, "", DASH, "--watch", "--seed", "3", "--players", "3", "--record", str(record))
    assert code == 0 and "all bots, watched (everything shown; straight through; seed 3)" in " ".join(out.split())
    assert "game over" in out and "Winner" in out and "hidden" not in out and "you" not in out.replace("your", "")
    assert "move 1.." not in out and re.search(r"(?m)^seat 2 \(bot\): push 1 \w+$", out)
    assert re.search(r"(?m)^chance: draw \w+\n  · deck: −\w+\n  · hand \(seat \d\): \+\w+$", out)
    assert main(["replay", str(record)]) == 0


def test_watch_as_one_seat_sees_what_that_seat_sees(capsys, monkeypatch):
    code, out = play(capsys, monkeypatch, "", HARE, "--watch", "--seat", "1", "--seed", "4", "--players", "3",
                     "--plain")
    assert code == 0 and "Setup · as seat 1 sees it, of 3 · decision: bet" in out
    assert "seat 0 (bot): bet (hidden from seat 1)" in out and re.search(r"seat 1 \(bot\): bet 1 \w+\n", out)
    assert "hand (seat 0)  7 unseen" in out and "chance: (hidden from seat 1)" in out
    assert " you" not in out and "(you)" not in out


def test_watch_steps_a_move_at_each_enter_and_q_quits(monkeypatch):
    import io as _io

    from rich.console import Console

    from meeple.interpreter import load
    from meeple.tools.play import Watch
    from meeple.tools.play import play as play_game
    game = load(DASH)
    for answers, code, moves in ((["", "", "q"], 0, 2), (["", ""], 1, 2), ([""] * 500, 0, None)):
        asked: list[str] = []
        feed = iter(answers)

        def read(prompt: str, feed=feed, asked=asked) -> str | None:
            asked.append(prompt)
            return next(feed, None)
        console = Console(file=_io.StringIO(), width=100)
        assert play_game(game, 2, 0, 3, console=console, read_line=read, screen=False,
                         watch=Watch(step=True)) == code
        out = console.file.getvalue()
        said = re.findall(r"(?m)^seat \d \(bot\): ", out)
        assert all(re.fullmatch(r"move \d+, seat \d: Enter plays it \(q quits\)> ", p) for p in asked)
        if moves is not None:
            assert len(said) == moves and ("Quit." in out if code == 0 else "End of input" in out)
        else:
            assert len(said) == len(asked) and "game over" in out


def test_watch_at_a_pace_waits_between_moves(monkeypatch):
    import io as _io

    from rich.console import Console

    from meeple.interpreter import load
    from meeple.tools.play import Watch
    from meeple.tools.play import play as play_game
    waits: list[float] = []
    monkeypatch.setattr("time.sleep", waits.append)
    console = Console(file=_io.StringIO(), width=100)
    assert play_game(load(DASH), 2, 0, 3, console=console, read_line=lambda p: None, screen=False,
                     watch=Watch(pace=0.25)) == 0
    moves = len(re.findall(r"(?m)^seat \d \(bot\): ", console.file.getvalue()))
    assert moves > 5 and waits == [0.25] * (moves - 1)


@pytest.mark.parametrize("args, said", [
    (["--pace", "1"], "--pace is the time between two moves of the bots you watch: it goes with --watch"),
    (["--watch", "--ask-forced"], "--ask-forced asks you for your moves, and with --watch you have none"),
    (["--watch", "--seat", "0,1"], "--seat 0,1: with --watch, --seat names the one seat whose view is shown"),
    (["--watch", "--seat", "3"], "--seat 3: with 2 players the seats are 0..1"),
    (["--watch", "--pace", "-1"], "argument --pace: must be at least 0 seconds, got -1"),
    (["--watch", "--pace", "61"], "argument --pace: must be at most 60 seconds, got 61"),
    (["--watch", "--pace", "fast"], "argument --pace: expected seconds, a number such as 1 or 0.5, got 'fast'"),
    (["--watch", "--pace", "1e9"], "argument --pace: expected seconds, a number such as 1 or 0.5, got '1e9'"),
])
def test_watch_options_used_wrongly_say_how(capsys, monkeypatch, args, said):
    code, out = play(capsys, monkeypatch, "", DASH, *args)
    assert code == 2 and said in out


@needs_tmux
def test_watching_in_a_terminal_redraws_the_screen_at_each_enter(terminal):
    t = terminal("play", DASH, "--watch", "--seed", "3", size=(100, 40))
    first = t.wait_for(r"move 1, seat \d: Enter plays it \(q quits\)>\s*$")
    assert first.startswith("Dash — watching, everything shown · seed 3 · Enter: next move · q quits")
    t.type("")
    second = t.wait_for(r"move 2, seat \d: Enter plays it \(q quits\)>\s*$")
    assert second.startswith("Dash — watching") and re.search(r"(?m)^─+ recent ─+$", second)
    assert re.search(r"(?m)^seat \d \(bot\): push 1 \w+$", second)
    t.type("q")
    assert "EXITED 0" in t.wait_for(r"EXITED \d+")


def test_watching_a_game_of_one_player_counts_one(capsys, monkeypatch, tmp_path):
    rules = tmp_path / "solo.rules"
    rules.write_text('game "Solo"\nplayers 1\nvar x = 0\nturn {\n  choose go {\n    a { set x = x + 1 }\n  }\n'
                     '  end game\n}\nscore(p) = x\n')
    code, out = play(capsys, monkeypatch, "", str(rules), "--watch", "--seed", "1")
    assert code == 0 and "Solo — 1 player, a bot, watched" in out and "Turn 1 · 1 player, everything shown" in out
    assert "1 players" not in out


DICE_ONLY = ('game "Dice only"\nplayers 2\nvar total per player = 0\nvar roll = 0\n'
             'setup {\n  set roll = random 1..3\n}\n'
             'turn {\n  set roll = random 1..3\n  set total(current) = total(current) + roll\n}\n'
             'end when any(total(p) >= 6 for p in player)\nscore(p) = total(p)\n')


@pytest.mark.parametrize("how", [("--watch",), ("--seat", "0")], ids=["watched", "seat 0"])
def test_turns_played_by_chance_before_the_first_decision_are_told_one_by_one(capsys, monkeypatch, tmp_path, how):
    """A game with no decision at all (a race of dice) is played by chance as the seeded game is
    made: play tells each roll of it, from the game as its setup left it, rather than opening on the
    game over ('the game at the start' was the last turn's state, and nothing of the course was told)."""
    rules = tmp_path / "dice.rules"
    rules.write_text(DICE_ONLY)
    code, out = play(capsys, monkeypatch, "", str(rules), *how, "--seed", "1", "--plain")
    assert code == 0, out
    turns = int(re.search(r"Outcome: end in turn (\d+)", out).group(1))
    assert turns > 1 and len(re.findall(r"(?m)^chance: roll = [123]$", out)) == turns, out
    told = out.split("game over")[0]
    assert re.search(r"(?m)^  · total: seat [01]: \d+ → \d+$", told), out
    if how == ("--watch",):
        start = told.split("the game at the start")[1]
        assert "Turn 1 · 2 players" in start and "total: seat 0: 0, seat 1: 0" in start, out
