"""board stand-in: the Raspberry Pi Pico's pins, GP0 .. GP28 (MicroPython test runs)."""

from microcontroller import Pin

board_id = "raspberry_pi_pico"

for _number in range(29):
    globals()["GP%d" % _number] = Pin("GP%d" % _number)
del _number
