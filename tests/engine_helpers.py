"""tests.engine_helpers: cards from text, a seeded deal, a hand played out, a refusal
that changes nothing: for the engine's checks and tests, under any Python (nothing
here needs pytest or more of the standard library than `sys`).
"""

from engine import parse_cards
from engine import state
from engine.cards import value_of
from engine.errors import IllegalAction
from engine.game import PLAY, SHOW
from engine.rules import has_crib, hand_size


def cards(text):
    return parse_cards(text.split())


def shuffled(seed):
    """A deck in a repeatable order (a small LCG: no `random` needed)."""
    deck = list(range(52))
    x = seed
    for i in range(51, 0, -1):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        j = x % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(game, seed):
    """(hands by seat, crib, starter) for the game's variant from a seeded deck."""
    deck = shuffled(seed)
    size = hand_size(game.config)
    hands = []
    for seat in range(game.players):
        hands.append(deck[seat * size:(seat + 1) * size])
    used = game.players * size
    crib = deck[used:used + 4] if has_crib(game.config) else None
    return hands, crib, deck[51]


def raises(kind, action):
    """Run `action`; it must raise `kind`. Returns the message."""
    try:
        action()
    except kind as err:
        return str(err)
    raise AssertionError("no %s raised" % kind.__name__)


def refused_unchanged(game, action, kind=IllegalAction):
    """`action` is refused and the game is exactly as it was."""
    before = state.encode(game)
    journal = len(game.journal)
    message = raises(kind, action)
    assert state.encode(game) == before
    assert len(game.journal) == journal
    return message


def play_hand(game, hands, crib, starter, log=None, seen=None):
    """Turn the starter, play out `hands` (first card that fits), count every
    show; stops when the game ends. `log` gets encode() after each action;
    `seen(step, outcome, shown)` is called with each action's Outcome, step
    "starter", "play" or "show", shown a show's (seat, is_crib, cards)."""
    scores = []

    def note(result, step, shown=None):
        if log is not None:
            log.append(state.encode(game))
        if seen is not None:
            seen(step, result, shown)
        return result

    scores.extend(note(game.turn_starter(starter), "starter").scores)
    held = [list(h) for h in hands]
    while game.phase == PLAY:
        seat = game.play.turn
        fits = [c for c in held[seat] if game.play.count + value_of(c) <= 31]
        if fits:
            held[seat].remove(fits[0])
            scores.extend(note(game.lay(fits[0]), "play").scores)
        else:
            scores.extend(note(game.go(), "play").scores)
    while game.phase == SHOW:
        seat, is_crib = game.showing()
        cards = crib if is_crib else hands[seat]
        counted = note(game.count_show(cards), "show", (seat, is_crib, cards))
        scores.extend(counted.scores)
    return scores


def total_points(scores, side):
    total = 0
    for s in scores:
        if s.side == side:
            total += s.points
    return total
