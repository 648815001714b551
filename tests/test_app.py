"""The firmware at the table: key presses on the sim board, exact outcomes."""

from engine.game import OVER, PLAY, SHOW, STARTER
from cribbage.pegs import DEALER_MARK, GAME_MARK, MARK, SKUNK_MARK

from firmware import Table

RED = (38, 0, 0)      # player A's front peg: (255, 0, 0) at brightness 3/5 under a 0.25 cap
RED_BACK = (7, 0, 0)  # a fifth of it
BLUE = (0, 0, 38)
BLUE_BACK = (0, 0, 7)


def test_fresh_board_is_ready_to_peg():
    t = Table()
    assert t.scores == [0, 0]
    assert t.game.dealer == 0 and t.game.phase == STARTER
    assert t.oled()[:4] == ["0  0", "A+0*      B+0       ", "A deals: # starter",
                            "pts+A/B #step D menu"]
    strip = t.board.strip_pixels(0)
    assert strip[4] == MARK and strip[9] == MARK and strip[0] == (0, 0, 0)
    assert strip[60] == SKUNK_MARK and strip[90] == SKUNK_MARK
    assert strip[120] == DEALER_MARK  # A deals: A's game hole glows
    assert t.board.strip_pixels(1)[120] == GAME_MARK


def test_points_then_player_key_peg_and_bytes_on_the_wire():
    t = Table().keys("12B")
    assert t.scores == [0, 12]
    assert t.led(1, 12) == BLUE
    wire = t.board.strip_bytes(1)
    assert len(wire) == 363
    assert wire[11 * 3:11 * 3 + 3] == bytes((0, 0, 38))  # GRB on the wire
    assert t.oled()[0] == "0  12"
    assert t.oled()[1] == "A+0*      B+12      "
    t.keys("5B")
    assert t.scores == [0, 17]
    assert t.led(1, 17) == BLUE and t.led(1, 12) == BLUE_BACK
    assert t.led(1, 5) == MARK
    assert t.oled()[1] == "A+0*      B+5       "


def test_strip_written_only_on_change():
    t = Table()
    writes = t.board.strip_writes(0)
    t.keys("3B")
    assert t.board.strip_writes(0) == writes  # track A did not change
    assert t.board.strip_pixels(1)[2] == BLUE


def test_bad_points_change_nothing():
    t = Table().keys("7A")
    before = t.board.strip_bytes(0)
    t.keys("30")
    assert "30? a score is 1 to 29" in t.message
    t.keys("5C")
    assert t.message == "no player C in this game"
    t.keys("A")
    assert t.message == "type the points first, then A"
    assert t.scores == [7, 0] and t.board.strip_bytes(0) == before


def test_star_clears_then_offers_undo():
    t = Table().keys("12A 5B 9")
    t.keys("*")
    assert t.app.ctrl.here == ""
    t.keys("*")
    assert t.oled()[3] == "undo B+5? # yes"  # what the undo takes back
    t.keys("1")
    assert t.message == "kept" and t.scores == [12, 5]
    t.keys("* #")
    assert t.scores == [12, 0] and t.message == "undone"
    t.keys("* #")
    assert t.scores == [0, 0]
    assert t.led(0, 12) == (0, 0, 0)


def test_power_cut_resumes_with_undo_history():
    t = Table().keys("12A 5B 7A")
    again = t.reboot()
    assert again.scores == [19, 5]
    assert again.game.backs == [12, 0]
    assert again.led(0, 19) == RED and again.led(0, 12) == RED_BACK
    again.keys("* #")
    assert again.scores == [12, 5]


def test_game_ends_at_the_target_and_later_pegs_are_refused():
    t = Table().keys("29A 29A 29A 29A 5A")
    assert t.game.phase == OVER and t.scores == [121, 0]
    assert t.oled()[2] == "A wins double skunk!"
    t.keys("5B")
    assert "game is over" in t.message and t.scores == [121, 0]
    assert t.led(0, 121) == RED


