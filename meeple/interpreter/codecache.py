"""The compiled code of a game's module, kept between runs (``ModuleCache``), as Python keeps
``.pyc`` files.

Compiling a game makes its module's text (program.py, expressions.py), then has Python parse and
compile each function of it; the second part is most of the time. A game's entry is found by a
hash of its IR and params, of the Python that reads it (its magic number) and of the engine
(its version and the sources of ``interpreter/``). Each function's code is used only for the
very text it was compiled from (a hash of the text and the line it starts at), so an entry can
never give code other than what the text says; a function whose text is new is compiled, and
the entry is written again. The code is read back as the current module's, under its name (a
traceback shows the current module's lines).

Set ``MEEPLE_NO_CACHE=1`` to turn it off (as for the IR cache, dsl/cache.py); an entry that
cannot be read, or is not what was written (it starts with a hash of the rest), is ignored, and
one that cannot be written is not kept. The last
``ENTRIES_KEPT`` games written are kept.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import threading
from functools import lru_cache
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any, Optional

from meeple import __version__
from meeple.dsl.cache import cache_root

HERE = Path(__file__).parent


@lru_cache(maxsize=1)
def engine_stamp() -> bytes:
    """A hash of what decides the code of a game: Python's bytecode version, meeple's version,
    the engine's sources."""
    h = hashlib.sha256(MAGIC_NUMBER + __version__.encode())
    for path in sorted(HERE.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.digest()


def game_key(ir: dict[str, Any], params: dict[str, int]) -> Optional[str]:
    """The name of a game's entry (None: the cache is off)."""
    if os.environ.get("MEEPLE_NO_CACHE"):
        return None
    text = json.dumps({"ir": ir, "params": params}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(engine_stamp() + text.encode()).hexdigest()


class ModuleCache:
    """The code of one game's functions: read from its entry, kept as new ones are compiled."""

    def __init__(self, key: Optional[str], filename: str):
        self.path = cache_root() / "module" / f"{key}.marshal" if key else None
        self.filename = filename
        self.names_of: dict[str, tuple[str, ...]] = {}  # text's hash → the names it reads
        self.code_of: dict[str, CodeType] = {}  # hash of (first line, text) → its code
        self.hits = self.misses = 0  # functions whose code came from the entry, and those compiled
        self.changed = False
        if self.path is not None:
            self._read()

    def _read(self) -> None:
        try:
            data = self.path.read_bytes()
            # (the first 32 bytes are a hash of the rest: code that is not what was written, say a
            # damaged file, is never run; marshal would make it and Python could crash on it)
            if len(data) < 32 or hashlib.sha256(data[32:]).digest() != data[:32]:
                return
            entry = marshal.loads(data[32:])
        except (OSError, EOFError, ValueError, TypeError):
            return
        if isinstance(entry, dict) and isinstance(entry.get("names"), dict) and isinstance(entry.get("code"), dict):
            self.names_of = {k: v for k, v in entry["names"].items()
                             if isinstance(v, tuple) and all(isinstance(n, str) for n in v)}
            self.code_of = {k: v for k, v in entry["code"].items() if isinstance(v, CodeType)}

    def names(self, text: str) -> Optional[set[str]]:
        """The names ``text`` reads, if it was seen before."""
        found = self.names_of.get(_hash(text))
        return set(found) if found is not None else None

    def keep_names(self, text: str, names: set[str]) -> None:
        self.names_of[_hash(text)] = tuple(sorted(names))
        self.changed = True

    def code(self, src: str, first: int) -> Optional[CodeType]:
        """The code of ``src`` compiled at line ``first`` of the module, if it was before."""
        found = self.code_of.get(_hash(f"{first}\0{src}"))
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        return _renamed(found, self.filename)

    def keep_code(self, src: str, first: int, code: CodeType) -> None:
        self.code_of[_hash(f"{first}\0{src}")] = code
        self.changed = True

    def save(self) -> None:
        """Write the entry if a function was compiled anew (nothing if all came from it)."""
        if self.path is None or not self.changed:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")  # one per writer
            data = marshal.dumps({"names": self.names_of, "code": self.code_of})
            tmp.write_bytes(hashlib.sha256(data).digest() + data)
            tmp.replace(self.path)
            _prune(self.path.parent)
        except (OSError, ValueError):
            pass
        self.changed = False


ENTRIES_KEPT = 400  # games whose code is kept; the ones written longest ago go first


def _prune(folder: Path) -> None:
    entries = list(folder.glob("*.marshal"))
    if len(entries) <= ENTRIES_KEPT:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[:len(entries) - ENTRIES_KEPT]:
        old.unlink(missing_ok=True)


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _renamed(code: CodeType, filename: str) -> CodeType:
    """``code`` (and the code of the functions in it) as compiled in the file ``filename``."""
    consts = tuple(_renamed(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)
