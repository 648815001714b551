"""engine.cards: cards as small ints, read from and written as text.

A card is ``(rank - 1) * 4 + suit``: 0..51. Rank 1 is the ace, 11 the jack,
13 the king; suits 0..3 are spades, hearts, diamonds, clubs. Every rank, suit
and count value in the engine is read here.
"""

from engine.errors import BadCard

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOLS = "\u2660\u2665\u2666\u2663"  # ♠ ♥ ♦ ♣
JACK = 11
KING = 13  # the highest rank
DECK_SIZE = 52

# Each card's rank, suit and count value, indexed by the card. The show's count
# is the board's hot path: a subscript costs MicroPython less than the
# arithmetic, and the tables are 156 bytes.
RANK = bytes([c // 4 + 1 for c in range(DECK_SIZE)])
SUIT = bytes([c % 4 for c in range(DECK_SIZE)])
VALUE = bytes([min(c // 4 + 1, 10) for c in range(DECK_SIZE)])


def make_card(rank, suit):
    return (rank - 1) * 4 + suit


def rank_of(card):
    return RANK[card]


def suit_of(card):
    return SUIT[card]


def value_of(card):
    """Count value: faces count 10, the ace 1."""
    return VALUE[card]


def parse_card(text):
    """'5H', '10d', 'TD', 'Q♠' -> card int. A card int (0..DECK_SIZE - 1) passes through."""
    if isinstance(text, int) and not isinstance(text, bool):
        if 0 <= text < DECK_SIZE:
            return text
        raise BadCard("bad card %r: not 0..%d" % (text, DECK_SIZE - 1))
    if not isinstance(text, str):
        raise BadCard("bad card %r" % (text,))
    token = text.strip().upper()
    if len(token) < 2:
        raise BadCard("bad card %r" % (text,))
    suit = SUITS.find(token[-1])
    if suit < 0:
        suit = SUIT_SYMBOLS.find(token[-1])
    if suit < 0:
        raise BadCard("bad card %r: unknown suit %r" % (text, token[-1]))
    rank_text = token[:-1]
    if rank_text == "10":
        rank = 10
    elif len(rank_text) == 1 and rank_text in RANKS:
        rank = RANKS.index(rank_text) + 1
    elif rank_text == "1":
        raise BadCard("bad card %r: A for ace, as in A%s" % (text, token[-1]))
    else:
        raise BadCard("bad card %r: unknown rank %r" % (text, rank_text))
    return make_card(rank, suit)


def parse_cards(texts):
    """Parse a deal's cards; the same card twice is refused."""
    cards = []
    for text in texts:
        card = parse_card(text)
        if card in cards:
            raise BadCard("duplicate card %s" % card_name(card))
        cards.append(card)
    return cards


RANK_NAMES = tuple(["10" if r == "T" else r for r in RANKS])  # a rank's name, by rank - 1


def rank_name(rank):
    return RANK_NAMES[rank - 1]


def card_name(card, symbols=False):
    """5H, 10D, QS; with symbols: 5♥, 10♦, Q♠."""
    if type(card) is not int or not 0 <= card < DECK_SIZE:  # (a card int: no call deeper)
        card = parse_card(card)
    suits = SUIT_SYMBOLS if symbols else SUITS
    return RANK_NAMES[RANK[card] - 1] + suits[SUIT[card]]


def refused(kind, template, *cards):
    """The refusal ``kind`` (an engine.errors class) saying ``template`` with
    each of ``cards`` named at its ``%s``: raise refused(CardSeen, "%s twice", card)."""
    names = []  # a loop, not a comprehension: a refusal is among the deepest chains
    for c in cards:
        names.append(card_name(c))
    return kind(template % tuple(names), cards, template)
