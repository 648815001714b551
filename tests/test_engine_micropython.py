"""The engine's checks (tests/engine_checks.py) under CPython and under MicroPython 1.27.

The MicroPython run goes through tools/mprun.py: the WASI build with the heap
cut to a Pico-sized 190 KB by a ballast bytearray, and automatic garbage
collection off (this build's collector cannot see the frames of running
functions). Garbage is collected only between the steps of the checks, so
mprun's heap_peak is the true peak the engine needed.
"""

import os
import re

import pytest

import engine_checks
from tools.mprun import run_micropython

HERE = os.path.dirname(os.path.abspath(__file__))
HEAP_KB = 190
# mprun's ballast leaves a few bytes over the figure asked for; ask 64 bytes
# less so that what is free never exceeds 190 KB.
_ASK_KB = HEAP_KB - 64 / 1024
FUEL = 20000000000
# The checks, their runner and helpers, beside engine/ in the MicroPython run.
CHECK_FILES = ("engine_checks.py", "engine_checks_parts.py", "engine_checks_game.py",
               "engine_helpers.py")


@pytest.mark.parametrize("check", engine_checks.CHECKS, ids=lambda c: c.__name__)
def test_check_under_cpython(check):
    steps = check()
    if steps is not None:  # a long check: run every step
        for _ in steps:
            pass


# The checks run inside a generator: each `yield` is a point where nothing of
# the run is active, and there the harness collects garbage (mprun drives a
# module's steps(); a harness that does not is given the same loop here).
_GUEST = """
import gc
import mpprobe
import engine_checks


def steps():
    yield 1
    print("loaded %d" % (gc.mem_alloc() - mpprobe.base))
    for check in engine_checks.CHECKS:
        state = engine_checks.begin(check)
        while state is not None:
            yield 1
            state = engine_checks.resume(check, state)
        yield 1
    engine_checks.summary()


if hasattr(mpprobe, "collect"):
    run = steps()
    while next(run, 0):
        mpprobe.collect()
    del steps
"""


def _source(name):
    with open(os.path.join(HERE, name)) as f:
        return f.read()


@pytest.fixture(scope="module")
def micropython_result():
    result = run_micropython(
        _GUEST, files=("engine",), heap_kb=_ASK_KB, fuel=FUEL,
        extra=dict({name: _source(name) for name in CHECK_FILES},
                   **{"tools/naive.py": _source("../tools/naive.py")}))
    print(result.stdout)
    print(result.error or "")
    return result


def test_engine_checks_pass_under_micropython_with_a_190k_heap(micropython_result):
    out = micropython_result.stdout
    assert micropython_result.ok, micropython_result.error
    assert micropython_result.heap_free <= HEAP_KB * 1024
    assert micropython_result.heap_free >= HEAP_KB * 1024 - 1024
    oks = re.findall(r"^ok (\w+)$", out, re.M)
    assert "FAIL" not in out, out
    assert oks == [check.__name__ for check in engine_checks.CHECKS], out
    assert "engine checks: %d ok, 0 failed" % len(oks) in out


def test_micropython_heap_use_is_reported(micropython_result):
    loaded = int(re.search(r"^loaded (\d+)$", micropython_result.stdout, re.M).group(1))
    peak = micropython_result.heap_peak
    assert 0 < loaded <= peak < HEAP_KB * 1024
    # mem_peak is micropython.mem_info()'s peak= less the harness's: it counts
    # garbage collected along the way too, so it is far above the real peak.
    print("MicroPython: %d bytes free at the start; engine and checks loaded %d bytes, "
          "peak heap %d bytes (mem_info peak= %s), fuel %d"
          % (micropython_result.heap_free, loaded, peak, micropython_result.mem_peak,
             micropython_result.fuel_used))
