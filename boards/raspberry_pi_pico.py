"""boards.raspberry_pi_pico: the peg board's wiring on a Raspberry Pi Pico (RP2040).

Hardware facts only. Pins are names on CircuitPython's ``board`` module, so this
file imports nothing; the builder looks each one up with ``getattr(board, name)``.
What a maker tunes (the layout, colour order, OLED address, I2C speed, brightness
cap, current budget) is a default here: a settings.toml key takes its place
(``boards.hardware.tune``), so a deploy never has to overwrite an edit.

    Pico pin   use                        Pico pin   use
    GP0        OLED SDA (I2C0)            GP6        keypad row 1  (1 2 3 A)
    GP1        OLED SCL (I2C0)            GP7        keypad row 2  (4 5 6 B)
    GP2        track 1 strip data         GP8        keypad row 3  (7 8 9 C)
    GP3        track 2 strip data         GP9        keypad row 4  (* 0 # D)
    GP4        track 3 strip data         GP10..13   keypad columns 1..4
"""

CHIP = "RP2040"

# NeoPixel data pins, one per track (track 1 = first player or first partnership).
TRACK_PINS = ("GP2", "GP3", "GP4")
LEDS_PER_TRACK = 121
COLOR_ORDER = "GRB"  # WS2812B take green first on the wire

# The hole -> LED wiring of each strip (see boards/layout.py):
#   "straight"    hole 1 .. 121 = LED 0 .. 120
#   "reversed"    strip fed from the game hole: hole 121 = LED 0
#   "serpentine"  rows of ROW_LENGTH holes, every second row wired backwards:
#                   holes   1 ..  30  ->  LED   0 ..  29
#                   holes  31 ..  60  ->  LED  59 ..  30
#                   holes  61 ..  90  ->  LED  60 ..  89
#                   holes  91 .. 120  ->  LED 119 ..  90
#                   hole  121         ->  LED 120
LAYOUT = "straight"
ROW_LENGTH = 30

# SSD1306 128x64 OLED on I2C0.
I2C_SDA = "GP0"
I2C_SCL = "GP1"
I2C_FREQUENCY = 400_000  # a full frame is about 1 KB: ~25 ms at 400 kHz
OLED_ADDRESS = 0x3C  # the panel is 128x64 (boards/ssd1306.py)

# 4x4 membrane keypad, no diodes; key_number = row * 4 + column.
KEY_ROW_PINS = ("GP6", "GP7", "GP8", "GP9")
KEY_COLUMN_PINS = ("GP10", "GP11", "GP12", "GP13")
KEY_COLUMNS_TO_ANODES = True
# Scanned every 10 ms: a key waits 5 ms on average to be seen. CircuitPython's keypad
# reports a change at the first scan that sees it, so the interval is also the debounce:
# a membrane keypad's contacts settle in a few ms (under 5 ms is typical), well inside it.
KEY_SCAN_INTERVAL_S = 0.01
KEY_MAX_EVENTS = 64

# Power. A WS2812B draws about 20 mA per colour channel at full brightness,
# ~60 mA at full white, and about 1 mA lit black. USB gives 500 mA at 5 V.
# The budget is the whole board's: the strips, the Pico and the OLED.
BRIGHTNESS_CAP = 0.25
CURRENT_BUDGET_MA = 500
LED_FULL_WHITE_MA = 60
IDLE_MA_PER_LED = 1
# Estimates, not measured: the Pico running from USB draws about 20-25 mA by its
# datasheet; a 0.96" SSD1306 module up to about 20 mA lit, by its sellers' figures.
PICO_MA = 25
OLED_MA = 20

# The RP2040 watchdog counts to at most ~8.3 s.
WATCHDOG_TIMEOUT_S = 8.0

NVM_BYTES = 4096  # microcontroller.nvm: one flash sector
FLASH_PAGE = 256  # the flash programs whole pages (an erase cut short may leave some old)
