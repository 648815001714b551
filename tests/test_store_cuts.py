"""The game log in flash, under power cuts at every byte of every kind of save,
erases cut short, and errors (MemoryError) inside a save; docs/store.md's fault table.
"""

import os
import random

import pytest

from boards.sim.nvm import PowerCut, SimNVM, interrupted_erases
from cribbage.flashlog import HEADER_SIZE, pack
from cribbage.store import BASE, SETTINGS, Store
from engine import state
from engine.game import Game
from tools.store_logs import (LIGHTS, erase, full_log, game_over, key_next, lights, mid_game,
                              near_the_end, new_game, next_game, peg, saved, undo)

from store_faults import OUTCOMES, boot, campaigns, classify
from store_helpers import SECTOR, loaded


# ---- power cuts -------------------------------------------------------------------


def cut_everywhere(image, act, stops=None):
    """Boot from `image`, run `act` with the power failing after each count of
    bytes programmed: (bytes the act programs, [(n, (found, notices), nvm)])."""
    nvm, store, game = boot(image)
    act(store, game)
    total = nvm.bytes_programmed
    runs = []
    for n in range(total + 1) if stops is None else stops:
        nvm, store, game = boot(image)
        nvm.cut_after(n)
        try:
            act(store, game)
        except PowerCut:
            assert n < total
        else:
            assert n >= total
        nvm.cut_after(None)
        runs.append((n, loaded(nvm), nvm))
    return total, runs


def at_the_show_and_the_hand():
    from tools.store_logs import at_the_show, show
    return at_the_show(), show


# The bytes each save programs: a record is its length, its tag, its payload and
# its check (3 + payload). A BASE's payload is engine.state.to_bytes: the format,
# the state's length, the state, the count of actions (2 bytes) and, at a game's
# start, no action. A state is 28 bytes for two players (its format and the config
# 10, the tally 2, ten fields, the scores 2, the pegs behind 2, no card seen 1, no
# play 1), then the statistics (2 bytes when all zero: no game, no side), then its
# check (1).
SAVES = [
    (mid_game, peg, 3 + 3),                   # PEG, the side, the points
    (mid_game, undo, 3 + 0),                  # UNDONE: no payload
    (mid_game, lights, 3 + len(LIGHTS)),      # the app's 3 bytes
    (mid_game, new_game, 3 + 4 + 28 + 2 + 1),  # a BASE of a new game: 38
    # The next game's BASE after B won 145-0 by typing 29s: its statistics are 13
    # bytes (the games 1, two sides; A's mask and double skunks suffered 1; B's mask,
    # wins 1, double skunks 1, typed points 145 in two bytes): 49.
    (None, next_game, 3 + 4 + 28 + 13 + 1),
    (None, None, 3 + 8),                      # SHOW, the claim, muggins, 4, 4 cards
    (near_the_end, peg, 3 + 3),               # the peg that wins: the statistics count it
    (game_over, erase, 3 + 1),                # ERASE: the statistics back to zero
]


@pytest.mark.parametrize("setup, act, size", SAVES)
def test_a_cut_while_appending_leaves_the_game_before_or_after(setup, act, size):
    if setup is None and act is None:
        image, act = at_the_show_and_the_hand()
    else:
        image = (setup or game_over)()
    kept = loaded(SimNVM(image))[0]
    nvm, store, game = boot(image)
    act(store, game)
    done = loaded(nvm)[0]
    assert nvm.erases == 0 and done != kept
    total, runs = cut_everywhere(image, act)
    assert total == size
    for n, (found, notices), nvm in runs:
        assert found == (kept if n < total else done), n
        # A record cut short is said at the next boot (when any byte of it is in).
        assert notices == (["power cut: last action lost"] if 0 < n < total else []), n
        # The board goes on after it, with no erase: the next write goes past it.
        store = Store(nvm)
        store.load()
        store.record_settings(b"\x07")
        assert nvm.erases == 0
        assert loaded(nvm)[0] == (found[0], b"\x07")


def test_a_torn_save_never_forces_an_erase():
    image = mid_game()
    nvm, store, game = boot(image)
    nvm.cut_after(4)
    with pytest.raises(PowerCut):
        peg(store, game)
    nvm.cut_after(None)
    for _ in range(3):  # reboots, each after one more action
        store = Store(nvm)
        game, _ = store.load()
        game.peg(0, 2)
        store.record_event(game, game.journal[-1])
    assert nvm.erases == 0 and loaded(nvm) == (saved(game), [])


