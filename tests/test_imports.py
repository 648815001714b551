"""The shape of the code, read statically (ast): who imports whom, and how long a module is.

The board's code is what the deploy tool puts on the board (deployer.sources:
code.py, engine/, lib/cribbage/, boards/ without boards/sim/ and __main__.py);
everything else runs on the laptop. An import names the module it loads:
``from engine import state`` is an edge to engine.state, ``from engine import
Game`` one to the package engine (its __init__.py).
"""

import ast
import os
import sys
import tomllib
import warnings
from pathlib import Path

from tools.deployer.sources import collect_firmware

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Where our modules live, and the name each is imported by (lib/ is on sys.path).
PACKAGES = (("engine", "engine"), ("lib/cribbage", "cribbage"), ("boards", "boards"))

# Imports inside a function: only these, each for its reason (typing's excepted).
# (file, function): (the modules it imports, exactly; why late)
ALLOWED_LATE = {
    ("lib/cribbage/controller.py", "_mode"): (
        {"cribbage.entry", "cribbage.menu", "cribbage.advise", "cribbage.stats_page"},
        "the mode table loads card entry, the menu's pages, the advice and the stats when"
        " first opened (card entry ahead, in an idle pass), not before the first frame"),
    ("lib/cribbage/store.py", "earlier"): (
        {"cribbage.earlier"},
        "the game before a new one is read back only when its undo is asked for, not at boot"),
    ("boards/__init__.py", "config_for"): (
        {"boards.raspberry_pi_pico", "boards.raspberry_pi_pico_w", "boards.raspberry_pi_pico2",
         "boards.raspberry_pi_pico2_w"},
        "only the config of the board it starts on is loaded"),
    ("boards/hardware.py", "build"): (
        {"adafruit_bus_device", "board", "busio", "keypad", "microcontroller", "neopixel",
         "supervisor", "watchdog"},
        "CircuitPython's modules and Adafruit's neopixel, not ours: the simulator builds the"
        " same board on Blinka"),
}

# Lines a module may have: aim under ~300 on the board (each .py is compiled in
# the Pico's RAM at import), ~400 on the laptop.
BOARD_LINES = 300
LAPTOP_LINES = 400
# On the board, a little over, each for its reason (its cap here, not a looser rule).
BOARD_OVER = {
    "engine/game.py": (320, "the journal, undo and saves around Hand: one class"),
    "engine/hand.py": (330, "Hand: the checks and changes of every event, one class"),
}
# The modules ruff.toml leaves out as pending (being rewritten elsewhere): measured,
# warned about, not failed (yet).
with open(os.path.join(REPO, "ruff.toml"), "rb") as _f:
    PENDING = {rel for rel in tomllib.load(_f)["extend-exclude"] if rel.endswith(".py")}


def _py_files(folder):
    found = []
    for root, dirs, files in os.walk(os.path.join(REPO, folder)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith(".")
                         and d != "node_modules")
        found += [os.path.relpath(os.path.join(root, f), REPO).replace(os.sep, "/")
                  for f in sorted(files) if f.endswith(".py")]
    return found


def _module_name(rel):
    """engine/game.py -> engine.game, lib/cribbage/__init__.py -> cribbage."""
    for folder, package in PACKAGES:
        if rel.startswith(folder + "/"):
            parts = [package] + rel[len(folder) + 1:-3].split("/")
            return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    return rel[:-3].replace("/", ".")


MODULES = {}  # module name -> file, for engine/, lib/cribbage/, boards/ and code.py
for _folder, _package in PACKAGES:
    for _rel in _py_files(_folder):
        MODULES[_module_name(_rel)] = _rel
MODULES["code"] = "code.py"
BOARD_FILES = {os.path.relpath(str(item.src), REPO).replace(os.sep, "/")
               for item in collect_firmware(Path(REPO)) if item.rel.endswith(".py")}
# The tests' modules import by bare name (tests/ is on sys.path under pytest): the
# test files, conftest, and the support they share (store_faults.py, *_helpers.py...).
TEST_NAMES = {os.path.basename(rel)[:-3] for rel in _py_files("tests")} | {"tests"}
TEST_FILES = {name for name in TEST_NAMES if name.startswith("test_")} | {"conftest"}
# The tools import as tools.*; tools/ is first on sys.path too when one runs as
# python tools/x.py, so its own names (deployer, simulator...) count as ours.
TOOL_NAMES = ({name[:-3] for name in os.listdir(os.path.join(REPO, "tools"))
               if name.endswith(".py")} | {"tools", "deployer", "simulator"})


class Import:
    def __init__(self, rel, line, module, function, guarded):
        self.rel, self.line, self.module = rel, line, module
        self.function = function  # the enclosing function's name, or None
        self.guarded = guarded    # inside a try that catches ImportError

    def __repr__(self):
        where = " in %s()" % self.function if self.function else ""
        return "%s:%d%s imports %s" % (self.rel, self.line, where, self.module)


def _catches_import_error(node):
    for handler in node.handlers:
        names = [handler.type] if not isinstance(handler.type, ast.Tuple) else handler.type.elts
        if handler.type is None or any(isinstance(n, ast.Name) and n.id in
                                       ("ImportError", "Exception") for n in names):
            return True
    return False


