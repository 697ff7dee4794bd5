"""The compiled module (interpreter/module.py): one text per game, the code that runs, shown by
`meeple compile`, its lines in tracebacks, run-time rules errors at their rules line."""

from __future__ import annotations

import ast
import gc
import inspect
import linecache
import random
import re
import traceback
from pathlib import Path

import pytest

import meeple
from meeple.dsl.diagnostics import RuleRuntimeError
from meeple.interpreter.ops import CHOICE
from meeple.tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted([*ROOT.glob("games/*.rules"), *ROOT.glob("games/variants/*.rules")])


def _functions(game) -> dict:
    ns = game.module.ns
    return {k: v for k, v in ns.items() if inspect.isfunction(v) and v.__name__ == k
            and v.__code__.co_filename == game.module.filename}


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_compile_prints_the_module_of_every_bundled_game(path: Path, capsys) -> None:
    assert main(["compile", str(path)]) == 0
    text = capsys.readouterr().out
    ast.parse(text)  # it is Python
    game = meeple.load(str(path))
    assert text == game.module.text()
    lines = text.splitlines()
    defs = [i for i, line in enumerate(lines) if line.startswith("def ")]
    assert len(defs) == len(_functions(game)) > 5
    # every function made for a statement or a declaration names its rules line above it
    named = [i for i in defs if re.match(r"# [\w.-]+\.rules:\d+", lines[i - 1])]
    assert len(named) >= len(defs) - 3, [lines[i] for i in defs if i not in named]


def test_the_text_shown_is_the_code_that_runs() -> None:
    """Each function's code object points at its lines of the module text (linecache serves them)."""
    game = meeple.load(str(ROOT / "games" / "hare.rules"))
    lines = game.module.text().splitlines()
    functions = _functions(game)
    assert functions
    for name, fn in functions.items():
        first = fn.__code__.co_firstlineno
        assert lines[first - 1].startswith(f"def {name}("), name
        assert inspect.getsource(fn).splitlines()[0] == lines[first - 1]


def test_an_empty_square_beside_a_square_is_told_without_reading_its_tile() -> None:
    """A placement test's ``neighbour(t, e) == none`` is a test of the board's keys (``key not in
    _on``), not a read of the tile compared with none."""
    text = meeple.load(str(ROOT / "games" / "luckydog.rules")).module.text()
    assert "(_k + 1 not in _on)" in text
    assert "_at(_k + 1, -1) == (-1)" not in text and "_at(_k + 1, -1) != (-1)" not in text


def test_a_traceback_through_the_game_shows_its_generated_line() -> None:
    game = meeple.load(str(ROOT / "games" / "hare.rules"))
    name, fn = next((n, f) for n, f in _functions(game).items() if "z = st.zones" in inspect.getsource(f))
    with pytest.raises(AttributeError) as info:
        fn(None)  # no state: the first line that reads one fails
    shown = "".join(traceback.format_exception(info.value))
    assert game.module.filename in shown
    assert "z = st.zones" in shown


def test_a_rules_error_at_run_time_names_its_rules_line(tmp_path: Path) -> None:
    rules = tmp_path / "seat.rules"
    rules.write_text('game "Seat"\nplayers 2\nvar who = 0\nsetup {\n  set who = 7\n}\n'
                     'turn {\n  set current = who\n}\nend when who == 1\n', encoding="utf-8")
    game = meeple.load(str(rules))
    with pytest.raises(RuleRuntimeError) as info:
        game.new_state(players=2, seed=1)
    e = info.value
    assert (Path(e.file).name, e.line, e.col) == ("seat.rules", 8, 3)
    assert "not a seat" in str(e)
    assert "seat.rules:8" in game.module.text()


def test_the_module_leaves_linecache_with_its_game() -> None:
    game = meeple.load(str(ROOT / "games" / "hare.rules"))
    filename = game.module.filename
    assert filename in linecache.cache
    del game
    gc.collect()
    assert filename not in linecache.cache


def _play(path: Path, games: int = 3) -> None:
    game = meeple.load(str(path))
    for seed in range(games):
        state = game.new_state(2, seed=seed)
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])


def test_a_nul_byte_in_a_comment_is_shown_escaped_in_the_module(tmp_path: Path) -> None:
    rules = tmp_path / "nul.rules"
    rules.write_bytes(b'game "N"\nplayers 2\nvar x = 0\nturn {\n  set x = x + 1   # a\x00b\n'
                      b'  if x > 3 {\n    end game\n  }\n}\nscore(p) = x\n')
    _play(rules)
    assert "# a\\x00b" in meeple.load(str(rules)).module.text()


@pytest.mark.parametrize("shape", ["loops", "phases"])
def test_loops_nested_past_pythons_limit_still_compile(tmp_path: Path, shape: str) -> None:
    """Python allows 20 nested loops in one function: deeper nests are split across functions."""
    n = 24
    if shape == "loops":
        body = "set x = x + 1"
        for i in reversed(range(n)):
            body = f"for i{i} in 1..1 {{ {body} }}"
        parts, turn = "", body
    else:
        parts = "".join(f"phase p{k} {{ for i{k} in 1..1 {{ run p{k + 1} }} }}\n" for k in range(n))
        parts += f"phase p{n} {{ set x = x + 1 }}\n"
        turn = "run p0"
    rules = tmp_path / "deep.rules"
    rules.write_text(f'game "D"\nplayers 2\nvar x = 0\nturn {{\n  {turn}\n  end game\n}}\n{parts}'
                     "score(p) = x\n", encoding="utf-8")
    state = meeple.load(str(rules)).new_state(2, seed=1)
    assert state.is_terminal() and state.scores() == [1, 1]


def test_an_error_inside_a_route_names_the_statement_that_asked() -> None:
    """A route is one function that several statements call: the error is at the caller."""
    game = meeple.load(str(ROOT / "tests" / "fixtures" / "engine" / "route_error_in_a_shared_route.rules"))
    state = game.new_state(2, seed=0)
    with pytest.raises(RuleRuntimeError) as info:
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
    assert (info.value.line, info.value.col) == (35, 3)  # 'set x = x + trip(current)', not line 32


def test_functions_made_after_loading_are_in_linecache_too() -> None:
    game = meeple.load(str(ROOT / "games" / "hare.rules"))
    define = next(iter(game.sym.defines))
    before = len(game.module.text())
    state = game.new_state(3, seed=1)
    game.query(state, define, *([0] * len(game.sym.defines[define]["params"])))
    assert len(game.module.text()) > before
    assert "".join(linecache.getlines(game.module.filename)) == game.module.text()


SEGMENT_SHAPES = ROOT / "tests" / "fixtures" / "engine" / "segment_shapes.rules"
SEGMENT_LOOPS = ROOT / "tests" / "fixtures" / "engine" / "segment_loops.rules"


def function_text(text: str, start: str) -> str:
    """The source of the module's first function whose name starts with ``start``."""
    found = text[text.index(f"def {start}"):]
    ends = [found.find(mark) for mark in ("\ndef ", "\n# ---- the program")]
    return found[:min(e for e in ends if e >= 0)]


def _step_by_step(game):
    """``game`` with no segment and no decision's turn: State._do and State._advance only (a game
    of chance alone, with no decision, has only its segments taken away)."""
    game.segments = {}
    turns = [spec for op, spec, _ in game.code if op == CHOICE and spec.turn is not None]
    assert turns or not any(op == CHOICE for op, _, _ in game.code), "a game whose decisions have no turn to take away"
    for spec in turns:
        spec.turn = None
    return game


def _played(game, players: int, seed: int):
    """A seeded game played by random legal actions: the state, and the rules error it met, if any."""
    import random
    st, moves = game.new_state(players, seed=seed), random.Random(seed)
    try:
        while not st.is_terminal() and st.legal_actions():
            st.apply(moves.choice(st.legal_actions()))
    except RuleRuntimeError as e:
        return st, (str(e), e.line)
    return st, None


