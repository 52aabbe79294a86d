# Two commands do all setup: `make run` and `make test`. Every install step lives here.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Every Python process make starts keeps the bytecode it compiles (__pycache__, ignored by git).
# An environment with PYTHONDONTWRITEBYTECODE set (this machine's has it) would make each of the
# test run's hundred-odd Python processes - the two pytest workers, their fork servers, every
# command and server a test starts - compile FastAPI, SQLAlchemy, numba, matplotlib and the
# project from source again: about 9-10 CPU-s per process instead of 4 (issue 20: `make test`
# under 6 minutes; measured in docs/test-speed.md).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run play test lint typecheck unit rewritten bench soak clean chromium services integration

# The packages are installed by uv (a PyPI package): it resolves and downloads in parallel and
# compiles no bytecode up front (a module is compiled when first imported), about 9 CPU-s and a
# minute of wall against pip's 60 CPU-s and 8 minutes measured side by side on a cold cache
# (issue 20: `make test` on a fresh clone, install included, under 6 minutes). uv itself is
# installed by the interpreter's own pip into .venv/uv, beside a venv made without pip: a venv
# with pip (ensurepip installs and compiles pip) and pip's install of uv cost about 12 CPU-s
# against 4 (docs/test-speed.md); an interpreter without pip has the venv's (ensurepip) do
# it. The venv gets pip from uv, for installing one package by hand (.venv/bin/pip install ...).
# pip's install of uv keeps one core busy for some 4 s and the other idle: beside it the same
# interpreter compiles the project's bytecode (src and the tests' helper modules; pytest compiles
# the test files themselves its own way), which the kernel's compile, both test workers and
# their fork servers would otherwise each compile at once when they first import it.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m compileall -q -x '/(test_[^/]*|conftest)\.py$$' src tests & \
	$(PYTHON) -m pip install --quiet --root-user-action=ignore --target $(VENV)/uv "uv>=0.9,<1" \
		|| ($(BIN)/python -m ensurepip --default-pip \
			&& $(BIN)/pip install --quiet --root-user-action=ignore --target $(VENV)/uv "uv>=0.9,<1"); \
		installed=$$?; wait; exit $$installed
	$(VENV)/uv/bin/uv pip install --quiet --python $(BIN)/python -e ".[dev]" pip
	touch $(STAMP)

# The router's compiled kernel (numba, issue 15): compiled once into numba's cache (next to
# kernel.py) before anything runs it, so that no two processes compile it at once. About 7 CPU-s
# (docs/test-speed.md): its own target, so that `make test` runs ruff and mypy beside it
# instead of after it; only the tests (and the server and game) wait for it.
KERNEL := $(VENV)/.kernel
$(KERNEL): $(STAMP) src/india1853/rules/router/kernel.py
	$(BIN)/python -m india1853.rules.router.kernel
	touch $(KERNEL)

# The web server (docs/web-api.md): open the address it prints; Ctrl-C stops it. Games are kept
# in an SQLite file under ~/.local/share/india1853 (INDIA1853_DATA=DIR or DATABASE_URL to change).
run: $(KERNEL)
	$(BIN)/india1853 serve

# A terminal game: you against three greedy bots, second edition; saved after every action
# under saves/ (resume with: .venv/bin/india1853 play --load saves/FILE.json).
PLAYER ?= You
play: $(KERNEL)
	$(BIN)/india1853 play --edition second --players "$(PLAYER),Greedy1,Greedy2,Greedy3" \
		--bots Greedy1,Greedy2,Greedy3 --bot greedy

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

# The tests on TEST_WORKERS pytest-xdist workers (one per core by default). Every test that
# starts a server, a database or a browser takes a free port and a private directory, so the
# workers share nothing; --dist loadfile keeps a file's tests (and its module fixtures: a
# server, a browser, a PostgreSQL cluster) on one worker. The files are handed out costliest
# first (tests/conftest.py; --no-loadscope-reorder keeps that order instead of xdist's by the
# number of tests), so no long file starts last beside an idle worker. The 30 slowest are
# listed at the end (where the time goes, for the 6-minute aim of issue 20).
# pytest's rewritten bytecode of the test files (the asserts that show their values) is written
# once beforehand (tools/rewrite_tests.py, beside ruff, mypy and the kernel's compile), not by
# both workers at once as they collect: about 5 CPU-s on a fresh clone, nothing when current.
TEST_WORKERS ?= auto
unit: $(KERNEL) rewritten chromium services
	$(BIN)/pytest -m "not soak" -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder \
		--durations=30

rewritten: $(STAMP)
	$(BIN)/python tools/rewrite_tests.py tests

# The browser tests (tests/web/test_browser*.py) drive Debian's chromium-headless-shell package
# (chromium built as a headless shell: about 30% less CPU than the full browser run headless)
# through Playwright for Python (a PyPI dev dependency) by its executable path: `playwright
# install` is never run and no browser is downloaded from anywhere else.
chromium:
	command -v chromium-headless-shell >/dev/null \
		|| (apt-get update && apt-get install -y chromium-headless-shell)

# lint, typecheck and unit at once: ruff and mypy beside the kernel's compile and the test
# files' rewrite (tools/rewrite_tests.py), then beside the test workers (issue 20: the aim is
# under 6 minutes on a fresh clone of a quiet 2-core machine, install included; the
# measurements are in docs/test-speed.md). Any one's failure fails `make test` (after the
# others have finished); each one's output is printed whole when it is done.
test: $(STAMP) chromium services
	$(MAKE) --no-print-directory -j 3 --output-sync=line lint typecheck unit

# Scale and resilience (docs/deployment.md): PostgreSQL and Redis from Debian's packages for the
# integration tests (tests/integration), which start their own servers on 127.0.0.1 (free
# ports, private data directories under /tmp, PostgreSQL as the postgres user) and stop them.
# They take about 2-3 minutes, so `make test` runs them too; `make integration` alone.
services:
	(ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && command -v redis-server >/dev/null) \
		|| (apt-get update && apt-get install -y postgresql redis-server)

integration: $(KERNEL) services
	$(BIN)/pytest tests/integration --timeout=600

bench: $(KERNEL)
	$(BIN)/python -m bench

# Every soak test on two workers; the game engine's: 2,000 seeded random games (3-6 players)
# plus 100 drawn by Hypothesis (INDIA1853_SOAK_GAMES, INDIA1853_SOAK_FIRST and
# INDIA1853_SOAK_HYPOTHESIS_GAMES change the counts). Also what `make test` leaves out to stay
# short (issue 20): the random complete games of every edition and variant combination (two of
# them run in `make test`) and the schema check of every fixture game's actions (one game of
# each edition in `make test`).
# First edition (issue 12): 500 seeded games cycling the allowed variant combinations plus 100
# drawn by Hypothesis (INDIA1853_SOAK_FIRST_EDITION_GAMES changes the count).
soak: $(KERNEL) rewritten
	$(BIN)/pytest -m soak -n 2 --timeout=1200

clean:
	rm -rf $(VENV) out .mypy_cache .pytest_cache .ruff_cache
