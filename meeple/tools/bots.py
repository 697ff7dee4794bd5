"""Players that need no human: ``RandomBot`` picks uniformly among the distinct legal actions."""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple.interpreter.moves import Action
    from meeple.interpreter.state import State


def derive_seed(*parts: Any) -> int:
    """A 64-bit seed from ``parts`` (e.g. a base seed, a game number, a purpose); the same in every process."""
    text = "meeple:" + ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class RandomBot:
    """Uniformly random among ``state.legal_actions()`` (which are distinct)."""

    def __init__(self, seed: int | None = None, rng: random.Random | None = None):
        self.rng = rng if rng is not None else random.Random(seed)

    def act(self, state: State) -> Action:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action to choose from")
        return self.rng.choice(legal)

    __call__ = act


def sample_chance(state: State, rng: random.Random) -> Action:
    """A chance outcome drawn by its probability (for states made with ``chance="explicit"``)."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("not at a chance node")
    actions, weights = zip(*outcomes)
    return rng.choices(actions, weights=weights)[0]
