"""cribbage.stats_page: the statistics' pages (menu 8), loaded when first opened.

Two pages a side, then the match record: ``#`` the next, ``*`` back to the
menu, ``0`` asks before the stats are erased (``#`` yes, ``*`` no). Erasing
is an engine action (journalled: undo brings them back). The wording is
cribbage.pages'.
"""

from engine import figures
from cribbage import pages
from cribbage.turn import ERASE_STATS, HOME, MENU, STATS, Mode, Turn

PER_SIDE = 2  # pages a side


def _count(ctx):
    return ctx.game.sides * PER_SIDE + 1


def stats_key(ctx, here, key):
    if key == "#":
        return Turn(STATS, (here + 1) % _count(ctx))
    if key == "0":
        return Turn(ERASE_STATS, here)
    if key in "*D":
        return Turn(MENU)
    return Turn(STATS, here)


def stats_enter(ctx, purpose):
    return 0


def stats_page(ctx, here):
    game = ctx.game
    if here >= game.sides * PER_SIDE:
        return pages.match_stats_page(game.stats[0], [figures.side(game.stats, s)["matches"]
                                                      for s in range(game.sides)])
    side = here // PER_SIDE
    return pages.side_stats_page(side, here % PER_SIDE, figures.side(game.stats, side))


def erase_key(ctx, here, key):
    if key == "#":
        game = ctx.game
        return Turn(HOME, None, pages.STATS_ERASED, change=game.propose(game.erase_stats))
    if key == "*":
        return Turn(STATS, here)
    return Turn(ERASE_STATS, here)


def erase_page(ctx, here):
    return list(pages.ERASE_STATS_PAGE)


MODES = {
    STATS: Mode(stats_key, stats_enter, None, stats_page),
    ERASE_STATS: Mode(erase_key, None, None, erase_page),
}
