"""Tags at fixed places on a track (``mud at 5, 11``): there from the start in every game, no
tile laid on them, ``stopping at`` stops on them; a track without them keeps its IR as it was."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import meeple
from meeple.dsl import read_ir

RULES = '''game "Mud"
players 2
param length = 12 in 8..20 "spaces"
track lane {
  spaces length
  tiles { 2 ice, (length - 5) grass }
  mud at 3, 7
  bog at (length - 1)
}
pieces runner on lane { red blue }
zone pile public
turn {
  choose go by current {
    red_runs {
      move red by 2 stopping at mud
    }
    blue_runs {
      move blue by 3 stopping at bog
    }
  }
}
end when finishers(lane) >= 1
'''


@pytest.fixture()
def mud(tmp_path: Path) -> Path:
    path = tmp_path / "mud.rules"
    path.write_text(RULES, encoding="utf-8")
    return path


def test_the_tagged_spaces_carry_their_tags_in_every_game_and_get_no_tile(mud: Path) -> None:
    game = meeple.load(str(mud))
    for seed in range(10):
        state = game.new_state(2, seed=seed)
        tags = state.tags[0]
        assert (tags[3], tags[7], tags[11]) == ("mud", "mud", "bog")
        assert sorted(t for n, t in enumerate(tags) if n not in (0, 3, 7, 11)) == ["grass"] * 7 + ["ice"] * 2
        laid = [text for actor, text in state.history() if actor == "chance"]
        assert len(laid) == 9 and not any(text.split()[1] in ("3", "7", "11") for text in laid)


def test_a_param_moves_a_tagged_space(mud: Path) -> None:
    state = meeple.load(str(mud), params={"length": 16}).new_state(2, seed=1)
    assert state.tags[0][15] == "bog" and state.tags[0][11] != "bog"


def test_chance_one_space_at_a_time_skips_the_tagged_spaces(mud: Path) -> None:
    state = meeple.load(str(mud)).new_state(2, chance="explicit")
    spaces = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        spaces.append(int(str(outcomes[0][0]).split()[1]))
        state.apply(outcomes[0][0])
    assert spaces == [1, 2, 4, 5, 6, 8, 9, 10, 12]
    assert state.tags[0][3] == "mud"


def test_a_piece_stops_on_a_tagged_space(mud: Path) -> None:
    state = meeple.load(str(mud)).new_state(2, seed=3)
    state.apply("red_runs")  # 0 -> 2
    state.apply("blue_runs")
    state.apply("red_runs")  # from 2 by 2: space 3 is mud, the first it enters
    assert state.pos[0] == 3


def test_the_ir_names_the_tagged_spaces_only_where_there_are_some(mud: Path) -> None:
    ir, _ = read_ir(str(mud))
    assert [f["tag"] for f in ir["tracks"][0]["fixed"]] == ["mud", "bog"]
    hare, _ = read_ir("games/hare.rules")
    assert "fixed" not in hare["tracks"][0]  # (an older game's IR, and its hash, as they were)


def test_plays_to_the_end(mud: Path) -> None:
    game = meeple.load(str(mud))
    for seed in range(5):
        state = game.new_state(2, seed=seed)
        state.play_out(random.Random(seed))
        assert state.outcome == "end"


@pytest.mark.parametrize("line, message", [
    ("  mud at 3, 13", "track 'lane' has spaces 1..12: no space 13 to tag 'mud'"),
    ("  mud at 0", "track 'lane' has spaces 1..12: no space 0 to tag 'mud'"),
    ("  mud at 3, 3", "space 3 of track 'lane' is named twice for 'mud'"),
    ("  mud at 3\n  bog at 3", "space 3 of track 'lane' is tagged twice ('mud' and 'bog')"),
    ("  mud at 3, 7, 9", "track 'lane' has 12 spaces but its tiles add up to 9 (with 4 of them tagged at fixed "
                         "places, the tiles are for 8)"),
    ("  mud at current", "a space's number must be a number, not a player"),
    ("  mud at (count(pile))", "a space's number here must be a number or made of params"),
])
def test_mistakes_in_tagged_spaces(tmp_path: Path, line: str, message: str) -> None:
    text = RULES.replace("  mud at 3, 7\n", line + "\n")
    path = tmp_path / "bad.rules"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(meeple.RulesError) as info:
        meeple.load(str(path))
    assert message in str(info.value)


def tagged_game(tmp_path: Path, expr: str, end: str = "finishers(lane) >= 1") -> Path:
    text = RULES.replace("end when finishers(lane) >= 1", f"var seen = false\nend when {end}").replace(
        "    red_runs {\n", f"    red_runs {{\n      set seen = {expr}\n")
    path = tmp_path / "tagged.rules"
    path.write_text(text, encoding="utf-8")
    return path


def test_tagged_tells_a_spaces_tag_at_fixed_places_and_on_tiles(tmp_path: Path) -> None:
    tags = meeple.load(str(tagged_game(tmp_path, "true"))).new_state(2, seed=3).tags[0]
    for space in range(-1, 15):
        for tag in ("mud", "bog", "ice", "grass"):
            path = tagged_game(tmp_path, f"tagged(lane, {space}, {tag})" if space >= 0
                               else f"tagged(lane, 0 - 1, {tag})")
            probe = meeple.load(str(path)).new_state(2, seed=3)
            probe.apply("red_runs")
            expected = 0 <= space < len(tags) and tags[space] == tag
            assert probe.var("seen") is expected, (space, tag)


def test_an_end_that_asks_tagged_is_tested_as_the_tiles_are_laid(tmp_path: Path) -> None:
    game = meeple.load(str(tagged_game(tmp_path, "true", end="tagged(lane, 1, ice)")))
    for seed in range(12):
        state = game.new_state(2, seed=seed)
        if state.tags[0][1] == "ice":
            assert state.outcome == "end" and len(state.history()) == 1  # ended by the first tile
        else:
            assert state.outcome is None


@pytest.mark.parametrize("expr, message", [
    ("tagged(lane, 3, lava)", "'lava' is not a tag of track 'lane'"),
    ("tagged(lane, 3, 5)", "the last argument of 'tagged' is a tag of the track"),
    ("tagged(lane, 3)", "'tagged' takes 3 arguments, not 2"),
    ("tagged(red, 3, mud)", "'tagged' needs a track, not"),
])
def test_mistakes_in_tagged(tmp_path: Path, expr: str, message: str) -> None:
    with pytest.raises(meeple.RulesError) as info:
        meeple.load(str(tagged_game(tmp_path, expr)))
    assert message in str(info.value)


@pytest.mark.parametrize("line, message", [
    ("  mud at 3, 7, 3", "space 3 of track 'lane' is named twice for 'mud'"),
    ("  mud at 3, 7, 40", "track 'lane' has spaces 1..12: no space 40 to tag 'mud'"),
])
def test_a_wrong_tagged_space_is_one_error_not_also_a_count_of_tiles(tmp_path: Path, line: str,
                                                                    message: str) -> None:
    """The tiles are for the spaces left once the tagged ones are right; with one of those wrong,
    the tiles' count would be off by it, which is no mistake of the tiles."""
    text = RULES.replace("tiles { 2 ice, (length - 5) grass }", "tiles { 2 ice, (length - 6) grass }")
    path = tmp_path / "bad.rules"
    path.write_text(text.replace("  mud at 3, 7\n", line + "\n"), encoding="utf-8")
    with pytest.raises(meeple.RulesError) as info:
        meeple.load(str(path))
    assert [d.message for d in info.value.diagnostics if d.kind == "error"] == [message]


