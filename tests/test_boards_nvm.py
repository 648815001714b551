"""The simulated board's flash (nvm): erases, programs, power cuts, a restart."""

import pytest

from boards.sim import board as sim
from boards.sim.nvm import PowerCut, SimNVM


# ---- nvm ---------------------------------------------------------------------------

def test_fresh_nvm_is_an_erased_sector():
    nvm = sim.build().nvm
    assert len(nvm) == 4096
    assert nvm[0:4096] == bytearray(b"\xff" * 4096)
    assert isinstance(nvm[0:2], bytearray) and nvm[-1] == 0xFF


def test_writing_erased_bytes_programs_without_an_erase():
    nvm = SimNVM()
    nvm[0:4] = b"\x01\x02\x03\x04"
    nvm[4] = 5
    assert nvm[0:6] == bytearray(b"\x01\x02\x03\x04\x05\xff")
    assert (nvm.erases, nvm.bytes_programmed, nvm.writes) == (0, 5, 2)


def test_overwriting_any_programmed_byte_erases_and_rewrites_the_sector():
    nvm = SimNVM()
    nvm[0:4] = b"\x01\x02\x03\x04"
    nvm[2:6] = b"\xaa\xbb\xcc\xdd"
    assert nvm[0:8] == bytearray(b"\x01\x02\xaa\xbb\xcc\xdd\xff\xff")
    assert nvm.erases == 1 and nvm.bytes_programmed == 4 + 4096
    nvm[1:2] = b"\x02"  # the same value still is not 0xFF: erased again
    assert nvm.erases == 2


def test_nvm_assignment_rules_match_circuitpython():
    nvm = SimNVM()
    with pytest.raises(ValueError, match="different lengths"):
        nvm[0:4] = b"\x01"
    with pytest.raises(NotImplementedError, match="step"):
        nvm[0:4:2] = b"\x01\x02"
    with pytest.raises(NotImplementedError, match="bytes required"):
        nvm[0:2] = [1, 2]
    with pytest.raises(ValueError, match="between 0 and 255"):
        nvm[0] = 256
    with pytest.raises(IndexError):
        nvm[4096] = 1
    assert nvm.writes == 0


def test_power_cut_while_programming_leaves_the_bytes_so_far():
    nvm = SimNVM()
    nvm.cut_after(3)
    with pytest.raises(PowerCut):
        nvm[10:16] = b"ABCDEF"
    assert nvm[8:18] == bytearray(b"\xff\xffABC\xff\xff\xff\xff\xff")
    nvm[16:18] = b"GH"  # power is back after the cut
    assert nvm[16:18] == bytearray(b"GH")


def test_power_cut_during_an_erase_leaves_the_sector_blank():
    nvm = SimNVM(b"\x00" * 16)
    nvm.cut_after(0)
    with pytest.raises(PowerCut, match="erasing"):
        nvm[0:2] = b"\x01\x02"
    assert nvm.snapshot() == b"\xff" * 4096


def test_power_cut_budget_spans_several_writes():
    nvm = SimNVM()
    nvm.cut_after(5)
    nvm[0:4] = b"abcd"
    with pytest.raises(PowerCut, match="1 of 4"):
        nvm[4:8] = b"efgh"
    assert nvm[0:8] == bytearray(b"abcde\xff\xff\xff")


def test_tearing_a_rewrite_at_every_byte_gives_a_prefix_of_the_new_sector():
    old = bytes(range(256)) * 16
    new_record = b"\x42" * 8
    image = bytearray(old)
    image[100:108] = new_record
    for cut in range(0, 4096 + 1, 7):
        nvm = SimNVM(old)
        nvm.cut_after(cut)
        try:
            nvm[100:108] = new_record
        except PowerCut:
            assert nvm.snapshot() == bytes(image[:cut]) + b"\xff" * (4096 - cut)
        else:
            assert cut == 4096 and nvm.snapshot() == bytes(image)


def test_the_same_flash_survives_a_simulated_restart():
    first = sim.build()
    first.nvm[0:3] = b"abc"
    again = sim.build(nvm=first.nvm)
    assert again.nvm[0:3] == bytearray(b"abc")
    seeded = sim.build(nvm=b"xyz")
    assert seeded.nvm[0:4] == bytearray(b"xyz\xff")
