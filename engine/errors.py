"""engine.errors: why something is refused, in a sentence a player understands.

Each class is raised for one reason. An IllegalAction is a rule of the game
saying no (the base class, never raised itself); BadCard and BadSave are input
that is not what it claims to be. All are ValueErrors.
"""


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why.

    ``cards`` are the cards the message names. Made by engine.cards.refused,
    ``template`` is the sentence with a ``%s`` for each: the message names them
    as card_name writes them ("5H twice"), ``said()`` as a display names them
    (the OLED's suit glyphs), and the sentence is written once, at its rule.
    """

    def __init__(self, message, cards=(), template=None):
        super().__init__(message)
        self.cards = cards
        self.template = template

    def said(self, name):
        """The sentence with each card named by ``name(card)``."""
        if self.template is None:
            return str(self)
        return self.template % tuple([name(c) for c in self.cards])


class WrongPhase(IllegalAction):
    """Not at this point of the hand: a lay in the show, a go while a card
    still fits, a misdeal after cards are laid, undo at the game's start."""


class GameOver(IllegalAction):
    """The game has ended: only undo or the next game."""


class NoSuchSeat(IllegalAction):
    """A seat or side the game does not have."""


class OverThirtyOne(IllegalAction):
    """The card would take the play's count past 31."""


class CardSeen(IllegalAction):
    """A card already out this deal, or keyed twice."""


class WrongCards(IllegalAction):
    """Cards that do not fit the step: too many or too few, not the cards
    this hand laid, or a cut for deal that ties."""


class BadClaim(IllegalAction):
    """Points no score can be: a claim the cards (or any hand) cannot make,
    or a peg outside what one score can be."""


class BadConfig(IllegalAction):
    """Settings no game is played under."""


class BadCard(ValueError):
    """Text (or a number) that is not a card."""


class BadSave(ValueError):
    """Bytes that are not a saved game this engine reads."""
