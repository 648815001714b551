"""A key's handler changes nothing: it returns a Turn, and only the commit applies it.

Every Mode's handler, wrapped to look before and after, meets whole games keyed
on the sim board (cards, typed points, muggins, undo, the menu, the advice,
the next game, a new game); after each call the game (its save, state,
journal, checkpoints and moves), the controller's fields and the lights are
exactly as before it. And no module on the board changes a Turn once made."""

import ast
import inspect
import os

import pytest

from engine import state
from cribbage import advise, controller, entry, menu, scoreboard
from cribbage.turn import Mode, Turn

from firmware import Table

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (keys, then the scores, the mode and the message they end on): the README's
# hand, points to the end and the next game; the menu's pages and the advice,
# undo, a skip and a misdeal, a new game over one under way; a muggins claim.
SCRIPTS = [
    (["#", "CD", "6A", "9A", "9D", "7D", "CB", "BB", "4C", "#", "8B", "#", "#", "#",
      "5B", "5C", "AD", "0C", "29A", "29A", "29A", "11A", "*#", "12A", "#", "*", "##"],
     [0, 0], "home", "new game: B deals"),
    (["D2", "2", "D3", "12", "2", "*", "*", "D7", "A", "5B5C", "AA6C4D", "CB", "#", "D",
      "*******", "7B", "D4#", "D5", "D6", "5A", "*#", "D1", "11", "#", "*", "D1", "4#", "#"],
     [0, 0], "home", "new game: A deals"),
    (["D1", "4", "#", "#", "5B", "#", "8#", "5A5C5D", "AA", "#"],
     [20, 8], "cards", "B+8 hand, A+20 muggins"),
]
IDS = ["readme hand", "the menu", "muggins"]


def snapshot(t):
    ctrl = t.app.ctrl
    game = ctrl.game
    return (game, state.to_bytes(game), state.encode(game), list(game.journal),
            dict(game._checkpoints), game.moves, ctrl.mode, ctrl.here, ctrl.message,
            list(ctrl.detail), ctrl.settings.to_bytes(), ctrl.face)


def every_mode():
    modes = {}
    for module in (scoreboard, entry, menu, advise):
        modes.update(module.MODES)
    return modes


@pytest.mark.parametrize("keys, scores, mode, message", SCRIPTS, ids=IDS)
def test_no_handler_changes_the_board(monkeypatch, keys, scores, mode, message):
    plain = Table()
    for group in keys:
        plain.keys(group)
    made = set()  # the Turns the watched handlers made (pressed or prepared)
    for name, each in every_mode().items():
        def watched(ctx, here, key, real=each.key, name=name):
            before = snapshot(table)
            turn = real(ctx, here, key)
            assert snapshot(table) == before, (name, key)
            assert isinstance(turn, Turn)
            made.add(id(turn))
            return turn
        monkeypatch.setattr(each, "key", watched)
    pressed = []
    real_press = controller.Controller.press

    def press(ctrl, key):
        turn = real_press(ctrl, key)
        pressed.append(id(turn) in made)
        return turn
    monkeypatch.setattr(controller.Controller, "press", press)
    table = Table()
    for group in keys:
        table.keys(group)
    # Every key's Turn was a watched handler's (made when pressed, or before it).
    assert pressed == [True] * len("".join(keys))
    assert (table.scores, table.app.ctrl.mode, table.message) == (scores, mode, message)
    assert table.oled() == plain.oled() and table.app.errors == plain.app.errors == 0
    assert state.to_bytes(table.game) == state.to_bytes(plain.game)


def _board_modules():
    for root in ("lib/cribbage", "engine"):
        for name in sorted(os.listdir(os.path.join(REPO, root))):
            if name.endswith(".py"):
                rel = os.path.join(root, name)
                with open(os.path.join(REPO, rel)) as f:
                    yield rel, ast.parse(f.read())


TURN_FIELDS = set(inspect.signature(Turn).parameters)


def changed_turns(tree):
    """Lines that set a field of a Turn outside its __init__ (``x.saves = ...``)."""
    lines = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            for t in ast.walk(target):
                if (isinstance(t, ast.Attribute) and t.attr in TURN_FIELDS
                        and isinstance(t.value, ast.Name) and t.value.id in ("turn", "t")):
                    lines.append(t.lineno)
    return lines


def test_no_module_changes_a_turn_once_made():
    bad = {rel: lines for rel, tree in _board_modules() if (lines := changed_turns(tree))}
    assert bad == {}


def test_a_changed_turn_is_seen():
    code = "def f(turn):\n    turn.saves = (1,)\n    turn.echo, x = 'a', 2\n    self.here = 3\n"
    assert changed_turns(ast.parse(code)) == [2, 3]


def test_the_view_imports_no_handler_and_no_controller():
    with open(os.path.join(REPO, "lib/cribbage/view.py")) as f:
        tree = ast.parse(f.read())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module)
            imported.update("%s.%s" % (node.module, a.name) for a in node.names)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    handlers = {"cribbage.%s" % m for m in ("controller", "scoreboard", "entry", "menu",
                                             "advise", "turn", "app")}
    assert not imported & handlers, imported & handlers


def test_every_mode_is_a_record_with_a_handler_and_one_way_to_show_it():
    for name, mode in every_mode().items():
        assert isinstance(mode, Mode) and callable(mode.key), name
        assert (mode.prompt is None) != (mode.page is None), name
        assert controller._mode(name) is mode
