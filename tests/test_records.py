"""Game records: written by simulate, replayed exactly, and tampering is caught."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

import meeple
from meeple import CHANCE, TERMINAL
from meeple.tools.bots import RandomBot, sample_chance
from meeple.tools.cli import main
from meeple.tools.records import RecordError, read_record, replay_record, state_hash, write_record
from meeple.tools.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
RULES = str(ROOT / "games" / "hare.rules")


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("records")
    simulate(RULES, games=6, players=4, seed=21, workers=2, records_dir=str(folder))
    return sorted(folder.glob("game-*.jsonl"))


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def save(path: Path, docs: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(d) for d in docs) + "\n")
    return path


def replay_cli(capsys, path: Path, *extra: str) -> tuple[int, str, str]:
    code = main(["replay", str(path), *extra])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_record_shape(records):
    docs = lines(records[0])
    head = docs[0]
    assert head["meeple_record"] == 2 and head["rules"] == RULES and head["players"] == 4
    assert len(head["rules_hash"]) == 64 and isinstance(head["params"], dict)
    assert all(set(d) == {"actor", "action"} for d in docs[1:-1])
    assert any(d["actor"] == "chance" for d in docs[1:-1]) and any(d["actor"] == 0 for d in docs[1:-1])
    result = docs[-1]["result"]
    assert set(result) == {"outcome", "winners", "scores", "turns", "final_state_hash"}
    assert result["outcome"] == "end"


def test_every_record_replays(records, capsys):
    assert len(records) == 6
    for path in records:
        report = replay_record(path)
        assert report.ok, report.problems
        assert report.steps == len(lines(path)) - 2
    code, out, _ = replay_cli(capsys, records[0])
    assert code == 0 and "ok" in out


def test_a_game_left_in_the_middle_replays_as_not_over(records, tmp_path, capsys):
    """A record of a game left before its end (a 'play' quit early) replays 'ok', saying the game
    is not over, as recorded; a whole game's says its result matches."""
    g = meeple.load(RULES)
    st = g.new_state(4, seed=3)
    moves = random.Random(3)
    for _ in range(20):
        st.apply(moves.choice(st.legal_actions()))
    path = tmp_path / "left.jsonl"
    write_record(path, g, st)
    report = replay_record(path)
    assert report.ok and not report.finished and report.steps == len(st.history())
    code, out, _ = replay_cli(capsys, path)
    assert code == 0 and out.strip() == f"{path}: ok ({report.steps} steps replayed, the game not over, as recorded)"
    code, out, _ = replay_cli(capsys, records[0])
    assert code == 0 and out.strip().endswith("steps replayed, result matches)") and replay_record(records[0]).finished


def test_verbose_replay_lists_steps(records, capsys):
    code, out, _ = replay_cli(capsys, records[1], "--verbose")
    assert code == 0
    steps = [line for line in out.splitlines() if re.match(r"^ +\d+  ", line)]
    assert len(steps) == len(lines(records[1])) - 2
    # under the steps, what they did (tools/events.py), everything shown; then why the game ended
    told = [line.split("· ", 1)[1] for line in out.splitlines() if "· " in line]
    assert "phase race runs" in told and any(t.startswith("hand (seat 0): +") for t in told)
    assert "game over: end" in out and "  why: end when finishers(course) >= podium_size" in out


def test_verbose_replay_as_one_seat_sees_it(records, capsys):
    code, out, _ = replay_cli(capsys, records[1], "--verbose", "--seat", "1")
    assert code == 0
    told = [line.split("· ", 1)[1] for line in out.splitlines() if "· " in line]
    assert any(t.startswith("hand (you): +") for t in told)
    assert not any(t.startswith("hand (seat 0): +") and "card" not in t for t in told)  # counts only
    assert any(re.match(r"hand \(seat 0\): \+\d+ cards? \(now \d+\)", t) for t in told)


def test_tampered_action_is_caught(records, tmp_path, capsys):
    docs = lines(records[0])
    i = next(k for k, d in enumerate(docs) if k and d.get("actor") not in (None, "chance"))
    docs[i]["action"] = docs[i]["action"] + " extra"
    code, out, _ = replay_cli(capsys, save(tmp_path / "t.jsonl", docs))
    assert code == 1
    assert "mismatch" in out and f"action {i}" in out


