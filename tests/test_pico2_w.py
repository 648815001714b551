"""The Raspberry Pi Pico 2 W: the Pico's wiring on an RP2350, beside the CYW43439 wireless chip.

CircuitPython's board module for the Pico 2 W has GP0..GP22 and GP26..GP28; the
wireless chip takes GP23 (power), GP24 (data), GP25 (chip select) and GP29
(clock), and the onboard LED hangs off it.
"""

import boards
from boards import layout
from boards.sim import board as sim
from tools.mprun import run_micropython

PICO = boards.config_for("raspberry_pi_pico")
PICO2_W = boards.config_for("raspberry_pi_pico2_w")
WIRELESS_PINS = {"GP23", "GP24", "GP25", "GP29"}
BOARD_PINS = {"GP%d" % n for n in range(29)} - WIRELESS_PINS

WIRING = (
    "TRACK_PINS", "LEDS_PER_TRACK", "COLOR_ORDER", "LAYOUT", "ROW_LENGTH",
    "I2C_SDA", "I2C_SCL", "I2C_FREQUENCY", "OLED_ADDRESS",
    "KEY_ROW_PINS", "KEY_COLUMN_PINS", "KEY_COLUMNS_TO_ANODES", "KEY_SCAN_INTERVAL_S",
    "KEY_MAX_EVENTS", "BRIGHTNESS_CAP", "CURRENT_BUDGET_MA", "LED_FULL_WHITE_MA",
    "IDLE_MA_PER_LED", "WATCHDOG_TIMEOUT_S", "NVM_BYTES",
)


def pins_of(config):
    return (set(config.TRACK_PINS) | {config.I2C_SDA, config.I2C_SCL}
            | set(config.KEY_ROW_PINS) | set(config.KEY_COLUMN_PINS))


def test_the_pico2_w_has_its_own_config_with_the_picos_wiring_on_an_rp2350():
    assert "raspberry_pi_pico2_w" in boards.CONFIGS
    assert PICO2_W.__name__ == "boards.raspberry_pi_pico2_w"
    assert PICO2_W.CHIP == "RP2350"
    for name in WIRING:
        assert getattr(PICO2_W, name) == getattr(PICO, name), name


def test_no_pin_of_the_pico2_w_config_is_the_wireless_chips():
    used = pins_of(PICO2_W)
    assert len(used) == 13
    assert not used & WIRELESS_PINS
    assert used <= BOARD_PINS


def test_the_sim_board_wired_as_a_pico2_w_lights_a_hole():
    hw = sim.build(config=PICO2_W)
    assert hw.config.module is PICO2_W
    assert hw.hole_map == layout.hole_map(PICO)
    frame = [0] * 121
    frame[hw.hole_map[11]] = 0x280000  # hole 12 red
    hw.write_strip(0, frame)
    assert hw.strip_bytes(0)[3 * hw.hole_map[11]:3 * hw.hole_map[11] + 3] == bytes((0, 40, 0))
    assert hw.strip_pixels(0)[11] == (40, 0, 0)


CODE_PY_ON_A_PICO2_W = """
import board
board.board_id = "raspberry_pi_pico2_w"
for name in ("GP23", "GP24", "GP25"):  # the wireless chip's: not on this board module
    delattr(board, name)
from cribbage.app import Stop
try:
    import code
except Stop as stop:
    print(stop)
"""


def test_code_py_runs_a_pico2_w_with_its_config_under_micropython():
    from test_boards_micropython import FAKE_APP
    # As test_boards' run of code.py: nothing is collected inside the import here.
    result = run_micropython(CODE_PY_ON_A_PICO2_W, files=("boards", "code.py"), heap_kb=160,
                             extra={"lib/cribbage/__init__.py": "",
                                    "lib/cribbage/app.py": FAKE_APP})
    assert result.ok, result.error
    assert result.stdout == ("cribbage: raspberry_pi_pico2_w, 2 tracks on GP2 GP3 (straight),"
                             " OLED 0x3C on GP0/GP1, budget 500 mA\n"
                             "app got 2 RP2350 boards.raspberry_pi_pico2_w font5x8.bin\n"
                             "stepped 3 times\n")
