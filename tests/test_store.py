"""The game log in flash: saving, reloading, undo after a reboot, power cuts at
every byte, garbage in the sector, and how rarely the sector is erased.

The flash is boards.simnvm.SimNVM, which behaves like CircuitPython's nvm on the
RP2040: writes into erased bytes are programmed in place, any other write
erases the sector; ``cut_after(n)`` fails the power after n more bytes.
"""

import random

import pytest
from hypothesis import given, settings, strategies as st

from boards.sim.nvm import PowerCut, SimNVM
from engine import state
from engine.game import PLAY, SHOW, STARTER, Game
from engine.pegging import MAX_COUNT
from cribbage.store import (BASE, EVENT, HEADER_SIZE, MAX_SETTINGS, NEXT_GAME, SETTINGS,
                       UNDO, Store, check_byte, header, pack)

SECTOR = 4096
LIGHTS = b"\x01\x04\x02"  # the app's settings: opaque to the store


def saved(game, settings_blob=None):
    """What must survive a reboot: the state, the undo history, the settings."""
    if game is None:
        return None, settings_blob
    return (state.encode(game), list(game.journal)), settings_blob


def reboot(nvm):
    return saved(*Store(nvm).load())


def fits(count, card):
    return count + min(card // 4 + 1, 10) <= MAX_COUNT


def key_next(game, rng):
    """Key one plausible action for the phase the game is in, as a player would."""
    unseen = [c for c in range(52) if c not in game.seen]
    if game.phase == STARTER:
        game.turn_starter(rng.choice(unseen))
    elif game.phase == PLAY:
        playable = [c for c in unseen if fits(game.play.count, c)]
        if not playable or (game.play.count + 10 > MAX_COUNT and rng.random() < 0.5):
            game.go()  # nothing left that fits (or the player holds only big cards)
        else:
            game.lay(rng.choice(playable))
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


def fresh(actions=0, seed=1):
    nvm = SimNVM()
    store = Store(nvm)
    store.load()
    game = Game()
    store.record_new_game(game)
    play(store, game, random.Random(seed), actions)
    return nvm, store, game


# ---- round trips ------------------------------------------------------------------


def test_an_erased_sector_is_a_fresh_board():
    nvm = SimNVM()
    store = Store(nvm)
    assert store.load() == (None, None)
    assert store.free_bytes() == SECTOR - HEADER_SIZE
    assert nvm.writes == 0


def test_a_game_comes_back_after_a_reboot_with_its_undo_history():
    nvm, store, game = fresh(actions=40)
    store.record_settings(LIGHTS)
    again, lights = Store(nvm).load()
    assert saved(again, lights) == saved(game, LIGHTS)
    while game.journal:
        assert again.undo() == game.undo()
        assert state.encode(again) == state.encode(game)
    assert store.erases == 0 and nvm.erases == 0


def test_the_game_goes_on_being_saved_after_a_reboot():
    nvm, store, game = fresh(actions=20)
    store = Store(nvm)
    game, _ = store.load()
    play(store, game, random.Random(7), 15)
    assert reboot(nvm) == saved(game)


def test_undo_is_recorded_and_replayed():
    nvm, store, game = fresh(actions=30)
    for _ in range(3):
        game.undo()
        store.record_undo()
    assert reboot(nvm) == saved(game)
    game.peg(1, 4)
    store.record_event(game)
    assert reboot(nvm) == saved(game)
    assert len(game.journal) == 28


def test_next_game_is_recorded_and_the_match_tally_kept():
    nvm = SimNVM()
    store = Store(nvm)
    store.load()
    game = Game()
    store.record_new_game(game)
    for points in (29, 29, 29, 29, 10):
        game.peg(0, points)
        store.record_event(game)
    assert game.over
    game.next_game()
    store.record_next_game()
    assert game.journal == [] and game.games_played == 1
    game.peg(1, 6)
    store.record_event(game)
    assert reboot(nvm) == saved(game)


def test_a_new_game_object_starts_a_new_base():
    nvm, store, game = fresh(actions=10)
    game = Game(dealer=1)
    store.record_new_game(game)
    game.peg(1, 2)
    store.record_event(game)
    assert reboot(nvm) == saved(game)


def test_a_record_the_log_does_not_match_saves_the_whole_game():
    nvm, store, game = fresh(actions=10)
    game.peg(0, 2)
    game.peg(1, 3)  # two actions, one record: the store writes the game whole
    store.record_event(game)
    assert reboot(nvm) == saved(game)
    other, _ = Store(nvm).load()
    store2 = Store(nvm)
    store2.load()
    other.peg(0, 1)  # a game object the store did not load: also written whole
    store2.record_event(other)
    assert reboot(nvm) == saved(other)


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
    nvm, store, game = fresh(actions=0)
    game.peg(0, 5)
    store.record_event(game)
    base = state.to_bytes(Game())
    assert nvm[0:HEADER_SIZE] == b"CRB\x01\x00\x00"  # magic, version 1, generation 0
    start = HEADER_SIZE + 3 + len(base)
    record = bytes((len(base), BASE)) + base
    assert nvm[HEADER_SIZE:start] == record + bytes((check_byte(record, len(record)),))
    peg_record = bytes((3, EVENT, state.PEG, 0, 5))
    assert nvm[start:start + 6] == peg_record + bytes((check_byte(peg_record, 5),))
    assert nvm[start + 6] == 0xFF
    long = pack(BASE, bytes(300))
    assert long[0:3] == bytes((0x81, 0x2C, BASE)) and len(long) == 304
    assert len(pack(UNDO, b"")) == len(pack(NEXT_GAME, b"")) == 3


def test_no_check_byte_reads_erased():
    for n in range(256):
        assert check_byte(bytes((1, EVENT, n)), 3) != 0xFF
        assert check_byte(bytes((2, EVENT, n, 255 - n)), 4) != 0xFF


# ---- what the sector may hold -----------------------------------------------------


def test_an_older_log_version_starts_fresh_and_is_replaced():
    nvm, store, game = fresh(actions=10)
    nvm2 = SimNVM(b"CRB\x00" + nvm.snapshot()[4:])
    store = Store(nvm2)
    assert store.load() == (None, None)
    game = Game()
    store.record_new_game(game)
    assert store.erases == 1 and nvm2.erases == 1
    assert reboot(nvm2) == saved(game)


def test_an_older_engine_format_starts_fresh():
    base = bytearray(state.to_bytes(Game()))
    base[0] = state.FORMAT + 1
    nvm = SimNVM(header(0) + pack(SETTINGS, LIGHTS) + pack(BASE, base))
    assert Store(nvm).load() == (None, LIGHTS)


def test_junk_after_the_log_is_cleared_by_the_next_write():
    nvm, store, game = fresh(actions=12)
    image = bytearray(nvm.snapshot())
    image[3000:3004] = b"junk"
    nvm = SimNVM(image)
    store = Store(nvm)
    game, _ = store.load()
    assert store.free_bytes() == 0
    game.peg(0, 1)
    store.record_event(game)
    assert nvm.erases == 1 and nvm[3000:3004] == b"\xff" * 4
    assert reboot(nvm) == saved(game)


def test_a_refused_event_ends_the_log_there():
    nvm, store, game = fresh(actions=0)
    kept = saved(game)
    end = SECTOR - store.free_bytes()
    nvm[end:end + 6] = pack(EVENT, bytes((state.PEG, 0, 40)))  # 40 points in one peg
    store = Store(nvm)
    assert saved(*store.load()) == kept
    assert store.free_bytes() == 0  # the next write compacts past it


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=SECTOR), st.booleans())
def test_any_bytes_load_without_an_exception_and_the_board_goes_on(data, with_header):
    if with_header:
        data = (header(3) + data)[:SECTOR]
    nvm = SimNVM(data)
    store = Store(nvm)
    game, lights = store.load()
    assert game is None or isinstance(game, Game)
    kept = saved(game, lights)
    store.record_settings(b"\x09")
    assert reboot(nvm) == (kept[0], b"\x09")