def test_keyed_reference_hand_is_counted_for_the_pone():
    # starter K clubs; skip the play; pone (B) keys 4C 5D 5H 6S: 16.
    t = Table().keys("# CD")
    assert t.game.starter == 51 and t.game.phase == PLAY
    t.keys("#")
    assert t.game.phase == SHOW and t.game.showing() == (1, False)
    t.keys("# 4D 5C 5B 6A")
    assert t.scores == [0, 16]
    assert t.game.showing() == (0, False)  # the dealer's hand next
    assert t.oled()[4] == "B+16 hand"


def test_jack_starter_pegs_heels_and_can_win():
    t = Table().keys("29A 29A 29A 29A 3A")  # A deals, on 119
    t.keys("# AB")                           # J hearts
    assert t.scores == [121, 0] and t.game.phase == OVER
    assert t.oled()[2] == "A wins double skunk!"


def test_pone_wins_before_the_dealer_counts():
    t = Table().keys("29B 29B 29B 29B").keys("# CD # # 4D 5C 5B 6A")
    assert t.scores == [0, 132] and t.game.winner == 1
    assert t.game.phase == OVER and t.game.showing() is None  # the dealer never counts
    t.keys("9A")
    assert "game is over" in t.message and t.scores == [0, 132]
    t.keys("#")  # a finished game is not left by one key
    assert t.oled()[3] == "next game? # yes *no" and t.scores == [0, 132]
    t.keys("#")  # the next game: the loser deals
    assert t.scores == [0, 0] and t.game.dealer == 0


def test_card_already_seen_is_refused():
    t = Table().keys("# 5B # #")  # starter 5 hearts, no play, claim skipped
    t.keys("5B")
    assert t.message == "5\x03 is already out this deal (the starter)"  # the rule says where
    assert t.app.ctrl.here.cards == []


def test_impossible_claim_is_refused_as_it_is_keyed_then_real_count_pegged():
    t = Table().keys("# CD # 1")
    assert t.oled()[3] == "claim 1 # ok *fix"
    t.keys("9")  # 19: no four cards and a starter make it
    assert t.message == "19 is impossible: no hand makes it"
    assert t.oled()[3] == "claim? #board counts" and t.scores == [0, 0]
    t.keys("#")  # no claim: the board's count
    assert t.oled()[3] == "key 4 cards  #skip"
    t.keys("4D 5C 5B 6A")
    assert t.scores == [0, 16]


def test_a_claim_over_any_hand_is_refused_as_it_is_keyed():
    t = Table().keys("# CD # 3 0")
    assert t.message == "30 is impossible: the most is 29"
    t.keys("2 9 1")
    assert t.message == "291 is impossible: the most is 29"
    assert t.app.ctrl.here.claim == ""


def test_a_card_key_after_a_claim_waits_for_hash():
    # "5 B" meant as 5H at the claim step: the B is refused, not read as a queen.
    t = Table().keys("# CD #")  # the play skipped: B's hand, at the claim step
    t.keys("5 B")  # claim 5, then what looks like a suit
    assert t.message == "claim 5? # first, then the cards"
    assert t.app.ctrl.here.claim == "5" and t.app.ctrl.here.cards == []
    t.keys("C")
    assert t.message == "claim 5? # first, then the cards"
    t.keys("* C")
    assert t.message == "# first, then the cards"
    t.keys("# 5B")  # now a card: 5 hearts
    assert t.app.ctrl.here.cards == [17]


def test_claim_too_high_shows_the_real_count():
    t = Table().keys("# CD # 20 # 4D 5C 5B 6A")
    assert t.message == "20 is too high: the hand makes 16"
    assert t.scores == [0, 0]


def test_muggins_taken_and_declined():
    t = Table().keys("D 1 4 #")  # muggins on
    assert t.game.config.muggins
    t.keys("# CD # 10 # 4D 5C 5B 6A")
    assert t.oled()[3] == "A takes 6? # yes *no"
    t.keys("#")
    assert t.scores == [6, 10]
    # The dealer (A) claims 8 of 5S 5C 6D JH (10 with the king): B declines.
    t.keys("8 # 5A 5D 6C AB")
    assert t.oled()[3] == "B takes 2? # yes *no"
    t.keys("*")
    assert t.scores == [14, 10]


