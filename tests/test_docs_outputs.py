"""Every command output that docs/authoring.md and the README show is what the command prints.

A ```console block whose commands (``$ ...`` lines) run meeple is run here, in a fresh folder, and
its output compared with the block, line by line; a line ``...`` stands for any number of lines,
and a ``wall time`` line for any timing. What the folder holds is said by comments just before
the block (the tutorial's readers see nothing of them):

    <!-- run: slipstream.rules from step 3 -->                the tutorial's file of step 3
    <!-- run: slipstream.rules from step 6, "A" → "B" -->     ... with text A written as B
    <!-- run: broken.rules from games/hare.rules, "A" → "B" -->   a file of the repository, changed
    <!-- run: continue -->                                    the folder of the block before, as it was left
    <!-- command: yes 1 | meeple play ... -->                 the command of a block that shows output only

``games/`` of the repository is always there. The progress lines a long command prints every
few seconds off a terminal (``fuzzing: 40/100 games``) depend on the machine's speed: left out.
Blocks marked ``<!-- output: ... -->`` are checked by tests/test_authoring.py instead. Every
block that runs meeple must be checked: one without a ``run`` comment fails here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "docs" / "authoring.md", ROOT / "README.md"]
TUTORIAL = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
# each whole file the tutorial shows: (its name, its step) → its text
FILES = {(name, int(step)): text for name, step, text in
         re.findall(r"<!-- file: (\S+) \(step (\d+)\) -->\n```rules\n(.*?)```", TUTORIAL, flags=re.DOTALL)}
STEPS = sorted(step for name, step in FILES if name == "slipstream.rules")


# what a long command prints every few seconds when not on a terminal: it depends on the machine's speed
PROGRESS = re.compile(r"^(fuzzing|simulating|shrinking)[^:]*: [\d,]+/[\d,]+ games")


class Block(NamedTuple):
    doc: str
    line: int  # where the block starts in its document
    notes: list[str]  # the comments just before it
    body: list[str]


def blocks() -> list[Block]:
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in re.finditer(r"((?:<!--.*?-->\n)*)```console\n(.*?)```", text, flags=re.DOTALL):
            notes = re.findall(r"<!-- (.*?) -->", m.group(1))
            out.append(Block(doc.name, text[:m.start(2)].count("\n") + 1, notes, m.group(2).splitlines()))
    return out


CHECKED = [b for b in blocks() if not any(n.startswith("output:") for n in b.notes)
           and any("meeple " in line for line in b.body + b.notes if line.startswith(("$ ", "command:")))]


def scenes() -> list[list[Block]]:
    """The blocks in runs that share a folder (a block marked 'continue' joins the one before)."""
    out: list[list[Block]] = []
    for b in CHECKED:
        if "run: continue" in b.notes and out:
            out[-1].append(b)
        else:
            out.append([b])
    return out


def prepare(folder: Path, notes: list[str]) -> None:
    """The files the notes ask for, in ``folder``."""
    for note in notes:
        m = re.fullmatch(r"run: (\S+) from (step (\d+)|\S+)((?:, \".*?\" → \".*?\")*)", note)
        if not m:
            continue
        if m.group(3):
            text = FILES[m.group(1), int(m.group(3))]
        else:
            text = (ROOT / m.group(2)).read_text(encoding="utf-8")
        for old, new in re.findall(r"\"(.*?)\" → \"(.*?)\"", m.group(4)):
            assert text.count(old) == 1, f"{note}: {old!r} is not in the file once"
            text = text.replace(old, new)
        (folder / m.group(1)).write_text(text, encoding="utf-8")
    if not (folder / "games").exists():
        (folder / "games").symlink_to(ROOT / "games")


def commands(b: Block) -> list[tuple[str, list[str]]]:
    """(command, the output the block shows for it)."""
    said = [n[len("command: "):] for n in b.notes if n.startswith("command: ")]
    out: list[tuple[str, list[str]]] = [(said[0], [])] if said else []
    for line in b.body:
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return [(c, shown) for c, shown in out if "meeple " in c]


def run(command: str, folder: Path) -> list[str]:
    env = {**os.environ, "COLUMNS": "80", "LINES": "50", "TERM": "dumb", "NO_COLOR": "1",
           "XDG_CACHE_HOME": str(folder / ".cache"),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("CI", None)
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    return [line for line in done.stdout.splitlines() if not PROGRESS.match(line)]


def same(shown: str, real: str) -> bool:
    if shown.startswith("wall time "):
        return real.startswith("wall time ")
    return shown.rstrip() == real.rstrip()


def fits(shown: list[str], real: list[str]) -> bool:
    """Does ``real`` read as ``shown``, a line '...' standing for any number of lines?"""
    memo: dict[tuple[int, int], bool] = {}

    def at(i: int, j: int) -> bool:
        if (i, j) not in memo:
            if i == len(shown):
                memo[i, j] = j == len(real)
            elif shown[i].strip() == "...":
                memo[i, j] = at(i + 1, j) or (j < len(real) and at(i, j + 1))
            else:
                memo[i, j] = j < len(real) and same(shown[i], real[j]) and at(i + 1, j + 1)
        return memo[i, j]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20 * (len(shown) + len(real)) + 1000))
    return at(0, 0)


def test_every_block_that_runs_meeple_says_how_to_run_it():
    assert len(CHECKED) >= 15
    for b in CHECKED:
        assert any(n.startswith("run: ") for n in b.notes), f"{b.doc}:{b.line}: no '<!-- run: ... -->' before it"


def test_matching_reads_ellipses_and_timings():
    assert fits(["a", "...", "d"], ["a", "b", "c", "d"]) and fits(["a", "..."], ["a"])
    assert not fits(["a", "d"], ["a", "b", "d"]) and not fits(["a", "...", "e"], ["a", "b"])
    assert fits(["wall time 0.71 s, 707 games/s"], ["wall time 0.52 s, 960 games/s (2 worker processes)"])


@pytest.mark.parametrize("scene", scenes(), ids=lambda s: f"{s[0].doc}:{s[0].line}")
def test_the_output_shown_is_what_the_command_prints(scene: list[Block], tmp_path: Path):
    for b in scene:
        prepare(tmp_path, b.notes)
        for command, shown in commands(b):
            real = run(command, tmp_path)
            assert fits(shown, real), (f"{b.doc}:{b.line}: '$ {command}' prints, in full:\n" + "\n".join(real))


@pytest.mark.parametrize("name,step", sorted(FILES), ids=lambda v: str(v))
def test_each_file_the_tutorial_builds_is_formatted(name: str, step: int, tmp_path: Path, monkeypatch, capsys):
    """The file a reader has after each step passes 'meeple fmt --check' (a variant with its base beside it)."""
    from meeple.tools.cli import main
    (tmp_path / "slipstream.rules").write_text(FILES["slipstream.rules", min(step, max(STEPS))], encoding="utf-8")
    (tmp_path / name).write_text(FILES[name, step], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["fmt", "--check", name]) == 0, capsys.readouterr()


def test_the_readme_python_runs_as_it_stands(tmp_path: Path, monkeypatch, capsys):
    """The README's Python section: the whole run-time API a user needs, run as written."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    for name in ("load(", "params=", "current_player()", "chance_outcomes()", 'chance="explicit"', "returns()",
                 "observation(", "clone()", "write_record", "replay_record", "Listener"):
        assert name in code, f"the README's Python does not show {name}"
    prepare(tmp_path, [])
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out
    assert out.startswith("The Hare and the Tortoise 2 5 13\n")
    assert (tmp_path / "game.jsonl").exists()
