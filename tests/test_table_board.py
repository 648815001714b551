"""Whole hands at the table, the board's side: the lights settings surviving a reboot, a
power cut at every byte of a save, the current budget, the winner's comet and the
skunked loser's marks. Key presses on the sim board, every outcome exact, worked out
from docs/rules.md and lib/cribbage/pegs.py's documented constants.
"""

from types import SimpleNamespace

from engine import state
from cribbage.pegs import MARK, SKUNK_MARK, SKUNKED

from firmware import Table
from table_faces import BLACK, BLUE, BLUE_BACK, CLUB, RED, RED_BACK, SPADE, face


# --- 5. lights settings --------------------------------------------------------

def test_brightness_and_colour_set_survive_a_reboot():
    t = Table().keys("12A 7A 5B")
    assert t.led(0, 19) == RED and t.led(0, 12) == RED_BACK and t.led(1, 5) == BLUE
    t.keys("D 3")
    assert t.oled()[:4] == ["LIGHTS", "1 brightness 3/5", "2 colours red/blue", "* cancel  # done"]
    t.keys("1")
    # brightness 4/5 under the 0.25 cap: 255 * 0.2 = 51; the back peg 51 // 5 = 10
    assert t.oled()[1] == "1 brightness 4/5"
    assert t.led(0, 19) == (51, 0, 0) and t.led(0, 12) == (10, 0, 0)
    assert t.led(1, 5) == (0, 0, 51)
    t.keys("#")
    assert t.oled()[2] == "A deals: # starter"
    t.keys("D 3 2")
    assert t.oled()[2] == "2 colours orange/sky"
    t.keys("#")
    # orange (255, 96, 0) and sky (0, 160, 255) at 0.2: (51, 19, 0) and (0, 32, 51)
    assert t.led(0, 19) == (51, 19, 0) and t.led(0, 12) == (10, 3, 0)
    assert t.led(1, 5) == (0, 32, 51)
    assert t.board.strip_bytes(0)[18 * 3:19 * 3] == bytes((19, 51, 0))  # GRB on the wire

    again = t.reboot()
    settings = again.app.ctrl.settings
    assert (settings.brightness, settings.palette) == (4, 1)
    assert again.scores == [19, 5]
    assert again.led(0, 19) == (51, 19, 0) and again.led(0, 12) == (10, 3, 0)
    assert again.led(1, 5) == (0, 32, 51)
    again.keys("D 3")
    assert again.oled()[1:3] == ["1 brightness 4/5", "2 colours orange/sky"]


# --- 6. a power cut at every byte of a save ----------------------------------

CUT_CASES = [
    # (what is on the board, keys that only move the cursor, the key that saves,
    #  its message, the record it appends: length, kind, the bytes, check)
    ("12A 5B", "7", "A", "A+7 pegged", 6),                    # a peg: side, points
    ("12A", "# C", "D", "starter: K" + CLUB, 5),              # the starter: its card
    ("# CD", "# 6", "A", "B: 6" + SPADE, 5),                  # a card laid
    ("# CD 0A 9B 5C", "#", "#", "A: go", 4),                  # count 24: A says go
    ("# CD #", "# # 4D 5C 5B 6", "A", "B+16 hand", 11),       # a hand: claim, muggins, 4 cards
    ("12A 5B", "*", "#", "undone", 3),                        # an undo
    # the next game: its BASE, 38 bytes with statistics of none (2), here 10 more: the
    # game, the 2 sides, A's mask and its won, double-skunked and 121 typed, B's mask
    # and its double skunk suffered (docs/store.md, "The statistics in the state")
    ("29A 29A 29A 29A 5A", "#", "#", "new game: B deals", 48),
    ("12A", "D 3", "1", "", 6),                               # brightness 4: 3 settings bytes
]


def _board(image, keys):
    t = Table(nvm=image)
    t.keys(keys)
    return t


def _state(t):
    settings = t.app.ctrl.settings
    return state.to_bytes(t.game), settings.brightness, settings.palette