@pytest.mark.parametrize("action", ["play 1 one\x00\x1b[2J\u202e", "x" * 100_000])
def test_a_tampered_action_is_shown_escaped_and_cut_short(records, tmp_path, capsys, action):
    """The step a record's mismatch names showed the action as written: control characters went
    raw to the terminal (ESC [2J cleared it), and a 100,000-character action twice, in full."""
    docs = lines(records[0])
    i = next(k for k, d in enumerate(docs) if k and d.get("actor") not in (None, "chance"))
    docs[i]["action"] = action
    code, out, err = replay_cli(capsys, save(tmp_path / "t.jsonl", docs))
    assert code == 1 and "not legal here" in out + err
    assert not re.search(r"[\x00-\x08\x0b-\x1f\u202e]", out + err)
    assert max(len(line) for line in (out + err).splitlines()) < 2000


def test_tampered_actor_is_caught(records, tmp_path, capsys):
    docs = lines(records[0])
    i = next(k for k, d in enumerate(docs) if k and isinstance(d.get("actor"), int))
    docs[i]["actor"] = (docs[i]["actor"] + 1) % 4
    code, out, _ = replay_cli(capsys, save(tmp_path / "t.jsonl", docs))
    assert code == 1 and "acts" in out


def test_tampered_result_is_caught(records, tmp_path, capsys):
    for key, value in (("final_state_hash", "0" * 64), ("turns", -1), ("winners", [3, 2, 1]),
                       ("outcome", "step cap")):
        docs = lines(records[2])
        docs[-1]["result"][key] = value
        code, out, _ = replay_cli(capsys, save(tmp_path / "t.jsonl", docs))
        assert code == 1 and key in out
        assert f"the record says {json.dumps(value)}, the replay gives " in out  # (as JSON writes it)


def test_dropped_action_is_caught(records, tmp_path, capsys):
    docs = lines(records[3])
    del docs[-2]
    code, out, _ = replay_cli(capsys, save(tmp_path / "t.jsonl", docs))
    assert code == 1 and "mismatch" in out


