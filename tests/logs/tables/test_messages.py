"""messages_df: known answers, and the real captures' messages against their chunks."""

from __future__ import annotations

import pandas as pd
import pytest

from agui_notebook.logs._columns import MESSAGE_COLUMNS, names
from agui_notebook.logs.tables._chunks import chunks_df
from agui_notebook.logs.tables._messages import messages_df
from tests.logs.samples import ts, values


def test_messages_known_answers(known: pd.DataFrame) -> None:
    messages = messages_df(known)
    assert list(messages.columns) == names(MESSAGE_COLUMNS)
    assert values(messages["message_id"]) == ["mr", "m1", "m2", "m3"]
    assert values(messages["run_id"]) == ["r1", "r1", "r1", "r2"]
    assert values(messages["kind"]) == ["reasoning", "text", "text", "text"]
    assert values(messages["role"]) == ["reasoning", "assistant", "assistant", "assistant"]
    assert values(messages["started_at"]) == [ts(100), ts(400), ts(2500), ts(5100)]
    # mr ends at REASONING_END; m3 never ended, so its last chunk stands in.
    assert values(messages["ended_at"]) == [ts(310), ts(1000), ts(2700), ts(5200)]
    assert messages["duration_s"].tolist() == pytest.approx([0.21, 0.6, 0.2, 0.1])
    assert messages["chunks"].tolist() == [2, 3, 2, 1]
    assert messages["chars"].tolist() == [9, 12, 5, 7]
    assert messages["words"].tolist() == [1, 2, 1, 1]
    assert messages["text"].tolist() == ["Thinking.", "Hello world!", "Done.", "Partial"]


def test_captured_messages(captured: pd.DataFrame) -> None:
    messages = messages_df(captured)
    chunks = chunks_df(captured)
    text = messages[messages["kind"] == "text"]
    # pydantic-ai opens an empty text message before tool calls.
    assert (text["chars"] == 0).sum() == 3
    assert messages["chars"].sum() == chunks.loc[chunks["kind"] != "tool_args", "chars"].sum()
    assert (messages["chars"] == messages["text"].str.len()).all()