def test_power_cut_at_every_byte_of_a_key_save():
    for prefix, cursor, key, said, record in CUT_CASES:
        image = Table().keys(prefix).board.nvm.snapshot()
        t = _board(image, cursor)
        before = _state(t)
        nvm = t.board.nvm
        programmed, erases = nvm.bytes_programmed, nvm.erases
        t.keys(key)
        after = _state(t)
        assert t.message == said, prefix
        size = nvm.bytes_programmed - programmed
        assert nvm.erases == erases and t.app.errors == 0, prefix  # an append, no erase
        assert before != after and size == record, prefix
        assert _state(t.reboot()) == after, prefix
        for n in range(size + 1):
            t = _board(image, cursor)
            t.board.nvm.cut_after(n)
            t.keys(key)  # the save inside App.key meets the cut; the app says so
            t.board.nvm.cut_after(None)
            if n < size:
                assert t.app.errors == 1, (prefix, n)
                assert (t.message
                        == "not saved: power cut after %d of %d bytes programmed" % (n, size))
            else:
                assert t.app.errors == 0, (prefix, n)
            assert _state(t) == after, (prefix, n)  # the game in RAM went on
            booted = t.reboot()
            # A record cut short never passes its check: the action is lost whole.
            assert _state(booted) == (before if n < size else after), (prefix, n)
            # The board goes on: the next action saves (a compaction clears the torn
            # bytes) and loads again.
            booted.keys("#" if booted.game.over else "3B")
            assert booted.app.errors == 0, (prefix, n)
            assert _state(booted.reboot()) == _state(booted), (prefix, n)


def test_power_cut_in_a_compaction_loses_at_most_the_game_never_mixes_it():
    # Change the lights until the log has no room for a peg: the next peg's save
    # erases the sector and writes the header, the settings and a BASE of the game
    # (docs/store.md). A cut there may wipe the game; it never
    # garbles it. (Pegs undone fill it no more: every 15 undos the store writes a
    # BASE, so that a boot's replay stays short, and a full log compacts itself.)
    t = Table()
    while t.app.store.free_bytes() >= 6:  # a peg record (and a settings one) is 6 bytes
        t.keys("D31#")
    assert t.scores == [0, 0] and t.game.journal == []
    image = t.board.nvm.snapshot()
    lit = _state(t)
    fresh = _state(Table())
    assert lit[1:] != fresh[1:]
    t = _board(image, "1")
    erases, programmed = t.board.nvm.erases, t.board.nvm.bytes_programmed
    written = t.app.store.bytes_written
    t.keys("A")
    after = _state(t)
    assert t.scores == [1, 0] and t.board.nvm.erases == erases + 1
    assert t.board.nvm.bytes_programmed - programmed == 4096  # the whole sector again
    # The header (6), the settings record (6), then the BASE record: length, kind,
    # check (3) around the saved game: format and snapshot length (2), the 31-byte
    # snapshot of a fresh 2-player game (28, its statistics of none 2, its check 1),
    # the action count (2) and the peg (its length and 3 bytes).
    lights, used = 6 + 6, 6 + 6 + 3 + 2 + 28 + 2 + 1 + 2 + 4
    assert t.app.store.bytes_written - written == used
    for n in list(range(used + 3)) + list(range(used + 3, 4096, 211)):
        t = _board(image, "1")
        t.board.nvm.cut_after(n)
        t.keys("A")
        t.board.nvm.cut_after(None)
        assert t.app.errors == 1 and t.message.startswith("not saved: power cut"), n
        booted = t.reboot()
        found = fresh if n < lights else (fresh[0],) + lit[1:] if n < used else after
        assert _state(booted) == found, n
        booted.keys("3B")
        assert booted.app.errors == 0
        assert _state(booted.reboot()) == _state(booted), n


# --- 7. the current budget ---------------------------------------------------

def _three_player_game():
    from engine.game import Game
    from engine.rules import make_config
    game = Game(make_config(players=3))  # A deals
    for side, points in ((0, 20), (0, 10), (1, 15), (2, 7)):
        game.peg(side, points)           # A 30 (back 20), B 15, C 7
    return game


