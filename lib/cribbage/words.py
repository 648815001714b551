"""cribbage.words: everything the OLED says in play, in one place (the menu's pages
and the advice: cribbage.pages, loaded with them).

The screen is 21 columns: prompts and statuses fit one row (tests render each
with its longest values); messages may be longer and wrap at spaces. Card names
are the rank and the suit's glyph; the engine's refusals name their cards so too.
"""

from engine.cards import rank_name
from engine.errors import IllegalAction
from engine.match import SKUNK_NAMES
from engine.play import NOBODY
from engine.rules import BAD_PEG, NO_PLAYER
from engine.hand import CUT, PLAY, STARTER
from engine.show import CRIB, HAND
from engine.state import action
from cribbage.names import SIDE_LETTERS, card_text, seat_name, side_name
from cribbage.screen import COLUMNS

# Said when there may be no memory to build a sentence: made at import.
KEYS_LOST = "keys came too fast: some were lost, check the board"
OUT_OF_MEMORY = "out of memory: that key did nothing"
TAKEN_OUT_OF_MEMORY = "out of memory: the key was taken, check the board"
NOT_SAVED_MEMORY = "out of memory: not saved"
NOT_SAVED = "not saved"
ERROR = "error"

KEPT = "kept"
UNDONE = "undone"
SUIT_NOW = "now the suit: A B C D"
NO_STARTER = "no starter: count shows by points"
SKIPPED = "skipped: peg it by points"
ONE_CARD_EACH = "key one card per player"
MISDEAL = "misdeal: same dealer"
YES_OR_NO = "# for yes, * for no"
UNDO_NEW_GAME = "undo new game? # yes"

_ITEM_LABELS = {"fifteen": "15", "pair": "pair", "run": "run", "flush": "flush", "nobs": "nobs"}
# An undo's words by the kind of action (engine.state.KIND_NAMES) it takes back.
_UNDO_WORDS = {"go": "the go", "show": "the count", "next": "the skip", "dealer": "dealer",
               "cut": "the cut", "misdeal": "misdeal", "erase": "erase"}


def refusal(err):
    """An engine refusal for the OLED: the engine's sentence, its cards named as here."""
    return err.said(card_text) if isinstance(err, IllegalAction) else str(err)


def said(game, echo, scores):
    """The message after a key: the card keyed and what scored ("A: 5♥  A+2 fifteen").
    (Every string made on the board is looked for among all the names loaded:
    the usual one score and one reason make two, not five.)"""
    parts = []
    for s in scores:
        why = s.reasons
        parts.append("%s+%d %s" % (side_name(s.side), s.points,
                                   why[0] if len(why) == 1 else " ".join(why)))
    if not parts:
        return echo
    what = parts[0] if len(parts) == 1 else ", ".join(parts)
    return "%s  %s" % (echo, what) if echo else what


# --- the scoreboard ------------------------------------------------------------

def side_keys(game):
    """'A or B', 'A, B or C': the keys that peg for this game's sides."""
    keys = [SIDE_LETTERS[s] for s in range(game.sides)]
    return ", ".join(keys[:-1]) + " or " + keys[-1]


def bad_points(points, top):
    return BAD_PEG % (points, top)  # the engine's sentence, for digits typed


def no_player(key):
    return NO_PLAYER % key  # the engine's sentence, for a key with no side


def points_first(key):
    return "type the points first, then %s" % key


def whose(points, game):
    return "whose %s? press %s" % (points, side_keys(game))


def home_prompt(game, typed):
    if typed:
        return "%s: then %s  *clr" % (typed, "/".join(SIDE_LETTERS[:game.sides]))
    if game.over:
        winner = game.match_winner()
        if winner != NOBODY and game.config.match_games > 1:
            return "match to %s! #new" % side_name(winner)
        return "# next game  *undo"
    return "pts+%s #step D menu" % ("A-C" if game.sides == 3 else "A/B")


def undo_prompt(event):
    """The journalled action an undo takes back (its event), named in the prompt."""
    done = action(event)
    kind = done.kind
    if kind == "peg":
        what = "%s+%d" % (side_name(done.side), done.points)
    elif kind == "starter":
        what = "the " + card_text(done.card)  # "undo the 10S? # yes": fits with a 10
    elif kind == "lay":
        what = card_text(done.card) + " laid"
    else:
        what = _UNDO_WORDS.get(kind, "that")
    return "undo %s? # yes" % what


def next_prompt(game):
    match = game.match_winner() != NOBODY and game.config.match_games > 1
    return "%s? # yes *no" % ("new match" if match else "next game")


def new_game(game):
    return "new game: %s deals" % seat_name(game, game.dealer)


def deals(game):
    return "%s deals" % seat_name(game, game.dealer)


def status(game):
    """One row: whose turn and what step, or who won."""
    if game.over:
        text = "%s wins" % side_name(game.winner)
        if game.level:
            text += " " + SKUNK_NAMES[game.level]
        return text + "!"
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
    return "show: %s %s" % (seat_name(game, seat), CRIB if crib else HAND)


