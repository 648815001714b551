"""cribbage.advise: which cards to lay away, on the board (D 7).

First whose cards they are (A, B or C: whose crib it is follows from the
dealer), then the cards dealt, a rank key and a suit key each as everywhere;
after the last one the lay-aways are shown best first, three to a page, with
what each can expect: the kept cards' average show, plus the crib's average
when the crib is yours, less it when it is not (engine.cribtable: the hand
exact, the crib from a table, marked as about). ``#`` shows the next three,
``D`` flips whose crib it is, ``*`` takes back a card or goes back.

Loaded the first time the advice is asked for (from the controller's mode
table), never at boot.
"""

if __debug__:  # CPython's and a .py's: mpy-cross -O3 folds const() without it
    from micropython import const
from engine import cribtable
from engine.discard import deal_shape, hundredths, points_text
from engine.errors import IllegalAction
from cribbage import pages, words
from cribbage.keys import PLAYER_KEYS, SUIT_KEYS, card_of_keys, rank_of_key
from cribbage.turn import ADVISE, HOME, Mode, Turn

_SHOWN = const(3)  # lay-aways a page


class Asked:
    """The advice's state; a key makes a new one."""

    def __init__(self, side=None, own=False, cards=(), rank=0, advice=None, first=0):
        self.side = side      # whose cards (None: not asked yet)
        self.own = own        # the crib is theirs (or their partner's)
        self.cards = cards    # the cards dealt, keyed so far
        self.rank = rank      # a rank keyed, waiting for its suit
        self.advice = advice  # engine.discard.Advice, once every card is in
        self.first = first    # the first lay-away on the page


def enter(ctx, purpose):
    return Asked()


def key(ctx, a, key):
    game = ctx.game
    try:
        dealt = _shape(game)[0]
    except IllegalAction as err:  # shotgun: no crib, nothing laid away
        return Turn(HOME, None, words.refusal(err))
    if a.side is None:
        if key in PLAYER_KEYS and PLAYER_KEYS.index(key) < game.sides:
            side = PLAYER_KEYS.index(key)
            return Turn(ADVISE, Asked(side, side == game.side_of(game.dealer)))
        if key == "*":
            return Turn(HOME)
        return Turn(ADVISE, a, pages.whose_cards(game))
    if a.advice is not None:
        if key == "#":
            more = a.first + _SHOWN
            return Turn(ADVISE, Asked(a.side, a.own, a.cards, 0, a.advice,
                                      more if more < len(a.advice.choices) else 0))
        if key == "D":
            return _advise(game, Asked(a.side, not a.own, a.cards))
        if key == "*":
            return Turn(ADVISE, Asked(a.side, a.own, a.cards[:-1]))
        return Turn(ADVISE, a)
    if a.rank:
        if key in SUIT_KEYS:
            card = card_of_keys(a.rank, key)
            if card in a.cards:
                return Turn(ADVISE, Asked(a.side, a.own, a.cards), words.in_hand_already(card))
            cards = a.cards + (card,)
            if len(cards) == dealt:
                return _advise(game, Asked(a.side, a.own, cards))
            return Turn(ADVISE, Asked(a.side, a.own, cards))
        if key == "*":
            return Turn(ADVISE, Asked(a.side, a.own, a.cards))
        return Turn(ADVISE, a, words.SUIT_NOW)
    rank = rank_of_key(key)
    if rank:
        return Turn(ADVISE, Asked(a.side, a.own, a.cards, rank))
    if key == "*":
        if a.cards:
            return Turn(ADVISE, Asked(a.side, a.own, a.cards[:-1]))
        return Turn(HOME)
    return Turn(ADVISE, a)


def _shape(game):
    return deal_shape(game.players, game.config.variant)


def _advise(game, a):
    advice = cribtable.advise(a.cards, game.players, a.own, game.config.variant)
    return Turn(ADVISE, Asked(a.side, a.own, a.cards, 0, advice))


def page(ctx, a):
    game = ctx.game
    try:
        dealt = _shape(game)[0]
    except IllegalAction as err:  # a game with no crib: nothing to lay away
        return pages.advise_none(words.refusal(err))
    if a.side is None:
        return pages.advise_whose(game, ctx.message)
    if a.advice is None:
        return pages.advise_keying(game, a.side, a.own, dealt, a.cards, a.rank, ctx.message)
    advice = a.advice
    shown = []
    d = advice.denominator
    for choice in advice.choices[a.first:a.first + _SHOWN]:
        # The total and the hand rounded (the totals stay in order, the hand as the
        # laptop gives it); the crib, the table's estimate, is what makes the line add up.
        e = choice.expected
        total = hundredths(e, d) if e >= 0 else -hundredths(-e, d)
        hand = hundredths(choice.hand, d)
        crib = total - hand if a.own else hand - total
        shown.append((choice.laid, points_text(total, 100), points_text(hand, 100),
                      points_text(crib, 100)))
    return pages.advise_page(game, a.side, a.own, a.first, len(advice.choices), shown)


MODES = {ADVISE: Mode(key, enter, None, page)}