def imports_of(rel):
    """Every import in the file ``rel``, each resolved to the module it loads."""
    with open(os.path.join(REPO, rel), encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=rel)
    name = _module_name(rel)
    package = name if rel.endswith("__init__.py") else name.rpartition(".")[0]
    found = []

    def visit(node, function, guarded):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = function or node.name  # the outermost function's name
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(rel, node.lineno, alias.name, function, guarded))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package up level - 1
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - (node.level - 1)]
                                + ([node.module] if node.module else []))
            for alias in node.names:
                full = base + "." + alias.name
                target = full if full in MODULES or _is_tool_or_test(full) else base
                found.append(Import(rel, node.lineno, target, function, guarded))
        elif isinstance(node, ast.Try):
            for part in node.body:
                visit(part, function, guarded or _catches_import_error(node))
            for part in node.handlers + node.orelse + node.finalbody:
                visit(part, function, guarded)
        else:
            for child in ast.iter_child_nodes(node):
                visit(child, function, guarded)

    visit(tree, None, False)
    return found


def _top(module):
    return module.split(".")[0]


def _is_tool_or_test(module):
    return _top(module) in TEST_NAMES or _top(module) in TOOL_NAMES


def _is_test(module):
    return _top(module) in TEST_NAMES


def _ours(module):
    return module in MODULES or _is_tool_or_test(module) or _top(module) in ("engine", "cribbage",
                                                                             "boards")


def _all_imports(files):
    return [imp for rel in files for imp in imports_of(rel)]


OUR_FILES = sorted(MODULES.values())


# --- the tests ---------------------------------------------------------------------


def test_the_walk_sees_the_packages_and_what_goes_on_the_board():
    assert {"engine.game", "cribbage.app", "cribbage.controller", "boards", "boards.sim.board",
            "code"} <= set(MODULES)
    assert "code.py" in BOARD_FILES and "lib/cribbage/app.py" in BOARD_FILES
    assert "boards/sim/board.py" not in BOARD_FILES and "engine/__main__.py" not in BOARD_FILES
    late = [imp for imp in imports_of("lib/cribbage/controller.py") if imp.function]
    assert {imp.module for imp in late} == {"cribbage.entry", "cribbage.menu", "cribbage.advise",
                                            "cribbage.stats_page"}


def cycles(edges):
    """The strongly connected groups of more than one module (or a module importing
    itself) of ``edges`` {module: set of modules}, each sorted (Tarjan's walk)."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in edges.get(v, ()):
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return groups


def test_cycles_are_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_our_modules():
    """Late imports count too: one inside a function must not dodge a cycle."""
    edges = {}
    for imp in _all_imports(OUR_FILES):
        source = _module_name(imp.rel) if imp.rel != "code.py" else "code"
        if imp.module in MODULES:
            edges.setdefault(source, set()).add(imp.module)
    assert cycles(edges) == []


def test_imports_inside_functions_are_only_the_listed_late_loads():
    late = {}
    for imp in _all_imports(OUR_FILES):
        if imp.function and _top(imp.module) != "typing":
            late.setdefault((imp.rel, imp.function), set()).add(imp.module)
    unexpected = {where: found for where, found in late.items()
                  if where not in ALLOWED_LATE or found != ALLOWED_LATE[where][0]}
    assert unexpected == {}, "late imports not in ALLOWED_LATE (or not as listed there)"
    assert set(late) == set(ALLOWED_LATE), "ALLOWED_LATE lists a late import the code no longer has"


def test_lib_never_imports_boards_or_tools():
    bad = [imp for imp in _all_imports(_py_files("lib"))
           if _top(imp.module) == "boards" or _is_tool_or_test(imp.module)]
    assert bad == []


def test_engine_imports_nothing_of_ours_outside_engine():
    bad = [imp for imp in _all_imports(_py_files("engine"))
           if _ours(imp.module) and _top(imp.module) != "engine"]
    assert bad == []


def test_the_board_imports_no_tests_tools_nor_the_simulator():
    bad = [imp for imp in _all_imports(sorted(BOARD_FILES))
           if _is_tool_or_test(imp.module) or imp.module.startswith("boards.sim")]
    assert bad == []


def _outside_tests():
    """Every .py of the repository but tests/: the board's code, boards/sim/, tools/, web/."""
    tops = sorted(os.listdir(REPO))
    return [name for name in tops if name.endswith(".py")] + [
        rel for name in tops if os.path.isdir(os.path.join(REPO, name))
        and not name.startswith(".") and name not in ("tests", "build") for rel in _py_files(name)]


def test_nothing_outside_tests_imports_tests_nor_their_support():
    """Test support (tests/store_faults.py, the helpers) is for the tests alone: no
    tool, no page and no board code imports it (tools never import tests)."""
    outside = _outside_tests()
    assert {"code.py", "tools/sim.py", "tools/mpstubs/board.py", "boards/sim/nvm.py",
            "web/webboard.py"} <= set(outside) and "tests/store_faults.py" not in outside
    assert "store_faults" in TEST_NAMES and "store_faults" not in TOOL_NAMES
    bad = [imp for imp in _all_imports(outside) if _is_test(imp.module)]
    assert bad == []


