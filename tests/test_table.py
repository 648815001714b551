"""Whole hands at the table: key presses on the sim board, every outcome exact.

Expected scores, counts, OLED lines and LED bytes are worked out from docs/rules.md
(and the colour/brightness arithmetic of lib/pegs.py's documented constants),
step by step in the comments, not read back from the firmware. The board's side (the
lights, power cuts, the current budget, the winner's comet): tests/test_table_board.py.
"""

from engine.game import PLAY, SHOW, STARTER
from engine.play import NOBODY
from cribbage.pegs import GAME_MARK, MARK, SKUNK_MARK

from firmware import SETTLE_MS, Table
from table_faces import (BLACK, BLUE, BLUE_BACK, CLUB, DIAMOND, GREEN, GREEN_BACK, HEART, RED,
                         RED_BACK, SPADE, face)


# --- 1. three players: go, 31, go point, reset, last card ------------------

def test_three_player_play_by_key_presses():
    t = Table(tracks=3).keys("D 1 1 #")
    assert t.game.players == 3 and t.game.dealer == 0
    assert t.oled()[2] == "A deals: # starter"
    t.keys("# CD")  # the starter: K clubs; B (the dealer's left) leads
    assert t.game.phase == PLAY and t.game.starter == 51
    # Hands: A 9D 8S 4C 3H, B 10S 7H 9C QD, C KH 2C 6D 10D.
    steps = [
        # keys, scores [A, B, C], turn, count, status
        ("0A", [0, 0, 0], 2, 10, "play: C  count 10"),   # B 10S
        ("CB", [0, 0, 0], 0, 20, "play: A  count 20"),   # C KH
        ("9C", [0, 0, 0], 1, 29, "play: B  count 29"),   # A 9D
        ("#", [0, 0, 0], 2, 29, "play: C  count 29", "B: go"),  # B (9C QD) cannot: no point
        # C keeps playing: 2C makes 31, two for C and no go point; the count resets
        # and the seat after C (A) leads.
        ("2D", [0, 0, 2], 0, 0, "play: A  count 0", "C: 2" + CLUB + "  C+2 thirty-one"),
        ("8A", [0, 0, 2], 1, 8, "play: B  count 8"),     # A 8S
        ("7B", [0, 2, 2], 2, 15, "play: C  count 15"),   # B 7H: fifteen two
        ("6C", [0, 2, 5], 0, 21, "play: A  count 21"),   # C 6D: run 8-7-6 for 3
        ("4D", [0, 2, 5], 1, 25, "play: B  count 25"),   # A 4C: nothing
        ("#", [0, 2, 5], 2, 25, "play: C  count 25"),    # B (9C QD): go
        ("#", [0, 2, 5], 0, 25, "play: A  count 25"),    # C (10D): go
        # A plays on alone: 3H makes 28, A's last card; nobody can lay, so the go
        # point is A's (the last to lay) and B, the seat after A, leads.
        ("3B", [1, 2, 5], 1, 0, "play: B  count 0", "A: 3" + HEART + "  A+1 go"),
        ("9D", [1, 2, 5], 2, 9, "play: C  count 9"),     # B 9C
        ("0C", [1, 2, 5], 1, 19, "play: B  count 19"),   # C 10D; A has no cards
        # B's QD is the very last card: one for last; the shows begin with B.
        ("BC", [1, 3, 5], NOBODY, 0, "show: B hand"),
    ]
    for step in steps:
        keys, scores, turn, count, status = step[:5]
        t.keys(keys)
        if len(step) > 5:
            assert t.message == step[5], keys
        assert t.scores == scores, keys
        assert t.game.play.turn == turn, keys
        assert t.game.play.count == count, keys
        assert t.oled()[2] == status, keys
    assert t.game.phase == SHOW
    assert t.message == "B: Q" + DIAMOND + "  B+1 last card"
    # card = (rank - 1) * 4 + suit (S H D C): 9D 8S 4C 3H | 10S 7H 9C QD | KH 2C 6D 10D
    assert t.game.play.laid == [[34, 28, 15, 9], [36, 25, 35, 46], [49, 7, 22, 38]]
    # Three tracks: A on 1; B on 3 (back 2); C on 5 (back 2), in red, blue, green.
    assert t.led(0, 1) == RED
    assert (t.led(1, 2), t.led(1, 3)) == (BLUE_BACK, BLUE)
    assert (t.led(2, 2), t.led(2, 5)) == (GREEN_BACK, GREEN)


