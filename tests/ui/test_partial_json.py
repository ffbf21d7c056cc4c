"""parse_partial_json against the AI SDK's parsePartialJson, on every prefix of many documents."""

from __future__ import annotations

import json

import pytest

from agui_notebook.ui._partial_json import PartialJsonBuffer, parse_partial_json

DOCUMENTS = [
    '{"city": "Paris", "days": 3}',
    '{"query": "weather in \\"Paris\\"\\n", "units": ["metric", "imperial"], "limit": 10}',
    '{"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": true, "f": false}',
    "[1, -2.5, 3e10, -4.25E-3, 0, 0.5, 1e+2]",
    '  { "spaced" :  [ 1 ,  2 ] ,  "x" : "y" }  ',
    '"just a string with \\u00e9 and \\ud83d\\ude00 emoji"',
    '{"unicode": "caf\\u00e9 \\u4e2d\\u6587", "raw": "café 中文 😀"}',
    '[true, false, null, "tru", "nul"]',
    '{"nested": [[[]], {}, [{}], {"k": []}]}',
    '{"escapes": "\\\\ \\/ \\b \\f \\n \\r \\t \\" end"}',
    "-12.5e-3",
    "123",
    "true",
    "null",
    "[]",
    "{}",
    '{"n": -0, "m": 10.0}',
    '{"key with \\"quote\\"": 1, "k2": "v2"}',
    '{"code": "def f(x):\\n    return x * 2\\n", "lang": "python"}',
    '[{"id": 1, "tags": ["a", "b"]}, {"id": 2, "tags": []}]',
    # not valid JSON: the repair must fail or succeed exactly as the reference does
    '{"a": 1,, "b": 2}',
    "[1 2 3]",
    '{"a" 1}',
    "tx",
    '{"a": tx}',
    "[nulx, 1]",
    '{"a": 01}',
    "[1.]",
    '{"__proto__": {"x": 1}}',
    '{"constructor": {"prototype": {}}}',
    '{"a": "\\u12"}',
    '{"a": NaN}',
    "[Infinity]",
]


def _prefixes(document: str) -> list[str]:
    return [document[:n] for n in range(len(document) + 1)]


@pytest.mark.node
def test_every_prefix_matches_the_ai_sdk(node_reference):
    texts = [prefix for document in DOCUMENTS for prefix in _prefixes(document)]
    expected = node_reference("ai_partial_json.mjs", {"texts": texts})
    assert len(expected) == len(texts)
    mismatches = []
    for text, (state, value) in zip(texts, expected, strict=True):
        ours = parse_partial_json(text)
        if ours != (value, state):
            mismatches.append((text, ours, (value, state)))
    assert mismatches == []


def test_growing_buffer_matches_one_shot_parsing():
    # Feeding one character at a time must give the same results as parsing each prefix from scratch.
    for document in DOCUMENTS:
        buffer = PartialJsonBuffer()
        for n in range(1, len(document) + 1):
            assert buffer.append(document[n - 1]) == parse_partial_json(document[:n]), document[:n]


def test_examples():
    assert parse_partial_json(None) == (None, "undefined-input")
    assert parse_partial_json("") == (None, "failed-parse")
    assert parse_partial_json("-") == (None, "failed-parse")
    assert parse_partial_json("1.") == (1, "repaired-parse")
    assert parse_partial_json('{"a": [1, tr') == ({"a": [1, True]}, "repaired-parse")
    assert parse_partial_json('{"a": nu') == ({"a": None}, "repaired-parse")
    assert parse_partial_json('"caf\\u00') == ("caf", "repaired-parse")
    assert parse_partial_json('{"a": 1}') == ({"a": 1}, "successful-parse")
    assert parse_partial_json("NaN") == (None, "failed-parse")
    assert parse_partial_json('"\\ud800"') == ("\ud800", "successful-parse")
    assert parse_partial_json('{"__proto__": 1}') == (None, "failed-parse")


def test_buffer_appends_by_chunks():
    buffer = PartialJsonBuffer()
    document = json.dumps({"text": "x" * 1000, "items": list(range(50))})
    results = [buffer.append(document[i : i + 7]) for i in range(0, len(document), 7)]
    assert results[-1] == (json.loads(document), "successful-parse")
    assert buffer.text == document
    assert results[0] == ({}, "repaired-parse")  # '{"text"' has no value yet
