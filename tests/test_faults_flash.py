"""Power cuts in a save, keyed on the sim board: a record the board reads after
one is always a state it had (the lights before or after, never another)."""

from firmware import Table
from test_web_build import HAND

LIGHTS_THRICE = "D31# 1A D31# 1A D31# 1A"  # brightness 4 -> 5 -> 1, a peg after each
UP_TO_B_SHOW = HAND[:HAND.index("8B") + 2]  # the README hand up to B's show


def lights(t):
    return t.app.ctrl.settings.brightness, t.app.ctrl.settings.palette


def end_of_log(t):
    image = t.nvm_image()
    return len(image.rstrip(b"\xff"))


def test_a_lights_change_cut_after_two_bytes_comes_back_as_it_was():
    t = Table().keys(LIGHTS_THRICE)
    assert lights(t) == (1, 0)
    end = end_of_log(t)
    t.board.nvm.cut_after(2)  # the settings record's length and tag, nothing more
    t.keys("D31#")
    # Its payload and check never programmed: the check byte reads erased.
    assert t.nvm_image()[end:end + 7] == bytes.fromhex("033dffffffffff")
    booted = t.reboot()
    # Once read as lights (3, 0) through a "repaired" check: lights nobody chose.
    assert lights(booted) == (1, 0)
    assert booted.oled()[4:6] == ["power cut: last", "action lost"]
    assert booted.scores == [3, 0]
    booted.keys("D31#")  # the change again: saved after the torn record
    assert lights(booted.reboot()) == (2, 0)


def test_a_show_torn_mid_program_is_judged_once_and_the_next_key_is_kept():
    t = Table().keys(LIGHTS_THRICE + UP_TO_B_SHOW)
    assert t.oled()[2] == "show: B hand" and t.scores == [8, 3]
    end = end_of_log(t)
    # The show's record, 08 8a 05 ff 00 04 14 23 31 0e dd as written whole, with a
    # bit of two payload bytes still 1 when the power went.
    t.board.nvm.cut_after(0, left=bytes.fromhex("0000000001010000000000"))
    t.keys("#")
    assert t.nvm_image()[end:end + 12] == bytes.fromhex("088a05ff01051423310eddff")
    booted = t.reboot()
    assert booted.scores == [8, 3] and lights(booted) == (1, 0)
    assert booted.oled()[4:6] == ["power cut: last", "action lost"]
    generation = booted.nvm_image()[4:6]
    booted.keys("1B")
    assert booted.scores == [8, 4]
    # The first save after the damaged boot wrote the log again, from the game
    # as that boot found it: no later boot can read the torn bytes another way.
    assert booted.nvm_image()[4:6] == bytes((0, generation[1] + 1))
    again = booted.reboot()
    assert (again.scores, lights(again)) == ([8, 4], (1, 0))
    assert again.oled()[4:7] == ["", "", ""]
    assert again.oled()[2] == "show: B hand"