@settings(max_examples=150, deadline=None)
@given(st.integers(0, SECTOR - 1), st.integers(0, 255), st.integers(0, 2 ** 32))
def test_a_damaged_byte_in_a_real_log_never_raises(where, value, seed):
    nvm, store, game = fresh(actions=60, seed=seed)
    store.record_settings(LIGHTS)
    image = bytearray(nvm.snapshot())
    image[where] = value
    nvm = SimNVM(image)
    store = Store(nvm)
    game, lights = store.load()
    kept = saved(game, lights)
    if game is not None and not game.over:
        game.peg(0, 1)
        store.record_event(game)
        kept = saved(game, lights)
    assert reboot(nvm) == kept


# ---- power cuts ---------------------------------------------------------------------


def boot(image):
    nvm = SimNVM(image)
    store = Store(nvm)
    game, _ = store.load()
    return nvm, store, game


def cut_everywhere(image, act, stops=None):
    """Boot from `image` and run `act(store, game)` with the power failing after
    each count of bytes programmed: (bytes the act programs, [(n, reboot, nvm)])."""
    nvm, store, game = boot(image)
    act(store, game)
    total = nvm.bytes_programmed
    runs = []
    for n in (range(total + 1) if stops is None else stops):
        nvm, store, game = boot(image)
        nvm.cut_after(n)
        try:
            act(store, game)
        except PowerCut:
            assert n < total
        else:
            assert n >= total
            nvm.cut_after(None)
        runs.append((n, reboot(nvm), nvm))
    return total, runs


