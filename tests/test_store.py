"""The game log in flash: saving, reloading, undo after a reboot, power cuts at
every byte, erases cut short, flipped bits, garbage in the sector, errors in a
save, and how rarely the sector is erased.

The flash is boards.sim.nvm.SimNVM, which behaves like CircuitPython's nvm on
the RP2040: writes into erased bytes are programmed in place, any other write
erases the sector; ``cut_after(n, old_pages)`` fails the power after n more
bytes (in an erase, leaving old_pages as they were). tools/store_faults.py runs
the fault campaigns of README's table; the counts are asserted here.
"""

import random

import pytest
from hypothesis import given, settings, strategies as st

from boards.sim.nvm import PowerCut, SimNVM, interrupted_erases
from cribbage.flashlog import HEADER_SIZE, PAGE, FlashLog, check_byte, pack
from cribbage.store import BASE, EVENT, MAX_SETTINGS, NEXT_GAME, SETTINGS, UNDO, Store
from engine import state
from engine.game import Game
from tools.store_faults import (LIGHTS, OUTCOMES, boot, campaigns, classify, fresh, full_log,
                                key_next, lights, mid_game, new_game, next_game, peg, play,
                                reboot, saved, undo)

SECTOR = 4096
MARKS = 241  # the page marks: the last 15 bytes of the first page
REPAIRED = "save repaired: check the scores"


def header(generation=0, version=2):
    return b"CRB" + bytes((version, generation >> 8, generation & 0xFF))


def loaded(nvm):
    """(what a boot finds, its notices), as a board shows them."""
    return reboot(nvm)


# ---- round trips ------------------------------------------------------------------


def test_an_erased_sector_is_a_fresh_board():
    nvm = SimNVM()
    store = Store(nvm)
    assert store.load() == (None, None)
    # A new board, or one whose compaction was cut off just after its erase: the
    # single sector cannot tell them apart, so it says what both are.
    assert store.notices == ["no saved game: new game"]
    assert store.free_bytes() == SECTOR - PAGE  # one write can fill the pages after the first
    assert nvm.writes == 0


def test_a_game_comes_back_after_a_reboot_with_its_undo_history():
    nvm, store, game = fresh(actions=40)
    store.record_settings(LIGHTS)
    again = Store(nvm)
    game2, blob = again.load()
    assert saved(game2, blob) == saved(game, LIGHTS)
    assert again.notices == []
    while game.journal:
        assert game2.undo() == game.undo()
        assert state.encode(game2) == state.encode(game)
    assert store.erases == 0 and nvm.erases == 0


def test_the_game_goes_on_being_saved_after_a_reboot():
    nvm, store, game = fresh(actions=20)
    store = Store(nvm)
    game, _ = store.load()
    play(store, game, random.Random(7), 15)
    assert loaded(nvm) == (saved(game), [])


def test_undo_is_recorded_and_replayed():
    nvm, store, game = fresh(actions=30)
    for _ in range(3):
        game.undo()
        store.record_undo()
    assert loaded(nvm)[0] == saved(game)
    game.peg(1, 4)
    store.record_event(game)
    assert loaded(nvm)[0] == saved(game)
    assert len(game.journal) == 28


def test_next_game_is_recorded_and_the_match_tally_kept():
    nvm, store, game = fresh()
    for points in (29, 29, 29, 29, 10):
        game.peg(0, points)
        store.record_event(game)
    assert game.over
    game.next_game()
    store.record_next_game()
    assert game.journal == [] and game.games_played == 1
    game.peg(1, 6)
    store.record_event(game)
    assert loaded(nvm) == (saved(game), [])


def test_a_new_game_object_starts_a_new_base():
    nvm, store, game = fresh(actions=10)
    game = Game(dealer=1)
    store.record_new_game(game)
    game.peg(1, 2)
    store.record_event(game)
    assert loaded(nvm)[0] == saved(game)


