"""The game log in flash: saving, reloading, undo after a reboot, and how rarely
the sector is erased (tests/test_store_damage.py: what a damaged sector gives;
tests/test_store_cuts.py: power cuts and errors in a save).

The flash is boards.sim.nvm.SimNVM, which behaves like CircuitPython's nvm on
the RP2040: writes into erased bytes are programmed in place, any other write
erases the sector; ``cut_after(n, old_pages)`` fails the power after n more
bytes (in an erase, leaving old_pages as they were). tests/store_faults.py runs
the fault campaigns of docs/store.md's table; the counts are asserted there.
"""

import random

import pytest

from boards.sim.nvm import SimNVM
from cribbage.flashlog import HEADER_SIZE, PAGE, FlashLog, pack
from cribbage.flashread import SETTINGS, UNREADABLE, check_byte
from cribbage.store import (BASE, EVENT, GAME_ROOM, MAGIC, MAX_SETTINGS, NEXT_GAME, ROOM_FLOOR,
                            UNDONE, Store)
from engine import state
from engine.game import Game
from tools.store_logs import LIGHTS, fresh, play, saved

from store_helpers import MARKS, SECTOR, loaded


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
        assert game2.undo().event == game.undo().event
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
    store.record_event(game, game.journal[-1])
    assert loaded(nvm)[0] == saved(game)
    assert len(game.journal) == 28


def _won():
    """A game A wins by pegs, each saved: (nvm, store, game)."""
    nvm, store, game = fresh()
    for points in (29, 29, 29, 29, 10):
        game.peg(0, points)
        store.record_event(game, game.journal[-1])
    assert game.over
    return nvm, store, game


def test_next_game_is_recorded_and_the_match_tally_kept():
    nvm, store, game = _won()
    game.next_game()
    store.record_next_game()
    assert game.journal == [] and game.games_played == 1
    # A BASE of the next game: a boot replays it alone, not the game before.
    assert [kind for kind, _ in FlashLog(nvm, MAGIC).read()] == [BASE] + [EVENT] * 5 + [BASE]
    game.peg(1, 6)
    store.record_event(game, game.journal[-1])
    assert loaded(nvm) == (saved(game), [])


def test_a_log_with_the_next_game_record_of_earlier_firmware_still_loads():
    nvm, store, game = _won()
    log = FlashLog(nvm, MAGIC)
    list(log.read())
    assert log.append([(NEXT_GAME, b""), (EVENT, bytes((state.PEG, 1, 6)))])
    game.next_game()
    game.peg(1, 6)
    assert loaded(nvm) == (saved(game), [])


def test_a_new_game_object_starts_a_new_base():
    nvm, store, game = fresh(actions=10)
    game = Game(dealer=1)
    store.record_new_game(game)
    game.peg(1, 2)
    store.record_event(game, game.journal[-1])
    assert loaded(nvm)[0] == saved(game)


def test_a_record_the_log_does_not_match_saves_the_whole_game():
    nvm, store, game = fresh(actions=10)
    game.peg(0, 2)
    game.peg(1, 3)  # two actions, one record: the store writes the game whole
    store.record_event(game, game.journal[-1])
    assert loaded(nvm)[0] == saved(game)
    other, _ = Store(nvm).load()
    store2 = Store(nvm)
    store2.load()
    other.peg(0, 1)  # a game object the store did not load: also written whole
    store2.record_event(other, other.journal[-1])
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
    store.record_event(game, game.journal[-1])
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
    assert len(pack(UNDONE, b"", 0)) == len(pack(NEXT_GAME, b"", 0)) == 3
    with pytest.raises(ValueError):
        pack(UNREADABLE, b"", 0)  # kind 7 would let a tag read 0xFF
    # The kinds are the format: logs on boards in use hold these values.
    assert (BASE, EVENT, UNDONE, NEXT_GAME, SETTINGS, UNREADABLE) == (1, 2, 3, 4, 5, 7)


def test_the_event_saved_is_the_one_given_and_a_missed_record_saves_the_game_whole():
    nvm, store, game = fresh()
    outcome = game.peg(0, 5)
    store.record_event(game, outcome.event)
    assert list(FlashLog(nvm, MAGIC).read())[-1] == (EVENT, bytes((state.PEG, 0, 5)))
    game.peg(1, 2)  # not recorded
    store.record_event(game, game.peg(0, 3).event)
    assert [kind for kind, _ in FlashLog(nvm, MAGIC).read()] == [BASE, EVENT, BASE]
    assert loaded(nvm) == (saved(game), [])


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
        store.record_event(game, game.journal[-1])
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


# ---- wear -------------------------------------------------------------------------


def test_a_thousand_pegs_erase_the_sector_twice():
    """One point at a time, the players taking turns: each game is 241 pegs
    (121 to 120). A peg record is 6 bytes, 42 to a page, so a game fills 1446
    bytes (and the page ends): after the first game 2560 bytes are free and its
    next game is a 47-byte BASE (11 bytes of statistics: the game, A's win and
    typed 121, B's typed 120); after the second 1024, under the 1280 a game start
    keeps, so the next game compacts: the header and a 50-byte BASE leave 185
    bytes of the first page, 30 pegs, not 32 as before the statistics, and the
    game ends in page 6: 2304 free. 1000 pegs are 4 games and 36 pegs: 2 erases."""
    nvm, store, game = fresh()
    assert len(pack(EVENT, bytes((state.PEG, 0, 1)), 0)) == 6
    free = []
    for i in range(1000):
        game.peg(i % 2, 1)
        store.record_event(game, game.journal[-1])
        if game.over:
            assert game.scores[i % 2] == 121
            free.append(store.free_bytes())
            game.next_game()
            store.record_next_game()
    assert free == [2560, 1024, 2304, 1024]
    assert store.erases == nvm.erases == 2
    assert loaded(nvm) == (saved(game), [])


