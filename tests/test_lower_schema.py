"""Lowering to the JSON IR (dsl.lower) and the IR's JSON Schema (dsl.schema): the
committed schema is current, lowered IR is valid, and broken IR is reported by path."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from meeple.dsl import RulesError, ir_from_json, ir_from_text, read_ir
from meeple.dsl import ast as A
from meeple.dsl import walk
from meeple.dsl.lower import IR_VERSION, node_kind, optional_fields, upgrade
from meeple.dsl.schema import SCHEMA_PATH, build_schema, validate_ir, validator

GOOD = Path(__file__).parent / "fixtures" / "good"


@pytest.fixture(scope="module")
def hare_ir() -> dict:
    path = Path(__file__).resolve().parents[1] / "games" / "hare.rules"
    return ir_from_text(path.read_text(), "games/hare.rules")


def ast_classes() -> list[type]:
    """Every AST node class that becomes an IR object of its own."""
    return [c for c in vars(A).values() if isinstance(c, type) and issubclass(c, A.Node)
            and c not in (A.Node, A.Named, A.Ident, A.RulesFile)]


def node_kinds(doc: Any) -> set[str]:
    """The ``"node"`` values used anywhere in an IR document."""
    if isinstance(doc, dict):
        found = {doc["node"]} if "node" in doc else set()
        return found.union(*(node_kinds(v) for v in doc.values()))
    if isinstance(doc, list):
        return set().union(*(node_kinds(v) for v in doc))
    return set()


def problems(doc: dict) -> list[tuple[str, str]]:
    return [(d.path, d.message) for d in validate_ir(doc, "x.json")]


# ---- the schema --------------------------------------------------------------


def test_schema_json_is_current() -> None:
    committed = json.loads(SCHEMA_PATH.read_text())
    assert committed == build_schema(), \
        "meeple/dsl/schema.json is stale: run `python -m meeple.dsl.schema > meeple/dsl/schema.json`"


def test_every_node_kind_of_the_schema_is_an_ast_class() -> None:
    schema = build_schema()
    defs = schema["$defs"]
    unions = {"expr": A.Expr, "stmt": A.Stmt}
    classes = {node_kind(c): c for c in ast_classes()}
    assert set(defs) - set(unions) == set(classes)
    for kind, cls in classes.items():
        props = defs[kind]["properties"]
        assert props["node"] == {"const": kind}
        fields = [f.name for f in dataclasses.fields(cls) if f.name != "span"]
        # a field with a default is left out of the IR when it holds it (added after 0.1)
        assert set(defs[kind]["required"]) == {"node", *fields} - set(optional_fields(cls))
        # besides the fields: one "at" object, the node's span and the positions of its names
        assert set(props) - {"node", *fields} == {"at"}
        at = props["at"]["properties"]
        assert "span" in at and set(at) - {"span"} <= set(fields)
    for name, union in unions.items():
        members = [node_kind(c) for c in union.__args__]
        assert defs[name]["properties"]["node"]["enum"] == members
        assert all(m in defs for m in members)
    top = [f.name for f in dataclasses.fields(A.RulesFile) if f.name != "span"]
    positions = {name for name in top if name.endswith("_at")}  # a plain value's position, when known
    at = schema["properties"]["at"]["properties"]
    assert positions == {"max_steps_at", "turn_at"} and at["max_steps"] == at["turn"] == at["span"]
    assert "max_steps_at" not in schema["properties"] and "turn_at" not in schema["properties"]
    # (a list added later, as "boards", is left out when empty)
    assert set(schema["required"]) == {"meeple", *top} - positions - set(optional_fields(A.RulesFile))
    assert schema["properties"]["meeple"] == {"const": IR_VERSION}


def test_example_ir_uses_only_schema_node_kinds(hare_ir: dict) -> None:
    kinds = node_kinds(hare_ir)
    assert kinds <= set(build_schema()["$defs"])
    assert {"choose", "move", "case", "comprehension", "filtered", "cond", "run", "deal"} <= kinds


# ---- lowering ------------------------------------------------------------------


def test_hare_ir_validates(hare_ir: dict) -> None:
    assert validate_ir(hare_ir, "games/hare.rules") == []
    assert hare_ir["meeple"] == IR_VERSION
    assert hare_ir["source"] == "games/hare.rules"


@pytest.mark.parametrize("path", sorted(GOOD.glob("*.rules")), ids=lambda p: p.stem)
def test_good_fixtures_ir_validates(path: Path) -> None:
    assert validate_ir(ir_from_text(path.read_text(), str(path)), str(path)) == []


def test_ir_keeps_positions(hare_ir: dict) -> None:
    pieces = hare_ir["pieces"][0]
    assert pieces["name"] == "animal" and pieces["at"]["name"] == [23, 8, 23, 14]
    assert pieces["track"] == "course" and pieces["at"]["track"] == [23, 18, 23, 24]
    assert pieces["at"]["values"][0] == [23, 27, 23, 31]
    assert pieces["at"]["span"] == [23, 1, 23, 57]  # to just past the closing brace
    choose = hare_ir["turn"][0]
    assert choose["node"] == "choose" and choose["lo"] == {"node": "int", "value": 1, "at": {"span": [74, 16, 74, 17]}}


def test_ir_round_trips_through_json(hare_ir: dict) -> None:
    text = json.dumps(hare_ir, allow_nan=False)
    assert json.loads(text) == hare_ir
    assert json.dumps(json.loads(text)) == text


def test_lowering_is_deterministic(hare_path: Path) -> None:
    text = hare_path.read_text()
    assert json.dumps(ir_from_text(text, "a")) == json.dumps(ir_from_text(text, "a"))


# ---- broken IR -----------------------------------------------------------------


def test_wrong_type_names_its_path(hare_ir: dict) -> None:
    doc = copy.deepcopy(hare_ir)
    doc["turn"][0]["lo"]["value"] = "one"
    assert problems(doc) == [("$.turn[0].lo.value", "IR does not match the schema: 'one' is not of type 'integer'")]


def test_unknown_node_kind_names_its_path(hare_ir: dict) -> None:
    doc = copy.deepcopy(hare_ir)
    doc["turn"][1]["node"] = "shuffle"
    [(path, message)] = problems(doc)
    assert path == "$.turn[1].node"
    assert message.startswith("IR does not match the schema: 'shuffle' is not one of ['let', 'set', ")


@pytest.mark.parametrize("where", ["statement", "expression"])
def test_a_node_without_its_kind_gets_one_error(hare_ir: dict, where: str) -> None:
    """A node whose "node" is left out is said to need one; no kind's schema is applied to it (each
    'if' of the union held, and every kind's missing fields were errors: over a hundred)."""
    doc = copy.deepcopy(hare_ir)
    node = doc["turn"][1] if where == "statement" else doc["turn"][0]["lo"]
    del node["node"]
    path = "$.turn[1]" if where == "statement" else "$.turn[0].lo"
    assert problems(doc) == [(path, "IR does not match the schema: 'node' is a required property")]
    node["node"] = 7
    [(at, message)] = problems(doc)
    assert at == f"{path}.node" and "7 is not one of" in message


