# mjarena: `make demo` runs the main job, `make test` runs the whole test suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test browser toolchains screenshots lint bench tables clean catalogs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

demo: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/mjarena demo

# The suite's files run in parallel, each file whole in one worker (its tests in order, its shared fixtures once):
# about 7 minutes on 2 cores (2,430 tests; measured 6 min 16 s on a quiet machine, 13 min beside a second run).
PYTEST_PARALLEL := --numprocesses=auto --maxprocesses=4 --dist=loadfile

test: $(BIN)/python browser toolchains
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/ruff check .
	$(BIN)/python -m pytest $(PYTEST_PARALLEL)

# The web app's end-to-end tests drive Debian's Chromium (no browser download); as root, install it if missing.
browser:
	@command -v chromium >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	@command -v chromium >/dev/null 2>&1 || echo "note: no chromium; the browser tests will be skipped"

# Source-file bots (docs/builds.md): the sandbox and the contest's compilers; as root, install the missing ones.
TOOLCHAIN_PACKAGES := bwrap:bubblewrap g++:g++ fpc:fp-compiler javac:default-jdk-headless node:nodejs
toolchains:
	@missing=""; for pair in $(TOOLCHAIN_PACKAGES); do \
		command -v "$${pair%%:*}" >/dev/null 2>&1 || missing="$$missing $${pair#*:}"; done; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	elif [ -n "$$missing" ]; then \
		echo "note: missing Debian packages:$$missing (as root: make toolchains); tests needing them are skipped"; fi

# Refresh the README's screenshots: the browser tests save them into docs/screenshots.
screenshots: $(BIN)/python browser
	$(BIN)/python -m pip install --quiet -e '.[test]'
	MJARENA_SCREENSHOTS=docs/screenshots MJARENA_REQUIRE_BROWSER=1 $(BIN)/python -m pytest -q tests/test_web_e2e.py \
		tests/test_contest_e2e.py tests/test_contest_organiser_browser.py

# Every benchmark prints ratios to an anchor measured in the same run and merges its figures into one JSON file
# (benchmarks/results.json, the README's source); about 5 minutes on 2 cores.  Written whole or not at all.
BENCH_JSON := benchmarks/results.json
bench: $(BIN)/python toolchains
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	rm -f $(BENCH_JSON).partial
	$(BIN)/python benchmarks/import_time.py --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/distance.py --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/hand.py --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/arrangements.py --hands 100 --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/thupc.py --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/env.py --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/replay_view.py --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/noi2014.py --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/tournament.py --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/protocol_overhead.py --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/sandbox.py --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/languages.py --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/game_budget.py --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/contest.py --seconds 20 --json $(BENCH_JSON).partial
	$(BIN)/python benchmarks/collusion.py --json $(BENCH_JSON).partial
	mv $(BENCH_JSON).partial $(BENCH_JSON)

tables: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python tools/build_tables.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .ruff_cache src/mjarena/hand/*.so

# The interface's catalogs (docs/i18n.md): the English messages extracted with Babel, each language's .po updated
# (new messages come in untranslated: tests/test_i18n_catalog.py fails until they are translated).
LOCALE := src/mjarena/locale
catalogs: $(BIN)/python
	$(BIN)/python -m pip install --quiet 'babel>=2.12'
	$(BIN)/pybabel extract -F $(LOCALE)/babel.cfg -k N_ -k NC_:1c,2 --no-wrap --sort-by-file --project mjarena \
		--copyright-holder "mjarena contributors" -o $(LOCALE)/mjarena.pot .
	$(BIN)/pybabel update -D mjarena -i $(LOCALE)/mjarena.pot -d $(LOCALE) --no-wrap --no-fuzzy-matching --ignore-obsolete
