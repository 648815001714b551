"""cribbage.menu: the D menu and its pages: a new game, who deals, the lights.

Main page: 1 new game, 2 who deals, 3 lights, 4 undo, 5 skip this step,
6 misdeal, 7 what to lay away (cribbage.advise), * back. A page's own state is
the form being filled in (new game; asked before it replaces a game under way),
or the lights as they were when the page opened (``*`` puts them back).
"""

from engine.cards import make_card
from engine.errors import IllegalAction
from engine.game import Game
from engine.hand import CUT
from engine.match import DEFAULT_VALUES
from engine.rules import FIVE_CARD, VARIANT_NAMES, make_config, sides_of
from cribbage import pages, words
from cribbage.settings import BRIGHTNESS_LEVELS, PALETTES, PALETTE_NAMES, Settings
from cribbage.turn import (ADVISE, BASE, CARDS, DEALER, FORM, HOME, LIGHTS, MENU,
                           REPLACE, SETTINGS, UNDO, Turn, acted)

_PLAYERS = (2, 3, 4)
_MATCHES = (1, 3, 5)
_VALUES = (DEFAULT_VALUES, (1, 2, 3, 0))  # docs/rules.md: a double skunk is worth 4 or 3


def main_key(ctx, here, key):
    game = ctx.game
    if key == "1":
        return Turn(FORM, _form_from(game.config))
    if key == "2":
        return Turn(DEALER)
    if key == "3":
        return Turn(LIGHTS, ctx.settings)
    if key == "7":
        return Turn(ADVISE)
    if key == "4":
        return Turn(UNDO)
    if key in "56":
        try:
            if key == "5":  # skip this step: on to the next step's cards, as # would go
                return acted(Turn(HOME if game.over else CARDS), game.advance())
            return acted(Turn(HOME, None, words.MISDEAL), game.misdeal())
        except IllegalAction as err:
            return Turn(HOME, None, words.refusal(err))
    if key in "*D#":
        return Turn(HOME)
    return Turn(MENU)


def main_page(ctx, here):
    return list(pages.MENU_PAGE)


def _form_from(config):
    return (config.players, config.target, config.variant, config.muggins,
            0 if config.values[2] == 4 else 1, 1 if config.values[3] else 0,
            config.match_games)


def _after(options, value):
    i = 0
    for n, v in enumerate(options):
        if v == value:
            i = n
    return options[(i + 1) % len(options)]


def form_problem(f, tracks):
    """Why the game on the form cannot start on this board (one row), or None."""
    sides = sides_of(f[0])
    if sides > tracks:
        return pages.no_track(tracks, sides)
    if f[2] == FIVE_CARD and f[0] != 2:
        return pages.FIVE_CARD_TWO
    return None


def form_key(ctx, f, key):
    if key in "1234567":
        f = list(f)
        i = int(key) - 1
        if i == 0:
            f[0] = _after(_PLAYERS, f[0])
        elif i == 1:
            f[1] = 61 if f[1] == 121 else 121
        elif i == 2:
            f[2] = (f[2] + 1) % len(VARIANT_NAMES)
        elif i == 6:
            f[6] = _after(_MATCHES, f[6])
        else:
            f[i] = not f[i] if i == 3 else 1 - f[i]
        return Turn(FORM, tuple(f))
    if key == "#":
        problem = form_problem(f, ctx.tracks)
        if problem:
            return Turn(FORM, f, problem)
        game = ctx.game
        if game.journal or max(game.scores) or max(game.tally):  # under way: ask first
            return Turn(REPLACE, f)
        return _start(f)
    if key in "*D":
        return Turn(MENU)
    return Turn(FORM, f)


def _start(f):
    values = _VALUES[f[4]]
    if f[5]:
        values = (values[0], values[1], values[2], values[2] * 2)
    game = Game(make_config(f[0], f[1], f[2], f[3], values, f[6]))
    turn = Turn(HOME, None, words.new_game(game))
    turn.game = game
    turn.saves = (BASE,)
    return turn


def replace_key(ctx, f, key):
    """The game under way is lost to the new one: only # and * answer."""
    if key == "#":
        return _start(f)
    if key == "*":
        return Turn(HOME, None, words.KEPT)
    return Turn(REPLACE, f, words.YES_OR_NO)


def replace_page(ctx, f):
    return pages.replace_page(ctx.game, f[6] > 1, ctx.message)


def form_page(ctx, f):
    return pages.form_page(f, VARIANT_NAMES, _VALUES[f[4]][2], form_problem(f, ctx.tracks))


def _can_cut(game):
    # A cut with any distinct cards (an ace, a two, ...): does the rule allow one now?
    cards = [make_card(i + 1, 0) for i in range(game.players)]
    return game.refusal(game.cut_for_deal, cards) is None


def dealer_key(ctx, here, key):
    game = ctx.game
    if key.isdigit() and 1 <= int(key) <= game.players:
        try:
            outcome = game.set_dealer(int(key) - 1)
        except IllegalAction as err:
            return Turn(HOME, None, words.refusal(err))
        return acted(Turn(HOME, None, words.deals(game)), outcome)
    if key == "#":
        if not _can_cut(game):
            return Turn(DEALER, None, words.CUT_FIRST_HAND)
        return Turn(CARDS, None, enter=CUT)  # the card entry, for the cut
    if key in "*D":
        return Turn(MENU)
    return Turn(DEALER)


def dealer_page(ctx, here):
    return pages.dealer_page(ctx.game, _can_cut(ctx.game), ctx.message)


def lights_key(ctx, was, key):
    s = ctx.settings
    if key in "12":
        turn = Turn(LIGHTS, was)
        if key == "1":
            turn.settings = Settings(s.brightness % BRIGHTNESS_LEVELS + 1, s.palette)
        else:
            turn.settings = Settings(s.brightness, (s.palette + 1) % len(PALETTES))
        turn.saves = (SETTINGS,)
        return turn
    if key == "*":  # cancel: the lights as they were when the page opened
        turn = Turn(MENU)
        if was is not None and was.to_bytes() != s.to_bytes():
            turn.settings, turn.saves = was, (SETTINGS,)
        return turn
    if key in "D#":
        return Turn(HOME)
    return Turn(LIGHTS, was)


def lights_page(ctx, here):
    return pages.lights_page(ctx.settings, BRIGHTNESS_LEVELS, PALETTE_NAMES, ctx.message)
