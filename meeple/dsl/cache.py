"""A cache of lowered IR by source text (``cached_ir``), as Python keeps ``.pyc`` files.

Parsing needs Lark and the AST classes, which take most of a short command's
time; a file that has not changed since it was last parsed is read back as JSON.
Only the parse and the lowering are skipped: the semantic checks and the
compilation run every time. The key is a hash of the text, the file name and the
grammar and AST sources, so any change to the language invalidates it.
Set ``MEEPLE_NO_CACHE=1`` to turn it off; a cache that cannot be written is ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Optional

HERE = Path(__file__).parent


def cache_root() -> Path:
    """meeple's folder in the user's cache (``$XDG_CACHE_HOME/meeple``, else ``~/.cache/meeple``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "meeple"


def cache_dir() -> Path:
    """Where the parsed form of rules files is kept."""
    return cache_root() / "ir"


@lru_cache(maxsize=1)
def language_stamp() -> bytes:
    """A hash of everything that decides how text becomes IR."""
    h = hashlib.sha256()
    for name in ("rules.lark", "ast.py", "lower.py", "parse.py", "walk.py"):
        h.update((HERE / name).read_bytes())
    return h.digest()


def cached_ir(text: str, file: str, make: Callable[[str, str], dict[str, Any]]) -> dict[str, Any]:
    """``make(text, file)``, or its result from an earlier run on the same text."""
    if os.environ.get("MEEPLE_NO_CACHE"):
        return make(text, file)
    key = hashlib.sha256(language_stamp() + file.encode() + b"\0" + text.encode()).hexdigest()
    path = cache_dir() / f"{key}.json"
    found = _read(path)
    if found is not None:
        return found
    ir = make(text, file)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        text = json.dumps(ir, separators=(",", ":"))
        tmp.write_text(f"{_digest(text)}\n{text}")
        tmp.replace(path)
    except OSError:
        pass
    return ir


def _read(path: Path) -> Optional[dict[str, Any]]:
    """The IR kept at ``path``; None if there is none, or if it is not what was written (its
    first line is a hash of the rest): a damaged entry is made again, never trusted."""
    try:
        digest, _, text = path.read_text().partition("\n")
        if digest != _digest(text):
            return None
        doc = json.loads(text)
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
