"""How error messages show values: never failing, whatever the value."""

from __future__ import annotations

from agui_notebook._shown import json_kind, shown
from tests.support.hostile import DEEP_LIST, HUGE_INT


def test_shown_never_fails() -> None:
    assert shown(HUGE_INT) == "an int of 5001 digits"
    assert shown(DEEP_LIST) == "an array"
    assert shown("x" * 100, 10) == "'xxxxxxxx…"


def test_json_kind_names_every_json_kind() -> None:
    assert [json_kind(v) for v in ([], "", None, True, 1.5, {}, b"")] == [
        "an array",
        "a string",
        "null",
        "a boolean",
        "a number",
        "an object",
        "bytes",
    ]
