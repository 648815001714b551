"""tools/devrun: the firmware under MicroPython 1.27, metered a step at a time, for bench_device.py.

``run_keys(keys, restart_at)`` boots the firmware as code.py does (the
modules imported one by one in its order, the hardware built, the app started), presses
``keys`` one a step, each followed by animation frames every FRAME_MS while
the pegs move and idle passes (the same steps tools/devgame.py takes on
CPython), and restarts the board on the same flash after key ``restart_at``.
``run_boot(saved)`` boots on a flash holding a saved game (from ``.mpy``
files, given an mpy-cross); ``run_parse()`` parses each deployed ``.py`` file
alone on a fresh heap, so that parsing can be told from running. Each returns
the ``tools.devmeter.Step`` list, the live heap at a few points, the files the
boot loaded and what the guest printed.
"""

import ast
import binascii
import os
import subprocess
from collections import namedtuple
from importlib.util import find_spec

from tools import devgame, devmeter, devmodel
from tools.mprun import BUILTINS, run_micropython
from tools.deployer.mpy import MPY_CROSS_FLAGS  # compiled as the deploy compiles

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FUEL = 400_000_000_000
PICO_HEAP_KB = 163  # free on a Pico at the REPL
# The heap is about the Pico's: what is free once the stand-ins are loaded is
# what a Pico has, so the allocator walks a heap of the board's size, plus some
# room, since here garbage is collected only between steps (a restart's first
# frame needs it). The collections a Pico would make are counted apart.
HEADROOM_KB = 48
PRELOAD = BUILTINS + ("adafruit_bus_device.i2c_device", "meter", "metercal")
# Built into CircuitPython for the Pico: preloaded with the stand-ins, left out of counts.
C_LIBRARIES = ("adafruit_pixelbuf", "adafruit_bus_device")
# Deployed (as .mpy, or .py) and loaded at boot: ours, and Adafruit's neopixel.
PARSED_FOLDERS = ("engine/", "lib/cribbage/", "boards/")
PARSED_DRIVERS = ("lib/neopixel.py",)

Run = namedtuple("Run", (
    "steps",    # tools.devmeter.Step, in order
    "live",     # {label: heap in use after a collection}: start, boot, resume, end (imports)
    "loaded",   # the deployed files the boot parsed (or loaded)
    "meter",    # the tools.devmeter.Meter, for its calibration
    "stdout"))


def _module_file(name):
    for base in (ROOT, os.path.join(ROOT, "lib")):
        path = os.path.join(base, *name.split("."))
        for candidate in (path + ".py", os.path.join(path, "__init__.py")):
            if os.path.exists(candidate):
                return candidate
    if "lib/%s.py" % name in PARSED_DRIVERS:
        return find_spec(name).origin
    return None


def boot_imports():
    """The modules code.py's boot imports, dependencies first (from the sources' imports)."""
    order, seen = [], set()

    def visit(name, top_level_only):
        if name in seen:
            return
        path = _module_file(name)
        if path is None:
            return  # a CircuitPython built-in or a stand-in's
        seen.add(name)
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        nodes = tree.body if top_level_only else list(ast.walk(tree))
        for node in _flatten(nodes):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    visit(alias.name, True)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                visit(node.module, True)
                for alias in node.names:  # from boards import layout: a module too
                    visit(node.module + "." + alias.name, True)
        if "." in name:
            visit(name.rsplit(".", 1)[0], True)
        order.append(name)

    # code.py's imports in its order (where each loads in the heap matters), and
    # those hardware.build() makes inside the function.
    with open(os.path.join(ROOT, "code.py"), encoding="utf-8") as f:
        for node in ast.parse(f.read()).body:
            names = [alias.name for alias in getattr(node, "names", ())]
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [node.module + "." + name for name in names]
            for name in names if isinstance(node, (ast.Import, ast.ImportFrom)) else ():
                visit(name, name != "boards.hardware")
    return [name for name in order if not name.startswith(C_LIBRARIES)]


def _flatten(nodes):
    # Module-level statements, and those inside module-level try/if blocks.
    for node in nodes:
        yield node
        if isinstance(node, (ast.Try, ast.If)):
            yield from _flatten(node.body + node.orelse
                                + [n for h in getattr(node, "handlers", []) for n in h.body])


_GUEST = """
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
RESTART_AT = %(restart_at)d
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


def boot(restart):
    if not restart:
        for name in BOOT:
            label = "import:" + name
            begin()
            __import__(name)
            end(label)
            yield
%(modules)s
    import boards
    from boards import hardware
    tag = "resume" if restart else "boot"
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
    for app in boot(False):
        yield
    loaded = []
    for name in sys.modules:
        module = sys.modules[name]
        path = getattr(module, "__file__", "") if type(module) is type(sys) else ""
        if path[7:].rsplit(".", 1)[0] in DEPLOYED:  # "/input/...py" or ".mpy"
            loaded.append(path[7:].rsplit(".", 1)[0] + ".py")
    host.call("loaded", " ".join(loaded))
    yield from settle(app, "boot")
    live("settled")  # between keys: card entry loaded, the answers made ahead held
    for i in range(len(KEYS)):
        keypad.press(KEYS[i])
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
        if i == RESTART_AT:
            app = None
            yield
            for app in boot(True):
                yield
            yield from settle(app, "restart")
    if app is not None:
        game = app.game
        print("SCORES", list(game.scores), "TALLY", list(game.tally))
        print("OLED", "|".join(app.oled_lines()))
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
    yield
"""