def test_unknown_expression_kind_inside_a_track(hare_ir: dict) -> None:
    doc = copy.deepcopy(hare_ir)
    doc["tracks"][0]["tiles"][1]["count"]["node"] = "float"
    [(path, message)] = problems(doc)
    assert path == "$.tracks[0].tiles[1].count.node"
    assert "'float' is not one of ['int', 'bool', 'name'," in message


def test_missing_field_names_its_object(hare_ir: dict) -> None:
    doc = copy.deepcopy(hare_ir)
    del doc["turn"][0]["keeping"]
    assert problems(doc) == [("$.turn[0]", "IR does not match the schema: 'keeping' is a required property")]
    doc = copy.deepcopy(hare_ir)
    del doc["players"]
    assert problems(doc) == [("$", "IR does not match the schema: 'players' is a required property")]


def test_unknown_field_and_wrong_version(hare_ir: dict) -> None:
    doc = copy.deepcopy(hare_ir)
    doc["zones"][0]["colour"] = "red"
    doc["meeple"] = 99
    assert problems(doc) == [
        ("$.meeple", f"IR does not match the schema: {IR_VERSION} was expected"),
        ("$.zones[0]", "IR does not match the schema: Additional properties are not allowed ('colour' was unexpected)"),
    ]


def test_bad_name_is_reported(hare_ir: dict) -> None:
    doc = copy.deepcopy(hare_ir)
    doc["pieces"][0]["values"][1] = "two words"
    assert problems(doc) == [("$.pieces[0].values[1]",
                              "IR does not match the schema: 'two words' does not match '^[A-Za-z_][A-Za-z0-9_]*$'")]


