"""Benchmark: random playouts/s of hand-written baselines vs. the interpreter.

Usage::

    python bench/run.py [--seconds S] [--players P[,P...]] [--game NAME ...] [--json] [--cpu N]

For every registered game and player count (2, 3 and 4 by default, those the game is for), it
measures the playouts/s below; the other figures at 4 players. All in this single process
(pinned to one CPU where the OS allows it):

* baseline playouts/s: ``play_random_game(players, rng)`` from the game's
  hand-written module in ``bench/``;
* interpreter playouts/s: ``meeple.load(rules)`` once, then
  ``new_state(players=P, rng=rng)`` and uniformly random ``legal_actions()``
  until ``is_terminal()``, ``rng = random.Random(s)`` drawing chance and choices alike
  (one generator seeded per game, as the baseline's);
* ratio interpreter/baseline: what the generic interface (a list of Actions made per decision,
  each applied from outside) costs;
* play_out/s and its ratio to the baseline (target >= 0.6 against a tuned baseline; the first
  baseline of a game not tuned yet stands in, and a tuned one is measured against its first:
  bench/*_old.py): the same random games played by the engine's own loop,
  ``new_state(players=P, rng=rng).play_out(rng)``, no ``legal_actions``/``apply`` call per
  decision from outside. This is the like-for-like figure: a baseline plays its random games in
  its own loop, making no list of moves, and it is what a tree search's rollouts run;
* median wall time of ``python -m meeple validate RULES`` over 5 runs
  (target < 0.3 s), with the parse cache warm and with it off;
* ``clone()`` + ``apply()`` per second on mid-game states, and what one clone costs in
  applies (target: under 5; tree search clones at every node);
* (``--scaling S``, hare only, 20 s by default, 0 to skip) the speed-up of ``meeple simulate``
  on 2 processes over 1: at least S seconds of one-process work, best of 3 (target >= 1.8);
* for a game with a route query (``GameSpec.route``): the query's time on full
  tables, made by random play with every tile placed (target: median < 2 ms),
  once as the game asks it (stopping at the player's target) and once searching
  to the end (the target param set to its maximum).

A missing interpreter, rules file or baseline module is reported in its row;
the script still exits 0.

To add a game, add an entry to ``GAMES``: a module in ``bench/`` exposing
``play_random_game(players: int, rng: random.Random) -> dict`` and the rules
file path relative to the repository root.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

RATIO_TARGET = 0.6  # play_out against the tuned baseline (issue 13; the goal is parity)
VALIDATE_TARGET_S = 0.3
VALIDATE_RUNS = 5
INTERPRETER_ACTION_CAP = 100_000  # per playout; guards against a non-ending game


@dataclass(frozen=True)
class GameSpec:
    """A benchmarked game: its baseline module and its rules file."""

    baseline_module: str  # importable from the repo root, e.g. "bench.hare_baseline"
    rules: str  # relative to the repo root
    route: str | None = None  # a route query to time on full tables, called with a seat
    full_table: dict[str, int] | None = None  # params under which nobody wins before the table is full
    target_param: str | None = None  # the param that, at its maximum, makes the route search to the end
    first_baseline: str | None = None  # the baseline before it was tuned, measured in the same run
    tuned_target: float | None = None  # how much faster than the first the tuned baseline must play


GAMES: dict[str, GameSpec] = {
    "hare": GameSpec("bench.hare_baseline", "games/hare.rules", first_baseline="bench.hare_baseline_old",
                     tuned_target=2.5),
    "luckydog": GameSpec("bench.luckydog_baseline", "games/luckydog.rules", route="drive",
                         full_table={"goal": 34}, target_param="goal",
                         first_baseline="bench.luckydog_baseline_old", tuned_target=1.4),
}

Playout = Callable[[int], Any]  # seed -> anything; one full random game


def pin_to_one_cpu(cpu: int | None = None) -> int | None:
    """Restrict this process (and its children) to one CPU; return it.

    Without ``cpu``, the lowest CPU this process may use. Returns None where
    the OS has no affinity API or refuses.
    """
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        chosen = min(os.sched_getaffinity(0)) if cpu is None else cpu
        os.sched_setaffinity(0, {chosen})
    except OSError:
        return None
    return chosen


def measure(playout: Playout, seconds: float) -> float:
    """Playouts per second of ``playout`` over ``seconds``, after a warm-up."""
    warmup_end = time.perf_counter() + min(0.5, seconds / 10)
    seed = 0
    while time.perf_counter() < warmup_end:
        playout(seed)
        seed += 1
    seed = 1_000_000
    count = 0
    start = time.perf_counter()
    end = start + seconds
    now = start
    while now < end:
        playout(seed)
        seed += 1
        count += 1
        now = time.perf_counter()
    return count / (now - start)


def measure_pair(first: Playout, second: Playout, seconds: float, rounds: int = 10) -> tuple[float, float, float]:
    """Playouts per second of both, and the median of their per-round ratio second/first.

    The two alternate in short rounds (order swapped each round), so that a slower
    or busier stretch of the machine falls on both alike."""
    share = seconds / rounds
    rates: tuple[list[float], list[float]] = ([], [])
    for r in range(rounds):
        order = (0, 1) if r % 2 == 0 else (1, 0)
        for which in order:
            rates[which].append(measure((first, second)[which], share))
    ratios = [b / a for a, b in zip(*rates)]
    return statistics.median(rates[0]), statistics.median(rates[1]), statistics.median(ratios)


def baseline_playout(spec: GameSpec, players: int) -> Playout:
    """Playout function for the hand-written baseline."""
    module = importlib.import_module(spec.baseline_module)
    play_random_game = module.play_random_game

    def playout(seed: int) -> Any:
        return play_random_game(players, random.Random(seed))

    return playout


def interpreter_playout(spec: GameSpec, players: int) -> Playout:
    """Playout function for the interpreter (raises if it is unavailable)."""
    import meeple  # optional: the engine may not exist yet

    game = meeple.load(str(ROOT / spec.rules))

    def playout(seed: int) -> int:
        rng = random.Random(seed)  # (chance and the choices from one generator, as the baseline's)
        state = game.new_state(players=players, rng=rng)
        actions = 0
        while not state.is_terminal():
            acts = state.legal_actions()
            state.apply(rng.choice(acts))
            actions += 1
            if actions >= INTERPRETER_ACTION_CAP:
                raise RuntimeError(f"seed {seed}: not terminal after {actions} actions")
        return actions

    return playout


def play_out_playout(spec: GameSpec, players: int) -> Playout:
    """Playout function for the engine's own random playout, ``State.play_out``."""
    import meeple

    game = meeple.load(str(ROOT / spec.rules))

    def playout(seed: int) -> int:
        rng = random.Random(seed)  # (chance and the choices from one generator, as the baseline's)
        state = game.new_state(players=players, rng=rng)
        state.play_out(rng)
        if not state.is_terminal():
            raise RuntimeError(f"seed {seed}: a player had no legal action")
        return len(state.log)

    return playout


