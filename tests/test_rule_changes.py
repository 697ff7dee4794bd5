"""Variants that change one rule (docs/language.md, "Naming a rule", "Changing one rule", "extend"):
rules named [name] (a decision by its label, an option by decision.option), replaced, removed, with
rules inserted before or after them; blocks, cards and pieces extended; 'end when' replaced or
removed; 'reset'; an option without a block; and the bundled variants written so, short."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import meeple
from meeple.dsl import read_ir
from rules_text import errors_of, take

ROOT = Path(__file__).resolve().parents[1]

BASE = """
game "Base"
players 2
var score_of per player = 0
var rounds = 0
setup {
  [start] set rounds = 0
}
turn {
  choose go {
    [inc] up {
      set score_of(current) = score_of(current) + 1
    }
    stay { }
  }
  [count] set rounds = rounds + 1
  if rounds >= 2 {
    [bonus] set score_of(current) = score_of(current) + 10
  }
}
phase spare {
  set rounds = rounds + 0
}
[long] end when rounds >= 4
score(p) = score_of(p)
"""


def variant(tmp_path: Path, body: str) -> Path:
    (tmp_path / "base.rules").write_text(BASE)
    path = tmp_path / "variant.rules"
    path.write_text('extends "base.rules"\n' + body)
    return path


def blocks(path: Path) -> dict:
    ir, _ = read_ir(str(path))
    return ir


def texts(stmts: list) -> list[str]:
    return [s["node"] + (f"[{s['rule']}]" if s.get("rule") else "") for s in stmts]


def test_replace_remove_and_insert_statements_by_name(tmp_path):
    ir = blocks(variant(tmp_path, "replace [count] set rounds = rounds + 2\n"
                                  "insert before [count] { set rounds = rounds + 0 }\n"
                                  "insert after [count] set rounds = rounds + 0\n"
                                  "remove [bonus]\n"))
    turn = ir["turn"]
    assert texts(turn) == ["choose_one", "set", "set[count]", "set", "if"]
    assert turn[2]["value"]["right"]["value"] == 2  # the new one, keeping the name [count]
    assert turn[4]["body"] == []


def test_a_decision_by_its_label_and_an_option_by_decision_option(tmp_path):
    ir = blocks(variant(tmp_path, "insert before [go.stay] {\n  wait { }\n}\n"
                                  "replace [go.stay] {\n  rest where rounds > 0 { }\n}\n"
                                  "insert after [go] set rounds = rounds + 0\n"))
    options = ir["turn"][0]["options"]
    assert [o["name"] for o in options] == ["up", "wait", "rest"]
    assert texts(ir["turn"])[:2] == ["choose_one", "set"]


def test_an_option_named_explicitly(tmp_path):
    ir = blocks(variant(tmp_path, "remove [inc]\n"))
    assert [o["name"] for o in ir["turn"][0]["options"]] == ["stay"]


def test_end_when_replaced_removed_and_added(tmp_path):
    g = meeple.load(str(variant(tmp_path, "replace [long] end when rounds >= 1\n")))
    st = g.new_state(2, seed=0)
    take(st, "stay")
    assert st.is_terminal()
    ir = blocks(variant(tmp_path, "remove end when\nend when rounds >= 7\n"))
    assert [e["test"]["right"]["value"] for e in ir["end"]] == [7]
    ir = blocks(variant(tmp_path, "replace end when rounds >= 9\n"))
    assert [e["test"]["right"]["value"] for e in ir["end"]] == [9]


def test_extend_blocks_cards_and_pieces(tmp_path):
    base = BASE.replace("var rounds = 0", "var rounds = 0\nzone deck public\ncards c in deck {\n  1 a\n}\n"
                        "track lane {\n  spaces 5\n}\npieces runner on lane { red }")
    (tmp_path / "base.rules").write_text(base)
    (tmp_path / "variant.rules").write_text('extends "base.rules"\nextend setup {\n  set rounds = 1\n}\n'
                                            'extend turn {\n  move blue by 1\n}\n'
                                            'extend phase spare {\n  reset rounds\n}\n'
                                            'extend cards c {\n  2 b\n}\nextend pieces runner { blue }\n')
    ir, _ = read_ir(str(tmp_path / "variant.rules"))
    assert texts(ir["setup"]) == ["set[start]", "set"]
    assert texts(ir["turn"])[-1] == "move"
    assert texts(ir["phases"][0]["body"]) == ["set", "reset"]
    assert [v["name"] for v in ir["cards"][0]["varieties"]] == ["a", "b"]
    assert ir["pieces"][0]["values"] == ["red", "blue"]


@pytest.mark.parametrize("body, message", [
    ("remove [cuont]\n", "the base has no rule named [cuont] (did you mean 'count'?)"),
    ("replace [go.stay] set rounds = 1\n",
     "[go.stay] is an option of the base: replace it with options, not statements"),
    ("insert after [count] {\n  pass { }\n}\n", "[count] is a statement of the base: insert statements after it, "
                                              "not options"),
    ("insert after [long] set rounds = 1\n", "[long] is an 'end when' of the base"),
    ("replace [count] end when rounds > 1\n", "not an 'end when'"),
    ("extend phase spar {\n  set rounds = 1\n}\n", "nothing to extend: the base has no phase 'spar' (did you mean "
                                                   "'spare'?)"),
    ("extend cards kard {\n  1 b\n}\n", "nothing to extend: the base has no cards 'kard'"),
])
def test_a_change_that_cannot_be_made_is_told_at_the_change(tmp_path, body, message):
    from meeple.dsl import RulesError
    with pytest.raises(RulesError) as e:
        read_ir(str(variant(tmp_path, body)))
    assert any(message in d.message for d in e.value.diagnostics), [d.message for d in e.value.diagnostics]
    assert all(d.file.endswith("variant.rules") for d in e.value.diagnostics if d.kind == "error")


@pytest.mark.parametrize("text, message", [
    (BASE.replace("[bonus]", "[count]"), "two rules are named [count]"),
    (BASE.replace("[bonus] set", "[a.b] set"), "a rule's name is one word, not 'a.b'"),
    (BASE.replace("[bonus] set", "[x] [y] set"), "a rule has one name"),
    (BASE + "remove [count]\n", "'remove' changes a base game, so it belongs in a variant"),
    (BASE + "extend turn {\n  reset rounds\n}\n", "'extend' changes a base game, so it belongs in a variant"),
    (BASE.replace("[count] set rounds", "reset roundz\n  set rounds"),
     "unknown var 'roundz' (did you mean 'rounds'?)"),
    (BASE.replace("    stay { }", "    stay\n    again { }"), "an option that leaves out its block must be the last"),
])
def test_mistakes_in_names_and_changes(tmp_path, text, message):
    found = errors_of(tmp_path, text)
    assert any(message in m for m in found), found


def test_naming_a_rule_changes_no_game(tmp_path):
    named = tmp_path / "named.rules"
    named.write_text(BASE)
    plain = tmp_path / "plain.rules"
    plain.write_text(re.sub(r"\[\w+\] ", "", BASE))
    assert meeple.load(str(named)).game_hash == meeple.load(str(plain)).game_hash


def test_a_variant_of_a_variant_finds_a_replaced_rule_by_its_name(tmp_path):
    variant(tmp_path, "replace [count] set rounds = rounds + 2\n")
    (tmp_path / "again.rules").write_text('extends "variant.rules"\nreplace [count] set rounds = rounds + 3\n')
    ir, _ = read_ir(str(tmp_path / "again.rules"))
    assert ir["turn"][1]["value"]["right"]["value"] == 3


def test_reset_puts_every_value_back_to_its_start(tmp_path):
    text = BASE.replace("[bonus] set score_of(current) = score_of(current) + 10", "reset score_of\n    reset rounds")
    path = tmp_path / "reset.rules"
    path.write_text(text)
    st = meeple.load(str(path)).new_state(2, seed=0)
    take(st, "up")
    assert st.var("score_of", 0) == 1 and st.var("rounds") == 1
    take(st, "up")
    assert [st.var("score_of", p) for p in range(2)] == [0, 0] and st.var("rounds") == 0


def test_an_option_without_a_block_does_nothing(tmp_path):
    path = tmp_path / "bare.rules"
    path.write_text(BASE.replace("    stay { }", "    stay"))
    st = meeple.load(str(path)).new_state(2, seed=0)
    assert [a.text for a in st.legal_actions()] == ["up", "stay"]
    take(st, "stay")
    assert st.var("score_of", 0) == 0


def rule_lines(path: Path) -> int:
    """The lines of a rules file that are rules: not comments or blank lines, nor the lines of an
    'invariant' or a 'report' (issue 16's count)."""
    count, inside = 0, False
    for line in path.read_text(encoding="utf-8").splitlines():
        code = line.split("#", 1)[0].rstrip()
        if not code.strip():
            continue
        if re.match(r"(replace\s+)?(invariant|report)\b", code):
            inside = True
            continue
        if inside and line[:1].isspace():
            continue
        inside = False
        count += 1
    return count


@pytest.mark.parametrize("name", ["hare-boost", "hare-six-animals", "luckydog-detour-all"])
def test_the_bundled_variants_are_short(name):
    assert rule_lines(ROOT / "games" / "variants" / f"{name}.rules") <= 25


# ---- found in review ----
@pytest.mark.parametrize("body, message", [
    ("replace [long] { }\n", "[long] is an 'end when' of the base: replace it with an 'end when', not statements"),
    ("remove [go.stay]\nremove [inc]\n", "[inc] is the last option of its decision: a decision needs one"),
    ("replace [count] [bonus] set rounds = 5\n", "two rules are named [bonus]; the other is at"),
])
def test_changes_that_would_break_the_game_are_told(tmp_path, body, message):
    from meeple.dsl import RulesError
    with pytest.raises(RulesError) as e:
        read_ir(str(variant(tmp_path, body)))
    found = [d for d in e.value.diagnostics if message in d.message]
    assert found and found[0].file.endswith("variant.rules"), [d.message for d in e.value.diagnostics]


def test_diff_names_rules_as_a_variant_writes_them(tmp_path, capsys):
    from meeple.tools.cli import main
    path = variant(tmp_path, "remove [inc]\nreplace [long] end when rounds >= 5\n"
                             "insert after [count] set rounds = rounds + 0\nremove [bonus]\n")
    assert main(["diff", str(path)]) == 1
    out = capsys.readouterr().out
    assert "removed rule [inc]" in out and "[go.inc]" not in out
    assert "changed rule [long]" in out and "+[long] end when rounds >= 5" in out
    assert "removed rule [bonus]" in out and "added rule after [count]" in out


def test_diff_shows_a_rule_added_on_one_line_without_what_closes_it(tmp_path, capsys):
    """``extend phase spare { set rounds = rounds + 2 }``: the rule as written, not its line (it
    showed ``set rounds = rounds + 2 }``)."""
    from meeple.tools.cli import main
    path = variant(tmp_path, "extend phase spare { set rounds = rounds + 2 }\n")
    assert main(["diff", str(path)]) == 1
    out = capsys.readouterr().out
    assert "added rule in phase spare" in out and "+ set rounds = rounds + 2\n" in out and "+ 2 }" not in out
