"""tools/bench_device.py: the device estimate runs and prints every figure it claims.

Speed is never asserted (the figures are estimates that move with the code);
the arithmetic of the estimate, the meter's split between our code and the
stand-ins, and the keys it presses are.
"""

import os
import re
import subprocess

import pytest

from tools import bench_device, devgame, devmeter, devmodel, devreport, devrun
from tools.mprun import run_micropython


def test_the_readme_hand_is_read_from_the_readme_and_plays_to_25_7():
    keys = devgame.readme_keys()
    assert keys == "#CD6A9A9D7DCBBB4C#8B###5B5CAD0C"
    played = devgame.play(keys, whole_game=False)
    assert played.hand == [25, 7]
    assert [s.label for s in played.steps if s.label.startswith("key:")] == [
        "key:%d" % i for i in range(len(keys))]


def test_an_estimate_adds_fuel_wire_flash_and_collections():
    step = devmeter.Step("key:0", 2_000_000, 0, 0, 0, (1100, 3, 7, 0), False, 0)
    before = (1000, 2, 6, 0)
    e = devmodel.Estimate(step, before, 1)
    # 2 M fuel at 10 ms x the device's ratio, 100 I2C bytes at 22.5 us, a strip (its
    # neopixel_write and its frame into the PixelBuf), an nvm page, a collection.
    ratio = devmodel.KEY_PYTHON_RATIO
    assert e.ms() == pytest.approx(20 * ratio + 2.25 + 4.8 + 0.52 + 0.5 + 12.8)
    # Without the flash-cache misses: the model's own rate, not corrected.
    assert e.ms(xip=False) == pytest.approx(12.4 + 2.25 + 4.8 + 0.52 + 0.5 + 12.8)
    # No OLED write in it: OLED done is the whole step.
    assert e.oled_ms() == e.ms() and e.oled_strips == 1


def test_press_to_oled_done_stops_at_the_last_oled_write():
    # 2 M fuel in all; the last OLED write ended at 1.5 M with 80 of the 100 I2C bytes
    # sent, no strip yet (the strip and 20 bytes after it), the nvm page before it.
    step = devmeter.Step("key:0", 2_000_000, 0, 0, 0, (1100, 3, 7, 0), False, 0,
                         (1_500_000, (1080, 2, 7, 0)))
    e = devmodel.Estimate(step, (1000, 2, 6, 0), 0)
    ratio = devmodel.KEY_PYTHON_RATIO
    assert e.oled_strips == 0 and e.strips == 1
    assert e.oled_cpu_ms() == pytest.approx(15 * ratio)
    assert e.oled_ms() == pytest.approx(15 * ratio + 80 * 0.0225 + 0.5)
    assert e.oled_ms(xip=False) == pytest.approx(1.5 * 6.2 + 80 * 0.0225 + 0.5)
    assert e.ms() == pytest.approx(20 * ratio + 2.25 + 4.8 + 0.52 + 0.5)


def test_the_calibration_is_issue_21s_device_figures_over_the_model_s():
    # Each key: (measured - its wires at the device's figures) over (estimated - its
    # wires at the model's then, strips at 3.63 ms), the Python's ratio.
    ratios = ["%s %.4f" % (k[0], devmodel.device_ratio(*k[1:])) for k in devmodel.DEVICE_KEYS]
    assert ratios == ["key 6 of the README hand 1.5103", "the crib count, key 30 1.4602"]
    # key 6: (41.6 - 386 x 0.0225 - 4.8 - 0.5) / (31.1 - 386 x 0.0225 - 3.63 - 0.5)
    assert devmodel.device_ratio(41.6, 31.1, 386, 1, 1) == pytest.approx(27.615 / 18.285)
    assert "%.4f" % devmodel.KEY_PYTHON_RATIO == "1.4852"
    # The heap: 7 KB less free than estimated here.
    assert devmodel.free_on_device(100 * 1024) == 56 * 1024