# --- 2. partnerships ---------------------------------------------------------

def test_partnership_hand_show_order_and_team_scores():
    t = Table().keys("D 1 1 1 #")
    game = t.game
    assert game.players == 4 and game.sides == 2 and game.dealer == 0
    # Seats clockwise A1 B1 A2 B2; A1 deals: B1, A2, B2, A1, then A1's crib.
    assert game.show_order() == [(1, False), (2, False), (3, False), (0, False), (0, True)]
    assert t.oled()[2] == "A1 deals: # starter"
    t.keys("# CA")  # the starter: K spades
    assert t.oled()[2] == "play: B1  count 0"
    # Hands: A1 5D 7S 2D 9S, B1 5H 6S 10D KH, A2 10S 9H 6C QC, B2 5C 8C 3H 4H.
    steps = [
        # keys, team scores [A, B], status after
        ("5B", [0, 0], "play: A2  count 5"),     # B1 5H
        ("0A", [2, 0], "play: B2  count 15"),    # A2 10S: fifteen two for A
        ("5D", [2, 0], "play: A1  count 20"),    # B2 5C
        ("5C", [4, 0], "play: B1  count 25"),    # A1 5D: a pair for A
        ("6A", [4, 2], "play: A2  count 0"),     # B1 6S: 31 for two; A2 leads
        ("9B", [4, 2], "play: B2  count 9"),     # A2 9H
        ("8D", [4, 2], "play: A1  count 17"),    # B2 8C
        ("7A", [7, 2], "play: B1  count 24"),    # A1 7S: run 9-8-7 for 3
        ("#", [7, 2], "play: A2  count 24"),     # B1 (10D KH): go
        ("6D", [11, 2], "play: B2  count 30"),   # A2 6C: run of 4
        ("#", [11, 2], "play: A1  count 30"),    # B2 (3H 4H): go
        ("#", [11, 2], "play: A2  count 30"),    # A1 (2D 9S): go
        ("#", [12, 2], "play: B2  count 0"),     # A2 (QC): go; one for A2, the last to lay
        ("3B", [12, 2], "play: A1  count 3"),    # B2 3H
        ("2C", [12, 2], "play: B1  count 5"),    # A1 2D
        ("0C", [12, 4], "play: A2  count 15"),   # B1 10D: fifteen two
        ("BD", [12, 4], "play: B2  count 25"),   # A2 QC, A2's last card
        ("4B", [12, 4], "play: A1  count 29"),   # B2 4H, B2's last card
        ("#", [12, 4], "play: B1  count 29"),    # A1 (9S): go
        ("#", [12, 5], "play: A1  count 0"),     # B1 (KH): go; one for B2; A1 leads
        ("9A", [12, 5], "play: B1  count 9"),    # A1 9S
        ("CB", [12, 6], "show: B1 hand"),        # B1 KH: one for the last card
        # B1 5H 6S 10D KH + KS: 5+10 three ways (6), KK (2) = 8
        ("#", [12, 14], "show: A2 hand"),
        # A2 10S 9H 6C QC + KS: 9+6 (2) = 2
        ("#", [14, 14], "show: B2 hand"),
        # B2 5C 8C 3H 4H + KS: 5+K, 8+3+4 (4), run 3-4-5 (3) = 7
        ("#", [14, 21], "show: A1 hand"),
        # A1 5D 7S 2D 9S + KS: 5+K (2) = 2
        ("#", [16, 21], "show: A1 crib"),
        # the crib 5S JS 9D 8D + KS: 5+J, 5+K (4), his nobs (1) = 5; B1 deals next
        ("# 5A AA 9C 8C", [21, 21], "B1 deals: # starter"),
    ]
    for keys, scores, status in steps:
        t.keys(keys)
        assert (t.scores, t.oled()[2]) == (scores, status), keys
        if keys == "0A":
            assert t.message == "A2: 10" + SPADE + "  A+2 fifteen"
        elif keys == "6A":
            assert t.message == "B1: 6" + SPADE + "  B+2 thirty-one"
        elif keys == "CB":
            assert t.message == "B1: K" + HEART + "  B+1 last card"
    assert t.game.dealer == 1 and t.game.phase == STARTER
    assert t.oled()[1] == "A+5       B+7*      "  # the crib's 5, B2's 7; B1 deals


