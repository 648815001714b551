"""The board's builder, code.py and the MicroPython harness under MicroPython 1.27."""

import pytest

from tools.mprun import MicroPythonCrash, run_micropython


# ---- under MicroPython ---------------------------------------------------------------
# The real builder and code.py run under MicroPython 1.27 with the stand-ins of
# tools/mpstubs, in a heap cut down to what a Pico leaves free.

BUILD_UNDER_MICROPYTHON = """
import boards, keypad, microcontroller, neopixel_write, supervisor
from boards import hardware

def steps():
    yield  # the imports' garbage collected, as CircuitPython would when short
    global hw
    hw = hardware.build(boards.config_for("raspberry_pi_pico"))
    yield
    print(len(hw.tracks), sorted(hw.settings.values.items()), hw.settings.problems)
    hw.write_strip(2, [0x010203] * 121)
    print(list(neopixel_write.frames["GP4"][:3]))
    keypad.press("7D")
    event = hw.keys.get()
    print(boards.KEY_LEGEND[event.key_number], event.pressed)
    supervisor.clock.advance(250)
    hw.feed_watchdog()
    print(hw.ticks_ms(), microcontroller.watchdog.feeds)
    hw.nvm[0:2] = b"hi"
    print(len(hw.nvm), bytes(hw.nvm[0:3]), hw.nvm.erases)
    import time
    print(hasattr(time, "monotonic"), hasattr(time, "ticks_ms"))
"""


def test_the_real_builder_runs_under_micropython_with_settings_toml():
    settings = 'CRIBBAGE_TRACKS = 3\nCRIBBAGE_COLORS = "red,blue"  # two\nCRIBBAGE_WATCHDOG = on\n'
    result = run_micropython(BUILD_UNDER_MICROPYTHON, files=("boards",), heap_kb=120,
                             extra={"settings.toml": settings})
    assert result.ok, result.error
    assert result.stdout.splitlines() == [
        "3 [('CRIBBAGE_COLORS', ('\"red,blue\"', 'red,blue')), ('CRIBBAGE_TRACKS', ('3', '3')),"
        " ('CRIBBAGE_WATCHDOG', ('on', 'on'))] []",
        "[2, 1, 3]",  # 0x010203 in the strip's GRB order, as Adafruit's neopixel sends it
        "7 True",
        "250 1",
        "4096 b'hi\\xff' 0",
        "True False",  # CircuitPython's time, not MicroPython's
    ]


# A stand-in app: it shows what code.py handed it, and stops code.py's loop.
FAKE_APP = """
class Stop(Exception):
    pass


class App:
    def __init__(self, hw):
        print('app got', len(hw.tracks), hw.config.CHIP, hw.config.module.__name__, hw.font_path)
        self.passes = 0

    def step(self):
        self.passes += 1
        if self.passes == 3:
            raise Stop('stepped %d times' % self.passes)
"""
RUN_CODE_PY = """
from cribbage.app import Stop
try:
    import code
except Stop as stop:
    print(stop)
"""


def test_code_py_builds_the_board_and_hands_it_to_the_app_under_micropython():
    # One import, so nothing is collected inside it here (see mpprobe); a board collects.
    result = run_micropython(RUN_CODE_PY, files=("boards", "code.py"), heap_kb=160,
                             extra={"lib/cribbage/__init__.py": "",
                                    "lib/cribbage/app.py": FAKE_APP})
    assert result.ok, result.error
    assert result.stdout == ("cribbage: raspberry_pi_pico, 2 tracks on GP2 GP3 (straight),"
                             " OLED 0x3C on GP0/GP1, budget 500 mA\n"
                             "app got 2 RP2040 boards.raspberry_pi_pico font5x8.bin\n"
                             "stepped 3 times\n")


def test_code_py_on_a_board_without_a_config_stops_with_the_serial_consoles_line():
    # README's "When something is wrong": the line as CircuitPython prints it.
    script = "import board\nboard.board_id = 'adafruit_feather_rp2040'\n" + RUN_CODE_PY
    result = run_micropython(script, files=("boards", "code.py"), heap_kb=160,
                             extra={"lib/cribbage/__init__.py": "",
                                    "lib/cribbage/app.py": FAKE_APP})
    assert not result.ok and result.stdout == ""
    assert result.error.splitlines()[-1] == (
        "ValueError: no board config for board id 'adafruit_feather_rp2040'; boards/ has"
        " raspberry_pi_pico, raspberry_pi_pico_w, raspberry_pi_pico2, raspberry_pi_pico2_w"
        " (README: adding a board)")


def test_micropython_runs_report_errors_and_running_out_of_heap():
    result = run_micropython("x = 9\nraise ValueError('%d is too many' % x)\n", heap_kb=50)
    assert not result.ok
    assert result.error.splitlines()[-1] == "ValueError: 9 is too many"
    starved = run_micropython("hoard = [bytearray(1000) for i in range(20)]\n", heap_kb=8)
    assert "MemoryError" in starved.error
    with pytest.raises(MicroPythonCrash, match="fuel"):
        run_micropython("while True:\n    pass\n", fuel=20_000_000)


CHURN = """
kept = []


def steps():
    for round in range(8):
        junk = [bytearray(b"%d" % i) for i in range(300)]
        kept.append(b"round %d" % round)
        junk = None
        yield
    print(kept[0], kept[-1])
    hoard = [bytearray(100) for i in range(1000)]
"""


def test_micropython_collects_between_steps_and_reports_a_step_out_of_heap():
    result = run_micropython(CHURN, files=(), heap_kb=60)
    assert result.stdout == "b'round 0' b'round 7'\n"
    assert "MemoryError" in result.error.splitlines()[-1]
    assert result.collections == 9
    assert 50 * 1024 < result.heap_peak <= result.heap_free  # the failed step filled the heap


FRAMES = """
import gc, mpprobe

mark = [0]


def steps():
    mark[0] = gc.mem_alloc()
    yield


def noop():
    pass


def fake_main():
    mark[0] = gc.mem_alloc()


saved = mpprobe._collect, mpprobe._main, mpprobe._limit, mpprobe._finish
mpprobe._collect = noop
before = gc.mem_alloc()
made = steps()
generator = gc.mem_alloc() - before
before = gc.mem_alloc()
mpprobe._drive(made)
drive = mark[0] - before
before = gc.mem_alloc()
mpprobe._main()
main = mark[0] - before
mpprobe._main, mpprobe._limit, mpprobe._finish = fake_main, noop, noop
before = gc.mem_alloc()
mpprobe.run()
run = mark[0] - before
mpprobe._collect, mpprobe._main, mpprobe._limit, mpprobe._finish = saved
print(generator, drive, main, run)
"""


def test_the_harness_frames_active_while_collecting_live_on_the_c_stack():
    # A frame allocated on the heap would be freed by a collection while it runs
    # (see tools/mpstubs/mpprobe.py); entering these must allocate nothing.
    result = run_micropython(FRAMES, files=())
    assert result.ok, result.error
    generator, drive, main, run = (int(n) for n in result.stdout.split())
    assert drive == 0 and run == 0
    assert main <= generator  # _main allocates only the steps() generator
