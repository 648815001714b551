"""cribbage.pages: what the OLED says on the menu's pages and the advice's, loaded
with them (cribbage.menu and cribbage.advise are imported when first opened).

The rest of the board's wording is cribbage.words'; these lines follow its rules:
no row wider than the screen (tests/test_words.py renders them all).
"""

from engine.cards import rank_name
from engine.rules import VARIANT_NAMES
from cribbage.names import SIDE_LETTERS, card_text, seat_name
from cribbage.screen import COLUMNS
from cribbage.words import pad, side_keys, wrap


# --- the menu's pages ------------------------------------------------------------

MENU_PAGE = ("MENU  8 stats  * back", "1 new game", "2 who deals", "3 lights", "4 undo",
             "5 skip this step", "6 misdeal", "7 what to lay away")


def form_page(f, problem):
    """The new-game form (f: an engine.rules Config, not checked yet); its top
    row says why it cannot start here, if so."""
    values = f.values
    return [problem or "NEW GAME   # start",
            "1 players %d%s" % (f.players, " teams" if f.players == 4 else ""),
            "2 holes %d" % f.target, "3 %s" % VARIANT_NAMES[f.variant],
            "4 muggins %s" % ("on" if f.muggins else "off"),
            "5 skunk %d/%d/%d" % (values[0], values[1], values[2]),
            "6 triple skunk %s" % ("on" if values[3] else "off"),
            "7 match of %d" % f.match_games]


def no_track(tracks, sides):
    return "%d tracks: no player %s" % (tracks, "".join(SIDE_LETTERS[tracks:sides]))


def replace_page(game, match, message):
    """Asked before a new game (or match) replaces the one under way."""
    lines = ["NEW MATCH?" if match else "NEW GAME?",
             "%s is lost" % "-".join([str(n) for n in game.scores])]
    if game.config.match_games > 1 and max(game.tally):
        lines.append("and games won %s" % "-".join([str(n) for n in game.tally]))
    return lines + ["# yes  * no", "(then * # undoes it)"] + wrap(message)


def dealer_page(game, can_cut, message):
    names = " ".join(["%d=%s" % (i + 1, seat_name(game, i)) for i in range(game.players)])
    cut = "# cut for deal" if can_cut else "cut only at the start"
    return ["WHO DEALS", names, cut, "* back"] + wrap(message)


def lights_page(settings, levels, palette_names, message):
    return ["LIGHTS", "1 brightness %d/%d" % (settings.brightness, levels),
            "2 colours %s" % palette_names[settings.palette], "* cancel  # done"] + wrap(message)


# --- which cards to lay away (the advice) ------------------------------------------

def whose_cards(game):
    return "whose cards? press %s" % side_keys(game)


def advise_whose(game, message):
    return (["ADVICE", "whose cards are they?", "press %s" % side_keys(game), "* back"]
            + wrap(message))


def advise_none(refused):
    return ["ADVICE"] + wrap(refused) + ["* back"]


# font5x8.bin's "\u2248" (the simulator and the web page print ABOUT_SYMBOL): the
# crib's figure is the board's table, not the exact count (docs/discard.md).
ABOUT = "\x7f"
ABOUT_SYMBOL = "\u2248"


def _crib(own):
    return "your crib" if own else "their crib"


def advise_keying(game, side, own, dealt, cards, rank, message):
    keyed = " ".join([card_text(c) for c in cards])
    if rank:
        keyed += (" " if keyed else "") + rank_name(rank) + "?"
    lines = ["ADVICE %s: %s" % (SIDE_LETTERS[side], _crib(own)),
             "key the %d cards dealt" % dealt] + wrap(keyed or "_")
    return lines + wrap(message) + ["%d/%d  *back" % (len(cards), dealt)]


def advise_page(game, side, own, first, total, shown):
    """Lay-aways ``first``+1.. of ``total``, best first: (laid, expected, hand, crib)
    each, as text (expected = hand + or - crib, as shown); two rows a lay-away."""
    lines = ["%s %s %d-%d/%d" % (SIDE_LETTERS[side], _crib(own), first + 1,
                                 first + len(shown), total)]
    sign = "+" if own else "-"
    for i, (laid, expected, hand, crib) in enumerate(shown):
        lines.append(pad("%2d %s" % (first + i + 1, " ".join([card_text(c) for c in laid])),
                         COLUMNS - 8) + "=" + "%7s" % expected)
        lines.append(" hand %s%scrib%s%s" % (hand, sign, ABOUT, crib))
    return lines + ["#more D:crib *back"]


# --- the statistics (cribbage.stats_page) ----------------------------------------

STATS_ERASED = "stats erased (4 undo)"
ERASE_STATS_PAGE = ("ERASE STATS?", "every side's figures", "go back to zero", "(undo brings them",
                    " back)", "# yes  * no")
_STATS_KEYS = "* back  0 erase"


def _average(tenths):
    return "-" if tenths is None else "%d.%d" % (tenths // 10, tenths % 10)


def side_stats_page(side, part, s):
    """Side ``side``'s figures (engine.figures.side), page ``part`` of two."""
    head = "STATS %s %d/2   # next" % (SIDE_LETTERS[side], part + 1)
    if part == 0:
        rows = ["games won %d" % s["wins"],
                "skunk +%d -%d" % (s["skunks"], s["skunked"]),
                "double +%d -%d" % (s["double_skunks"], s["double_skunked"]),
                "hands %d avg %s" % (s["hands"], _average(s["hand_average"])),
                "cribs %d avg %s" % (s["cribs"], _average(s["crib_average"])),
                "best show %d" % s["best_hand"]]
    else:
        rows = ["29s %d 28s %d" % (s["hands_29"], s["hands_28"]), "24s %d" % s["hands_24"],
                "nobs %d" % s["nobs"], "heels %d" % s["heels"],
                "play points %d" % s["play_points"], "typed points %d" % s["typed_points"]]
    return [head] + rows + [_STATS_KEYS]


def match_stats_page(games, matches):
    """The games the board has counted and each side's matches won."""
    rows = ["STATS: MATCHES # next", "games %d" % games]
    for side, n in enumerate(matches):
        rows.append("%s %d matches won" % (SIDE_LETTERS[side], n))
    return rows + [_STATS_KEYS]