@pytest.mark.parametrize("path", [*BUNDLED, SEGMENT_SHAPES, SEGMENT_LOOPS], ids=lambda p: p.name)
def test_the_seeded_path_after_a_decision_plays_as_the_program_does(path: Path) -> None:
    """A segment (the generated code from a decision to the next, when the state draws chance
    itself) does what State._advance's loop does step by step: the same game, seed for seed."""
    import random
    fast, slow = meeple.load(str(path)), meeple.load(str(path))
    slow.segments = {}
    for _, spec, _ in slow.code:  # (a decision's turn runs the segment after it)
        if getattr(spec, "turn", None) is not None:
            spec.turn = None
    for players in sorted({fast.min_players, fast.max_players}):
        for seed in range(8):
            a, b = fast.new_state(players, seed=seed), slow.new_state(players, seed=seed)
            moves_a, moves_b = random.Random(seed), random.Random(seed)
            while not a.is_terminal():
                a.apply(moves_a.choice(a.legal_actions()))
                b.apply(moves_b.choice(b.legal_actions()))
            assert a.history() == b.history() and a.outcome == b.outcome and a.to_json() == b.to_json()


@pytest.mark.parametrize("cap", [1, 2, 3, 5, 8, 9, 11, 17, 40])
def test_a_step_cap_inside_a_segment_stops_it_where_the_program_does(cap: int, tmp_path: Path) -> None:
    """The step cap reached while the tiles are laid, inside a loop's draws and random picks, or
    in a decision's step: the same outcome, program counter and record on both paths."""
    rules = tmp_path / "loops.rules"
    rules.write_text(SEGMENT_LOOPS.read_text(encoding="utf-8").replace("max_steps 120", f"max_steps {cap}"),
                     encoding="utf-8")
    fast, slow = meeple.load(str(rules)), _step_by_step(meeple.load(str(rules)))
    assert "while next_" in fast.module.text()
    for players in (2, 3):
        for seed in range(6):
            (a, error_a), (b, error_b) = _played(fast, players, seed), _played(slow, players, seed)
            assert error_a == error_b and a.outcome == b.outcome and a.to_json() == b.to_json()


