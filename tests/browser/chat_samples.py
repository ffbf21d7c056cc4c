"""UIMessages for the browser tests: one of every part kind, and a conversation that looks like real use."""

from __future__ import annotations

import base64
import struct
import zlib
from typing import Any


def png_data_url(width: int = 96, height: int = 56) -> str:
    """A small gradient PNG as a data: URL (made here, so the tests need no binary fixtures)."""
    rows = []
    for y in range(height):
        row = bytearray([0])
        for x in range(width):
            row += bytes((40 + 150 * x // width, 110 + 100 * y // height, 200))
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows)))
        + chunk(b"IEND", b"")
    )
    return "data:image/png;base64," + base64.b64encode(png).decode()


def wav_data_url(samples: int = 800) -> str:
    """A short silent WAV as a data: URL."""
    data = b"\x00\x00" * samples
    header = (
        b"RIFF"
        + struct.pack("<I", 36 + len(data))
        + b"WAVEfmt "
        + struct.pack("<IHHIIHH", 16, 1, 1, 8000, 16000, 2, 16)
    )
    return (
        "data:audio/wav;base64,"
        + base64.b64encode(header + b"data" + struct.pack("<I", len(data)) + data).decode()
    )


MARKDOWN = """## Paris today

It is **18 °C** and cloudy in Paris, with light rain expected after *16:00*. Sources: [Météo-France](https://meteofrance.com/).

| Time  | Sky    | °C |
|-------|--------|----|
| 09:00 | cloudy | 15 |
| 15:00 | rain   | 18 |

- Take an umbrella
- Trains run normally

```python
forecast = get_weather("Paris")
print(forecast["tempC"])
```

> Forecasts beyond 48 h are less reliable."""

WEATHER_DATA = {"city": "Paris", "forecast": [{"hour": 9, "tempC": 15}, {"hour": 15, "tempC": 18}]}

AGUI_METADATA = {
    "ag-ui": {
        "threadId": "thread-1",
        "runId": "run-1",
        "outcome": {"type": "success"},
        # As the bridge writes it: RUN_FINISHED.usage, one entry per model call's provider and model.
        "usage": [
            {
                "provider": "openai",
                "model": "gpt-4.1-mini",
                "inputTokens": 1000,
                "outputTokens": 400,
                "reasoningTokens": 128,
                "totalTokens": 1528,
            },
            {
                "provider": "openai",
                "model": "gpt-4.1-mini",
                "inputTokens": 234,
                "outputTokens": 56,
                "totalTokens": 290,
            },
        ],
        "startedAt": 1_700_000_000_000,
        "finishedAt": 1_700_000_003_400,
    }
}


def conversation() -> list[dict[str, Any]]:
    """A realistic conversation: reasoning, tools (done and awaiting approval), markdown, sources, data."""
    return [
        {
            "id": "u1",
            "role": "user",
            "parts": [
                {
                    "type": "text",
                    "text": "What's the weather in Paris today? Here is the chart from this morning.",
                },
                {"type": "file", "mediaType": "image/png", "filename": "chart.png", "url": png_data_url()},
            ],
        },
        {
            "id": "a1",
            "role": "assistant",
            "metadata": AGUI_METADATA,
            "parts": [
                {"type": "step-start"},
                {
                    "type": "reasoning",
                    "text": "The user wants today's weather in Paris. I should call the weather tool.",
                    "state": "done",
                },
                {
                    "type": "tool-get_weather",
                    "toolCallId": "call-1",
                    "state": "output-available",
                    "input": {"city": "Paris", "units": "metric"},
                    "output": {"tempC": 18, "sky": "cloudy", "rainAfter": "16:00"},
                },
                {"type": "step-start"},
                {"type": "text", "text": MARKDOWN, "state": "done"},
                {
                    "type": "source-url",
                    "sourceId": "s1",
                    "url": "https://meteofrance.com/previsions-meteo-france/paris/75000",
                    "title": "Météo-France: Paris",
                },
                {
                    "type": "source-url",
                    "sourceId": "s2",
                    "url": "https://en.wikipedia.org/wiki/Paris",
                    "title": "Paris",
                },
                {
                    "type": "source-document",
                    "sourceId": "s3",
                    "mediaType": "application/pdf",
                    "title": "Climate report 2024",
                    "filename": "climate.pdf",
                },
                {"type": "data-weather", "id": "w1", "data": WEATHER_DATA},
            ],
        },
        {
            "id": "u2",
            "role": "user",
            "parts": [{"type": "text", "text": "Great. Now clean up the temp files."}],
        },
        {
            "id": "a2",
            "role": "assistant",
            "parts": [
                {
                    "type": "reasoning",
                    "text": "",
                    "state": "done",
                    "providerMetadata": {"ag-ui": {"encryptedValue": "gAAAAABo-sealed"}},
                },
                {
                    "type": "dynamic-tool",
                    "toolName": "delete_files",
                    "toolCallId": "call-2",
                    "state": "approval-requested",
                    "input": {"paths": ["/tmp/run-1", "/tmp/run-2"]},
                    "approval": {"id": "approval-1", "requestReason": "Deletes 2 directories"},
                },
            ],
        },
    ]


def every_part_kind() -> list[dict[str, Any]]:
    """One assistant message with a part of every kind the front end knows, plus one unknown kind."""
    parts: list[dict[str, Any]] = [
        {"type": "step-start"},
        {"type": "text", "text": "Hello **world**", "state": "done"},
        {"type": "reasoning", "text": "Thinking it over", "state": "done"},
        {
            "type": "tool-get_weather",
            "toolCallId": "c1",
            "state": "input-available",
            "input": {"city": "Paris"},
        },
        {
            "type": "dynamic-tool",
            "toolName": "search",
            "toolCallId": "c2",
            "state": "output-error",
            "input": {"q": "x"},
            "errorText": "timeout after 30 s",
        },
        {"type": "source-url", "sourceId": "s1", "url": "https://example.com/a", "title": "Example A"},
        {
            "type": "source-document",
            "sourceId": "s2",
            "mediaType": "text/plain",
            "title": "Notes",
            "filename": "n.txt",
        },
        {"type": "file", "mediaType": "image/png", "filename": "p.png", "url": png_data_url(8, 8)},
        {"type": "file", "mediaType": "audio/wav", "filename": "a.wav", "url": wav_data_url()},
        {"type": "file", "mediaType": "video/mp4", "filename": "v.mp4", "url": "data:video/mp4;base64,AAAA"},
        {
            "type": "file",
            "mediaType": "application/pdf",
            "filename": "r.pdf",
            "url": "data:application/pdf;base64,JVBERi0=",
        },
        {"type": "reasoning-file", "mediaType": "image/png", "url": png_data_url(8, 8)},
        {"type": "data-weather", "id": "d1", "data": {"tempC": 18}},
        {"type": "custom", "kind": "openai.compaction", "providerMetadata": {"openai": {"itemId": "x1"}}},
        {"type": "steering-message", "id": "st1", "parts": [{"type": "text", "text": "focus on rain"}]},
        {"type": "future-kind", "value": 1},
    ]
    return [{"id": "m1", "role": "assistant", "parts": parts}]
