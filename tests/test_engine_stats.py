"""The statistics the engine keeps: whole games played, each figure checked
against a count this test keeps itself from the scores each action returns."""

import pytest

from engine import state
from engine import figures
from engine import stats as st
from engine.cards import JACK, RANK, SUIT
from engine.game import Game
from engine.match import skunk_level
from engine.rules import make_config
from engine.show import score_show

from engine_helpers import deal, play_hand


class Count:
    """The test's own tally, from what each action said it scored."""

    def __init__(self, sides=3):
        self.side = [dict.fromkeys(figures.FIELDS, 0) for _ in range(sides)]
        self.games = 0

    def scores(self, scores, field):
        for s in scores:
            self.side[s.side][field] += s.points

    def shown(self, game, seat, crib, cards, starter, outcome):
        side = game.side_of(seat)
        c = self.side[side]
        total = score_show(cards, starter, crib).total
        c["cribs" if crib else "hands"] += 1
        c["crib_points" if crib else "hand_points"] += sum(
            s.points for s in outcome.scores if s.side == side and s.reasons[0] != "muggins")
        c["best_hand"] = max(c["best_hand"], total)
        if total in (29, 28, 24):
            c["hands_%d" % total] += 1
        if any(RANK[x] == JACK and SUIT[x] == SUIT[starter] for x in cards):
            c["nobs"] += 1

    def seen(self, game, starter, step, out, shown):
        if step == "starter":  # what the starter pegs is his heels
            for s in out.scores:
                self.side[s.side]["heels"] += 1
        elif step == "play":
            self.scores(out.scores, "play_points")
        else:
            self.shown(game, shown[0], shown[1], shown[2], starter, out)

    def ended(self, game, match_won):
        self.games += 1
        others = [s for s in range(game.sides) if s != game.winner]
        runner = max(others, key=lambda s: game.scores[s])
        level = skunk_level(game.scores[runner], game.config.target, game.config.values)
        w, lo = self.side[game.winner], self.side[runner]
        w["wins"] += 1
        if level == 1:
            w["skunks"] += 1
            lo["skunked"] += 1
        elif level > 1:
            w["double_skunks"] += 1
            lo["double_skunked"] += 1
        if match_won:
            w["matches"] += 1

    def check(self, game):
        assert game.stats[0] == self.games
        for s in range(st.SIDES):
            got = figures.side(game.stats, s)
            for name in figures.FIELDS:
                assert got[name] == self.side[s][name], (s, name)


def play_game(game, count, seed, typed_every=0):
    """Deals from seeded decks until the game ends; every `typed_every`th deal
    is pegged by typed points instead (the hands' worth, a side at a time)."""
    n = 0
    while not game.over:
        n += 1
        hands, crib, starter = deal(game, seed * 100 + n)
        if typed_every and n % typed_every == 0:
            for side in range(game.sides):
                if not game.over:
                    count.scores(game.peg(side, 1 + (seed + n + side) % 12).scores, "typed_points")
            continue
        play_hand(game, hands, crib, starter, seen=lambda step, out, shown: count.seen(
            game, starter, step, out, shown))
    count.ended(game, game.match_winner() == game.winner and game.config.match_games > 1)


def test_two_players_by_cards_and_typed_points_over_three_games():
    game, count = Game(), Count()
    for seed in (1, 2, 3):
        play_game(game, count, seed, typed_every=3)
        count.check(game)
        game.next_game()
        count.check(game)  # the next game keeps them
    assert count.games == 3 and sum(c["hands"] for c in count.side) > 20
    assert count.side[0]["typed_points"] + count.side[1]["typed_points"] > 0


def test_three_players_and_partnerships():
    for players in (3, 4):
        game, count = Game(make_config(players)), Count()
        play_game(game, count, 7 + players)
        count.check(game)
        assert sum(c["cribs"] for c in count.side) > 0


def test_a_match_of_three_counts_the_match_once():
    game, count = Game(make_config(match_games=3)), Count()
    seed = 11
    while True:
        play_game(game, count, seed)
        count.check(game)
        if game.match_winner() == game.winner:
            break
        game.next_game()
        seed += 1
    assert sum(c["matches"] for c in count.side) == 1
    game.next_game()  # a new match: the tally goes, the stats stay
    assert max(game.tally) == 0
    count.check(game)


def test_games_pegged_only_by_typed_points_count_games_wins_and_skunks():
    game, count = Game(), Count()
    while not game.over:
        count.scores(game.peg(0, 29).scores, "typed_points")
    count.ended(game, False)
    count.check(game)
    side = figures.side(game.stats, 0)
    assert (side["wins"], side["double_skunks"], side["typed_points"]) == (1, 1, 145)
    assert figures.side(game.stats, 1)["double_skunked"] == 1