def test_each_target_of_issue_21_is_said_met_or_missed():
    figures = {"hand_p95": 30.0, "hand_p50": 20.04, "game_p95": 48.26, "game_p50": 19.5,
               "boot_s": 2.2, "heap_kb": 81.5, "gc_keys": 1, "frames_s": 49.6}
    assert devreport.target_lines(figures) == [
        "  README hand: press -> OLED done, p95, the scan in          30.0 ms  <= 30.0 ms   PASS",
        "  README hand: press -> OLED done, median, the scan in       20.0 ms  <= 20.0 ms   MISS",
        "  whole game: press -> OLED done, p95, the scan in           48.3 ms  <= 30.0 ms   MISS",
        "  whole game: press -> OLED done, median, the scan in        19.5 ms  <= 20.0 ms   PASS",
        "  reset -> the resumed game's first frame                     2.20 s  <= 1.80 s    MISS",
        "  heap free after the boot, on the device                    81.5 KB  >= 81.5 KB   PASS",
        "  keys with a garbage collection inside                       1 keys  <= 0 keys    MISS",
        "  animation frames a second, the slowest frame                 50 /s  >= 50 /s     MISS"]
    lines = devreport.target_lines({"hand_p95": 12.0, "gc_keys": 0, "frames_s": 50.0},
                                   "keys given")
    assert lines[0] == ("  keys given: press -> OLED done, p95, the scan in           12.0 ms"
                        "  <= 30.0 ms   PASS")
    assert lines[2] == ("  whole game: press -> OLED done, p95, the scan in           not run"
                        "  <= 30.0 ms   ----")
    assert [line[-4:] for line in lines[4:]] == ["----", "----", "PASS", "PASS"]


def test_garbage_sets_off_a_collection_each_time_the_free_heap_fills():
    heap = devmodel.Heap(live=63 * 1024)  # 100 KB free
    assert heap.allocate(60 * 1024) == 0
    assert heap.allocate(60 * 1024) == 1
    assert heap.allocate(250 * 1024) == 2


def test_the_model_collects_where_the_run_saw_the_app_collect():
    def step(label, blocks):
        return devmeter.Step(label, 0, 0, 0, blocks, None, False, 0)
    heap = devmodel.Heap(live=63 * 1024)  # 100 KB free, just collected
    run = [step("key:0", 60 * 1024), step("idle:0", 30 * 1024),  # an answer made: no collection
           step("key:1", 20 * 1024), step("idle:1" + devmodel.COLLECTED, 0)]
    made = [e.collections for e in devmodel.estimate(run, heap)]
    # 110 KB of garbage by the second key fills the heap there; then the app's own.
    assert made == [0, 0, 1, 1]
    assert heap.garbage == 0


def test_the_scan_wait_spreads_each_key_over_the_interval():
    spread = devmodel.with_scan([10.0], 20.0, points=4)
    assert spread == [12.5, 17.5, 22.5, 27.5]
    assert devmodel.percentile([1, 2, 3, 4], 0.5) == 3


def test_the_part_of_its_python_a_key_may_keep_to_meet_a_percentile_is_found():
    # Two keys of 20 ms of Python and 10 ms of wires; no scan: 20 * part + 10 ms.
    python, rest = [20.0, 20.0], [10.0, 10.0]
    assert devmodel.python_share(python, rest, 0.0, 30.0) == 1.0
    assert devmodel.python_share(python, rest, 0.0, 20.0) == pytest.approx(0.5, abs=1e-6)
    assert devmodel.python_share(python, rest, 0.0, 9.0) is None
    # The scan's wait counts: 0..10 ms spread makes the 95th percentile 9.75 ms more.
    assert devmodel.python_share(python, rest, 10.0, 29.75) == pytest.approx(0.5, abs=1e-6)


