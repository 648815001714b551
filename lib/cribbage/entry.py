"""cribbage.entry: keying the cards of the hand's step: the cut, the starter, the play, a show.

A card is a rank key then a suit key (ranks 1 = A, 2..9, 0 = 10, A = J, B = Q,
C = K; suits A spades, B hearts, C diamonds, D clubs). ``*`` takes back the last
key or card, or goes back to the scoreboard; ``#`` finishes the step. A show
starts with the claim (digits, then ``#``; ``#`` alone: no claim).
"""

from engine.errors import IllegalAction
from engine.hand import CUT, PLAY, SHOW, STARTER
from engine.play import NOBODY
from engine.rules import CRIB_SIZE, hand_size
from cribbage import words
from cribbage.keys import SUIT_KEYS, card_of_keys, rank_of_key
from cribbage.turn import CARDS, HOME, MENU, MUGGINS, Turn, acted


class Entry:
    """Cards keyed so far for one step. Never changed: ``but`` makes the next one.
    ``purpose``: the step they are keyed for, engine.hand's CUT, STARTER, PLAY or SHOW."""

    def __init__(self, purpose, known=(), late=False, rank=0, cards=None, claim="",
                 claiming=None):
        self.purpose = purpose
        self.known = list(known)  # a show: the cards this hand laid in the play
        self.late = late          # the starter, skipped at the turn, keyed for the show
        self.rank = rank          # a rank keyed, waiting for its suit
        self.cards = self.known if cards is None else cards
        self.claim = claim        # the claim's digits
        self.claiming = purpose == SHOW if claiming is None else claiming

    def but(self, rank=None, cards=None, claim=None, claiming=None):
        return Entry(self.purpose, self.known, self.late,
                     self.rank if rank is None else rank,
                     self.cards if cards is None else cards,
                     self.claim if claim is None else claim,
                     self.claiming if claiming is None else claiming)


def enter(ctx, purpose):
    """The entry for the step the hand is at (or for the cut, from the menu)."""
    game = ctx.game
    if purpose == CUT or game.phase == CUT:
        return Entry(CUT)
    if game.phase == STARTER:
        return Entry(STARTER)
    if game.phase == PLAY:
        return Entry(PLAY)
    return _show_entry(game)


def _show_entry(game):
    if game.starter == NOBODY:
        return Entry(STARTER, late=True)  # a show is counted with its starter
    return Entry(SHOW, game.known_cards())


def needed(game):
    seat, crib = game.showing()
    return CRIB_SIZE if crib else hand_size(game.config)


def key(ctx, e, key):
    if e.claiming:
        return _claim_key(ctx, e, key)
    if e.rank:
        if key in SUIT_KEYS:
            keyed = e.but(rank=0)
            try:
                return _take(ctx, keyed, card_of_keys(e.rank, key))
            except IllegalAction as err:
                return Turn(CARDS, keyed, words.refusal(err))
        if key == "*":
            return Turn(CARDS, e.but(rank=0))
        return Turn(CARDS, e, words.SUIT_NOW)
    rank = rank_of_key(key)
    if rank:
        return Turn(CARDS, e.but(rank=rank))
    if key == "*":
        if len(e.cards) > len(e.known):
            return Turn(CARDS, e.but(cards=e.cards[:-1]))
        return Turn(HOME)
    if key == "#":
        return _finish(ctx, e)
    return Turn(MENU)  # D


def prompt(ctx, e):
    game = ctx.game
    return words.cards_prompt(game, e, needed(game) if game.showing() else 0)


def _claim_key(ctx, e, key):
    # Digits, # or * only: a card key here would be read as part of the claim.
    game = ctx.game
    if key.isdigit():
        claim = str(int(e.claim + key))  # no leading zeros: a claim never grows past the cap
        try:
            game.check_claim(int(claim))  # over the cap, or one no hand makes: refused now
        except IllegalAction as err:
            return Turn(CARDS, e.but(claim=""), words.refusal(err))
        return Turn(CARDS, e.but(claim=claim))
    if key == "#":
        e = e.but(claiming=False)
        if len(e.cards) == needed(game):
            return _count(ctx, e)
        return Turn(CARDS, e)
    if key == "*":
        return Turn(CARDS, e.but(claim=e.claim[:-1])) if e.claim else Turn(HOME)
    if key == "D":
        return Turn(MENU)
    return Turn(CARDS, e, words.claim_first(e.claim))


