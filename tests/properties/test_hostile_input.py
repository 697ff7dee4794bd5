"""The language under fire: whatever it is given, meeple answers with diagnostics that say
where (a line and column in rules text, a JSON path in IR), or with a game that plays; never
with a traceback, a hang or all the memory.

Four kinds of input (helpers in tests/properties/hostile.py):

1. text generated from the grammar (``hypothesis.extra.lark.from_lark`` on dsl/rules.lark), as
   whole files or as statements, expressions and declarations put into a small game;
2. the real games and variants damaged: tokens dropped, duplicated, swapped and retyped, the
   text cut short, control and unicode characters put in (lone surrogates too, which no file
   holds: those go to ``ir_from_text``);
3. IR documents: generated from the IR schema (``hypothesis_jsonschema.from_schema`` makes the
   leaves; see ``hostile.IRStrategies`` for why not the whole document) and the real IR with
   values replaced, keys deleted and added at random JSON paths;
4. hostile sizes: a deck of 10^9 cards, a track of 10^7 spaces, nesting 10^4 deep, a 50 MB file,
   a line of 10^6 characters, 10^100 as a literal, ... each a clear error (the limits are in
   dsl/limits.py). They run in a process whose address space is capped; none has a time
   assertion (the limits are checked before the work they bound, see dsl/limits.py).

Every game that loads plays a few random steps (a rule failing at run time must be a
``RuleRuntimeError``, the engine's error for that). Under the ``ci`` profile each property runs
its profile's examples; for a long hunt set ``MEEPLE_HOSTILE_EXAMPLES``:

    HYPOTHESIS_PROFILE=fuzz MEEPLE_HOSTILE_EXAMPLES=25000 \\
        .venv/bin/python -m pytest tests/properties/test_hostile_input.py --hypothesis-show-statistics
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

import hostile
from meeple.dsl import RulesError, ir_from_json, ir_from_text, read_ir
from meeple.dsl.limits import MAX_IR_DEPTH, MAX_NUMBER
from meeple.dsl.walk import positionless

HERE = Path(__file__).parent
hunt = hostile.hunt


@pytest.fixture(scope="module", autouse=True)
def no_parse_cache():
    """Thousands of inputs: not one parse cache file each."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEEPLE_NO_CACHE", "1")
        yield


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of games/ (variants find their bases next to them), and room for inputs."""
    root = tmp_path_factory.mktemp("hostile")
    shutil.copytree(hostile.ROOT / "games", root / "games")
    return root


# ---- 1. text from the grammar ------------------------------------------------------------------

@hunt
@given(case=hostile.generated_rules(), seed=st.integers(0, 2**32))
@example(case=(hostile.HOST, "document"), seed=1)
@example(case=(hostile.HOST.replace("var roll = 0", "var roll = 10000000000000000"), "document"), seed=1)
@example(case=('extends "games/hare.rules"\nparam podium_size = 2\n', "document"), seed=1)
@example(case=('extends "x y"\nremove report "a label"\n', "document"), seed=1)
@example(case=(" max_steps  9007199254740991 ", "document"), seed=0)  # found by the 100k run
def test_text_from_the_grammar_parses_and_plays_or_says_where(case: tuple[str, str], seed: int,
                                                               work: Path) -> None:
    text, part = case
    event(hostile.outcome_of_text(text, work / "generated.rules", seed, schema=part))


# ---- 2. the real files damaged ---------------------------------------------------------------

FILES = hostile.GAMES + hostile.VARIANTS


@st.composite
def damaged_file(draw: st.DrawFn) -> tuple[Path, str, bool]:
    """(the file, its damaged text, whether the text may hold lone surrogates)."""
    path = draw(st.sampled_from(FILES))
    surrogates = draw(st.booleans())
    return path, draw(hostile.damaged(path.read_text(encoding="utf-8"), surrogates)), surrogates


@hunt
@given(case=damaged_file(), seed=st.integers(0, 2**32))
def test_damaged_files_give_diagnostics_with_positions(case: tuple[Path, str, bool], seed: int,
                                                        work: Path) -> None:
    original, text, _ = case
    # next to a copy of its base: a variant's 'extends "../x.rules"' still finds it
    path = work / original.relative_to(hostile.ROOT).parent / f"damaged-{original.name}"
    event(hostile.outcome_of_text(text, path, seed))


@pytest.mark.parametrize("odd", ["\x00", "\ud800", "\udfff", "\ufeff", "\x0b", "\u2028", "\x85", "\U0001f407",
                                 "\u00b9", "\u0663"])
def test_odd_characters_in_text_are_diagnosed_where_they_stand(odd: str) -> None:
    text = hostile.HOST.replace("var roll = 0", f"var roll = 0{odd}", 1)
    with pytest.raises(RulesError) as info:
        ir_from_text(text, "odd.rules")
    [d] = info.value.diagnostics
    assert (d.line, d.col) == (24, len("var roll = 0") + 1)
    assert f"U+{ord(odd):04X}" in d.message and ("unexpected character" in d.message or "name" in d.message)


# ---- 3. IR documents ---------------------------------------------------------------------------

IR = hostile.IRStrategies()
HOST_IR = hostile.host_ir()
# Mostly without positions: the schema validator takes half the time over them.
GAME_IRS = [HOST_IR] + [positionless(ir) for ir in
                        (HOST_IR, HOST_IR, read_ir(str(hostile.ROOT / "games" / "slipstream.rules"))[0])]


@st.composite
def ir_document(draw: st.DrawFn) -> dict:
    if draw(st.integers(0, 5)) == 0:
        return draw(IR.document())
    return draw(hostile.mutated_ir(draw(st.sampled_from(GAME_IRS))))


@hunt
@given(doc=ir_document(), seed=st.integers(0, 2**32))
@example(doc=HOST_IR, seed=1)
@example(doc={**HOST_IR, "max_steps": 10**100}, seed=1)
@example(doc={**HOST_IR, "players": {"node": "range_decl", "lo": 2.5, "hi": 3}}, seed=1)
@example(doc={**HOST_IR, "extends": "nowhere.rules"}, seed=1)
def test_ir_documents_are_rejected_by_path_or_play(doc: dict, seed: int, work: Path) -> None:
    event(hostile.outcome_of_ir(doc, work / "doc.json", seed))


@given(doc=st.one_of(hostile.mutated_ir(HOST_IR), IR.document()))
@settings(suppress_health_check=hostile.SLOW, deadline=None, max_examples=10)
def test_the_schema_validator_reports_what_jsonschema_does(doc: dict) -> None:
    """dsl/schema.py applies a union's if/then dispatch by the node's kind: the same errors."""
    from jsonschema import Draft202012Validator

    from meeple.dsl.schema import validator

    def errors(v) -> list:
        return sorted((list(map(str, e.absolute_path)), e.message, sorted(c.message for c in e.context))
                      for e in v.iter_errors(doc))
    assert errors(validator()) == errors(Draft202012Validator(hostile.schema()))


def test_from_schema_makes_the_leaves_of_the_ir() -> None:
    """The parts of the schema hypothesis-jsonschema takes: every one gives values the schema accepts."""
    from hypothesis_jsonschema import from_schema
    from jsonschema import Draft202012Validator
    span = IR.defs["int"]["properties"]["at"]["properties"]["span"]
    name = IR.defs["name"]["properties"]["id"]
    value = IR.defs["attr_value"]["properties"]["value"]
    for leaf in (span, name, value):
        @settings(max_examples=20, database=None)
        @given(x=from_schema(leaf), leaf=st.just(leaf))
        def valid(x, leaf) -> None:
            assert Draft202012Validator(leaf).is_valid(x)
        valid()


@pytest.mark.parametrize("text, path", [
    ('{"meeple": 1', None),
    ("[" * 100_000 + "]" * 100_000, None),
    (json.dumps({**HOST_IR, "max_steps": "300"}), "$.max_steps"),
    (json.dumps({**HOST_IR, "zones": [{"node": "zone"}]}), "$.zones[0]"),
    (json.dumps(HOST_IR).replace('"max_steps": 300', '"max_steps": ' + "9" * 5000), "$.max_steps"),
    (json.dumps(HOST_IR).replace('"max_steps": 300', '"max_steps": 1e400'), "$.max_steps"),
])
def test_bad_json_is_an_error_naming_the_path(text: str, path: str | None) -> None:
    with pytest.raises(RulesError) as info:
        ir_from_json(text, "doc.json")
    if path is None:  # not JSON: a line and column
        assert all(d.line >= 1 and d.col >= 1 for d in info.value.diagnostics)
    else:
        assert path in [d.path for d in info.value.diagnostics]


def test_ir_as_deep_as_the_limit_is_read(tmp_path: Path) -> None:
    """The schema validator recurses about ten frames a level: IR as deep as MAX_IR_DEPTH still
    validates (so ``meeple ir`` output of any game the text front end takes reads back)."""
    from hostile_sizes import nested_ifs
    text = nested_ifs(HOST_IR, (MAX_IR_DEPTH - json_depth(HOST_IR)) // 2)
    assert json_depth(json.loads(text)) >= MAX_IR_DEPTH - 2
    assert ir_from_json(text, "deep.json")["turn"]


def json_depth(x: object) -> int:
    if isinstance(x, dict):
        return 1 + max(map(json_depth, x.values()), default=0)
    if isinstance(x, list):
        return 1 + max(map(json_depth, x), default=0)
    return 0


# ---- 4. hostile sizes ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sizes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Every case of tests/properties/hostile_sizes.py, run once in a capped process."""
    work = tmp_path_factory.mktemp("sizes")
    run = subprocess.run([sys.executable, str(HERE / "hostile_sizes.py"), str(work)], capture_output=True,
                         text=True, timeout=600, env={**os.environ, "MEEPLE_NO_CACHE": "1"})
    assert run.returncode == 0, run.stderr[-3000:]
    return {r["case"]: r for r in map(json.loads, run.stdout.splitlines())}