@pytest.mark.parametrize("text,message", [
    ("", "empty"),
    ("not json\n", "not a game record"),
    ('{"hello": 1}\n', "header"),
    ('{"meeple_record": 99, "rules": "x", "players": 2}\n', "version"),
    ('{"meeple_record": 1, "rules": "x", "params": {}, "players": 2}\n{"actor": 0, "action": "a"}\n',
     "no result line"),
    ('{"meeple_record": 1, "rules": "x", "params": {}, "players": 2}\n{"actor": true, "action": "a"}\n', "actor"),
])
def test_unreadable_records(tmp_path, capsys, text, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    with pytest.raises(RecordError, match=message):
        read_record(path)
    code, _, err = replay_cli(capsys, path)
    assert code == 1 and message in err


def pointed(message: str) -> str:
    """What the caret under a record's line shown in ``message`` points at (the line from there on)."""
    lines = message.splitlines()
    caret = next(i for i, line in enumerate(lines) if line.rstrip().endswith("^"))
    return lines[caret - 1][lines[caret].index("^"):]


def _edit_header(docs, key, value=None):
    if value is None:
        del docs[0][key]
    else:
        docs[0][key] = value


@pytest.mark.parametrize("edit,line,message,at", [
    (lambda d: _edit_header(d, "params"), 1, "the header has no 'params'", "{"),
    (lambda d: _edit_header(d, "players", 4.0), 1, "'players': 4.0 is not a whole number", "4.0"),
    (lambda d: _edit_header(d, "meeple_record", 2.0), 1, "'meeple_record': 2.0 is not a whole number", "2.0"),
    (lambda d: d[0]["params"].update(track_length=10**18), 1,
     "'params.track_length': a number of 19 digits is too large", "1000000000000000000"),
    (lambda d: d[0]["params"].update(track_length="11"), 1, "'params.track_length' is \"11\"", '"11"'),
    (lambda d: d[0]["params"].update(track_length=True), 1, "'params.track_length' is true", "true"),
    (lambda d: _edit_header(d, "player", 4), 1, 'key "player" that no record has (did you mean \'players\'?)',
     '"player"'),
    (lambda d: d[1].update(note="mine"), 2, 'an action line has a key "note"', '"note"'),
    (lambda d: d[1].update(actor=0.0), 2, "'actor': 0.0 is not a whole number", "0.0"),
    (lambda d: d[-1].update(note="mine"), -1, 'the result line has a key "note"', '"note"'),
    (lambda d: d[-1]["result"].update(turns=7.0), -1, "'result.turns': 7.0 is not a whole number", "7.0"),
    (lambda d: d[-1]["result"].update(scores=[2, 1e3]), -1, "'result.scores[1]': 1000.0 is not", "1000.0"),
    (lambda d: d[-1]["result"].update(winners=[True]), -1, "the result's 'winners' must be a list of seat numbers",
     "[true]"),
    (lambda d: d[-1]["result"].update(turn=d[-1]["result"].pop("turns")), -1,
     'the result has a key "turn" that no record has (did you mean \'turns\'?)', '"turn"'),
])
def test_a_hand_edited_record_is_refused_where_it_was_edited(records, tmp_path, capsys, edit, line, message, at):
    """A record whose header lost its params, or with a number written 2.0, or with a key meeple
    never writes (a typo, a note), replayed "ok": 2.0 == 2 and true == 1 in Python, a missing params
    was the rules' defaults and an unknown key was passed over. Each is refused at its line and
    column, the line shown with a caret under the key or value; a number too long names its key."""
    docs = lines(records[0])
    edit(docs)
    path = save(tmp_path / "t.jsonl", docs)
    line = line if line > 0 else len(docs)
    with pytest.raises(RecordError, match=re.escape(message)):
        read_record(path)
    code, out, err = replay_cli(capsys, path)
    assert code == 1 and "ok" not in out and message in err
    assert re.search(rf"t\.jsonl:{line}:\d+: ", err), err
    assert pointed(err).startswith(at), err


def test_a_record_without_its_rules_hash_replays_with_a_warning(records, tmp_path, capsys):
    """The rules_hash is what tells that the rules changed since the record was made (a warning,
    as the game may still replay the same): without it, the replay says it could not tell."""
    docs = lines(records[0])
    del docs[0]["rules_hash"]
    code, out, err = replay_cli(capsys, save(tmp_path / "t.jsonl", docs))
    assert code == 0 and "ok" in out
    assert "warning: " in err and "t.jsonl:1: the record has no rules_hash" in err and "not checked" in err


def test_missing_record_and_missing_rules(tmp_path, capsys):
    code, _, err = replay_cli(capsys, tmp_path / "nope.jsonl")
    assert code == 2 and "no such file" in err  # a usage mistake
    path = tmp_path / "r.jsonl"
    path.write_text('{"meeple_record": 1, "rules": "gone.rules", "players": 2, "params": {}}\n{"result": {}}\n')
    code, out, _ = replay_cli(capsys, path)
    assert code == 1 and "not found" in out


def test_rules_found_beside_the_record_and_hash_warning(tmp_path, monkeypatch, capsys):
    shutil.copy(RULES, tmp_path / "game.rules")
    monkeypatch.chdir(tmp_path)
    simulate("game.rules", games=1, players=2, seed=3, workers=1, records_dir=".")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = replay_cli(capsys, tmp_path / "game-00001.jsonl")
    assert code == 0, out
    assert "warning" not in err
    with open(tmp_path / "game.rules", "a") as f:
        f.write("\n# an edit that changes nothing but the hash\n")
    code, out, err = replay_cli(capsys, tmp_path / "game-00001.jsonl")
    assert code == 0 and "changed" in err


def test_explicit_chance_game_round_trips(tmp_path):
    game = meeple.load(RULES)
    state = game.new_state(3, chance="explicit")
    rng = random.Random(5)
    bot = RandomBot(6)
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(bot.act(state))
    path = tmp_path / "g.jsonl"
    write_record(path, game, state)
    rec = read_record(path)
    assert rec.actions == state.history() and rec.players == 3
    assert rec.result["final_state_hash"] == state_hash(state)
    assert replay_record(rec).ok


def test_state_hash_ignores_history_but_not_position():
    game = meeple.load(RULES)
    a = game.new_state(2, seed=1)
    b = a.clone()
    assert state_hash(a) == state_hash(b)
    b.apply(b.legal_actions()[0])
    assert state_hash(a) != state_hash(b)


def test_stuck_and_step_capped_games_replay(tmp_path):
    from test_simulate import tiny
    paths = [tiny(tmp_path, "stuck", 100),
             tiny(tmp_path, "cycle", 100, refill="refill hand(current) to 2 from deck reshuffling table",
                  cap="max_steps 40")]
    for path in paths:
        out = tmp_path / Path(path).stem
        simulate(path, games=2, players=2, seed=4, workers=1, records_dir=str(out))
        for rec in sorted(out.iterdir()):
            result = read_record(rec).result
            assert result["outcome"] in (None, "step cap")
            report = replay_record(rec)
            assert report.ok, report.problems


def test_a_game_whose_returns_break_zero_sum_replays_with_the_results_invariant_broken(tmp_path, capsys):
    """Returns declared zero_sum that add up to something else: ``meeple fuzz`` reports the invariant
    'results' broken and writes the record; its replay names the same invariant and exits 1."""
    rules = tmp_path / "zs.rules"
    rules.write_text('game "ZS"\nplayers 2\nvar n = 0\nturn {\n  set n = n + 1\n  choose go {\n'
                     '    stop { end game }\n    more\n  }\n}\nscore(p) = n\nzero_sum returns(p) = n\n')
    game = meeple.load(str(rules))
    state = game.new_state(2, seed=1)
    state.apply("stop")
    write_record(tmp_path / "zs.jsonl", game, state)
    report = replay_record(tmp_path / "zs.jsonl")
    assert report.ok and report.broken is not None
    assert report.broken[1] == "results" and "add up to 2" in report.broken[2]
    assert main(["replay", str(tmp_path / "zs.jsonl")]) == 1
    assert "invariant 'results' breaks at step 1" in capsys.readouterr().out


def test_replay_as_one_seat_names_the_cards_dealt_to_it_and_hides_the_others(tmp_path, capsys):
    """A card dealt from a hidden deck to the seat's own hand is named (its hand shows it: no other
    card dealt there would look the same); one dealt to another seat's hidden hand is not. It was
    '(hidden from seat 0)' above '· hand (you): +two'."""
    from meeple.tools.cli import main
    records = tmp_path / "runs"
    assert main(["simulate", str(ROOT / "games" / "slipstream.rules"), "--games", "1", "--seed", "1",
                 "--records", str(records), "--json"]) == 0
    capsys.readouterr()
    assert main(["replay", str(records / "game-00001.jsonl"), "-v", "--seat", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for i, line in enumerate(lines[:-1]):
        if " chance " in line and lines[i + 1].strip().startswith("· deck"):
            mine = "hand (you)" in lines[i + 2]
            assert ("(hidden from seat 0)" in line) != mine, (line, lines[i + 2])
    assert any("hand (you)" in line for line in lines) and any("(hidden from seat 0)" in line for line in lines)


def test_the_records_api_says_what_is_wrong_with_an_argument(tmp_path):
    """A record is a Record or a path (a number would be read as a file descriptor); a record is
    written of a state of the game given, never a mix of two games."""
    with pytest.raises(TypeError, match="a Record or a path"):
        replay_record(None)
    with pytest.raises(TypeError, match="a Record or a path"):
        replay_record(5)
    with pytest.raises(TypeError, match="takes a path"):
        read_record(5)
    root = Path(__file__).resolve().parents[1]
    hare, slip = meeple.load(str(root / "games" / "hare.rules")), meeple.load(str(root / "games" / "slipstream.rules"))
    with pytest.raises(ValueError, match="the state is one of Slipstream"):
        write_record(tmp_path / "mixed.jsonl", hare, slip.new_state(2, seed=1))
    assert not (tmp_path / "mixed.jsonl").exists()


def test_replay_as_one_seat_hides_dice_rolled_into_vars_it_may_not_see(tmp_path, capsys):
    """A roll of several dice into a hidden var, or into another seat's private var: each die is a
    chance step, and the first ones change nothing the seat sees: each is hidden (they were
    named, one by one, for seat 0 to read)."""
    rules = tmp_path / "dice.rules"
    rules.write_text('game "T"\nplayers 2\nvar f per player private = 0\nvar s hidden = 0\nvar n = 0\nturn {\n'
                     '  roll 3 dice of 4 into s\n  roll 2 dice of 6 into f(seat(1))\n  set n = n + 1\n'
                     '  choose go {\n    stop { end game }\n    more\n  }\n}\nscore(p) = f(p)\n')
    game = meeple.load(str(rules))
    state = game.new_state(2, seed=2)
    state.apply("more")
    write_record(tmp_path / "d.jsonl", game, state)
    lines = []
    report = replay_record(tmp_path / "d.jsonl", verbose=lines.append, seat=0)
    assert report.ok, report.problems
    steps = [line for line in lines if line.split()[:1] and line.split()[0].isdigit() and "chance" in line]
    assert len(steps) >= 5 and all("(hidden from seat 0)" in line for line in steps), "\n".join(lines)


def test_a_card_named_by_another_seats_move_from_its_private_hand_is_hidden_in_play_and_replay(tmp_path, capsys):
    """'bury g in hand(current) { move g to deck }' and 'flash g in hand(current) { reveal g to
    current }': the card a bot's move names came from its private hand and lands nowhere seat 0
    sees: 'play' and 'replay -v --seat 0' hide the move alike (the replay named it when the bot's
    hand held one variety only, since the other moves it could make looked different)."""
    rules = tmp_path / "leak.rules"
    rules.write_text('game "Leak"\nplayers 2\nzone deck hidden\nzone hand per player private\n'
                     'cards gem in deck {\n  5 ruby { value = 2 }\n  5 jade { value = 1 }\n}\nvar turns = 0\n'
                     'setup {\n  for p in player {\n    deal 4 from deck to hand(p)\n  }\n}\nturn {\n  choose act {\n'
                     '    bury g in hand(current) {\n      move g to deck\n    }\n    flash g in hand(current) {\n'
                     '      reveal g to current\n    }\n  }\n  set turns = turns + 1\n  if turns >= 6 {\n'
                     '    end game\n  }\n}\nscore(p) = count(hand(p))\n')
    import io
    import sys
    record = tmp_path / "pl.jsonl"
    old = sys.stdin
    sys.stdin = io.StringIO("1\n" * 30)
    try:
        assert main(["play", str(rules), "--plain", "--seat", "0", "--seed", "1", "--record", str(record)]) == 0
    finally:
        sys.stdin = old
    played = capsys.readouterr().out
    bot_lines = [line for line in played.splitlines() if line.startswith("seat 1 (bot):")]
    assert bot_lines and all("(hidden from you)" in line for line in bot_lines), played
    assert main(["replay", "-v", "--seat", "0", str(record)]) == 0
    replayed = [line for line in capsys.readouterr().out.splitlines() if " seat 1 " in line and "·" not in line]
    assert replayed and all("act (hidden from seat 0)" in line for line in replayed), replayed


def test_replay_names_moves_and_cards_by_the_rules_labels_as_play_does(tmp_path, capsys):
    rules = tmp_path / "l.rules"
    rules.write_text('game "L"\nplayers 2\nzone deck hidden\nzone table public\nzone hand per player public\n'
                     'cards gem in deck {\n  5 ruby { value = 2 }\n}\nvar turns = 0\nsetup {\n  for p in player {\n'
                     '    deal 2 from deck to hand(p)\n  }\n}\nturn {\n  choose act {\n'
                     '    lay g in hand(current) {\n      move g to table\n    }\n  }\n  set turns = turns + 1\n'
                     '  if turns >= 2 {\n    end game\n  }\n}\nlabel ruby "red ruby"\nlabel act.lay "lay down"\n')
    game = meeple.load(str(rules))
    state = game.new_state(2, seed=1)
    state.play_out(random.Random(1))
    write_record(tmp_path / "l.jsonl", game, state)
    assert main(["replay", "-v", str(tmp_path / "l.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "deal red ruby" in out and "seat 0   lay down red ruby" in out, out


@pytest.mark.parametrize("args, error", [
    (lambda g, st, p: (p, g, None), TypeError), (lambda g, st, p: (p, None, st), TypeError),
    (lambda g, st, p: (p, g, "state"), TypeError), (lambda g, st, p: (None, g, st), TypeError),
    (lambda g, st, p: (p, g, st, {"track_length": "13"}), TypeError), (lambda g, st, p: (p, g, st, None, 5), TypeError),
    (lambda g, st, p: (p, g, st, None, None, 5), TypeError),
    (lambda g, st, p: (p, g, st, None, None, [("x",)]), TypeError),
    (lambda g, st, p: (p, meeple.load(str(ROOT / "games" / "hare.rules")), st), ValueError),
])
def test_write_record_says_what_is_wrong_with_an_argument(tmp_path, args, error):
    """A record of no game, of no state, or with params, rules or moves after it of another shape
    is a TypeError (or ValueError) that says what was expected, never an AttributeError."""
    from meeple.tools.records import record_lines, result_of
    g = meeple.load(str(ROOT / "games" / "hare.rules"))
    st = g.new_state(3, seed=1)
    given = args(g, st, tmp_path / "game.jsonl")
    with pytest.raises(error) as info:
        write_record(*given)
    assert type(info.value) is error and str(info.value)
    assert not (tmp_path / "game.jsonl").exists()
    if given[0] is not None:
        with pytest.raises(error):
            record_lines(*given[1:])
    for call in (state_hash, result_of):
        with pytest.raises(TypeError, match="a game's state"):
            call(None)
