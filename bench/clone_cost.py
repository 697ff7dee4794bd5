"""What a clone of a mid-game hare state costs, and how much of it is the chance generator's copy.

    python bench/clone_cost.py
"""

from __future__ import annotations

import _random
import random
import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import meeple  # noqa: E402

game = meeple.load(str(ROOT / "games" / "hare.rules"))
state = game.new_state(4, seed=3)
rng = random.Random(3)
for _ in range(40):
    state.apply(rng.choice(state.legal_actions()))
n = 20000
whole = timeit.timeit(state.clone, number=n) / n * 1e6
generator = timeit.timeit(lambda: _random.Random.getstate(state.rng), number=n) / n * 1e6
print(f"hare mid-game clone {whole:.1f} us, of which the generator's getstate {generator:.1f} us")