def test_a_name_ending_in_a_newline_is_refused(hare_ir: dict) -> None:
    """``$`` is the end of the text, as JSON Schema means it (Python's ``re`` lets it match before
    a last newline: such a name reached the generated code)."""
    doc = copy.deepcopy(hare_ir)
    doc["cards"][0]["varieties"][0]["name"] = "hare\n"
    assert [path for path, _ in problems(doc)] == ["$.cards[0].varieties[0].name"]


def test_all_schema_problems_come_at_once(hare_ir: dict) -> None:
    doc = copy.deepcopy(hare_ir)
    doc["turn"][0]["lo"]["value"] = "one"
    doc["turn"][1]["node"] = "shuffle"
    del doc["phases"][0]["body"][0]["test"]
    assert [path for path, _ in problems(doc)] == ["$.phases[0].body[0]", "$.turn[0].lo.value", "$.turn[1].node"]


def test_not_an_object() -> None:
    assert problems([1, 2]) == [("$", "IR does not match the schema: [1, 2] is not of type 'object'")]


# ---- IR read back as JSON --------------------------------------------------------


def test_read_ir_on_json_gives_the_same_ir(tmp_path: Path, hare_path: Path) -> None:
    ir, warnings = read_ir(str(hare_path))
    path = tmp_path / "x.json"
    path.write_text(json.dumps(ir))
    again, warnings_again = read_ir(str(path))
    assert again == ir
    assert warnings == warnings_again == []


def test_read_ir_on_broken_json_ir(tmp_path: Path, hare_ir: dict) -> None:
    doc = copy.deepcopy(hare_ir)
    doc["turn"][0]["lo"]["value"] = "one"
    path = tmp_path / "x.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    [d] = info.value.diagnostics
    assert (d.file, d.line, d.path) == (str(path), 0, "$.turn[0].lo.value")
    assert d.headline() == (f"{path}: error: IR does not match the schema: 'one' is not of type 'integer' "
                            f"(at $.turn[0].lo.value)")


def test_read_ir_on_json_checks_the_meaning(tmp_path: Path, hare_ir: dict) -> None:
    """Schema-valid IR with a semantic error: the JSON path leads, the rules position is a note."""
    doc = copy.deepcopy(hare_ir)
    doc["turn"][2]["body"][0]["phase"] = "rase"
    path = tmp_path / "x.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    errors = [d for d in info.value.diagnostics if d.kind == "error"]
    assert [(d.line, d.path, d.message) for d in errors] == [
        (0, "$.turn[2].body[0]", "unknown phase 'rase' (did you mean 'race'?) (from games/hare.rules:80:9)")]


def test_json_ir_with_an_incomplete_loop_is_a_diagnostic(tmp_path: Path, hare_ir: dict) -> None:
    """A domain without ``lo`` fits the schema; the checker says so (it used to crash)."""
    doc = copy.deepcopy(hare_ir)
    doc["setup"][1]["domain"] = {"node": "domain", "lo": None, "hi": None, "players": False}
    path = tmp_path / "x.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    assert [(d.path, d.message) for d in info.value.diagnostics] == [
        ("$.setup[1].domain", "a loop needs a kind, a zone, 'player' or a range to run over")]


