"""mpprobe: the heap limit and the heap count for tests/mprun.py runs (MicroPython only).

This WASI MicroPython cannot see every live object when it collects: a Python
frame with more than 11 words of state (locals, value stack and try blocks)
is allocated on the heap and held only where the collector does not look, so a
collection while such a frame is running frees it under the VM's feet. Runs
therefore keep automatic collection off and collect only at safe points:
``collect()``, called from a frame with few locals and no try block (a
script's top level is fine) while no large frame is running below it.

With collection off the heap in use only grows between collections, so the
amount sampled just before each collection, and at the end, is the peak.
"""

import gc
import sys

import micropython

HEAP = 0  # bytes to leave free for the run (0: the whole heap)
AUTO = 0  # 1: automatic collection on (may crash this build, see above)
MARK = "@@mpprobe"

base = 0
mem_base = 0
peak = 0
start_free = 0
collections = 0
_ballast = None


def sample():
    """Note the heap in use now."""
    global peak
    used = gc.mem_alloc() - base
    if used > peak:
        peak = used


def collect():
    """Note the heap in use, then collect garbage (call only at a safe point)."""
    global collections
    sample()
    collections += 1
    gc.collect()


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
    if AUTO:
        gc.enable()


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
        import _mprun_main  # noqa: F401
    except BaseException as error:  # MemoryError too: report it, then the figures
        print(MARK + " error")
        sys.print_exception(error, sys.stdout)
    _finish()
