"""Hooks for the package's tests (not part of the interface).

The extension carries a counting allocator (_glue.c) that the library can
be told to use through bcSetAllocator: every block the library takes and
gives back is counted, and allocations can be made to fail after a given
number, so that a leak, a block freed twice, and running out of memory can
each be tested. bcSetAllocator is process-wide and must come before any
other call of the library: call use_counting_allocator() first thing in a
fresh process.
"""
from ._ballcast import lib


def use_counting_allocator() -> None:
    """Route the library's memory through the counting allocator."""
    lib.bcpy_UseCountingAllocator()


def live_blocks() -> int:
    """Blocks the library holds now (through the counting allocator)."""
    return int(lib.bcpy_LiveBlocks())


def allocations() -> int:
    """Blocks the library has taken in all (through the counting allocator)."""
    return int(lib.bcpy_Allocations())


def fail_allocations_after(count: int) -> None:
    """Let count more allocations succeed, then fail every one (-1: never)."""
    lib.bcpy_FailAllocationsAfter(count)