SIZES = {  # case → (the error class, words of its message; a position is required of every text error)
    "deck_of_a_billion_cards": ("RulesSemanticError", "at most 100,000"),
    "track_of_ten_million_spaces": ("RulesSemanticError", "more than the limit of 10,000"),
    "parens_ten_thousand_deep": ("RulesSyntaxError", "nesting deeper than 200 brackets"),
    "ifs_ten_thousand_deep": ("RulesSyntaxError", "nesting deeper than 200 brackets"),
    "not_ten_thousand_times": ("RulesSyntaxError", "nesting deeper than 150 levels"),
    "else_if_ten_thousand_times": ("RulesSyntaxError", "line too long"),
    "file_of_50_mb": ("RulesSyntaxError", "file too large"),
    "line_of_a_million_characters": ("RulesSyntaxError", "line too long (1,000,012 characters"),
    "number_10_to_the_100": ("RulesSyntaxError", "is too large (at most 9,007,199,254,740,991)"),
    "number_of_5000_digits": ("RulesSyntaxError", "(5,000 digits) is too large"),
    "define_chain_3000_long": ("RulesSemanticError", "nests deeper than 150 levels with what it uses"),
    "define_doubling_40_times": ("RulesSemanticError", "grow past 200,000 parts"),
    "phase_chain_3000_long": ("RulesSemanticError", "nests deeper than 150 levels with what it uses"),
    "aggregates_70_deep": ("RulesSemanticError", "nests too deeply to compile"),
    "aggregates_20_deep": ("played", ""),  # compiling took minutes: each level wrote its body out per value
    "five_thousand_unused_vars": ("played", ""),  # a warning each: the checker compared each with all before
    "three_thousand_unknown_names": ("RulesSemanticError", "unknown name"),
    "range_of_10_to_the_12": ("RulesSemanticError", "has 1,000,000,000,000 values; at most 10,000"),
    "range_of_10_to_the_12_at_run_time": ("RuleRuntimeError", "has 1,000,000,000,000 values"),
    "var_squared_every_turn": ("RuleRuntimeError", "beyond the numbers meeple supports"),
    "current_set_to_no_seat": ("RuleRuntimeError", "not a seat of this"),
    "ir_number_of_5000_digits": ("RulesSemanticError", "a number of 5,001 digits is too large"),
    "ir_float": ("RulesSemanticError", "not a whole number"),
    "ir_nested_100000_deep": ("RulesSyntaxError", "JSON nested deeper than 200 levels"),
    "ir_nested_300_deep": ("RulesSemanticError", "IR nested deeper than 200 levels"),
}


