"""The advice on the board: D 7, whose cards, the cards dealt, the best lay-aways.

The numbers are engine.cribtable's (the hand's average exact, the crib's from the
table; tests/test_discard.py checks both against literal walks); here the keys,
the pages and the words are checked, and that the page shows those numbers.
"""

from engine import cribtable
from engine.discard import points_text

from firmware import Table

SPADE, HEART, DIAMOND, CLUB = "\x06", "\x03", "\x04", "\x05"
ABOUT = "\x7f"  # font5x8.bin's "about" sign: the crib is the table's figure
DEALT = "5B 5C AA 6D 4C CB"  # 5H 5D JS 6C 4D KH
CARDS = ["5H", "5D", "JS", "6C", "4D", "KH"]


def test_the_advice_and_the_menu_are_not_loaded_at_boot():
    from tools import devrun
    boot = devrun.boot_imports()  # what code.py imports, followed through the sources
    assert "cribbage.app" in boot and "engine.game" in boot
    for late in ("cribbage.advise", "engine.cribtable", "engine.discard", "cribbage.menu"):
        assert late not in boot


def test_the_menu_offers_the_advice():
    t = Table().keys("D")
    assert t.oled()[0] == "MENU  8 stats  * back" and t.oled()[7] == "7 what to lay away"
    t.keys("7")
    assert t.app.ctrl.mode == "advise"
    assert t.oled()[:4] == ["ADVICE", "whose cards are they?", "press A or B", "* back"]


def test_the_dealers_six_cards_give_the_best_lay_aways_with_their_numbers():
    t = Table().keys("D 7 A")  # A deals: A's crib
    assert t.oled()[:2] == ["ADVICE A: your crib", "key the 6 cards dealt"]
    t.keys("5B 5C A")
    assert t.oled()[2] == "5" + HEART + " 5" + DIAMOND + " J?"
    t.keys("A 6D 4C CB")
    advice = cribtable.advise(CARDS, 2, True)
    best = advice.choices[0]
    d = advice.denominator
    assert (points_text(best.expected, d), points_text(best.hand, d), points_text(best.crib, d)) \
        == ("20.26", "15.96", "4.30")
    assert t.oled() == [
        "A your crib 1-3/15",
        " 1 J" + SPADE + " K" + HEART + "     =  20.26",
        " hand 15.96+crib" + ABOUT + "4.30",
        " 2 6" + CLUB + " 4" + DIAMOND + "     =  17.40",
        " hand 12.43+crib" + ABOUT + "4.97",  # 4.96 rounded, moved to add up: 17.40 is 17.396
        " 3 5" + HEART + " J" + SPADE + "     =  16.82",
        " hand 9.57+crib" + ABOUT + "7.25",
        "#more D:crib *back",
    ]
    assert t.scores == [0, 0] and t.game.journal == []  # the advice changes no game


def test_hash_pages_on_d_flips_whose_crib_and_star_goes_back():
    t = Table().keys("D 7 A " + DEALT + " #")
    assert t.oled()[0] == "A your crib 4-6/15" and t.oled()[1].startswith(" 4 ")
    t.keys("# # # #")  # pages 7-9, 10-12, 13-15, then round to the first
    assert t.oled()[0] == "A your crib 1-3/15"
    t.keys("D")  # B's crib: the crib counts against these cards
    assert t.oled()[:3] == ["A their crib 1-3/15",
                            " 1 J" + SPADE + " K" + HEART + "     =  11.65",
                            " hand 15.96-crib" + ABOUT + "4.31"]  # 15.96 - 4.31 = 11.65
    t.keys("*")  # the last card taken back: key it again
    assert t.oled()[:3] == ["ADVICE A: their crib", "key the 6 cards dealt",
                            "5" + HEART + " 5" + DIAMOND + " J" + SPADE + " 6" + CLUB + " 4"
                            + DIAMOND]
    t.keys("* * * * * *")
    assert t.app.ctrl.mode == "home"


def test_the_pone_gets_their_crib_and_three_players_lay_one_of_five():
    t = Table().keys("D 7 B")  # A deals: B's cards meet A's crib
    assert t.oled()[0] == "ADVICE B: their crib"
    t = Table(tracks=3).keys("D 1 1 # D 7 B")
    assert t.oled()[1] == "key the 5 cards dealt"
    t.keys("5B 5C AA 6D 4C")
    assert t.oled()[:3] == ["B their crib 1-3/5", " 1 J" + SPADE + "        =  11.26",
                            " hand 15.96-crib" + ABOUT + "4.70"]


def test_a_card_keyed_twice_is_refused_and_shotgun_has_nothing_to_lay_away():
    t = Table().keys("D 7 A 5B 5B")
    assert t.message == "5" + HEART + " is in this hand already"
    assert t.oled()[2] == "5" + HEART
    t = Table().keys("D 1 3 3 3 # D 7")  # shotgun
    assert t.oled()[:4] == ["ADVICE", "shotgun has no crib:", "all 6 cards are kept,",
                            "none laid away"]
    t.keys("A")
    assert t.app.ctrl.mode == "home" and t.message.startswith("shotgun has no crib")


def _hundredths(text):
    return int(text.replace(".", ""))


def test_every_line_adds_up_as_shown_and_the_totals_stay_in_order():
    # Both cribs, every page: the total is the hand and the crib as the page shows them.
    for side, crib in (("A", "+"), ("B", "-")):  # A deals: A's crib, then B's cards against it
        t = Table().keys("D 7 " + side + " " + DEALT)
        totals = []
        for _ in range(5):
            rows = t.oled()
            for laid, parts in zip(rows[1:7:2], rows[2:7:2]):
                assert parts.startswith(" hand ") and crib + "crib" + ABOUT in parts, parts
                hand, rest = parts[6:].split(crib + "crib" + ABOUT)
                total = _hundredths(laid.split("=")[1].strip())
                shown = _hundredths(hand) + (1 if crib == "+" else -1) * _hundredths(rest)
                assert shown == total, (laid, parts)
                totals.append(total)
            t.keys("#")
        assert len(totals) == 15 and totals == sorted(totals, reverse=True)