def test_an_ir_document_with_no_fixed_tags_written_out_is_the_same_game(tmp_path: Path) -> None:
    """``"fixed": []`` is the default that ``meeple ir`` leaves out: the same IR, hash and diff."""
    import json

    from meeple.dsl import compare, ir_from_json
    ir, _ = read_ir("games/hare.rules")
    written = json.loads(json.dumps(ir))
    written["tracks"][0]["fixed"] = []
    path = tmp_path / "hare.json"
    path.write_text(json.dumps(written), encoding="utf-8")
    assert ir_from_json(path.read_text(), str(path))["tracks"][0] == ir["tracks"][0]
    assert meeple.load(str(path)).game_hash == meeple.load("games/hare.rules").game_hash
    assert compare.compare(ir, ir_from_json(path.read_text(), str(path)), {}) == []


def test_the_compiled_lay_names_its_track_not_a_tagged_space(mud: Path) -> None:
    """Working out the tagged spaces writes no code: the lay functions are not under the line of
    the last one; the spaces skipped are in the module, with their tags."""
    module = meeple.load(str(mud)).module.text()
    assert "bog at (length - 1)" not in module
    assert "= {3: 'mud', 7: 'mud', 11: 'bog'}" in module


def test_the_tagged_spaces_may_come_before_the_tiles_and_it_is_the_same_game(tmp_path: Path, mud: Path) -> None:
    moved = tmp_path / "moved.rules"
    moved.write_text(RULES.replace("  tiles { 2 ice, (length - 5) grass }\n  mud at 3, 7\n",
                                   "  mud at 3, 7\n  tiles { 2 ice, (length - 5) grass }\n"), encoding="utf-8")
    assert meeple.load(str(moved)).game_hash == meeple.load(str(mud)).game_hash


def test_a_track_has_one_block_of_tiles(tmp_path: Path) -> None:
    path = tmp_path / "two.rules"
    path.write_text(RULES.replace("  mud at 3, 7\n", "  mud at 3, 7\n  tiles { 1 sand }\n"), encoding="utf-8")
    with pytest.raises(meeple.RulesError) as info:
        meeple.load(str(path))
    assert "track 'lane' has a second 'tiles { }': write all its tiles in one" in str(info.value)


def test_an_ir_document_whose_tag_names_no_space_is_refused(mud: Path, tmp_path: Path) -> None:
    import json
    ir, _ = read_ir(str(mud))
    ir["tracks"][0]["fixed"][0]["spaces"] = []
    doc = tmp_path / "mud.json"
    doc.write_text(json.dumps(ir), encoding="utf-8")
    with pytest.raises(meeple.RulesError) as info:
        meeple.load(str(doc))
    assert "'mud at' names no space of track 'lane'" in str(info.value)
