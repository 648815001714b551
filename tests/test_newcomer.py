"""What a new player meets: every refusal on the OLED, every mark its own, no cut-off text."""


from boards.sim.nvm import SimNVM
from cribbage.pegs import DEALER_MARK, GAME_MARK, MARK, SKUNK_MARK, SKUNKED
from cribbage.settings import PALETTES
from cribbage.flashread import LogReader
from cribbage.store import BASE, MAGIC, Store
from engine.game import Game

from firmware import Table

SPADE, HEART, DIAMOND, CLUB = "\x06", "\x03", "\x04", "\x05"


# --- refusals on menu pages reach the OLED, before # too ----------------------

def test_three_players_on_two_tracks_is_said_on_the_form_and_refused():
    t = Table(tracks=2).keys("D 1 1")
    assert t.oled()[0] == "2 tracks: no player C"  # said before #
    t.keys("#")
    assert t.app.ctrl.mode == "new game" and t.game.players == 2
    assert t.oled()[0] == "2 tracks: no player C"
    t.keys("1")  # 4 players: two teams fit two tracks
    assert t.oled()[0] == "NEW GAME   # start"
    t.keys("#")
    assert t.game.players == 4


def test_five_card_for_three_is_said_on_the_form():
    t = Table(tracks=3).keys("D 1 1 3")
    assert t.oled()[0] == "five-card: 2 players"
    t.keys("#")
    assert t.app.ctrl.mode == "new game" and t.message == "five-card: 2 players"


def test_the_cut_after_the_first_hand_is_said_on_the_dealer_page():
    t = Table().keys("# CD D 2")
    assert t.oled()[:4] == ["WHO DEALS", "1=A 2=B", "cut only at the start", "* back"]
    t.keys("#")
    assert t.app.ctrl.mode == "dealer"
    assert t.oled()[4:7] == ["the cut for deal", "comes before the", "first hand"]


def test_skip_this_step_goes_on_to_the_next_steps_cards():
    t = Table().keys("D 5")  # skip the starter
    assert t.app.ctrl.mode == "cards"
    assert t.oled()[2:4] == ["play: B  count 0", "lay a card  #go *back"]
    t.keys("D 5")  # skip the play
    assert t.oled()[2:4] == ["show: B hand", "key the starter first"]


# --- a finished game is not lost to one key --------------------------------

def test_hash_after_the_win_asks_first_and_the_game_can_still_be_undone():
    t = Table().keys("29A 29A 29A 29A 5A")
    assert t.game.over and t.oled()[3] == "# next game  *undo"
    t.keys("#")
    assert t.oled()[3] == "next game? # yes *no" and t.game.over
    t.keys("5")  # only # and * answer: a digit is not taken for either
    assert t.oled()[3:5] == ["next game? # yes *no", "# for yes, * for no"]
    assert t.app.ctrl.mode == "next game?" and t.game.over and t.scores == [121, 0]
    t.keys("*")  # no: the finished game stays
    assert t.message == "kept" and t.game.over and t.scores == [121, 0]
    t.keys("* #")  # and its last peg can be taken back
    assert not t.game.over and t.scores == [116, 0]


# --- the skunk marks are a colour no player has ------------------------------

def _hue(rgb):
    top = max(rgb)
    return tuple(round(c / top, 2) for c in rgb)


def test_skunk_marks_are_no_players_colour():
    player_hues = {_hue(rgb) for palette in PALETTES for rgb in palette}
    for mark in (SKUNK_MARK, SKUNKED):
        assert _hue(mark) not in player_hues
    assert len({MARK, SKUNK_MARK, GAME_MARK, DEALER_MARK, SKUNKED}) == 5


def test_after_a_skunk_the_losers_marks_are_white_not_a_players_red():
    t = Table().keys("29A 29A 29A 29A 5A")
    t.board.clock.advance(5000)
    t.app.step()
    assert t.led(1, 5) == SKUNKED == (24, 24, 24) and t.led(1, 55) == SKUNKED
    assert t.led(0, 5) == MARK


# --- words on the OLED -------------------------------------------------------

def test_a_go_is_said_for_every_player():
    t = Table().keys("# CD 0A 9B 5C")  # B 10S, A 9H, B 5D: 24
    t.keys("#")  # A cannot lay (its cards are over 7): A's go, no point yet
    assert t.message == "A: go"
    t.keys("#")
    assert t.message == "B: go  B+1 go"


