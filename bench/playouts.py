"""Best of 5: 2000 seeded random games at 4 players through ``play_out``, for the meeple of a
tree (this one by default, or a worktree of another commit, to compare two), of a bundled game
(hare by default):

    python bench/playouts.py [TREE] [GAME]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

tree = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
sys.path.insert(0, str(tree))

import meeple  # noqa: E402

name = sys.argv[2] if len(sys.argv) > 2 else "hare"
game = meeple.load(str(tree / "games" / f"{name}.rules"))
best = []
for _ in range(5):
    start = time.perf_counter()
    for seed in range(2000):
        game.new_state(4, seed=seed).play_out(random.Random(seed))
    best.append(time.perf_counter() - start)
print(f"{tree}: best of 5: {min(best):.3f} s for 2000 {name} play_outs at 4 players")
