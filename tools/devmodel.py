"""tools/devmodel: the RP2040's time for a measured step, from the facts about the device.

Estimates, not measurements (see tools/bench_device.py for where the inputs
come from). Every figure here is a fact measured on the device or its
emulator, or a target of the firmware.
"""

import math
import re

MS_PER_MFUEL = 10.0          # 1 M fuel of Python work, flash-cache misses included
MS_PER_MFUEL_NO_XIP = 6.2    # the same, running from cache
I2C_MS_PER_BYTE = 0.0225     # 400 kHz: 9 clocks a byte
# A strip written: neopixel_write of 121 LEDs took 4.8 ms on the device, not the
# 3.63 ms of its bits (CircuitPython sets up a PIO state machine a call), and the
# frame put into the C PixelBuf first (boards/hardware.py's strip[:] = frame)
# 0.52 ms (issue 21, CircuitPython 10.0.3).
STRIP_MS = 4.8
PIXELS_SET_MS = 0.52
NVM_PAGE_MS = 0.5            # a 256-byte flash page programmed
NVM_ERASE_MS = 45.0          # the 4 KB sector erased
GC_MS = 12.8                 # a garbage collection with the app's ~75 KB live
HEAP_BYTES = 163 * 1024      # free on a Pico at the REPL
COLLECTED = ":collected"  # a pass's label ends so when the app collected in it
PYSTACK_BYTES = 2048         # CircuitPython's default
CIRCUITPYTHON_START_S = 1.2  # reset to code.py, its 1 s safe-mode window included
# The window for a second press of reset (safe mode). CircuitPython's own settings.toml
# key CIRCUITPY_SAFE_MODE_DELAY sets it (0: none), where the CircuitPython reads it
# (adafruit/circuitpython#11073, June 2026; an older one ignores the key).
SAFE_MODE_WINDOW_S = 1.0
# Parsing the .py sources took 1.77 s on the device, loading them as .mpy 0.4 s;
# the fuel this benchmark measured for the same work on the firmware the device
# ran (or very near it: its pegging keys came out as the device's) turns the
# fuel measured now into seconds.
PARSE_S_TODAY, PARSE_FUEL_TODAY = 1.77, 447.0e6
MPY_S_TODAY, MPY_FUEL_TODAY = 0.40, 61.0e6
# The heap after the boot of the firmware the device ran (tools/deploy.py's .py
# then): 163 KB less the 76 KB it left; and what this benchmark says of nearly that
# firmware (commit 8260495, the first it measured, run again with its method today).
DEVICE_LIVE_KB_THEN, BENCH_LIVE_KB_THEN = 87.0, 90.4
# The Python work of an average key of tools/bench_board.py's deal, measured on the device.
DEVICE_KEY_MS, DEVICE_KEY_MFUEL = 16.5, 2.7

# Our Python on the device against fuel x MS_PER_MFUEL, from issue 21's keys measured
# on CircuitPython 10.0.3 (an emulated RP2040, its flash-cache misses modelled, .mpy)
# and this model's figures for the firmware measured, which drew the strips before
# the OLED, so that OLED done was the key's end. Each: what, ms measured (the scan
# left out), ms estimated then (strips at the 3.63 ms of their bits), I2C bytes,
# strips and nvm pages in it. The model was low on the Python, not on the wires:
# the measured ms less the wires at the device's figures, over the estimate's Python.
DEVICE_KEYS = (
    ("key 6 of the README hand", 41.6, 31.1, 386, 1, 1),
    ("the crib count, key 30", 74.1, 56.0, 622, 2, 1),
)
OLD_STRIP_MS = 3.63


def device_ratio(measured, estimated, i2c, strips, pages):
    """Our Python's ms measured over estimated, for one of DEVICE_KEYS."""
    wires = i2c * I2C_MS_PER_BYTE + pages * NVM_PAGE_MS
    return (measured - wires - strips * STRIP_MS) / (estimated - wires - strips * OLD_STRIP_MS)


KEY_PYTHON_RATIO = sum(device_ratio(*k[1:]) for k in DEVICE_KEYS) / len(DEVICE_KEYS)
# The heap after the boot: 68.3 KB free measured on the device where the estimate
# was 75 KB (issue 21): the estimate's free heap less this.
HEAP_DEVICE_LESS = 7 * 1024
# The boot is not corrected: estimated 2.06 s where the device measured 1.97 s.

# A string made is first looked for among the names loaded at run time (qstrs):
# each name loaded costs it about this much fuel (measured here: 1,000 more names,
# 20,000 more fuel a str(), a + or a %).
FUEL_PER_NAME_SEARCHED = 20

TARGET_P50_MS, TARGET_P95_MS = 20.0, 30.0
TARGET_FRAME_MS = 20.0       # 50 frames a second
TARGET_BOOT_S = 1.8
TARGET_FREE_SHARE = 0.5
TARGET_FRAMES = 14


def rate(xip):
    return MS_PER_MFUEL if xip else MS_PER_MFUEL_NO_XIP


