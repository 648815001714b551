# Two commands do all set-up on a fresh machine: `make sim` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test sim bench typecheck pytest clean

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

test: typecheck pytest

typecheck: $(STAMP)
	$(VENV)/bin/circuitpython_setboard raspberry_pi_pico >/dev/null
	$(VENV)/bin/mypy --config-file mypy.ini code.py lib/cribbage boards engine

pytest: $(STAMP)
	BLINKA_OS_AGNOSTIC=1 $(VENV)/bin/pytest -q

sim: $(STAMP)
	BLINKA_OS_AGNOSTIC=1 $(PY) tools/sim.py

bench: $(STAMP)
	BLINKA_OS_AGNOSTIC=1 $(PY) tools/bench.py
	BLINKA_OS_AGNOSTIC=1 $(PY) tools/bench_board.py
	BLINKA_OS_AGNOSTIC=1 $(PY) tools/bench_store.py
	BLINKA_OS_AGNOSTIC=1 $(PY) tools/bench_device.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .hypothesis