def test_a_frame_over_the_current_budget_is_scaled_down_to_it():
    from boards.sim import board as sim
    from cribbage.view import View
    from cribbage.pegs import Pegs
    from cribbage.settings import Settings

    power = SimpleNamespace(cap=1.0, budget_ma=400, full_white_ma=60, idle_ma=1, board_ma=0)
    board = sim.build(tracks=3)
    pegs = Pegs(3, board.write_strip, board.hole_map, power, board.ticks_diff)
    view = View(_three_player_game(), Settings(brightness=5), 3)
    assert view.brightness == 1.0
    view.colours = [(255, 255, 255)] * 3  # white pegs at full strength
    pegs.show(view)
    # Unscaled, channel values summed over the three tracks:
    #   A: 22 marks (3 each; 20 and 30 are pegs) 66, skunk lines 61 and 91 (12 each)
    #      24, the dealer's game hole 24, back peg 51*3 = 153, front 765: 1032
    #   B: 23 marks 69, skunk lines 24, game hole 4+3 = 7, front 765: 865
    #   C: 24 marks 72, 24, 7, front 765: 868
    units, sums = [], []
    for side in range(3):
        units.append(pegs.frame(side, 0))
        sums.append(sum((v >> 16) + (v >> 8 & 255) + (v & 255) for v in pegs.frame_buf))
    assert sums == units == [1032, 865, 868]
    # 2765 units * 60 mA / 765 = 216 mA lit, + 363 LEDs idle at 1 mA: 579 mA > 400.
    idle, lit = 3 * 121, 2765 * 60 // 765
    assert (idle, lit) == (363, 216) and idle + lit > 400
    pegs.draw(0)
    # Scaled by (400 - 363) * 256 // 216 = 43 / 256: 363 + 216 * 43 // 256 = 399 mA.
    assert pegs.milliamps == 399 and pegs.milliamps <= 400
    # The front peg 255 * 43 >> 8 = 42, the back 51 * 43 >> 8 = 8, the dealer's
    # game hole 8 * 43 >> 8 = 1; the faint marks and skunk lines scale down to nothing.
    assert board.strip_bytes(0)[29 * 3:30 * 3] == bytes((42, 42, 42))
    assert board.strip_pixels(0) == [
        (42, 42, 42) if hole == 30 else (8, 8, 8) if hole == 20 else
        (1, 1, 1) if hole == 121 else BLACK for hole in range(1, 122)]
    assert board.strip_pixels(1) == [(42, 42, 42) if hole == 15 else BLACK
                                     for hole in range(1, 122)]
    assert board.strip_pixels(2) == [(42, 42, 42) if hole == 7 else BLACK for hole in range(1, 122)]


def test_the_pico_stays_within_500_ma_at_the_highest_brightness():
    import boards.raspberry_pi_pico as pico
    assert (pico.CURRENT_BUDGET_MA, pico.BRIGHTNESS_CAP) == (500, 0.25)
    t = Table(tracks=3).keys("D 1 1 # D 3 1 1 #")
    assert t.app.ctrl.settings.brightness == 5
    t.keys("20A 10A 15B 7C")
    # 255 * 1.0 * 0.25 = 63: A (63, 0, 0) on 30, back (12, 0, 0) on 20.
    assert t.led(0, 30) == (63, 0, 0) and t.led(0, 20) == (12, 0, 0)
    assert t.led(1, 15) == (0, 0, 63) and t.led(2, 7) == (0, 63, 0)
    # Channel sums: A 66 + 24 + 24 + 12 + 63 = 189, B 69 + 24 + 7 + 63 = 163,
    # C 72 + 24 + 7 + 63 = 166; 518 * 60 // 765 = 40 mA lit + 363 idle, and the Pico's
    # 25 and the OLED's 20 (boards/raspberry_pi_pico.py's estimates): 448 mA.
    assert t.app.pegs.milliamps == 448
    # Every colour set, the pegs jumping and the winner's comet: never over 500.
    worst = 0
    for palette in range(3):
        t = Table(tracks=3).keys("D 1 1 # D 3 1 1" + " 2" * palette + " #")
        assert t.app.ctrl.settings.palette == palette
        t.keys("29B 29C 29B 29C 29A 29A 29A 29A 5")
        t.board.press("A")  # A wins: a skunk for B and C
        for _ in range(70):
            t.app.step()
            worst = max(worst, t.app.pegs.milliamps)
            t.board.clock.advance(50)
        assert t.game.over and not t.app.pegs.busy(t.board.clock.now)
    assert 400 <= worst <= 500