def test_without_muggins_a_low_claim_is_corrected():
    t = Table().keys("# CD # 10 # 4D 5C 5B 6A")
    assert t.scores == [0, 16]


def test_play_with_go_thirty_one_and_last_card_two_players():
    # A deals, B leads: 6S(B) 9S(A: 15 for 2) 9C(B: pair 2) 7C(A: 31 for 2);
    # B leads again: KH(B) QH(A) 4D(B) = 24; A's 8H would make 32: A says go,
    # B has no cards: B pegs 1 for the go; A lays 8H alone: 1 for the last card.
    t = Table().keys("# 2A")
    t.keys("6A 9A 9D 7D")
    assert t.scores == [4, 2]
    assert t.game.play.count == 0 and t.game.play.turn == 1
    t.keys("CB BB 4C")
    assert t.game.play.count == 24
    t.keys("8B")
    # the OLED names cards with glyphs
    assert t.message == "8\x03 makes the count 32; the limit is 31"
    t.keys("#")
    assert t.scores == [4, 3] and t.message == "A: go  B+1 go"
    assert t.game.play.turn == 0 and t.game.play.count == 0
    t.keys("8B")
    assert t.scores == [5, 3] and t.message == "A: 8\x03  A+1 last card"
    assert t.game.phase == SHOW and t.game.showing() == (1, False)
    assert t.oled()[2] == "show: B hand"
    assert t.app.ctrl.here.cards == [20, 35, 49, 14]  # B's 6S 9C KH 4D, remembered


def test_three_players_play_and_show_order():
    t = Table(tracks=3).keys("D 1 1 #")
    assert t.game.players == 3
    assert t.game.show_order() == [(1, False), (2, False), (0, False), (0, True)]
    t.keys("# 2A 5A 0A")  # B leads 5, C lays 10: fifteen for C
    assert t.scores == [0, 0, 2]
    assert t.game.play.turn == 0
    assert t.led(2, 2) == (0, 38, 0)


def test_partnership_game_scores_by_team():
    t = Table().keys("D 1 1 1 #")
    assert t.game.players == 4 and t.game.sides == 2
    t.keys("# 2A 5A 0A")  # seat 1 (B1) leads 5, seat 2 (A2) makes 15
    assert t.scores == [2, 0]
    assert t.oled()[2] == "play: B2  count 15"


def test_five_card_game_pone_starts_with_three():
    t = Table().keys("D 1 3 #")
    assert t.game.config.target == 61 and t.scores == [0, 3]
    assert t.led(1, 3) == BLUE
    assert t.board.strip_pixels(1)[30] == SKUNK_MARK  # hole 31: a 61-hole game's line
    assert t.board.strip_pixels(1)[60] == GAME_MARK


def test_skunked_match_of_three():
    t = Table().keys("D 1 7 #")
    assert t.game.config.match_games == 3
    t.keys("29A 29A 29A 29A 5")
    t.board.press("A")
    t.app.step()
    t.board.clock.advance(5000)  # past a game's celebration, not the match's
    t.app.step()
    assert t.app.pegs.busy(t.board.clock.ticks_ms())
    t.board.clock.advance(5000)
    t.app.step()
    assert not t.app.pegs.busy(t.board.clock.ticks_ms())
    assert t.led(0, 121) == RED and t.led(0, 59) == (0, 0, 0)  # the comet is gone
    assert t.game.tally == [4, 0] and t.game.match_winner() == 0
    assert t.oled()[1] == "A+5*    B+0       4-0"  # cells of 8, the tally at the end
    assert t.oled()[2] == "A wins double skunk!"
    assert t.oled()[3] == "match to A! #new"
    t.keys("#")
    assert t.oled()[3] == "new match? # yes *no"
    t.keys("#")
    assert t.game.tally == [0, 0] and t.scores == [0, 0]
    assert t.game.dealer == 1  # the loser deals first


