"""engine: the rules of cribbage, pure and portable (CPython, CircuitPython, MicroPython)."""

from engine.cards import parse_card, parse_cards, card_name
from engine.show import score_hand, score_show, is_impossible
from engine.pegging import peg_points
from engine.game import Game
from engine.rules import make_config