def test_the_tests_support_imports_no_test_file():
    """The support sits under the tests: a test file imports it, never the other way."""
    support = [rel for rel in _py_files("tests") if os.path.basename(rel)[:-3] not in TEST_FILES]
    assert {"tests/store_faults.py", "tests/store_helpers.py", "tests/sim_helpers.py"} <= {*support}
    found = _all_imports(support)
    assert any(imp.rel == "tests/store_helpers.py" and _top(imp.module) == "store_faults"
               for imp in found), "the walk sees one helper import another"
    assert [imp for imp in found if _top(imp.module) in TEST_FILES] == []


def test_typing_on_the_board_only_inside_try_except_import_error():
    """CircuitPython has no typing module: its import must be allowed to fail."""
    typing = [imp for imp in _all_imports(sorted(BOARD_FILES)) if _top(imp.module) == "typing"]
    assert typing, "the walk sees the typing imports"
    assert [imp for imp in typing if not imp.guarded] == []


def test_a_bad_import_is_seen(tmp_path, monkeypatch):
    """The walk reads what these tests rely on: a late import, a guard, relative names."""
    folder = tmp_path / "engine"
    folder.mkdir()
    (folder / "probe.py").write_text(
        "try:\n    from typing import Any\nexcept ImportError:\n    pass\n"
        "from typing import List\n"
        "from . import cards\nfrom .cards import RANK\nimport tools.mprun\n"
        "def f():\n    from cribbage import app\n")
    monkeypatch.setattr(sys.modules[__name__], "REPO", str(tmp_path))
    found = [(imp.module, imp.function, imp.guarded) for imp in imports_of("engine/probe.py")]
    assert found == [("typing", None, True), ("typing", None, False),
                     ("engine.cards", None, False), ("engine.cards", None, False),
                     ("tools.mprun", None, False), ("cribbage.app", "f", False)]


# --- the size of a module --------------------------------------------------------------


def _lines(rel):
    with open(os.path.join(REPO, rel), encoding="utf-8") as f:
        return len(f.read().splitlines())


LAPTOP_FILES = sorted(set(_py_files("engine") + _py_files("lib") + _py_files("boards")
                          + _py_files("tools") + _py_files("tests") + _py_files("web")
                          + ["code.py"]) - BOARD_FILES)


def _too_long():
    over = {}
    for rel in sorted(BOARD_FILES):
        if rel.endswith(".py"):
            cap = BOARD_OVER.get(rel, (BOARD_LINES, ""))[0]
            if _lines(rel) > cap:
                over[rel] = (_lines(rel), cap)
    for rel in LAPTOP_FILES:
        if _lines(rel) > LAPTOP_LINES:
            over[rel] = (_lines(rel), LAPTOP_LINES)
    return over


def test_no_module_is_too_long():
    over = _too_long()
    pending = {rel: n for rel, n in over.items() if rel in PENDING}
    if pending:
        warnings.warn("pending modules over their size: %s" % pending)
    assert {rel: n for rel, n in over.items() if rel not in PENDING} == {}


def test_the_allowances_are_still_needed_and_on_the_board():
    """A module back under 300 lines loses its allowance; only board files have one."""
    assert set(BOARD_OVER) <= BOARD_FILES
    assert {rel for rel in BOARD_OVER if _lines(rel) <= BOARD_LINES} == set()
    assert {rel for rel in PENDING if os.path.exists(os.path.join(REPO, rel))} <= set(
        BOARD_FILES) | set(LAPTOP_FILES)


# --- the tools ------------------------------------------------------------------------

# The one file that puts folders on sys.path; each command loads it first.
PATH_ENTRY = "tools/_entry.py"


def _tool_module(rel):
    """tools/deployer/cli.py -> tools.deployer.cli, tools/deployer/__init__.py -> tools.deployer."""
    parts = rel[:-3].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


TOOL_MODULES = {_tool_module(rel): rel for rel in _py_files("tools")}


def _uses_sys_path(rel):
    with open(os.path.join(REPO, rel), encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=rel)
    return sorted(node.lineno for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and node.attr == "path"
                  and isinstance(node.value, ast.Name) and node.value.id == "sys")


def test_only_the_entry_point_puts_folders_on_sys_path():
    """The code a tool runs on the laptop; a script it hands to MicroPython is a string."""
    found = {rel: lines for rel in _py_files("tools") if (lines := _uses_sys_path(rel))}
    assert set(found) == {PATH_ENTRY}


def test_no_import_cycle_among_the_tools():
    edges = {}
    for imp in _all_imports(_py_files("tools")):
        target = imp.module
        while target and target not in TOOL_MODULES:
            target = target.rpartition(".")[0]
        source = _tool_module(imp.rel)
        if target and target != source and target != "tools":
            edges.setdefault(source, set()).add(target)
    assert "tools.bench_board" in edges["tools.bench_device"]
    assert cycles(edges) == []