def outcome(image, act):
    """What a reboot finds after `act` runs without a cut, and the erases it took."""
    nvm, store, game = boot(image)
    act(store, game)
    return reboot(nvm), nvm.erases


def appended(image, act):
    """The bytes `act` appends to the log."""
    nvm, store, game = boot(image)
    start = SECTOR - store.free_bytes()
    act(store, game)
    return nvm[start:SECTOR - store.free_bytes()]


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


def mid_game():
    return fresh(actions=25)[0].snapshot(), None


def game_over():
    nvm, store, game = fresh(actions=0)
    for points in (29, 29, 29, 29, 5):
        game.peg(1, points)
        store.record_event(game)
    assert game.over
    return nvm.snapshot(), None


def at_the_show():
    """A game at its first show, and the act of keying the hand shown next."""
    nvm, store, game = fresh(actions=0)
    rng = random.Random(5)
    while game.phase != SHOW:
        key_next(game, rng)
        store.record_event(game)

    def show(store, game):
        key_next(game, random.Random(6))
        store.record_event(game)
    return nvm.snapshot(), show


@pytest.mark.parametrize("setup, act", [
    (mid_game, peg), (mid_game, undo), (mid_game, lights), (mid_game, new_game),
    (game_over, next_game), (at_the_show, None)])
def test_a_cut_while_appending_leaves_the_game_before_or_after(setup, act):
    image, own_act = setup()
    act = act or own_act
    kept = reboot(SimNVM(image))
    done, erases = outcome(image, act)
    assert erases == 0 and done != kept
    total, runs = cut_everywhere(image, act)
    assert total == len(appended(image, act)) > 0
    for n, rebooted, nvm in runs:
        assert rebooted == (kept if n < total else done), n
        # The board goes on: the next write is saved, past a torn record too.
        store = Store(nvm)
        store.load()
        store.record_settings(b"\x07")
        assert reboot(nvm) == (rebooted[0], b"\x07")


def test_a_cut_while_writing_to_an_erased_sector_leaves_it_fresh_or_saved():
    total, runs = cut_everywhere(SimNVM().snapshot(), new_game)
    assert total == HEADER_SIZE + len(pack(BASE, state.to_bytes(Game())))
    for n, rebooted, _ in runs:
        assert rebooted == ((None, None) if n < total else saved(Game(dealer=1))), n