def test_a_record_the_log_does_not_match_saves_the_whole_game():
    nvm, store, game = fresh(actions=10)
    game.peg(0, 2)
    game.peg(1, 3)  # two actions, one record: the store writes the game whole
    store.record_event(game)
    assert loaded(nvm)[0] == saved(game)
    other, _ = Store(nvm).load()
    store2 = Store(nvm)
    store2.load()
    other.peg(0, 1)  # a game object the store did not load: also written whole
    store2.record_event(other)
    assert loaded(nvm)[0] == saved(other)


def test_the_last_settings_win_and_unchanged_ones_are_not_written():
    nvm = SimNVM()
    store = Store(nvm)
    store.load()
    store.record_settings(b"\x01\x01\x00")
    store.record_settings(LIGHTS)
    written = nvm.writes
    store.record_settings(LIGHTS)
    assert nvm.writes == written
    assert Store(nvm).load() == (None, LIGHTS)
    with pytest.raises(ValueError):
        store.record_settings(bytes(MAX_SETTINGS + 1))


def test_records_are_as_documented():
    nvm, store, game = fresh()
    game.peg(0, 5)
    store.record_event(game)
    base = state.to_bytes(Game())
    assert nvm[0:HEADER_SIZE] == b"CRB\x02\x00\x00"  # magic, layout 2, generation 0
    start = HEADER_SIZE + 3 + len(base)
    record = bytes((len(base), 0 << 3 | BASE)) + base  # length, tag (seq 0, kind), payload
    assert nvm[HEADER_SIZE:start] == record + bytes((check_byte(record, 0, len(record)),))
    peg_record = bytes((3, 1 << 3 | EVENT, state.PEG, 0, 5))  # seq 1
    assert nvm[start:start + 6] == peg_record + bytes((check_byte(peg_record, 0, 5),))
    assert nvm[start + 6] == 0xFF
    long = pack(BASE, bytes(300), 33)
    assert long[0:3] == bytes((0x80 | 300 >> 7, 300 & 0x7F, 1 << 3 | BASE)) and len(long) == 304
    assert len(pack(UNDO, b"", 0)) == len(pack(NEXT_GAME, b"", 0)) == 3
    with pytest.raises(ValueError):
        pack(7, b"", 0)  # kind 7 would let a tag read 0xFF


def test_no_check_byte_reads_erased():
    for n in range(256):
        assert check_byte(bytes((1, EVENT, n)), 0, 3) != 0xFF
        assert check_byte(bytes((2, EVENT, n, 255 - n)), 0, 4) != 0xFF


