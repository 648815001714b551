# Two commands do all set-up on a fresh machine: `make sim` and `make test`.
# Each builds its own virtualenv from a lock file of pinned, hashed requirements
# (tools/mkvenv.py: it checks PYTHON's version first, and rebuilds a virtualenv
# made by another interpreter or from an older lock file).
PYTHON ?= python3
ARGS ?=
SIM_VENV := .venv
TEST_VENV := .venv-test
WEB_VENV := .venv-web
LOCK_VENV := .venv-lock
BENCHES := tools/bench.py tools/bench_board.py tools/bench_store.py tools/bench_device.py
PIP_COMPILE := --quiet --generate-hashes --allow-unsafe --strip-extras \
	--no-emit-index-url --no-emit-find-links $(LOCK_ARGS)
export BLINKA_OS_AGNOSTIC := 1

WEB_OUT ?= build/web
WEB_PORT ?= 8000
NPM_STAMP := web/node_modules/.package-lock.json

# Left out of `make test-fast` (make test runs them all): files, then single tests.
# The browser, MicroPython under WebAssembly, virtualenvs built, a terminal driven,
# long random walks, power cuts at every byte, the benchmark's run, every deal counted.
FAST_SKIP_FILES := tests/test_web.py tests/test_engine_micropython.py \
	tests/test_firmware_micropython.py tests/test_boards_micropython.py \
	tests/test_setup.py tests/test_sim_terminal.py tests/test_app_random.py \
	tests/test_store_cuts.py tests/test_bench_device.py
FAST_SKIP_TESTS := tests/test_table_board.py::test_power_cut_at_every_byte_of_a_key_save \
	tests/test_table_board.py::test_power_cut_in_a_compaction_loses_at_most_the_game_never_mixes_it \
	tests/test_handstats.py::test_bench_prints_every_figure \
	tests/test_handstats.py::test_every_deal_of_every_size_is_counted_once \
	tests/test_handstats.py::test_the_engines_caps_table_is_the_counted_one \
	tests/test_handstats.py::test_the_caps_report

.DEFAULT_GOAL := help
.PHONY: help sim test test-fast lint typecheck pytest bench lock clean sim-env test-env lock-env \
	check-python web web-serve web-deps web-env browser-deps web-screenshot

# The targets with a `## ` note on their line, and the note; a reader that stops
# early (make | head) ends it quietly, as it ends awk (141: SIGPIPE).
help: ## this list; plain `make` prints it too, and does nothing else
	@awk -F ':.*## ' 'BEGIN { print "make TARGET (the first use of a target builds the virtualenv it needs):" } \
		/^[a-z][a-z-]*:.*## / { printf "  make %-15s %s\n", $$1, $$2 }' \
		$(firstword $(MAKEFILE_LIST)) || [ $$? -eq 141 ]

check-python:
	@command -v $(PYTHON) >/dev/null || { echo "error: no $(PYTHON) on this machine; name another Python with PYTHON= (README: Quick start)" >&2; exit 2; }

sim-env: check-python
	@$(PYTHON) tools/mkvenv.py $(SIM_VENV) requirements/sim.txt

test-env: check-python
	@$(PYTHON) tools/mkvenv.py $(TEST_VENV) requirements/test.txt

web-env: check-python
	@$(PYTHON) tools/mkvenv.py $(WEB_VENV) requirements/web.txt

lock-env: check-python
	@$(PYTHON) tools/mkvenv.py $(LOCK_VENV) requirements/lock.txt

# The simulator: only what it and tools/deploy.py need, in .venv.
# Options go to tools/sim.py: make sim ARGS="--tracks 3 --state game.bin"
sim: sim-env ## the board in this terminal: make sim ARGS="--tracks 3"
	@$(SIM_VENV)/bin/python tools/sim.py $(ARGS)

test: lint typecheck pytest ## every check: lint, typecheck and every test (.ci/run runs it)

