"""tools/devgame: the keys the device benchmark presses, and how deep each step's calls go.

``readme_keys()`` reads the keys of README.md's "A hand at the table".
``play(keys_of_hand, whole_game=True)`` runs the firmware on the simulated board
(CPython) exactly as tools/bench_device.py runs it under MicroPython: the
README hand, a restart on the same flash, then (``whole_game``) deals keyed
by a seeded player until the game is won, with a show claimed, a brightness
change from the menu and an undo on the way, and the next game started. Every
key is followed by animation frames every ``FRAME_MS`` while the pegs move,
then one idle pass of the loop, and more (up to PREPARE_PASSES and the pass
that collects) while the answers of the keys likely next are still being made
or the garbage is to collect; the boot and the restart are followed by those
passes too. It returns the steps in order, each with its
kind and the deepest chain of device-Python calls seen in it
(``sys.setprofile``), and the end state for the MicroPython run to match.

A frame's pystack bytes are estimated from CPython's code object with
MicroPython's layout: 20 bytes of header, 4 a word of locals and value stack,
12 a try or with block, rounded up to 8.
"""

import ast
import os
import random
import sys
from collections import namedtuple

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from boards.sim import board as sim
from cribbage import app as firmware
from boards import KEY_LEGEND as LEGEND
from cribbage.keys import SUIT_KEYS, rank_of_key
from cribbage.turn import CARDS, HOME, MUGGINS, UNDO
from engine.cards import rank_of, suit_of, value_of
from engine.game import OVER, PLAY, SHOW, STARTER
from engine.pegging import MAX_COUNT
from engine.show import score_show

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FRAME_MS = 20    # animation frames at 50 a second
IDLE_MS = 20     # then one pass of the loop with nothing to do
PREPARE_PASSES = 4  # and more while the likely next keys' answers are made (a player
                    # takes 150 ms or more between keys: the loop makes many passes)
SEED = 2024
MAX_KEYS = 2000  # a game that has not ended by then is a bug in the player
# Python on the board: ours only (bus_device is C there; boards/sim and Blinka
# do not exist there).
DEVICE_DRIVERS = ()

Step = namedtuple("Step", (
    "label",    # key:N, frame:N or idle:N (N: the key's index)
    "key",      # the key pressed (for frames and idle passes, the one before)
    "kind",     # scoreboard, card, menu, undo; frame, idle
    "moved",    # the key moved a peg
    "part",     # hand (the README's) or game
    "frames",   # deepest chain of device-Python frames, code.py and run() counted
    "pystack",  # its estimated pystack bytes
    "chain",    # its function names, outermost first
))
Result = namedtuple("Result", (
    "steps", "keys",
    "hand",    # the scores after the README hand
    "saved",   # the flash then: the game a restart resumes
    "won",     # the scores when the game was won (None without the whole game)
    "final",   # (scores, tally) at the end
    "oled",    # the OLED's lines at the end
))


def readme_keys(path=os.path.join(ROOT, "README.md")):
    """The keys of the table in README.md's "A hand at the table", in order."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = text.find("## A hand at the table")
    end = text.find("\n## ", start + 1)
    keys = []
    for line in text[start:end].splitlines():
        if line.startswith("| `"):
            cell = line.split("|")[1]
            keys.extend(part for part in cell.split("`")[1::2])
    if start < 0 or not keys:
        raise RuntimeError("README.md has no keys under '## A hand at the table'")
    return "".join(keys)


def card_keys(card):
    rank = [k for k in LEGEND if rank_of_key(k) == rank_of(card)][0]
    return rank + SUIT_KEYS[suit_of(card)]


# --- how deep the calls go -------------------------------------------------

def _is_device(filename):
    if filename.startswith(os.path.join(ROOT, "boards", "sim")):
        return False
    for folder in ("engine", "lib", "boards"):
        if filename.startswith(os.path.join(ROOT, folder) + os.sep):
            return True
    return filename == os.path.join(ROOT, "code.py") or os.path.basename(filename) in DEVICE_DRIVERS


_BLOCKS = {}


def _blocks(code):
    """The deepest nesting of try/with blocks in the function of ``code``."""
    key = (code.co_filename, code.co_firstlineno)
    if key not in _BLOCKS:
        with open(code.co_filename, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.Lambda)):
                decorators = getattr(node, "decorator_list", None)
                first = decorators[0].lineno if decorators else node.lineno
                _BLOCKS[(code.co_filename, first)] = _nesting(node)
                _BLOCKS[(code.co_filename, node.lineno)] = _nesting(node)
        _BLOCKS.setdefault(key, 0)
    return _BLOCKS[key]


def _nesting(node, depth=0):
    deepest = depth
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        inner = depth + 1 if isinstance(child, (ast.Try, ast.With)) else depth
        deepest = max(deepest, _nesting(child, inner))
    return deepest


def frame_bytes(code):
    words = code.co_nlocals + len(code.co_cellvars) + code.co_stacksize
    size = 20 + 4 * words + 12 * _blocks(code)
    return (size + 7) // 8 * 8


class _Depth:
    """sys.setprofile hook: the deepest chain of device-Python frames in a step."""

    def __init__(self, outer):
        self.outer = outer  # code objects below the step on the board: code.py, run()
        self._device = {}
        self.reset()

    def reset(self):
        self.stack = list(self.outer)
        self.frames, self.bytes, self.chain = 0, 0, []

    def __call__(self, frame, event, arg):
        if event != "call" and event != "return":
            return
        code = frame.f_code
        device = self._device.get(code)
        if device is None:
            device = self._device[code] = _is_device(code.co_filename)
        if not device:
            return
        if event == "return":
            self.stack.pop()
            return
        self.stack.append(code)
        if len(self.stack) > self.frames:
            self.frames = len(self.stack)
            self.bytes = sum(frame_bytes(c) for c in self.stack)
            self.chain = [c.co_name for c in self.stack]


def _outer_frames():
    """The frames under app.step() on the board: code.py's module (its loop calls step)."""
    with open(os.path.join(ROOT, "code.py"), encoding="utf-8") as f:
        module = compile(f.read(), os.path.join(ROOT, "code.py"), "exec")
    return [module]