@pytest.mark.parametrize("case", sorted(SIZES))
def test_hostile_size_is_a_clear_error(case: str, sizes: dict[str, dict]) -> None:
    kind, words = SIZES[case]
    found = sizes[case]
    assert found["outcome"] == kind, found
    if kind == "played":
        return
    assert words in found["message"], found
    if kind == "RuleRuntimeError":
        return
    if case.startswith("ir_") and kind == "RulesSemanticError":
        assert found["path"].startswith("$."), found
    else:
        assert found["line"] >= 1 and found["col"] >= 1, found


def test_every_hostile_size_case_is_checked(sizes: dict[str, dict]) -> None:
    assert set(sizes) == set(SIZES)


@st.composite
def sized_text(draw: st.DrawFn) -> str:
    """The host game with one thing made big: sizes from small to past the limits."""
    kind = draw(st.sampled_from(hostile.SIZE_KINDS))
    top = {"deck": 10**15, "track": 10**9, "number": 10**30, "parens": 210, "ifs": 210, "nots": 160, "sum": 160,
           "else_if": 160, "define_chain": 100, "define_doubling": 20, "phase_chain": 100, "aggregates": 75,
           "range": 10**13, "line": 51_000, "unknown_names": 100}[kind]
    n = draw(st.one_of(st.integers(0, 20), st.integers(0, top), st.just(top)))
    return hostile.sized(kind, n)


@hunt
@given(text=sized_text(), seed=st.integers(0, 2**32))
def test_sizes_up_to_and_past_the_limits_play_or_say_where(text: str, seed: int, work: Path) -> None:
    event(hostile.outcome_of_text(text, work / "sized.rules", seed))


# ---- regressions: each a crash (or a hang) these properties found ---------------------------

