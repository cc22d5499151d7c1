# Two commands run everything on a fresh clone: `make run` and `make test`.
# Both create ./.venv on first use and install the project into it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

## run: the main job — replay the bundled sample game as a transcript
run: $(STAMP)
	$(BIN)/cardtable replay samples/candidate-sample.json

## test: lint, type-check the engine, run the whole suite
test: $(STAMP) lint typecheck
	$(BIN)/python -m pytest -n auto -q || test $$? -eq 5  # 5: no tests collected

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
