"""chunks_df: known answers, and positions and gaps within each message or tool call of the captures."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from agui_notebook.logs._columns import CHUNK_COLUMNS, names
from agui_notebook.logs.tables._chunks import chunks_df
from tests.logs.samples import ts, values


def test_chunks_known_answers(known: pd.DataFrame) -> None:
    chunks = chunks_df(known)
    assert list(chunks.columns) == names(CHUNK_COLUMNS)
    assert chunks["delta"].tolist() == [
        "Think",
        "ing.",
        "Hello",
        " world",
        "!",
        '{"q":',
        ' "x"}',
        '{"a": 1',
        "Done",
        ".",
        "Partial",
    ]
    assert values(chunks["kind"]) == ["reasoning"] * 2 + ["text"] * 3 + ["tool_args"] * 3 + ["text"] * 3
    assert values(chunks["message_id"]) == ["mr", "mr", "m1", "m1", "m1", None, None, None, "m2", "m2", "m3"]
    assert values(chunks["tool_call_id"]) == [None] * 5 + ["c1", "c1", "c2"] + [None] * 3
    assert chunks["index"].tolist() == [0, 1, 0, 1, 2, 0, 1, 0, 0, 1, 0]
    assert chunks["chars"].tolist() == [5, 4, 5, 6, 1, 5, 5, 7, 4, 1, 7]
    assert chunks["cum_chars"].tolist() == [5, 9, 5, 11, 12, 5, 10, 7, 4, 5, 7]
    assert values(chunks["gap_s"]) == pytest.approx(
        [None, 0.1, None, 0.1, 0.3, None, 0.2, None, None, 0.1, None], nan_ok=True
    )
    assert chunks["t"].tolist() == pytest.approx([0.15, 0.25, 0.5, 0.6, 0.9, 1.1, 1.3, 1.45, 2.6, 2.7, 0.2])
    assert values(chunks["time"])[0] == ts(150)
    assert values(chunks["run_id"]) == ["r1"] * 10 + ["r2"]


def test_captured_chunks(captured: pd.DataFrame) -> None:
    chunks = chunks_df(captured)
    per_owner = chunks.groupby(
        chunks["message_id"].astype(object).fillna(chunks["tool_call_id"].astype(object))
    )
    assert (per_owner["index"].apply(lambda s: s.tolist() == list(range(len(s))))).all()
    assert (per_owner["gap_s"].apply(lambda s: np.isnan(s.iloc[0]) and (s.iloc[1:] >= 0).all())).all()