# The everyday subset: pytest less FAST_SKIP_FILES, FAST_SKIP_TESTS and the slow mark.
test-fast: test-env ## most tests, in about a minute, for everyday work; make test runs all
	$(TEST_VENV)/bin/pytest -q -m "not slow" $(addprefix --ignore=,$(FAST_SKIP_FILES)) \
		$(addprefix --deselect=,$(FAST_SKIP_TESTS))

# ruff over the whole repository (ruff.toml: the rules, and the modules the board lacks)
lint: test-env ## ruff over the whole repository
	$(TEST_VENV)/bin/ruff check --no-cache

typecheck: test-env ## mypy against CircuitPython's stubs for the Pico
	$(TEST_VENV)/bin/circuitpython_setboard raspberry_pi_pico >/dev/null
	$(TEST_VENV)/bin/mypy --config-file mypy.ini code.py lib/cribbage boards engine

pytest: test-env browser-deps ## every test, without lint and typecheck
	$(TEST_VENV)/bin/pytest -q

# The web page (README: Try it in your browser): the pinned MicroPython from npm
# (web/package-lock.json), the firmware, and what tools/mprun.py runs it with (the
# stand-ins, and adafruit_bus_device from .venv-web: requirements/web.txt, no more).
# Another folder, e.g. a gh-pages checkout: make web WEB_OUT=../gh-pages
$(NPM_STAMP): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error

web-deps: $(NPM_STAMP)

web: web-env web-deps ## the web page, built into build/web (WEB_OUT=)
	@$(WEB_VENV)/bin/python tools/web.py build --out $(WEB_OUT)

web-serve: web ## the built page on http://localhost:8000 (WEB_PORT=)
	@$(WEB_VENV)/bin/python tools/web.py serve --dir $(WEB_OUT) --port $(WEB_PORT)

# tests/test_web.py runs in Debian's chromium when it is installed: then it needs
# the npm package too (without chromium the page's tests are skipped, with the reason).
browser-deps:
	@if command -v chromium >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory -s web-deps; fi

# docs/web.png, the README's picture of the page, taken by the page's test
web-screenshot: test-env web-deps ## docs/web.png, taken by the page's test
	CRIBBAGE_WEB_SCREENSHOT=docs/web.png $(TEST_VENV)/bin/pytest -q tests/test_web.py \
		-k readme_hand

bench: test-env ## the benchmarks' figures (nothing asserted)
	@for bench in $(BENCHES); do \
		echo "$(TEST_VENV)/bin/python $$bench"; \
		$(TEST_VENV)/bin/python $$bench || exit $$?; \
	done

# Regenerate the lock files from requirements/*.in with the oldest supported Python,
# keeping every pin that still fits: make lock PYTHON=python3.11
# To move a package on: make lock PYTHON=python3.11 LOCK_ARGS="--upgrade-package pillow"
lock: export CUSTOM_COMPILE_COMMAND := make lock
lock: lock-env ## the lock files again: make lock PYTHON=python3.11
	$(LOCK_VENV)/bin/pip-compile $(PIP_COMPILE) -o requirements/sim.txt requirements/sim.in
	$(LOCK_VENV)/bin/pip-compile $(PIP_COMPILE) -o requirements/test.txt requirements/test.in
	$(LOCK_VENV)/bin/pip-compile $(PIP_COMPILE) -o requirements/web.txt requirements/web.in
	$(LOCK_VENV)/bin/pip-compile $(PIP_COMPILE) -o requirements/lock.txt requirements/lock.in

# The virtualenvs, the npm package, the built site and caches; never a saved game.
clean: ## the virtualenvs, npm package, built site and caches; never a saved game
	rm -rf $(SIM_VENV) $(TEST_VENV) $(WEB_VENV) $(LOCK_VENV) .pytest_cache .mypy_cache .hypothesis \
		web/node_modules build/web
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
