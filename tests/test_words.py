"""Every prompt, status and message the board can show, at its longest: none wider than the OLED.

A row (a prompt, the status, the last pegs, a menu page's line) must fit the
21 columns as it is; a message may be longer and is wrapped at spaces. Each
public function of cribbage.words and cribbage.pages is rendered here with its widest values
(four players' seat names, three sides, 10s, the biggest scores and tallies);
a function this test does not know fails it, so new wording gets checked too.
"""

import inspect

import pytest

from engine import figures, stats
from engine import state
from engine.cards import parse_card, refused
from engine.errors import BadClaim, CardSeen, OverThirtyOne
from engine.game import Game, OVER
from engine.hand import CUT, PLAY, SHOW, STARTER
from engine.play import Play
from engine.rules import (DOUBLE_SKUNKS, MATCH_GAMES, PLAYERS, SHOTGUN, VARIANT_NAMES, Config,
                          game_values, make_config, targets)
from engine.show import score_show
from cribbage import menu, pages, words
from cribbage.entry import Entry
from cribbage.screen import COLUMNS
from cribbage.settings import BRIGHTNESS_LEVELS, PALETTE_NAMES, Settings

TENS = [36, 37, 38, 39]  # 10S 10H 10D 10C: the widest cards
WIDE = 9999  # wider than any real count: formatting must still fit where it has to


def games():
    """Games in every phase and shape that changes what a row says."""
    out = []
    for players in (2, 3, 4):
        for match in (1, 5):
            game = Game(make_config(players=players, variant=SHOTGUN if players < 4 else 0,
                                    match_games=match, values=(1, 2, 4, 8)))
            game.tally = [10] + [2] * (game.sides - 1)  # the biggest before a match ends
            game.scores = [121] * game.sides
            game.backs = [49] * game.sides  # the last pegs: 72, shotgun's biggest hand
            out.append(game)
    for game in list(out):
        for phase in (CUT, STARTER, PLAY, SHOW, OVER):
            g = Game(game.config)
            g.tally, g.scores, g.backs = game.tally, game.scores, game.backs
            g.phase = phase
            g.dealer = g.players - 1
            if phase == PLAY:
                g.play = Play(g.players, g.players - 1, 6)
                g.play.count = 31
            if phase == SHOW:
                g.show_step = g.players  # the crib (or the last hand)
            if phase == OVER:
                g.winner, g.level = g.sides - 1, 3
            out.append(g)
    return out


def entries(game):
    out = [Entry(CUT, cards=[0] * (game.players - 1)), Entry(STARTER),
           Entry(STARTER, late=True), Entry(PLAY), Entry(SHOW),
           Entry(SHOW, claim="72", claiming=True), Entry(SHOW, rank=10)]
    for n in range(0, 6):
        out.append(Entry(SHOW, cards=TENS[:n] + [32] * max(0, n - 4), claiming=False))
    return out


def rows(value):
    return value if isinstance(value, list) else [value]


def fits_as_a_row(text):
    return len(text) <= COLUMNS


def fits_wrapped(text):
    return all(len(line) <= COLUMNS for line in words.wrap(text))


BREAKDOWN = score_show(TENS[:3] + [4], 40)  # 10S 10H 10D 2S + JS: items with 10s