# --- 8. the winner's comet and the skunked loser ----------------------------

def test_winner_comet_then_the_steady_board_and_the_skunk_marks():
    t = Table().keys("29A 29A 29A 29A 5")  # A on 116
    t.board.press("A")                     # 121: A wins, B on 0 is double skunked
    start = t.board.clock.now
    frames = {}
    for ms in range(0, 3100, 50):
        t.board.clock.now = start + ms
        t.app.step()
        frames[ms] = (t.board.strip_pixels(0), t.board.strip_pixels(1))
    assert t.game.over and t.oled()[2] == "A wins double skunk!"
    steady_a = face(121, dealer=True, lit=[(116, RED_BACK), (121, RED)])
    # B finished under 61: SKUNKED every 5 holes below that line, the rest as ever.
    skunked_b = face(121, dealer=False, lit=[(h, SKUNKED) for h in range(5, 61, 5)])

    def comet(head):
        return [(h, RED) for h in range(max(1, head - 4), head + 1)]

    # 0 ms: the front peg starts its jump (116 -> 121 takes 5 * 25 = 125 ms) from
    # hole 117; the comet's head is on hole 1. The game hole still glows for A's deal.
    assert frames[0][0] == face(121, dealer=True, lit=[(116, RED_BACK), (117, RED)] + comet(1))
    # 50 ms: the peg on 117 + 4 * 50 // 125 = 118; the head on 1 + 50 * 121 // 1000 = 7.
    assert frames[50][0] == face(121, dealer=True, lit=[(116, RED_BACK), (118, RED)] + comet(7))
    # 250 ms: the peg is home; the comet (once up the track a second) on 27..31.
    assert frames[250][0] == face(121, dealer=True, lit=[(116, RED_BACK), (121, RED)] + comet(31))
    assert frames[500][0] == face(121, dealer=True, lit=[(116, RED_BACK), (121, RED)] + comet(61))
    assert frames[1000][0] == face(121, dealer=True, lit=[(116, RED_BACK), (121, RED)] + comet(1))
    # 2950 ms: 2950 * 121 // 1000 = 356, 356 % 121 = 114: the head on 115.
    assert frames[2950][0] == face(121, dealer=True, lit=[(116, RED_BACK), (121, RED)] + comet(115))
    lit_beyond = [ms for ms in range(0, 3000, 50)
                  if any(frames[ms][0][h - 1] == RED for h in range(1, 116))]
    assert lit_beyond == list(range(0, 3000, 50))  # the comet shows all 3 s
    # After 3 s: the steady frame, the front peg on the game hole.
    assert frames[3000][0] == steady_a and frames[3050][0] == steady_a
    assert t.led(0, 121) == RED and not t.app.pegs.busy(t.board.clock.now)
    for ms in frames:
        assert frames[ms][1] == skunked_b, ms  # the loser's track never moves


def test_a_skunked_loser_is_marked_below_the_skunk_line():
    t = Table().keys("29B 29B 5B 29A 29A 29A 29A 5A")  # B on 63: a single skunk
    assert t.oled()[2] == "A wins skunk!"
    t.board.clock.advance(3000)
    t.app.step()
    assert t.board.strip_pixels(1) == face(
        121, dealer=False,
        lit=[(h, SKUNKED) for h in range(5, 91, 5)] + [(58, BLUE_BACK), (63, BLUE)])
    assert t.led(1, 61) == SKUNK_MARK and t.led(1, 91) == SKUNK_MARK and t.led(1, 95) == MARK
    # Without a skunk there are no such marks.
    t = Table().keys("29B 29B 29B 29B 29A 29A 29A 29A 5A")  # B on 116
    t.board.clock.advance(3000)
    t.app.step()
    assert t.oled()[2] == "A wins!"
    assert t.board.strip_pixels(1) == face(121, dealer=False, lit=[(87, BLUE_BACK), (116, BLUE)])
