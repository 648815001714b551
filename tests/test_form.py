"""The new-game form: its choices are engine.rules', its refusals check_config's, and
the game # starts is the game the form shows."""

from engine.errors import BadConfig
from engine.rules import (FIVE_CARD, MATCH_GAMES, PLAYERS, SEVEN_CARD, VARIANT_NAMES,
                          check_config, make_config, targets)
from cribbage import menu, pages
from cribbage.turn import FORM

from firmware import Table


def test_a_five_card_form_shows_61_holes_and_the_game_plays_to_61():
    t = Table().keys("D 1 3")
    assert t.oled() == ["NEW GAME   # start", "1 players 2", "2 holes 61", "3 five-card",
                        "4 muggins off", "5 skunk 1/2/4", "6 triple skunk off", "7 match of 1"]
    t.keys("2")  # five-card has no other length
    assert t.oled()[2] == "2 holes 61"
    t.keys("#")
    assert t.game.config == make_config(variant=FIVE_CARD)
    assert t.game.config.target == 61 and t.scores == [0, 3]  # three for last to the pone
    t.keys("29A 29A 2A")
    assert not t.game.over and t.scores == [60, 3]
    t.keys("1A")  # hole 61 ends it
    assert t.game.over and t.game.winner == 0 and t.scores == [61, 3]


def test_off_five_card_the_form_is_back_at_121_holes():
    t = Table().keys("D 1 3 3")
    assert t.oled()[2:4] == ["2 holes 121", "3 seven-card"]
    t.keys("2")
    assert t.oled()[2] == "2 holes 61"
    t.keys("#")
    assert t.game.config.target == 61 and t.game.config.variant == SEVEN_CARD


def test_five_card_for_three_is_the_engines_refusal_and_nothing_starts():
    with_three = Table(tracks=3).keys("D 1 1 3")
    try:
        make_config(players=3, variant=FIVE_CARD)
    except BadConfig as err:
        refused = str(err)
    assert with_three.oled()[:4] == [refused, "1 players 3", "2 holes 61", "3 five-card"]
    before = with_three.game
    with_three.keys("#")
    assert with_three.mode == FORM and with_three.message == refused
    assert with_three.game is before and before.config == make_config()


def _reachable(ctrl):
    """Every form the keys 1-7 reach from the game's own settings."""
    first = menu._form_from(ctrl.game.config)
    seen, todo = {first}, [first]
    while todo:
        f = todo.pop()
        for key in "1234567":
            turn = menu.form_key(ctrl, f, key)
            assert turn.mode == FORM
            if turn.here not in seen:
                seen.add(turn.here)
                todo.append(turn.here)
    return seen


def test_every_form_the_keys_reach_starts_the_game_it_shows_or_says_why_not():
    ctrl = Table(tracks=3).app.ctrl  # the board's own context: its game and its 3 tracks
    forms = _reachable(ctrl)
    # Each item at each of its choices: 3 players x 9 variant/holes x muggins x
    # double skunk 4/3 x triple skunk x 3 match lengths.
    assert len(forms) == len(PLAYERS) * 9 * 2 * 2 * 2 * len(MATCH_GAMES)
    started = refused = 0
    for f in forms:
        page = pages.form_page(f, menu.form_problem(f, 3))
        assert page[2] == "2 holes %d" % f.target and f.target in targets(f.variant)
        assert page[3] == "3 " + VARIANT_NAMES[f.variant]
        turn = menu.form_key(ctrl, f, "#")
        try:
            check_config(f)
        except BadConfig as err:
            assert page[0] == str(err) and turn.mode == FORM and turn.game is None
            refused += 1
            continue
        assert page[0] == "NEW GAME   # start"
        assert turn.game.config == f  # exactly the game the form showed
        started += 1
    # Refused: five-card (61 holes only) for 3 or 4 players, whatever else is set.
    assert refused == 2 * 1 * 2 * 2 * 2 * len(MATCH_GAMES)
    assert started == len(forms) - refused
