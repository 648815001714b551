"""The record kinds, read statically (ast): one definition of each, for the turn and the store.

A turn's saves are the flash log's record kinds (cribbage.flashread defines them;
their values are the log's format), and the one save that is no record, EARLIER
(cribbage.turn). Every other module imports them: none defines a kind of its own,
compares a record's kind with a bare number, or saves one by number.
"""

import ast
import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(REPO, "lib", "cribbage")

KINDS = {"BASE": "flashread", "EVENT": "flashread", "UNDONE": "flashread",
         "NEXT_GAME": "flashread", "SETTINGS": "flashread", "UNREADABLE": "flashread",
         "EARLIER": "turn"}
# What a record's kind is held in where it is compared: a name, or a tag's low bits.
KIND_NAMES = ("kind", "payload")


def _trees():
    for name in sorted(os.listdir(LIB)):
        if name.endswith(".py"):
            with open(os.path.join(LIB, name), encoding="utf-8") as f:
                yield name[:-3], ast.parse(f.read(), filename=name)


def _assigned(tree):
    """{name: value node} of the module's own assignments (a, b = 1, 2 too)."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.value
                elif (isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                      and len(target.elts) == len(node.value.elts)):
                    for t, v in zip(target.elts, node.value.elts):
                        if isinstance(t, ast.Name):
                            found[t.id] = v
    return found


def _int(node):
    return isinstance(node, ast.Constant) and type(node.value) is int


def _holds_a_kind(node):
    if isinstance(node, ast.Name):
        return node.id in KIND_NAMES
    return (isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd)
            and _int(node.right) and node.right.value == 7)  # a tag's kind bits


def bare_kinds(tree):
    """Lines where a record's kind is compared with a number (0 aside: the bound
    of the kinds a record may have), or a number is yielded or saved as one."""
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left] + node.comparators
            if (any(_holds_a_kind(s) for s in sides)
                    and any(_int(s) and s.value != 0 for s in sides)):
                bad.append(node.lineno)
        elif isinstance(node, ast.Yield) and isinstance(node.value, ast.Tuple):
            if any(_int(v) for v in node.value.elts):
                bad.append(node.lineno)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple):
            saves = any(isinstance(t, ast.Attribute) and t.attr == "saves" for t in node.targets)
            if saves and not all(isinstance(v, ast.Name) and v.id in KINDS
                                 for v in node.value.elts):
                bad.append(node.lineno)
    return sorted(bad)


def test_each_record_kind_is_defined_in_one_module():
    where = {}
    for module, tree in _trees():
        for name, value in _assigned(tree).items():
            # (a name a module gives to a string, as words.UNDONE, is no kind)
            if name in KINDS and (_int(value) or isinstance(value, ast.Name)):
                where.setdefault(name, []).append((module, value))
    for name, module in KINDS.items():
        assert [m for m, _ in where[name]] == [module], name
        assert _int(where[name][0][1]), name + ": its value is written out where it is defined"


def test_the_kinds_differ_and_the_turn_and_the_store_save_the_logs_own():
    from cribbage import flashread, store, turn
    modules = {"flashread": flashread, "turn": turn}
    values = [getattr(modules[module], name) for name, module in KINDS.items()]
    assert len(set(values)) == len(values)
    for name in ("BASE", "EVENT", "UNDONE", "NEXT_GAME", "SETTINGS"):
        assert getattr(turn, name) is getattr(store, name) is getattr(flashread, name)
    assert not 0 <= turn.EARLIER < flashread.UNREADABLE  # never a kind a log could hold


def test_no_record_kind_is_a_bare_number():
    bad = {module: lines for module, tree in _trees() if (lines := bare_kinds(tree))}
    assert bad == {}


def test_a_bare_kind_is_seen():
    code = ("def f(kind, payload, t, turn):\n"
            "    if kind == 7 or payload == 7 or t & 7 == 7:\n"
            "        yield 7, 7\n"
            "    turn.saves = (4,)\n"
            "    ok = 0 <= kind < UNREADABLE and kind == BASE and len(t) == 7\n"
            "    turn.saves = (EVENT, BASE)\n")
    assert bare_kinds(ast.parse(code)) == [2, 2, 2, 3, 4]
