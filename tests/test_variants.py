"""``extends``: a variant is its base file changed by a few declarations (dsl/variants.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import meeple
from meeple.dsl import RulesError, read_ir
from meeple.tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
BASE = """game "Base"
players 2..3
param goal = 5 in 1..9 "how far to go"
zone deck hidden
define far(p) = goal + 1
turn {
  end game
}
invariant deck_empty: count(deck) == 0
report "goal" = goal
"""


def write(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path / list(files)[-1]


def errors(path: Path) -> list[str]:
    with pytest.raises(RulesError) as e:
        read_ir(str(path))
    return [d.headline() for d in e.value.diagnostics if d.kind == "error"]


def test_a_variant_sets_a_param_and_keeps_its_range_and_description(tmp_path: Path) -> None:
    path = write(tmp_path, {"base.rules": BASE, "v.rules": 'extends "base.rules"\nparam goal = 7\n'})
    ir, _ = read_ir(str(path))
    (goal,) = ir["params"]
    assert (goal["default"], goal["lo"], goal["hi"], goal["doc"]) == (7, 1, 9, "how far to go")
    assert ir["title"] == "Base" and ir["extends"] is None and ir["changes"] == []
    assert ir["sources"] == [str(path), str(tmp_path / "base.rules")]
    assert meeple.load(str(path)).params["goal"] == 7


def test_a_variant_adds_replaces_and_removes(tmp_path: Path) -> None:
    path = write(tmp_path, {"base.rules": BASE, "v.rules": """extends "base.rules"
game "Variant"
param bonus = 2 in 0..3
replace define far(p) = goal + bonus
remove invariant deck_empty
remove report "goal"
report "bonus" = bonus
"""})
    ir, _ = read_ir(str(path))
    assert ir["title"] == "Variant"
    assert [p["name"] for p in ir["params"]] == ["goal", "bonus"]
    (far,) = ir["defines"]
    assert far["body"]["node"] == "bin_op" and far["at"]["span"][:2] == [4, 9] and len(far["at"]["span"]) == 4
    assert ir["invariants"] == [] and [r["label"] for r in ir["reports"]] == ["bonus"]
    # what comes from the base says so: the fifth item of a position indexes "sources"
    assert ir["zones"][0]["at"]["span"][4] == 1 and ir["sources"][1].endswith("base.rules")


def test_replacing_the_turn_and_the_player_count(tmp_path: Path) -> None:
    path = write(tmp_path, {"base.rules": BASE, "v.rules": """extends "base.rules"
replace players 2..6
replace turn {
  end game with no winner
}
"""})
    game = meeple.load(str(path))
    assert game.max_players == 6
    state = game.new_state(5, seed=1)
    assert state.is_terminal() and state.outcome == "draw"


def test_a_name_the_base_has_needs_replace_and_the_error_shows_both_lines(tmp_path: Path, capsys) -> None:
    variant = 'extends "base.rules"\ndefine far(p) = 1\nturn {\n  end game\n}\n'
    path = write(tmp_path, {"base.rules": BASE, "v.rules": variant})
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:2:8: error: the base already has define 'far'; write 'replace define ...'" in err
    assert "the base declares it at " in err and "base.rules:5:1: define far(p) = goal + 1" in err
    assert f"{path}:4:3: error: the base already has 'turn'; write 'replace turn ...'" in err


def test_a_new_name_declared_twice_in_the_variant_is_declared_twice(tmp_path: Path) -> None:
    """Not "the base already has": the base has neither."""
    path = write(tmp_path, {"base.rules": BASE, "v.rules": """extends "base.rules"
zone pile public
report "pile" = count(pile)
zone pile hidden
report "pile" = count(pile) + 1
"""})
    assert errors(path) == [f"{path}:4:6: error: zone 'pile' is declared twice",
                            f"{path}:5:1: error: report \"pile\" is declared twice"]


def test_max_steps_in_a_variant_is_shown_where_it_stands(tmp_path: Path) -> None:
    base = BASE.replace("players 2..3\n", "players 2..3\nmax_steps 500\n")
    plain = write(tmp_path, {"base.rules": base, "a.rules": 'extends "base.rules"\nmax_steps 700\n'})
    assert errors(plain) == [f"{plain}:2:1: error: the base already has 'max_steps'; write 'replace max_steps ...' "
                             "to change it"]
    too_many = write(tmp_path, {"b.rules": 'extends "base.rules"\nreplace max_steps 7000000\n'})
    assert errors(too_many) == [f"{too_many}:2:9: error: max_steps must be within 1..1000000"]
    fine = write(tmp_path, {"c.rules": 'extends "base.rules"\nreplace max_steps 70\n'})
    ir, _ = read_ir(str(fine))
    assert (ir["max_steps"], ir["at"]["max_steps"][:2]) == (70, [2, 9])


def test_replacing_or_removing_what_the_base_lacks(tmp_path: Path) -> None:
    path = write(tmp_path, {"base.rules": BASE, "v.rules": """extends "base.rules"