def io_ms(i2c, strips, pages, erases):
    return (i2c * I2C_MS_PER_BYTE + strips * (STRIP_MS + PIXELS_SET_MS) + pages * NVM_PAGE_MS
            + erases * NVM_ERASE_MS)


def free_on_device(live):
    """The heap free after the boot on the device, from the bytes live here."""
    return HEAP_BYTES - live - HEAP_DEVICE_LESS


class Estimate:
    """One measured step on the RP2040: the whole step, and press to OLED done (its
    last OLED write; the whole step if it writes none). Its collections count in both."""

    def __init__(self, step, before, collections):
        i2c, strips, pages, erases = _deltas(step.counters, before)
        self.step = step
        self.fuel = step.fuel
        self.i2c, self.strips, self.pages, self.erases = i2c, strips, pages, erases
        self.io_ms = io_ms(i2c, strips, pages, erases)
        oled = getattr(step, "oled", None)
        if oled is None:
            self.oled_fuel, self.oled_io_ms, self.oled_strips = self.fuel, self.io_ms, strips
        else:
            counts = _deltas(oled[1], before)
            self.oled_fuel, self.oled_io_ms, self.oled_strips = oled[0], io_ms(*counts), counts[1]
        self.collections = collections
        self.gc_ms = collections * GC_MS

    def cpu_ms(self, xip=True, fuel=None):
        """Our Python's ms; with the flash-cache misses, corrected by KEY_PYTHON_RATIO."""
        fuel = self.fuel if fuel is None else fuel
        return fuel / 1e6 * rate(xip) * (KEY_PYTHON_RATIO if xip else 1.0)

    def ms(self, xip=True):
        return self.cpu_ms(xip) + self.io_ms + self.gc_ms

    def oled_cpu_ms(self, xip=True):
        return self.cpu_ms(xip, self.oled_fuel)

    def oled_ms(self, xip=True):
        return self.oled_cpu_ms(xip) + self.oled_io_ms + self.gc_ms


def _deltas(counters, before):
    if not counters or not before:
        return 0, 0, 0, 0
    return tuple(a - b for a, b in zip(counters, before))


class Heap:
    """Garbage on the Pico's heap: a collection whenever what is free fills up."""

    def __init__(self, live, garbage=0):
        self.free = HEAP_BYTES - live
        self.garbage = garbage

    def allocate(self, blocks):
        """Collections that ``blocks`` more bytes of garbage set off."""
        self.garbage += blocks
        collections = 0
        while self.free > 0 and self.garbage > self.free:
            collections += 1
            self.garbage -= self.free
        return collections

    def collected(self):
        """The app's own collection (the run marks its pass: COLLECTED)."""
        self.garbage = 0
        return 1


def estimate(steps, heap=None, counters=None):
    """An ``Estimate`` per step, in order, its collections on ``heap`` (None: none)."""
    out = []
    before = counters
    for step in steps:
        collections = heap.allocate(step.blocks) if heap else 0
        if heap and step.label.endswith(COLLECTED):
            collections += heap.collected()
        out.append(Estimate(step, before, collections))
        before = step.counters
    return out


def percentile(values, share):
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def with_scan(values, scan_ms, points=20):
    """Each value plus a keypad scan wait spread evenly over 0..scan_ms."""
    return [v + scan_ms * (i + 0.5) / points for v in values for i in range(points)]


def percentile_at(python, rest, scan_ms, part, share=0.95):
    """The ``share`` percentile of the keys' ms, the scan included, their Python (ms)
    cut to ``part`` of it, the rest (ms) as it is."""
    return percentile(with_scan([p * part + r for p, r in zip(python, rest)], scan_ms), share)


def python_share(python, rest, scan_ms, target_ms, share=0.95):
    """The largest part of its Python time every key could keep with the ``share``
    percentile at most ``target_ms``: 1.0 if met now; None if not even keys with no
    Python at all would meet it."""
    if percentile_at(python, rest, scan_ms, 1.0, share) <= target_ms:
        return 1.0
    if percentile_at(python, rest, scan_ms, 0.0, share) > target_ms:
        return None
    low, high = 0.0, 1.0
    for _ in range(30):
        mid = (low + high) / 2
        ok = percentile_at(python, rest, scan_ms, mid, share) <= target_ms
        low, high = (mid, high) if ok else (low, mid)
    return low