def test_partnership_show_breakdown_names_the_team():
    # The same deal, the play skipped: B1 keys 5H 6S 10D KH against KS.
    t = Table().keys("D 1 1 1 # # CA #")
    assert t.game.phase == SHOW and t.oled()[2] == "show: B1 hand"
    t.keys("# 5B 6A 0C CB")
    assert t.scores == [0, 8]
    assert t.oled()[2] == "show: A2 hand"
    assert t.app.ctrl.detail[-2:] == [
        "total 8", "fifteen two, fifteen four, fifteen six, a pair is eight"]


# --- 3. five-card cribbage ---------------------------------------------------

def test_five_card_game_by_key_presses():
    t = Table().keys("D 1 3 #")
    game = t.game
    assert game.config.target == 61
    assert t.scores == [0, 3]  # the pone's three for last
    assert t.oled()[0] == "0  3" and t.oled()[2] == "A deals: # starter"
    # A 61-hole board: marks every 5 holes up to 60, the skunk line at 31, the
    # game hole 61 (the dealer's glowing), nothing beyond it; B's peg on 3.
    assert t.board.strip_pixels(0) == face(61, dealer=True)
    assert t.board.strip_pixels(1) == face(61, dealer=False, lit=[(3, BLUE)])
    assert t.led(1, 31) == SKUNK_MARK and t.led(1, 61) == GAME_MARK
    assert t.led(1, 60) == MARK and t.led(1, 65) == BLACK and t.led(0, 121) == BLACK

    t.keys("# 5A")  # the starter: 5 spades; three cards each: A 8S 6C QS, B 7H 9D KD
    steps = [
        ("7B", [0, 3], "play: A  count 7"),
        ("8A", [2, 3], "play: B  count 15"),   # fifteen two
        ("9C", [2, 6], "play: A  count 24"),   # run 7-8-9
        ("6D", [6, 6], "play: B  count 30"),   # run of 4
        ("#", [6, 6], "play: A  count 30"),    # B (KD): go
        ("#", [7, 6], "play: B  count 0"),     # A (QS): go; one for A, B leads
        ("CC", [7, 6], "play: A  count 10"),
        ("BA", [8, 6], "show: B hand"),        # one for the last card
    ]
    for keys, scores, status in steps:
        t.keys(keys)
        assert (t.scores, t.oled()[2]) == (scores, status), keys
    assert t.app.ctrl.here.cards == [25, 34, 50]  # B's three cards, remembered
    assert t.oled()[3] == "claim? #board counts"
    t.keys("#")  # B: 7H 9D KD + 5S: K+5 = 2
    assert t.scores == [8, 8] and t.oled()[2] == "show: A hand"
    t.keys("#")  # A: 8S 6C QS + 5S: Q+5 = 2 (no flush: 6C)
    assert t.scores == [10, 8] and t.oled()[2] == "show: A crib"
    t.keys("#")
    assert t.oled()[3] == "key 4 cards  #skip"  # the crib is still four cards
    # 5H 5D JS 10C + 5S: 5+ten-card six ways, 5+5+5 (14), three 5s (6), nobs (1) = 21
    t.keys("5B 5C AA 0D")
    assert t.scores == [31, 8]
    assert t.oled()[2] == "B deals: # starter"
    assert t.board.strip_pixels(0) == face(61, dealer=False, lit=[(10, RED_BACK), (31, RED)])
    assert t.board.strip_pixels(1) == face(61, dealer=True, lit=[(6, BLUE_BACK), (8, BLUE)])

    # The second hand: B deals, A leads; no three for last now. The play is
    # skipped and the hands keyed: three cards each.
    t.keys("# 5B #")  # the starter 5 hearts; '#' with no card laid: on to the shows
    assert t.scores == [31, 8] and t.oled()[2] == "show: A hand"
    t.keys("#")
    assert t.oled()[3] == "key 3 cards  #skip"
    t.keys("4D 6C")
    assert t.oled()[3] == "2/3 4" + CLUB + " 6" + DIAMOND
    t.keys("5A")  # 4C 6D 5S + 5H: 4+6+5 twice (4), 55 (2), two runs of 4-5-6 (6) = 12
    assert t.scores == [43, 8] and t.oled()[2] == "show: B hand"
    assert t.app.ctrl.detail[-1] == ("fifteen two, fifteen four, a pair is six, "
                                      "a run of three is nine, a run of three is twelve")
    t.keys("# 0D AC BA")  # 10C JD QS + 5H: three tens with the 5 (6), run 10-J-Q (3) = 9
    assert t.scores == [43, 17] and t.oled()[2] == "show: B crib"
    t.keys("# #")  # the crib skipped
    assert t.message == "skipped: peg it by points"
    assert t.scores == [43, 17] and t.oled()[2] == "A deals: # starter"

