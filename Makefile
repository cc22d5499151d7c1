# Two commands run everything on a fresh clone: `make run` and `make test`.
# Both create ./.venv on first use and install the project into it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# `run` needs only the app's extras; `test` and `bench` need everything (dev).
APP_STAMP := $(VENV)/.installed-app
STAMP := $(VENV)/.installed-dev

.PHONY: run test test-busy lint typecheck bench clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(APP_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e ".[server,tui,arena]"
	touch $(APP_STAMP)

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP) $(APP_STAMP)

## run: the main job — the web app on an embedded SQLite database (cardtable.db)
run: $(APP_STAMP)
	$(BIN)/cardtable serve

## test: lint, type-check the engine, run the whole suite
test: $(STAMP) lint typecheck
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

## bench: engine speed against OpenSpiel, in one run
bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