def time_validate(rules: str, cold: bool = False) -> float:
    """Median wall time of ``meeple validate RULES``; raises on failure.

    ``cold``: with the parse cache off (MEEPLE_NO_CACHE=1), as the first run after
    an edit; otherwise as a repeated run (dsl/cache.py). Both with the parser of the
    language built once before (``dsl/parse.grammar``, as after meeple's first command)."""
    cmd = [sys.executable, "-m", "meeple", "validate", rules]
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # time it as a user's shell would run it
    if cold:
        env["MEEPLE_NO_CACHE"] = "1"
    times = []
    for _ in range(VALIDATE_RUNS):
        start = time.perf_counter()
        proc = subprocess.run(
            cmd, check=False, cwd=ROOT, capture_output=True, text=True, timeout=60, env=env
        )
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            output = (proc.stderr or proc.stdout).strip().splitlines()
            detail = output[-1] if output else "no output"
            raise RuntimeError(f"exit {proc.returncode}: {detail}")
    return statistics.median(times)


def describe(exc: BaseException) -> str:
    """One-line description of an exception for the report."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def bench_game(
    name: str, spec: GameSpec, players: int, seconds: float, playouts_only: bool = False
) -> dict[str, Any]:
    """Run all measurements for one game at one player count (``playouts_only``: only the
    playouts/s of baseline and interpreter); failures become error strings."""
    row: dict[str, Any] = {
        "game": name,
        "players": players,
        "rules": spec.rules,
        "baseline_per_s": None,
        "interpreter_per_s": None,
        "ratio": None,
        "play_out_per_s": None,
        "play_out_ratio": None,
        "validate_s": None,
        "validate_cold_s": None,
        "errors": {},
    }
    try:
        baseline = baseline_playout(spec, players)
    except Exception as exc:  # noqa: BLE001 - any failure is reported in the row
        row["errors"]["baseline"] = describe(exc)
        baseline = None

    rules_path = ROOT / spec.rules
    try:
        importlib.import_module("meeple.interpreter")
    except Exception as exc:  # noqa: BLE001
        missing = f"interpreter not importable ({describe(exc)})"
        row["errors"]["interpreter"] = row["errors"]["validate"] = missing
        return row
    if not rules_path.is_file():
        missing = f"rules file missing: {spec.rules}"
        row["errors"]["interpreter"] = row["errors"]["validate"] = missing
        return row

    try:
        engine = interpreter_playout(spec, players)
        if baseline is None:
            row["interpreter_per_s"] = measure(engine, seconds)
        else:
            row["baseline_per_s"], row["interpreter_per_s"], row["ratio"] = measure_pair(
                baseline, engine, 2 * seconds)
    except Exception as exc:  # noqa: BLE001
        row["errors"]["interpreter"] = describe(exc)
    if baseline is not None:
        try:
            _, row["play_out_per_s"], row["play_out_ratio"] = measure_pair(
                baseline, play_out_playout(spec, players), 2 * seconds)
        except Exception as exc:  # noqa: BLE001
            row["errors"]["play_out"] = describe(exc)
    if playouts_only:
        return row

    if spec.first_baseline and baseline is not None:
        try:
            first = baseline_playout(GameSpec(spec.first_baseline, spec.rules), players)
            row["first_baseline_per_s"], _, row["tuned_over_first"] = measure_pair(first, baseline, 2 * seconds)
        except Exception as exc:  # noqa: BLE001
            row["errors"]["first baseline"] = describe(exc)
    if spec.route:
        try:
            row["route"] = bench_route(spec)
        except Exception as exc:  # noqa: BLE001
            row["errors"]["route"] = describe(exc)
    try:
        row["clone"] = bench_clone(spec, players, seconds / 2)
    except Exception as exc:  # noqa: BLE001
        row["errors"]["clone"] = describe(exc)
    try:
        row["validate_s"] = time_validate(spec.rules)
        row["validate_cold_s"] = time_validate(spec.rules, cold=True)
    except Exception as exc:  # noqa: BLE001
        row["errors"]["validate"] = describe(exc)
    return row


CLONE_TARGET_APPLIES = 5.0
SCALING_TARGET = 1.8


def bench_clone(spec: GameSpec, players: int, seconds: float) -> dict[str, Any]:
    """clone()+apply() per second on mid-game states (half-way through random games), and the
    cost of one clone in applies."""
    import meeple

    game = meeple.load(str(ROOT / spec.rules))
    states = []
    for seed in range(20):
        state, rng = game.new_state(players, seed=seed), random.Random(seed)
        trail = []
        while not state.is_terminal():
            trail.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        states.append(trail[len(trail) // 2])
    actions = [s.legal_actions() for s in states]
    rng = random.Random(0)

    def rates(*steps: Callable[[Any, list], None]) -> list[float]:
        """Each step's rate, measured in alternating rounds (the machine's speed drifts: an
        apply's cost is a difference of two rates, which must see the same machine)."""
        done, spent = [0] * len(steps), [0.0] * len(steps)
        end = time.perf_counter() + seconds * len(steps)
        while time.perf_counter() < end:
            for k, step in enumerate(steps):
                start = time.perf_counter()
                for _ in range(5):
                    for state, acts in zip(states, actions):
                        step(state, acts)
                spent[k] += time.perf_counter() - start
                done[k] += 5 * len(states)
        return [n / t for n, t in zip(done, spent)]

    def clone_only(state: Any, acts: list) -> None:
        state.clone()

    def clone_and_apply(state: Any, acts: list) -> None:
        copy = state.clone()
        copy.apply(copy.legal_actions()[rng.randrange(len(acts))])

    clones, pairs = rates(clone_only, clone_and_apply)
    clone_s, apply_s = 1 / clones, max(1 / pairs - 1 / clones, 1e-9)
    return {"clone_apply_per_s": round(pairs, 1), "clone_us": round(clone_s * 1e6, 2),
            "apply_us": round(apply_s * 1e6, 2), "clone_in_applies": round(clone_s / apply_s, 2)}


