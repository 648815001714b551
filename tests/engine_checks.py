"""tests.engine_checks: the engine's checks as plain functions, for any Python.

The same checks run under CPython (each one a pytest case, in
test_engine_micropython.py) and under a real MicroPython interpreter with a
Pico-sized heap: nothing here needs pytest, hypothesis or the standard library
beyond `sys`. `run_all()` prints `ok NAME` or `FAIL NAME` per check and a
summary line. The checks are in tests/engine_checks_parts.py and
tests/engine_checks_game.py, their helpers in tests/engine_helpers.py.

A long check is a generator: each `yield` is a pause where the runner may
collect garbage (the MicroPython run collects only there, never inside a step,
and so measures the heap each step needs).
"""

import sys

import engine_checks_game as game
import engine_checks_parts as parts

CHECKS = parts.CHECKS + game.CHECKS


def _print_exception(err):
    if hasattr(sys, "print_exception"):
        sys.print_exception(err)
    else:
        import traceback
        traceback.print_exception(type(err), err, err.__traceback__)


RESULTS = [0, 0]  # checks passed, failed


def _passed(check):
    RESULTS[0] += 1
    print("ok " + check.__name__)


def _failed(check, err):
    RESULTS[1] += 1
    print("FAIL " + check.__name__)
    _print_exception(err)


def begin(check):
    """Run `check` (or its first step): its generator if it has more steps
    to resume(), else None once `ok`/`FAIL` is printed."""
    try:
        steps = check()
    except Exception as err:
        _failed(check, err)
        return None
    if steps is None:
        _passed(check)
    return steps


def resume(check, steps):
    """Run the next step of a long check: the generator again, or None when done."""
    try:
        next(steps)
    except StopIteration:
        _passed(check)
        return None
    except Exception as err:
        _failed(check, err)
        return None
    return steps


def run_one(check):
    """Run one check to its end; True if it passed."""
    failed = RESULTS[1]
    steps = begin(check)
    while steps is not None:
        steps = resume(check, steps)
    return RESULTS[1] == failed


def summary():
    print("engine checks: %d ok, %d failed" % (RESULTS[0], RESULTS[1]))


def run_all(checks=None):
    """Run every check, then a summary line; return the number that failed."""
    RESULTS[0] = RESULTS[1] = 0
    for check in CHECKS if checks is None else checks:
        run_one(check)
    summary()
    return RESULTS[1]
