"""The statistics' pages on the sim board: figures the test counts itself, the
page turning, the erase asked first and undone, kept through a reboot and a new game."""

from engine import figures
from engine import stats as st
from cribbage import pages
from cribbage.screen import COLUMNS

from firmware import Table


def typed_game(t, side_key, points, times):
    typed = 0
    for _ in range(times):
        t.keys("%d%s" % (points, side_key))
        typed += points
    return typed


def test_a_typed_game_shows_on_the_pages_then_erased_and_undone():
    t = Table()
    typed = typed_game(t, "A", 29, 5)  # 145: A wins, B on 0 (a double skunk)
    assert t.game.over and t.scores == [typed, 0]
    t.keys("D 8")
    assert t.app.ctrl.mode == "stats"
    assert t.oled() == ["STATS A 1/2   # next", "games won 1", "skunk +0 -0", "double +1 -0",
                        "hands 0 avg -", "cribs 0 avg -", "best show 0", "* back  0 erase"]
    t.keys("#")
    assert t.oled()[5:7] == ["play points 0", "typed points %d" % typed]
    t.keys("#")
    assert t.oled()[:4] == ["STATS B 1/2   # next", "games won 0", "skunk +0 -0", "double +0 -1"]
    t.keys("##")
    assert t.oled()[:4] == ["STATS: MATCHES # next", "games 1", "A 0 matches won",
                            "B 0 matches won"]
    t.keys("#")
    assert t.oled()[0] == "STATS A 1/2   # next"  # round again
    back = t.reboot()  # kept in the nvm with the game
    assert back.game.stats == t.game.stats and back.game.stats[0] == 1
    t.keys("0")
    assert t.oled()[0] == "ERASE STATS?"
    t.keys("*")
    assert t.app.ctrl.mode == "stats" and t.game.stats[0] == 1
    t.keys("0#")
    assert t.game.stats == st.ZERO and pages.STATS_ERASED in " ".join(t.oled())
    assert t.reboot().game.stats == st.ZERO
    t.keys("D4")
    assert "undo erase? # yes" in t.oled()
    t.keys("#")
    assert figures.side(t.game.stats, 0)["typed_points"] == typed
    assert figures.side(t.reboot().game.stats, 0)["double_skunks"] == 1


def test_a_new_game_from_the_menu_keeps_them_and_three_players_get_three_sides():
    t = Table(tracks=3)
    typed_game(t, "B", 29, 5)
    t.keys("D 1 1 # #")  # players 3, and yes: it replaces the game just won
    assert t.game.players == 3 and t.scores == [0, 0, 0]
    assert figures.side(t.game.stats, 1)["wins"] == 1 and t.game.stats[0] == 1
    typed = typed_game(t, "C", 29, 4) + typed_game(t, "C", 5, 1)
    assert t.game.over and t.scores == [0, 0, typed]
    t.keys("D 8 ####")
    assert t.oled()[:3] == ["STATS C 1/2   # next", "games won 1", "skunk +0 -0"]
    t.keys("#")
    assert t.oled()[6] == "typed points %d" % typed
    t.keys("#")
    assert t.oled()[:5] == ["STATS: MATCHES # next", "games 2", "A 0 matches won",
                            "B 0 matches won", "C 0 matches won"]
    t.keys("*")
    assert t.app.ctrl.mode == "menu"


def test_the_longest_figures_fit_the_screen():
    big = dict.fromkeys(figures.FIELDS, st.CAP)
    big["best_hand"], big["hand_average"], big["crib_average"] = 29, 290, 290
    lines = pages.side_stats_page(2, 0, big) + pages.side_stats_page(2, 1, big)
    lines += pages.match_stats_page(st.CAP, [st.CAP] * 3) + list(pages.ERASE_STATS_PAGE)
    lines += [pages.STATS_ERASED, pages.MENU_PAGE[0]]
    for line in lines:
        assert len(line) <= COLUMNS, line
    assert "hands 65535 avg 29.0" in lines


def test_the_page_module_is_loaded_only_when_opened():
    from tools import devrun
    assert "cribbage.stats_page" not in devrun.boot_imports()