# --- the run ---------------------------------------------------------------

class _Runner:
    def __init__(self):
        self.board = sim.build()
        self.app = firmware.App(self.board)
        self.depth = _Depth(_outer_frames())
        self.steps = []
        self.keys = []
        self._settle("boot", "hand")

    def _settle(self, at, part):
        """The loop's idle passes before the next key: one, then more while the
        answers of the keys likely next are still to be made or the garbage to
        collect (a player's keys come 150 ms or more apart, and the first long
        after the board starts)."""
        app = self.app
        for n in range(2 + PREPARE_PASSES):  # and the pass that collects
            if n and not (app.ctrl.unprepared() or app.to_collect):
                break
            self.board.clock.advance(IDLE_MS)
            self._step("idle:%s" % at, None, "idle", part, deep=True)

    def _step(self, label, key, kind, part, deep=False):
        """One pass of the loop; with ``deep``, how deep its calls go."""
        d = self.depth
        d.reset()
        if deep:
            sys.setprofile(d)
        try:
            self.app.step()
        finally:
            sys.setprofile(None)
        self.steps.append(Step(label, key, kind, False, part, d.frames, d.bytes, d.chain))

    def press(self, key, part):
        app, table = self.app, self.app.ctrl
        before = (table.mode, list(table.game.scores))
        index = len(self.keys)
        self.keys.append(key)
        self.board.press(key)
        self._step("key:%d" % index, key, None, part, deep=True)
        moved = list(table.game.scores) != before[1] or bool(table.scored)
        self.steps[-1] = self.steps[-1]._replace(kind=_kind(before[0], table.mode), moved=moved)
        while app.busy():
            self.board.clock.advance(FRAME_MS)
            self._step("frame:%d" % index, key, "frame", part)
        self._settle(index, part)
        if len(self.keys) > MAX_KEYS:
            raise RuntimeError("the scripted game did not end in %d keys" % MAX_KEYS)

    def restart(self):
        """Power off and on: the same flash, a new app (its boot is not a key)."""
        nvm = bytes(self.board.nvm[0:len(self.board.nvm)])
        self.board = sim.build(nvm=nvm)
        self.app = firmware.App(self.board)
        self._settle("restart", "game")
        return nvm


def _kind(before, after):
    """What the key was, from the mode it was pressed in and the mode it left."""
    if UNDO in (before, after):
        return "undo"
    if before in (CARDS, MUGGINS) or (before == HOME and after == CARDS):
        return "card"
    if before == HOME and after == HOME:
        return "scoreboard"
    return "menu"


def play(hand_keys, whole_game=True, seed=SEED):
    """Run the keys on the simulated board; a ``Result``."""
    run = _Runner()
    for key in hand_keys.replace(" ", ""):
        run.press(key, "hand")
    hand = list(run.app.game.scores)
    saved = run.restart()
    won = _rest_of_game(run, random.Random(seed)) if whole_game else None
    game = run.app.game
    return Result(run.steps, "".join(run.keys), hand, saved, won,
                  (list(game.scores), list(game.tally)), run.app.oled_lines())


def _rest_of_game(run, rng):
    deal = 0
    while run.app.game.phase != OVER:
        deal += 1
        _deal(run, rng, deal)
    won = list(run.app.game.scores)
    run.press("#", "game")  # the next game
    return won


def _deal(run, rng, deal):
    game = run.app.game
    cards = rng.sample(range(52), 13)
    dealer, pone = game.dealer, game.pone
    hands = {pone: cards[0:6], dealer: cards[6:12]}
    crib = hands[pone][:2] + hands[dealer][:2]
    kept = {seat: hands[seat][2:] for seat in hands}
    if deal == 2:
        for key in "D31#":  # the menu: lights, one step brighter, done
            run.press(key, "game")
    _keys(run, "#" + card_keys(cards[12]))
    laid = 0
    while run.app.game.phase == PLAY and not run.app.game.play.over:
        play = run.app.game.play
        seat = play.turn
        fits = [c for c in kept[seat] if play.count + value_of(c) <= MAX_COUNT]
        if not fits:
            _keys(run, "#")  # go
            continue
        card = fits[0]
        _keys(run, card_keys(card))
        kept[seat].remove(card)
        laid += 1
        if deal == 1 and laid == 2:  # undo the lay from the scoreboard, then lay it again
            _keys(run, "**#")
            kept[seat].append(card)
            _keys(run, "#")
    if run.app.game.phase == OVER:
        return
    _show(run, claim=(deal == 1))  # the pone's hand: the cards laid are known
    _show(run)
    if run.app.game.phase == OVER:
        return
    _keys(run, "#" + "".join(card_keys(c) for c in crib))
    if run.app.game.phase not in (STARTER, OVER):
        raise RuntimeError("after the crib the board is at phase %s" % run.app.game.phase)


def _show(run, claim=False):
    game = run.app.game
    if game.phase != SHOW:
        return
    if claim:
        seat, crib = game.showing()
        total = score_show(game.known_cards(), game.starter, crib).total
        _keys(run, "%d#" % total)
    else:
        _keys(run, "#")


def _keys(run, keys):
    for key in keys:
        run.press(key, "game")
