"""cribbage.entry: keying cards for the step of the hand: cut, starter, play, show.

A card is a rank key then a suit key (ranks 1 = A, 2..9, 0 = 10, A = J,
B = Q, C = K; suits A spades, B hearts, C diamonds, D clubs). `*` takes back
the last key or card, or goes back to the scoreboard; `#` finishes the step.
"""

from engine.cards import rank_name
from engine.errors import CardSeen, IllegalAction
from engine.game import CUT, PLAY, SHOW, STARTER
from engine.play import NOBODY
from engine.rules import CRIB_SIZE, hand_size
from engine.show import is_impossible, score_show
from cribbage.names import seat_name, side_name
from cribbage.keys import SUIT_KEYS, card_of_keys, rank_of_key

SUIT_GLYPHS = "\x06\x03\x04\x05"  # font5x8.bin: spade, heart, diamond, club
_ITEM_LABELS = {"fifteen": "15", "pair": "pair", "run": "run", "flush": "flush", "nobs": "nobs"}
MAX_CLAIM = 29


def card_text(card):
    """A card as the OLED prints it: 'J' + the diamond glyph."""
    return rank_name(card // 4 + 1) + SUIT_GLYPHS[card % 4]


class Entry:
    def __init__(self, purpose, known=None, late=False):
        self.purpose = purpose  # "cut", "starter", "play" or "show"
        self.late = late        # a starter skipped at the turn, keyed for the show
        self.rank = 0           # a rank keyed, waiting for its suit
        self.known = list(known or [])  # show: cards seen in the play
        self.cards = list(self.known)
        self.claim = ""
        self.claiming = purpose == "show"
        self.muggins_prompt = ""


def open_step(table):
    """'#' on the scoreboard: key the cards of the step the hand is at."""
    game = table.game
    if game.phase == CUT:
        table.entry = Entry("cut")
    elif game.phase == STARTER:
        table.entry = Entry("starter")
    elif game.phase == PLAY:
        table.entry = Entry("play")
    elif game.phase == SHOW:
        table.entry = _show_entry(game)
    table.mode = "cards"


def _show_entry(game):
    if game.starter == NOBODY:
        return Entry("starter", late=True)  # a show is counted with its starter
    return Entry("show", game.known_cards())


def _leave(table):
    table.mode = "home"
    table.entry = None


def _needed(game):
    seat, crib = game.showing()
    return CRIB_SIZE if crib else hand_size(game.config)


def entry_key(table, key):
    e = table.entry
    if e.claiming:
        # The claim step takes digits, # or * only: a card key here would be
        # read as part of the claim, so it waits for # (issue: "5 B" meant 5H).
        if key.isdigit():
            _claim_digit(table, e, key)
        elif key == "#":
            e.claiming = False
            if len(e.cards) == _needed(table.game):
                _count(table)
        elif key == "*":
            if e.claim:
                e.claim = e.claim[:-1]
            else:
                _leave(table)
        elif key == "D":
            _menu(table)
        else:
            table.message = ("claim %s? " % e.claim if e.claim else "") + "# first, then the cards"
        return
    if e.rank:
        if key in SUIT_KEYS:
            card = card_of_keys(e.rank, key)
            e.rank = 0
            _take(table, card)
        elif key == "*":
            e.rank = 0
        else:
            table.message = "now the suit: A B C D"
        return
    rank = rank_of_key(key)
    if rank:
        e.rank = rank
    elif key == "*":
        if len(e.cards) > len(e.known):
            e.cards.pop()
        else:
            _leave(table)
    elif key == "#":
        _finish(table)
    elif key == "D":
        _menu(table)


def _claim_digit(table, e, key):
    """A digit of the claim; one no hand of this size can make is refused now."""
    claim = e.claim + key
    value = int(claim)
    seat, crib = table.game.showing()
    if len(claim) > 2 or value > MAX_CLAIM:
        table.message = "%s is impossible: the most is %d" % (claim, MAX_CLAIM)
    elif (crib or _needed(table.game) == 4) and is_impossible(value):
        table.message = "%d is impossible: no hand makes it" % value
    else:
        e.claim = claim
        return
    e.claim = ""


def _menu(table):
    from cribbage.menu import open_menu
    open_menu(table)


def _take(table, card):
    game = table.game
    e = table.entry
    if e.purpose == "starter":
        table.act(game.turn_starter, card)
        table.echo = "starter: " + card_text(card)
        _follow(table)
    elif e.purpose == "play":
        seat = game.play.turn
        table.act(game.lay, card)
        table.echo = "%s: %s" % (seat_name(game, seat), card_text(card))
        _follow(table)
    elif e.purpose == "cut":
        if card in e.cards:
            raise CardSeen("%s is cut already" % card_text(card))
        e.cards.append(card)
        if len(e.cards) == game.players:
            cards, e.cards = e.cards, []
            table.act(game.cut_for_deal, cards)
            _leave(table)
            table.message = "%s deals" % seat_name(game, game.dealer)
    else:
        if card in e.cards:
            raise CardSeen("%s is in this hand already" % card_text(card))
        if card in game.seen:
            raise CardSeen("%s is already out this deal" % card_text(card))
        e.cards.append(card)
        if len(e.cards) == _needed(game):
            _count(table)


def _follow(table):
    """After an action: key the cards of whatever step the hand is at now."""
    game = table.game
    if table.mode != "cards":
        return
    if game.phase == PLAY:
        if table.entry.purpose != "play":
            table.entry = Entry("play")
    elif game.phase == SHOW:
        if table.entry.purpose != "starter" or game.starter != NOBODY:
            table.entry = _show_entry(game)
    else:
        _leave(table)


def _finish(table):
    game = table.game
    e = table.entry
    if e.purpose == "starter":
        table.act(game.advance)
        table.message = "skipped: peg it by points" if e.late else "no starter: count shows by points"
        _follow(table)
    elif e.purpose == "play":
        laid = 0
        for cards in game.play.laid:
            laid += len(cards)
        if laid == 0:
            table.act(game.advance)  # no cards keyed: the play is pegged by points
            _follow(table)
        else:
            seat = game.play.turn
            table.act(game.go)
            table.echo = "%s: go" % seat_name(game, seat)
            _follow(table)
    elif e.purpose == "show":
        if len(e.cards) == _needed(game):
            _count(table)
        elif len(e.cards) == len(e.known) and not e.claim:
            table.act(game.advance)
            table.message = "skipped: peg it by points"
            _follow(table)
        else:
            table.message = "%d more cards" % (_needed(game) - len(e.cards))
    else:
        table.message = "key one card per player"


def _count(table):
    game = table.game
    e = table.entry
    claim = int(e.claim) if e.claim else None
    seat, crib = game.showing()
    if claim is not None and game.config.muggins and not is_impossible(claim):
        real = score_show(e.cards, game.starter, crib).total
        if claim < real:
            taker = (game.side_of(seat) + 1) % game.sides
            e.muggins_prompt = "%s takes %d? # yes *no" % (side_name(game, taker), real - claim)
            table.mode = "muggins?"
            return
    _counted(table, claim, False)


def _counted(table, claim, muggins):
    game = table.game
    e = table.entry
    try:
        counted = table.act(game.count_show, e.cards, claim, muggins)
    except IllegalAction:
        e.claim = ""
        e.claiming = True
        table.mode = "cards"
        raise
    table.detail = show_lines(counted.show)
    if not counted.scores:
        whose = "crib" if counted.crib else "hand"
        table.message = "%s %s: no score" % (seat_name(game, counted.seat), whose)
    table.mode = "cards"
    _follow(table)


def muggins_key(table, key):
    e = table.entry
    _counted(table, int(e.claim), key == "#")


def show_lines(show):
    """The breakdown for the OLED: one line per item, then the spoken count."""
    lines = []
    for item in show.items:
        names = " ".join([card_text(c) for c in item.cards])
        lines.append("%s %s =%d" % (_ITEM_LABELS[item.kind], names, item.points))
    lines.append("total %d" % show.total)
    lines.append(show.spoken)
    return lines


def step_status(table):
    game = table.game
    if game.phase == CUT:
        return "cut for deal"
    if game.phase == STARTER:
        return "%s deals: # starter" % seat_name(game, game.dealer)
    if game.phase == PLAY:
        play = game.play
        if play.over:
            return "play over"
        return "play: %s  count %d" % (seat_name(game, play.turn), play.count)
    seat, crib = game.showing()
    return "show: %s %s" % (seat_name(game, seat), "crib" if crib else "hand")


def entry_prompt(table):
    e = table.entry
    game = table.game
    if e.rank:
        return "%s? suit A\x06B\x03C\x04D\x05" % rank_name(e.rank)
    if e.purpose == "starter":
        return "key the starter first" if e.late else "starter? #skip *back"
    if e.purpose == "play":
        return "lay a card  #go *back"
    if e.purpose == "cut":
        return "cut for %s: a card" % seat_name(game, len(e.cards))
    if e.claiming:
        return "claim %s # ok *fix" % e.claim if e.claim else "claim pts, or # none"
    if not e.cards:
        return "key %d cards  #skip" % _needed(game)
    have = " ".join([card_text(c) for c in e.cards])
    return "%d/%d %s" % (len(e.cards), _needed(game), have)
