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

from tools import devgame, devguest, devmeter, devmodel
from tools.mprun import BUILTINS, run_micropython
from tools.deployer.mpy import MPY_CROSS_FLAGS, source_name  # compiled as the deploy compiles

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FUEL = 400_000_000_000
PICO_HEAP_KB = 163  # free on a Pico at the REPL
# The heap is about the Pico's: what is free once the stand-ins are loaded is
# what a Pico has, so the allocator walks a heap of the board's size, plus some
# room, since here garbage is collected only between steps (an idle pass
# allocates up to 23 KB). The collections a Pico would make are counted apart.
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


def _run(keys=(), first_key=0, resuming=False, sources=(), booting=True, saved=None,
         prepare=None, modules=False):
    meter = devmeter.Meter()
    host = _Live(meter)
    code = devguest.GUEST % {
        "keys": list(keys), "first_key": first_key, "resuming": resuming,
        "frame_ms": devgame.FRAME_MS,
        "idle_ms": devgame.IDLE_MS, "prepare_passes": devgame.PREPARE_PASSES,
        "collected": devmodel.COLLECTED,
        "boot": boot_imports(), "sources": list(sources),
        "booting": booting, "deployed": [path[:-3] for path in deployed_sources()],
        "modules": '    live("imports")' if modules else ""}  # its own run: it moves the heap
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
    (a module first imported by a key, such as the menu's, is loaded, not parsed). The
    restart is a second run, on the flash the first left: a board restarts on an empty
    heap (the same interpreter would build the new app among the old one's holes)."""
    prepare = _compiler(mpy_cross) if mpy_cross else None
    if not 0 <= restart_at < len(keys):
        return _run(keys, prepare=prepare)
    first = _run(keys[:restart_at + 1], prepare=prepare)
    flash = binascii.unhexlify(_printed(first.stdout, "NVM "))
    then = _run(keys[restart_at + 1:], restart_at + 1, True, saved=flash, prepare=prepare)
    live = dict(first.live)  # the heap after the restart's boot, from the same start
    live["resume"] = then.live["resume"] - then.live["start"] + first.live["start"]
    stdout = first.stdout[:first.stdout.index("SCORES ")] + then.stdout
    return Run(first.steps + then.steps, live, first.loaded, first.meter, stdout)


def _printed(stdout, start):
    return [line for line in stdout.splitlines() if line.startswith(start)][-1][len(start):]


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
                    out = [mpy_cross, *MPY_CROSS_FLAGS, "-o", source[:-3] + ".mpy",
                           "-s", source_name(path)]
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
