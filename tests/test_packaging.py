"""What ``pip install .`` installs: one import package, ``meeple``, in three layers that import
one way only (tools → engine → language)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import meeple

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_installs_one_package_named_meeple(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True, timeout=300)
    [wheel] = tmp_path.glob("meeple-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {"meeple", f"meeple-{meeple.__version__}.dist-info"}
    for data in ("meeple/py.typed", "meeple/dsl/rules.lark", "meeple/dsl/schema.json"):
        assert data in names
    assert any(n.endswith("dist-info/licenses/LICENSE") or n.endswith("dist-info/LICENSE") for n in names)


def test_the_layer_contracts_hold():
    """import-linter's contracts in pyproject.toml: tools → engine → language, no Hypothesis or
    rich in the engine, none of fuzzing in replay."""
    lint = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout and result.stdout.count("KEPT") >= 3


def test_version_everywhere():
    out = subprocess.run([sys.executable, "-m", "meeple", "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == f"meeple {meeple.__version__}"
    assert f"## {meeple.__version__}" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_the_public_names():
    for name in ("load", "Game", "State", "Action", "CHANCE", "TERMINAL", "IllegalAction", "RulesError"):
        assert getattr(meeple, name) is not None