def test_readme_walkthrough_a_hand_at_the_table():
    """The key presses of README's "A hand at the table", step by step."""
    t = Table()
    steps = [
        ("#", [0, 0], "A deals: # starter"),
        ("CD", [0, 0], "play: B  count 0"),        # starter K clubs
        ("6A", [0, 0], "play: A  count 6"),
        ("9A", [2, 0], "play: B  count 15"),       # fifteen two for A
        ("9D", [2, 2], "play: A  count 24"),       # a pair for B
        ("7D", [4, 2], "play: B  count 0"),        # 31 for two
        ("CB", [4, 2], "play: A  count 10"),
        ("BB", [4, 2], "play: B  count 20"),
        ("4C", [4, 2], "play: A  count 24"),
        ("#", [4, 3], "play: A  count 0"),         # A says go: one for B
        ("8B", [5, 3], "show: B hand"),            # one for the last card
        ("#", [5, 7], "show: A hand"),             # B's 6 9 K 4 + K: 4
        ("#", [10, 7], "show: A crib"),            # A's 9 7 Q 8 + K: 5
        ("#", [10, 7], "show: A crib"),
        ("5B 5C AD 0C", [25, 7], "B deals: # starter"),  # the crib: 15
    ]
    for keys, scores, status in steps:
        t.keys(keys)
        assert (t.scores, t.oled()[2]) == (scores, status), keys
    assert t.oled()[4:] == ["A+15 crib", "15 5\x03 10\x04 =2", "15 5\x04 10\x04 =2"]


def test_counters_stop_at_a_byte_instead_of_breaking_the_save():
    from engine import state
    from engine.game import Game
    game = Game()
    for _ in range(300):  # deals passed with '#' only
        for _ in range(1 + len(game.show_order()) + 1):
            game.advance()
    assert game.hand_no == 255
    assert state.from_bytes(Game, state.to_bytes(game)).hand_no == 255
    for _ in range(260):
        for _ in range(5):
            game.peg(0, 29)
        game.next_game()
    assert game.games_played == 255
    assert Game().load(state.encode(game)) is None


def test_a_failing_strip_is_reported_and_the_loop_goes_on():
    t = Table()

    def broken(buffer):
        raise OSError("strip data line stuck")

    for strip in t.board.tracks:  # the hardware fails under the driver, not our logic
        strip._transmit = broken
    t.keys("12A")
    assert t.scores == [12, 0]  # the peg is kept
    assert t.oled()[4:6] == ["error: strip data", "line stuck"]
    for strip in t.board.tracks:
        del strip._transmit  # the driver's own again
    t.keys("3B")
    assert t.scores == [12, 3] and t.led(0, 12) == RED  # redrawn once it works again
    assert t.app.errors == 2  # the redraw after 12A and its settling pass


def test_messages_wrap_at_spaces():
    from cribbage.words import wrap
    assert wrap("10S makes the count 34; the limit is 31") == [
        "10S makes the count", "34; the limit is 31"]
    assert wrap("x" * 25) == ["x" * 21, "xxxx"]
    assert wrap("") == []


def test_oled_panel_ram_matches_the_drawn_buffer_after_partial_updates():
    # Only changed pages are sent, in runs; the panel must end up with the buffer.
    t = Table().keys("12A 5B # CD 6A 9A *")
    t.keys("3B * 1")
    frame = t.board.oled_frame()
    assert frame == bytes(t.board.display.window(0, 7))
    assert any(frame)


def test_three_player_prompt_names_all_three_keys():
    t = Table(tracks=3).keys("D 1 1 #")
    assert t.oled()[3] == "pts+A-C #step D menu"
    t.keys("7C")
    assert t.scores == [0, 0, 7] and t.led(2, 7) == (0, 38, 0)


def test_animations_end_across_the_clock_wrap():
    t = Table()
    assert t.board.ticks_diff(5, (1 << 29) - 10) == 15
    t.board.clock.advance((1 << 29) - 2100)  # supervisor.ticks_ms() wraps during the A
    t.keys("12A")  # the peg jumps across the wrap
    assert t.board.clock.ticks_ms() < 3000  # wrapped
    assert not t.app.pegs.busy(t.board.clock.ticks_ms())
    assert t.led(0, 12) == RED and t.led(0, 11) == (0, 0, 0)