def last_pegs(game, width):
    """Each side's last peg, the dealer starred, in cells of ``width``, and a
    match's tally at the end of the row."""
    tally = "-".join([str(t) for t in game.tally]) if game.config.match_games > 1 else ""
    cell_width = (width - len(tally) - (1 if tally else 0)) // game.sides
    dealer = game.side_of(game.dealer)
    scores, backs = game.scores, game.backs
    fields = []  # type: list  # letter, points, the star's width, the star: a cell a side
    fits = True
    for side in range(game.sides):
        n = scores[side] - backs[side]
        star = "*" if side == dealer else ""
        # the cell's length, counted, not made: the row is one string
        used = 2 + (1 if n < 10 else 2 if n < 100 else 3) + len(star) if n >= 0 else width
        fits = fits and used < cell_width
        fields.extend((SIDE_LETTERS[side], n, cell_width - used + len(star), star))
    if fits:
        row = _CELLS[game.sides] % tuple(fields)
    else:  # three sides and a long tally: the cells close up, "A12* B5 C7"
        row = " ".join(["%s%d%s" % (fields[i], fields[i + 1], fields[i + 3])
                        for i in range(0, len(fields), 4)]) + " "
    return pad(row, width - len(tally)) + tally if tally else row


_CELL = "%s+%d%-*s"  # A+12*, padded to the cell
_CELLS = ("", _CELL, _CELL * 2, _CELL * 3)  # a row of 1, 2 or 3 cells


def pad(text, width):
    """``text`` cut or filled with spaces to ``width`` characters."""
    return "%-*s" % (width, text) if len(text) < width else text[:width]


# --- keying cards ----------------------------------------------------------------

def cards_prompt(game, e, needed):
    """What the next key does while keying cards (``e``: cribbage.entry.Entry)."""
    if e.rank:
        return "%s? suit A\x06B\x03C\x04D\x05" % rank_name(e.rank)
    if e.purpose == STARTER:
        return "key the starter first" if e.late else "starter? #skip *back"
    if e.purpose == PLAY:
        return "lay a card  #go *back"
    if e.purpose == CUT:
        return "cut for %s: a card" % seat_name(game, len(e.cards))
    if e.claiming:
        return "claim %s # ok *fix" % e.claim if e.claim else "claim? #board counts"
    if not e.cards:
        return "key %d cards  #skip" % needed
    have = "%d/%d %s" % (len(e.cards), needed, " ".join([card_text(c) for c in e.cards]))
    if len(have) > COLUMNS:  # five tens of a six-card hand: the cards close up
        have = "%d/%d %s" % (len(e.cards), needed, "".join([card_text(c) for c in e.cards]))
    return have


def claim_first(claim):
    return ("claim %s? " % claim if claim else "") + "# first, then the cards"


def more_cards(n):
    return "%d more cards" % n


def cut_already(card):
    return "%s is cut already" % card_text(card)


def in_hand_already(card):
    return "%s is in this hand already" % card_text(card)


def starter_echo(card):
    return "starter: " + card_text(card)


def laid(game, seat, card):
    return "%s: %s" % (seat_name(game, seat), card_text(card))


def went(game, seat):
    return "%s: go" % seat_name(game, seat)


def no_score(game, seat, crib):
    return "%s %s: no score" % (seat_name(game, seat), CRIB if crib else HAND)


def muggins_prompt(side, points):
    return "%s takes %d? # yes *no" % (side_name(side), points)


def show_lines(show):
    """A show's breakdown: a line an item, the total, then the count as spoken.
    (One string made a line: "15 5\x03 J\x06 =2" from a format for its cards.)"""
    lines = []
    for item in show.items:
        fields = [_ITEM_LABELS[item.kind]]
        for c in item.cards:
            fields.append(card_text(c))
        fields.append(item.points)
        n = len(item.cards)
        line = _ITEM_LINES[n] if n < len(_ITEM_LINES) else "%s" + " %s" * n + " =%d"
        lines.append(line % tuple(fields))
    lines.append("total %d" % show.total)
    lines.append(show.spoken)
    return lines


# An item's line by its number of cards (a shotgun show's seven are made when met).
_ITEM_LINES = tuple(["%s" + " %s" * n + " =%d" for n in range(6)])


# --- what the board says at start ----------------------------------------------

def missing_track(game, tracks):
    names = "/".join([side_name(s) for s in range(tracks, game.sides)])
    return "%s has no track: set CRIBBAGE_TRACKS = %d, or D 1 for a new game" % (names, game.sides)


def wrap(text, width=COLUMNS):
    """Lines of at most ``width`` characters, broken at spaces where possible."""
    if len(text) <= width:
        return [text] if text else []  # most messages: one row
    return [text[start:end] for start, end in breaks(text, width)]


def breaks(text, width=COLUMNS):
    """Where ``wrap`` breaks ``text``: (start, end) of each line, no string made
    (a long breakdown's lines are made only as they scroll into view)."""
    n = len(text)
    if n <= width:
        return [(0, n)] if text else []
    out = []
    start = 0
    while start < n:
        if n - start <= width:
            out.append((start, n))
            break
        cut = text.rfind(" ", start, start + width + 1)
        if cut <= start:  # a word longer than a row: cut it
            out.append((start, start + width))
            start += width
        else:
            end = cut
            while end > start and text.startswith(" ", end - 1):  # no row ends with a space
                end -= 1
            out.append((start, end))
            start = cut + 1
        while text.startswith(" ", start):  # no row starts with a space
            start += 1
    return out
