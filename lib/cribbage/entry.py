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
from cribbage.turn import CARDS, HOME, MENU, MUGGINS, Mode, Turn


class Entry:
    """Cards keyed so far for one step. Never changed: ``but`` makes the next one.
    ``purpose``: the step they are keyed for, engine.hand's CUT, STARTER, PLAY or SHOW.
    (What an entry does not set is its class's: fewer attributes, less to make a key.)"""

    known = ()      # a show: the cards this hand laid in the play
    late = False    # the starter, skipped at the turn, keyed for the show
    rank = 0        # a rank keyed, waiting for its suit
    claim = ""      # the claim's digits
    claiming = False

    def __init__(self, purpose, known=(), late=False, rank=0, cards=None, claim="",
                 claiming=None):
        self.purpose = purpose
        if known:
            self.known = known
        if late:
            self.late = late
        if rank:
            self.rank = rank
        # (cards: a new list at the start; lists are never changed in place)
        self.cards = list(known) if cards is None else cards
        if claim:
            self.claim = claim
        if claiming is None:
            claiming = purpose == SHOW  # a show starts with its claim
        if claiming:
            self.claiming = True

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
        return _follow(e, game.propose(game.turn_starter, card), echo=words.starter_echo(card))
    if e.purpose == PLAY:
        change = game.propose(game.lay, card)
        return _follow(e, change, echo=words.laid(game, game.to_play(), card))
    if card in e.cards:
        said = words.cut_already(card) if e.purpose == CUT else words.in_hand_already(card)
        return Turn(CARDS, e, said)
    cards = e.cards + [card]
    if e.purpose == CUT:
        if len(cards) < game.players:
            return Turn(CARDS, e.but(cards=cards))
        try:
            change = game.propose(game.cut_for_deal, cards)
        except IllegalAction as err:
            return Turn(CARDS, e.but(cards=[]), words.refusal(err))  # a tie: cut again
        return Turn(HOME, "", change=change, report=words.deals)
    game.check_card(card)
    if len(cards) == needed(game):
        return _count(ctx, e.but(cards=cards))
    return Turn(CARDS, e.but(cards=cards))


def _follow(e, change, say="", echo="", detail=None):
    """After an action: the cards of whatever step the hand is at then (the
    same entry while it goes on, else a new one made for the step at commit)."""
    if change.phase == PLAY:
        mode, here = CARDS, e if e.purpose == PLAY else None
    elif change.phase == SHOW:
        late = e.purpose == STARTER and change.starter == NOBODY
        mode, here = CARDS, e if late else None
    else:
        mode, here = HOME, None
    return Turn(mode, here, say, change=change, echo=echo, detail=detail)


def _finish(ctx, e):
    game = ctx.game
    if e.purpose == STARTER:
        return _follow(e, game.propose(game.advance), words.SKIPPED if e.late else words.NO_STARTER)
    if e.purpose == PLAY:
        if game.cards_laid() == 0:  # nothing keyed: the play pegged by points
            return _follow(e, game.propose(game.advance))
        return _follow(e, game.propose(game.go), echo=words.went(game, game.to_play()))
    if e.purpose == SHOW:
        if len(e.cards) == needed(game):
            return _count(ctx, e)
        if len(e.cards) == len(e.known) and not e.claim:
            return _follow(e, game.propose(game.advance), words.SKIPPED)
        return Turn(CARDS, e, words.more_cards(needed(game) - len(e.cards)))
    return Turn(CARDS, e, words.ONE_CARD_EACH)


def _count(ctx, e, taken=None):
    """Count the keyed cards; with muggins on, a short claim first asks whether
    the other side takes what it missed (``taken``: the Change if they do)."""
    game = ctx.game
    claim = int(e.claim) if e.claim else None
    try:
        if taken is None and claim is not None and game.config.muggins:
            change = game.propose(game.count_show, e.cards, claim, True)
            shower = game.side_of(change.outcome.seat)
            for s in change.outcome.scores:  # the rules' own taker, and what he takes
                if s.side != shower:
                    return Turn(MUGGINS, (e, s.side, s.points, change))
        change = taken or game.propose(game.count_show, e.cards, claim, False)
    except IllegalAction as err:
        return Turn(CARDS, e.but(claim="", claiming=True), words.refusal(err))
    outcome = change.outcome
    say = "" if outcome.scores else words.no_score(game, outcome.seat, outcome.crib)
    return _follow(e, change, say, detail=words.show_lines(outcome.show))


def muggins_key(ctx, asked, key):
    return _count(ctx, asked[0], asked[3] if key == "#" else False)


def muggins_prompt(ctx, asked):
    return words.muggins_prompt(asked[1], asked[2])


MODES = {
    CARDS: Mode(key, enter, prompt),
    MUGGINS: Mode(muggins_key, None, muggins_prompt),
}