def test_a_lowered_variant_matches_the_schema() -> None:
    """A variant's base path and a removed report's label are texts, not names; a param that
    keeps its base's range has none (the schema said names and integers)."""
    from meeple.dsl.schema import validate_ir
    text = 'extends "../hare.rules"\nparam podium_size = 2\nremove report "the longest game"\n'
    assert validate_ir(ir_from_text(text, "v.rules"), "v.rules") == []


def test_a_player_var_set_to_a_number_is_an_error() -> None:
    """It was allowed, then read as a seat that does not exist (an IndexError in play)."""
    text = hostile.HOST.replace("      set leader = current", "      set leader = current\n      set leader = 9", 1)
    with pytest.raises(RulesError) as info:
        read_ir_text(text)
    messages = [d.message for d in info.value.diagnostics]
    assert "'leader' holds a player but is set to a number: a player is seat(n)" in messages


def read_ir_text(text: str) -> None:
    from meeple.dsl.check import check
    ir = ir_from_text(text, "t.rules")
    errors = [d for d in check(ir, "t.rules") if d.kind == "error"]
    if errors:
        raise RulesError(errors, text)


def test_numbers_past_the_limit_are_refused_in_text_and_ir() -> None:
    with pytest.raises(RulesError):
        ir_from_text(hostile.sized("number", MAX_NUMBER + 1), "n.rules")
    ir_from_text(hostile.sized("number", MAX_NUMBER), "n.rules")
    with pytest.raises(RulesError) as info:
        ir_from_json(json.dumps({**HOST_IR, "max_steps": MAX_NUMBER + 1}), "n.json")
    assert [d.path for d in info.value.diagnostics] == ["$.max_steps"]


def test_only_the_first_unknown_names_get_a_suggestion(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each "did you mean" compares the name with every name: thousands of unknown names among
    thousands of names took minutes; past a budget of work the errors come without one."""
    import meeple.dsl.check
    monkeypatch.setattr(meeple.dsl.check, "MAX_SUGGESTION_WORK", 200)
    text = hostile.HOST + "".join(f'report "r{i}" = pointz\n' for i in range(20))
    diagnostics = meeple.dsl.check.check(ir_from_text(text, "t.rules"), "t.rules")
    messages = [d.message for d in diagnostics if d.kind == "error"]
    assert messages[0] == "unknown name 'pointz' (did you mean 'points'?)"
    assert messages[-1] == "unknown name 'pointz'"


def test_setting_current_to_no_seat_is_a_runtime_error(tmp_path: Path) -> None:
    """It was an IndexError at the next read of a zone of the current player."""
    import meeple
    from meeple.dsl.diagnostics import RuleRuntimeError
    path = tmp_path / "current.rules"
    path.write_text(hostile.HOST.replace(hostile.HOST_TURN, hostile.HOST_TURN + "  set current = players\n", 1))
    game = meeple.load(str(path))
    with pytest.raises(RuleRuntimeError, match="not a seat"):
        hostile.play(game, 1)


def test_a_variant_read_as_ir_names_the_path_of_its_base(tmp_path: Path) -> None:
    """Its base missing, the error had neither a position nor a JSON path."""
    path = tmp_path / "variant.json"
    path.write_text(json.dumps({**HOST_IR, "extends": "nowhere.rules"}))
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    assert [d.path for d in info.value.diagnostics] == ["$.extends"]


def test_moving_a_piece_that_is_none_is_a_runtime_error(tmp_path: Path) -> None:
    """'move c.runner' of a card without a runner was a KeyError (found by both the grammar and
    the IR properties)."""
    import meeple
    from meeple.dsl.diagnostics import RuleRuntimeError
    path = tmp_path / "none.rules"
    chips = "  4 red_chip { runner = red, tone = light }\n  4 blue_chip { runner = blue,"
    runnerless = "  0 ghost { runner = red }\n  4 red_chip { tone = light }\n  4 blue_chip {"
    path.write_text(hostile.HOST.replace(chips, runnerless, 1))
    game = meeple.load(str(path))
    with pytest.raises(RuleRuntimeError, match="the piece to move is none"):
        hostile.play(game, 1)


@pytest.mark.parametrize("as_json", [False, True])
def test_a_base_file_name_with_a_nul_is_an_error(tmp_path: Path, as_json: bool) -> None:
    """'extends "a<NUL>b"' was a ValueError from the file system (found by the IR property)."""
    if as_json:
        path = tmp_path / "variant.json"
        path.write_text(json.dumps({**HOST_IR, "extends": "a\x00b"}))
    else:
        path = tmp_path / "variant.rules"
        path.write_text('extends "a\x00b"\n')
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    [d] = info.value.diagnostics
    assert "cannot be found: embedded null byte" in d.message
    if as_json:
        assert d.path == "$.extends"
    else:
        assert (d.line, d.col) == (1, 9)