def test_undo_takes_back_what_an_action_added_across_a_game_end():
    game, count = Game(), Count()
    play_game(game, count, 5)
    assert game.stats[0] == 1
    winner = game.winner
    game.undo()  # the action that ended the game
    assert game.stats[0] == 0 and figures.side(game.stats, winner)["wins"] == 0
    before = game.stats
    for _ in range(len(game.journal)):
        game.undo()
    assert game.stats == st.ZERO
    assert before != st.ZERO


def test_each_undo_gives_back_the_stats_as_they_were_checkpoints_and_caps_included():
    near = list(st.ZERO)
    near[1 + figures.FIELDS.index("typed_points")] = st.CAP - 40  # reaches the cap on the way
    game = Game(stats=near)
    seen = [list(game.stats)]
    for i in range(60):  # past three checkpoints (one each 16 actions)
        game.peg(i % 2, 1 + i % 3)
        seen.append(list(game.stats))
    assert figures.side(game.stats, 0)["typed_points"] == st.CAP
    while game.journal:
        game.undo()
        assert list(game.stats) == seen[len(game.journal)]
    assert seen[0] == near


def test_erasing_is_an_action_undo_brings_back():
    game, count = Game(), Count()
    play_game(game, count, 4)
    kept = game.stats
    game.erase_stats()
    assert game.stats == st.ZERO
    again = state.from_bytes(Game, state.to_bytes(game))
    assert again.stats == st.ZERO
    game.undo()
    assert game.stats == kept
    count.check(game)


def test_the_stats_are_saved_and_read_back_and_a_new_game_takes_them():
    game, count = Game(), Count()
    play_game(game, count, 9, typed_every=2)
    again = state.from_bytes(Game, state.to_bytes(game))
    assert again.stats == game.stats
    count.check(again)
    fresh = Game(make_config(3), stats=game.stats)
    assert state.read(state.encode(fresh))[1][15] == game.stats


def test_counters_past_255_take_more_bytes_and_stop_at_the_cap():
    typed, hand_points = figures.FIELDS.index("typed_points"), figures.FIELDS.index("hand_points")
    big = list(st.ZERO)
    big[0], big[1 + st.F * 2 + typed], big[1 + hand_points] = 300, st.CAP, 255
    game = Game(stats=big)
    read = state.read(state.encode(game))[1][15]
    assert read == big
    out = game.peg(2 - 2, 5)  # side A types 5
    assert figures.side(game.stats, 0)["typed_points"] == 5
    near = list(big)
    near[1 + typed] = st.CAP - 1
    game = Game(stats=near)
    game.peg(0, 9)
    assert figures.side(game.stats, 0)["typed_points"] == st.CAP
    assert out.scores[0].points == 5


def test_a_state_of_the_format_before_the_stats_loads_with_stats_zero():
    game, count = Game(), Count()
    play_game(game, count, 3)
    game.next_game()
    new = state.encode(Game())
    old = bytes([2]) + new[1:-3]  # format 2: the same bytes, no stats nor check after the play
    assert new[-3:-1] == bytes([0, 0])
    loaded = Game()
    loaded.load(old)
    assert loaded.stats == st.ZERO and loaded.scores == [0, 0]
    save = state.to_bytes(Game())
    old_save = bytes([2, save[1] - 3]) + old + save[2 + save[1]:]
    assert state.from_bytes(Game, old_save).stats == st.ZERO


def test_bad_stats_bytes_are_refused():
    good = state.encode(Game(stats=[1] * len(st.ZERO)))[:-1]  # without its check
    # Each with its check right: one counter short, a byte too many, a counter
    # of 3 bytes past the cap.
    for bad in (good[:-1], good + b"\x00", good[:-3] + bytes([0xFF, 0xFF, 0x7F])):
        with pytest.raises(state.BadSave, match="not a saved game"):
            state.read(state.sealed(bad))
    state.read(state.sealed(good))


def test_a_state_whose_check_does_not_add_up_is_refused():
    """Every bit of the stats' bytes flipped: the check tells, whatever the
    counter then reads (a flipped bit in a counter is still a counter)."""
    game = Game(stats=[1] * len(st.ZERO))
    good = state.encode(game)
    stats_at = len(good) - 1 - len(st.to_list(game.stats))
    for at in range(stats_at, len(good)):
        for bit in range(8):
            bad = bytearray(good)
            bad[at] ^= 1 << bit
            with pytest.raises(state.BadSave, match="check"):
                state.read(bytes(bad))


def test_each_counters_index_is_its_place_in_fields():
    # The counters are added at private constants (no names on the board): each must be
    # the index of the field of its name, or a count lands under another name.
    indexes = {n[1:].lower(): getattr(st, n) for n in dir(st)
               if n[1:].lower() in figures.FIELDS and n.startswith("_") and n[1:].isupper()}
    assert indexes == {name: i for i, name in enumerate(figures.FIELDS)}
    assert len(figures.FIELDS) == st.F  # and the names are every counter a side keeps
