"""``meeple simulate`` and ``interpreter.simulate``: the summary, determinism, all player counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeple.dsl import RulesError
from meeple.tools.cli import main
from meeple.tools.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
RULES = str(ROOT / "games" / "hare.rules")

KEYS = {"games", "completed", "draws", "turns", "wins_by_seat", "reports", "shared", "step_capped", "stuck",
        "seed", "players", "rules"}


def cli_json(capsys, *argv: str) -> dict:
    code = main(["simulate", *argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Traceback" not in err
    return json.loads(out)  # exactly one JSON object on stdout


def test_json_has_the_keys(capsys):
    s = cli_json(capsys, RULES, "--games", "12", "--players", "4", "--seed", "3", "--workers", "1")
    assert KEYS <= set(s)
    assert s["games"] == 12 and s["players"] == 4 and s["seed"] == 3 and s["rules"] == RULES
    assert set(s["turns"]) == {"mean", "median", "max", "p10", "p90"}
    assert len(s["wins_by_seat"]) == 4
    done = s["completed"]
    assert done == s["games"] - s["step_capped"] - s["stuck"] - s["errors"]
    # every completed game has a winner or is a draw; shared wins split one win
    assert sum(s["wins_by_seat"]) == pytest.approx(done - s["draws"])
    assert set(s["reports"]) == {"1st", "2nd", "3rd"}
    for tally in s["reports"].values():
        assert sum(tally.values()) == done


def test_same_seed_same_output_and_seed_matters(capsys):
    args = [RULES, "--games", "16", "--players", "3", "--workers", "1"]
    a = cli_json(capsys, *args, "--seed", "7")
    b = cli_json(capsys, *args, "--seed", "7")
    c = cli_json(capsys, *args, "--seed", "8")
    assert a == b
    assert a != c


def test_worker_count_does_not_change_the_result():
    runs = [simulate(RULES, games=30, players=4, seed=11, workers=w) for w in (1, 2, 3)]
    assert runs[0] == runs[1] == runs[2]


def test_worker_count_cli_output_identical(capsys):
    outs = []
    for w in ("1", "2"):
        assert main(["simulate", RULES, "--games", "10", "--players", "2", "--seed", "5", "--json",
                     "--workers", w]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_game_completes(players):
    s = simulate(RULES, games=25, players=players, seed=players, workers=2)
    assert s["completed"] == s["games"] == 25
    assert s["stuck"] == s["step_capped"] == s["errors"] == 0
    assert s["turns"]["max"] >= s["turns"]["median"] >= 1


def test_params_change_the_game():
    short = simulate(RULES, games=10, players=3, seed=1, workers=1)
    long = simulate(RULES, games=10, players=3, seed=1, workers=1, params={"track_length": 30})
    assert long["params"]["track_length"] == 30
    assert long["turns"]["mean"] > short["turns"]["mean"]


def test_bad_rules_and_player_count_raise(tmp_path):
    with pytest.raises(RulesError):
        simulate(RULES, games=2, players=9, workers=1)
    with pytest.raises(RulesError):
        simulate(str(tmp_path / "missing.rules"), games=2, players=2, workers=1)


def test_zero_games():
    s = simulate(RULES, games=0, players=2, workers=2)
    assert s["games"] == 0 and s["completed"] == 0 and s["turns"]["mean"] is None


def test_human_output(capsys):
    assert main(["simulate", RULES, "--games", "6", "--players", "2", "--seed", "1", "--workers", "1"]) == 0
    out, _ = capsys.readouterr()
    assert "completed" in out and "wins by seat" in out and "report: 1st" in out
    assert "games/s" in out and "wall time" in out


def test_cli_param_and_unknown_param(capsys):
    s = cli_json(capsys, RULES, "--games", "3", "--players", "2", "--workers", "1", "--param", "track_length=20")
    assert s["params"]["track_length"] == 20
    assert main(["simulate", RULES, "--games", "3", "--param", "nonsense=1"]) == 2  # a usage mistake
    assert "nonsense" in capsys.readouterr().err


def test_records_written(tmp_path, capsys):
    s = cli_json(capsys, RULES, "--games", "5", "--players", "3", "--workers", "2", "--records", str(tmp_path / "r"))
    files = sorted(p.name for p in (tmp_path / "r").iterdir())
    assert files == [f"game-{i:05d}.jsonl" for i in range(1, 6)]
    assert s["completed"] == 5


# ---- small made-up games for the rarer outcomes ----
TINY = """\
game "Tiny {name}"
players 2..3
{cap}
zone deck hidden
zone table public
zone hand per player private
cards chip in deck {{
  10 red {{ hot }}
  10 blue
}}
setup {{
  for p in player {{
    deal 2 from deck to hand(p)
  }}
}}
turn {{
  choose play: 1 card from hand(current) to table
  {refill}
}}
end when count(table) >= {goal}
{score}
report "hot" = count(table where hot)
"""


def tiny(tmp_path: Path, name: str, goal: int, refill: str = "", cap: str = "", score: str = "") -> str:
    path = tmp_path / f"{name}.rules"
    path.write_text(TINY.format(name=name, goal=goal, refill=refill, cap=cap, score=score))
    return str(path)


def test_stuck_games_are_counted(tmp_path):
    # four cards in hand between two players, and the table must reach 100: no legal move after four turns
    s = simulate(tiny(tmp_path, "stuck", 100), games=8, players=2, seed=1, workers=2)
    assert s["stuck"] == 8 and s["completed"] == 0
    assert s["turns"] == {"mean": None, "median": None, "max": None, "p10": None, "p90": None}
    assert s["reports"] == {"hot": {}}


def test_step_capped_games_are_counted(tmp_path):
    path = tiny(tmp_path, "cycle", 100, refill="refill hand(current) to 2 from deck reshuffling table",
                cap="max_steps 40")
    s = simulate(path, games=5, players=3, seed=1, workers=1)
    assert s["step_capped"] == 5 and s["completed"] == 0 and s["stuck"] == 0


def test_draws_without_a_score(tmp_path):
    s = simulate(tiny(tmp_path, "noscore", 3), games=10, players=2, seed=1, workers=1)
    assert s["completed"] == s["draws"] == 10
    assert s["wins_by_seat"] == [0.0, 0.0]
    assert sum(s["reports"]["hot"].values()) == 10
    assert all(isinstance(k, str) for k in s["reports"]["hot"])


def test_shared_wins_split(tmp_path):
    # everyone scores the same: every game is a shared win, each seat gets 1/2 of it
    s = simulate(tiny(tmp_path, "even", 3, score="score(p) = 1"), games=10, players=2, seed=1, workers=1)
    assert s["completed"] == s["shared"] == 10 and s["draws"] == 0
    assert s["wins_by_seat"] == [5.0, 5.0]


def test_a_report_of_a_var_holding_a_value_is_tallied_by_name(tmp_path, capsys):
    """A var that starts as none and is set to a value of an enum is reported by the value's name
    (the report's type comes from the checked game; it once came from a fresh checker that had
    not read the file's statements, and was taken for a number)."""
    path = tmp_path / "enum_report.rules"
    path.write_text('game "enum report"\nplayers 2..2\nenum colour { red blue }\nvar last = none\n'
                    'turn {\n  set last = blue\n  end game\n}\nscore(p) = 0\nreport "last" = last\n')
    assert main(["simulate", str(path), "--games", "4", "--players", "2", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reports"] == {"last": {"blue": 4}}


def test_a_report_of_a_cell_is_tallied_as_x_y(tmp_path, capsys):
    """A var set to a board's cell is reported as the moves name the cell (``x,y``), not by its
    number (cell 0,0 was tallied as 0)."""
    path = tmp_path / "cells.rules"
    path.write_text('game "Cells"\nplayers 2\nboard b { columns 3 rows 2 }\nvar last = none\n'
                    'turn {\n  set last = cell(b, 2, 1)\n  end game\n}\nreport "last" = last\n')
    assert main(["simulate", str(path), "--games", "3", "--players", "2", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reports"]["last"] == {"2,1": 3}


@pytest.mark.parametrize("json_out", [False, True])
def test_simulate_exits_1_when_a_game_does_not_reach_the_end(tmp_path, capsys, json_out):
    """A script can gate on simulate: stuck, step-capped or failed games make the exit status 1,
    and the summary is printed all the same."""
    stuck = tiny(tmp_path, "stuck", 100)
    assert main(["simulate", stuck, "--games", "4", "--players", "2", "--workers", "1",
                 *(["--json"] if json_out else [])]) == 1
    out, err = capsys.readouterr()
    assert "4 of 4 games did not reach the rules' end (errors 0, stuck 4, step-capped 0)" in err
    if json_out:
        assert json.loads(out)["stuck"] == 4
    fine = tiny(tmp_path, "fine", 3)
    assert main(["simulate", fine, "--games", "4", "--players", "2", "--workers", "1"]) == 0


def test_turns_count_the_turn_each_game_ended_in(capsys, tmp_path):
    """The records keep the turns passed on; simulate's figure counts the turn the game ended in too."""
    s = cli_json(capsys, RULES, "--games", "6", "--players", "3", "--seed", "2", "--workers", "1",
                 "--records", str(tmp_path))
    passed = [json.loads(p.read_text().splitlines()[-1])["result"]["turns"] for p in sorted(tmp_path.glob("*.jsonl"))]
    assert len(passed) == 6
    assert s["turns"]["max"] == max(passed) + 1
    assert s["turns"]["mean"] == pytest.approx(sum(passed) / 6 + 1, abs=1e-3)


def test_a_game_that_runs_past_the_time_limit_is_an_error_not_a_hang(tmp_path, monkeypatch):
    """A valid game whose turns loop a million times without a decision, a million times: past
    the time limit (limits.MAX_GAME_SECONDS; 1 s here) the game is counted as an error, and the
    run goes on."""
    import meeple
    import meeple.tools.simulate as sim
    from meeple.tools.limits import time_limit
    rules = tmp_path / "slow.rules"
    rules.write_text('game "Slow"\nplayers 2\nmax_steps 1000000\nvar x = 0\nturn {\n  for i in 1..1000 {\n'
                     '    for j in 1..1000 {\n      set x = x + 1\n    }\n  }\n  set x = 0\n}\nend when x < 0\n')
    monkeypatch.setattr(sim, "time_limit", lambda: time_limit(1))
    kind, _, _, _, _, error, _ = sim.play_one(meeple.load(str(rules)), 2, 0, 0)
    assert kind == sim.ERROR and "the game ran for more than 1 s without ending" in error


def test_a_report_label_ending_in_a_backslash_is_shown_as_written(tmp_path, capsys):
    from meeple.tools.cli import main
    rules = tmp_path / "r.rules"
    rules.write_text('game "T"\nplayers 2\nvar x = 0\nturn {\n  set x = x + 1\n  if x > 3 { end game }\n}\n'
                     'score(p) = x\nreport "end\\" = x\n')
    assert main(["simulate", str(rules), "--games", "3", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "report: end\\ " in out or out.rstrip().endswith("report: end\\") or "report: end\\\n" in out, out
    assert "report: end\\\\" not in out


def test_the_first_error_is_said_as_a_rule_that_failed_not_by_a_python_class_name(tmp_path):
    """A rule that fails as the game runs is 'a rule failed: FILE:LINE:COL: ...' (it was
    'RuleRuntimeError: ...'); the time limit is 'stopped: ...'; anything else names its class as a bug."""
    import meeple.tools.simulate as sim
    rules = tmp_path / "big.rules"
    rules.write_text('game "Big"\nplayers 2\nvar x = 9007199254740991\nturn {\n  set x = x + 1\n}\nend when x < 0\n'
                     'score(p) = x\n')
    s = simulate(str(rules), games=2, players=2, seed=1, workers=1)
    assert s["errors"] == 2
    assert s["first_error"].startswith("game 1 (seed ") and f": a rule failed: {rules}:5:3: " in s["first_error"]
    assert "RuleRuntimeError" not in s["first_error"]

    class Broken:  # a game whose state cannot even start: not the rules' failure
        def new_state(self, *args, **kwargs):
            raise KeyError("x")
    kind, _, _, _, _, error, _ = sim.play_one(Broken(), 2, 0, 0)
    assert kind == sim.ERROR and "KeyError (not a rule's failure: a bug in meeple, please report it)" in error


# ---- the statistics: intervals, the seat test, the lengths' picture ----
def test_wilson_interval_against_known_values():
    from meeple.tools.stats import wilson
    assert wilson(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)  # (Wilson's example in the literature)
    assert wilson(0, 0) is None
    lo, hi = wilson(2.5, 10)  # a fractional count: a shared win counts as its fraction
    assert lo < 0.25 < hi


@pytest.mark.parametrize("x,df,p", [
    (3.841459, 1, 0.05), (6.634897, 1, 0.01), (5.991465, 2, 0.05), (7.814728, 3, 0.05), (11.344867, 3, 0.01),
    (9.487729, 4, 0.05), (11.070498, 5, 0.05), (18.307038, 10, 0.05), (24.995790, 15, 0.05), (0.454936, 1, 0.5),
    (2.0, 2, 0.367879), (0.0, 3, 1.0)])
def test_chi_square_survival_against_table_values(x, df, p):
    from meeple.tools.stats import chi2_sf
    assert chi2_sf(x, df) == pytest.approx(p, abs=1e-6)


def test_chi_square_survival_of_a_huge_statistic_is_zero_not_an_overflow():
    from meeple.tools.stats import chi2_sf
    assert chi2_sf(3e8, 15) == 0.0 and chi2_sf(3e8, 14) == 0.0
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)


def test_p_values_are_said_without_rounding_across_the_line():
    from meeple.tools.stats import p_text
    assert [p_text(p) for p in (0.41, 0.003, 0.0004, 0.0496, 0.05, 0.04999, 0.04995)] == [
        "p = 0.41", "p = 0.003", "p < 0.001", "p = 0.0496", "p = 0.050", "p = 0.04999", "p = 0.04995"]


def test_length_rows_cover_every_game_in_at_most_12_rows():
    from meeple.tools.stats import length_rows, percentile
    counts = {t: (t % 7) + 1 for t in range(41, 88)}
    rows = length_rows(counts)
    assert 8 <= len(rows) <= 12 and sum(c for _, _, c in rows) == sum(counts.values())
    assert rows[0][0] <= 41 and rows[-1][1] >= 87
    assert length_rows({5: 3}) == [(5, 5, 3)]
    assert length_rows({}) == []
    # a lone short game does not squash the rest into one row: it gets a row of its own
    rows = length_rows({16: 1, 60: 300, 61: 120, 62: 40, 63: 5})
    assert rows[0] == (16, 59, 1) and (60, 60, 300) in rows
    assert percentile({1: 1, 2: 8, 3: 1}, 10) == 1 and percentile({1: 1, 2: 8, 3: 1}, 90) == 2
    assert percentile({}, 50) is None


SEAT_ZERO = """\
game "Seat zero"
players 2..4
var pts per player = 0
turn {
  set pts(current) = 1
  end game
}
score(p) = pts(p)
"""


def test_json_has_the_intervals_and_the_seat_test(capsys):
    s = cli_json(capsys, RULES, "--games", "40", "--players", "4", "--seed", "3", "--workers", "1")
    assert len(s["win_share_interval_by_seat"]) == 4
    for share, (lo, hi) in zip(s["win_share_by_seat"], s["win_share_interval_by_seat"]):
        assert 0 <= lo <= share <= hi <= 1
    assert set(s["report_share_intervals"]) == set(s["reports"])
    for label, tally in s["reports"].items():
        assert list(s["report_share_intervals"][label]) == list(tally)
        for value, count in tally.items():
            lo, hi = s["report_share_intervals"][label][value]
            assert lo <= count / s["completed"] <= hi
    balance = s["seat_balance"]
    assert set(balance) == {"chi2", "df", "p", "games"}
    assert balance["df"] == 3 and balance["games"] == s["completed"] - s["draws"]
    assert 0 <= balance["p"] <= 1 and balance["chi2"] >= 0
    assert s["turns"]["p10"] <= s["turns"]["median"] <= s["turns"]["p90"] <= s["turns"]["max"]


def test_a_balanced_game_says_no_evidence(capsys):
    assert main(["simulate", RULES, "--games", "200", "--players", "4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "95% interval" in out
    line = next(ln for ln in out.splitlines() if ln.startswith("seat balance:"))
    assert line.startswith("seat balance: no evidence of a seat advantage (p = 0.")
    s = simulate(RULES, games=200, players=4, seed=1)
    assert s["seat_balance"]["p"] > 0.05


def test_a_game_seat_0_always_wins_says_so(tmp_path, capsys):
    rules = tmp_path / "zero.rules"
    rules.write_text(SEAT_ZERO)
    s = simulate(str(rules), games=100, players=4, seed=1, workers=1)
    assert s["wins_by_seat"] == [100, 0, 0, 0]
    assert s["seat_balance"] == {"chi2": 300.0, "df": 3, "p": pytest.approx(0, abs=1e-60), "games": 100}
    assert main(["simulate", str(rules), "--games", "100", "--players", "4", "--workers", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # (the sentence may be wrapped)
    assert ("seat balance: seat 0 wins more than its share: 100.0% of 100 games with a winner, against 25.0% "
            "if even (p < 0.001)") in out


def test_with_two_seats_the_one_that_wins_more_is_named(tmp_path, capsys):
    rules = tmp_path / "one.rules"
    rules.write_text(SEAT_ZERO.replace("turn {", "setup {\n  set current = 1\n}\nturn {"))
    assert main(["simulate", str(rules), "--games", "30", "--players", "2", "--workers", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "seat balance: seat 1 wins more than its share: 100.0% of 30 games with a winner, against 50.0%" in out


def test_too_few_games_for_the_seat_test_say_so(tmp_path, capsys):
    rules = tmp_path / "zero.rules"
    rules.write_text(SEAT_ZERO)
    s = simulate(str(rules), games=19, players=4, seed=1, workers=1)  # 4.75 expected wins a seat
    assert s["seat_balance"] == {"chi2": None, "df": 3, "p": None, "games": 19}
    assert main(["simulate", str(rules), "--games", "19", "--players", "4", "--workers", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "seat balance: the test needs more games: 19 with a winner, at least 20 (5 a seat)" in out
    assert "p =" not in out
    assert simulate(str(rules), games=20, players=4, seed=1, workers=1)["seat_balance"]["p"] is not None


def test_draws_are_left_out_of_the_seat_test(tmp_path, capsys):
    s = simulate(tiny(tmp_path, "noscore", 3), games=10, players=2, seed=1, workers=1)
    assert s["seat_balance"] == {"chi2": None, "df": 1, "p": None, "games": 0}
    assert s["win_share_interval_by_seat"] == [[0.0, pytest.approx(0.277533)]] * 2
    from meeple.tools.stats import balance_sentence, seat_balance
    assert balance_sentence(s["seat_balance"], s["wins_by_seat"], 10) == \
        "seat balance: no game had a winner, nothing to test (10 draws)"
    test = seat_balance([30.0, 20.0], 50)
    assert balance_sentence(test, [30.0, 20.0], 7) == \
        "seat balance: no evidence of a seat advantage (p = 0.16, 50 games with a winner; 7 draws left out)"


def test_shared_wins_count_as_their_fraction_in_the_seat_test(tmp_path):
    s = simulate(tiny(tmp_path, "even", 3, score="score(p) = 1"), games=10, players=2, seed=1, workers=1)
    assert s["seat_balance"] == {"chi2": 0.0, "df": 1, "p": 1.0, "games": 10}


def test_the_terminal_shows_the_lengths_as_a_picture_within_80_columns(capsys):
    assert main(["simulate", RULES, "--games", "60", "--players", "4", "--seed", "2", "--workers", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    i = next(i for i, ln in enumerate(out) if ln.startswith("turns per completed game (10% end by turn "))
    rows = [ln for ln in out[i + 1:] if " │" in ln and not ln.startswith(("┃", "│", "┏", "┡", "└"))]
    assert 1 <= len(rows) <= 12 and all("█" in r or "▏" in r for r in rows)
    assert sum(int(r.split()[-2]) for r in rows) == 60
    assert max(len(ln) for ln in out) <= 80
