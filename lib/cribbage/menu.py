"""cribbage.menu: the D menu and its pages: a new game, who deals, the lights.

Main page: 1 new game, 2 who deals, 3 lights, 4 undo, 5 skip this step,
6 misdeal, 7 what to lay away (cribbage.advise), 8 stats
(cribbage.stats_page), * back. A page's own state is
the form being filled in (new game; asked before it replaces a game under way),
or the lights as they were when the page opened (``*`` puts them back).
"""

from engine.cards import make_card
from engine.errors import BadConfig, IllegalAction
from engine.game import Game
from engine.hand import CUT
from engine.rules import (DOUBLE_SKUNKS, MATCH_GAMES, PLAYERS, VARIANT_NAMES, Config, check_config,
                          game_values, make_config, sides_of, targets)
from cribbage import pages, words
from cribbage.settings import BRIGHTNESS_LEVELS, PALETTES, PALETTE_NAMES, Settings
from cribbage.turn import (ADVISE, BASE, CARDS, DEALER, FORM, HOME, LIGHTS, MENU,
                           REPLACE, SETTINGS, STATS, UNDO, Mode, Turn)


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
    if key == "8":
        return Turn(STATS)
    if key == "4":
        return Turn(UNDO)
    if key in "56":
        try:
            if key == "5":  # skip this step: on to the next step's cards, as # would go
                return Turn(HOME if game.over else CARDS, change=game.propose(game.advance))
            return Turn(HOME, None, words.MISDEAL, change=game.propose(game.misdeal))
        except IllegalAction as err:
            return Turn(HOME, None, words.refusal(err))
    if key in "*D#":
        return Turn(HOME)
    return Turn(MENU)


def main_page(ctx, here):
    return list(pages.MENU_PAGE)


def _form_from(config):
    """The form: a Config not checked yet, each item one of engine.rules' choices
    (the game's own to start from)."""
    return config


def _after(options, value):
    i = 0
    for n, v in enumerate(options):
        if v == value:
            i = n
    return options[(i + 1) % len(options)]


def _changed(f, item):
    """The form after key ``item`` (1..7) steps that item on to its next choice."""
    players, target, variant, muggins, values, games = f
    if item == 1:
        players = _after(PLAYERS, players)
    elif item == 2:
        target = _after(targets(variant), target)
    elif item == 3:
        was = targets(variant)
        variant = (variant + 1) % len(VARIANT_NAMES)
        if len(was) == 1 or target not in targets(variant):  # off five-card's 61: the usual
            target = targets(variant)[0]
    elif item == 4:
        muggins = not muggins
    elif item == 5:
        values = game_values(_after(DOUBLE_SKUNKS, values[2]), values[3])
    elif item == 6:
        values = game_values(values[2], not values[3])
    else:
        games = _after(MATCH_GAMES, games)
    return Config(players, target, variant, muggins, values, games)


def form_problem(f, tracks):
    """Why the game on the form cannot start on this board (one row), or None:
    a side with no track, or the engine's own refusal of the settings."""
    sides = sides_of(f.players)
    if sides > tracks:
        return pages.no_track(tracks, sides)
    try:
        check_config(f)
    except BadConfig as err:
        return words.refusal(err)
    return None


def form_key(ctx, f, key):
    if key in "1234567":
        return Turn(FORM, _changed(f, int(key)))
    if key == "#":
        problem = form_problem(f, ctx.tracks)
        if problem:
            return Turn(FORM, f, problem)
        game = ctx.game
        if game.journal or max(game.scores) or max(game.tally):  # under way: ask first
            return Turn(REPLACE, f)
        return _start(f, ctx.game.stats)
    if key in "*D":
        return Turn(MENU)
    return Turn(FORM, f)


def _start(f, kept):
    game = Game(make_config(*f), stats=kept)  # the form's Config; the stats go on
    return Turn(HOME, None, words.new_game(game), game=game, saves=(BASE,))


def replace_key(ctx, f, key):
    """The game under way is lost to the new one: only # and * answer."""
    if key == "#":
        return _start(f, ctx.game.stats)
    if key == "*":
        return Turn(HOME, None, words.KEPT)
    return Turn(REPLACE, f, words.YES_OR_NO)


def replace_page(ctx, f):
    return pages.replace_page(ctx.game, f.match_games > 1, ctx.message)


def form_page(ctx, f):
    return pages.form_page(f, form_problem(f, ctx.tracks))


def _cut_refused(game):
    # A cut with any distinct cards (an ace, a two, ...): the rule's sentence if not now.
    cards = [make_card(i + 1, 0) for i in range(game.players)]
    return game.refusal(game.cut_for_deal, cards)


def dealer_key(ctx, here, key):
    game = ctx.game
    if key.isdigit() and 1 <= int(key) <= game.players:
        try:
            change = game.propose(game.set_dealer, int(key) - 1)
        except IllegalAction as err:
            return Turn(HOME, None, words.refusal(err))
        return Turn(HOME, None, change=change, report=words.deals)
    if key == "#":
        refused = _cut_refused(game)
        if refused:
            return Turn(DEALER, None, refused)
        return Turn(CARDS, None, enter=CUT)  # the card entry, for the cut
    if key in "*D":
        return Turn(MENU)
    return Turn(DEALER)


def dealer_page(ctx, here):
    return pages.dealer_page(ctx.game, _cut_refused(ctx.game) is None, ctx.message)


def lights_key(ctx, was, key):
    s = ctx.settings
    if key in "12":
        if key == "1":
            lights = Settings(s.brightness % BRIGHTNESS_LEVELS + 1, s.palette)
        else:
            lights = Settings(s.brightness, (s.palette + 1) % len(PALETTES))
        return Turn(LIGHTS, was, settings=lights, saves=(SETTINGS,))
    if key == "*":  # cancel: the lights as they were when the page opened
        if was is not None and was.to_bytes() != s.to_bytes():
            return Turn(MENU, settings=was, saves=(SETTINGS,))
        return Turn(MENU)
    if key in "D#":
        return Turn(HOME)
    return Turn(LIGHTS, was)


def lights_page(ctx, here):
    return pages.lights_page(ctx.settings, BRIGHTNESS_LEVELS, PALETTE_NAMES, ctx.message)


MODES = {
    MENU: Mode(main_key, None, None, main_page),
    FORM: Mode(form_key, None, None, form_page),
    REPLACE: Mode(replace_key, None, None, replace_page),
    DEALER: Mode(dealer_key, None, None, dealer_page),
    LIGHTS: Mode(lights_key, None, None, lights_page),
}
