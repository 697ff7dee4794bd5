"""Lowering to the JSON IR (dsl.lower) and the IR's JSON Schema (dsl.schema): the
committed schema is current, lowered IR is valid, and broken IR is reported by path."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from meeple.dsl import RulesError, ir_from_text, read_ir
from meeple.dsl import ast as A
from meeple.dsl.lower import IR_VERSION, node_kind
from meeple.dsl.schema import SCHEMA_PATH, build_schema, validate_ir

GOOD = Path(__file__).parent / "fixtures" / "good"


@pytest.fixture(scope="module")
def hare_ir() -> dict:
    path = Path(__file__).resolve().parents[1] / "games" / "hare.rules"
    return ir_from_text(path.read_text(), "games/hare.rules")


def ast_classes() -> list[type]:
    """Every AST node class that becomes an IR object of its own."""
    return [c for c in vars(A).values() if isinstance(c, type) and issubclass(c, A.Node)
            and c not in (A.Node, A.Ident, A.RulesFile)]


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
        assert set(defs[kind]["required"]) == {"node", *fields}
        # besides the fields: the node's position and the positions of its names
        extra = set(props) - {"node", *fields}
        assert extra == {"at"} | {f + "_at" for f in fields if f + "_at" in props}
        assert all(name[:-3] in fields for name in extra - {"at"})
    for name, union in unions.items():
        members = [node_kind(c) for c in union.__args__]
        assert defs[name]["properties"]["node"]["enum"] == members
        assert all(m in defs for m in members)
    top = [f.name for f in dataclasses.fields(A.RulesFile) if f.name != "span"]
    positions = {name for name in top if name.endswith("_at")}  # a plain value's position, when known
    assert positions == {"max_steps_at"} and schema["properties"]["max_steps_at"] == schema["properties"]["at"]
    assert set(schema["required"]) == {"meeple", *top} - positions
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
    assert pieces["name"] == "animal" and pieces["name_at"] == [23, 8, 23, 14]
    assert pieces["track"] == "course" and pieces["track_at"] == [23, 18, 23, 24]
    assert pieces["values_at"][0] == [23, 27, 23, 31]
    assert pieces["at"] == [23, 1, 23, 57]  # to just past the closing brace
    choose = hare_ir["turn"][0]
    assert choose["node"] == "choose" and choose["lo"] == {"node": "int", "value": 1, "at": [74, 16, 74, 17]}


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