def bench_scaling(seconds: float, players: int) -> dict[str, Any]:
    """Wall time of ``meeple simulate games/hare.rules`` on 1 and 2 processes (best of 3 each),
    with enough games for ``seconds`` of one-process work; the processes may use every CPU."""
    def wall(games: int, workers: int) -> float:
        cmd = [sys.executable, "-m", "meeple", "simulate", "games/hare.rules", "--games", str(games),
               "--players", str(players), "--workers", str(workers), "--seed", "1", "--json"]
        start = time.perf_counter()
        subprocess.run(cmd, check=True, cwd=ROOT, capture_output=True, timeout=3600,
                       preexec_fn=_all_cpus)
        return time.perf_counter() - start

    games, one = 200, 0.0
    while one < seconds:  # (the start-up of a run is a larger share of a short one: grow until it is long)
        games = max(games, int(games * 1.1 * seconds / max(one, 1e-3))) if one else games
        one = wall(games, 1)
    ones = [one, *(wall(games, 1) for _ in range(2))]
    twos = [wall(games, 2) for _ in range(3)]
    return {"games": games, "one_process_s": round(min(ones), 2), "two_processes_s": round(min(twos), 2),
            "speedup": round(min(ones) / min(twos), 3)}


def _all_cpus() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, range(os.cpu_count() or 1))