@pytest.mark.parametrize("cap", [1, 3, 10])
@pytest.mark.parametrize("decide", [False, True], ids=["no decision", "a decision every other turn"])
def test_max_steps_n_stops_a_game_after_its_nth_turn_on_both_paths(cap: int, decide: bool, tmp_path: Path) -> None:
    """docs/language.md: a game that reaches N turns (or N steps) ends there: N turns are played,
    not N + 1."""
    rules = tmp_path / "cap.rules"
    rules.write_text(f'game "Cap"\nplayers 2\nmax_steps {cap}\nvar x = 0\nturn {{\n  set x = x + 1\n'
                     + ('  if x % 2 == 0 {\n    choose go {\n      a {\n      }\n      b {\n      }\n    }\n  }\n'
                        if decide else "") + '}\nscore(p) = x\n', encoding="utf-8")
    games = [meeple.load(str(rules))]
    if decide:
        games.append(_step_by_step(meeple.load(str(rules))))
    for game in games:
        st, error = _played(game, 2, 0)
        assert error is None and st.outcome == "step cap", st.outcome
        assert len(st.log) == (cap // 2 if decide else 0)  # (the cap on turns comes first)
        assert st.turns == cap and st.vars[0] == cap, (st.turns, st.vars)
        assert game.why_ended(st) == f"the step cap: {cap} turn{'s' if cap > 1 else ''}"


def test_a_rules_error_in_the_end_after_a_decision_names_the_end_on_both_paths(tmp_path: Path) -> None:
    rules = tmp_path / "end.rules"
    rules.write_text('game "End"\nplayers 2\nvar who = none\nvar w = 0\nzone deck hidden\n'
                     'zone hand per player public\nzone table public\ncards c in deck { 20 a }\n'
                     'setup {\n  for p in player {\n    deal 3 from deck to hand(p)\n  }\n}\n'
                     'turn {\n  if w > 9 {\n    set who = current\n  }\n'
                     '  choose play: 1 card from hand(current) to table\n}\n'
                     'end when count(table) > 1 and count(hand(who)) > 0\n', encoding="utf-8")
    fast, slow = meeple.load(str(rules)), _step_by_step(meeple.load(str(rules)))
    for game in (fast, slow):
        _, error = _played(game, 2, 0)
        assert error is not None and error[1] == 20, error


def test_the_bundled_games_have_segments() -> None:
    assert all(meeple.load(f"games/{name}.rules").segments for name in ("hare", "luckydog"))


def test_a_segment_writes_if_elif_else_and_a_loop_that_starts_by_a_decision() -> None:
    text = meeple.load(str(SEGMENT_SHAPES)).module.text()
    after_step = function_text(text, "turn_step")  # (the decision 'step', and the segment after it)
    after_step = after_step.split("\n        actor = ")[1]  # (the segment: what follows the pick)
    assert after_step.count("elif ") == 2 and "\n        else:\n" in after_step
    # (the loop's next, written out; a random playout goes on into the later decision's turn)
    handed = re.search(r"\n        if _more:\n            if rand is None:\n                return (\d+)\n"
                       r"            st.pc = \1\n            _next = (turn_\w+)\(st, None, rand\)", after_step)
    assert handed and "\n    while True:" in function_text(text, handed[2])
    # (where that turn comes back to this decision, the next turn's first, this one goes round again)
    assert re.search(r"\n            if _next != (\d+):.*\n                return _next\n            st.pc = \1\n"
                     r"            continue\n", after_step)


def test_a_playout_of_lucky_dog_goes_from_decision_to_decision_in_written_out_code(monkeypatch) -> None:
    """Lucky Dog's setup is a loop whose body places a start tile, sets a var (one step),
    chooses a marker and ends by a refill (an ``if`` last in the body): each is written out
    into the turns, so a random playout never goes step by step through ``State._advance``
    (as it did after each start tile and marker), and the game plays as before."""
    game = meeple.load(str(ROOT / "games" / "luckydog.rules"))
    states = [game.new_state(4, seed=seed) for seed in range(5)]
    rounds = []
    monkeypatch.setattr(type(states[0]), "_advance", lambda st: rounds.append(st.pc))
    for seed, st in enumerate(states):
        st.play_out(random.Random(seed))
        assert st.is_terminal()
    assert rounds == []


def test_a_segment_writes_a_loop_of_draws_with_an_if_and_a_loop_inside() -> None:
    text = meeple.load(str(SEGMENT_SHAPES)).module.text()
    after_nod = function_text(text, "turn_nod")
    assert re.search(r"\n        while next_\d+\(st\):\n            if expr_\d+\(st\):\n", after_nod)
    assert re.search(r"\n            while next_\d+\(st\):\n", after_nod)  # the loop inside


def test_a_decisions_turn_picks_takes_and_comes_back_to_it() -> None:
    """A decision's ``turn``: with ``rand`` (what play_out runs) the pick written out, setting
    ``action``; the action applied; the segment after it written out, not called; and where
    the program comes back to the same decision, another round of its loop (given an action,
    as apply gives it, it returns there)."""
    game = meeple.load(str(ROOT / "games" / "hare.rules"))
    turn = function_text(game.module.text(), "turn_play")
    assert turn.count("\n    while True:\n") == 1 and "pick_" not in turn and "action = found[" in turn
    assert "D[i] += k" in turn and "run_" not in turn  # the race written out, under its rules line:
    assert "\n        # hare.rules:79  [race_trigger] if count(table) == table_limit" in turn
    again = r"\n        if rand is None:\n            return (\d+)\n        st.pc = \1\n        continue\n"
    assert re.search(again, turn)
    bet = function_text(game.module.text(), "turn_bet")  # the opening bets: one per player, in a loop
    next_bet = (r"\n        if _more:\n            if rand is None:\n                return (\d+)\n"
                r"            st.pc = \1\n            continue\n")
    assert re.search(next_bet, bet)  # (the loop's next bet: the same decision again)
    assert re.search(r"\n        _next = turn_play_\d+\(st, None, rand\)", bet)  # (after the loop: the turns)


LIMITS = ROOT / "tests" / "fixtures" / "engine" / "limits_known_as_it_runs.rules"


GOOD = sorted((ROOT / "tests" / "fixtures" / "good").glob("*.rules"))


ENGINE = ROOT / "tests" / "fixtures" / "engine"
ODD_SHAPES = [ENGINE / "segment_loops.rules", ENGINE / "names_of_a_run_and_a_label.rules",
              ENGINE / "labels_a_and_a1.rules", ENGINE / "deal_in_twenty_loops.rules", ENGINE / "placements.rules",
              ENGINE / "member_tests.rules", ENGINE / "tile_counts.rules"]


@pytest.mark.parametrize("path", [*BUNDLED, SEGMENT_SHAPES, LIMITS, *ODD_SHAPES, *GOOD], ids=lambda p: p.name)
def test_play_out_is_the_loop_of_uniform_random_actions(path: Path) -> None:
    """``State.play_out(rng)`` (each decision's ``turn``) plays as picking
    ``legal[int(rng.random() * len(legal))]`` at each decision and applying it would (its
    ``step``, or the program step by step), to the end or to a player without a legal action."""
    import random
    game = meeple.load(str(path))
    slow = _step_by_step(meeple.load(str(path)))
    for players in sorted({game.min_players, game.max_players}):
        for seed in range(4):
            a = game.new_state(players, seed=seed)
            a.play_out(random.Random(seed))
            for played in (game, slow):
                b, moves = played.new_state(players, seed=seed), random.Random(seed)
                while not b.is_terminal() and b.legal_actions():
                    legal = b.legal_actions()
                    b.apply(legal[int(moves.random() * len(legal))])
                assert a.is_terminal() == b.is_terminal() and a.history() == b.history() and a.to_json() == b.to_json()
                assert a.returns() == b.returns() if a.is_terminal() else a.legal_actions() == []


def _drawn_one_by_one(game):
    """``game`` step by step, each seeded draw worked out here one card at a time (a card at a
    random place among those left, counted from the first variety; then the draw's test, the
    end, the step cap), not by the compiled code."""
    from meeple.interpreter.moves import CHANCE_ACTOR, Draw

    def one_by_one(draw):
        def run_seeded(st, rng) -> None:
            while True:
                S = draw.source(st)
                r, i = int(rng.random() * sum(S)), 0
                while r >= S[i]:
                    r -= S[i]
                    i += 1
                draw.apply(st, i)
                st.log.append((CHANCE_ACTOR, draw, i))
                more = draw.again(st)
                if not more:
                    st.pc += 1
                if draw.check_end and st.game.end_test(st):
                    st.outcome = "end"
                    return
                if len(st.log) >= st.game.max_steps:
                    st.outcome = "step cap"
                    return
                if not more:
                    return
        return run_seeded

    for _, spec, _ in _step_by_step(game).code:
        if isinstance(spec, Draw):
            spec.run_seeded = one_by_one(spec)
    return game


GOOD_DIR = ROOT / "tests" / "fixtures" / "good"
DRAWS = [ROOT / "games" / "hare.rules", ROOT / "games" / "luckydog.rules", ENGINE / "deal_in_twenty_loops.rules",
         SEGMENT_LOOPS, ENGINE / "short_deck.rules", GOOD_DIR / "dash.rules", GOOD_DIR / "market.rules",
         GOOD_DIR / "fish.rules"]


def test_draws_are_written_as_loops_with_nothing_checked_and_walks_written_out() -> None:
    """Among the games below: draws of cards known in number with nothing checked between two
    cards, beside the checked loop; a card's variety found by tests written out (few
    varieties), and by a loop (many: fish); a refill's cards due worked out once, for its test
    and its draws (hare: the hand counted once a turn), and the source's cards once, for its test
    and its draws (again after a reshuffle)."""
    texts = {path.name: meeple.load(str(path)).module.text() for path in DRAWS}
    assert all("if due <= total and len(log) + due < cap:" in texts[name]
               for name in ("hare.rules", "dash.rules", "market.rules"))
    turn = texts["hare.rules"].split("def turn_play_")[1].split("\ndef ")[0]
    assert turn.count("if due > 0 and ((total := (S[0] + S[1]") == 1 and turn.count("due = 6 - ") == 1
    assert "any(_src" not in turn and turn.count("total = (S[0]") == 1  # (after a reshuffle in the middle of a refill)
    assert "elif r < (c := c + S[" in texts["hare.rules"] and "while r >= S[i]:" in texts["fish.rules"]


@pytest.mark.parametrize("path", DRAWS, ids=lambda p: p.name)
def test_cards_drawn_together_are_the_cards_drawn_one_by_one(path: Path) -> None:
    """A draw of cards known in number, from a source that holds them, is written as a loop
    with nothing checked between two cards, the varieties tried one by one written out: it
    gives the cards, the record and the ends (the game's, the step cap's, even in the middle
    of a deal) that drawing one card at a time gives."""
    import random
    game, slow = meeple.load(str(path)), _drawn_one_by_one(meeple.load(str(path)))
    for cap in (None, 3, 7, 20, 33, 61, 150):
        for played in (game, slow):
            played.max_steps = cap or meeple.load(str(path)).max_steps
        for seed in range(3):
            a, moves = game.new_state(game.max_players, seed=seed), random.Random(seed)
            a.play_out(moves)
            b, moves = slow.new_state(game.max_players, seed=seed), random.Random(seed)
            while not b.is_terminal() and b.legal_actions():
                legal = b.legal_actions()
                b.apply(legal[int(moves.random() * len(legal))])
            assert a.history() == b.history() and a.to_json() == b.to_json() and a.outcome == b.outcome


def test_play_out_needs_a_seeded_state() -> None:
    import random
    game = meeple.load(str(ROOT / "games" / "hare.rules"))
    with pytest.raises(ValueError, match="seed"):
        game.new_state(3, chance="explicit").play_out(random.Random(1))


def test_a_rules_error_in_a_chance_step_of_a_segment_names_that_step(tmp_path: Path) -> None:
    rules = tmp_path / "pick.rules"
    rules.write_text('game "Pick"\nplayers 2\nvar n = 2\nvar v = 0\nzone pile public\nzone heap public\n'
                     'cards c in pile { 9 a }\nturn {\n  choose take: 1 card from pile to heap\n'
                     '  set n = n - 1\n  set v = random 1..n\n}\nend when v == 99\n', encoding="utf-8")
    game = meeple.load(str(rules))
    turn = function_text(game.module.text(), "turn_take")  # the random pick: a step of the segment after 'take'
    assert re.search(r"\n        st.pc = \d+\n        _chance\d+\(st, rng\)\n", turn)
    state = game.new_state(players=2, seed=1)
    state.apply(state.legal_actions()[0])  # n = 1: v is 1
    with pytest.raises(RuleRuntimeError) as info:
        state.apply(state.legal_actions()[0])  # n = 0: 1..0 is empty
    assert (Path(info.value.file).name, info.value.line) == ("pick.rules", 11)
    import random
    with pytest.raises(RuleRuntimeError) as info:  # the same in a playout (the decision's turn)
        game.new_state(players=2, seed=1).play_out(random.Random(1))
    assert (Path(info.value.file).name, info.value.line) == ("pick.rules", 11)


def test_a_rules_error_in_a_refill_written_out_names_the_refill(tmp_path: Path) -> None:
    """A refill written out in a turn works its cards due out before its test: a rules error
    there (a seat that is none) names the refill, not the statement before it."""
    import random
    rules = tmp_path / "fill.rules"
    rules.write_text('game "Fill"\nplayers 2\nvar who = none\nvar n = 0\nzone deck public\n'
                     'zone hand per player hidden\nzone heap public\ncards c in deck { 20 a }\nturn {\n'
                     '  choose take: 1 card from deck to heap\n  set n = n + 1\n'
                     '  if n < 2 { set who = current } else { set who = none }\n'
                     '  refill hand(who) to 3 from deck\n}\nend when n == 9\n', encoding="utf-8")
    game = meeple.load(str(rules))
    assert "if due > 0 and ((total := " in function_text(game.module.text(), "turn_take")
    assert _error_at(lambda: game.new_state(players=2, seed=1).play_out(random.Random(1))) == ("fill.rules", 13, 3)
    state = game.new_state(players=2, seed=1)
    state.apply(state.legal_actions()[0])
    assert _error_at(lambda: state.apply(state.legal_actions()[0])) == ("fill.rules", 13, 3)


def test_a_rules_error_in_the_test_for_another_draw_names_the_refill_with_chance_explicit(tmp_path: Path) -> None:
    """With chance="explicit" a refill waits at each card; the test for another card reads the
    pile to reshuffle, whose seat is none here: the rules error names the refill, as seeded."""
    rules = tmp_path / "again.rules"
    rules.write_text('game "Again"\nplayers 2\nmax_steps 50\nzone deck hidden\nzone hand per player private\n'
                     'zone pile per player public\ncards c in deck {\n  2 a\n}\nvar bad = none\nsetup {\n'
                     '  set bad = seat(0)\n  set bad = none\n}\nturn {\n'
                     '  choose pass: 0..1 card from hand(current) to deck\n'
                     '  refill hand(current) to 3 from deck reshuffling pile(bad)\n}\n', encoding="utf-8")
    game = meeple.load(str(rules))
    for state in (game.new_state(2, chance="explicit"), game.new_state(2, seed=1)):
        assert _error_at(lambda state=state: _first_moves(state, 60)) == ("again.rules", 17, 3), state.rng


def _first_moves(state, n: int) -> None:
    """Take the first legal move, or the first chance outcome, ``n`` times."""
    for _ in range(n):
        state.apply(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])


