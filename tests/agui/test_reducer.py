"""EventReducer on its own: a live stream fed event by event."""

from __future__ import annotations

from agui_notebook.agui._reducer import EventReducer
from tests.agui.apply_cases import CASES


def test_the_reducer_reads_a_live_stream_event_by_event() -> None:
    reducer = EventReducer()
    for event in CASES["text-simple"]["events"][:3]:
        reducer.feed(event)
    assert reducer.result().message_dicts == [{"id": "m1", "role": "assistant", "content": "Hel"}]
    for event in CASES["text-simple"]["events"][3:]:
        reducer.feed(event)
    assert reducer.result().message_dicts == [{"id": "m1", "role": "assistant", "content": "Hello"}]
    assert reducer.result().runs[0].outcome == "success"
