"""cribbage.menu: the D menu: a new game, who deals, the lights, undo, skip, misdeal."""

from engine.game import Game
from engine.play import NOBODY
from engine.rules import FIVE_CARD, VARIANT_NAMES, make_config, sides_of
from engine.match import DEFAULT_VALUES
from cribbage.entry import Entry, open_step
from cribbage.names import SIDE_LETTERS, seat_name
from cribbage.screen import wrap
from cribbage.settings import BRIGHTNESS_LEVELS, PALETTES, PALETTE_NAMES

_PLAYERS = (2, 3, 4)
_VALUES = (DEFAULT_VALUES, (1, 2, 3, 0))  # docs/rules.md: double skunk is 4 or 3


def open_menu(table):
    table.mode = "menu"


def _form_from(config):
    return [config.players, config.target, config.variant, config.muggins,
            0 if config.values[2] == 4 else 1, 1 if config.values[3] else 0,
            config.match_games]


def _next(options, value):
    i = 0
    for n, v in enumerate(options):
        if v == value:
            i = n
    return options[(i + 1) % len(options)]


def menu_key(table, key):
    mode = table.mode
    if mode == "menu":
        _main(table, key)
    elif mode == "new game":
        _form(table, key)
    elif mode == "dealer":
        _dealer(table, key)
    else:
        _lights(table, key)


def _home(table):
    table.mode = "home"
    table.entry = None


def _main(table, key):
    game = table.game
    if key == "1":
        table.page = _form_from(game.config)
        table.mode = "new game"
    elif key == "2":
        table.mode = "dealer"
    elif key == "3":
        table.mode = "lights"
    elif key == "4":
        table.mode = "undo?" if game.journal else "home"
        if not game.journal:
            table.message = "nothing to undo"
    elif key == "5":
        _home(table)
        table.act(game.advance)
        if not game.over:
            open_step(table)  # on to the next step's cards, as # would
    elif key == "6":
        _home(table)
        table.act(game.misdeal)
        table.message = "misdeal: same dealer"
    elif key in "*D#":
        _home(table)


def _form(table, key):
    f = table.page
    if key == "1":
        f[0] = _next(_PLAYERS, f[0])
    elif key == "2":
        f[1] = 61 if f[1] == 121 else 121
    elif key == "3":
        f[2] = (f[2] + 1) % len(VARIANT_NAMES)
    elif key == "4":
        f[3] = not f[3]
    elif key == "5":
        f[4] = 1 - f[4]
    elif key == "6":
        f[5] = 1 - f[5]
    elif key == "7":
        f[6] = _next((1, 3, 5), f[6])
    elif key == "#":
        problem = form_problem(f, table.max_sides)
        if problem:
            table.message = problem
            return
        values = _VALUES[f[4]]
        if f[5]:
            values = (values[0], values[1], values[2], values[2] * 2)
        config = make_config(f[0], f[1], f[2], f[3], values, f[6])
        table.game = Game(config)
        table.changes.append(("new",))
        _home(table)
        table.message = "new game: A deals"
    elif key in "*D":
        table.mode = "menu"


def form_problem(f, tracks):
    """Why the game on the form cannot start on this board, in one OLED row; or None."""
    sides = sides_of(f[0])
    if sides > tracks:
        return "%d tracks: no player %s" % (tracks, SIDE_LETTERS[tracks:sides])
    if f[2] == FIVE_CARD and f[0] != 2:
        return "five-card: 2 players"
    return None


def _dealer(table, key):
    game = table.game
    if key.isdigit() and 1 <= int(key) <= game.players:
        _home(table)
        table.act(game.set_dealer, int(key) - 1)
        table.message = "%s deals" % seat_name(game, game.dealer)
    elif key == "#":
        if not _can_cut(game):
            table.message = "the cut is before the first hand"
            return
        table.entry = Entry("cut")
        table.mode = "cards"
    elif key in "*D":
        table.mode = "menu"


def _lights(table, key):
    s = table.settings
    if key == "1":
        s.brightness = s.brightness % BRIGHTNESS_LEVELS + 1
        table.changes.append(("settings",))
    elif key == "2":
        s.palette = (s.palette + 1) % len(PALETTES)
        table.changes.append(("settings",))
    elif key in "*D#":
        table.mode = "menu" if key == "*" else "home"


def menu_lines(table):
    """The text of the menu page now on the OLED."""
    mode = table.mode
    if mode == "menu":
        return ["MENU", "1 new game", "2 who deals", "3 lights", "4 undo",
                "5 skip this step", "6 misdeal", "* back"]
    if mode == "new game":
        f = table.page
        skunk = "1/2/%d" % _VALUES[f[4]][2]
        # The top row says before # why this game cannot start here.
        title = form_problem(f, table.max_sides) or "NEW GAME   # start"
        return [title, "1 players %d%s" % (f[0], " teams" if f[0] == 4 else ""),
                "2 holes %d" % f[1], "3 %s" % VARIANT_NAMES[f[2]],
                "4 muggins %s" % ("on" if f[3] else "off"),
                "5 skunk %s" % skunk, "6 triple skunk %s" % ("on" if f[5] else "off"),
                "7 match of %d" % f[6]]
    if mode == "dealer":
        game = table.game
        names = " ".join(["%d=%s" % (i + 1, seat_name(game, i)) for i in range(game.players)])
        cut = "# cut for deal" if _can_cut(game) else "(cut: first hand only)"
        return ["WHO DEALS", names, cut, "* back"] + wrap(table.message)
    s = table.settings
    return ["LIGHTS", "1 brightness %d/%d" % (s.brightness, BRIGHTNESS_LEVELS),
            "2 colours %s" % PALETTE_NAMES[s.palette], "* back  # done"] + wrap(table.message)


def _can_cut(game):
    return game.hand_no == 0 and game.starter == NOBODY and not game.over