def _error_at(run) -> tuple[str, int, int]:
    """The rules file, line and column of the rules error ``run()`` raises."""
    with pytest.raises(RuleRuntimeError) as info:
        run()
    return Path(info.value.file).name, info.value.line, info.value.col


# ---- the module's code kept between runs (interpreter/codecache.py) ----

def _cached_load(path: str):
    game = meeple.load(path)
    return game, game.exprs.cache


def test_a_second_load_takes_the_code_from_the_cache(tmp_path: Path, monkeypatch) -> None:
    import random
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("MEEPLE_NO_CACHE", raising=False)
    first, cache = _cached_load("games/hare.rules")
    assert cache.hits == 0 and cache.misses > 20
    assert len(list((tmp_path / "meeple" / "module").iterdir())) == 1
    second, cache = _cached_load("games/hare.rules")
    assert cache.misses == 0 and cache.hits == len(_functions(second)) > 20
    assert second.module.text() == first.module.text()
    for fn in _functions(second).values():  # the code is the new module's: its lines, its name
        assert fn.__code__.co_filename == second.module.filename != first.module.filename
        assert linecache.getline(second.module.filename, fn.__code__.co_firstlineno).startswith("def ")
    histories = []
    for game in (first, second):
        state, moves = game.new_state(4, seed=3), random.Random(3)
        while not state.is_terminal():
            state.apply(moves.choice(state.legal_actions()))
        histories.append(state.history())
    assert histories[0] == histories[1]


def test_code_is_taken_only_for_the_text_and_line_it_was_compiled_for(tmp_path: Path, monkeypatch) -> None:
    """An entry's code is found by its text and its first line: other text (made by a meeple
    whose front end changed, say) or the same text at another line finds none, and is compiled."""
    from meeple.interpreter.codecache import ModuleCache
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    src = "def f(st):\n    return 1\n"
    cache = ModuleCache("k", "<meeple x #1>")
    cache.keep_code(src, 3, compile("\n\n" + src, "<meeple x #1>", "exec"))
    cache.save()
    again = ModuleCache("k", "<meeple x #2>")
    code = again.code(src, 3)
    assert code is not None and code.co_filename == "<meeple x #2>"
    assert again.code(src, 4) is None and again.code(src.replace("1", "2"), 3) is None
    assert (again.hits, again.misses) == (1, 2)


