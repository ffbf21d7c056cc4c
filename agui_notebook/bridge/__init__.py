"""``agui_notebook.bridge``: The two protocols joined: AG-UI events to UI chunks and UIMessages
(``UIMessageAssembler``), and the conversions between AG-UI, UIMessage and OpenAI messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agui_notebook._lazy import lazy_namespace

_EXPORTS: dict[str, str] = {
    "UIMessageAssembler": "agui_notebook.bridge._assemble",
    "aui_chunks_from_events": "agui_notebook.bridge._assemble",
    "ui_chunks_from_events": "agui_notebook.bridge._assemble",
    "ui_messages_from_events": "agui_notebook.bridge._assemble",
    "to_agui_messages": "agui_notebook.bridge._messages",
    "to_openai_messages": "agui_notebook.bridge._messages",
    "to_ui_messages": "agui_notebook.bridge._messages",
}

__all__ = sorted(_EXPORTS)

if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_namespace(__name__, _EXPORTS)

if TYPE_CHECKING:
    from agui_notebook.bridge._assemble import (
        UIMessageAssembler as UIMessageAssembler,
        aui_chunks_from_events as aui_chunks_from_events,
        ui_chunks_from_events as ui_chunks_from_events,
        ui_messages_from_events as ui_messages_from_events,
    )
    from agui_notebook.bridge._messages import (
        to_agui_messages as to_agui_messages,
        to_openai_messages as to_openai_messages,
        to_ui_messages as to_ui_messages,
    )
