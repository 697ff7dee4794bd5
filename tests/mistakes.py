"""The corpus of mistakes (tests/fixtures/mistakes/*.case): what a user may get wrong with any
command, and what meeple must answer. One case per file:

    # duplicate zone: both places are named
    command: validate game.rules
    exit: 1
    at: game.rules:4:6
    expect: zone 'deck' is declared twice
    expect: note: the first 'deck' is here
    --- game.rules
    game "x"
    ...

- ``command``: the arguments of ``meeple`` (split like a shell would), run in a fresh folder that
  holds the case's files; ``{games}`` stands for the bundled games' folder.
- ``exit``: the exit status (0 ok, 1 the input or a check failed, 2 usage; 3, a bug, is never right).
- ``at``: where the mistake is, as the output names it (``FILE:LINE:COL`` for a file; the option
  for an argument; ``line N`` of a record...); ``-`` when the mistake has no place.
- ``expect``: text the output (stdout and stderr together) must hold; one or more.
- ``--- NAME``: a file of the case, up to the next ``---`` line; ``--- NAME (escaped)`` reads
  Python escapes in it (``\\r``, ``\\x00``, ``\\u0435``); ``--- NAME (python)`` is a Python
  expression whose value (str or bytes) is the file. ``--- <stdin>`` is the command's input.

The output must never hold a traceback or "internal error". ``run_case`` runs a case in a
process whose address space is capped (forked from one that has imported meeple, or with
MISTAKES_FRESH=1 a new one); tests/test_mistakes.py runs them all, and ``bench/mistakes.py``
reports the slowest, each in a new process.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Optional

from forkserver import waited

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "fixtures" / "mistakes"
MEMORY_LIMIT = 500 * 2**20  # bytes of address space per case
TIMEOUT = 20.0  # seconds per case
FORBIDDEN = ("Traceback (most recent call last)", "internal error", "\x1b", "\u202e")  # (the last two: sent raw)


@dataclass
class Case:
    name: str
    title: str
    command: list[str]
    exit: int
    at: str
    expect: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    stdin: bytes = b""


def read_case(path: Path) -> Case:
    text = path.read_text(encoding="utf-8")
    head, *sections = re.split(r"^--- ", text, flags=re.M)
    title, fields, expect = "", {}, []
    for line in head.splitlines():
        if line.startswith("#") and not title:
            title = line.lstrip("# ").strip()
        elif ":" in line and not line.startswith("#"):
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key == "expect":
                expect.append(value)
            else:
                fields[key] = value
    missing = {"command", "exit", "at"} - set(fields)
    if missing or not expect or not title:
        raise ValueError(f"{path.name}: needs a '# title' line, command, exit, at and expect (missing "
                         f"{sorted(missing) or 'expect/title'})")
    files: dict[str, bytes] = {}
    stdin = b""
    for section in sections:
        header, _, body = section.partition("\n")
        name, _, how = header.strip().partition(" ")
        if how == "(escaped)":
            data = body.encode("utf-8").decode("unicode_escape").encode("utf-8", "surrogatepass")
        elif how == "(python)":
            value = eval(body, {})  # the case's own expression: a test fixture, not user input
            data = value if isinstance(value, bytes) else value.encode("utf-8")
        elif how:
            raise ValueError(f"{path.name}: unknown section kind {how!r}")
        else:
            data = body.encode("utf-8")
        if name == "<stdin>":
            stdin = data
        else:
            files[name] = data
    command = [a.replace("{games}", str(ROOT / "games")) for a in shlex.split(fields["command"])]
    return Case(path.stem, title, command, int(fields["exit"]), fields["at"], expect, files, stdin)


def cases(folder: Path = CASES) -> list[Path]:
    return sorted(folder.glob("*.case"))


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@dataclass
class Outcome:
    code: int
    output: str
    seconds: float
    peak_kib: int  # the case's peak resident memory


@lru_cache(maxsize=1)
def built_parser() -> Optional[Path]:
    """meeple's built parser (the pickle ``meeple.dsl.parse.grammar`` keeps in its cache folder),
    made once per process in a folder of its own; None if it could not be made."""
    home = Path(tempfile.mkdtemp(prefix="meeple-parser-"))
    env = {**os.environ, "XDG_CACHE_HOME": str(home), "PYTHONPATH": str(ROOT)}
    env.pop("MEEPLE_NO_CACHE", None)
    subprocess.run([sys.executable, "-c", "from meeple.dsl.parse import grammar; grammar()"], env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    return next((home / "meeple" / "grammar").glob("*.pickle"), None)


class ForkServer:
    """tests/forkserver.py, started once per process that runs cases: it has imported meeple and
    forks a child per case (see there), which saves each case Python's start and meeple's imports."""

    def __init__(self) -> None:
        self.proc: Optional[subprocess.Popen] = None

    def run(self, request: dict) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            env = {**os.environ, "PYTHONPATH": str(ROOT)}
            self.proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "forkserver.py")], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, env=env, text=True)
            atexit.register(self.proc.kill)
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()
        if not reply:
            raise RuntimeError("tests/forkserver.py stopped (its error is above)")
        return json.loads(reply)


FORKS = ForkServer()


def run_case(case: Case, folder: Path, fresh: Optional[bool] = None) -> Outcome:
    """Run one case's command in ``folder`` (made fresh), its memory capped and its time bounded.

    ``fresh``: in a new Python process, as a user runs it; else (the default, unless the
    environment sets MISTAKES_FRESH=1) in a child forked from a process that has imported meeple
    (``ForkServer``): the same command, run the same way, at a third of the time.

    Its cache folder (``folder/.cache``) starts empty but for the built parser, as a user's
    does after their first command: building it takes a third of a second, which every case
    would pay again; it depends on nothing but meeple's grammar and versions (its name is
    their hash). The IR cache starts empty."""
    if fresh is None:
        fresh = os.environ.get("MISTAKES_FRESH") == "1"
    folder.mkdir(parents=True, exist_ok=True)
    parser = built_parser()
    if parser is not None:
        kept = folder / ".cache" / "meeple" / "grammar" / parser.name
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(parser, kept)
    for name, data in case.files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    env = {**os.environ, "XDG_CACHE_HOME": str(folder / ".cache"), "COLUMNS": "100",
           "PYTHONPATH": str(ROOT)}
    env.pop("MEEPLE_DEBUG", None)
    (folder / ".stdin").write_bytes(case.stdin)
    if fresh:
        code, seconds, peak = _run_fresh(case, folder, env)
    else:
        reply = FORKS.run({"argv": case.command, "cwd": str(folder), "env": env, "stdin": str(folder / ".stdin"),
                           "out": str(folder / ".out"), "memory": MEMORY_LIMIT, "timeout": TIMEOUT})
        code, seconds, peak = reply["code"], reply["seconds"], reply["peak_kib"]
    output = (folder / ".out").read_bytes().decode("utf-8", "replace")
    if seconds > TIMEOUT:
        output += f"\n[killed after {TIMEOUT:.0f} s]"
    return Outcome(code, output, seconds, peak)


def _run_fresh(case: Case, folder: Path, env: dict[str, str]) -> tuple[int, float, int]:
    """``python -m meeple`` in a new process: its exit status, seconds and peak memory (KiB)."""
    start = time.perf_counter()
    with open(folder / ".stdin", "rb") as stdin, open(folder / ".out", "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "meeple", *case.command], cwd=folder, stdin=stdin,
                                stdout=out, stderr=subprocess.STDOUT, env=env, preexec_fn=_limit)
        code, seconds, peak = waited(proc.pid, start, TIMEOUT)
        proc.returncode = code  # (reaped by ``waited``: Popen is not to wait for it again)
    return code, seconds, peak


def problems(case: Case, outcome: Outcome) -> list[str]:
    """What the outcome gets wrong about the case (nothing when it is right)."""
    out = []
    if outcome.code != case.exit:
        out.append(f"exit status {outcome.code}, expected {case.exit}")
    for bad in FORBIDDEN:
        if bad in outcome.output:
            out.append(f"the output holds {bad!r}")
    if case.at != "-" and case.at not in outcome.output:
        out.append(f"the place {case.at!r} is not named")
    out.extend(f"missing {e!r}" for e in case.expect if e not in outcome.output)
    return out


if __name__ == "__main__":  # python tests/mistakes.py [--dir FOLDER] [NAME...]: run cases, show their output
    argv = sys.argv[1:]
    folder = CASES
    if argv[:1] == ["--dir"]:
        folder, argv = Path(argv[1]), argv[2:]
    chosen = [p for p in cases(folder) if not argv or any(a in p.stem for a in argv)]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in chosen:
            case = read_case(path)
            outcome = run_case(case, Path(tmp) / case.name)
            wrong = problems(case, outcome)
            bad += bool(wrong)
            print(f"{'FAIL' if wrong else 'ok  '} {case.name} ({outcome.seconds:.2f} s) {'; '.join(wrong)}")
            if wrong or len(chosen) == 1:
                print("    " + outcome.output.replace("\n", "\n    "))
    sys.exit(1 if bad else 0)
