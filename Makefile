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

# A terminal game: you against three greedy bots, second edition; saved after every action
# under saves/ (resume with: .venv/bin/india1853 play --load saves/FILE.json).
PLAYER ?= You
run: $(STAMP)
	$(BIN)/india1853 play --edition second --players "$(PLAYER),Greedy1,Greedy2,Greedy3" \
		--bots Greedy1,Greedy2,Greedy3 --bot greedy

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