def cases():
    """(function name, rendered text or lines, a row (True) or a message (False))."""
    out = []
    for game in games():
        out.append(("status", words.status(game), True))
        out.append(("last_pegs", words.last_pegs(game, COLUMNS), True))
        for typed in ("", "7", "72"):
            out.append(("home_prompt", words.home_prompt(game, typed), True))
        out.append(("next_prompt", words.next_prompt(game), True))
        out.append(("side_keys", words.side_keys(game), True))
        out.append(("whose", words.whose("72", game), False))
        out.append(("new_game", words.new_game(game), False))
        for match in (False, True):
            out.append(("replace_page", pages.replace_page(game, match, words.YES_OR_NO), True))
        out.append(("deals", words.deals(game), False))
        out.append(("whose_cards", pages.whose_cards(game), False))
        big = dict.fromkeys(figures.FIELDS, stats.CAP)  # the longest figures a side can have
        big.update(best_hand=29, hand_average=290, crib_average=None)
        for part in (0, 1):
            out.append(("side_stats_page", pages.side_stats_page(game.sides - 1, part, big), True))
        out.append(("match_stats_page", pages.match_stats_page(stats.CAP, [stats.CAP] * 3), True))
        seat = game.players - 1
        out.append(("laid", words.laid(game, seat, 36), False))
        out.append(("went", words.went(game, seat), False))
        out.append(("no_score", words.no_score(game, seat, True), False))
        out.append(("muggins_prompt", words.muggins_prompt(game.sides - 1, 72), True))
        out.append(("said", words.said(game, words.laid(game, seat, 36), [
            state_score(game.sides - 1, 72, ["hand", "corrected"]),
            state_score(0, 12, ["double pair royal"])]), False))
        cut_late = "the cut for deal comes before the first hand"  # the engine's sentence
        out.append(("dealer_page", pages.dealer_page(game, False, cut_late), True))
        out.append(("missing_track", words.missing_track(game, 2), False))
        for e in entries(game):
            out.append(("cards_prompt", words.cards_prompt(game, e, 6), True))
        for side in range(game.sides):
            for own in (True, False):
                out.append(("advise_keying", pages.advise_keying(
                    game, side, own, 7, TENS + [32, 33], 10, words.SUIT_NOW), True))
                shown = [((36, 37), "-12.34", "23.45", "9.99")] * 3
                out.append(("advise_page", pages.advise_page(game, side, own, 12, 21, shown), True))
        out.append(("advise_whose", pages.advise_whose(game, words.SUIT_NOW), True))
    for event in ((state.PEG, 2, 72), (state.STARTER, 36), (state.LAY, 37), (state.GO,),
                  (state.SHOW, 255, 0, 0), (state.NEXT,), (state.DEALER, 3), (state.CUT, 0),
                  (state.MISDEAL,)):
        out.append(("undo_prompt", words.undo_prompt(event), True))
    out.append(("advise_none", pages.advise_none(
        "shotgun has no crib: all 6 cards are kept, none laid away"), True))
    for f in forms():  # every form the keys can make, with its problem on 2 and 3 tracks
        for tracks in (2, 3):
            out.append(("form_page", pages.form_page(f, menu.form_problem(f, tracks)), True))
    out.append(("no_track", pages.no_track(2, 3), True))
    for palette in range(len(PALETTE_NAMES)):
        lights = Settings(BRIGHTNESS_LEVELS, palette)
        out.append(("lights_page", pages.lights_page(lights, BRIGHTNESS_LEVELS, PALETTE_NAMES,
                                                     words.KEYS_LOST), True))
    out.append(("bad_points", words.bad_points("721", 72), False))
    out.append(("no_player", words.no_player("C"), False))
    out.append(("points_first", words.points_first("C"), False))
    out.append(("claim_first", words.claim_first("72"), False))
    for claim in (721, 71):  # the engine's claim refusals: over the cap, and one no hand makes
        out.append(("refusal", words.refusal(claim_refused(claim)), False))
    out.append(("more_cards", words.more_cards(6), False))
    out.append(("cut_already", words.cut_already(36), False))
    out.append(("in_hand_already", words.in_hand_already(36), False))
    out.append(("starter_echo", words.starter_echo(36), False))
    out.append(("show_lines", words.show_lines(BREAKDOWN), False))
    out.append(("refusal", words.refusal(refused(
        CardSeen, "%s is already out this deal (laid in the play)", 36)), False))
    out.append(("refusal", words.refusal(refused(
        OverThirtyOne, "%s makes the count 40; the limit is 31", 36)), False))
    out.append(("wrap", words.wrap(words.TAKEN_OUT_OF_MEMORY), True))
    long = words.TAKEN_OUT_OF_MEMORY
    out.append(("breaks", [long[start:end] for start, end in words.breaks(long)], True))
    out.append(("pad", words.pad("x" * WIDE, COLUMNS), True))
    return out


def forms():
    """Every new-game form: each item at each of engine.rules' choices."""
    out = []
    for players in PLAYERS:
        for variant in range(len(VARIANT_NAMES)):
            for target in targets(variant):
                for double in DOUBLE_SKUNKS:
                    for triple in (False, True):
                        for games in MATCH_GAMES:
                            out.append(Config(players, target, variant, True,
                                              game_values(double, triple), games))
    return out


def claim_refused(claim):
    game = Game(make_config(variant=SHOTGUN))
    try:
        game.check_claim(claim)
    except BadClaim as err:
        return err
    raise AssertionError("%d is a claim a shotgun hand can make" % claim)


def state_score(side, points, reasons):
    from engine.hand import Score
    return Score(side, points, reasons)


def test_every_row_fits_the_screen_and_every_message_wraps_to_it():
    for name, value, is_row in cases():
        for text in rows(value):
            if is_row:
                assert fits_as_a_row(text), (name, text, len(text))
            else:
                assert fits_wrapped(text), (name, text)