def test_what_the_targets_would_take_is_said_from_the_estimates():
    # Two keys of 2 M fuel (20 ms of Python, x 1.485 as the device measured: 29.7 ms)
    # and 100 I2C bytes (2.25 ms) each.
    keys = [devmodel.Estimate(devmeter.Step("key:%d" % i, 2_000_000, 0, 0, 0, (100, 0, 0, 0),
                                            False, 0), (0, 0, 0, 0), 0) for i in range(2)]

    class Boot:
        mpy, live, modules_live = True, 90 * 1024, 80 * 1024

        def load_s(self):
            return 0.5
    lines = devmodel.needs(keys, 0.0, Boot())
    assert lines == [
        "  keys, p95 with the scan: 32.0 ms; with our Python at 3/4, 1/2, 1/4, none of its"
        " time: 24.5, 17.1, 9.7, 2.2 ms",
        # 30 ms leaves the Python 27.75 of its 29.7 ms
        "    <= 30 ms: every key's Python cut to 0.93 of today's (1.1x as fast)",
        "  boot (.mpy): CircuitPython's start and the modules' load alone (their bodies run):"
        " 1.70 s, before the hardware, the App and the first frame (target <= 1.8 s)",
        "  heap: the boot's modules alone (code, names, tables) hold 80.0 KB of the 90.0 KB"
        " live (target: 81.5 KB at most); frozen into a CircuitPython build of our own, their"
        " code and names would stay in flash, what their bodies make would not (not"
        " estimated)"]
    slow = [devmodel.Estimate(devmeter.Step("key:0", 4_000_000, 0, 0, 0, (100, 0, 0, 0), False,
                                            0), (0, 0, 0, 0), 0)]
    # 40 ms of Python x 1.485 (59.4) and 2.25 of wires: 30 ms needs 0.47 of it (27.75 / 59.4).
    assert devmodel.needs(slow, 0.0, Boot())[1] == (
        "    <= 30 ms: every key's Python cut to 0.47 of today's (2.1x as fast)")


_LOOPS = """
import metercal
import microcontroller
from meter import begin, end

def steps():
    yield from metercal.calibrate("cal:")
    nvm = microcontroller.nvm
    plain = bytearray(b"\\xff" * 4096)
    for name, data in (("stand-in", nvm), ("bytearray", plain)):
        label = name
        begin()
        n = 0
        for pos in range(4096):
            if data[pos] != 255:
                n += 1
        end(label)
        yield
"""


def metered(code):
    """{label: devmeter.Step} of ``code``'s steps, run under the meter as bench_device runs."""
    meter = devmeter.Meter()
    result = run_micropython(code, files=("engine", "lib", "boards"),
                             extra={"metercal.py": devmeter.calibration_code()},
                             preload=devrun.PRELOAD, host=meter,
                             heapsize_kb=devrun.heapsize_kb())
    assert result.ok, result.error
    return {s.label: s for s in meter.steps()}


def test_the_meter_leaves_the_stand_ins_fuel_out():
    # The same loop over microcontroller.nvm (a Python stand-in, C on the board)
    # and over a bytearray (C here too) must cost our code the same.
    steps = metered(_LOOPS)
    standin, plain = steps["stand-in"], steps["bytearray"]
    assert standin.calls == 4096 and plain.calls == 0
    assert standin.standin_fuel > plain.fuel  # the stand-in itself is dearer than the loop
    assert standin.fuel == pytest.approx(plain.fuel, rel=0.05)


_OLED = """
import board
import busio
import meter
import metercal
from meter import begin, end

def work(n):
    total = 0
    for i in range(n):
        total += i
    return total

def steps():
    yield from metercal.calibrate("cal:")
    bus = busio.I2C(board.GP1, board.GP0, frequency=400000)
    bus.try_lock()
    meter.counters = lambda: (bus.bytes_sent, 0, 0, 0)
    data = bytearray(17)
    data[0] = 0x40  # the SSD1306's data: 16 bytes of pixels
    for label, write in (("work", False), ("write", True)):
        begin()
        work(500)
        if write:
            bus.writeto(0x3C, data)
            work(1000)
        end(label)
        yield
"""


def test_the_meter_marks_the_last_oled_write_of_a_step():
    steps = metered(_OLED)
    work, write = steps["work"], steps["write"]
    assert work.oled is None
    fuel, counters = write.oled
    assert counters == (18, 0, 0, 0)  # the address byte and the 17 sent, as the write ended
    # Ours up to the write is the same loop as the step without it; the step goes on after.
    assert fuel == pytest.approx(work.fuel, rel=0.05)
    assert write.fuel > 2.5 * fuel


def test_bad_keys_are_refused(capsys):
    assert bench_device.main(["--keys", "12X"]) == 2
    assert "the keys are 123A456B789C*0#D" in capsys.readouterr().err