ROUTE_TARGET_MS = 2.0
ROUTE_TABLES = 40


def full_tables(game: Any, tiles: int, count: int) -> list[Any]:
    """States of random games at the moment the last tile is placed (seeds 0, 1, ...)."""
    found, seed = [], 0
    while len(found) < count and seed < 50 * count:
        state, rng = game.new_state(4, seed=seed), random.Random(seed)
        seed += 1
        while not state.is_terminal() and len(state.grid.x) < tiles:
            state.apply(rng.choice(state.legal_actions()))
        if len(state.grid.x) == tiles:
            found.append(state.to_json())
    return found


def bench_route(spec: GameSpec) -> dict[str, Any]:
    """Median and max time of the route query per seat on full tables, in ms."""
    import meeple

    filler = meeple.load(str(ROOT / spec.rules), params=spec.full_table)
    tiles = sum(filler.const["cards"][v] for v in filler.layout.shapes.tile_varieties)
    docs = full_tables(filler, tiles, ROUTE_TABLES)
    top = next(p["hi"] for p in filler.ir["params"] if p["name"] == spec.target_param)
    out: dict[str, Any] = {"tables": len(docs), "tiles": tiles}
    for label, params in (("as played", None), ("to the end", {spec.target_param: top})):
        game = meeple.load(str(ROOT / spec.rules), params=params)
        # the same tables under another target: a saved state names the game (and params) it is of
        # (and its compiled program: the same here, but for the constants the param is folded into)
        docs = [{**doc, "game": game.game_hash, "program": game.program_hash} for doc in docs]
        times, lengths = [], []
        game.route(game.state_from_json(docs[0]), spec.route, 0)  # the query is compiled on first use
        for doc in docs:
            state = game.state_from_json(doc)
            for seat in range(state.players):
                start = time.perf_counter()
                lengths.append(game.route(state, spec.route, seat))
                times.append(time.perf_counter() - start)
        out[label] = {"median_ms": round(statistics.median(times) * 1000, 4),
                      "max_ms": round(max(times) * 1000, 4), "queries": len(times),
                      "mean_length": round(statistics.fmean(lengths), 2)}
    return out


