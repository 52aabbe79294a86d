# Two commands do all setup: `make run` and `make test`. Every install step lives here.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench soak clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade "pip>=23,<27"
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/india1853 render --edition second --out out/board.svg
	$(BIN)/india1853 render --edition second --out out/board.png

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

unit: $(STAMP)
	$(BIN)/pytest -m "not soak"

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python -m bench

soak: $(STAMP)
	$(BIN)/pytest -m soak

clean:
	rm -rf $(VENV) out .mypy_cache .pytest_cache .ruff_cache