def test_the_benchmark_prints_its_figures_for_a_short_key_sequence(capsys):
    assert bench_device.main(["--keys", "12A #", "--no-game", "--no-mpy", "--no-check"]) == 0
    out = capsys.readouterr().out
    number = r"-?\d+\.\d"
    # A line per key: 1, 2, A (pegs 12 for A), # (opens card entry).
    rows = re.findall(r"^ +(\d+) +(\S) +(\w+) +(yes)? +" + number, out, re.M)
    assert [(r[1], r[2], r[3]) for r in rows] == [
        ("1", "scoreboard", ""), ("2", "scoreboard", ""), ("A", "scoreboard", "yes"),
        ("#", "card", "")]
    for kind in ("pegging \\(moves a peg\\)", "card entry", "scoreboard", "every key"):
        assert re.search(r"^  %s +\d+ +(%s +){6}p50 (PASS|MISS) p95 (PASS|MISS)( +%s){3}$"
                         % (kind, number, number), out, re.M), kind
    assert re.search(r"a peg's jump +\d+ frames: ms p50 p95 max( +%s){3} += \d+ frames/s"
                     % number, out)
    assert re.search(r"^  total +not estimated +\d\.\d\d s (PASS|MISS)$", out, re.M)
    assert re.search(r"^  total, CIRCUITPY_SAFE_MODE_DELAY=0 not estimated +\d\.\d\d s"
                     r" \(not default\)$", out, re.M)
    assert re.search(r"heap after the boot, \.py : %s KB live, %s KB free" % (number, number), out)
    assert re.search(r"allocated a key: p50 \d+, mean \d+, max \d+ bytes", out)
    assert re.search(r"deepest call chain: \d+ frames, ~\d+ bytes of the 2048-byte pystack", out)
    assert re.search(r"\| keys that move a peg \(median / max\) \| \d+ / \d+ ms"
                     r" \| \d+ / \d+ ms \|", out)
    assert re.search(r"- a string made searches the names loaded at run time: here [1-9]\d+ come"
                     r" before our [1-9]\d+ .*: each string made costs about \d+k fuel", out)
    assert re.search(r"^  keys, p95 with the scan: %s ms; with our Python at 3/4, 1/2, 1/4, none"
                     r" of its time: %s, %s, %s, %s ms$" % ((number,) * 5), out, re.M)
    assert re.search(r"^    <= 30 ms: (met|every key's Python cut to \d\.\d\d of today's"
                     r" \(\d+\.\dx as fast\)|not even with no Python .*)$", out, re.M)
    assert re.search(r"^  keys given: press -> OLED done, p95, the scan in +%s ms  <= 30.0 ms"
                     r"   (PASS|MISS)$" % number, out, re.M)
    assert re.search(r"^  reset -> the resumed game's first frame +not run  <= 1.80 s    ----$",
                     out, re.M)
    assert re.search(r"^  animation frames a second, the slowest frame +\d+ /s  >= 50 /s"
                     r" +(PASS|MISS)$", out, re.M)
    assert re.search(r"heap after the boot, \.py : %s KB live, %s KB free here, %s KB on the"
                     r" device" % (number, number, number), out)
    assert "- .mpy boot: skipped (--no-mpy)" in out
    assert "- the win comet frames: none in this run" in out


def test_the_boot_loads_and_counts_our_boards_modules():
    # The stand-ins import some of boards/; on the board it is ours, loaded by the boot.
    boot = devrun.run_boot(devgame.play(devgame.readme_keys(), whole_game=False).saved)
    fuel = {s.label: s.fuel for s in boot.steps}
    for name in ("boards", "boards.layout", "boards.settings", "boards.hardware"):
        assert fuel["import:" + name] > 300_000, name  # loaded, not found in sys.modules
    assert "boards/hardware.py" in boot.loaded


def test_the_run_loads_the_modules_in_code_py_s_order():
    # code.py loads the app before it builds the board, and the run the same way:
    # where each module sits in the heap moves every later allocation's walk.
    order = devrun.boot_imports()
    assert order[-6:] == ["boards", "boards.layout", "boards.settings", "boards.ssd1306",
                          "neopixel", "boards.hardware"]  # build()'s own imports with it
    assert order.index("cribbage.app") < order.index("boards")
    assert set(order[:-6]) >= {"engine.game", "cribbage.store", "cribbage.words"}


def test_a_load_is_metered_read_and_replay_apart_a_record_a_step():
    from tools import devload, store_logs
    short = devload.run_load(devgame.play(devgame.readme_keys(), whole_game=False).saved)
    full = devload.run_load(store_logs.busy_log())
    assert short.records == 13 and full.records == 162  # the records after the last BASE
    assert full.read > 10 * short.read and full.replay > 10 * short.replay
    assert 0 < short.base < full.read  # a new game's BASE: little to decode


