"""Where the time of a random playout goes: cProfile over seeded ``play_out``s of a bundled game
at 4 players, the functions that take the most time of their own:

    python bench/profile_playouts.py [GAME] [GAMES] [LINES]

GAME is hare (default) or luckydog (any name in ``games/``); GAMES how many (1000); LINES how
many functions to show (15). The generated functions are named as in ``meeple compile``
(``turn_play_N``: a decision and everything up to the next; ``begin_N``: the setup). cProfile
slows the many small calls most, so read the shares, not the times.
"""

from __future__ import annotations

import cProfile
import pstats
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import meeple  # noqa: E402


def main(argv: list[str]) -> None:
    name = argv[0] if argv else "hare"
    games = int(argv[1]) if len(argv) > 1 else 1000
    lines = int(argv[2]) if len(argv) > 2 else 15
    game = meeple.load(str(ROOT / "games" / f"{name}.rules"))
    profile = cProfile.Profile()
    profile.enable()
    for seed in range(games):
        game.new_state(4, seed=seed).play_out(random.Random(seed))
    profile.disable()
    stats = pstats.Stats(profile)
    total = stats.total_tt
    print(f"{games} {name} play_outs at 4 players: {total:.2f} s under cProfile")
    rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)[:lines]
    print(f"{'own time':>9} {'share':>6} {'calls':>9}  function")
    for (file, line, func), (_, calls, own, _, _) in rows:
        where = "the game's module" if file.startswith("<meeple") else Path(file).name
        print(f"{own:9.3f} {own / total:6.1%} {calls:9d}  {func} ({where}:{line})")


if __name__ == "__main__":
    main(sys.argv[1:])
