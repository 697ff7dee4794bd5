# make run   : set up .venv, install meeple, simulate the bundled games
# make test  : the whole test suite (sets up .venv if needed)
# make bench : playouts per second against the hand-written baselines
# make fuzz  : meeple fuzz on every bundled game and variant (500 games each; minutes, not seconds)
# make hunt  : the long hunt for inputs that crash meeple: rules, IR, records, arguments, typed moves (HUNT=25000 per property)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench fuzz hunt lint clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/meeple validate games/*.rules games/variants/*.rules
	$(VENV)/bin/meeple simulate games/hare.rules --games 500 --players 4 --seed 1
	$(VENV)/bin/meeple simulate games/luckydog.rules --games 500 --players 4 --seed 1
	$(VENV)/bin/meeple simulate games/slipstream.rules --games 500 --players 2 --seed 1
	$(VENV)/bin/meeple simulate games/reversi.rules --games 500 --players 2 --seed 1
	$(VENV)/bin/meeple simulate games/leduc.rules --games 2000 --players 2 --seed 1

test: $(STAMP)
	$(VENV)/bin/ruff check meeple tests bench
	$(VENV)/bin/lint-imports
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) bench/run.py
	$(PY) bench/mistakes.py

fuzz: $(STAMP)
	@for f in games/*.rules games/variants/*.rules; do \
	  $(VENV)/bin/meeple fuzz $$f --examples 500 --record fuzz-failure.jsonl || exit 1; \
	done

HUNT ?= 25000
hunt: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz MEEPLE_HOSTILE_EXAMPLES=$(HUNT) $(PY) -m pytest -p no:cacheprovider \
	  tests/properties/test_hostile_input.py tests/properties/test_hostile_tools.py --hypothesis-show-statistics

lint: $(STAMP)
	$(VENV)/bin/ruff check meeple tests bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
