"""Power cuts and flipped bits against the board's flash log, every outcome classified.

    PYTHONPATH=.:lib .venv-test/bin/python tests/store_faults.py   # docs/store.md's table

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
Test support, beside the tests that use it (docs/testing.md says why here); the
logs and saves it tries the faults on are tools/store_logs.py's, which the
benchmarks time too. Laptop only.
"""

import random
from collections import Counter

from boards.sim.nvm import PowerCut, SimNVM, interrupted_erases
from cribbage.store import Store
from tools.store_logs import (at_the_show, busy_log, erase, fresh, full_log, game_over, lights,
                              mid_game, near_the_end, new_game, next_game, page_edge, peg,
                              realistic, saved, show, torn, undo)
OLDER = "older save: check the scores"
OUTCOMES = ("same", "after", "lost", "older", "wrong", "silent", "stuck")


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
        store.record_event(game, game.journal[-1])
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


def recorded(image, act):
    """(the state before, the state after, the Recorder of the writes) of
    `act(store, game)` on a board booted from `image`."""
    before, _ = reboot(SimNVM(image))
    recorder = Recorder(SimNVM(image))
    store = Store(recorder)
    game, _ = store.load()
    act(store, game)
    after, _ = reboot(recorder.nvm)
    return before, after, recorder


def faulted(image, writes, before, after, runs):
    """Counter of outcomes of `writes` replayed on `image` under each cut of
    `runs` ((bytes programmed, old pages, bits left) as SimNVM.cut_after takes
    them). Cuts that leave the same sector are classified once."""
    counts = Counter()  # type: Counter
    seen = {}  # type: dict
    for n, pages, left in runs:
        nvm = SimNVM(image)
        nvm.cut_after(n, pages, left)
        try:
            for index, value in writes:
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


def cuts(image, act, erases=False):
    """Cut the power after every byte `act(store, game)` programs, booted from
    `image` (and, if `erases`, in its erase under every interrupted_erases model):
    Counter of outcomes."""
    before, after, recorder = recorded(image, act)
    runs = [(n, (), b"") for n in range(recorder.nvm.bytes_programmed + 1)]
    if erases:
        runs += [(0, pages, b"") for _, pages in interrupted_erases()[1:]]
    return faulted(image, recorder.writes, before, after, runs)


def tears(image, act, tries=48, seed=1):
    """A page program torn by a power cut: for each byte of what `act(store, game)`
    writes, the bytes before it programmed and, from it on, `tries` random
    sets of the bits it was clearing left 1 (the rest of the program with
    them): Counter of outcomes."""
    before, after, recorder = recorded(image, act)
    (_, value), = recorder.writes  # one program: the records of the save
    rng = random.Random(seed)
    runs = []
    for n in range(len(value)):
        for _ in range(tries):
            left = bytes(rng.choice((0, 0, 1 << rng.randrange(8), rng.randrange(256)))
                         & ~value[i] & 0xFF for i in range(n, len(value)))
            runs.append((n, (), left))
    return faulted(image, recorder.writes, before, after, runs)


def at_each_seq(act):
    """`cuts` of `act` on a mid-game log whose next record has each of the 32 seqs."""
    counts = Counter()  # type: Counter
    nvm, store, game = fresh(actions=2)
    for _ in range(32):
        counts += cuts(nvm.snapshot(), act)
        game.peg(0, 1)
        store.record_event(game, game.journal[-1])
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


def campaigns():
    """[(what, Counter of outcomes)], as README tabulates them."""
    saves = Counter()  # type: Counter
    for image, act in ((mid_game(), peg), (mid_game(), undo), (mid_game(), lights),
                       (mid_game(), new_game), (game_over(), next_game), (at_the_show(), show)):
        saves += cuts(image, act)
    return [
        ("a save (peg, undo, settings, new game, next game, hand shown)", saves),
        ("the save that ends a game (the statistics count it)", cuts(near_the_end(), peg)),
        ("the statistics erased (an action: undo brings them back)", cuts(game_over(), erase)),
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
