"""games/leduc.rules against OpenSpiel's leduc_poker, move by move, on N random games.

Needs OpenSpiel (``pip install open_spiel``; not a dependency of meeple). At every chance node both
offer the same cards with the same probabilities, at every decision the same player has the same
moves in the same order, and the returns at the end are equal:

    .venv/bin/python bench/openspiel_leduc.py 10000
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import meeple  # noqa: E402
from leduc_reference import ACTION_NAMES, CARD_NAMES  # noqa: E402


def same_game(g, game, seed: int) -> bool:
    rng, state, st = random.Random(seed), game.new_initial_state(), g.new_state(2, chance="explicit")
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            mine = {a.text: (a, p) for a, p in st.chance_outcomes()}
            if sorted((t, round(p, 12)) for t, (_, p) in mine.items()) != \
                    sorted((f"deal {CARD_NAMES[c]}", round(p, 12)) for c, p in outcomes):
                return False
            a = rng.choice([c for c, _ in outcomes])
            st.apply(mine[f"deal {CARD_NAMES[a]}"][0])
        else:
            legal = {x.text: x for x in st.legal_actions()}
            if st.current_player() != state.current_player() or \
                    list(legal) != [ACTION_NAMES[a] for a in state.legal_actions()]:
                return False
            a = rng.choice(state.legal_actions())
            st.apply(legal[ACTION_NAMES[a]])
        state.apply_action(a)
    return st.is_terminal() and st.returns() == state.returns()


def main() -> int:
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed: pip install open_spiel", file=sys.stderr)
        return 2
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    g, game = meeple.load(str(ROOT / "games" / "leduc.rules")), pyspiel.load_game("leduc_poker")
    same = sum(same_game(g, game, seed) for seed in range(n))
    print(f"{same} of {n} random games identical to OpenSpiel's leduc_poker "
          f"(chance outcomes and probabilities, who moves, legal moves in order, returns)")
    return 0 if same == n else 1


if __name__ == "__main__":
    sys.exit(main())