def test_invalid_json_is_a_diagnostic(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"meeple": 1,\n  "turn": [}\n')
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    assert [(d.line, d.col, d.message) for d in info.value.diagnostics] == [(2, 12, "not valid JSON: Expecting value")]


# ---- IR version 2: positions apart, closed vocabularies, older documents ----------------

V1_HARE = Path(__file__).parent / "fixtures" / "compat" / "v1" / "hare" / "ir.json"


def _all_keys(doc: Any) -> set[str]:
    if isinstance(doc, dict):
        return set(doc) | {k for key, v in doc.items() if key != "at" for k in _all_keys(v)}
    if isinstance(doc, list):
        return {k for v in doc for k in _all_keys(v)}
    return set()


def test_positions_are_kept_apart_from_the_fields(hare_ir: dict) -> None:
    """Every position is in an "at" object; no key but a real field ends in "_at"."""
    assert {k for k in _all_keys(hare_ir) if k.endswith("_at")} == {"stop_at"}  # a field: 'stopping at'
    move = next(s for s in walk.nodes(hare_ir) if s.get("node") == "move" and s["stop_at"])
    assert move["stop_at"] == "stream" and move["at"]["stop_at"][0] == move["at"]["span"][0]
    assert all(isinstance(n.get("at", {}), dict) for n in walk.nodes(hare_ir))


def test_a_version_1_document_is_converted(hare_ir: dict) -> None:
    old = json.loads(V1_HARE.read_text())
    assert old["meeple"] == 1 and "max_steps_at" in old
    new = upgrade(old)
    assert new["meeple"] == IR_VERSION and validate_ir(new, "old.json") == []
    assert new["at"]["max_steps"] == old["max_steps_at"]
    old_move = next(s for s in _v1_nodes(old) if s.get("node") == "move" and s["stop_at"])
    new_move = next(s for s in walk.nodes(new) if s.get("node") == "move" and s["stop_at"])
    assert new_move["stop_at"] == old_move["stop_at"] and new_move["at"]["stop_at"] == old_move["stop_at_at"]
    assert new_move["at"]["span"] == old_move["at"]
    assert ir_from_json(V1_HARE.read_text(), "old.json") == new


@pytest.mark.parametrize("doc, path, message", [
    ({}, "$", "not a meeple IR document"),
    ([1, 2], "$", "not a meeple IR document"),
    ({"meeple": 99}, "$.meeple", "IR version 99 is not one this meeple reads"),
])
def test_what_is_not_a_document_of_a_known_version_gets_one_error(doc: Any, path: str, message: str) -> None:
    with pytest.raises(RulesError) as info:
        ir_from_json(json.dumps(doc), "x.json")
    [d] = info.value.diagnostics
    assert d.path == path and message in d.message and "meeple ir" in d.message


def test_a_document_of_today_s_form_that_says_version_1_gets_one_error(hare_ir: dict) -> None:
    """Not one schema error per position of the old form: the version number is what to change."""
    with pytest.raises(RulesError) as info:
        ir_from_json(json.dumps(dict(hare_ir, meeple=1)), "x.json")
    [d] = info.value.diagnostics
    assert d.path == "$.meeple" and d.message == (f'the document says "meeple": 1, but it is written in version '
                                                  f"{IR_VERSION}'s form (its \"at\" is an object): set \"meeple\": "
                                                  f"{IR_VERSION}")
    broken = dict(hare_ir, meeple=1, turn=5)  # with a mistake of its own: that too, as today's form has it
    with pytest.raises(RulesError) as info:
        ir_from_json(json.dumps(broken), "x.json")
    assert [d.path for d in info.value.diagnostics] == ["$.meeple", "$.turn"]
    with pytest.raises(RulesError) as info:  # and the other way round
        ir_from_json(json.dumps(dict(json.loads(V1_HARE.read_text()), meeple=IR_VERSION)), "x.json")
    [d] = info.value.diagnostics
    assert d.path == "$.meeple" and "written in version 1's form" in d.message and 'set "meeple": 1' in d.message
    with pytest.raises(RulesError) as info:  # only its "at" a list: that is the mistake, not the version
        ir_from_json(json.dumps(dict(hare_ir, at=[])), "x.json")
    assert [d.path for d in info.value.diagnostics] == ["$.at"]


@pytest.mark.parametrize("where, bad", [
    (lambda ir: ir["zones"][0], ("visibility", "to everyone, of course")),
    (lambda ir: next(n for n in walk.nodes(ir) if n.get("node") == "bin_op"), ("op", "=")),
    (lambda ir: next(n for n in walk.nodes(ir) if n.get("node") == "comprehension"), ("func", "average")),
])
def test_a_word_outside_a_closed_vocabulary_is_refused_with_its_path(hare_ir: dict, where, bad) -> None:
    doc = copy.deepcopy(hare_ir)
    field, word = bad
    node = where(doc)
    node[field] = word
    path = next(p for p, n in _paths(doc) if n is node)
    found = problems(doc)
    assert (f"{path}.{field}", f"IR does not match the schema: {word!r} is not one of "
                                f"{validator().schema['$defs'][node['node']]['properties'][field]['enum']!r}") in found


def _v1_nodes(doc: Any):
    """Every dict of a version 1 document (its positions are lists, never dicts)."""
    if isinstance(doc, dict):
        yield doc
        for v in doc.values():
            yield from _v1_nodes(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from _v1_nodes(v)


def _paths(doc: Any, path: str = "$"):
    if isinstance(doc, dict):
        yield path, doc
        for k, v in doc.items():
            yield from _paths(v, f"{path}.{k}")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, f"{path}[{i}]")


def _holds_nodes(hint: Any) -> bool:
    import typing
    args = typing.get_args(hint)
    if args:
        return any(_holds_nodes(a) for a in args)
    return isinstance(hint, type) and dataclasses.is_dataclass(hint) and hint not in (A.Ident, A.Span)


def test_the_walk_knows_every_child_field() -> None:
    """The child fields (read from the generated schema) are the AST's: every field typed as a node,
    a list of nodes or an optional node, in declaration order."""
    import typing
    for cls in ast_classes():
        hints = typing.get_type_hints(cls, vars(A))
        assert walk.child_fields(node_kind(cls)) == tuple(n for n, h in hints.items() if _holds_nodes(h)), cls
    assert walk.child_fields("bin_op") == ("left", "right")
    assert walk.child_fields("if") == ("test", "body", "else_")
    assert "options" in walk.child_fields("choose_one") and walk.child_fields("int") == ()
    assert {"setup", "turn", "phases", "defines"} <= set(walk.child_fields("rules_file"))


@pytest.mark.parametrize("node", [{"node": "nope", "x_at": [1, 1, 1, 2]}, {"node": ["x"]}])
def test_a_damaged_version_1_document_gets_schema_errors(node: dict) -> None:
    doc = json.loads(V1_HARE.read_text())
    doc["turn"][0] = node
    with pytest.raises(RulesError) as info:
        ir_from_json(json.dumps(doc), "old.json")
    assert all(d.path.startswith("$") for d in info.value.diagnostics)
    assert any(d.path.startswith("$.turn[0]") for d in info.value.diagnostics)


def test_a_document_wrong_everywhere_gets_its_first_problems_in_order_and_a_count() -> None:
    """150,000 wrong entries took a minute and gigabytes (every problem made, sorted as text):
    the first 100 are said, by index in number order, then that there are more."""
    doc = json.loads(json.dumps(read_ir(str(Path(__file__).resolve().parents[1] / "games" / "hare.rules"))[0]))
    doc["zones"] += [0] * 150_000  # (more would pass the limit of values, test_a_document_too_large_...)
    with pytest.raises(RulesError) as info:
        ir_from_json(json.dumps(doc), "many.json")
    diags = info.value.diagnostics
    assert len(diags) == 101 and "in more places" in diags[-1].message
    indices = [int(d.path.split("[")[1].rstrip("]")) for d in diags[:-1]]
    assert indices == sorted(indices) and all(d.path.startswith("$.zones[") for d in diags[:-1])


def test_a_document_too_large_is_refused_before_its_schema_is_checked(hare_ir: dict) -> None:
    """100,000 zones (12 MB, within the size limit of then) took 50 s to validate, two thirds of it
    in the schema: a document of more values than any game needs is one error, said before the
    schema check."""
    from meeple.dsl.limits import MAX_IR_VALUES
    doc = copy.deepcopy(hare_ir)
    doc["zones"] += [{"node": "zone", "name": f"z{i}", "per_player": False, "visibility": "hidden"}
                     for i in range(100_000)]
    text = json.dumps(doc)
    with pytest.raises(RulesError) as info:
        ir_from_json(text, "big.json")
    [d] = info.value.diagnostics
    assert d.path == "$" and d.message.startswith(f"IR document too large: it holds more than {MAX_IR_VALUES:,} values")
    assert f"this one is {len(text):,} characters, its \"zones\" lists 100,006 items" in d.message


def test_the_values_limit_counts_every_value() -> None:
    from meeple.dsl import _ir_limits
    from meeple.dsl.limits import MAX_IR_VALUES
    assert _ir_limits([0] * (MAX_IR_VALUES - 1), "x.json", 1) == []  # (the list is a value too)
    [d] = _ir_limits([[0]] * (MAX_IR_VALUES // 2), "x.json", 1)
    assert "more than" in d.message and d.path == "$"
