"""A process that has imported meeple's command line and runs each command it is sent in a child
of its own, forked: ``python -m meeple`` as a user runs it, without paying Python's start and
meeple's imports once per command (about two thirds of a mistakes case's time).

It reads one request a line on its standard input, as JSON: ``argv`` (meeple's arguments),
``cwd``, ``env`` (the whole environment), ``stdin`` and ``out`` (files: the command's input, and
where its standard output and error both go), ``memory`` (bytes of address space) and
``timeout`` (seconds). For each it writes one line back: ``{"code": ..., "seconds": ...,
"peak_kib": ...}``.

Each child changes to its folder and environment, caps its memory, puts the files on its
descriptors 0, 1 and 2 with new ``sys.stdin``/``stdout``/``stderr`` on them, and runs
``meeple.tools.cli.main`` as ``meeple/__main__.py`` does; an exception that escapes is printed
as Python prints it (a traceback, which the corpus refuses). Only imports happen before the fork:
no meeple function has run, so no cache of meeple's (the parser, the schema) is warm in a child.
"""

from __future__ import annotations

import atexit
import json
import os
import resource
import sys
import time
import traceback


def child(request: dict) -> None:
    """Run one command in this (forked) process, then leave with its exit status; never returns."""
    code = 1
    try:
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        limit = request["memory"]
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        stdin = os.open(request["stdin"], os.O_RDONLY)
        out = os.open(request["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(stdin, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(stdin)
        os.close(out)
        encoding, errors = sys.stdout.encoding, sys.stdout.errors
        sys.stdin = open(0, encoding=encoding, errors=sys.stdin.errors, closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", encoding=encoding, errors=errors, closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding=encoding, errors="backslashreplace", closefd=False,  # noqa: SIM115
                          buffering=1)
        import meeple.__main__ as entry  # (already imported: only its path is wanted)
        sys.argv = [entry.__file__, *request["argv"]]
        from meeple.tools.cli import main
        code = main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # as Python shows an exception nothing caught
        traceback.print_exc()
        code = 1
    try:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        traceback.print_exc()
        code = code or 1
    os._exit(code)


def waited(pid: int, start: float, timeout: float) -> tuple[int, float, int]:
    """Wait for process ``pid`` (started at ``start``, by ``time.perf_counter``), killed after
    ``timeout`` seconds: its exit status, seconds and peak memory (KiB; ``os.wait4`` gives the
    process's own, which ``subprocess`` does not)."""
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.perf_counter() - start > timeout:
            os.kill(pid, 9)
            _, status, usage = os.wait4(pid, 0)
            break
        time.sleep(0.002)
    return os.waitstatus_to_exitcode(status), time.perf_counter() - start, usage.ru_maxrss


def run(request: dict) -> dict:
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        child(request)
    code, seconds, peak = waited(pid, start, request["timeout"])
    return {"code": code, "seconds": seconds, "peak_kib": peak}


def serve() -> None:
    # meeple.__main__ would run the command on import: its module is made without running it
    import importlib.util
    spec = importlib.util.find_spec("meeple.__main__")
    sys.modules["meeple.__main__"] = importlib.util.module_from_spec(spec)
    import jsonschema  # noqa: F401  (what most commands import, so that no child does)
    import lark  # noqa: F401
    import rich.console  # noqa: F401

    import meeple.dsl.check  # noqa: F401
    import meeple.interpreter  # noqa: F401
    import meeple.tools.cli  # noqa: F401
    import meeple.tools.play  # noqa: F401
    import meeple.tools.records  # noqa: F401
    import meeple.tools.render  # noqa: F401
    import meeple.tools.simulate  # noqa: F401
    for line in sys.stdin:
        reply = run(json.loads(line))
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()