@pytest.mark.parametrize("damage", [b"", b"not marshal", b"\x00" * 40, "a byte changed"])
def test_a_damaged_entry_is_ignored_and_written_again(tmp_path: Path, monkeypatch, damage) -> None:
    """An entry starts with a hash of the rest: a damaged one is not read (a changed byte in
    marshalled code could crash Python)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("MEEPLE_NO_CACHE", raising=False)
    first, _ = _cached_load("games/luckydog.rules")
    entry = next((tmp_path / "meeple" / "module").iterdir())
    if damage == "a byte changed":
        data = bytearray(entry.read_bytes())
        data[len(data) // 2] ^= 0xFF
        damage = bytes(data)
    entry.write_bytes(damage)
    again, cache = _cached_load("games/luckydog.rules")
    assert cache.hits == 0 and again.module.text() == first.module.text()
    assert _cached_load("games/luckydog.rules")[1].misses == 0  # written again


def test_no_module_cache_when_asked(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("MEEPLE_NO_CACHE", "1")
    meeple.load("games/hare.rules")
    assert not (tmp_path / "meeple" / "module").exists()


def test_another_param_is_another_entry(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("MEEPLE_NO_CACHE", raising=False)
    meeple.load("games/luckydog.rules")
    meeple.load("games/luckydog.rules", {"goal": 20})
    assert len(list((tmp_path / "meeple" / "module").iterdir())) == 2


def test_the_cache_keeps_a_bounded_number_of_games(tmp_path: Path, monkeypatch) -> None:
    from meeple.interpreter import codecache
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(codecache, "ENTRIES_KEPT", 2)
    for key in "abc":
        cache = codecache.ModuleCache(key, "<m>")
        cache.keep_names("x", {"y"})
        cache.save()
    assert len(list((tmp_path / "meeple" / "module").iterdir())) == 2


def test_a_tracks_tiles_laid_at_once_are_the_tiles_one_at_a_time_gives() -> None:
    """The generated seeded path of a track's tiles (lay_N) against the chance event's general one
    (one tile per step of the program): the same random picks, the same positions."""
    import types

    from meeple.interpreter.moves import OneShot, TileLay
    from meeple.interpreter.ops import CHANCE
    fast, slow = meeple.load("games/hare.rules"), meeple.load("games/hare.rules")
    lays = [a for op, a, _ in slow.code if op == CHANCE and isinstance(a, TileLay)]
    assert lays
    for lay in lays:
        lay.run_seeded = types.MethodType(OneShot.run_seeded, lay)
    slow.segments = {}
    for seed in range(30):
        a, b = fast.new_state(4, seed=seed), slow.new_state(4, seed=seed)
        assert a.history() == b.history() and a.tags == b.tags and a.to_json() == b.to_json()


def _same_code(a, b) -> bool:
    inner_a = [c for c in a.co_consts if hasattr(c, "co_code")]
    inner_b = [c for c in b.co_consts if hasattr(c, "co_code")]
    plain_a = [c for c in a.co_consts if not hasattr(c, "co_code")]
    plain_b = [c for c in b.co_consts if not hasattr(c, "co_code")]
    return (a.co_code == b.co_code and list(a.co_positions()) == list(b.co_positions())
            and (a.co_names, a.co_varnames) == (b.co_names, b.co_varnames) and plain_a == plain_b
            and len(inner_a) == len(inner_b) and all(_same_code(x, y) for x, y in zip(inner_a, inner_b)))


@pytest.mark.parametrize("name", ["hare", "luckydog"])
def test_each_function_is_the_code_of_its_text(name: str, monkeypatch) -> None:
    """A function's body is parsed once and its preamble put into the tree (``define``): the code
    must be what compiling its text at its line gives, positions included (tracebacks use them)."""
    monkeypatch.setenv("MEEPLE_NO_CACHE", "1")  # compiled here, not read from an earlier run
    game = meeple.load(f"games/{name}.rules")
    for fn in _functions(game).values():
        tree = ast.parse(fn.source)
        ast.increment_lineno(tree, fn.__code__.co_firstlineno - 1)
        code = next(c for c in compile(tree, game.module.filename, "exec").co_consts if hasattr(c, "co_code"))
        assert _same_code(code, fn.__code__), fn.__name__


def test_a_rules_error_in_a_straight_run_written_out_in_a_turn_names_its_statement(tmp_path: Path) -> None:
    """A straight run after a decision is written out in the decision's turn; a rules error in
    it names the statement that failed (not the run's first, nor the decision), on every path."""
    import random
    rules = tmp_path / "who.rules"
    rules.write_text('game "Who"\nplayers 2\nvar who = none\nvar w = 0\nvar c = 0\nzone deck hidden\n'
                     'zone hand per player public\nzone table public\ncards c in deck { 20 a }\n'
                     'setup {\n  for p in player {\n    deal 3 from deck to hand(p)\n  }\n}\n'
                     'turn {\n  choose play: 1 card from hand(current) to table\n  set w = w + 1\n'
                     '  if w > 1 {\n    set c = count(hand(who))\n  }\n  if w > 9 {\n    set who = current\n  }\n}\n'
                     'end when count(table) > 5\n', encoding="utf-8")
    game = meeple.load(str(rules))
    turn = function_text(game.module.text(), "turn_play")
    assert "count(hand(who))" in turn  # (the run written out, its rules line above it)
    for played in (game, _step_by_step(meeple.load(str(rules)))):
        state = played.new_state(2, seed=1)
        with pytest.raises(RuleRuntimeError) as info:
            while True:
                state.apply(state.legal_actions()[0])
        assert info.value.line == 19
    with pytest.raises(RuleRuntimeError) as info:
        game.new_state(2, seed=1).play_out(random.Random(1))
    assert info.value.line == 19


def test_two_labels_one_a_prefix_of_the_other_are_two_decisions() -> None:
    """``a1`` and ``a``: their names in the module are two (a fresh name is never one given
    before, as ``_a1`` + 2 and ``_a`` + 12 would be), so each decision logs itself."""
    import random
    game = meeple.load(str(ENGINE / "labels_a_and_a1.rules"))
    state = game.new_state(2, seed=0)
    state.play_out(random.Random(0))
    labels = [text.split()[0] for _, text in state.history()[:6]]
    assert labels == ["a1", "a"] * 3


def test_a_deal_twenty_loops_deep_after_a_decision_compiles() -> None:
    """Written out in the decision's turn, the loops would nest past Python's limit: the turn
    takes the decision only, and the state runs the program from there step by step (the
    game plays the same: test_play_out_is_the_loop_of_uniform_random_actions)."""
    game = meeple.load(str(ENGINE / "deal_in_twenty_loops.rules"))
    turn = function_text(game.module.text(), "turn_play")
    assert "while next_" not in turn and re.search(r"\n        return \d+\n", turn)


OPTION_GAMES = [ROOT / "games" / "luckydog.rules", ROOT / "games" / "leduc.rules", ROOT / "games" / "slipstream.rules",
                ENGINE / "segment_shapes.rules", ENGINE / "member_tests.rules",
                *(p for p in GOOD if p.stem in ("bluff", "eights", "fish", "knockout", "ring", "tictac", "tricks"))]


@pytest.mark.parametrize("path", OPTION_GAMES, ids=lambda p: p.name)
def test_a_choice_among_options_picks_for_a_random_playout_the_action_the_list_would_give(path: Path) -> None:
    """A random playout picks an option and its values by counting (program.option_pick, written
    into the decision's turn), making only the action's payload: at every such decision of seeded games, for
    numbers across [0, 1), the first step the turn takes is ``legal[int(r * len(legal))]``."""
    import random
    from meeple.interpreter.moves import OptionChoice
    game = meeple.load(str(path))
    seen = 0
    for players in sorted({game.min_players, game.max_players}):
        for seed in range(4):
            st, moves = game.new_state(players, seed=seed), random.Random(seed)
            while not st.is_terminal() and st.legal_actions():
                legal = st.legal_actions()
                spec = legal[0].spec
                if isinstance(spec, OptionChoice) and spec.turn is not None:
                    for r in (0.0, 0.13, 0.5, 0.77, 0.999999):
                        after = st.clone()
                        try:
                            spec.turn(after, None, lambda r=r: r)
                        except RuleRuntimeError:
                            pass  # (later in the turn: the step taken first is what is compared)
                        assert after.log_payload[len(st.log_payload)] == legal[int(r * len(legal))].payload
                    seen += 1
                st.apply(moves.choice(legal))
    assert seen >= 10


# Lucky Dog with a route that asks whether a tile holds a marker, a route asked in an option's
# test, and a per-tile var looked up over the table.
LUCKY_DOG_ASKING = {
    "blocked(t) = closed(t) ": "blocked(t) = closed(t) or has_marker(t) ",
    "accelerate where count(hand(current) where target_change < 0) >= 1 {":
        "accelerate where count(hand(current) where target_change < 0) >= 1 and drive(current) < target(current) {",
    "and not policed(u) and": "and not policed(u) and not any(closed(v) == true for v in table) and",
}


@pytest.mark.parametrize("name", ["luckydog", "member_tests", "luckydog_asking"])
def test_a_test_whether_a_value_is_some_items_var_gives_what_it_does_item_by_item(name: str, monkeypatch,
                                                                                  tmp_path: Path) -> None:
    """``any(v(q) == x for q in D)`` in an option's test is made a set once per decision
    (ExprCompiler.member_test), but inside a range, a route or a lambda: the legal actions at
    every decision of seeded games are those of the same rules compiled without it."""
    import random
    from meeple.interpreter.expressions import ExprCompiler
    monkeypatch.setenv("MEEPLE_NO_CACHE", "1")
    path = ENGINE / "member_tests.rules" if name == "member_tests" else ROOT / "games" / "luckydog.rules"
    if name == "luckydog_asking":
        text = path.read_text(encoding="utf-8")
        for old, new in LUCKY_DOG_ASKING.items():
            assert old in text
            text = text.replace(old, new)
        path = tmp_path / "asking.rules"
        path.write_text(text, encoding="utf-8")
    game = meeple.load(str(path))
    assert " in (_S" in game.module.text()
    monkeypatch.setattr(ExprCompiler, "member_test", lambda self, e, env, dom: None)
    plain = meeple.load(str(path))
    assert " in (_S" not in plain.module.text()
    decisions = 0
    for players in sorted({game.min_players, game.max_players}):
        for seed in range(6):
            a, b, moves = game.new_state(players, seed=seed), plain.new_state(players, seed=seed), random.Random(seed)
            while not a.is_terminal() and a.legal_actions():
                legal = a.legal_actions()
                assert [x.payload for x in legal] == [x.payload for x in b.legal_actions()]
                move = moves.choice(legal)
                a.apply(move)
                b.apply(move.text)
                decisions += 1
    assert decisions > 100


@pytest.mark.parametrize("path", [ENGINE / "player_aggregates.rules", ROOT / "games" / "luckydog.rules"],
                         ids=lambda p: p.name)
def test_any_and_all_over_the_players_written_seat_by_seat_give_what_the_aggregate_gives(
        path: Path, monkeypatch) -> None:
    """``any``/``all`` over the players is written seat by seat (ExprCompiler.unroll_players), the
    seats past the least number of players tested only when the game has them: at every
    decision of seeded games, for every number of players, the legal actions, the outcome
    and any rules error (the seat whose term fails first, in seat order) are those of the
    same rules compiled with the aggregates as they are."""
    import random
    from meeple.interpreter.expressions import ExprCompiler
    monkeypatch.setenv("MEEPLE_NO_CACHE", "1")
    game = meeple.load(str(path))
    assert "(st.players > " in game.module.text()
    monkeypatch.setattr(ExprCompiler, "unroll_players", lambda self, func, e, env: None)
    plain = meeple.load(str(path))
    assert "(st.players > " not in plain.module.text()

    def step(st, move=None):
        try:
            if move is not None:
                st.apply(move)
            return [x.payload for x in st.legal_actions()] if not st.is_terminal() else None
        except RuleRuntimeError as e:
            return str(e)

    errors = decisions = 0
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(8):
            a, b, moves = game.new_state(players, seed=seed), plain.new_state(players, seed=seed), random.Random(seed)
            seen = step(a)
            while isinstance(seen, list) and seen:
                assert step(b) == seen
                move = moves.choice(a.legal_actions())
                seen = step(a, move)
                assert step(b, move.text) == seen
                decisions += 1
            errors += isinstance(seen, str)
            assert a.outcome == b.outcome and a.history() == b.history()
    assert decisions > 100 and (errors > 0 or path.stem == "luckydog")


def test_a_count_of_the_tiles_whose_flag_is_set_is_the_tiles_counted_one_by_one() -> None:
    """``count(flag(t) for t in table)`` is counted in C (``len - count(False)``): at every step of
    seeded games, with flags set and cleared, it is the number of tiles whose flag is true."""
    import random
    game = meeple.load(str(ENGINE / "tile_counts.rules"))
    assert "count(False)" in game.module.text()
    steps = 0
    for seed in range(8):
        st, moves = game.new_state(2, seed=seed), random.Random(seed)
        while not st.is_terminal() and st.legal_actions():
            tiles = range(len(st.grid.x))
            for define, var in (("flagged", "flag"), ("opened", "open_road")):
                k = game.layout.tile_var_names.index(var)
                assert game.query(st, define) == sum(1 for t in tiles if st.grid.tv[k][t])
            st.apply(moves.choice(st.legal_actions()))
            steps += 1
    assert steps > 40


def test_an_ir_document_shows_no_file_beside_the_code_and_its_title_stays_in_the_docstring(tmp_path: Path,
                                                                                               capsys) -> None:
    """The module shows the lines of the rules files the loader read, and no other: an IR
    document's "sources" name files (shown by name, as the rules' files) but are not read (one
    could name any file of the machine). A title with quotes, backslashes and control characters
    stays text in the module's docstring: the module printed is Python whose only statements are
    the game's."""
    import json
    import subprocess
    import sys
    secret = tmp_path / "secret.txt"
    secret.write_text("".join(f"a secret line {i}\n" for i in range(200)), encoding="utf-8")
    assert main(["ir", str(ROOT / "games" / "slipstream.rules")]) == 0
    doc = json.loads(capsys.readouterr().out)
    doc["sources"] = [str(secret)]
    doc["title"] = 'X"""\nimport sys; sys.exit(7)\n"""\x1b[31m\\'
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["compile", str(path), "-o", str(tmp_path / "g.py")]) == 0
    text = (tmp_path / "g.py").read_text(encoding="utf-8")
    assert "a secret line" not in text and "# secret.txt:" in text
    assert "\x1b" not in text
    tree = ast.parse(text)
    assert ast.get_docstring(tree, clean=False).startswith(doc["title"] + ": the game")  # (written with escapes)
    assert not any(isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) for node in tree.body)
    r = subprocess.run([sys.executable, str(tmp_path / "g.py")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    # a rules file: its own lines beside the code
    assert main(["compile", str(ROOT / "games" / "slipstream.rules")]) == 0
    assert "# slipstream.rules:30  set current = 0" in capsys.readouterr().out


WARM_COUNTS = """
game "t"
players 2..3
zone deck hidden
zone hand per player public
zone pile public
cards c in deck { 6 red { colour = 1 }  6 green { colour = 2 }  6 blue { colour = 3 }  6 black { colour = 4 } }
var total per player = 0
define warm(p) = count(hand(p) where colour <= 3)
define richest = first(q for q in player where warm(q) >= warm(current))
define steps = sum(i for i in 1..count(hand(current) where colour <= 3))
define held_while = count(true for i in 1..5 while count(hand(current) where colour <= 3) >= i)
define tri(n) = sum(i for i in 1..n)
define upto(n) = count(true for i in 1..5 while i <= n)
setup { for p in player { deal 4 from deck to hand(p) } }
turn {
  choose move: 1 card from hand(current) to pile
  set total(current) = total(current) + steps + held_while + count(hand(richest) where colour <= 3)
                       + tri(count(hand(current) where colour <= 3)) + upto(count(hand(current) where colour <= 3))
  refill hand(current) to 4 from deck
  if count(deck) == 0 { end game }
}
"""


@pytest.mark.parametrize("seeded", [True, False])
def test_a_count_of_some_varieties_of_a_players_zone_is_right_wherever_it_stands(tmp_path: Path, seeded) -> None:
    """Counts of a few varieties of a per-player zone, written where Python allows no ``:=``
    (the range of a generator, a ``while``, which is a lambda) directly or through a define's
    argument, and as the seat of the zone counted. Each total must be what the counts of the
    hands give."""
    path = tmp_path / "game.rules"
    path.write_text(WARM_COUNTS)
    g = meeple.load(str(path))
    warm_ids = [g.layout.variety_names.index(v) for v in ("red", "green", "blue")]
    totals_checked = 0
    for seed in range(12):
        st = g.new_state(3, seed=seed) if seeded else g.new_state(3, chance="explicit")
        rng = __import__("random").Random(seed)
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply(rng.choice(outcomes)[0])
                continue
            action = rng.choice(st.legal_actions())
            me, played = st.current, action.payload[0][0]
            hands = [list(st.zones[st.zone_base[g.layout.zone_names.index("hand")] + q]) for q in range(3)]
            hands[me][played] -= 1
            warm = [sum(h[i] for i in warm_ids) for h in hands]
            richest = next(q for q in [(me + k) % 3 for k in range(3)] if warm[q] >= warm[me])
            triangle = warm[me] * (warm[me] + 1) // 2
            expected = st.var("total", me) + 2 * triangle + 2 * min(warm[me], 5) + warm[richest]
            st.apply(action)
            assert st.var("total", me) == expected, (seed, me)
            totals_checked += 1
    assert totals_checked > 100


def test_a_set_made_for_an_option_in_a_defines_argument_compiles(tmp_path: Path) -> None:
    """An option's test may look a value up in a set made once (``x in _SN``, made by ``:=``); in
    the argument of a define that writes it into the range of a generator, Python refuses ``:=``,
    and the game failed to load (an internal error). A define's arguments make no such set."""
    path = tmp_path / "game.rules"
    path.write_text("""
game "t"
players 2
zone deck hidden
zone hand per player public
cards c in deck { 6 red { colour = 1 }  6 green { colour = 2 }  6 blue { colour = 3 } }
var limit per player = 1
define low(z) = sum(c.colour for c in z where c.colour <= limit(current))
setup { deal 4 from deck to hand(current) }
turn {
  choose act {
    go q in player where low(hand(if any(limit(r) == 3 for r in player) then q else current)) >= 0 {
      set limit(q) = limit(q) + 1
    }
  }
  if limit(current) >= 3 { end game }
}
""")
    g = meeple.load(str(path))
    st = g.new_state(2, seed=1)
    st.play_out(__import__("random").Random(1))
    assert st.is_terminal() and st.var("limit", 0) + st.var("limit", 1) >= 3


CHOICE_OVER_CARDS = '''game "Clash"
players 2
max_steps 60
zone deck hidden
zone hand per player private
zone pile public
cards c in deck {
  6 red { warm }
  6 blue { warm }
  6 green
}
setup {
  for p in player { deal 3 from deck to hand(p) }
}
turn {
  choose act {
    two q in player, a in hand(q), b in hand(q), c in hand(q), d in hand(q)
        where count(hand(q) where warm) > 0 and a != b {
      move a to pile
    }
    skip { }
  }
  if count(pile) > 5 { end game }
}
score(p) = count(hand(p))
'''

SEAT_OF_A_BIGGER_GAME = '''game "Seat"
players 2..4
max_steps 200
zone deck hidden
zone pile public
zone hand per player private
cards c in deck {
  8 red { warm }
  8 blue
}
var n = 0
setup {
  for p in player { deal 2 from deck to hand(p) }
}
turn {
  choose act {
    a where any(count(hand(p) where warm) > 1 for p in player) {
      set n = n + 1
    }
    b { set n = n + 2 }
  }
  deal 1 from deck to hand(current)
  if n > 20 or count(deck) == 0 { end game }
}
score(p) = count(hand(p))
'''


@pytest.mark.parametrize("text", [CHOICE_OVER_CARDS, SEAT_OF_A_BIGGER_GAME], ids=["names", "seats"])
def test_values_read_once_in_a_choice_compile_and_exist_at_every_player_count(text: str, tmp_path: Path) -> None:
    """Found by review: a zone counted once (``:=``) took a name that a choice's loops over cards
    also use (Python refused the module), and a zone of seat 3 read once where a choice starts
    was read in a game of 2 players too (IndexError). Each game plays at every player count, the
    compiled path as the step-by-step one."""
    import random
    path = tmp_path / "g.rules"
    path.write_text(text)
    fast = meeple.load(str(path))
    slow = _step_by_step(meeple.load(str(path)))
    for players in range(fast.min_players, fast.max_players + 1):
        for seed in range(4):
            a, b = fast.new_state(players, seed=seed), slow.new_state(players, seed=seed)
            a.play_out(random.Random(seed))
            moves = random.Random(seed)
            while not b.is_terminal() and b.legal_actions():
                b.apply(b.legal_actions()[int(moves.random() * len(b.legal_actions()))])
            assert a.is_terminal() and a.history() == b.history()


def test_the_record_is_one_list_and_its_columns_are_read_from_it() -> None:
    """``State.log`` holds one (actor, kind, payload) entry per step; the three columns of the
    record's older form are read from it, for code that reads them."""
    import random
    game = meeple.load(str(ROOT / "games" / "hare.rules"))
    st = game.new_state(4, seed=3)
    st.play_out(random.Random(3))
    assert st.log and all(isinstance(entry, tuple) and len(entry) == 3 for entry in st.log)
    assert st.log_actor == [a for a, _, _ in st.log] and st.log_payload == [p for _, _, p in st.log]
    assert st.log_spec == [s for _, s, _ in st.log] and "chance" in st.log_actor and 0 in st.log_actor
    assert [(a, s.text(p)) for a, s, p in st.log] == st.history()
    again = game.state_from_json(st.to_json())
    assert again.history() == st.history() and again.log_spec == [None] * len(st.log)


def test_move_one_card_written_out_moves_one_if_there_is_one(tmp_path: Path) -> None:
    """``move 1 v from A to B`` (written out in the module, not called): one card when A has one,
    none when it has none, and nothing changes from a zone to itself."""
    rules = tmp_path / "one.rules"
    rules.write_text('game "One"\nplayers 2\nzone deck hidden\nzone table public\nzone hand per player public\n'
                     'cards c in deck { 2 a\n 1 b }\nsetup {\n  move 1 a from deck to table\n'
                     '  move 1 b from deck to deck\n  move 1 a from deck to table\n  move 1 a from deck to table\n'
                     '  move 1 b from deck to hand(current)\n  move 1 b from deck to hand(current)\n}\n'
                     'turn {\n  choose go {\n    stop {\n      end game\n    }\n  }\n}\n', encoding="utf-8")
    game = meeple.load(str(rules))
    assert "_move_cards(" not in game.module.text() and "if _S[" in game.module.text()
    st = game.new_state(2, seed=1)
    assert st.zone("table") == {"a": 2} and st.zone("deck") == {}
    assert st.zone("hand", st.current) == {"b": 1}


def test_a_rules_error_in_a_loops_test_written_into_a_segment_names_the_loop(tmp_path: Path) -> None:
    """A ``for ... where`` whose next step a segment writes out (``_more``) and whose test meets
    a rules error names the loop's line, as the call of its function did."""
    rules = tmp_path / "loop.rules"
    rules.write_text('game "Loop"\nplayers 2\nvar who = none\nzone deck hidden\nzone hand per player public\n'
                     'zone table public\ncards c in deck { 20 a }\nend when count(table) > 9\nsetup {\n'
                     '  for p in player {\n    deal 3 from deck to hand(p)\n  }\n}\nturn {\n'
                     '  if count(table) > 50 {\n    set who = current\n  }\n'
                     '  for i in 1..3 where count(hand(who)) > 0 {\n'
                     '    choose play: 1 card from hand(current) to table\n  }\n}\n', encoding="utf-8")
    fast, slow = meeple.load(str(rules)), _step_by_step(meeple.load(str(rules)))
    assert "_more = True" in fast.module.text()
    for game in (fast, slow):
        with pytest.raises(RuleRuntimeError) as caught:
            game.new_state(2, seed=1)
        assert caught.value.line == 18 and "var 'who' holds none" in str(caught.value)


def test_a_move_stopping_at_a_tag_written_out_moves_as_the_engine_does(tmp_path: Path) -> None:
    """``move p by n stopping at tag`` on a track that is no circuit is written out in the module:
    from every space and by every count (backwards too, and past the finish) the piece ends where
    ``State.move_piece`` puts it, and a stop is told only when the tag cut the move short."""
    rules = tmp_path / "stop.rules"
    rules.write_text('game "Stop"\nplayers 2\nparam by = 0 in -3..9 "spaces"\n'
                     'track lane {\n  spaces 6\n  mud at 3, 5\n}\npieces runner on lane { a b }\n'
                     'setup {\n  move a by by stopping at mud\n}\n'
                     'turn {\n  choose go {\n    stop {\n      end game\n    }\n  }\n}\n', encoding="utf-8")
    for by in range(-3, 10):
        game = meeple.load(str(rules), params={"by": by})
        assert "_move_piece(" not in game.module.text() and "for _s in range(" in game.module.text()
        start = game._start(2)
        for at in range(0, 8):
            written, engine = start.clone(log=False), start.clone(log=False)
            written.rng = random.Random(0)
            written.pos[0] = engine.pos[0] = at
            heard, told = [], []
            written.listen, engine.listen = heard.append, told.append
            written._advance()
            engine.move_piece(0, 0, by, "mud")
            assert (written.pos[0], written.place[0], written.podium) == (engine.pos[0], engine.place[0], engine.podium)
            assert heard == told, (by, at)


def test_a_turn_hands_on_only_to_a_later_turn_that_hands_on_to_none(tmp_path: Path) -> None:
    """A turn that goes on to a later decision calls that decision's turn in a random playout
    (``_handed_on``), and only one that calls no other: a playout goes one call deeper at most,
    however many decisions the program has (three in a row below)."""
    rules = tmp_path / "three.rules"
    rules.write_text('game "Three"\nplayers 2\nvar n = 0\nend when n >= 30\nturn {\n' + "".join(
        f'  choose {d} {{\n    one {{\n      set n = n + 1\n    }}\n    two {{\n      set n = n + 2\n    }}\n  }}\n'
        for d in ("first", "second", "third")) + '}\n', encoding="utf-8")
    handing = 0
    for path in ["games/luckydog.rules", "games/hare.rules", str(SEGMENT_SHAPES), str(rules)]:
        game = meeple.load(path)
        text = game.module.text()
        for spec in (spec for op, spec, _ in game.code if op == CHOICE):
            called = re.findall(r"(?:return|_next =) (turn_\w+)\(st, None, rand\)",
                                function_text(text, spec.turn.__name__))
            handing += bool(called)
            assert spec.turn.hands_on == bool(called)
            assert all("(on to its decision)" not in function_text(text, name) for name in called), path
    assert handing >= 2


def test_a_count_of_cards_compared_with_0_or_1_stops_at_the_first_variety_held(tmp_path: Path) -> None:
    """``count(zone) >= 1`` and the other tests that a count is or is not 0 are written as the
    counts joined by ``or`` (or ``any(zone)``), not added up: for every hand they say what the
    sum would."""
    tests = {"ge1": ">= 1", "gt0": "> 0", "ne0": "!= 0", "eq0": "== 0", "lt1": "< 1", "le0": "<= 0"}
    mine = "count(hand(current) where good)"
    reports = "".join(f'report "{k}" = {mine} {t}\n' for k, t in tests.items())
    reports += (f'report "flipped" = 1 <= {mine}\nreport "zero" = 0 == {mine}\nreport "two" = {mine} >= 2\n'
                'report "all" = count(hand(current)) >= 1\nreport "none" = count(hand(current)) == 0\n')
    rules = tmp_path / "held.rules"
    rules.write_text('game "Held"\nplayers 2\nzone deck public\nzone hand per player public\n'
                     'cards c in deck { 3 a { good }\n 3 b { good }\n 2 n }\nend when count(deck) == 0\n' + reports +
                     'turn {\n  choose play: 1 card from deck to hand(current)\n}\n', encoding="utf-8")
    game = meeple.load(str(rules))
    assert " or " in game.module.text() and "any(" in game.module.text()
    st = game.new_state(2, seed=1)
    for a in range(3):
        for b in range(3):
            for n in range(2):
                st.set_zone("hand", {"a": a, "b": b, "n": n}, seat=st.current)
                good, every = a + b, a + b + n
                expected = {"ge1": good >= 1, "gt0": good > 0, "ne0": good != 0, "eq0": good == 0,
                            "lt1": good < 1, "le0": good <= 0, "flipped": good >= 1, "zero": good == 0,
                            "all": every >= 1, "none": every == 0, "two": good >= 2}
                assert game.report_values(st) == expected, (a, b, n)


def test_a_sum_over_the_cards_of_a_zone_written_out_adds_each_varietys_value(tmp_path: Path) -> None:
    """``sum(c.v for c in zone)`` over the few varieties a zone can hold is written out term by
    term (``2 * Z[1] - Z[0]``, a zone worked out read once): for every hand it is the sum of
    each card's value, values below 0, of 1 and of 0 among them."""
    rules = tmp_path / "sum.rules"
    rules.write_text('game "Sum"\nplayers 2\nzone deck public\nzone hand per player public\n'
                     'cards c in deck { 3 minus { v = -1 }\n 3 twice { v = 2 }\n 2 zero { v = 0 }\n 2 one { v = 1 }\n'
                     ' 2 less { v = -3 } }\nend when count(deck) == 0\n'
                     'report "mine" = sum(c.v for c in hand(current))\n'
                     'report "more" = 10 + sum(c.v for c in hand(current))\n'
                     'turn {\n  choose play: 1 card from deck to hand(current)\n}\n', encoding="utf-8")
    game = meeple.load(str(rules))
    assert ":= z[" in game.module.text()  # (the hand read once)
    st = game.new_state(2, seed=1)
    values = {"minus": -1, "twice": 2, "zero": 0, "one": 1, "less": -3}
    for hand in ({}, {"minus": 2}, {"twice": 3, "minus": 1}, {"zero": 2, "one": 1}, {"less": 2, "twice": 1},
                 {"minus": 3, "twice": 3, "zero": 2, "one": 2, "less": 2}):
        st.set_zone("hand", hand, seat=st.current)
        total = sum(values[v] * k for v, k in hand.items())
        assert game.report_values(st) == {"mine": total, "more": 10 + total}, hand


def test_a_rules_error_in_a_turn_handed_on_to_names_its_decision(tmp_path: Path) -> None:
    """A turn that a playout reaches from the turn before it (``_handed_on``) and that fails
    before any statement of its own (here its source, ``hand(who)``, with ``who`` none) names its
    decision, as it does when the state takes the actions one by one."""
    rules = tmp_path / "handed.rules"
    rules.write_text('game "Handed"\nplayers 2..3\nzone pool public\nzone hand per player private\n'
                     'zone table public\nvar most = 1\nvar who = none\nvar n = 0\n'
                     'cards gem in pool {\n  6 ruby { colour = 1 }\n  6 jade { colour = 2 }\n}\n'
                     'turn {\n  choose take: 0..most cards of one colour from pool to hand(current)\n'
                     '  choose give: 0..2 cards from hand(who) to table\n  set most = most % 5 + 1\n'
                     '  set n = n + 1\n  if n < 3 {\n    set who = current\n  } else {\n    set who = none\n  }\n'
                     '}\nend when count(table) >= 9\n', encoding="utf-8")
    game = meeple.load(str(rules))
    assert "(on to its decision)" in game.module.text()
    for seed in range(3):
        with pytest.raises(RuleRuntimeError) as played_out:
            game.new_state(2, seed=seed).play_out(random.Random(seed))
        st, moves = game.new_state(2, seed=seed), random.Random(seed)
        with pytest.raises(RuleRuntimeError) as applied:
            while not st.is_terminal():
                st.apply(moves.choice(st.legal_actions()))
        assert (played_out.value.line, played_out.value.col) == (applied.value.line, applied.value.col) == (15, 3)


def test_counts_read_often_are_read_once_into_locals_and_give_the_choices_judged_as_written() -> None:
    """A card choice whose limits read the counts of its source and destination at least half as
    many times as the game has varieties, and once more, reads each zone into locals first (``s0, s1, ... = S``;
    capacity.py, ``_Writer.twice``); its legal actions are still those of the choice judged as
    written (``CardChoice.legal``), in every position a few games reach, and the random playout's
    pick among them is the action the list gives."""
    from meeple.interpreter.moves import CardChoice
    game = meeple.load(str(ROOT / "games" / "hare.rules"))
    turn = game.module.text().split("def turn_play_")[1].split("\ndef ")[0]
    assert re.search(r"\n +s0, s1, [s0-9, ]+ = S\n +d0, d1, [d0-9, ]+ = D\n +r0 = 8 - \(d0 \+ d1 ", turn)
    compared = 0
    for seed in range(12):
        st, rand = game.new_state(4, seed=seed), random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            spec = game.code[st.pc][1]
            if isinstance(spec, CardChoice):
                assert sorted(a.payload for a in legal) == sorted(a.payload for a in CardChoice.legal(spec, st))
                compared += 1
            st.apply(legal[int(rand.random() * len(legal))])
    assert compared > 300


def test_straight_draws_written_into_a_segment_set_no_step_and_the_checked_ones_do() -> None:
    """A refill written out into a segment sets ``st.pc`` only on its checked path (a reshuffle,
    the step cap, the end may come in the middle: the state must stand on the draw), not around
    its straight draws; played out, every bundled game stands where the program, step by step,
    leaves it (test_play_out_is_the_loop_of_uniform_random_actions), and a step cap in the
    middle of a refill leaves the state on the refill (below)."""
    game = meeple.load(str(ROOT / "games" / "hare.rules"))
    turn = game.module.text().split("def turn_play_")[1].split("\ndef ")[0]
    straight, checked = turn.split("if due <= total and len(log) + due < cap:")[1].split("\n            else:\n", 1)
    assert "st.pc" not in straight
    assert re.match(r"\s*st\.pc = \d+\n\s*while True:", checked)
    draw_at = int(re.match(r"\s*st\.pc = (\d+)", checked).group(1))
    for cap in range(30, 60):  # a cap somewhere in the first turns' refills
        st = game.new_state(4, seed=3)
        game.max_steps, kept = cap, game.max_steps
        try:
            st.play_out(random.Random(3))
        finally:
            game.max_steps = kept
        if st.outcome == "step cap" and st.pc == draw_at:
            return
    raise AssertionError("no step cap fell in the middle of a refill")