replace define farr(p) = 1
remove invariant deck_emty
remove phase nothing
replace score(p) = 1
param new = 1
"""})
    assert errors(path) == [
        f"{path}:2:1: error: nothing to replace: the base has no define 'farr' (did you mean 'far'?)",
        f"{path}:3:18: error: nothing to remove: the base has no invariant 'deck_emty' (did you mean 'deck_empty'?)",
        f"{path}:4:14: error: nothing to remove: the base has no phase 'nothing'",
        f"{path}:5:1: error: nothing to replace: the base has no 'score'",
        f"{path}:6:1: error: the base has no param 'new'; a new param needs a range: param new = 1 in LOW..HIGH",
    ]


def test_an_error_that_the_change_makes_in_the_base_points_into_the_base(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, {"base.rules": BASE, "v.rules": 'extends "base.rules"\nremove param goal\n'})
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    base = tmp_path / "base.rules"
    assert f"{base}:5:17: error: unknown name 'goal'" in err
    assert "    5 | define far(p) = goal + 1" in err


def test_missing_bases_and_cycles_are_clear_errors(tmp_path: Path) -> None:
    missing = write(tmp_path, {"m.rules": 'extends "nowhere.rules"\n'})
    (message,) = errors(missing)
    assert message.startswith(f"{missing}:1:9: error: the base file 'nowhere.rules' does not exist")
    write(tmp_path, {"a.rules": 'extends "b.rules"\n', "b.rules": 'extends "sub/../a.rules"\n'})
    found = errors(tmp_path / "a.rules")
    assert any("the variants extend each other in a cycle: a.rules → b.rules → a.rules" in m for m in found)


def test_a_base_that_is_a_record_or_not_rules_is_said_so_alone(tmp_path: Path) -> None:
    """A base that is not a rules file is said to be one error at the ``extends``, with no note
    that the base "has errors" (it has none: it is something else); a game record is named."""
    record = '{"meeple_record": 1, "rules": "g.rules", "rules_hash": "", "params": {}, "players": 2}\n'
    write(tmp_path, {"saved.jsonl": record, "notes.txt": "some notes\n", "w.rules": 'extends "notes.txt"\n'})
    path = write(tmp_path, {"v.rules": 'extends "saved.jsonl"\n'})
    with pytest.raises(RulesError) as e:
        read_ir(str(path))
    assert [d.kind for d in e.value.diagnostics] == ["error"]  # (no note: the base has no errors of its own)
    assert errors(path) == [f"{path}:1:9: error: the base 'saved.jsonl' is a game record (JSON lines): 'extends' "
                            f"names a rules file (.rules) or an IR file (.json)"]
    other = tmp_path / "w.rules"
    assert errors(other) == [f"{other}:1:9: error: the base 'notes.txt' is not a rules file (it does not parse as "
                             f"one): 'extends' names a rules file (.rules) or an IR file (.json)"]


def test_a_base_behind_a_loop_of_links_is_said_at_the_extends(tmp_path: Path) -> None:
    """A loop of symbolic links on the way to the base made Path.resolve fail (an internal error)."""
    import os
    os.symlink("loop", tmp_path / "loop")
    path = write(tmp_path, {"v.rules": 'extends "loop/base.rules"\n'})
    assert errors(path) == [f"{path}:1:9: error: the base file 'loop/base.rules' cannot be found: a loop of "
                            f"symbolic links"]


def test_variants_of_variants_go_16_deep_and_one_more_is_said_at_the_file_given(tmp_path: Path) -> None:
    """MAX_CHAIN 'extends' one after another are allowed (a chain of 16 was refused as 'more than 16
    deep'); one more is an error at the 'extends' of the file given, not at the deepest file with
    a note in each file between."""
    from meeple.dsl.variants import MAX_CHAIN
    assert MAX_CHAIN == 16
    write(tmp_path, {"v0.rules": BASE})
    for i in range(1, MAX_CHAIN + 2):
        write(tmp_path, {f"v{i}.rules": f'# variant {i}\nextends "v{i - 1}.rules"\nparam goal = {i % 10}\n'})
    assert read_ir(str(tmp_path / f"v{MAX_CHAIN}.rules"))[0]["params"][0]["default"] == MAX_CHAIN % 10
    top = tmp_path / f"v{MAX_CHAIN + 1}.rules"
    with pytest.raises(RulesError) as e:
        read_ir(str(top))
    (only,) = e.value.diagnostics
    assert only.headline() == (f"{top}:2:9: error: variants of variants more than 16 deep: v17.rules → v16.rules → "
                               f"v15.rules → ... → v1.rules → v0.rules is 17 deep")
    assert main(["validate", str(top)]) == 1


def test_a_syntax_error_in_the_base_is_shown_in_the_base(tmp_path: Path) -> None:
    path = write(tmp_path, {"base.rules": BASE.replace("define far(p) =", "define far(p) =="),
                            "v.rules": 'extends "base.rules"\n'})
    with pytest.raises(RulesError) as e:
        read_ir(str(path))
    text = str(e.value)
    assert f"{tmp_path / 'base.rules'}:5:" in text and "    5 | define far(p) ==" in text
    assert f"{path}:1:9: note: the base file 'base.rules' has errors" in text
    assert text.index(f"{tmp_path / 'base.rules'}:5:") < text.index(f"{path}:1:9: note:")  # (the note comes after)


def test_replace_and_remove_outside_a_variant_are_errors(tmp_path: Path) -> None:
    path = write(tmp_path, {"x.rules": BASE + "remove report \"goal\"\n"})
    (message,) = errors(path)
    assert "'remove' changes a base game, so it belongs in a variant" in message


def test_replacing_a_block_outside_a_variant_says_so_not_declared_twice(tmp_path: Path) -> None:
    path = write(tmp_path, {"x.rules": BASE + "replace players 2..4\nreplace turn {\n  end game\n}\n"})
    assert errors(path) == [
        f"{path}:11:1: error: 'replace' changes a base game, so it belongs in a variant: a file that starts "
        "with 'extends \"base.rules\"'",
        f"{path}:12:1: error: 'replace' changes a base game, so it belongs in a variant: a file that starts "
        "with 'extends \"base.rules\"'"]
    in_a_variant = write(tmp_path, {"base.rules": BASE, "v.rules": 'extends "base.rules"\nreplace players 2..4\n'
                                    "replace players 2..5\n"})
    assert errors(in_a_variant) == [f"{in_a_variant}:3:9: error: 'players' is declared twice"]


def test_a_param_without_a_range_outside_a_variant(tmp_path: Path) -> None:
    path = write(tmp_path, {"x.rules": BASE.replace('param goal = 5 in 1..9 "how far to go"', "param goal = 5")})
    (message,) = errors(path)
    assert "param 'goal' needs a range: param goal = 5 in LOW..HIGH" in message


def test_variants_of_variants(tmp_path: Path) -> None:
    path = write(tmp_path, {"base.rules": BASE, "one/v1.rules": 'extends "../base.rules"\nparam goal = 7\n',
                            "two/v2.rules": 'extends "../one/v1.rules"\nreplace define far(p) = 2\n'})
    ir, _ = read_ir(str(path))
    assert ir["params"][0]["default"] == 7 and ir["defines"][0]["body"] == {"node": "int", "value": 2,
                                                                             "at": {"span": [2, 25, 2, 26]}}
    assert [Path(s).name for s in ir["sources"]] == ["v2.rules", "v1.rules", "base.rules"]
    assert ir["params"][0]["at"]["span"][4] == 1 and ir["zones"][0]["at"]["span"][4] == 2


def test_the_record_hash_covers_the_base(tmp_path: Path) -> None:
    path = write(tmp_path, {"base.rules": BASE, "v.rules": 'extends "base.rules"\n'})
    before = meeple.load(str(path)).source_hash
    (tmp_path / "base.rules").write_text(BASE.replace("in 1..9", "in 1..10"))
    assert meeple.load(str(path)).source_hash != before


def test_ir_of_a_variant_is_the_whole_game_and_loads_as_json(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, {"base.rules": BASE, "v.rules": 'extends "base.rules"\nparam goal = 3\n'})
    assert main(["ir", str(path)]) == 0
    doc = capsys.readouterr().out
    (tmp_path / "v.json").write_text(doc)
    game = meeple.load(str(tmp_path / "v.json"))
    assert game.params["goal"] == 3 and game.title == "Base"


def test_diff_names_each_change_in_rule_terms(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, {"base.rules": BASE, "v.rules": """extends "base.rules"
param goal = 7
param bonus = 2 in 0..3
replace define far(p) = goal + bonus
remove invariant deck_empty
"""})
    assert main(["diff", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path} changes {tmp_path / 'base.rules'} in 4 places:" in out
    assert f"  param goal: 5 → 7  ({path}:2)" in out
    assert "  added param bonus" in out and "      + param bonus = 2 in 0..3" in out
    assert "  changed define far" in out
    assert "      -define far(p) = goal + 1" in out and "      +define far(p) = goal + bonus" in out
    assert "  removed invariant deck_empty" in out and "      - invariant deck_empty: count(deck) == 0" in out


def test_diff_of_two_full_files_as_json_and_of_the_same_game(tmp_path: Path, capsys) -> None:
    import json
    a = write(tmp_path, {"a.rules": BASE})
    b = write(tmp_path, {"b.rules": BASE.replace("players 2..3", "players 2..4")})
    assert main(["diff", str(a), str(b), "--json"]) == 1
    (change,) = json.loads(capsys.readouterr().out)
    assert (change["what"], change["kind"], change["old"], change["new"]) == (
        "changed", "players", ["players 2..3"], ["players 2..4"])
    assert main(["diff", str(a), str(a)]) == 0
    assert "plays the same game" in capsys.readouterr().out


def test_diff_of_a_file_that_extends_nothing_asks_for_the_base(tmp_path: Path, capsys) -> None:
    a = write(tmp_path, {"a.rules": BASE})
    assert main(["diff", str(a)]) == 2
    assert "extends no base; give the base too" in capsys.readouterr().err


@pytest.mark.parametrize("stopping", ["stopping at plain", ""])
def test_diff_sees_a_changed_or_removed_stopping_at(tmp_path: Path, capsys, stopping: str) -> None:
    """'stopping at' is the field stop_at; version 1 of the IR took any key ending in _at for a
    position, so meeple diff said such a variant plays the same game."""
    hare = (Path(__file__).resolve().parents[1] / "games" / "hare.rules").read_text(encoding="utf-8")
    line = "    [sheep] move sheep by on_table(sheep) + 1 stopping at stream"
    assert line in hare
    (tmp_path / "base.rules").write_text(hare, encoding="utf-8")
    (tmp_path / "variant.rules").write_text(hare.replace(line, line.replace("stopping at stream", stopping)),
                                            encoding="utf-8")
    assert main(["diff", str(tmp_path / "base.rules"), str(tmp_path / "variant.rules")]) == 1
    assert "changed rule [sheep]" in capsys.readouterr().out


def test_diff_names_where_an_extend_adds_not_the_declaration_it_extends(tmp_path: Path, capsys) -> None:
    """``extend cards`` and ``extend pieces`` change a declaration of the base from the variant's
    file: the line named is the variant's, where the first added variety or value is written."""
    base = """game "Base"
players 2..3
zone deck hidden
track lane { spaces 5 }
pieces runner on lane { red blue }
cards runner_card in deck { 3 red { runner = red } 3 blue { runner = blue } }
turn { end game }
"""
    path = write(tmp_path, {"base.rules": base, "v.rules": """extends "base.rules"

extend pieces runner { green }
extend cards runner_card {
  3 green { runner = green }
}
"""})
    assert main(["diff", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"  changed pieces runner: + green  ({path}:3)" in out, out
    assert f"  changed cards runner_card: + green  ({path}:5)" in out, out


@pytest.mark.parametrize("looped_base", [False, True], ids=["plain base", "base made by a loop"])
def test_diff_names_varieties_an_extend_makes_by_a_loop(tmp_path: Path, capsys, looped_base: bool) -> None:
    """A variety written in a loop (``for s in suit { 1 gen {...} }``) is named by its name and
    the loop's variables, in the base and in the extend."""
    deck = "for s in suit {\n    2 plain { col = s }\n  }" if looped_base else "2 plain { v = 1 }"
    base = f'game "B"\nplayers 2\nenum suit {{ red blue }}\nzone deck hidden\ncards c in deck {{\n  {deck}\n}}\n' \
        'turn {\n  end game\n}\n'
    path = write(tmp_path, {"base.rules": base, "v.rules": 'extends "base.rules"\nextend cards c {\n  for s in suit {\n'
                            '    1 gen { v = 2, col = s }\n  }\n}\n'})
    assert main(["diff", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"  changed cards c: + gen (for each s)  ({path}:4)" in out and "None" not in out, out


def test_diff_says_what_a_plain_value_was_and_is(tmp_path: Path, capsys) -> None:
    """``replace max_steps 100``: the old and the new number, and where each is written."""
    path = write(tmp_path, {"base.rules": BASE.replace('players 2..3\n', 'players 2..3\nmax_steps 500\n'),
                            "v.rules": 'extends "base.rules"\n\nreplace max_steps 100\n'})
    assert main(["diff", str(path)]) == 1
    assert f"  changed max_steps: 500 → 100  ({path}:3)" in capsys.readouterr().out
    assert main(["diff", str(path), "--json"]) == 1
    (change,) = json.loads(capsys.readouterr().out)
    assert (change["summary"], change["old_at"], change["new_at"]) == ("500 → 100", f"{tmp_path / 'base.rules'}:3",
                                                                       f"{path}:3")


def test_diff_of_a_tiebreak_left_out_names_it_and_where_it_was(tmp_path: Path, capsys) -> None:
    """A part that is not a plain value (a tiebreak) left out: named with its place, not printed as IR."""
    text = 'game "A"\nplayers 2\nvar n = 0\nturn {\n  set n = n + 1\n}\nend when n > 3\nscore(p) = n\ntiebreak(p) = n\n'
    a = write(tmp_path, {"a.rules": text})
    b = write(tmp_path, {"b.rules": text.replace("tiebreak(p) = n\n", "")})
    assert main(["diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert f"  changed tiebreak  ({a}:9)" in out and "'node'" not in out, out


def test_diff_shows_a_rules_texts_control_characters_as_escapes(tmp_path: Path, capsys) -> None:
    a = write(tmp_path, {"a.rules": BASE})
    b = write(tmp_path, {"b.rules": BASE + 'report "r\x1b[2Jq" = goal\n'})
    assert main(["diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "added report r\\x1b[2Jq" in out, out


def test_diff_shows_the_titles_as_written(tmp_path: Path, capsys) -> None:
    """A changed title was shown as Python writes a string ('Base' → "Bob's"); it is as the rules
    write it, its control characters as escapes, and as it is in --json."""
    a = write(tmp_path, {"a.rules": BASE})
    b = write(tmp_path, {"b.rules": BASE.replace('game "Base"', 'game "Bob\'s \x1b[2J game"')})
    assert main(["diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert "  changed game: \"Base\" → \"Bob's \\x1b[2J game\"\n" in out and "\x1b" not in out, out
    assert main(["diff", str(a), str(b), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)[0]["summary"] == '"Base" → "Bob\'s \x1b[2J game"'


def test_diff_reads_no_file_an_ir_document_names(tmp_path: Path, capsys) -> None:
    """An IR document is the game, merged: its "sources" are its word, and the files they name are
    read only to see whether they make this very document. Those do not: alone it has no base to
    be compared with, and beside a base, no line of a file its "sources" name is shown."""
    import json
    secret = tmp_path / "secret.rules"
    secret.write_text("".join(f"a secret line {i}\n" for i in range(100)), encoding="utf-8")
    base = write(tmp_path, {"base.rules": BASE})
    variant = write(tmp_path, {"v.rules": 'extends "base.rules"\nparam goal = 7\nreplace define far(p) = goal + 2\n'})
    assert main(["ir", str(variant)]) == 0
    doc = json.loads(capsys.readouterr().out)
    doc["sources"] = [str(secret), str(secret)]
    (tmp_path / "v.json").write_text(json.dumps(doc), encoding="utf-8")
    assert main(["diff", str(tmp_path / "v.json")]) == 2
    assert "extends no base; give the base too" in capsys.readouterr().err
    assert main(["diff", str(base), str(tmp_path / "v.json")]) == 1
    out = capsys.readouterr().out
    assert "changed define far" in out and "a secret line" not in out, out


def test_diff_with_an_ir_document_shows_the_lines_of_the_rules_it_was_made_from(tmp_path: Path, capsys,
                                                                                  monkeypatch) -> None:
    """An IR document (``meeple ir``) on either side of diff: its lines are those of the rules
    files it was made from, when they are at hand and still make it. diff showed none of its lines
    (``@@ -1 +0,0 @@``, as if the rule had been emptied)."""
    monkeypatch.chdir(tmp_path)  # (the document names its files as `meeple ir` was given them)
    write(tmp_path, {"base.rules": BASE, "v.rules": 'extends "base.rules"\nreplace define far(p) = goal + 2\n'})
    for name in ("base", "v"):
        assert main(["ir", f"{name}.rules"]) == 0
        (tmp_path / f"{name}.json").write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["diff", "base.rules", "v.rules"]) == 1
    expected = capsys.readouterr().out.splitlines()[1:]
    assert expected == ["  changed define far  (v.rules:2)", "      @@ -1 +1 @@",
                        "      -define far(p) = goal + 1", "      +define far(p) = goal + 2"], expected
    for old, new in [("base.rules", "v.json"), ("base.json", "v.rules"), ("base.json", "v.json")]:
        assert main(["diff", old, new]) == 1
        assert capsys.readouterr().out.splitlines()[1:] == expected, (old, new)
    assert main(["diff", "v.json"]) == 1  # (its base found from the rules it was made from)
    assert capsys.readouterr().out.splitlines()[1:] == expected


def test_diff_with_an_ir_document_whose_rules_changed_shows_the_other_sides_lines(tmp_path: Path, capsys,
                                                                                   monkeypatch) -> None:
    """When the rules files an IR document names no longer make it (changed since, or not in
    this folder), its lines are not shown, and diff says so: the other side's lines alone."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"base.rules": BASE, "v.rules": 'extends "base.rules"\nreplace define far(p) = goal + 2\n'})
    assert main(["ir", "v.rules"]) == 0
    (tmp_path / "v.json").write_text(capsys.readouterr().out, encoding="utf-8")
    (tmp_path / "v.rules").write_text('extends "base.rules"\n\nreplace define far(p) = goal + 2\n')
    assert main(["diff", "base.rules", "v.json"]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[1:] == [
        "  changed define far  (v.rules:2)", "      - define far(p) = goal + 1",
        "(the lines of v.json are not shown: it is an IR document, and the rules files it was made from are not "
        "at hand from this folder, or no longer make it)"], out


def test_diff_of_a_variant_of_an_ir_document_shows_rules_lines_not_json(tmp_path: Path, capsys, monkeypatch) -> None:
    """A variant may extend an IR document; the base's declarations point into the document, whose
    lines diff showed as if they were rules ('"changes": [],'). They are the lines of the rules
    file the document was made from, when it still makes it; else none."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"base.rules": 'game "B"\nplayers 2\nzone deck hidden\ncards c in deck {\n  2 plain { v = 1 }\n}\n'
                                   'turn {\n  end game\n}\n',
                     "v.rules": 'extends "base.json"\nextend cards c {\n  3 gold { v = 2 }\n}\n'
                                'replace turn {\n  end game with no winner\n}\n'})
    assert main(["ir", "base.rules"]) == 0
    (tmp_path / "base.json").write_text(capsys.readouterr().out, encoding="utf-8")
    expected = ["  removed rule in turn  (base.rules:8)", "      - end game",
                "  added rule in turn  (v.rules:6)", "      + end game with no winner",
                "  changed cards c: + gold  (v.rules:3)"]
    for files in (["v.rules"], ["base.json", "v.rules"], ["base.rules", "v.rules"]):
        assert main(["diff", *files]) == 1
        out = capsys.readouterr().out
        assert out.splitlines()[1:] == expected, (files, out)
    (tmp_path / "base.rules").write_text("# gone\n")
    assert main(["diff", "v.rules"]) == 1
    out = capsys.readouterr().out
    assert '"' not in out and "- end game\n" not in out, out


def test_diff_with_an_ir_document_made_over_an_ir_base_or_naming_itself(tmp_path: Path, capsys, monkeypatch) -> None:
    """The IR of a variant whose base is an IR document: its lines are those of the rules files
    beneath both documents (diff showed none). An IR document whose source names itself (a rules
    file overwritten by its own IR) has no lines to show, and diff says so (it failed inside with
    a KeyError, exit 3)."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"base.rules": BASE, "v.rules": 'extends "base.rules"\nreplace define far(p) = goal + 2\n'})
    assert main(["ir", "v.rules"]) == 0
    (tmp_path / "v.json").write_text(capsys.readouterr().out, encoding="utf-8")
    (tmp_path / "w.rules").write_text('extends "v.json"\n', encoding="utf-8")
    assert main(["ir", "w.rules"]) == 0
    (tmp_path / "w.json").write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["diff", "base.rules", "w.json"]) == 1
    assert capsys.readouterr().out.splitlines()[1:] == [
        "  changed define far  (v.rules:2)", "      @@ -1 +1 @@",
        "      -define far(p) = goal + 1", "      +define far(p) = goal + 2"]
    (tmp_path / "g.rules").write_text(BASE, encoding="utf-8")
    assert main(["ir", "g.rules"]) == 0
    (tmp_path / "g.rules").write_text(capsys.readouterr().out, encoding="utf-8")
    for files in (["g.rules", "v.rules"], ["v.rules", "g.rules"]):
        assert main(["diff", *files]) == 1
        out = capsys.readouterr().out
        assert "the lines of g.rules are not shown" in out, out


def test_diff_of_a_variant_alone_finds_the_ir_document_it_extends(tmp_path: Path, capsys, monkeypatch) -> None:
    """diff VARIANT compares with the base its 'extends' names. Of a variant of an IR document, or
    of that variant's IR, it took the base for the first rules file beneath: when the rules the
    base document was made from had changed since, it said "extends no base" (giving both worked),
    and when they had not, it named them, not the base extended."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"base.rules": BASE, "v.rules": 'extends "base.json"\nreplace define far(p) = goal + 2\n'})
    for name in ("base", "v"):
        assert main(["ir", f"{name}.rules"]) == 0
        (tmp_path / f"{name}.json").write_text(capsys.readouterr().out, encoding="utf-8")
    (tmp_path / "w.rules").write_text('extends "v.json"\ngame "W"\n', encoding="utf-8")
    assert main(["ir", "w.rules"]) == 0
    (tmp_path / "w.json").write_text(capsys.readouterr().out, encoding="utf-8")
    for variant, base, change, changed in [("v.json", "base.json", "  changed define far  (v.rules:2)", "base.rules"),
                                           ("w.rules", "v.json", '  changed game: "Base" → "W"', "v.rules"),
                                           ("w.json", "v.json", '  changed game: "Base" → "W"', "v.rules")]:
        (tmp_path / changed).write_text("# since changed\n" + (tmp_path / changed).read_text(), encoding="utf-8")
        assert main(["diff", variant]) == 1
        out = capsys.readouterr().out
        assert out.startswith(f"{variant} changes {base} in 1 place:\n{change}"), (variant, out)
    (tmp_path / "w.rules").unlink()  # (the document alone: its base is not to be had)
    assert main(["diff", "w.json"]) == 2
    assert "w.json extends no base; give the base too: meeple diff BASE w.json" in capsys.readouterr().err


def test_an_error_the_checker_finds_in_a_base_has_a_note_at_the_variants_extends(tmp_path: Path) -> None:
    """errors.md: a problem in a base file is shown in the base, with a note at the variant's
    'extends'. A syntax error had it; an error the checker finds in the merged game (an unknown
    name in the base, or one a variant's replace made) had none."""
    write(tmp_path, {"base.rules": 'game "B"\nplayers 2\nvar n = 0\nturn {\n  if tru { set n = 1 }\n  end game\n}\n',
                     "var.rules": 'extends "base.rules"\ngame "V"\n'})
    with pytest.raises(RulesError) as info:
        meeple.dsl.read_checked(str(tmp_path / "var.rules"))
    found = [(Path(d.file).name, d.kind, d.line, d.message) for d in info.value.diagnostics]
    assert ("base.rules", "error", 5, "unknown name 'tru'") in found
    assert ("var.rules", "note", 1, "'base.rules', extended here, has errors in the game this file makes") in found
    shown = str(info.value)  # the note after the error it is about, even past the errors shown
    assert shown.index("unknown name 'tru'") < shown.index("note: 'base.rules', extended here")
    sets = "".join(f"  set n = n + x{i}\n" for i in range(40))
    many = f'game "B"\nplayers 2\nvar n = 0\nturn {{\n{sets}  end game\n}}\n'
    write(tmp_path, {"base.rules": many})
    with pytest.raises(RulesError) as info:
        meeple.dsl.read_checked(str(tmp_path / "var.rules"))
    shown = str(info.value)
    assert "... and 10 more" in shown and shown.index("x29") < shown.index("and 10") < shown.index("extended here")


def test_an_error_in_an_ir_base_is_said_by_json_path_not_under_a_line_of_json(tmp_path: Path, capsys,
                                                                               monkeypatch) -> None:
    """The positions in an IR document are of the rules file it was made from: an error the checker
    finds in such a base is said at its JSON path, the rules line as a note, as when the document
    is checked alone (it was drawn under the document's own line of that number)."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"base.rules": 'game "B"\nplayers 2\nvar n = 0\nturn {\n  set n = n + 1\n  end game\n}\n',
                     "v.rules": 'extends "base.json"\ngame "V"\n'})
    assert main(["ir", "base.rules"]) == 0
    doc = json.loads(capsys.readouterr().out)
    doc["vars"][0]["init"] = {"node": "name", "id": "nonesuch", "at": doc["vars"][0]["init"]["at"]}
    (tmp_path / "base.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    with pytest.raises(RulesError) as info:
        meeple.dsl.read_checked("v.rules")
    [error] = [d for d in info.value.diagnostics if d.kind == "error"]
    assert (error.file, error.line, error.path) == ("base.json", 0, "$.vars[0].init")
    assert error.message == "unknown name 'nonesuch' (from base.rules:3:9)"
    assert main(["validate", "v.rules"]) == 1
    err = capsys.readouterr().err
    assert "base.json: error: unknown name 'nonesuch' (from base.rules:3:9) (at $.vars[0].init)" in err
    assert '"node"' not in err


SHOWN = BASE + 'var far_seen = 0\nshow "far" (p) = far(p)\nshow "seen" = far_seen\n'


def test_a_variant_replaces_and_removes_a_show_by_its_text(tmp_path: Path) -> None:
    """A base's show could not be changed: a variant's show of the same text was a second row of
    that name in play, and a show reading a var the variant removes was an error with no way out."""
    path = write(tmp_path, {"base.rules": SHOWN, "v.rules": 'extends "base.rules"\n'
                            'replace show "far" (p) = 2 * far(p)\nremove show "seen"\nremove var far_seen\n'})
    ir, _ = read_ir(str(path))
    (far,) = ir["shows"]
    assert far["label"] == "far" and far["expr"]["node"] == "bin_op"
    again = write(tmp_path, {"w.rules": 'extends "base.rules"\nshow "far" = 1\n'})
    assert errors(again) == [f"{again}:2:1: error: the base already has show 'far'; write 'replace show ...' to "
                             "change it, or choose another name"]
    typo = write(tmp_path, {"t.rules": 'extends "base.rules"\nremove show "fra"\n'})
    assert errors(typo) == [f"{typo}:2:13: error: nothing to remove: the base has no show 'fra' (did you mean 'far'?)"]
    assert main(["diff", str(path)]) == 1


def test_a_show_is_declared_once(tmp_path: Path) -> None:
    path = write(tmp_path, {"x.rules": SHOWN + 'show "far" (p) = 1\n'})
    assert errors(path) == [f"{path}:14:1: error: show \"far\" is declared twice: give each its own text (a variant "
                            f"changes the base's with 'replace show \"far\" = ...')"]


def test_a_name_that_clashes_with_a_param_the_variant_sets_is_said_against_the_bases_declaration(
        tmp_path: Path, capsys) -> None:
    """'param goal = 7' sets the base's param: a var of its name clashes with the base's declaration
    (the note pointed at the variant's 'param goal = 7'); a default outside the range is still said
    where the variant sets it."""
    path = write(tmp_path, {"base.rules": BASE, "v.rules": 'extends "base.rules"\nparam goal = 7\nvar goal = 0\n'})
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:3:5: error: var 'goal' clashes with the param of the same name" in err
    assert f"note: the first is at {tmp_path / 'base.rules'}:3:7" in err and f"{path}:2:" not in err
    path = write(tmp_path, {"base.rules": BASE, "v.rules": 'extends "base.rules"\nparam goal = 70\n'})
    assert main(["validate", str(path)]) == 1
    assert f"{path}:2:1: error: param 'goal' = 70 lies outside its range 1..9" in capsys.readouterr().err
