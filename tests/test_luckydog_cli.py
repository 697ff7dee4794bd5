"""Lucky Dog (games/luckydog.rules) through the ``meeple`` command line: simulated games
all end by the rules (a win or a draw, never the step cap, a stuck state or an error),
their records replay, and the summary's counts add up."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from meeple.tools.cli import main
from meeple.tools.records import read_record

ROOT = Path(__file__).resolve().parents[1]
RULES = str(ROOT / "games" / "luckydog.rules")
TOTAL_TILES = 34


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def simulate_json(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, "simulate", RULES, "--json", *argv)
    assert code == 0, err
    return json.loads(out)


def test_simulated_records_replay(capsys, tmp_path):
    """``simulate --records DIR`` writes one record per game; each replays (exit 0), and the
    records' results are the summary's."""
    summary = simulate_json(capsys, "--games", "20", "--players", "4", "--seed", "3",
                            "--records", str(tmp_path), "--workers", "2")
    assert summary["games"] == summary["completed"] == 20
    records = sorted(tmp_path.glob("*.jsonl"))
    assert [p.name for p in records] == [f"game-{i:05d}.jsonl" for i in range(1, 21)]

    wins = [0.0] * 4
    draws = 0
    for path in records:
        record = read_record(path)
        assert record.players == 4 and record.rules == RULES
        result = record.result
        assert result["outcome"] in ("end", "draw"), (path.name, result)
        if result["outcome"] == "draw":
            assert result["winners"] == [], (path.name, result)
            draws += 1
        else:
            # The winner is the player who moved last.
            assert len(result["winners"]) == 1, (path.name, result)
            last = next(actor for actor, _ in reversed(record.actions) if actor != "chance")
            assert result["winners"] == [last], (path.name, result, last)
            wins[last] += 1
        code, out, err = run(capsys, "replay", str(path))
        assert code == 0, out + err
        assert out.strip() == f"{path}: ok ({len(record.actions)} steps replayed, result matches)"
    assert draws == summary["draws"]
    assert wins == summary["wins_by_seat"]


def test_a_changed_record_does_not_replay(capsys, tmp_path):
    """A record with one action changed is a mismatch (exit 1), named at that action."""
    run(capsys, "simulate", RULES, "--games", "1", "--players", "3", "--seed", "3", "--records", str(tmp_path),
        "--workers", "1")
    path = tmp_path / "game-00001.jsonl"
    lines = path.read_text().splitlines()
    # The first road tile laid in a turn, changed to laying nothing (legal, but another game).
    i = next(n for n, line in enumerate(lines[1:-1], 1)
             if json.loads(line)["action"].startswith("road ") and "nothing" not in line)
    doc = json.loads(lines[i])
    doc["action"] = "road nothing"
    lines[i] = json.dumps(doc)
    path.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 1
    assert f"{path}: mismatch" in out


@pytest.mark.parametrize("players", [3, 4])
def test_simulate_summary_adds_up(capsys, players):
    """Every game ends by the rules; draws and wins add up to the games completed; nobody
    shares a win; the report counts every completed game."""
    games = 50
    s = simulate_json(capsys, "--games", str(games), "--players", str(players), "--seed", "1", "--workers", "1")
    assert s["title"] == "Lucky Dog" and s["players"] == players and s["seed"] == 1
    assert s["games"] == s["completed"] == games
    assert s["step_capped"] == 0 and s["stuck"] == 0 and s["errors"] == 0 and s["first_error"] is None
    assert s["shared"] == 0
    assert len(s["wins_by_seat"]) == players
    assert all(w == int(w) for w in s["wins_by_seat"]), s["wins_by_seat"]
    assert math.isclose(s["draws"] + sum(s["wins_by_seat"]), s["completed"]), s
    assert math.isclose(sum(s["win_share_by_seat"]), (games - s["draws"]) / games, abs_tol=1e-5)
    tiles = s["reports"]["tiles on the table"]
    assert sum(tiles.values()) == s["completed"]
    assert all(players <= int(n) <= TOTAL_TILES for n in tiles), tiles
    assert s["turns"]["max"] is not None and s["turns"]["max"] < 3000


def test_simulate_summary_same_on_any_number_of_workers(capsys):
    one = simulate_json(capsys, "--games", "40", "--players", "4", "--seed", "1", "--workers", "1")
    two = simulate_json(capsys, "--games", "40", "--players", "4", "--seed", "1", "--workers", "2")
    assert one == two
