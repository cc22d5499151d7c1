# Two commands run everything on a fresh clone: `make run` and `make test`.
# Both create ./.venv on first use and install the project into it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# `run` needs only the app's extras; `test` and `bench` need everything (dev).
APP_STAMP := $(VENV)/.installed-app
STAMP := $(VENV)/.installed-dev
# The install also compiles the games' C cores in place (hatch_build.py; optional: without
# a C compiler the pure-Python engines run), so a change to them reinstalls.
BUILD_INPUTS := pyproject.toml hatch_build.py src/cardtable/games/candidate/_core.c \
	src/cardtable/games/candidate/_ismcts.h src/cardtable/games/_corekit.h \
	src/cardtable/games/spy/_core.c src/cardtable/games/spy/_search.h

.PHONY: run test test-busy lint typecheck jscheck bench clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(APP_STAMP): $(BUILD_INPUTS) | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e ".[server,tui,arena]"
	touch $(APP_STAMP)

$(STAMP): $(BUILD_INPUTS) | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP) $(APP_STAMP)

## run: the main job — the web app on an embedded SQLite database (cardtable.db)
run: $(APP_STAMP)
	$(BIN)/cardtable serve

## test: lint, type-check the engine and the web client's JavaScript, run the whole suite
test: $(STAMP) lint typecheck jscheck
	$(BIN)/python -m pytest -n auto --dist loadgroup -q || test $$? -eq 5  # 5: no tests collected

## test-busy: `make test` beside a CPU hog (one spinning process per core, stopped by
## the script on every way out); prints the load average seen and the time taken.
## ROUNDS=3 runs it three times in a row.
ROUNDS ?= 1
test-busy: $(STAMP)
	$(BIN)/python scripts/busy.py --rounds $(ROUNDS) -- $(MAKE) --no-print-directory test

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

## jscheck: the web client's JavaScript: TypeScript over its JSDoc types (no build step,
## nothing emitted) and ESLint with no import cycle; the tools come from package-lock.json
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "make jscheck needs Node.js and npm (Debian: apt-get install nodejs npm)" >&2; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

jscheck: $(NODE_STAMP)
	node_modules/.bin/tsc -p jsconfig.json
	node_modules/.bin/tsc -p jsconfig.worker.json
	node_modules/.bin/eslint src/cardtable/server/static

## bench: engine speed against OpenSpiel, in one run
bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
