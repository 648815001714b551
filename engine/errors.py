"""engine.errors: why an action is refused, in a sentence a player understands."""


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


class WrongPhase(IllegalAction):
    pass


class NotYourTurn(IllegalAction):
    pass


class OverThirtyOne(IllegalAction):
    pass


class CardSeen(IllegalAction):
    pass


class GameOver(IllegalAction):
    pass


class BadClaim(IllegalAction):
    pass