class _Live:
    """The meter, and the guest's "live" (heap in use) and "loaded" (parsed files) reports."""

    def __init__(self, meter):
        self.meter = meter
        self.figures = {}
        self.loaded = []

    def __call__(self, name, text, fuel):
        if name == "live":
            label, value = text.split()
            self.figures[label] = int(value)
        elif name == "loaded":
            self.loaded = text.split()
        else:
            self.meter(name, text, fuel)


_HEAPSIZE = []


def heapsize_kb():
    """The -X heapsize that leaves PICO_HEAP_KB + HEADROOM_KB free after the stand-ins."""
    if not _HEAPSIZE:
        size, want = 640, (PICO_HEAP_KB + HEADROOM_KB) * 1024
        for _ in range(3):
            free = _run_micropython("", host=lambda *call: None, heapsize_kb=size).heap_free
            if abs(free - want) < 512:
                break
            size = size - (free - want) // 1024
        _HEAPSIZE.append(size)
    return _HEAPSIZE[0]


def _run_micropython(code, more=None, **options):
    extra = {"metercal.py": devmeter.calibration_code()}
    extra.update(more or {})
    return run_micropython(code, files=("engine", "lib", "boards", "code.py"), fuel=FUEL,
                           extra=extra, preload=PRELOAD, **options)


def _run(keys=(), restart_at=-1, sources=(), booting=True, saved=None, prepare=None,
         modules=False):
    meter = devmeter.Meter()
    host = _Live(meter)
    code = _GUEST % {
        "keys": list(keys), "restart_at": restart_at, "frame_ms": devgame.FRAME_MS,
        "idle_ms": devgame.IDLE_MS, "prepare_passes": devgame.PREPARE_PASSES,
        "collected": devmodel.COLLECTED,
        "boot": boot_imports(), "sources": list(sources),
        "booting": booting, "deployed": [path[:-3] for path in deployed_sources()],
        "modules": '        live("imports")' if modules else ""}  # its own run: it moves the heap
    extra = {"nvm.hex": binascii.hexlify(saved).decode()} if saved else {}
    result = _run_micropython(code, host=host, heapsize_kb=heapsize_kb(), prepare=prepare,
                              more=extra)
    if not result.ok:
        raise RuntimeError("the firmware failed under MicroPython:\n%s" % result.error)
    host.figures.update(devmodel.qstr_tables(result.stdout))
    return Run(meter.steps(), host.figures, host.loaded, meter, result.stdout)


def run_keys(keys, restart_at, mpy_cross=None):
    """Boot on an erased flash, press ``keys``; restart after key ``restart_at``. With
    ``mpy_cross`` the modules are .mpy files, as tools/deploy.py puts them on the board
    (a module first imported by a key, such as the menu's, is loaded, not parsed)."""
    return _run(keys, restart_at, prepare=_compiler(mpy_cross) if mpy_cross else None)


def run_parse():
    """Parse each deployed .py file alone, on a fresh heap (no boot)."""
    return _run(sources=deployed_sources(), booting=False)


def run_boot(saved, mpy_cross=None, modules=False):
    """Boot on a flash holding ``saved``, from .mpy files made by ``mpy_cross`` if given (a
    long load is tools/devload.py's); ``modules``: live["imports"], the modules' heap."""
    prepare = _compiler(mpy_cross) if mpy_cross else None
    return _run(saved=saved, prepare=prepare, modules=modules)


def _compiler(mpy_cross):
    """A prepare() for a run: every deployed module compiled to .mpy, its .py gone."""
    def compile_all(folder):
        for base, _dirs, files in os.walk(folder):
            for name in files:
                source = os.path.join(base, name)
                path = os.path.relpath(source, folder).replace(os.sep, "/")
                if name.endswith(".py") and _deployed_py(path):
                    out = [mpy_cross, *MPY_CROSS_FLAGS, "-o", source[:-3] + ".mpy", "-s", path]
                    subprocess.run(out + [source], check=True, capture_output=True, timeout=60)
                    os.remove(source)
    return compile_all


def _deployed_py(path):
    return path in PARSED_DRIVERS or (path.startswith(PARSED_FOLDERS) and not path.endswith(
        "/__main__.py") and not path.startswith("boards/sim/"))


def deployed_sources():
    """The .py files tools/deploy.py puts on the board that CircuitPython parses, code.py first."""
    found = ["code.py"]
    for folder in PARSED_FOLDERS:
        for base, _dirs, files in os.walk(os.path.join(ROOT, folder)):
            for name in sorted(files):
                path = os.path.relpath(os.path.join(base, name), ROOT).replace(os.sep, "/")
                if name.endswith(".py") and _deployed_py(path):
                    found.append(path)
    return found + list(PARSED_DRIVERS)
