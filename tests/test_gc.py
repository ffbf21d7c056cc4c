"""``collections_paused``: the collector is off inside, back as it was after, whatever the block does."""

from __future__ import annotations

import gc

import pytest

from agui_notebook._gc import collections_paused


def test_the_collector_is_off_inside_and_on_again_after() -> None:
    assert gc.isenabled()
    with collections_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_error_in_the_block_turns_it_back_on() -> None:
    with pytest.raises(ZeroDivisionError), collections_paused():
        1 / 0  # noqa: B018
    assert gc.isenabled()


def test_a_collector_turned_off_by_the_caller_stays_off() -> None:
    gc.disable()
    try:
        with collections_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