def test_every_record_stays_in_its_page_and_the_marks_follow_the_log():
    # Appended records never cross a 256-byte page (page 0's end at the marks),
    # and each page the log reaches is marked in page 0 after its records.
    nvm, store, game = fresh()
    edges = []
    for i in range(200):  # 100 points each: the game goes on
        before = nvm.snapshot()
        game.peg(i % 2, 1)
        store.record_event(game)
        after = nvm.snapshot()
        changed = [i for i in range(SECTOR) if before[i] != after[i]]
        records = [i for i in changed if i < MARKS or i >= PAGE]
        if records:
            first, last = records[0], records[-1]
            assert first // PAGE == last // PAGE and (first >= PAGE or last < MARKS), changed
        marks = [i for i in changed if MARKS <= i < PAGE]
        if marks:
            edges.append((marks, records[0] // PAGE))
    assert edges == [([MARKS + page - 1], page) for page in range(1, len(edges) + 1)]
    assert len(edges) >= 4 and nvm[MARKS:MARKS + len(edges)] == bytes(len(edges))


# ---- what the sector may hold -----------------------------------------------------


def test_an_older_log_version_is_not_read_and_is_replaced():
    nvm, store, game = fresh(actions=10)
    old = SimNVM(header(version=1) + nvm.snapshot()[HEADER_SIZE:])
    store = Store(old)
    assert store.load() == (None, None)
    assert store.notices == ["saved game unreadable: new game"]
    game = Game()
    store.record_new_game(game)
    assert store.erases == 1 and old.erases == 1
    assert loaded(old) == (saved(game), [])


def test_one_flipped_bit_in_the_header_is_read_through():
    nvm, store, game = fresh(actions=10)
    for at in range(HEADER_SIZE):
        for bit in range(8):
            image = bytearray(nvm.snapshot())
            image[at] ^= 1 << bit
            assert loaded(SimNVM(bytes(image))) == (saved(game), []), (at, bit)


def test_an_older_engine_format_is_a_new_game_and_says_so():
    base = bytearray(state.to_bytes(Game()))
    base[0] = state.FORMAT + 1
    nvm = SimNVM(header() + pack(SETTINGS, LIGHTS, 0) + pack(BASE, base, 1))
    assert loaded(nvm) == ((None, LIGHTS), ["saved game unreadable: new game"])


def test_garbage_is_a_new_game_and_says_so():
    nvm = SimNVM(bytes(range(256)) * 16)
    store = Store(nvm)
    assert store.load() == (None, None)
    assert store.notices == ["saved game unreadable: new game"]
    assert store.free_bytes() == 0  # the next write erases the sector
    store.record_new_game(Game())
    assert nvm.erases == 1 and loaded(nvm) == (saved(Game()), [])


def test_junk_after_the_log_is_said_and_cleared_by_the_next_write():
    # Changed on purpose: bytes after the log's end could be records it lost.
    nvm, store, game = fresh(actions=12)
    image = bytearray(nvm.snapshot())
    image[3000:3004] = b"junk"
    nvm = SimNVM(image)
    store = Store(nvm)
    game, _ = store.load()
    assert store.notices == ["older save: check the scores"] and store.free_bytes() == 0
    game.peg(0, 1)
    store.record_event(game)
    assert nvm.erases == 1 and nvm[3000:3004] == b"\xff" * 4
    assert loaded(nvm) == (saved(game), [])


def test_a_refused_event_costs_only_itself():
    # Changed on purpose: it used to end the log there (and the next write compacted).
    nvm, store, game = fresh()
    kept = saved(game)
    end = len(nvm.snapshot().rstrip(b"\xff"))
    nvm[end:end + 6] = pack(EVENT, bytes((state.PEG, 0, 40)), 1)  # 40 points in one peg
    store = Store(nvm)
    game, _ = store.load()
    assert (saved(game), store.notices) == (kept, ["1 saved action unreadable"])
    game.peg(1, 3)
    store.record_event(game)
    assert nvm.erases == 0
    assert loaded(nvm) == (saved(game), ["1 saved action unreadable"])


def test_an_erased_first_byte_costs_only_its_record():
    nvm, store, game = fresh()
    for points in (2, 3, 4, 5):
        game.peg(0, points)
        store.record_event(game)
    image = bytearray(nvm.snapshot())
    first_peg = HEADER_SIZE + 3 + len(state.to_bytes(Game()))
    image[first_peg] = 0xFF  # its length reads erased: the log seems to end there
    store = Store(SimNVM(bytes(image)))
    found, _ = store.load()
    assert store.notices == ["1 saved action unreadable"]
    assert found.scores == [3 + 4 + 5, 0]


def test_the_board_counts_the_actions_and_says_the_settings_it_cannot_read():
    nvm, store, game = fresh()
    store.record_settings(LIGHTS)  # the only settings record, after the BASE
    for points in (2, 3, 4, 5):
        game.peg(0, points)
        store.record_event(game)
    image = bytearray(nvm.snapshot())
    settings_at = HEADER_SIZE + 3 + len(state.to_bytes(Game()))
    first_peg = settings_at + len(pack(SETTINGS, LIGHTS, 0))
    image[settings_at + 2] ^= 0x05  # two bits of the settings: unreadable
    image[first_peg + 6 + 4] ^= 0x03  # two bits of the second peg
    store = Store(SimNVM(bytes(image)))
    found, lights_now = store.load()
    # The settings record's tag is intact: it says it held settings. It counts as
    # a lost record too, since a tag cannot be trusted in a record that fails.
    assert store.notices == ["2 saved actions unreadable", "saved settings unreadable"]
    assert lights_now is None and found.scores == [2 + 4 + 5, 0]


def test_a_damaged_early_action_costs_only_itself():
    nvm, store, game = fresh()
    for points in (2, 3, 4, 5):
        game.peg(0, points)
        store.record_event(game)
    image = bytearray(nvm.snapshot())
    first_peg = HEADER_SIZE + 3 + len(state.to_bytes(Game()))
    image[first_peg + 3] ^= 0x03  # two bits of the first peg's side: the check tells, not which
    found, notices = loaded(SimNVM(bytes(image)))
    assert notices == ["1 saved action unreadable"]
    again = Game()
    for points in (3, 4, 5):
        again.peg(0, points)
    assert state.encode(Store(SimNVM(bytes(image))).load()[0]) == state.encode(again)
    image[first_peg + 3] ^= 0x01  # one bit: read through, and said
    assert loaded(SimNVM(bytes(image))) == (saved(game), [REPAIRED])


def test_a_flipped_bit_in_a_base_is_read_through_when_one_reading_is_a_game():
    nvm, store, game = fresh(actions=6)
    image = nvm.snapshot()
    base_end = HEADER_SIZE + 3 + len(state.to_bytes(Game()))
    repaired = announced = 0
    for at in range(HEADER_SIZE, base_end):
        for bit in range(8):
            damaged = bytearray(image)
            damaged[at] ^= 1 << bit
            found, notices = loaded(SimNVM(bytes(damaged)))
            if found == saved(game):
                assert notices == [REPAIRED]
                repaired += 1
            else:  # two readings make a game (one of them with the tag claiming SETTINGS)
                assert found == (None, None) and notices[0] == "saved game unreadable: new game"
                announced += 1
    assert (repaired, announced) == (249, 31)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=SECTOR), st.booleans())
