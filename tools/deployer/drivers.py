"""deployer.drivers: the Adafruit driver libraries for /lib, found by reading imports.

They come from the installed PyPI packages (requirements.txt), with whatever they
import that CircuitPython lacks.
"""

from __future__ import annotations

import ast
import glob
import importlib.machinery
import os
import site
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .report import DeployError
from .sources import TARGET_LIB_DIR, Item, walk_py

# The driver libraries the firmware imports, taken from the installed PyPI packages
# (requirements.txt) and copied to /lib on the board, with whatever they import that
# CircuitPython lacks (found by reading their imports). circup.txt names the same.
# (The strips need no driver: the board writes their frames with the built-in
# neopixel_write.)
DRIVER_LIBRARIES: tuple[str, ...] = (
    "adafruit_ssd1306",
    "adafruit_framebuf",
)

# Adafruit libraries that CircuitPython builds in as C modules on the RP2040 and
# RP2350 boards (full builds: CIRCUITPY_PIXELBUF, CIRCUITPY_BUSDEVICE). Since
# CircuitPython 9, import finds a built-in module before any file in /lib, so a
# copy there would never load: they are not copied.
NATIVE_LIBRARIES = frozenset({"adafruit_pixelbuf", "adafruit_bus_device"})

# Where `make sim` and `make test` install the pinned packages.
VIRTUALENVS = (".venv", ".venv-test")

# Modules built into CircuitPython on the RP2040/RP2350 boards: never copied.
CIRCUITPYTHON_BUILTINS = NATIVE_LIBRARIES | frozenset(
    {
        "__future__", "array", "binascii", "board", "builtins", "busio", "collections",
        "digitalio", "errno", "gc", "io", "json", "keypad", "math", "microcontroller",
        "micropython", "neopixel_write", "nvm", "os", "random", "re", "rp2pio",
        "storage", "struct", "supervisor", "sys", "time", "usb_cdc", "watchdog",
    }
)


def driver_search_path(source: Path) -> list[str]:
    """The project's virtualenvs' site-packages (`make sim`'s .venv, `make test`'s
    .venv-test, when there are), then the running Python's: where the pinned driver
    packages are installed."""
    paths: list[str] = []
    for venv in VIRTUALENVS:
        paths += sorted(glob.glob(str(source / venv / "lib" / "python3*" / "site-packages")))
        paths += glob.glob(str(source / venv / "Lib" / "site-packages"))
    schemes = sysconfig.get_paths()
    paths += [schemes["purelib"], schemes["platlib"]]
    try:
        paths += site.getsitepackages()
    except AttributeError:  # some embedded Pythons lack it
        pass
    paths.append(site.getusersitepackages())
    unique: list[str] = []
    for path in paths:
        if os.path.isdir(path) and os.path.realpath(path) not in {os.path.realpath(p) for p in unique}:
            unique.append(path)
    return unique


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(tree: ast.AST) -> set[str]:
    """Top-level names of the absolute imports a module makes at run time on the
    board. Imports in the body of a try block are optional (the except branch is
    the fallback) and `if TYPE_CHECKING:` ones are typing-only: both are skipped."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        elif isinstance(node, (ast.Try, ast.TryStar)):
            for child in [*node.handlers, *node.orelse, *node.finalbody]:
                visit(child)
            return
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return names


@dataclass
class Driver:
    name: str
    path: Path  # the module file, or the package folder
    files: list[Path] = field(default_factory=list)
    needed_by: str = ""

    @property
    def is_package(self) -> bool:
        return self.path.is_dir()


def _find_driver(name: str, needed_by: str, search_path: list[str]) -> Driver:
    spec = importlib.machinery.PathFinder.find_spec(name, search_path)
    why = f" (imported by {needed_by})" if needed_by else ""
    if spec is None:
        where = ", ".join(search_path) or "(no site-packages found)"
        raise DeployError(
            f"driver library '{name}'{why} is not installed in {where}; "
            "run `make sim` to build .venv, or use .venv/bin/python"
        )
    if spec.submodule_search_locations:
        folder = Path(list(spec.submodule_search_locations)[0])
        driver = Driver(name, folder, walk_py(folder), needed_by)
    elif spec.origin and spec.origin.endswith(".py"):
        driver = Driver(name, Path(spec.origin), [Path(spec.origin)], needed_by)
    else:
        raise DeployError(
            f"driver library '{name}'{why} is not a pure-Python module ({spec.origin}); "
            "it cannot run on CircuitPython"
        )
    if not driver.files:
        raise DeployError(f"driver package '{name}' at {driver.path} has no .py files")
    return driver


def discover_drivers(
    roots: Iterable[str],
    search_path: list[str],
    builtins: frozenset[str] = CIRCUITPYTHON_BUILTINS,
    native: set[str] | None = None,
) -> list[Driver]:
    """The driver modules to deploy: `roots` and, recursively, whatever they import
    that CircuitPython does not have built in, found on `search_path`. The
    NATIVE_LIBRARIES they import are added to `native`, when given."""
    found: dict[str, Driver] = {}
    queue: list[tuple[str, str]] = [(name, "") for name in roots]
    while queue:
        name, needed_by = queue.pop(0)
        if name in builtins and name in NATIVE_LIBRARIES and native is not None:
            native.add(name)
        if name in found or name in builtins:
            continue
        driver = _find_driver(name, needed_by, search_path)
        found[name] = driver
        for file in driver.files:
            try:
                tree = ast.parse(file.read_bytes(), filename=str(file))
            except (SyntaxError, ValueError) as e:
                raise DeployError(f"cannot parse driver file {file}: {e}") from None
            for imported in sorted(runtime_imports(tree)):
                if imported != name:
                    queue.append((imported, name))
    return sorted(found.values(), key=lambda d: d.name)


def driver_items(drivers: list[Driver]) -> list[Item]:
    items = []
    for driver in drivers:
        if driver.is_package:
            for file in driver.files:
                rel = file.relative_to(driver.path).as_posix()
                items.append(Item(f"{TARGET_LIB_DIR}/{driver.name}/{rel}", file, kind="driver"))
        else:
            items.append(Item(f"{TARGET_LIB_DIR}/{driver.path.name}", driver.path, kind="driver"))
    return items