def test_a_cut_while_writing_to_an_erased_sector_leaves_it_fresh_or_saved():
    total, runs = cut_everywhere(SimNVM().snapshot(), new_game)
    assert total == HEADER_SIZE + len(pack(BASE, state.to_bytes(Game()), 0))
    for n, (found, notices), _ in runs:
        assert found == ((None, None) if n < total else saved(Game(dealer=1))), n
        if n == 0:
            assert notices == ["no saved game: new game"], n  # still a new board
        elif 4 <= n <= HEADER_SIZE:  # a header (all but its generation), no game
            assert notices == ["no saved game: new game"], n
        else:
            assert notices == (["saved game unreadable: new game"] if n < total else []), n


@pytest.mark.parametrize("act", [peg, new_game])
def test_a_cut_in_a_compaction_loses_the_game_only_until_its_base_is_written(act):
    """The one loss a single sector cannot avoid: from the erase until the new
    BASE is in, a cut leaves no game (the settings, written first, survive the
    BASE part), and the board says so. Never a wrong game."""
    image = full_log()
    nvm, store, game = boot(image)
    lights_now = store._settings
    act(store, game)
    assert nvm.erases == 1
    done = loaded(nvm)[0]
    _, _, game = boot(image)
    if act is peg:
        game.peg(1, 5)
    else:
        game = Game(dealer=1)
    assert done == saved(game, lights_now)
    settings_end = HEADER_SIZE + len(pack(SETTINGS, lights_now, 0))
    base_end = settings_end + len(pack(BASE, state.to_bytes(game), 1))
    # Every byte up to well past the BASE, then the erased fill every 61st byte
    # (tests/store_faults.py cuts at every one).
    stops = list(range(base_end + 64)) + list(range(base_end + 64, SECTOR, 61)) + [SECTOR]
    total, runs = cut_everywhere(image, act, stops)
    assert total == SECTOR  # the erasing write programs the whole sector again
    for n, (found, notices), nvm in runs:
        if n == 0:  # the erase done, nothing programmed: it reads as a new board, said
            assert nvm.snapshot() == b"\xff" * SECTOR
            assert (found, notices) == ((None, None), ["no saved game: new game"])
        elif n < base_end:
            assert found == (None, None if n < settings_end else lights_now), n
            assert notices in (["saved game unreadable: new game"], ["no saved game: new game"]), n
        else:
            assert (found, notices) == (done, []), n


def test_an_erase_cut_short_never_brings_back_an_older_state_unsaid():
    # The full log reaches every page; its game sits in the first pages, the
    # settings changed back and forth after it (ending the same on every page).
    # Whatever pages the erase leaves, the board finds the state it had or no
    # game, and says when it cannot vouch for it.
    image = full_log()
    before = loaded(SimNVM(image))[0]
    outcomes = []
    for name, pages in interrupted_erases():
        nvm, store, game = boot(image)
        nvm.cut_after(0, pages)
        with pytest.raises(PowerCut):
            peg(store, game)
        found, notices = loaded(nvm)
        outcomes.append(classify(found, notices, before))
        if 0 in pages:  # the first page and its marks survive: the log stops short of them
            assert (found, notices) == (before, ["older save: check the scores"]), name
        elif pages:  # the header is gone, old pages remain
            assert (found, notices) == ((None, None), ["saved game unreadable: new game"]), name
        else:  # the erase had finished: it reads as a new board, and says so
            assert (found, notices) == ((None, None), ["no saved game: new game"]), name
    assert outcomes.count("same") == 22 and outcomes.count("lost") == 17
    assert outcomes.count("silent") == 0