# --- 4. reference hands keyed in the show -------------------------------------


def test_reference_hands_keyed_in_the_show():
    t = Table().keys("# 5D #")  # A deals; the starter 5 clubs; the play skipped
    assert t.oled()[2] == "show: B hand"
    # B: 5H 5D 5S JC | 5C = 29: eight fifteens (16), six pairs (12), his nobs (1).
    t.keys("# 5B 5C 5A AD")
    assert t.scores == [0, 29]
    s, h, d, c = SPADE, HEART, DIAMOND, CLUB
    fifteens = ["15 5%s 5%s 5%s =2" % three for three in
                ((s, h, d), (s, h, c), (s, d, c), (h, d, c))]
    fifteens += ["15 5%s J%s =2" % (suit, c) for suit in (s, h, d, c)]
    pairs = ["pair 5%s 5%s =2" % two for two in
             ((s, h), (s, d), (s, c), (h, d), (h, c), (d, c))]
    spoken = ("fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, "
              "fifteen twelve, fifteen fourteen, fifteen sixteen, "
              "a double pair royal is twenty-eight, one for his nobs is twenty-nine")
    assert t.app.ctrl.detail == fifteens + pairs + ["nobs J" + c + " =1", "total 29", spoken]
    assert t.oled()[4:7] == ["B+29 hand", fifteens[0], fifteens[1]]
    t.board.clock.advance(1500 - SETTLE_MS)  # the breakdown scrolls a line every 1.5 s
    t.app.step()
    assert t.oled()[4:7] == ["B+29 hand", fifteens[1], fifteens[2]]

    # A: AD 3D 9D QD | 5C = 8: Q+5, A+9+5 (4), a hand flush of four without the starter (4).
    t.keys("# 1C 3C 9C BC")
    assert t.scores == [8, 29]
    assert t.app.ctrl.detail[-1] == "fifteen two, fifteen four, a flush of four is eight"
    # The crib 2S 4S 8S KS | 5C = 4: K+5, 2+8+5; four spades in a crib without a
    # spade starter are no flush.
    t.keys("# 2A 4A 8A CA")
    assert t.scores == [12, 29]
    assert t.app.ctrl.detail[-2:] == ["total 4", "fifteen two, fifteen four"]
    assert t.oled()[2] == "B deals: # starter"

    t.keys("# CB #")  # B deals; the starter K hearts; the play skipped
    # A: 5S 6H 7D 9C | KH = 7: 5+K, 6+9 (4), the run 5-6-7 (3).
    t.keys("# 5A 6B 7C 9D")
    assert t.scores == [19, 29]
    assert (t.app.ctrl.detail[-2:]
            == ["total 7", "fifteen two, fifteen four, a run of three is seven"])
    assert t.oled()[4] == "A+7 hand"
    # B: 2C 4D 6S 8H | KH: nothing at all, "nineteen".
    t.keys("# 2D 4C 6A 8B")
    assert t.scores == [19, 29]
    assert t.app.ctrl.detail == ["total 0", "nineteen: no score"]
    assert t.oled()[2] == "show: B crib"
    assert t.oled()[4:7] == ["B hand: no score", "total 0", "nineteen: no score"]
    # B's crib AH 3H 7H 9H | KH: four hearts and a heart starter, a crib flush of 5.
    t.keys("# 1B 3B 7B 9B")
    assert t.scores == [19, 34]
    assert t.app.ctrl.detail[-2:] == ["total 5", "a flush of five is five"]
    assert t.oled()[2] == "A deals: # starter"

