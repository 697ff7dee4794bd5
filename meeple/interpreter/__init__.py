"""The engine: compiles a checked game once and runs games from it (no tool, no Hypothesis, no rich).

    game = meeple.interpreter.load("games/mygame.rules")   # or meeple.load
    state = game.new_state(players=4, seed=7)
    while not state.is_terminal():
        state.apply(random.choice(state.legal_actions()))
"""

from .game import Game, StateError, load
from .moves import Action
from .state import CHANCE, TERMINAL, IllegalAction, State

__all__ = ["load", "Game", "StateError", "State", "Action", "CHANCE", "TERMINAL", "IllegalAction"]