def test_any_bytes_load_without_an_exception_and_the_board_goes_on(data, with_header):
    if with_header:
        data = (header(3) + data)[:SECTOR]
    nvm = SimNVM(data)
    store = Store(nvm)
    game, lights_now = store.load()
    assert game is None or isinstance(game, Game)
    kept = saved(game, lights_now)
    store.record_settings(b"\x09")
    assert loaded(nvm)[0] == (kept[0], b"\x09")


@settings(max_examples=150, deadline=None)
@given(st.integers(0, SECTOR - 1), st.integers(0, 255), st.integers(0, 2 ** 32))
def test_a_damaged_byte_in_a_real_log_never_raises_nor_passes_silently(where, value, seed):
    nvm, store, game = fresh(actions=60, seed=seed)
    store.record_settings(LIGHTS)
    before = saved(game, LIGHTS)
    image = bytearray(nvm.snapshot())
    image[where] = value
    nvm = SimNVM(image)
    store = Store(nvm)
    game, lights_now = store.load()
    assert classify(saved(game, lights_now), store.notices, before) != "silent"
    kept = saved(game, lights_now)
    if game is not None and not game.over:
        game.peg(0, 1)
        store.record_event(game)
        kept = saved(game, lights_now)
    assert loaded(nvm)[0] == kept


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
    from tools.store_faults import at_the_show, show
    return at_the_show(), show


@pytest.mark.parametrize("setup, act", [
    (mid_game, peg), (mid_game, undo), (mid_game, lights), (mid_game, new_game),
    (None, next_game), (None, None)])
def test_a_cut_while_appending_leaves_the_game_before_or_after(setup, act):
    from tools.store_faults import game_over
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
    assert 3 <= total <= 35
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
        store.record_event(game)
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
    # (tools/store_faults.py cuts at every one).
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


