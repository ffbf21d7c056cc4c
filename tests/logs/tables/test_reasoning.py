"""reasoning_df: known answers, tokenizers, encrypted-only reasoning, the real captures' reasoning."""

from __future__ import annotations

import pandas as pd
import pytest

from agui_notebook.logs._columns import REASONING_COLUMNS, names
from agui_notebook.logs.tables._messages import messages_df
from agui_notebook.logs.tables._reasoning import reasoning_df
from tests.logs.samples import at, ts, values


def test_reasoning_known_answers(known: pd.DataFrame) -> None:
    reasoning = reasoning_df(known)
    assert list(reasoning.columns) == [c for c in names(REASONING_COLUMNS) if c != "tokens"]
    assert values(reasoning["message_id"]) == ["mr"]
    assert values(reasoning["started_at"]) == [ts(100)] and values(reasoning["ended_at"]) == [ts(310)]
    assert reasoning["duration_s"].tolist() == pytest.approx([0.21])
    assert (reasoning["chunks"].tolist(), reasoning["chars"].tolist(), reasoning["words"].tolist()) == (
        [2],
        [9],
        [1],
    )
    assert reasoning["encrypted"].tolist() == [True]
    with_tokens = reasoning_df(known, tokenizer=lambda text: list(text))
    assert list(with_tokens.columns) == names(REASONING_COLUMNS)
    assert with_tokens["tokens"].tolist() == [9]
    assert reasoning_df(known, tokenizer=lambda text: 3)["tokens"].tolist() == [3]


def test_encrypted_only_reasoning_is_a_row() -> None:
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(10, "REASONING_START", messageId="enc"),
        at(20, "REASONING_ENCRYPTED_VALUE", subtype="message", entityId="enc", encryptedValue="gAAA"),
        at(40, "REASONING_END", messageId="enc"),
    ]
    reasoning = reasoning_df(events)
    assert reasoning[["chunks", "chars", "encrypted"]].values.tolist() == [[0, 0, True]]
    assert reasoning["duration_s"].tolist() == pytest.approx([0.03])


def test_captured_reasoning(captured: pd.DataFrame) -> None:
    messages = messages_df(captured)
    reasoning = reasoning_df(captured)
    assert (
        reasoning["message_id"].tolist()
        == messages.loc[messages["kind"] == "reasoning", "message_id"].tolist()
    )
    assert reasoning["chars"].tolist() == [60, 18]
    assert not reasoning["encrypted"].any()