# --- 9. a misdeal; the cut for the deal ------------------------------------


def test_misdeal_before_any_card_is_played():
    t = Table().keys("12A # CD")  # the starter K clubs is turned: the play begins
    assert t.game.phase == PLAY and t.game.starter == 51
    t.keys("D 6")
    assert t.message == "misdeal: same dealer"
    assert t.game.phase == STARTER and t.game.dealer == 0 and t.game.starter == NOBODY
    assert t.scores == [12, 0] and t.oled()[2] == "A deals: # starter"
    t.keys("# CD")  # the redeal may turn the same card
    assert t.game.starter == 51 and t.oled()[2] == "play: B  count 0"
    # Once a card is laid it is too late, and nothing changes.
    t.keys("6A D 6")
    assert t.message == "a misdeal is called before any card is played"
    assert t.game.phase == PLAY and t.game.starter == 51
    assert (t.game.play.count, t.game.play.turn) == (6, 0)
    assert t.oled()[2] == "play: A  count 6"


def test_misdeal_keeps_the_dealer_and_leaves_his_heels_to_undo():
    t = Table().keys("D 2 2")
    assert t.message == "B deals" and t.game.dealer == 1
    t.keys("# CD D 6")
    assert t.game.dealer == 1 and t.game.starter == NOBODY
    assert t.oled()[2] == "B deals: # starter"
    t.keys("# AB")  # a Jack: two for his heels to B, the dealer
    assert t.scores == [0, 2]
    t.keys("D 6")
    assert t.message == "his heels are pegged: undo the starter instead"
    assert t.scores == [0, 2] and t.game.phase == PLAY


def test_cut_for_the_deal():
    t = Table().keys("D 2")
    assert t.oled()[:4] == ["WHO DEALS", "1=A 2=B", "# cut for deal", "* back"]
    t.keys("#")
    assert t.oled()[3] == "cut for A: a card"
    t.keys("9B")
    assert t.oled()[3] == "cut for B: a card"
    t.keys("4D")  # A 9, B 4: the lower deals
    assert t.message == "B deals" and t.game.dealer == 1
    assert t.oled()[2] == "B deals: # starter" and t.scores == [0, 0]

    t = Table().keys("D 2 #")
    journal = list(t.game.journal)
    t.keys("7A 7B")  # a tie
    assert t.message == "a tie: cut again"
    assert t.game.dealer == 0 and t.game.journal == journal
    assert t.oled()[3] == "cut for A: a card"  # cut again, from A
    t.keys("9D 9D")
    assert t.message == "9" + CLUB + " is cut already"
    t.keys("1A")  # A 9C, B AS: the ace is low, B deals
    assert t.message == "B deals" and t.game.dealer == 1

    # Three players: only the lowest card matters; a tie above it is no tie.
    t = Table(tracks=3).keys("D 1 1 # D 2 # 5A 5B 2C")
    assert t.message == "C deals" and t.game.dealer == 2
    assert t.oled()[2] == "C deals: # starter"

    # The cut is before the first hand only.
    t = Table().keys("# CD D 2 #")
    assert t.message == "the cut for deal comes before the first hand"
    assert t.game.phase == PLAY and t.game.dealer == 0


def test_cut_for_the_deal_moves_the_five_card_three_for_last():
    t = Table().keys("D 1 3 #")
    assert t.scores == [0, 3]
    t.keys("D 2 # 9B 2A")  # B cuts low and deals: A, the pone now, has the three
    assert t.game.dealer == 1 and t.scores == [3, 0]
    assert t.led(0, 3) == RED and t.led(1, 3) == BLACK
