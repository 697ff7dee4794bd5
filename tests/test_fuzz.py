"""``meeple fuzz``: Hypothesis plays games checking invariants after every step; a broken rule
is found, shrunk, and written as a record that replays."""

from __future__ import annotations

import sys
from pathlib import Path

import meeple
from meeple.tools.cli import main
from meeple.tools.fuzz import fuzz
from meeple.tools.records import replay_record

ROOT = Path(__file__).resolve().parents[1]
LUCKYDOG = ROOT / "games" / "luckydog.rules"
HARE = ROOT / "games" / "hare.rules"


def broken_copy(tmp_path: Path, path: Path, old: str, new: str) -> Path:
    text = path.read_text()
    assert text.count(old) == 1
    copy = tmp_path / path.name
    copy.write_text(text.replace(old, new))
    return copy


def test_the_bundled_game_keeps_its_invariants() -> None:
    report = fuzz(meeple.load(str(LUCKYDOG)), examples=8, seed=1)
    assert report.failure is None
    assert report.examples >= 8 and report.steps > 100
    assert {"start_tile", "marker", "road"} <= report.decisions


def test_a_broken_rule_is_found_and_its_record_replays(tmp_path: Path) -> None:
    path = broken_copy(tmp_path, LUCKYDOG, "define target(p) = max(1, ", "define target(p) = max(0, ")
    game = meeple.load(str(path), params={"goal": 1})
    report = fuzz(game, examples=200, seed=2, shrink_seconds=5)
    f = report.failure
    assert f is not None and f.invariant == "targets_at_least_one"
    assert f.at is not None and path.read_text().splitlines()[f.at[0] - 1].startswith("invariant targets_at_least_one")
    record = tmp_path / "failure.jsonl"
    from meeple.tools.records import write_record
    write_record(record, f.game, f.state, f.params, rules=str(path))
    replayed = replay_record(record)
    assert replayed.ok and replayed.broken is not None
    assert replayed.broken[0] == len(f.state.history()) and replayed.broken[1] == "targets_at_least_one"


NO_STEPS = """game "Count"
players 2
var n = 0
turn {
  set n = n + 1
}
end when n > 5
score(p) = n
invariant small: n < 3
"""


def test_an_invariant_broken_before_the_first_step_is_found(tmp_path: Path, capsys) -> None:
    """A game with no decision and no chance ends with no step at all: its invariants are still
    judged, at the start (fuzz, and a replay of its record)."""
    path = tmp_path / "count.rules"
    path.write_text(NO_STEPS)
    f = fuzz(meeple.load(str(path)), examples=5, seed=1, shrink_seconds=1).failure
    assert f is not None and f.invariant == "small" and "at the start" in f.message and f.at[0] == 9
    record = tmp_path / "count.jsonl"
    assert main(["fuzz", str(path), "--examples", "5", "--record", str(record)]) == 1
    capsys.readouterr()
    assert main(["replay", str(record)]) == 1
    assert "invariant 'small' breaks at the start" in capsys.readouterr().out


def test_params_chosen_within_their_ranges_must_make_a_valid_game(tmp_path: Path) -> None:
    """With stream_count's range wider than the shortest track, fuzzing the params finds a choice
    that makes no valid game (hare.rules had this range until a fuzzing run found it)."""
    path = broken_copy(tmp_path, HARE, "param stream_count = 2 in 0..4", "param stream_count = 2 in 0..60")
    report = fuzz(meeple.load(str(path)), examples=30, seed=1, vary_params=True, shrink_seconds=3,
                  load=lambda p: meeple.load(str(path), params=p))
    assert report.failure is not None and report.failure.invariant == "params make a valid game"
    assert report.failure.params["stream_count"] > report.failure.params["track_length"]


def test_the_command_exits_1_writes_the_record_and_replay_reruns_it(tmp_path: Path, capsys) -> None:
    path = broken_copy(tmp_path, LUCKYDOG, "define target(p) = max(1, ", "define target(p) = max(0, ")
    record = tmp_path / "found.jsonl"
    code = main(["fuzz", str(path), "--examples", "200", "--seed", "2", "-p", "goal=1", "--record", str(record),
                 "--shrink-time", "3"])
    out = capsys.readouterr().out
    assert code == 1
    assert "invariant 'targets_at_least_one' broke" in out and "the shortest game found" in out
    assert record.exists()
    assert main(["replay", str(record)]) == 1
    assert "but invariant 'targets_at_least_one' breaks at step" in capsys.readouterr().out


