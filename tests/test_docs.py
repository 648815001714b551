"""docs/engine.md and docs/rules.md name what is really there: every file they give
exists, every function or name they give is defined in the file they give it with,
the map lists every file of engine/ in an order its imports follow, and every rule in
docs/rules.md names its file and function."""

import ast
import builtins
import os
import re

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE = os.path.join(REPO, "engine")
DOCS = ("docs/engine.md", "docs/rules.md")

TICKED = re.compile(r"`([^`]+)`")
PATH = re.compile(r"^[\w./-]+/[\w.-]+\.(?:py|md|txt|ini|toml)$")
NAME = re.compile(r"^[A-Za-z_][\w.]*(?:\(\))?$")


def read(doc):
    with open(os.path.join(REPO, doc), encoding="utf-8") as f:
        return f.read()


class Module:
    """What one engine file defines: its functions, its other names, its engine imports."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        self.functions, self.names, self.imports = set(), set(), set()
        for node in tree.body:
            self._add(node, "")
            if isinstance(node, ast.ClassDef):
                for member in node.body:
                    self._add(member, node.name + ".")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine"):
                if node.module == "engine":  # from engine import state
                    self.imports.update("engine." + alias.name for alias in node.names)
                else:
                    self.imports.add(node.module)

    def _add(self, node, prefix):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            (self.functions if isinstance(node, ast.FunctionDef) else self.names).add(
                prefix + node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        self.names.add(prefix + name.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            self.names.add(prefix + node.target.id)

    def defines(self, name):
        """`f()` must be a function (or method); `NAME` or `Class.member` anything."""
        if name.endswith("()"):
            return name[:-2] in self.functions
        return name in self.names or name in self.functions


MODULES = {"engine/" + f: Module(os.path.join(ENGINE, f))
           for f in sorted(os.listdir(ENGINE)) if f.endswith(".py")}


def references(text):
    """[(file, name)]: each name given after `engine/x.py`, up to the next file."""
    out = []
    current = None
    for token in TICKED.findall(text):
        if token in MODULES:
            current = token
        elif PATH.match(token):
            current = None
        elif current and NAME.match(token):
            out.append((current, token))
    return out


def brackets(text):
    """The [...] notes of docs/rules.md that name an engine file."""
    return [b for b in re.findall(r"\[([^\[\]]+)\]", text) if "`engine/" in b]


def table_rows(text):
    return [line for line in text.splitlines() if line.startswith("| ")]


def engine_table(text):
    """The map's files, in its order: the first table's rows that start with a file."""
    files = []
    for line in table_rows(text):
        first = line.split("|")[1].strip()
        if first.startswith("`engine/"):
            files.append(first.strip("`"))
    return files


@pytest.mark.parametrize("doc", DOCS)
def test_every_file_named_exists(doc):
    named = [t.split()[0] for t in TICKED.findall(read(doc)) if PATH.match(t.split()[0])]
    assert named
    for path in named:
        assert os.path.exists(os.path.join(REPO, path)), (doc, path)


def test_every_name_the_rules_give_is_in_the_file_given():
    notes = brackets(read("docs/rules.md"))
    found = [ref for note in notes for ref in references(note)]
    assert len(found) > 60
    for path, name in found:
        assert MODULES[path].defines(name), (path, name)


def test_every_name_the_map_gives_is_in_the_file_given():
    text = read("docs/engine.md")
    found = []
    for line in table_rows(text):
        cells = line.split("|")
        first, last = cells[1].strip(), cells[-2]
        # A file's row gives its names in the last cell; the other rows, after each file.
        found += references(first + " " + last) if first.startswith("`engine/") else \
            references(last)
    assert len(found) > 100
    for path, name in found:
        assert MODULES[path].defines(name), (path, name)


def _defined_anywhere(name):
    bare = name[:-2] if name.endswith("()") else name
    head, _, rest = bare.partition(".")
    if "engine/%s.py" % head in MODULES and rest:  # state.LAY, show.score_show()
        return MODULES["engine/%s.py" % head].defines(name[len(head) + 1:])
    if hasattr(builtins, bare):
        return True
    return any(module.defines(name) for module in MODULES.values())


def test_every_name_in_the_maps_text_is_defined_in_engine():
    text = read("docs/engine.md")
    prose = "\n".join(line for line in text.splitlines() if not line.startswith("|"))
    names = [t for t in TICKED.findall(prose) if NAME.match(t) and not PATH.match(t)]
    assert "Hand._act_lay()" in names and "state.check_event()" in names
    for name in names:
        assert _defined_anywhere(name), name


def test_the_map_lists_every_engine_file_in_an_order_the_imports_follow():
    files = engine_table(read("docs/engine.md"))
    assert sorted(files) == sorted(MODULES)
    for i, path in enumerate(files):
        above = {"engine." + f[len("engine/"):-3] for f in files[:i]}
        assert MODULES[path].imports <= above, (path, MODULES[path].imports - above)


def _rules(text):
    """(heading or rule's first words, its text) for every section of docs/rules.md
    after the title, every numbered rule and every bullet whose name is in bold."""
    out = []
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    for section in sections:
        out.append((section.splitlines()[0], section))
        items = re.split(r"\n(?=\d+\. \*\*|- \*\*)|\n\n", section)
        for item in items:
            if re.match(r"(\d+\. |- )\*\*", item):
                out.append((item[:40], item))
    return out


def test_every_rule_names_its_file_and_function():
    rules = _rules(read("docs/rules.md"))
    assert len([r for r in rules if re.match(r"\d+\. ", r[0])]) == 6
    assert len(rules) > 25
    for title, text in rules:
        named = [ref for note in brackets(text) for ref in references(note)]
        assert named, title


def test_the_checks_catch_a_wrong_name():
    assert not MODULES["engine/hand.py"].defines("Hand.no_such_rule()")
    assert not MODULES["engine/hand.py"].defines("HEELS()")  # a constant, not a function
    assert MODULES["engine/hand.py"].defines("Hand._act_show()")
    assert references("[`engine/play.py`: `Play.lay()`; `engine/match.py`: `GAME_HOLE`]") == [
        ("engine/play.py", "Play.lay()"), ("engine/match.py", "GAME_HOLE")]
    assert not _defined_anywhere("Game.no_such_action()")
