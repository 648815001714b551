"""Helpers of the flash log's tests (tests/test_store*.py)."""

from store_faults import reboot

SECTOR = 4096
MARKS = 241  # the page marks: the last 15 bytes of the first page
REPAIRED = "save repaired: check the scores"


def header(generation=0, version=2):
    return b"CRB" + bytes((version, generation >> 8, generation & 0xFF))


def loaded(nvm):
    """(what a boot finds, its notices), as a board shows them."""
    return reboot(nvm)