def test_the_command_exits_0_and_says_what_it_covered(capsys) -> None:
    assert main(["fuzz", str(LUCKYDOG), "--examples", "5", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "no invariant broke" in out and "decisions seen:" in out and "cards_kept" in out


def test_an_observation_that_shows_a_hidden_zone_is_found(monkeypatch) -> None:
    """The engine's own checks can fail too: an observation that shows every card breaks one."""
    game = meeple.load(str(HARE))
    real = type(game).zone_view
    monkeypatch.setattr(type(game), "zone_view", lambda self, st, seat: real(self, st, None))
    report = fuzz(game, examples=5, seed=1, shrink_seconds=2)
    assert report.failure is not None and report.failure.invariant == "hidden stays hidden"


def test_a_state_that_does_not_survive_json_is_found(monkeypatch) -> None:
    from meeple.interpreter.state import State
    real = State.to_json
    monkeypatch.setattr(State, "to_json", lambda self: {**real(self), "turns": self.turns + 1})
    report = fuzz(meeple.load(str(HARE)), examples=5, seed=1, shrink_seconds=2, view_every=1)
    assert report.failure is not None and report.failure.invariant == "JSON round trip"


def test_a_card_the_engine_loses_is_found(monkeypatch) -> None:
    """No statement of the language destroys a card, so only an engine bug can: one that loses a
    discarded card breaks the built-in 'cards kept'."""
    from meeple.interpreter.state import State
    game = meeple.load(str(HARE))
    discard = game.layout.zone_names.index("discard")
    real = State.apply

    def losing(self, action):
        real(self, action)
        pile = self.zones[self.zone_base[discard]]
        if any(pile):
            pile[next(i for i, n in enumerate(pile) if n)] -= 1

    monkeypatch.setattr(State, "apply", losing)
    report = fuzz(game, examples=20, seed=1, shrink_seconds=2)
    assert report.failure is not None and report.failure.invariant == "cards kept"
    assert "cards at the start" in report.failure.message


def test_fuzz_writes_nothing_into_the_current_folder(tmp_path, monkeypatch, capsys):
    """Hypothesis's files and the failing game go under the user's cache unless --record says where."""
    from hypothesis.configuration import set_hypothesis_home_dir
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    broken = Path(__file__).parent / "fixtures" / "broken" / "hare_wolf_goes_back.rules"
    try:
        assert main(["fuzz", str(broken), "--examples", "30", "--seed", "1", "--shrink-time", "2"]) == 1
    finally:
        set_hypothesis_home_dir(None)
    assert list(work.iterdir()) == []
    record = cache / "meeple" / "fuzz" / "hare_wolf_goes_back-failure.jsonl"
    assert f"written to {record}; re-run it with: meeple replay {record}" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)  # the record names its rules by their full path: it replays from anywhere
    assert main(["replay", str(record)]) == 1
    assert "breaks at step" in capsys.readouterr().out


def test_an_invariant_of_the_base_is_shown_in_the_base(tmp_path, capsys):
    """A variant's broken invariant that its base declares is shown at the base's line."""
    base = Path(__file__).parent / "fixtures" / "broken" / "hare_wolf_goes_back.rules"
    variant = tmp_path / "variant.rules"
    variant.write_text(f'extends "{base}"\nparam hand_size = 5\n', encoding="utf-8")
    assert main(["fuzz", str(variant), "--players", "5", "--seed", "7", "--examples", "40", "--shrink-time", "1",
                 "--record", str(tmp_path / "failure.jsonl")]) == 1
    out = capsys.readouterr().out
    line = next(i for i, text in enumerate(base.read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith("invariant animals_never_go_back"))
    assert f"{base}:{line}:1: note: invariant 'animals_never_go_back' is declared here" in out
    assert f"{line} | invariant animals_never_go_back" in out


def test_fuzz_shows_its_progress_as_games_of_the_total_and_steps(monkeypatch, capsys):
    """Issue 17: on a terminal a bar (games done of N, steps, time left); piped, a line now and then."""
    import io

    from meeple.tools import cli

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    update, finish = cli._progress(300, quiet=False, doing="fuzzing", steps=True)
    update(123, 300, 24304)
    finish()
    assert "fuzzing" in screen.getvalue() and "123/300" in screen.getvalue() and "24,304 steps" in screen.getvalue()
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    ticks = iter([0.0, 10.0])
    monkeypatch.setattr(cli.time, "perf_counter", lambda: next(ticks))
    update, finish = cli._progress(300, quiet=False, doing="fuzzing", steps=True)
    update(12, 300, 2000)
    assert sys.stderr.getvalue() == "fuzzing: 12/300 games, 2,000 steps\n"


def test_results_that_break_zero_sum_are_found_and_the_game_counted_in_words(tmp_path: Path, capsys) -> None:
    """Returns declared zero_sum that add up to 2 break the built-in invariant 'results'; the game
    found is one step, said as such ('1 step (1 move)')."""
    rules = tmp_path / "zs.rules"
    rules.write_text('game "ZS"\nplayers 2\nvar n = 0\nturn {\n  set n = n + 1\n  choose go {\n'
                     '    stop { end game }\n    more\n  }\n}\nscore(p) = n\nzero_sum returns(p) = n\n')
    record = tmp_path / "found.jsonl"
    assert main(["fuzz", str(rules), "--examples", "50", "--seed", "1", "--record", str(record)]) == 1
    out = capsys.readouterr().out
    assert "invariant 'results' broke" in out and "the shortest game found: 1 step (1 move), 2 players:" in out


def test_a_game_that_runs_past_the_time_limit_is_found_at_once(tmp_path: Path, capsys, monkeypatch) -> None:
    """A valid game whose turns loop a million times without a decision: the fuzzer reports the
    built-in invariant 'ends within the time limit' (1 s here) and stops, instead of running for days."""
    import meeple.tools.fuzz as fuzz_module
    from meeple.tools.limits import time_limit
    rules = tmp_path / "slow.rules"
    rules.write_text('game "Slow"\nplayers 2\nmax_steps 1000000\nvar x = 0\nturn {\n  for i in 1..1000 {\n'
                     '    for j in 1..1000 {\n      set x = x + 1\n    }\n  }\n  set x = 0\n}\nend when x < 0\n')
    monkeypatch.setattr(fuzz_module, "time_limit", lambda: time_limit(1))
    assert main(["fuzz", str(rules), "--examples", "5", "--seed", "1"]) == 1
    assert "invariant 'ends within the time limit' broke" in capsys.readouterr().out


def test_the_move_that_fails_is_counted_among_the_steps_of_the_game_found(tmp_path: Path, capsys) -> None:
    """A rules error in the option taken: the game found is that one move, counted as the step it
    is ('1 step (1 move)'), and shown as the move that fails."""
    rules = tmp_path / "err.rules"
    rules.write_text('game "Err"\nplayers 2\nvar n = 0\nturn {\n  choose go {\n    bad {\n'
                     '      roll n - 1 dice of 6 into n\n    }\n  }\n}\nscore(p) = n\n')
    assert main(["fuzz", str(rules), "--examples", "5", "--seed", "1"]) == 1
    out = capsys.readouterr().out
    assert "the shortest game found: 1 step (1 move), 2 players:" in out, out
    assert "seat 0: bad   <- this move fails" in out, out


def test_a_state_that_does_not_load_again_is_found(monkeypatch) -> None:
    """A state the engine made that ``state_from_json`` refuses is a broken round trip, reported
    as one (it was an internal error of the command)."""
    from meeple.interpreter.state import State
    real = State.to_json
    monkeypatch.setattr(State, "to_json", lambda self: {**real(self), "pos": [-1] * len(self.pos)})
    report = fuzz(meeple.load(str(HARE)), examples=5, seed=1, shrink_seconds=2, view_every=1)
    assert report.failure is not None and report.failure.invariant == "JSON round trip"
    assert "to_json and back fails" in report.failure.message and "'pos' does not fit" in report.failure.message