def format_table(rows: list[dict[str, Any]]) -> str:
    """Human-readable table, with any errors listed underneath."""

    def num(value: float | None, fmt: str) -> str:
        return "n/a" if value is None else format(value, fmt)

    def mark(ok: bool | None, bad: str) -> str:
        return "" if ok is None else " ok" if ok else f" {bad}"

    header = (
        "game",
        "players",
        "baseline/s",
        "interp/s",
        "ratio",
        "play_out/s",
        f"ratio (>={RATIO_TARGET})",
        f"validate s (<{VALIDATE_TARGET_S})",
        "validate, no cache",
    )
    lines = [header]
    for row in rows:
        ratio, validate = row["play_out_ratio"], row["validate_s"]
        ratio_ok = None if ratio is None else ratio >= RATIO_TARGET
        validate_ok = None if validate is None else validate < VALIDATE_TARGET_S
        lines.append(
            (
                row["game"],
                str(row["players"]),
                num(row["baseline_per_s"], ".1f"),
                num(row["interpreter_per_s"], ".1f"),
                num(row["ratio"], ".3f"),
                num(row["play_out_per_s"], ".1f"),
                num(ratio, ".3f") + mark(ratio_ok, "LOW"),
                num(validate, ".3f") + mark(validate_ok, "SLOW"),
                num(row["validate_cold_s"], ".3f"),
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = [
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip()
        for line in lines
    ]
    out.insert(1, "  ".join("-" * w for w in widths))
    for row in rows:
        route = row.get("route")
        if route:
            for label in ("as played", "to the end"):
                r = route[label]
                ok = "ok" if r["median_ms"] < ROUTE_TARGET_MS else "SLOW"
                out.append(f"{row['game']} route query, {label}: median {r['median_ms']:.3f} ms "
                           f"(<{ROUTE_TARGET_MS} {ok}), max {r['max_ms']:.3f} ms over {r['queries']} queries "
                           f"on {route['tables']} tables of {route['tiles']} tiles; mean length {r['mean_length']}")
    for row in rows:
        spec = GAMES[row["game"]]
        if row.get("tuned_over_first") is not None:
            ok = "ok" if row["tuned_over_first"] >= spec.tuned_target else "LOW"
            out.append(f"{row['game']} tuned baseline: {row['tuned_over_first']:.2f}x the first one "
                       f"({row['first_baseline_per_s']:.0f}/s; >={spec.tuned_target} {ok})")
        elif not spec.first_baseline:
            out.append(f"{row['game']} baseline: not tuned yet (the ratio above is against the first one)")
    for row in rows:
        c = row.get("clone")
        if c:
            ok = "ok" if c["clone_in_applies"] < CLONE_TARGET_APPLIES else "HIGH"
            out.append(f"{row['game']} clone()+apply(): {c['clone_apply_per_s']:.0f}/s on mid-game states; "
                       f"a clone {c['clone_us']:.1f} us, an apply {c['apply_us']:.1f} us: a clone costs "
                       f"{c['clone_in_applies']:.2f} applies (<{CLONE_TARGET_APPLIES:g} {ok})")
    for row in rows:
        for what, message in row["errors"].items():
            out.append(f"{row['game']} {what}: {message}")
    return "\n".join(out)


TARGET_PLAYERS = 4  # the player count the targets are set at


def plays_at(spec: GameSpec, players: int) -> bool:
    """Is ``players`` within the game's range? (True when the rules cannot be loaded: the row
    then says why.)"""
    try:
        import meeple
        game = meeple.load(str(ROOT / spec.rules))
    except Exception:  # noqa: BLE001 - reported by bench_game
        return True
    return game.min_players <= players <= game.max_players


def player_counts(text: str) -> list[int]:
    """``--players``: one count or several, comma-separated (2..8 each)."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give player counts like 4 or 2,3,4") from None
    if not counts or any(not 2 <= c <= 8 for c in counts):
        raise argparse.ArgumentTypeError(f"{text!r}: each player count is 2..8")
    return sorted(set(counts))


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, benchmark the chosen games, print a table or JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds",
        type=float,
        default=8.0,
        help="measurement time per playout loop (default 8; baseline and interpreter alternate "
        "in rounds over twice that)",
    )
    parser.add_argument(
        "--players", type=player_counts, default=[2, 3, 4], metavar="P[,P...]",
        help=f"player counts to measure playouts at (default 2,3,4); the other figures are at "
        f"{TARGET_PLAYERS} players if it is one of them, else at the first"
    )
    parser.add_argument(
        "--game",
        action="append",
        choices=sorted(GAMES),
        help="game(s) to run (default: all)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--cpu", type=int, help="CPU to pin to (default: the lowest one allowed)"
    )
    parser.add_argument("--scaling", type=float, default=20.0, metavar="S",
                        help="seconds of one-process work for the simulate speed-up on 2 processes "
                        "(default 20; 0 skips it)")
    args = parser.parse_args(argv)
    main_count = TARGET_PLAYERS if TARGET_PLAYERS in args.players else args.players[0]
    scaling: dict[str, Any] | None = None
    if args.scaling > 0:  # before pinning: the processes must be free to use every CPU
        try:
            scaling = bench_scaling(args.scaling, main_count)
        except Exception as exc:  # noqa: BLE001
            scaling = {"error": describe(exc)}

    cpu = pin_to_one_cpu(args.cpu)
    names = args.game or list(GAMES)
    rows = [bench_game(name, GAMES[name], players, args.seconds, playouts_only=players != main_count)
            for name in names for players in args.players if plays_at(GAMES[name], players)]
    if args.json:
        print(
            json.dumps(
                {
                    "players": args.players,
                    "figures_at_players": main_count,
                    "seconds": args.seconds,
                    "cpu": cpu,
                    "python": platform.python_version(),
                    "targets": {
                        "play_out_ratio_min": RATIO_TARGET,
                        "validate_max_s": VALIDATE_TARGET_S,
                        "route_median_max_ms": ROUTE_TARGET_MS,
                        "clone_max_applies": CLONE_TARGET_APPLIES,
                        "simulate_speedup_min": SCALING_TARGET,
                    },
                    "games": rows,
                    "simulate_scaling": scaling,
                },
                indent=2,
            )
        )
    else:
        pinned = f"pinned to CPU {cpu}" if cpu is not None else "not pinned"
        print(
            f"players={args.players}  seconds={args.seconds}  {pinned}  "
            f"python {platform.python_version()}"
        )
        print(format_table(rows))
        if scaling and "error" in scaling:
            print(f"simulate on 2 processes: {scaling['error']}")
        elif scaling:
            ok = "ok" if scaling["speedup"] >= SCALING_TARGET else "LOW"
            print(f"simulate hare, {main_count} players, {scaling['games']} games: 1 process "
                  f"{scaling['one_process_s']:.2f} s, 2 processes {scaling['two_processes_s']:.2f} s (best of 3): "
                  f"speed-up {scaling['speedup']:.2f} (>={SCALING_TARGET} {ok})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
