"""mpprobe: the heap limit and the heap count for tools/mprun.py runs (MicroPython only).

This WASI MicroPython cannot see every live object when it collects garbage: a
Python frame with more than 11 words of state (locals, value stack, an
``except ... as name`` handler) is allocated on the heap and referenced only from
where the collector does not look, so a collection while such a frame is
running frees it under the VM's feet and the run crashes.

So automatic collection stays off, and garbage is collected only while no
code of the run is active: the code may define a generator function
``steps()``; after the module has run, the harness drives it and collects at
every ``yield``, when the generator is suspended and its frame is safe inside
the generator object. With collection off, the heap in use only grows between
collections, so the amount sampled just before each one, and at the end, is
the peak.
"""

import gc
import sys

import micropython

HEAP = 0  # bytes to leave free for the run (0: the whole heap)
MARK = "@@mpprobe"

base = 0
mem_base = 0
peak = 0
start_free = 0
collections = 0
_ballast = None

# Every function below that is active while garbage is collected keeps its
# state under 11 words (few locals, shallow expressions, no "except ... as"):
# tests/test_boards.py measures them.


def sample():
    """Note the heap in use now (safe anywhere: it does not collect)."""
    global peak
    used = gc.mem_alloc() - base
    if used > peak:
        peak = used


def _collect():
    global collections
    sample()
    collections += 1
    gc.collect()


def _drive(steps):
    for _ in steps:  # not next(steps, default): this build swallows a MemoryError there
        _collect()


def _main():
    import _mprun_main

    steps = getattr(_mprun_main, "steps", None)
    if steps is not None:
        _collect()
        _drive(steps())


def _report(error):
    print(MARK + " error")
    sys.print_exception(error, sys.stdout)


def _limit():
    global _ballast, base, mem_base, start_free
    gc.disable()
    gc.collect()
    spare = gc.mem_free() - HEAP
    if HEAP and spare > 64:
        _ballast = bytearray(spare - 32)  # a bytearray costs a little over its length
    gc.collect()
    base = gc.mem_alloc()
    mem_base = micropython.mem_current()
    start_free = gc.mem_free()


def _finish():
    sample()
    gc.disable()
    print("%s base=%d mem_base=%d peak=%d start_free=%d collections=%d ballast=%d"
          % (MARK, base, mem_base, peak, start_free, collections,
             len(_ballast) if _ballast is not None else 0))
    micropython.mem_info()


def run():
    _limit()
    try:
        _main()
    except BaseException:  # MemoryError too: report it, then the figures
        sample()
        gc.collect()  # nothing of the run is active any more: make room to report
        _report(sys.exc_info()[1])
    _finish()