def test_the_undo_prompt_says_what_it_takes_back():
    assert Table().keys("12A *").oled()[3] == "undo A+12? # yes"
    # In card entry the first * goes back to the scoreboard, the next offers the undo.
    assert Table().keys("# CD * *").oled()[3] == "undo the K" + CLUB + "? # yes"
    assert Table().keys("# CD 6A * *").oled()[3] == "undo 6" + SPADE + " laid? # yes"
    assert Table().keys("# CD # # 4D 5C 5B 6A * *").oled()[3] == "undo the count? # yes"
    assert Table().keys("D 6 *").oled()[3] == "undo misdeal? # yes"


def test_whose_points_names_every_players_key():
    assert Table().keys("12 #").message == "whose 12? press A or B"
    assert Table(tracks=3).keys("D 1 1 # 12 #").message == "whose 12? press A, B or C"


def test_a_two_digit_muggins_prompt_fits_the_row():
    t = Table().keys("D 1 4 # # 5A # 2 # 5B 5C 5D AA")  # 5s and J: 29 with the 5S starter
    assert t.oled()[3] == "A takes 27? # yes *no"
    assert len(t.oled()[3]) <= 21


# --- caps by hand size: seven-card and shotgun hands go past 29 -----------------

def test_seven_card_and_shotgun_peg_and_claim_what_their_hands_can_make():
    t = Table().keys("D 1 3 3 #")  # seven-card: five-card hands, the most 46
    assert t.game.config.variant == 2 and t.game.limits.max_peg == 46
    t.keys("46A")
    assert t.scores == [46, 0]
    t.keys("47")
    assert t.message == "47? a score is 1 to 46"
    t.keys("# CD # 3 0")  # B's hand: a claim of 30 is one a five-card hand can make
    assert t.oled()[3] == "claim 30 # ok *fix"
    t.keys("* * 3 5")  # 35: no five-card hand and a starter makes it
    assert t.message == "35 is impossible: no hand makes it"
    t = Table().keys("D 1 3 3 3 #")  # shotgun: six-card hands, the most 72
    t.keys("72B")
    assert t.scores == [0, 72]
    t.keys("73")
    assert t.message == "73? a score is 1 to 72"


def test_a_standard_claim_over_29_is_refused_with_the_most_a_hand_makes():
    t = Table().keys("# CD # 3 0")
    assert t.message == "30 is impossible: the most is 29"


# --- a game under way is not thrown away by two keys ---------------------------

REPLACE_12_5 = ["NEW GAME?", "12-5 is lost", "# yes  * no", "(then * # undoes it)"]


def test_a_new_game_asks_first_when_a_game_is_under_way():
    t = Table().keys("12A 5B D 1 #")
    assert t.oled() == REPLACE_12_5 + ["", "", "", ""]
    t.keys("5")  # only # and * answer
    assert t.oled() == REPLACE_12_5 + ["# for yes, * for no", "", "", ""]
    assert t.app.ctrl.mode == "replace?" and t.scores == [12, 5]
    t.keys("*")  # no: the game stays, on the scoreboard
    assert t.oled()[3:5] == ["pts+A/B #step D menu", "kept"] and t.scores == [12, 5]
    t.keys("D 1 # #")  # yes
    assert t.scores == [0, 0] and not t.game.journal and t.message == "new game: A deals"


def test_a_new_game_on_a_fresh_board_starts_at_once():
    t = Table().keys("D 1 2 #")  # nothing under way: nothing to lose
    assert t.app.ctrl.mode == "home" and t.game.config.target == 61


def test_a_new_match_asks_with_the_games_won():
    t = Table().keys("D 1 2 7 7 #")  # 61 holes, a match of 5: nothing under way yet
    assert t.game.config.match_games == 5
    t.keys("29B 29B 29A 29A 5A #  #")  # A wins the first game, the second begins
    assert t.game.tally == [1, 0] and t.scores == [0, 0] and not t.game.journal
    t.keys("D 1 #")
    assert t.oled()[:5] == ["NEW MATCH?", "0-0 is lost", "and games won 1-0", "# yes  * no",
                            "(then * # undoes it)"]


