"""engine: the rules of cribbage, pure and portable (CPython, CircuitPython, MicroPython)."""

from engine.cards import parse_card, parse_cards, card_name
from engine.show import score_hand, score_show
from engine.rules import is_impossible, limits
from engine.pegging import peg_points
from engine.game import Game, Outcome, Score
from engine.rules import make_config

# The names `from engine import ...` offers (docs/rules-engine.md).
__all__ = ["parse_card", "parse_cards", "card_name", "score_hand", "score_show", "is_impossible",
           "limits", "peg_points", "Game", "Outcome", "Score", "make_config"]
