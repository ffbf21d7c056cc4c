"""An offline AG-UI agent for the end-to-end test: reasoning, a tool call that needs approval, markdown text.

Imported by the notebook the test writes. Deltas are paced so that the browser sees them stream in.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

DELAY = 0.08
REASONING = ["The user wants ", "a file ", "removed. ", "Deleting needs ", "their approval."]
ANSWER = [
    "## Done\n\n",
    "Deleted `/tmp/demo.txt`.",
    " What I did:\n\n",
    "- asked **you** first\n",
    "- then removed it\n",
]


def demo_agent(run_input: Any) -> Iterator[dict[str, Any]]:
    """First run: think, announce, call ``delete_file`` and stop for approval. Resumed run: report in markdown."""
    thread, run = run_input.thread_id, run_input.run_id
    yield {"type": "RUN_STARTED", "threadId": thread, "runId": run}
    if run_input.resume:
        approved = bool((run_input.resume[0].payload or {}).get("approved"))
        content = "deleted /tmp/demo.txt" if approved else "the user said no"
        yield {
            "type": "TOOL_CALL_RESULT",
            "messageId": f"{run}-result",
            "toolCallId": "call-delete",
            "content": content,
        }
        yield {"type": "TEXT_MESSAGE_START", "messageId": f"{run}-text", "role": "assistant"}
        for piece in ANSWER if approved else ["Left the file alone."]:
            time.sleep(DELAY)
            yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": f"{run}-text", "delta": piece}
        yield {"type": "TEXT_MESSAGE_END", "messageId": f"{run}-text"}
        yield {"type": "RUN_FINISHED", "threadId": thread, "runId": run}
        return
    yield {"type": "REASONING_START", "messageId": f"{run}-think"}
    yield {"type": "REASONING_MESSAGE_START", "messageId": f"{run}-think", "role": "reasoning"}
    for piece in REASONING:
        time.sleep(DELAY * 2)
        yield {"type": "REASONING_MESSAGE_CONTENT", "messageId": f"{run}-think", "delta": piece}
    yield {"type": "REASONING_MESSAGE_END", "messageId": f"{run}-think"}
    yield {"type": "REASONING_END", "messageId": f"{run}-think"}
    yield {"type": "TEXT_MESSAGE_START", "messageId": f"{run}-say", "role": "assistant"}
    yield {
        "type": "TEXT_MESSAGE_CONTENT",
        "messageId": f"{run}-say",
        "delta": "I will delete it once you approve.",
    }
    yield {"type": "TEXT_MESSAGE_END", "messageId": f"{run}-say"}
    yield {
        "type": "TOOL_CALL_START",
        "toolCallId": "call-delete",
        "toolCallName": "delete_file",
        "parentMessageId": f"{run}-say",
    }
    for piece in ['{"path": ', '"/tmp/demo.txt"}']:
        time.sleep(DELAY)
        yield {"type": "TOOL_CALL_ARGS", "toolCallId": "call-delete", "delta": piece}
    yield {"type": "TOOL_CALL_END", "toolCallId": "call-delete"}
    interrupt = {
        "id": "approve-delete",
        "reason": "tool_call",
        "message": "Delete /tmp/demo.txt?",
        "toolCallId": "call-delete",
    }
    yield {
        "type": "RUN_FINISHED",
        "threadId": thread,
        "runId": run,
        "outcome": {"type": "interrupt", "interrupts": [interrupt]},
    }