def test_undo_right_after_a_new_game_brings_the_old_one_back():
    t = Table().keys("12A 5B D 1 # #")
    t.keys("*")
    assert t.oled()[3] == "undo new game? # yes"
    t.keys("#")
    assert t.scores == [12, 5] and t.oled()[3:5] == ["pts+A/B #step D menu", "game back: 12-5"]
    t.keys("* #")  # its own undo history came back with it
    assert t.scores == [12, 0]


def test_the_old_game_comes_back_after_a_reboot_and_stays_back():
    t = Table().keys("12A 5B D 1 # #").reboot()
    assert t.scores == [0, 0]
    t.keys("D 4")  # the menu's undo is the same
    assert t.oled()[3] == "undo new game? # yes"
    t.keys("#")
    assert t.scores == [12, 5] and t.message == "game back: 12-5"
    t = t.reboot()
    assert t.scores == [12, 5] and len(t.game.journal) == 2
    t.keys("* #")
    assert t.scores == [12, 0]


def _bases(t):
    return [kind for kind, _ in LogReader(t.board.nvm, MAGIC).read()].count(BASE)


def test_a_game_saved_whole_again_is_not_taken_for_the_game_before():
    # Many undos make the store save the game whole again (a BASE) mid-game, in
    # the old game and in the new: neither is taken for the game before.
    t = Table().keys("12A " + "1B * # " * 20 + "5B")
    assert _bases(t) >= 2 and t.scores == [12, 5]  # the start, and saved whole again
    t.keys("D 1 # # 7A " + "1A * # " * 20)
    assert _bases(t) >= 4 and t.scores == [7, 0]
    t.keys("* # * #")  # the 7 taken back, then the new game itself
    assert t.scores == [12, 5] and t.message == "game back: 12-5"


def test_undo_after_the_next_game_brings_the_finished_game_back():
    t = Table().keys("29A 29A 29A 29A 5A # #")
    assert not t.game.over and t.scores == [0, 0]
    t.keys("* #")
    assert t.game.over and t.scores == [121, 0] and t.message == "game back: 121-0"


def test_undo_of_the_first_game_says_there_is_none_before_it():
    t = Table().keys("* #")
    assert t.oled()[3:7] == ["pts+A/B #step D menu", "nothing to undo: no",
                             "game before this one", ""]
    assert t.scores == [0, 0]


def _a_nearly_full_flash():
    """A 12-5 game whose log leaves under the room a game's start keeps:
    the new game after it compacts the sector."""
    nvm = SimNVM()
    store = Store(nvm)
    store.load()
    game = Game()
    store.record_new_game(game)
    while store.free_bytes() >= store.room():
        game.misdeal()
        store.record_event(game, game.journal[-1])
    for side, points in ((0, 12), (1, 5)):
        game.peg(side, points)
        store.record_event(game, game.journal[-1])
    return nvm.snapshot()


def test_undo_of_a_new_game_says_when_a_compaction_dropped_the_old_one():
    t = Table(nvm=_a_nearly_full_flash())
    assert t.scores == [12, 5]
    t.keys("D 1 # #")
    assert t.board.nvm.erases == 1 and t.scores == [0, 0]  # the new game's start compacted
    t.keys("* #")
    assert t.oled()[3:7] == ["pts+A/B #step D menu", "the game before is", "gone: erased to make",
                             "room in the flash"]
    assert t.scores == [0, 0]
    t = t.reboot()
    assert t.scores == [0, 0]


def test_undo_of_a_new_game_says_when_the_old_one_cannot_be_read():
    image = bytearray(Table().keys("12A 5B D 1 # #").nvm_image())
    assert image[7] & 7 == BASE  # the first record, the old game's BASE: its tag
    image[10] ^= 1
    image[12] ^= 1  # two bits flipped in it: it cannot be read through
    t = Table(nvm=bytes(image))
    assert t.scores == [0, 0]  # the new game is the last BASE: it loads
    t.keys("* #")
    assert t.oled()[3:7] == ["pts+A/B #step D menu", "the game before", "cannot be read from",
                             "the flash"]
    assert t.scores == [0, 0]


# --- the start's notices go with the first key ---------------------------------

def test_the_no_saved_game_notice_goes_with_the_next_key():
    t = Table()
    assert t.oled()[3:6] == ["pts+A/B #step D menu", "no saved game: new", "game"]
    t.keys("1")
    assert t.oled()[3:7] == ["1: then A/B  *clr", "", "", ""]


