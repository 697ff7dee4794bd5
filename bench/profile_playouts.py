"""Where the time of a random playout goes, per seeded ``play_out`` of a bundled game at 4
players:

    python bench/profile_playouts.py [GAME] [GAMES] [LINES]
    python bench/profile_playouts.py --bytecodes [GAME] [GAMES] [LINES]

GAME is hare (default) or luckydog (any name in ``games/``); GAMES how many (1000, or 100 with
``--bytecodes``); LINES how many functions to show (15).

The first form runs cProfile and lists the functions that take the most time of their own.
cProfile slows the many small calls most, so read the shares, not the times.

``--bytecodes`` counts the Python bytecodes each function runs per game instead (a trace of
every opcode: slow, but the same on every machine), for the engine and, where ``bench/`` has
one (``GAME_baseline.py``), for the tuned hand-written baseline playing the same number of
games. Most of a playout's time is Python's bytecode loop, so the counts show where the engine
does more work than the baseline; a bytecode is not a fixed time (a C call inside one may take
far longer), so compare them with the instruction counts or timings of ``bench/run.py``.

The generated functions are named as in ``meeple compile`` (``turn_play_N``: a decision and
everything up to the next; ``begin_N``: the setup).
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import importlib
import pstats
import random
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import meeple  # noqa: E402


def profile_time(name: str, games: int, lines: int) -> None:
    game = meeple.load(str(ROOT / "games" / f"{name}.rules"))
    profile = cProfile.Profile()
    profile.enable()
    for seed in range(games):
        rng = random.Random(seed)  # (one generator for chance and choices, as bench/run.py plays)
        game.new_state(4, rng=rng).play_out(rng)
    profile.disable()
    stats = pstats.Stats(profile)
    total = stats.total_tt
    print(f"{games} {name} play_outs at 4 players: {total:.2f} s under cProfile")
    rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)[:lines]
    print(f"{'own time':>9} {'share':>6} {'calls':>9}  function")
    for (file, line, func), (_, calls, own, _, _) in rows:
        where = "the game's module" if file.startswith("<meeple") else Path(file).name
        print(f"{own:9.3f} {own / total:6.1%} {calls:9d}  {func} ({where}:{line})")


def count_bytecodes(play: Callable[[int], object], games: int, files: Callable[[str], str | None]) -> tuple:
    """Bytecodes run per game by each function whose file ``files`` names (None: not counted),
    and the calls of each, over ``play(seed)`` for seeds 0..games-1."""
    ops: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()

    def trace(frame, event, arg):
        where = files(frame.f_code.co_filename)
        if where is None:
            return None
        key = (where, frame.f_code.co_name)
        calls[key] += 1
        frame.f_trace_opcodes = True

        def each(frame, event, arg):
            if event == "opcode":
                ops[key] += 1
            return each
        return each

    sys.settrace(trace)
    try:
        for seed in range(games):
            play(seed)
    finally:
        sys.settrace(None)
    return ops, calls


def profile_bytecodes(name: str, games: int, lines: int) -> None:
    game = meeple.load(str(ROOT / "games" / f"{name}.rules"))
    package = str(Path(meeple.__file__).parent)

    def engine_file(file: str) -> str | None:
        if file.startswith("<meeple"):
            return "module"
        return Path(file).name if file.startswith(package) else None

    def engine(seed: int) -> None:
        rng = random.Random(seed)
        game.new_state(4, rng=rng).play_out(rng)

    shown = [("engine", engine, engine_file)]
    baseline_path = ROOT / "bench" / f"{name}_baseline.py"
    if baseline_path.exists():
        baseline = importlib.import_module(f"bench.{name}_baseline")
        shown.append(("tuned baseline", lambda seed: baseline.play_random_game(4, random.Random(seed)),
                      lambda file: "baseline" if file == baseline.__file__ else None))
    for title, play, files in shown:
        ops, calls = count_bytecodes(play, games, files)
        total = sum(ops.values())
        print(f"{title}: {total / games:,.0f} bytecodes per random {name} game at 4 players ({games} games)")
        print(f"{'per game':>10} {'share':>6} {'calls':>8}  function")
        for (where, func), n in ops.most_common(lines):
            print(f"{n / games:10,.0f} {n / total:6.1%} {calls[where, func] / games:8.1f}  {func} ({where})")
        print()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python bench/profile_playouts.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bytecodes", action="store_true", help="count bytecodes per function, not time")
    parser.add_argument("game", nargs="?", default="hare", help="a game of games/ (default: hare)")
    parser.add_argument("games", nargs="?", type=positive, help="how many games (1000; 100 with --bytecodes)")
    parser.add_argument("lines", nargs="?", type=positive, default=15, help="functions shown (15)")
    args = parser.parse_args(argv)
    if not (ROOT / "games" / f"{args.game}.rules").is_file():
        known = ", ".join(sorted(p.stem for p in (ROOT / "games").glob("*.rules")))
        parser.error(f"no game {args.game!r} in games/ (there are: {known})")
    games = args.games or (100 if args.bytecodes else 1000)
    (profile_bytecodes if args.bytecodes else profile_time)(args.game, games, args.lines)


def positive(text: str) -> int:
    """A whole number above 0 (for argparse)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number above 0, not {text!r}")
    return int(text)


if __name__ == "__main__":
    main(sys.argv[1:])