def needs(keys, scan_ms, boot):
    """Lines: what meeting the key, boot and heap targets would take (``keys``: the
    keys' Estimates)."""
    python = [e.oled_cpu_ms() for e in keys]
    rest = [e.oled_ms() - p for e, p in zip(keys, python)]
    p95 = [percentile_at(python, rest, scan_ms, k) for k in (1.0, 0.75, 0.5, 0.25, 0.0)]
    part = python_share(python, rest, scan_ms, TARGET_P95_MS)
    out = ["  keys, p95 with the scan: %.1f ms; with our Python at 3/4, 1/2, 1/4, none of its"
           " time: %s ms" % (p95[0], ", ".join("%.1f" % v for v in p95[1:])),
           "    <= %.0f ms: %s" % (TARGET_P95_MS, "met" if part == 1.0 else
                                   "not even with no Python (the wires and the scan)"
                                   if part is None else "every key's Python cut to %.2f of"
                                   " today's (%.1fx as fast)" % (part, 1 / part))]
    if boot.mpy:
        start = CIRCUITPYTHON_START_S + boot.load_s()
        out.append("  boot (.mpy): CircuitPython's start and the modules' load alone (their"
                   " bodies run): %.2f s, before the hardware, the App and the first frame"
                   " (target <= %.1f s)" % (start, TARGET_BOOT_S))
    if boot.modules_live is not None:
        live_max = HEAP_BYTES * (1 - TARGET_FREE_SHARE)
        out.append("  heap: the boot's modules alone (code, names, tables) hold %.1f KB of the"
                   " %.1f KB live (target: %.1f KB at most); frozen into a CircuitPython build"
                   " of our own, their code and names would stay in flash, what their bodies"
                   " make would not (not estimated)" % (boot.modules_live / 1024,
                                                        boot.live / 1024, live_max / 1024))
    return out


def names_untold(boot):
    """What the names loaded before ours do to the figures (they are C on the board)."""
    return ("a string made searches the names loaded at run time: here %d come before our %d"
            " (the stand-ins' and the runner's, built into the board's firmware, where they are"
            " not searched): each string made costs about %.0fk fuel (%.2f ms) more here than"
            " there (how much of it the fuel-to-ms calibration took in is not known): not"
            " taken off" % (boot.names_before, boot.qstr_names,
                                boot.names_before * FUEL_PER_NAME_SEARCHED / 1e3,
                                boot.names_before * FUEL_PER_NAME_SEARCHED / 1e6 * MS_PER_MFUEL))


class Boot:
    """Reset to the resumed game's first frame, from a boot run (and the parse run)."""

    def __init__(self, run, parse_fuel=None, mpy=False):
        steps = [s for s in run.steps if s.label.startswith(("import:", "boot:"))]
        before = run.live["start"] + run.live.get("standins", 0)  # not ours: off each figure
        live = run.live["boot"] - before
        self.run = run
        self.qstr_tables = run.live.get("qstr:boot", 0) - run.live.get("qstr:start", 0)
        self.qstr_names = run.live.get("names:boot", 0) - run.live.get("names:start", 0)
        self.names_before = run.live.get("names:start", 0)  # the stand-ins' and the runner's
        self.live = live  # bytes in use after the boot: ours, the stand-ins' left out
        # and once its first idle passes have loaded card entry and made answers ahead
        self.settled = run.live.get("settled", run.live["boot"]) - before
        self.modules_live = None  # the modules' heap alone: modules_from()
        grown = max(0, live)
        garbage = max(0, sum(s.blocks for s in steps) - grown)
        # The live data grows from nothing to `live` during the boot: on average half of it.
        free = HEAP_BYTES - live / 2
        self.collections = int(garbage // free) if free > 0 else 0
        self.estimates = estimate(steps)  # the collections are counted for the whole boot
        self.total_fuel = sum(s.fuel for s in steps)
        self.io_ms = sum(e.io_ms for e in self.estimates)
        self.mpy = mpy
        if mpy:
            self.load_fuel = sum(s.fuel for s in steps if s.label.startswith("import:"))
            self.load_s_no_xip = self.load_fuel * MPY_S_TODAY / MPY_FUEL_TODAY
        else:
            self.load_fuel = parse_fuel
            self.load_s_no_xip = parse_fuel * PARSE_S_TODAY / PARSE_FUEL_TODAY
        self.rest_fuel = self.total_fuel - self.load_fuel

    def modules_from(self, run):
        """The heap the modules alone hold, from a run_boot(modules=True)."""
        self.modules_live = run.live["imports"] - run.live["start"]

    def load_s(self, xip=True):
        return self.load_s_no_xip * rate(xip) / MS_PER_MFUEL_NO_XIP

    def rest_s(self, xip=True):
        return (self.rest_fuel / 1e6 * rate(xip) + self.io_ms + self.collections * GC_MS) / 1000

    def total_s(self, xip=True):
        return CIRCUITPYTHON_START_S + self.load_s(xip) + self.rest_s(xip)


QSTR_INFO = re.compile(r"n_qstr=(\d+), n_str_data_bytes=(\d+), n_total_bytes=(\d+)")


def qstr_tables(stdout):
    """{"qstr:" + label: bytes of qstr pool tables, "names:" + label: names} at each live()."""
    out, label = {}, None
    for line in stdout.splitlines():
        if line.startswith("QSTR "):
            label = line[5:].strip()
        elif label and line.startswith("qstr pool:"):
            found = QSTR_INFO.search(line)
            if found:
                out["qstr:" + label] = int(found.group(3)) - int(found.group(2))
                out["names:" + label] = int(found.group(1))
            label = None
    return out