def _take(ctx, e, card):
    game = ctx.game
    if e.purpose == STARTER:
        turn = _follow(game, e, game.turn_starter(card))
        turn.echo = words.starter_echo(card)
        return turn
    if e.purpose == PLAY:
        seat = game.play.turn
        turn = _follow(game, e, game.lay(card))
        turn.echo = words.laid(game, seat, card)
        return turn
    if card in e.cards:
        said = words.cut_already(card) if e.purpose == CUT else words.in_hand_already(card)
        return Turn(CARDS, e, said)
    cards = e.cards + [card]
    if e.purpose == CUT:
        if len(cards) < game.players:
            return Turn(CARDS, e.but(cards=cards))
        try:
            outcome = game.cut_for_deal(cards)
        except IllegalAction as err:
            return Turn(CARDS, e.but(cards=[]), words.refusal(err))  # a tie: cut again
        return acted(Turn(HOME, "", words.deals(game)), outcome)
    game.check_card(card)
    if len(cards) == needed(game):
        return _count(ctx, e.but(cards=cards))
    return Turn(CARDS, e.but(cards=cards))


def _follow(game, e, outcome):
    """After an action: the cards of whatever step the hand is at now."""
    if game.phase == PLAY:
        turn = Turn(CARDS, e if e.purpose == PLAY else Entry(PLAY))
    elif game.phase == SHOW:
        late = e.purpose == STARTER and game.starter == NOBODY
        turn = Turn(CARDS, e if late else _show_entry(game))
    else:
        turn = Turn(HOME)
    return acted(turn, outcome)


def _finish(ctx, e):
    game = ctx.game
    if e.purpose == STARTER:
        turn = _follow(game, e, game.advance())
        turn.say = words.SKIPPED if e.late else words.NO_STARTER
        return turn
    if e.purpose == PLAY:
        laid = 0
        for cards in game.play.laid:
            laid += len(cards)
        if laid == 0:
            return _follow(game, e, game.advance())  # nothing keyed: the play pegged by points
        seat = game.play.turn
        turn = _follow(game, e, game.go())
        turn.echo = words.went(game, seat)
        return turn
    if e.purpose == SHOW:
        if len(e.cards) == needed(game):
            return _count(ctx, e)
        if len(e.cards) == len(e.known) and not e.claim:
            turn = _follow(game, e, game.advance())
            turn.say = words.SKIPPED
            return turn
        return Turn(CARDS, e, words.more_cards(needed(game) - len(e.cards)))
    return Turn(CARDS, e, words.ONE_CARD_EACH)


def _count(ctx, e, muggins=None):
    """Count the keyed cards; with muggins on, a short claim first asks whether
    the other side takes what it missed (``muggins``: the answer)."""
    game = ctx.game
    claim = int(e.claim) if e.claim else None
    if muggins is None and claim is not None and game.config.muggins:
        try:
            real = game.preview(game.count_show, e.cards).show.total
        except IllegalAction:
            real = claim  # refused either way: the count itself says why
        if claim < real:
            taker = (game.side_of(game.showing()[0]) + 1) % game.sides
            return Turn(MUGGINS, (e, taker, real - claim))
    try:
        outcome = game.count_show(e.cards, claim, muggins)
    except IllegalAction as err:
        return Turn(CARDS, e.but(claim="", claiming=True), words.refusal(err))
    turn = _follow(game, e, outcome)
    turn.detail = words.show_lines(outcome.show)
    if not outcome.scores:
        turn.say = words.no_score(game, outcome.seat, outcome.crib)
    return turn


def muggins_key(ctx, asked, key):
    return _count(ctx, asked[0], key == "#")


def muggins_prompt(ctx, asked):
    return words.muggins_prompt(asked[1], asked[2])
