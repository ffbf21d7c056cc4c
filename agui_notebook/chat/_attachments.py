"""Files the user attaches to a message, as UIMessage ``file`` parts with the data inline (a data URL).

>>> file_part((b"hello", "text/plain"))
{'type': 'file', 'mediaType': 'text/plain', 'url': 'data:text/plain;base64,aGVsbG8='}
"""

from __future__ import annotations

import mimetypes
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agui_notebook._errors import (
    InputTypeError,
    OptionError,
    SourceError,
    SourceFolderError,
    SourceNotFoundError,
)
from agui_notebook._options import file_path, typed
from agui_notebook._shown import shown
from agui_notebook._types import JSON
from agui_notebook.bridge._messages import data_url

__all__ = ["file_part"]


def file_part(file: Any) -> dict[str, JSON]:
    """A UIMessage ``file`` part from a path, ``(data, media_type)``, ``(name, data, media_type)`` or a part dict."""
    if isinstance(file, Mapping):
        part = dict(file)
        if not isinstance(part.get("url"), str) or not isinstance(part.get("mediaType"), str):
            raise OptionError(f"a file part needs string 'url' and 'mediaType', got keys {sorted(part)}")
        clean: dict[str, JSON] = {"type": "file", "mediaType": part["mediaType"]}
        if isinstance(part.get("filename"), str) and part["filename"]:
            clean["filename"] = part["filename"]
        clean["url"] = part["url"]
        return clean
    if isinstance(file, (str, os.PathLike)):
        path = Path(file_path(file, "file"))
        media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise SourceNotFoundError(f"{path}: no such file to attach", path=str(path)) from None
        except IsADirectoryError:
            raise SourceFolderError(f"{path} is a folder, not a file to attach", path=str(path)) from None
        except OSError as exc:
            raise SourceError(
                f"{path}: cannot read the file to attach ({exc.strerror or exc})", path=str(path)
            ) from None
        return {
            "type": "file",
            "mediaType": media_type,
            "filename": path.name,
            "url": data_url(data, media_type),
        }
    if isinstance(file, tuple) and len(file) == 2 and isinstance(file[0], (bytes, bytearray)):
        data, media_type = file
        _media_type(media_type)
        return {"type": "file", "mediaType": media_type, "url": data_url(bytes(data), media_type)}
    if isinstance(file, tuple) and len(file) == 3 and isinstance(file[1], (bytes, bytearray)):
        name, data, media_type = file
        _media_type(media_type)
        typed(name, "the file's name", str, "a string")
        return {
            "type": "file",
            "mediaType": media_type,
            "filename": name,
            "url": data_url(bytes(data), media_type),
        }
    if isinstance(file, (bytes, bytearray)):
        raise InputTypeError("bytes need a media type: pass (data, 'image/png') or (name, data, 'image/png')")
    raise InputTypeError(
        f"a file is a path, (data, media_type), (name, data, media_type) or a file part dict, got {type(file).__name__}"
    )


def _media_type(value: Any) -> None:
    """Refuse a media type that is not of the ``type/subtype`` form (``image/png``)."""
    typed(value, "media_type", str, "a media type such as 'image/png'")
    if value.count("/") != 1 or not all(value.split("/")):
        raise OptionError(
            f"media_type must be of the form type/subtype such as 'image/png', not {shown(value)}"
        )