def test_no_key_or_frame_of_a_whole_game_calls_deeper_than_the_pystack_allows():
    # A chain past the pystack is a crash on the board ("pystack exhausted"), not a
    # slow key: every step of the scripted game, on CPython's profile hook.
    played = devgame.play(devgame.readme_keys())
    deepest = max(played.steps, key=lambda s: s.frames)
    assert deepest.frames <= devmodel.TARGET_FRAMES, deepest.chain
    assert deepest.pystack < devmodel.PYSTACK_BYTES, deepest.chain


def test_the_run_marks_the_passes_the_app_collected_in():
    # The boot's garbage goes once the first passes have made the answers ahead
    # (the # to the cards); a key's, once its own are made.
    played = devgame.play("#5", whole_game=False)
    idle = [s.label for s in played.steps if s.label.startswith("idle:")]
    run = devrun.run_keys(played.keys, len(played.keys) - 1)  # and the restart after them
    marked = [s.label for s in run.steps if s.label.startswith("idle:")]
    assert [label.split(":")[:2] for label in marked] == [label.split(":") for label in idle]
    collected = [label.split(":")[1] for label in marked if label.endswith(devmodel.COLLECTED)]
    assert collected == ["boot", "0", "1", "restart"]
    after_five = [label for label in marked if label.startswith("idle:1")]
    assert after_five[-1] == "idle:1" + devmodel.COLLECTED  # the last, after the suits made
    assert len(after_five) == 5  # the four suits made ahead, one a pass, then the collection


def test_modules_compile_as_deployed_without_line_numbers(tmp_path):
    # MicroPython's mpy-cross here (the board's is CircuitPython's, with the same flags).
    from tools.deployer.mpy import MPY_CROSS_FLAGS, source_name
    mpy_cross, why = bench_device.find_mpy_cross()
    assert mpy_cross, why
    source = tmp_path / "boom.py"
    source.write_text("def f(x):\n    y = 1\n    return x[y]\n\n\ndef g():\n    return f(())\n")
    sizes = {}

    def compiler(flags, name="lib/boom.py"):
        def prepare(folder):
            out = os.path.join(folder, "boom.mpy")
            subprocess.run([mpy_cross, *flags, "-o", out, "-s", name, str(source)], check=True)
            sizes[flags] = os.path.getsize(out)
        return prepare

    code = ("import sys, boom\ntry:\n    boom.g()\n"
            "except IndexError as e:\n    sys.print_exception(e)\n")
    plain = run_micropython(code, files=(), prepare=compiler(())).stdout
    deployed = run_micropython(code, files=(), prepare=compiler(
        MPY_CROSS_FLAGS, source_name("lib/boom.py"))).stdout
    assert '"lib/boom.py", line 7, in g\n  File "lib/boom.py", line 3, in f\n' in plain
    assert 'File "boom", line 1, in g\n  File "boom", line 1, in f\n' in deployed
    assert sizes[MPY_CROSS_FLAGS] < sizes[()]


def test_the_board_s_mpy_files_import_neither_typing_nor_const(tmp_path):
    # Both are for CPython and mypy, under `if __debug__:`, which -O3 compiles out:
    # the names and the code would stay in the board's heap.
    import shutil
    mpy_cross, why = bench_device.find_mpy_cross()
    assert mpy_cross, why
    sources = [path for path in devrun.deployed_sources() if path.endswith(".py")
               and not path.startswith("lib/neopixel") and path != "code.py"]
    assert "engine/hand.py" in sources and "boards/hardware.py" in sources
    for path in sources:
        os.makedirs(os.path.dirname(tmp_path / path), exist_ok=True)
        shutil.copy(os.path.join(devrun.ROOT, path), tmp_path / path)
    devrun._compiler(mpy_cross)(str(tmp_path))  # as the benchmark, with the deploy's flags
    for path in sources:
        data = (tmp_path / (path[:-3] + ".mpy")).read_bytes()
        assert b"typing" not in data and b"micropython" not in data, path
        # named as its module (a name its import interns anyway), not by its path
        assert path.encode() not in data, path
    hand = (tmp_path / "engine/hand.mpy").read_bytes()
    view = (tmp_path / "lib/cribbage/view.mpy").read_bytes()
    assert b"engine.hand" in hand and b"cribbage.view" in view