def test_the_fault_table_of_the_readme():
    """README's table, from tools/store_faults.py: no silent loss, no silent
    older state, and after each fault the board goes on saving."""
    rows = dict(campaigns())
    counts = {what: tuple(rows[what][o] for o in OUTCOMES) for what in rows}
    assert counts == {
        "a save (peg, undo, settings, new game, next game, hand shown)": (64, 6, 0, 0, 0, 0),
        "the first save to an erased sector": (41, 1, 0, 0, 0, 0),
        "a save that opens a new page (and its mark)": (6, 2, 0, 0, 0, 0),
        "a save after one cut short": (6, 1, 0, 0, 0, 0),
        # The erased sector a cut leaves just after a compaction's erase is said
        # ("no saved game: new game") and counts as lost.
        "a compaction when full: its erase and every byte": (22, 3925, 188, 0, 0, 0),
        "a compaction at a game's start: its erase and every byte": (3, 4050, 63, 19, 0, 0),
        "every bit of a realistic log flipped": (5873, 0, 31, 0, 0, 0),
    }


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
        yield lambda: store.record_event(game)
    game.undo()
    yield store.record_undo
    yield lambda: store.record_settings(LIGHTS)
    while not game.over:
        game.peg(0, 29)
        yield lambda: store.record_event(game)
    game.next_game()
    yield store.record_next_game
    game.peg(1, 3)
    yield lambda: store.record_event(game)


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
        store.record_event(game)
        found = loaded(SimNVM(flash.snapshot()))[0]
        assert found == saved(game, store._settings), (fail, after, retry)


# ---- wear -------------------------------------------------------------------------


def test_a_thousand_pegs_erase_the_sector_twice():
    """One point at a time, the players taking turns: each game is 241 pegs
    (121 to 120). A peg record is 6 bytes, so a game fills 1446 bytes (and the
    page ends): after the first game 2560 bytes are free and its next game is a
    3-byte record; after the second 1024, under the 1280 a game start keeps, so
    the next game compacts. 1000 pegs are 4 games and 36 pegs: 2 erases."""
    nvm, store, game = fresh()
    assert len(pack(EVENT, bytes((state.PEG, 0, 1)), 0)) == 6
    free = []
    for i in range(1000):
        game.peg(i % 2, 1)
        store.record_event(game)
        if game.over:
            assert game.scores[i % 2] == 121
            free.append(store.free_bytes())
            game.next_game()
            store.record_next_game()
    assert free == [2560, 1024, 2560, 1024]
    assert store.erases == nvm.erases == 2
    assert loaded(nvm) == (saved(game), [])


def test_a_game_longer_than_the_sector_keeps_its_state_not_its_undo_and_says_so():
    nvm, store, game = fresh()
    for _ in range(1100):  # 1100 misdeals: 2 bytes each in the game's BASE
        game.misdeal()
        store.record_event(game)
    # A misdeal record is 4 bytes: the log fills after about a thousand, and
    # the game's BASE would then be over 1024 bytes.
    assert store.erases == nvm.erases == 1
    assert store.notices[-1] == "undo history trimmed to fit flash"
    assert loaded(nvm) == (saved(game), [])
    assert 0 < len(game.journal) < 100


def test_the_flash_log_knows_nothing_of_cribbage():
    nvm = SimNVM()
    log = FlashLog(nvm, b"ABC")
    assert list(log.read()) == [] and log.found == 0
    assert log.append([(0, b"hello"), (6, bytes(200))])
    assert log.append([(3, b"")])
    again = FlashLog(nvm, b"ABC")
    assert list(again.read()) == [(0, b"hello"), (6, bytes(200)), (3, b"")]
    assert again.found == 2 and not again.cut and not again.old
    again.compact([(1, b"x")])
    assert list(FlashLog(nvm, b"ABC").read()) == [(1, b"x")] and again.generation == 1
    assert list(FlashLog(nvm, b"XYZ").read()) == []  # another magic: not this log


def test_the_written_out_crc_table_is_crc8_poly_07():
    from cribbage import flashlog
    for value in range(256):
        c = value
        for _ in range(8):
            c = ((c << 1) ^ (0x107 if c & 0x80 else 0)) & 0x1FF
        assert flashlog._CRC_TABLE[value] == c & 0xFF, value
    assert len(flashlog._CRC_TABLE) == 256
