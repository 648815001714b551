"""digitalio stand-in: just enough DigitalInOut for the NeoPixel driver (MicroPython test runs)."""


class Direction:
    INPUT = "Direction.INPUT"
    OUTPUT = "Direction.OUTPUT"


class DriveMode:
    PUSH_PULL = "DriveMode.PUSH_PULL"
    OPEN_DRAIN = "DriveMode.OPEN_DRAIN"


class Pull:
    UP = "Pull.UP"
    DOWN = "Pull.DOWN"


class DigitalInOut:
    def __init__(self, pin):
        self.pin = pin
        self.direction = Direction.INPUT
        self.value = False
        self.pull = None
        self.drive_mode = DriveMode.PUSH_PULL

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self.direction = Direction.OUTPUT
        self.value = value
        self.drive_mode = drive_mode

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull

    def deinit(self):
        self.pin = None