# --- a menu page's * leaves its changes undone, done keeps them ------------------

def test_star_on_the_lights_page_puts_the_lights_back_and_done_keeps_them():
    t = Table().keys("5A")
    lit = t.led(0, 5)
    t.keys("D 3 1 2")
    assert t.oled()[:4] == ["LIGHTS", "1 brightness 4/5", "2 colours orange/sky",
                            "* cancel  # done"]
    assert t.led(0, 5) != lit
    t.keys("*")  # cancel: back to the menu, the lights as they were
    assert t.oled()[0] == "MENU  8 stats  * back" and t.led(0, 5) == lit
    assert t.reboot().app.ctrl.settings.to_bytes() == bytes((1, 3, 0))
    t.keys("3 1 #")  # done: kept
    assert t.app.ctrl.mode == "home" and t.led(0, 5) != lit
    assert t.reboot().app.ctrl.settings.to_bytes() == bytes((1, 4, 0))


# --- the show's words: the crib named, the board's count offered, pairs royal ---------

README_PLAY = "# CD 6A 9A 9D 7D CB BB 4C # 8B # #"  # README's hand, up to the crib's claim


def test_a_crib_claimed_too_high_is_refused_naming_the_crib():
    t = Table().keys(README_PLAY + " 2 8 # 5B 5C AD 0C")  # the crib makes 15
    assert t.oled() == ["10  7", "A+5*      B+4       ", "show: A crib", "claim? #board counts",
                        "28 is too high: the", "crib makes 15", ""]
    t.keys("1 5 #")  # the claim again, right this time: the cards are still keyed
    assert t.scores == [25, 7] and t.message == "A+15 crib"


def test_the_claim_prompt_says_hash_lets_the_board_count():
    t = Table().keys("# CD #")  # the play skipped: B's hand, at the claim step
    assert t.oled()[2:4] == ["show: B hand", "claim? #board counts"]
    t.keys("# 4D 5C 5B 6A")  # no claim: the board counts 16
    assert t.scores == [0, 16] and t.message == "B+16 hand"


def _scrolled_until(t, last_row):
    """The detail's rows once the breakdown has scrolled to ``last_row`` (the clock driven)."""
    for _ in range(30):
        if t.oled()[6] == last_row:
            return t.oled()[4:7]
        t.board.clock.advance(1500)  # cribbage.view.SCROLL_MS: a line a step
        t.app.step()
    raise AssertionError("never scrolled to %r" % last_row)


def test_a_pair_royal_and_a_double_pair_royal_are_said_so_in_the_show():
    t = Table().keys("# CD # # 5B 5C 5D 6A")  # B's 5H 5D 5C 6S and the starter KC
    assert t.app.ctrl.detail[-2:] == [
        "total 14",
        "fifteen two, fifteen four, fifteen six, fifteen eight, a pair royal is fourteen"]
    assert _scrolled_until(t, "royal is fourteen") == [
        "B+14 hand", "fifteen eight, a pair", "royal is fourteen"]
    t = Table().keys("# CD # # 5B 5C 5D 5A")  # four fives
    assert t.app.ctrl.detail[-1] == (
        "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
        "fifteen fourteen, fifteen sixteen, a double pair royal is twenty-eight")
    assert _scrolled_until(t, "twenty-eight") == ["B+28 hand", "pair royal is", "twenty-eight"]


# --- a peg-out shows the game hole, as a wooden board does ------------------------------

def test_a_peg_out_shows_121_in_big_digits_and_the_last_peg_in_full():
    t = Table().keys("29A 29A 29A 29A 9A")  # 116 + 9: 4 past the game hole
    assert t.scores == [125, 0] and t.led(0, 121) != (0, 0, 0)
    assert t.oled()[:5] == ["121  0", "A+9*      B+0       ", "A wins double skunk!",
                            "# next game  *undo", "A+9 pegged"]
    t.keys("* #")  # undone: the game goes on, at 116
    assert t.oled()[0] == "116  0"
    t = Table(tracks=3).keys("D 1 1 # 29C 29C 29C 29C 29C")  # three players: 145 for C
    assert t.oled()[0] == "0  0  121" and t.message == "C+29 pegged"
