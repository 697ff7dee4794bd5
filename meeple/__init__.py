"""meeple: a rules-as-data engine for tabletop games.

    import meeple
    game = meeple.load("games/mygame.rules")          # RulesError with every problem, if any
    state = game.new_state(players=4, seed=7)
    while not state.is_terminal():
        state.apply(random.choice(state.legal_actions()))

Three layers, each a subpackage, imported in one direction only (tools → engine → language):
``meeple.dsl`` the rules language, ``meeple.interpreter`` the engine, ``meeple.tools`` the
command line and what it runs (play, render, simulate, fuzz, records, bots).
"""

from __future__ import annotations

from typing import Any

__version__ = "0.2.0"

_PUBLIC = {
    "load": "meeple.interpreter.game", "Game": "meeple.interpreter.game",
    "State": "meeple.interpreter.state", "CHANCE": "meeple.interpreter.state",
    "TERMINAL": "meeple.interpreter.state", "IllegalAction": "meeple.interpreter.state",
    "Action": "meeple.interpreter.moves", "StateError": "meeple.interpreter.game",
    "RulesError": "meeple.dsl.diagnostics", "RuleRuntimeError": "meeple.dsl.diagnostics",
    "Diagnostic": "meeple.dsl.diagnostics",
}

__all__ = ["__version__", *_PUBLIC]


def __getattr__(name: str) -> Any:
    """The public names, imported when first asked for (``meeple --help`` stays quick)."""
    if name in _PUBLIC:
        import importlib
        return getattr(importlib.import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module 'meeple' has no attribute {name!r}")
