#!/usr/bin/env python3
"""Power cuts and flipped bits against the board's flash log, every outcome classified.

    python tools/store_faults.py          # the table in README's "Never losing the game"

Each fault runs cribbage.store on boards/sim/nvm.py's SimNVM, which behaves
like CircuitPython's nvm on the RP2040 (an erase cut short may leave old
pages: see interrupted_erases). After the fault the board boots from the
flash and what it finds is one of:

    same    the state saved before the interrupted save (or, for a flipped
            bit, the state as saved)
    after   the state the save was writing
    lost    something is missing, and a notice says so
    older   an older state, and a notice says it cannot prove it is the newest
    wrong   for a save cut short: a game neither before nor after it (lights
            nobody chose, a record misread), said or not
    silent  anything else: a loss or an older state without a notice

(A sector cut off between an erase's end and its first byte programmed reads
as a new board's; a board never used says "no saved game: new game" too, so
that loss is said, as "lost".)

and then it must go on: one more save, and a reboot finds it (else "stuck").
tests/test_store_cuts.py asserts these counts; "silent" and "stuck" are always 0.
Laptop only.
"""

import os
import random
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _path in (ROOT, os.path.join(ROOT, "lib")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from boards.sim.nvm import PowerCut, SimNVM, interrupted_erases  # noqa: E402  (after sys.path)
from cribbage.store import Store  # noqa: E402  (after sys.path)
from engine import state  # noqa: E402  (after sys.path)
from engine.game import PLAY, SHOW, STARTER, Game  # noqa: E402  (after sys.path)
from engine.rules import make_config  # noqa: E402  (after sys.path)
from engine.pegging import MAX_COUNT  # noqa: E402  (after sys.path)

LIGHTS = b"\x01\x04\x02"  # settings as the app writes them: opaque to the store
OLDER = "older save: check the scores"
OUTCOMES = ("same", "after", "lost", "older", "wrong", "silent", "stuck")


def saved(game, blob=None):
    """What must survive a reboot: the state, the undo history, the settings."""
    if game is None:
        return None, blob
    return (state.encode(game), tuple(game.journal)), blob


def boot(image):
    """(nvm, store, game) of a board booted from `image`."""
    nvm = SimNVM(image)
    store = Store(nvm)
    game, _ = store.load()
    return nvm, store, game


def reboot(nvm):
    """(what a fresh boot finds, its notices)."""
    store = Store(nvm)
    found = saved(*store.load())
    return found, list(store.notices)


def key_next(game, rng):
    """Key one plausible action for the phase the game is in, as a player would."""
    unseen = [c for c in range(52) if c not in game.seen]
    if game.phase == STARTER:
        game.turn_starter(rng.choice(unseen))
    elif game.phase == PLAY:
        fits = [c for c in unseen if game.play.count + min(c // 4 + 1, 10) <= MAX_COUNT]
        if not fits or game.play.count + 10 > MAX_COUNT and rng.random() < 0.5:
            game.go()
        else:
            game.lay(rng.choice(fits))
    else:
        known = game.known_cards()  # a hand holds the cards it laid, and 4 in all
        game.count_show(known + rng.sample([c for c in unseen if c not in known], 4 - len(known)))


def play(store, game, rng, actions):
    """`actions` recorded actions of real play (fewer if the game ends)."""
    for _ in range(actions):
        if game.over:
            break
        key_next(game, rng)
        store.record_event(game)
    return game


def fresh(actions=0, seed=1, settings=None, config=None):
    """(nvm, store, game): a new board, a new game and `actions` actions."""
    nvm = SimNVM()
    store = Store(nvm)
    store.load()
    if settings is not None:
        store.record_settings(settings)
    game = Game(config)
    store.record_new_game(game)
    play(store, game, random.Random(seed), actions)
    return nvm, store, game


def classify(found, notices, before, after=None):
    """The outcome of one fault: found and before/after as saved() gives them.
    A save cut short (``after`` given) may lose the game, said, but never
    leave a game neither before nor after it: that is "wrong", said or not."""
    if found == before:
        return "same"
    if found == after:
        return "after"
    if after is not None and found[0] is not None and OLDER not in notices:
        return "wrong"
    if not notices:
        return "silent"
    return "older" if OLDER in notices else "lost"


def goes_on(nvm, found):
    """One more save after the fault, and a reboot finds it."""
    store = Store(nvm)
    game, _ = store.load()
    if game is not None and not game.over:
        game.peg(0, 1)
        store.record_event(game)
    store.record_settings(b"\x07")
    again, _ = reboot(nvm)
    return again == (saved(game)[0], b"\x07")


class Recorder:
    """An nvm that keeps the writes it passes on: what a save does before a
    cut does not depend on the cut, so each cut replays them."""

    def __init__(self, nvm):
        self.nvm = nvm
        self.writes = []  # type: list

    def __len__(self):
        return len(self.nvm)

    def __getitem__(self, index):
        return self.nvm[index]

    def __setitem__(self, index, value):
        self.writes.append((index, value if isinstance(value, int) else bytes(value)))
        self.nvm[index] = value


def cuts(image, act, erases=False):
    """Cut the power after every byte `act(store, game)` programs, booted from
    `image` (and, if `erases`, in its erase under every interrupted_erases model):
    Counter of outcomes. Cuts that leave the same sector are classified once."""
    before, _ = reboot(SimNVM(image))
    recorder = Recorder(SimNVM(image))
    store = Store(recorder)
    game, _ = store.load()
    act(store, game)
    total = recorder.nvm.bytes_programmed
    after, _ = reboot(recorder.nvm)
    runs = [(n, ()) for n in range(total + 1)]
    if erases:
        runs += [(0, pages) for _, pages in interrupted_erases()[1:]]
    counts = Counter()  # type: Counter
    seen = {}  # type: dict
    for n, pages in runs:
        nvm = SimNVM(image)
        nvm.cut_after(n, pages)
        try:
            for index, value in recorder.writes:
                nvm[index] = value
        except PowerCut:
            pass
        nvm.cut_after(None)
        key = nvm.snapshot()
        if key not in seen:
            found, notices = reboot(nvm)
            outcome = classify(found, notices, before, after)
            seen[key] = outcome if goes_on(nvm, found) else "stuck"
        counts[seen[key]] += 1
    return counts


def tears(image, act, tries=48, seed=1):
    """A page program torn by a power cut: for each byte of what `act(store, game)`
    writes, the bytes before it programmed and, from it on, `tries` random
    sets of the bits it was clearing left 1 (the rest of the program with
    them): Counter of outcomes."""
    before, _ = reboot(SimNVM(image))
    recorder = Recorder(SimNVM(image))
    store = Store(recorder)
    game, _ = store.load()
    act(store, game)
    after, _ = reboot(recorder.nvm)
    rng = random.Random(seed)
    counts = Counter()  # type: Counter
    seen = {}  # type: dict
    (index, value), = recorder.writes  # one program: the records of the save
    for n in range(len(value)):
        for _ in range(tries):
            left = bytes(rng.choice((0, 0, 1 << rng.randrange(8), rng.randrange(256)))
                         & ~value[i] & 0xFF for i in range(n, len(value)))
            nvm = SimNVM(image)
            nvm.cut_after(n, left=left)
            try:
                nvm[index] = value
            except PowerCut:
                pass
            nvm.cut_after(None)
            key = nvm.snapshot()
            if key not in seen:
                found, notices = reboot(nvm)
                outcome = classify(found, notices, before, after)
                seen[key] = outcome if goes_on(nvm, found) else "stuck"
            counts[seen[key]] += 1
    return counts


def at_each_seq(act):
    """`cuts` of `act` on a mid-game log whose next record has each of the 32 seqs."""
    counts = Counter()  # type: Counter
    nvm, store, game = fresh(actions=2)
    for _ in range(32):
        counts += cuts(nvm.snapshot(), act)
        game.peg(0, 1)
        store.record_event(game)
    return counts


def flips(image):
    """Flip every bit of the log in `image` (its bytes up to the last one
    programmed, and the page marks): Counter of outcomes. A flip that reads
    back as another did (the same records, the same findings) is classified
    as that one was; the board goes on after two of each outcome and notices."""
    before, _ = reboot(SimNVM(image))
    used = len(image.rstrip(b"\xff"))
    spots = list(range(used)) + list(range(241, 256)) if used < 241 else list(range(max(used, 256)))
    counts = Counter()  # type: Counter
    tried = Counter()  # type: Counter
    seen = {}  # type: dict
    for at in spots:
        for bit in range(8):
            damaged = bytearray(image)
            damaged[at] ^= 1 << bit
            nvm = SimNVM(bytes(damaged))
            store = Store(nvm)
            log = store._flash  # what the store's load reads, without replaying it
            key = (tuple(log.read(store._checked)), log.found, log.cut, log.old, log.changed)
            if key not in seen:
                found, notices = reboot(nvm)
                seen[key] = classify(found, notices, before), tuple(notices), found
            outcome, notices, found = seen[key]
            tried[outcome, notices] += 1
            counts[outcome if tried[outcome, notices] > 2 or goes_on(nvm, found) else "stuck"] += 1
    return counts


# ---- the images and the saves cut short -------------------------------------------

def peg(store, game):
    game.peg(1, 5)
    store.record_event(game)


def undo(store, game):
    game.undo()
    store.record_undo()


def lights(store, game):
    store.record_settings(LIGHTS)


def new_game(store, game):
    store.record_new_game(Game(dealer=1))


def next_game(store, game):
    game.next_game()
    store.record_next_game()


def show(store, game):
    key_next(game, random.Random(6))
    store.record_event(game)


def mid_game():
    return fresh(actions=25)[0].snapshot()


def at_the_show():
    nvm, store, game = fresh()
    rng = random.Random(5)
    while game.phase != SHOW:
        key_next(game, rng)
        store.record_event(game)
    return nvm.snapshot()


def game_over():
    """A won game (pegged 29 at a time)."""
    nvm, store, game = fresh()
    while not game.over:
        game.peg(1, 29)
        store.record_event(game)
    return nvm.snapshot()


def page_edge():
    """A game whose next peg opens the log's second page (and programs its mark)."""
    nvm, store, game = fresh()
    while len(nvm.snapshot()[:241].rstrip(b"\xff")) <= 241 - 6:  # the marks begin at 241
        game.peg(0, 1)
        store.record_event(game)
    return nvm.snapshot()


def torn():
    """A mid-game log whose last save was cut short halfway."""
    nvm = SimNVM(mid_game())
    store = Store(nvm)
    game, _ = store.load()
    nvm.cut_after(3)
    try:
        peg(store, game)
    except PowerCut:
        pass
    return nvm.snapshot()


def full_log():
    """A game mid-play with settings switched back and forth until no peg fits."""
    nvm, store, game = fresh(actions=30)
    n = 0
    while store.free_bytes() >= 6:
        n += 1
        store.record_settings((b"\x01\x01\x01", LIGHTS)[n % 2])
    return nvm.snapshot()


def busy_log():
    """Games keyed by cards until the next one's start compacts: the last won."""
    nvm, store, game = fresh(settings=LIGHTS)
    rng = random.Random(8)
    while True:
        while not game.over:
            key_next(game, rng)
            store.record_event(game)
        if store.free_bytes() < 1280:
            return nvm.snapshot()
        game.next_game()
        store.record_next_game()


def realistic():
    """A 61-hole game keyed by cards to its end, with settings, an undo and
    the next game begun: the log a board holds after a first game."""
    nvm, store, game = fresh(settings=LIGHTS, config=make_config(target=61))
    rng = random.Random(3)
    undone = False
    while not game.over:
        key_next(game, rng)
        store.record_event(game)
        if len(game.journal) == 20 and not undone:
            game.undo()
            store.record_undo()
            undone = True
    game.next_game()
    store.record_next_game()
    play(store, game, rng, 5)
    return nvm.snapshot()


def undone(seed=4):
    """A 121-hole game keyed by cards to its end, then undone to its start, every
    action saved: the longest replay a log could ask of a boot, unbounded."""
    nvm, store, game = fresh(settings=LIGHTS)
    rng = random.Random(seed)
    while not game.over:
        key_next(game, rng)
        store.record_event(game)
    while game.journal:
        game.undo()
        store.record_undo()
    return nvm.snapshot()


def campaigns():
    """[(what, Counter of outcomes)], as README tabulates them."""
    saves = Counter()  # type: Counter
    for image, act in ((mid_game(), peg), (mid_game(), undo), (mid_game(), lights),
                       (mid_game(), new_game), (game_over(), next_game), (at_the_show(), show)):
        saves += cuts(image, act)
    return [
        ("a save (peg, undo, settings, new game, next game, hand shown)", saves),
        ("the first save to an erased sector", cuts(SimNVM().snapshot(), new_game)),
        ("a save that opens a new page (and its mark)", cuts(page_edge(), peg)),
        ("a save after one cut short", cuts(torn(), peg)),
        ("a settings save cut short, at each of the 32 sequence numbers", at_each_seq(lights)),
        ("a hand shown torn mid-program (bits left 1), then one more save",
         tears(at_the_show(), show)),
        ("a settings save torn mid-program (bits left 1), then one more save",
         tears(mid_game(), lights)),
        ("a compaction when full: its erase and every byte", cuts(full_log(), peg, erases=True)),
        ("a compaction at a game's start: its erase and every byte",
         cuts(busy_log(), next_game, erases=True)),
        ("every bit of a realistic log flipped", flips(realistic())),
    ]


def table(rows):
    lines = ["| Fault | " + " | ".join(OUTCOMES) + " |",
             "|---|" + "---|" * len(OUTCOMES)]
    for what, counts in rows:
        lines.append("| %s | %s |" % (what, " | ".join(str(counts[o]) for o in OUTCOMES)))
    return "\n".join(lines)


def main():
    print(table(campaigns()))


if __name__ == "__main__":
    main()
