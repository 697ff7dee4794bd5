"""The tools: the ``meeple`` command line and what it runs (play, render, simulate, fuzz,
records, bots). They use the engine (``meeple.interpreter``) and the language (``meeple.dsl``);
nothing below imports them."""
