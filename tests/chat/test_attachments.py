"""Attached files become UIMessage ``file`` parts with their data inline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agui_notebook.chat._attachments import file_part


def test_a_path_is_read_and_its_media_type_guessed(tmp_path: Path) -> None:
    (tmp_path / "dot.png").write_bytes(b"\x89PNG")
    (tmp_path / "blob.unknownext").write_bytes(b"\x00")
    assert file_part(tmp_path / "dot.png") == {
        "type": "file",
        "mediaType": "image/png",
        "filename": "dot.png",
        "url": "data:image/png;base64,iVBORw==",
    }
    assert file_part(str(tmp_path / "blob.unknownext"))["mediaType"] == "application/octet-stream"


def test_bytes_with_a_media_type_and_a_name() -> None:
    assert file_part((b"hello", "text/plain")) == {
        "type": "file",
        "mediaType": "text/plain",
        "url": "data:text/plain;base64,aGVsbG8=",
    }
    assert file_part(("notes.md", bytearray(b"# hi"), "text/markdown")) == {
        "type": "file",
        "mediaType": "text/markdown",
        "filename": "notes.md",
        "url": "data:text/markdown;base64,IyBoaQ==",
    }


def test_a_part_dict_keeps_only_the_file_fields() -> None:
    part = {"mediaType": "image/png", "url": "data:image/png;base64,AAAA", "filename": "a.png", "extra": 1}
    assert file_part(part) == {
        "type": "file",
        "mediaType": "image/png",
        "filename": "a.png",
        "url": "data:image/png;base64,AAAA",
    }
    assert "filename" not in file_part({**part, "filename": ""})


@pytest.mark.parametrize(
    ("file", "error", "message"),
    [
        ({"url": "data:,"}, ValueError, "a file part needs string 'url' and 'mediaType', got keys ['url']"),
        (b"\x89PNG", TypeError, "bytes need a media type: pass (data, 'image/png') or (name, data, 'image/png')"),
        (42, TypeError, "a file is a path, (data, media_type), (name, data, media_type) or a file part dict, got int"),
    ],
)  # fmt: skip
def test_anything_else_is_refused(file: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as caught:
        file_part(file)
    assert str(caught.value) == message
