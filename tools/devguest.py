"""tools/devguest: the program tools/devrun.py runs under MicroPython: the board's boot as
code.py does it, the keys, their frames and idle passes, each a metered step.

Filled in by devrun with ``%`` (so a literal percent sign is written twice). Between
steps it yields, and the runner collects the garbage there. A restart is a run of
its own on the flash the run before printed (NVM), as a board restarts on an empty
heap.
"""

GUEST = """
import binascii
import gc
import sys

import busio
import host
import keypad
import meter
import metercal
import microcontroller
import micropython
import mpprobe
import neopixel_write
import supervisor
from meter import begin, end

# The fakes live in boards.sim, which loads the boards package: ours, loaded by the
# boot on the board, so dropped here (tests/test_bench_device.py checks the rest).
for _name in [n for n in sys.modules if n.startswith("boards") and not n.startswith("boards.sim")]:
    del sys.modules[_name]

KEYS = %(keys)r
FIRST_KEY = %(first_key)d  # the number of KEYS[0] in the whole run
RESUMING = %(resuming)r  # the board restarted on the flash the keys before left
FRAME_MS = %(frame_ms)d
IDLE_MS = %(idle_ms)d
PREPARE_PASSES = %(prepare_passes)d
COLLECTED = %(collected)r
BOOT = %(boot)r
SOURCES = %(sources)r
BOOTING = %(booting)r
DEPLOYED = %(deployed)r


def counters():
    sent = 0
    for bus in busio.buses:
        sent += bus.bytes_sent
    strips = 0
    for pin in neopixel_write.writes:
        strips += neopixel_write.writes[pin]
    nvm = microcontroller.nvm
    return sent, strips, nvm.pages_programmed, nvm.erases


meter.counters = counters


def live(label):
    # Called right after a yield: the heap has just been collected.
    host.call("live", "%%s %%d" %% (label, gc.mem_alloc() - mpprobe.base))
    print("QSTR", label)
    micropython.qstr_info()  # its pools and their names' bytes, for devmodel.qstr_tables


def boot():
    for name in BOOT:
        label = "import:" + name
        begin()
        __import__(name)
        end(label)
        yield
%(modules)s
    import boards
    from boards import hardware
    tag = "resume" if RESUMING else "boot"
    label = tag + ":build"
    begin()
    import board
    config = boards.config_for(board.board_id)
    hw = hardware.build(config)
    end(label)
    yield
    import cribbage.app
    label = tag + ":app"
    begin()
    app = cribbage.app.App(hw)
    app.collect = lambda: COLLECTS.append(1)  # at the yield: this build cannot collect in a frame
    end(label)
    yield
    live(tag)
    yield app


def frame_kind(app):
    p = app.pegs
    won = p.win_start is not None and p.elapsed(supervisor.clock.now, p.win_start) < p.win_ms
    return "comet" if won else "jump"


COLLECTS = []


def settle(app, at):
    # The idle passes before the next key (tools/devgame.py's _settle): the pass
    # in which the app collected is marked, for the model's heap.
    for n in range(2 + PREPARE_PASSES):  # more while answers are made ahead
        if n and not (app.ctrl.unprepared() or app.to_collect):
            break
        supervisor.clock.advance(IDLE_MS)
        begin()
        app.step()
        end("idle:%%s%%s" %% (at, COLLECTED if COLLECTS else ""))
        COLLECTS.clear()
        yield


def steps():
    yield from metercal.calibrate("cal:")
    yield
    live("start")
    for path in SOURCES:  # parsing alone, on a fresh heap
        with open(path) as f:
            source = f.read()
        label = "compile:" + path
        begin()
        compile(source, path, "exec")
        end(label)
        source = None
        yield
    if not BOOTING:
        return
    app = None
    for app in boot():
        yield
    loaded = []
    for name in sys.modules:
        module = sys.modules[name]
        path = getattr(module, "__file__", "") if type(module) is type(sys) else ""
        if path[7:].rsplit(".", 1)[0] in DEPLOYED:  # "/input/...py" or ".mpy"
            loaded.append(path[7:].rsplit(".", 1)[0] + ".py")
    host.call("loaded", " ".join(loaded))
    yield from settle(app, "restart" if RESUMING else "boot")
    live("settled")  # between keys: card entry loaded, the answers made ahead held
    for n in range(len(KEYS)):
        keypad.press(KEYS[n])
        i = n + FIRST_KEY
        label = "key:%%d" %% i
        begin()
        app.step()
        end(label)
        yield
        while app.busy():
            supervisor.clock.advance(FRAME_MS)
            label = "frame:%%d:%%s" %% (i, frame_kind(app))
            begin()
            app.step()
            end(label)
            yield
        yield from settle(app, i)
    game = app.game
    print("SCORES", list(game.scores), "TALLY", list(game.tally))
    print("OLED", "|".join(app.oled_lines()))
    nvm = microcontroller.nvm  # what a restart finds
    print("NVM", binascii.hexlify(nvm[0:len(nvm)]).decode())
    yield
    live("end")
    yield from standins()
    yield from metercal.calibrate("recal:")


def standins():
    # The heap one more set of the fake hardware holds: C and no heap on the board.
    import board
    import digitalio
    pins = [getattr(board, "GP%%d" %% n) for n in range(6, 14)]
    yield
    start = gc.mem_alloc()
    made = [busio.I2C(board.GP1, board.GP0, frequency=400000),
            keypad.KeyMatrix(row_pins=pins[:4], column_pins=pins[4:]),
            digitalio.DigitalInOut(board.GP2), digitalio.DigitalInOut(board.GP3)]
    yield
    host.call("live", "standins %%d" %% (gc.mem_alloc() - start))
    made = None
    busio.buses.pop()
    keypad.matrices.pop()
    yield"""