def full_log():
    """A game mid-play, then settings changed back and forth until the log has
    no room for one more peg; (image, the settings it holds)."""
    nvm, store, game = fresh(actions=30)
    blobs = (b"\x01\x01\x01", LIGHTS)
    n = 0
    while store.free_bytes() >= 6:
        n += 1
        store.record_settings(blobs[n % 2])
    assert store.erases == 0
    return nvm.snapshot(), store.load()[1]


@pytest.mark.parametrize("act", [peg, new_game])
def test_a_cut_in_a_compaction_loses_the_game_only_until_its_base_is_written(act):
    """The one loss a single sector cannot avoid: from the erase until the new
    BASE is in, a cut leaves a fresh board (the settings, written first, survive
    the BASE part). Never a wrong game."""
    image, lights_now = full_log()
    done, erases = outcome(image, act)
    assert erases == 1
    _, _, game = boot(image)
    if act is peg:
        game.peg(1, 5)
    else:
        game = Game(dealer=1)
    assert done == saved(game, lights_now)
    settings_end = HEADER_SIZE + len(pack(SETTINGS, lights_now))
    base_end = settings_end + len(pack(BASE, state.to_bytes(game)))
    # Every byte up to well past the BASE, then the rest (old bytes and erased
    # fill programmed again) every 61st byte.
    stops = list(range(base_end + 64)) + list(range(base_end + 64, SECTOR, 61)) + [SECTOR]
    total, runs = cut_everywhere(image, act, stops)
    assert total == SECTOR  # the erasing write programs the whole sector again
    for n, rebooted, nvm in runs:
        if n == 0:  # during the erase
            assert nvm.snapshot() == b"\xff" * SECTOR
        if n < settings_end:
            assert rebooted == (None, None), n
        elif n < base_end:
            assert rebooted == (None, lights_now), n
        else:
            assert rebooted == done, n


# ---- wear -----------------------------------------------------------------------------


def test_a_thousand_pegs_erase_the_sector_twice():
    """One point at a time, the players taking turns: each game is 241 pegs
    (121 to 120). A peg record is 6 bytes, so a game fills 1446 bytes: the
    first game's log stays under half the sector and its next game is a
    3-byte record; after the second the log is over half full and the next
    game compacts. 1000 pegs are 4 games and 36 pegs: 2 erases."""
    nvm = SimNVM()
    store = Store(nvm)
    store.load()
    game = Game()
    store.record_new_game(game)
    base = len(pack(BASE, state.to_bytes(game)))
    assert len(pack(EVENT, bytes((state.PEG, 0, 1)))) == 6
    assert HEADER_SIZE + base + 241 * 6 + 3 <= SECTOR // 2 < HEADER_SIZE + base + 2 * 241 * 6 + 3
    for i in range(1000):
        game.peg(i % 2, 1)
        store.record_event(game)
        if game.over:
            assert game.scores[i % 2] == 121
            game.next_game()
            store.record_next_game()
    assert store.erases == nvm.erases == 2
    next_base = len(pack(BASE, state.to_bytes(Game(dealer=1))))
    assert store.free_bytes() == SECTOR - HEADER_SIZE - next_base - 36 * 6
    assert reboot(nvm) == saved(game)


def test_a_game_longer_than_half_the_sector_keeps_its_state_not_its_undo():
    nvm, store, game = fresh(actions=0)
    for _ in range(1100):  # 1100 misdeals: 2 bytes each in the game's BASE
        game.misdeal()
        store.record_event(game)
    # A misdeal record is 4 bytes: the log fills after about a thousand, and
    # the game's BASE would then be over half the sector.
    assert store.erases == nvm.erases == 1
    again, _ = Store(nvm).load()
    assert state.encode(again) == state.encode(game)
    assert again.journal == game.journal and 0 < len(game.journal) < 100