def test_the_constant_messages_wrap_to_the_screen():
    for module in (words, pages):
        for name, value in vars(module).items():
            if name.isupper() and isinstance(value, str):
                assert fits_wrapped(value), name
    for line in pages.MENU_PAGE:
        assert fits_as_a_row(line), line


def test_every_wording_function_is_rendered_here():
    rendered = {name for name, _value, _row in cases()}
    for module in (words, pages):
        public = {name for name, f in vars(module).items()
                  if inspect.isfunction(f) and not name.startswith("_")
                  and f.__module__ == module.__name__}
        assert public - rendered == set(), module.__name__


def test_the_widest_rows_are_as_laid_out():
    # The hand-made layouts at their limits, worked out by hand.
    game = Game(make_config(players=3, match_games=5, values=(1, 2, 4, 8)))
    game.tally = [10, 2, 2]
    game.scores, game.backs = [72, 72, 72], [0, 0, 0]
    assert words.last_pegs(game, COLUMNS) == "A72* B72 C72   10-2-2"  # cells closed up
    game.tally = [1, 0, 0]
    game.scores = [12, 5, 7]
    # Cells of (21 - 5 - 1) // 3 = 5: "A+12*" fills one, so they close up.
    assert words.last_pegs(game, COLUMNS) == "A12* B5 C7      1-0-0"
    game.scores = [9, 5, 7]
    # "A+9*" fits its 5: three cells of 5 (15), padded to 21 - 5 = 16, then the tally.
    assert words.last_pegs(game, COLUMNS) == "A+9* B+5  C+7   1-0-0"
    game.tally = [0, 0, 0]
    game.scores, game.backs = [100, 5, 7], [0, 0, 0]
    # Three digits count too: "A+100*" is 6, wider than its 5.
    assert words.last_pegs(game, COLUMNS) == "A100* B5 C7     0-0-0"


def test_the_last_pegs_of_two_sides_fill_their_halves():
    game = Game()  # A deals
    game.scores, game.backs = [27, 119], [15, 0]
    assert words.last_pegs(game, COLUMNS) == "A+12*     B+119     "
    game.scores = [15, 0]
    assert words.last_pegs(game, COLUMNS) == "A+0*      B+0       "


def test_a_show_is_broken_down_a_line_an_item():
    # 10S 10H 10D 2S, the starter JS (hand.py's card ints): the items as the rows say them.
    assert words.show_lines(BREAKDOWN) == [
        "pair 10\x06 10\x03 =2", "pair 10\x06 10\x04 =2", "pair 10\x03 10\x04 =2",
        "total 6", "a pair royal is six"]
    # A shotgun hand's seven-card flush: one format a line, whatever its cards.
    spades = [0, 4, 8, 16, 20, 24]  # AS 2S 3S 5S 6S 7S
    show = score_show(spades, 44, crib=False)  # the starter QS
    lines = words.show_lines(show)
    assert lines[-3:-1] == ["flush A\x06 2\x06 3\x06 5\x06 6\x06 7\x06 Q\x06 =7", "total 25"]
    assert lines[-1].endswith("a run of three is eighteen, a flush of seven is twenty-five")


def test_a_long_message_wraps_at_its_spaces():
    assert words.wrap("fifteen two, fifteen four, a pair is six") == [
        "fifteen two, fifteen", "four, a pair is six"]
    assert words.wrap("one two  three four five six seven") == [  # two spaces at the cut
        "one two  three four", "five six seven"]
    assert words.wrap("a  " + "b" * 19 + " c") == ["a", "b" * 19 + " c"]
    assert words.wrap("x" * 25) == ["x" * 21, "xxxx"]
    # The same breaks as places in the text, for rows made only when shown.
    assert words.breaks("fifteen two, fifteen four, a pair is six") == [(0, 20), (21, 40)]
    assert words.breaks("short") == [(0, 5)] and words.breaks("") == []



def test_a_refusal_is_the_engines_sentence_with_the_cards_named_as_the_oled_names_them():
    game = Game()
    game.turn_starter(parse_card("5H"))
    for card in ("KS", "QS", "2C"):  # the count is 22
        game.lay(parse_card(card))
    with pytest.raises(CardSeen) as seen:
        game.lay(parse_card("5H"))
    assert str(seen.value) == "5H is already out this deal (the starter)"
    assert words.refusal(seen.value) == "5\x03 is already out this deal (the starter)"
    with pytest.raises(OverThirtyOne) as over:
        game.lay(parse_card("10D"))
    assert str(over.value) == "10D makes the count 32; the limit is 31"
    assert words.refusal(over.value) == "10\x04 makes the count 32; the limit is 31"