def test_a_games_start_keeps_the_room_the_game_before_took_a_boot_too():
    """A game of pegs takes a few hundred bytes, not the ~800 of one keyed by cards:
    a game's start keeps 3/2 of what the game before took free (at least
    ROOM_FLOOR), so more games of pegs share an erase; a boot reads the same room."""
    nvm, store, game = fresh()
    starts = []  # (bytes free, erased) at each game's start
    for _ in range(40):
        for _ in range(25):  # 5 points a peg: A wins 121-0 (a skunk) on the 25th
            game.peg(0, 5)
            store.record_event(game, game.journal[-1])
        assert game.over
        assert store.room() == ROOM_FLOOR  # 3/2 of 25 pegs' 150 bytes and a BASE: less
        free, erases = store.free_bytes(), store.erases
        game.next_game()
        store.record_next_game()
        starts.append((free, store.erases > erases))
    erased = [free for free, did in starts if did]
    assert erased and max(erased) < ROOM_FLOOR  # each erase at a start short of the room
    assert any(ROOM_FLOOR <= free < GAME_ROOM for free, did in starts if not did)
    assert store.erases == len(erased)  # none in the middle of a game
    assert loaded(nvm) == (saved(game), [])
    nvm, store, game = fresh()
    took = len(state.to_bytes(game)) + 4  # a BASE: its length, tag and check
    for i in range(90):  # one-point pegs, 6 bytes each
        game.peg(i % 2, 1)
        store.record_event(game, game.journal[-1])
    pages = 3  # the marks of the pages its records opened count too, a byte each
    assert (took + 90 * 6) * 3 // 2 <= store.room() <= (took + 90 * 6 + pages) * 3 // 2
    assert ROOM_FLOOR < store.room() < GAME_ROOM
    again = Store(SimNVM(nvm.snapshot()))
    again.load()  # counts the records it reads, not the marks
    assert (took + 90 * 6) * 3 // 2 == again.room()
    for i in range(151):  # 241 pegs in all: more than GAME_ROOM's 2/3
        game.peg(i % 2, 1)
        store.record_event(game, game.journal[-1])
    assert store.room() == GAME_ROOM


def test_the_wear_benchmark_starts_from_a_boards_statistics(capsys):
    from tools import bench_store
    from engine import stats as st
    made = bench_store.history(400, keyed_pegs=False)
    assert made[0] == 400 and len(made) == len(st.ZERO) and max(made) <= st.CAP
    bench_store.main(["--games", "2", "--history", "400", "--no-micropython"])
    said = capsys.readouterr().out
    assert "Keyed cards (the starter, the play, three shows): statistics as after 400 games, " \
        "%d bytes" % len(st.to_list(made)) in said and "2 games:" in said


def test_a_game_longer_than_the_sector_keeps_its_state_not_its_undo_and_says_so():
    nvm, store, game = fresh()
    for _ in range(1100):  # 1100 misdeals: 2 bytes each in the game's BASE
        game.misdeal()
        store.record_event(game, game.journal[-1])
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
    from cribbage import flashread
    for value in range(256):
        c = value
        for _ in range(8):
            c = ((c << 1) ^ (0x107 if c & 0x80 else 0)) & 0x1FF
        assert flashread._CRC_TABLE[value] == c & 0xFF, value
    assert len(flashread._CRC_TABLE) == 256


def test_a_game_undone_to_its_start_leaves_a_boot_a_bounded_replay():
    # Each undo a boot replays re-applies up to CHECKPOINT_EVERY actions: a game
    # keyed to its end and undone to its start once cost a boot ~509 M fuel of
    # replay (~3.2 s, an estimate). A BASE now follows every 15 undos.
    from cribbage.store import REPLAY_BUDGET
    from engine.game import CHECKPOINT_EVERY
    from tools.store_logs import undone
    image = undone()
    log = FlashLog(SimNVM(image), MAGIC)
    kinds = [kind for kind, _ in log.read()]
    last = len(kinds) - 1 - kinds[::-1].index(BASE)
    after = kinds[last + 1:]
    # 186 actions undone; one compaction on the way: this log holds 115 undos.
    assert (kinds.count(UNDONE), kinds.count(BASE)) == (115, 8)
    assert after == [UNDONE] * 10  # the last of the game's 186 undos after a BASE
    assert REPLAY_BUDGET // (CHECKPOINT_EVERY + 1) == 15  # undos between two BASEs at most
    for i, kind in enumerate(kinds):
        if kind == BASE:
            assert BASE in kinds[i + 1:i + 17] or i == last
    game, _ = Store(SimNVM(image)).load()
    assert game.journal == [] and game.scores == [0, 0]
