"""Fuzzing a game (``fuzz``): Hypothesis chooses the number of players, every move and every
chance outcome (and, with ``vary_params``, each param within its declared range). After every
step the built-in invariants and the rules' own (``invariant name: test``) are checked. A
failure is shrunk by Hypothesis to a short game (for a bounded time: shrinking replays the game
hundreds of times), returned with the state it ended in, so that it can be written as a record
that ``meeple replay`` re-runs.

Each decision is drawn as an index into the legal actions (or chance outcomes), so that
Hypothesis shrinks a game towards the first choice at every step and towards fewer steps.

Built-in invariants:

* every legal action (and chance outcome) applies without error;
* a state that is not over has a legal action, or is a chance node;
* no card is created or lost (cards in zones plus tiles on a grid);
* the game ends within its step cap;
* ``to_json`` round-trips (every ``view_every`` steps and at the end);
* at the end, replaying the game's history from the start gives the same state, and its scores
  and returns can be told (``zero_sum`` returns add up to 0);
* an observation shows of another seat's private zones, and of hidden zones, only their size
  (every ``view_every`` steps and at the end);
* with ``vary_params``: every choice of params within their ranges makes a valid game.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Optional

from hypothesis import HealthCheck, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from meeple.dsl.diagnostics import RuleRuntimeError, RulesError

from meeple.interpreter.game import Game, StateError
from meeple.interpreter.invariants import broken_after, total_cards
from meeple.interpreter.state import State

from .limits import GameTooLong, time_limit

VIEW_EVERY = 64  # steps between JSON round-trip and hidden-card checks (and at the end of every game)
SHRINK_SECONDS = 20.0  # how long Hypothesis may shrink a failing game
# Steps whose moves Hypothesis chooses (and shrinks); the rest of a longer game is played from one
# seed it draws, so that a game that never ends reaches its step cap and is reported at once.
CHOSEN_STEPS = 1_000
BUILT_IN = ("legal actions apply", "never stuck", "cards kept", "ends within the step cap", "JSON round trip",
            "results", "replay", "hidden stays hidden", "ends within the time limit")


@dataclass
class Failure:
    """A broken invariant, in the shortest game Hypothesis found."""

    invariant: str
    message: str
    at: Optional[list[int]]  # where a declared invariant stands in the rules file
    game: Game
    state: Optional[State]  # None when the params chosen did not even make a valid game
    params: dict[str, int]
    failed_move: Optional[tuple[Any, str]] = None  # (actor, action) that did not apply, from ``state``


@dataclass
class FuzzReport:
    """What a fuzzing run covered, and its failure if it found one."""

    examples: int = 0  # games started (Hypothesis also starts games that it cuts short)
    finished: int = 0  # games played to their end
    steps: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    players: dict[int, int] = field(default_factory=dict)
    decisions: set[str] = field(default_factory=set)
    failure: Optional[Failure] = None


class _Done(BaseException):
    """Ends the search at once: Hypothesis lets a BaseException through, without shrinking."""


class Broken(Exception):
    def __init__(self, failure: Failure):
        super().__init__(f"{failure.invariant}: {failure.message}")
        self.failure = failure


def hidden_shown(game: Game, state: State, seat: int) -> Optional[str]:
    """A zone or a var that the observation of ``seat`` shows though it may not see it, if any:
    of a zone it may not see, more than its size and the cards 'reveal' showed it that are there."""
    obs = state.observation(seat)
    zones, everything = obs["zones"], state.observation(None)["zones"]
    for name in game.layout.zone_names:
        decl = game.sym.zones[name]
        views = zones[name] if decl["per_player"] else [zones[name]]
        truth = everything[name] if decl["per_player"] else [everything[name]]
        for owner, view in enumerate(views):
            secret = decl["visibility"] == "hidden" or (decl["visibility"] == "private" and owner != seat)
            where = f"{name} of seat {owner}" if decl["per_player"] else name
            if secret and (set(view) - {"known"} != {"size"} or view["size"] != sum(truth[owner].values())):
                return where
            if secret and any(k > truth[owner].get(v, 0) for v, k in view.get("known", {}).items()):
                return f"{where}: cards known that are not there"
    for name in game.layout.var_names:
        decl = game.sym.vars[name]
        seen = decl.get("visibility", "public")
        for part in ("vars", "var_shown"):
            values = obs.get(part, {}).get(name) or []
            for owner, v in enumerate(values):
                secret = seen == "hidden" or (seen == "private" and not (decl["per_player"] and owner == seat))
                if secret and v is not None:
                    return f"var {name} of seat {owner}" if decl["per_player"] else f"var {name}"
    return None


def fuzz(game: Game, examples: int = 100, seed: Optional[int] = None, vary_params: bool = False,
         load: Optional[Callable[[dict[str, int]], Game]] = None,
         progress: Optional[Callable[[int, int], None]] = None,
         shrink_seconds: float = SHRINK_SECONDS, players: Optional[int] = None,
         view_every: int = VIEW_EVERY) -> FuzzReport:
    """Play ``examples`` games chosen by Hypothesis, checking the invariants after every step.

    ``load(params)`` compiles the game for other params (needed with ``vary_params``);
    ``progress(example, step)`` is called as it goes; ``players`` fixes the number of players.
    The JSON round trip and what observations hide are checked every ``view_every`` steps and at
    the end of every game (they cost more than a step does); the rest after every step.
    Once a game breaks an invariant, Hypothesis shrinks it for at most ``shrink_seconds``;
    the shortest failing game seen is the one reported."""
    report = FuzzReport()
    fixed_players = players
    games: dict[tuple, Game] = {}
    best: list[Failure] = []  # the shortest failure seen so far
    since: list[float] = []  # when the first failure was seen

    def game_for(params: dict[str, int]) -> Game:
        key = tuple(sorted(params.items()))
        if key not in games:
            try:
                games[key] = load(params) if load else game
            except RulesError as e:
                raise found(Failure("params make a valid game", f"with {params}: {e.diagnostics[0].headline()}",
                                    None, game, None, params)) from e
        return games[key]

    def found(failure: Failure) -> Broken:
        if not since:
            since.append(time.perf_counter())
        if not best or _length(failure) < _length(best[0]):
            best[:] = [failure]
        return Broken(failure)

    def broken(g: Game, state: State, params: dict[str, int], invariant: str, message: str,
               at: Optional[list[int]] = None, failed_move: Optional[tuple[Any, str]] = None) -> Broken:
        return found(Failure(invariant, message, at, g, state, params, failed_move))

    def check_views(g: Game, state: State, params: dict[str, int], players: int, when: str) -> None:
        doc = state.to_json()
        try:  # (a state the engine made that it cannot load again is a finding, as one that comes back other)
            again = g.state_from_json(doc).to_json()
        except StateError as e:
            raise broken(g, state, params, "JSON round trip", f"to_json and back fails {when}: {e}") from e
        if again != doc:
            raise broken(g, state, params, "JSON round trip", f"to_json and back differ {when}")
        for seat in range(players):
            shown = hidden_shown(g, state, seat)
            if shown:
                raise broken(g, state, params, "hidden stays hidden", f"seat {seat} sees the cards of {shown} {when}")

    def play(data: Any) -> None:
        try:
            with time_limit():  # (a game that runs on for minutes between steps: found, not shrunk)
                play_one(data)
        except GameTooLong as e:
            found(Failure("ends within the time limit", str(e), None, game, None, dict(game.params)))
            raise _Done from None

    def play_one(data: Any) -> None:
        if since and time.perf_counter() - since[0] > shrink_seconds:
            raise _Done  # shrinking has had its time
        g, params = game, dict(game.params)
        if vary_params:
            params = {p["name"]: data.draw(st.integers(p["lo"], p["hi"]), label=p["name"])
                      for p in game.ir["params"]}
            g = game_for(params)
        players = fixed_players or data.draw(st.integers(g.min_players, g.max_players), label="players")
        report.examples += 1
        report.players[players] = report.players.get(players, 0) + 1
        state = g.new_state(players, chance="explicit")
        cards = total_cards(state)
        failed = broken_after(g, state, state, cards)  # (a game may end with no step at all)
        if failed is not None:
            name, what, at = failed
            raise broken(g, state, params, name, f"{what} at the start (what the rules did before the first step)",
                         at)
        step = 0
        rng = None
        while not state.is_terminal():
            before = state.clone(log=False)  # (its log is added only if it is reported: see logged)
            if state.is_chance_node():
                options = [a for a, _ in state.chance_outcomes()]
            else:
                options = state.legal_actions()
                report.decisions.add(str(state.decision()))
            if not options:
                raise broken(g, state, params, "never stuck", f"seat {state.current_player()} is to decide "
                             f"'{state.decision()}' but has no legal move, and the game is not over")
            if len(options) == 1:
                action = options[0]
            elif step < CHOSEN_STEPS:
                action = options[pick(data, len(options))]
            else:  # a long game: Hypothesis's buffer would run out (and the game be dropped, unseen)
                if rng is None:
                    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="rest of the game"))
                action = options[rng.randrange(len(options))]
            actor = "chance" if state.is_chance_node() else state.current_player()
            try:
                state.apply(action)
            except GameTooLong:
                raise
            except RuleRuntimeError as e:
                raise broken(g, logged(before, state, step), params, "legal actions apply",
                             f"'{action}' stopped the game: {e}", failed_move=(actor, str(action))) from e
            except Exception as e:  # noqa: BLE001 - any other failure of the engine is a finding too
                raise broken(g, logged(before, state, step), params, "legal actions apply",
                             f"'{action}' raised {type(e).__name__}: {e}", failed_move=(actor, str(action))) from e
            step += 1
            report.steps += 1
            if progress is not None:
                progress(report.examples, step)
            failed = broken_after(g, state, before, cards)
            if failed is not None:
                name, what, at = failed
                raise broken(g, state, params, name, f"{what} after step {step} ('{action}', and what the "
                             f"rules did after it)", at)
            # (the round trip costs as much as the game is long: past the chosen steps, at powers of two)
            if step % view_every == 0 and (step <= CHOSEN_STEPS or step & (step - 1) == 0):
                check_views(g, state, params, players, f"after '{action}'")
        check_views(g, state, params, players, "at the end")
        if state.outcome == "step cap":  # as long as the cap, whatever is tried: not worth shrinking
            found(Failure("ends within the step cap", f"no end after {g.max_steps} {g.cap_reached(state)}", None, g,
                          state, params))
            raise _Done
        try:  # the results are rules too: a score may fail, returns declared zero_sum may not add up to 0
            state.returns()
            state.scores()
        except RuleRuntimeError as e:
            raise broken(g, state, params, "results", f"the game ended, but its results fail: {e}") from e
        report.finished += 1
        report.outcomes[state.outcome] = report.outcomes.get(state.outcome, 0) + 1
        again = g.new_state(players, chance="explicit")
        for _, text in state.history():
            again.apply(text)
        if again.to_json() != state.to_json():
            raise broken(g, state, params, "replay", "replaying the history gives another state")

    run = settings(max_examples=examples, database=None, deadline=None, derandomize=seed is None,
                   report_multiple_bugs=False, suppress_health_check=list(HealthCheck))(given(st.data())(play))
    if seed is not None:
        run = hypothesis_seed(seed)(run)
    try:
        run()
    except (Exception, _Done):  # noqa: BLE001 - Broken, _Done, or Hypothesis's report of the failure
        if not best:
            raise
        report.failure = best[0]
    return report


def logged(before: State, state: State, steps: int) -> State:
    """``before`` (a snapshot without its log) with the log of its first ``steps`` actions, taken
    from ``state``, the same game one action on."""
    before.log = state.log[:steps]
    return before


def pick(data: Any, n: int) -> int:
    """An index below ``n`` drawn by Hypothesis. A game draws hundreds of these, so the draw goes
    straight to Hypothesis's choice sequence when that internal API is there (it skips the
    strategy machinery and costs a tenth); else through the public ``data.draw``."""
    raw = getattr(getattr(data, "conjecture_data", None), "draw_integer", None)
    if raw is not None:
        return raw(0, n - 1)
    return data.draw(_index(n))


def _length(failure: Failure) -> int:
    return len(failure.state.history()) if failure.state is not None else 0


@lru_cache(maxsize=None)
def _index(n: int) -> st.SearchStrategy[int]:
    return st.integers(0, n - 1)