def test_the_fault_table_of_docs_store():
    """docs/store.md's table, from tests/store_faults.py: no silent loss, no silent
    older state, and after each fault the board goes on saving."""
    rows = dict(campaigns())
    counts = {what: tuple(rows[what][o] for o in OUTCOMES) for what in rows}
    assert counts == {
        # A cut before a save's last byte leaves the state before it (same), after
        # it the state saved (after): one "after" a save, the rest its bytes. A
        # BASE is 3 bytes longer with the statistics (2 bytes when zero) and the
        # state's check, the next game's 14 (13 bytes of a game's statistics).
        "a save (peg, undo, settings, new game, next game, hand shown)": (113, 6, 0, 0, 0, 0, 0),
        "the save that ends a game (the statistics count it)": (6, 1, 0, 0, 0, 0, 0),
        "the statistics erased (an action: undo brings them back)": (4, 1, 0, 0, 0, 0, 0),
        "the first save to an erased sector": (44, 1, 0, 0, 0, 0, 0),
        "a save that opens a new page (and its mark)": (6, 2, 0, 0, 0, 0, 0),
        "a save after one cut short": (6, 1, 0, 0, 0, 0, 0),
        # A repair once took an unprogrammed check for a flipped bit at 3 of the
        # 32 seqs, and a torn program's bits left 1 for one flipped bit: lights
        # nobody chose ("wrong"). A last record is never repaired now.
        "a settings save cut short, at each of the 32 sequence numbers": (192, 33, 0, 0, 0, 0, 0),
        "a hand shown torn mid-program (bits left 1), then one more save":
            (446, 82, 0, 0, 0, 0, 0),
        "a settings save torn mid-program (bits left 1), then one more save":
            (234, 54, 0, 0, 0, 0, 0),
        # The erased sector a cut leaves just after a compaction's erase is said
        # ("no saved game: new game") and counts as lost, as does every cut before
        # the new BASE's last byte: that BASE is 3 bytes longer when full (the game's
        # start had no statistics yet), 28 at the fourth game's start (27 bytes of
        # three games' statistics, the check).
        "a compaction when full: its erase and every byte": (22, 3922, 191, 0, 0, 0, 0),
        "a compaction at a game's start: its erase and every byte": (3, 4022, 91, 19, 0, 0, 0),
        # A flipped bit in the last record reads as a write cut short (39 of its 40
        # bits; its length's bit 1 leaves bytes the log does not reach: older). The
        # other 4 lost are bits of the second game's BASE that its tag's SETTINGS bit
        # shares a CRC-8 reading with: the state's check refuses every other reading.
        "every bit of a realistic log flipped": (6772, 0, 43, 1, 0, 0, 0),
    }
    doc = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "docs", "store.md")
    with open(doc, encoding="utf-8") as f:
        table = f.read().split("| Fault | " + " | ".join(OUTCOMES) + " |\n")[1]
    shown = {}
    for line in table.splitlines()[1:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        shown[cells[0]] = tuple(int(c) for c in cells[1:])
    assert shown == counts


# ---- errors inside a save -----------------------------------------------------------


class FailingNVM:
    """The nvm, but its `fail`-th access (read or write) raises MemoryError:
    before the bytes are programmed, or (``after``) once they are."""

    def __init__(self, nvm, fail, after=False):
        self.nvm, self.fail, self.after, self.count = nvm, fail, after, 0

    def __len__(self):
        return len(self.nvm)

    def _tick(self):
        self.count += 1
        return self.count == self.fail

    def __getitem__(self, index):
        if self._tick():
            raise MemoryError("memory allocation failed")
        return self.nvm[index]

    def __setitem__(self, index, value):
        failing = self._tick()
        if failing and not self.after:
            raise MemoryError("memory allocation failed")
        self.nvm[index] = value
        if failing:
            raise MemoryError("memory allocation failed")


def script(store, game, rng):
    """Saves of every kind, a compaction among them: yields after each change
    with the call that records it."""
    for _ in range(8):
        key_next(game, rng)
        yield lambda: store.record_event(game, game.journal[-1])
    game.undo()
    yield store.record_undo
    yield lambda: store.record_settings(LIGHTS)
    while not game.over:
        game.peg(0, 29)
        yield lambda: store.record_event(game, game.journal[-1])
    game.next_game()
    yield store.record_next_game
    game.peg(1, 3)
    yield lambda: store.record_event(game, game.journal[-1])


@pytest.mark.parametrize("after", [False, True])
@pytest.mark.parametrize("retry", [False, True])
def test_an_error_in_a_save_leaves_the_store_matching_the_flash(after, retry):
    """A MemoryError at any read or write of any save: the flash holds the state
    before or after that change, and the next save (or the same one again)
    leaves the flash holding the game in RAM."""
    base = bytearray(full_log())  # the settings save there compacts (the log is full)
    for fail in range(1, 40):
        flash = SimNVM(base)
        nvm = FailingNVM(flash, fail, after)
        store = Store(nvm)
        game, _ = store.load()  # an error in the load: it collects the garbage and reads again
        assert game is not None and store.notices == [], fail
        failed, start = 0, nvm.count
        for change in script(store, game, random.Random(fail)):
            was = loaded(SimNVM(flash.snapshot()))[0][0]
            try:
                change()
            except MemoryError:
                failed += 1
                now = loaded(SimNVM(flash.snapshot()))[0][0]
                assert now in (was, saved(game)[0]), fail
                if retry:
                    change()
        assert failed == (1 if start < fail <= nvm.count else 0), fail
        nvm.fail = 0
        game.peg(1, 2)  # the save after the last change
        store.record_event(game, game.journal[-1])
        found = loaded(SimNVM(flash.snapshot()))[0]
        assert found == saved(game, store._settings), (fail, after, retry)
