"""pydantic-ai's tool-outcome claim: how a tool result says it did not succeed, read once for every consumer.

AG-UI's ``TOOL_CALL_RESULT`` has no outcome field, so pydantic-ai's AG-UI adapter follows the result with a
``REASONING_ENCRYPTED_VALUE`` (subtype ``message``, ``entityId`` the result's ``messageId``) whose
``encryptedValue`` is JSON with its claims under a ``pydantic_ai`` key, for instance
``{"pydantic_ai": {"outcome": "retried", "retry": {...}}}``. Only non-success outcomes are written.

Two consumers decide differently what a claimed outcome means, and both decisions are here side by side:
the bridge (UI chunks) shows ``ERROR_OUTCOMES`` as tool errors, the logs tables report every one of
``UNSUCCESSFUL_OUTCOMES`` as an error.

>>> claimed_outcome('{"pydantic_ai": {"outcome": "retried", "retry": {"attempt": 1}}}')
'retried'
>>> claimed_outcome("gAAAAABopaque-provider-blob") is None
True

When a run fails while tool calls are open, pydantic-ai closes every one of them alike (``FAILED_CLOSEOUT``,
claimed ``failed``), the call that raised and the siblings cancelled because of it; the reason is only in the
RUN_ERROR. :func:`failed_call` tells which closed call failed, so that the others read as cancelled.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import orjson

__all__ = [
    "CANCELLED_OUTCOMES",
    "CLAIMED_OUTCOMES",
    "DENIED_TOOL_MESSAGE_ERROR",
    "ERROR_OUTCOMES",
    "FAILED_CLOSEOUT",
    "UNSUCCESSFUL_OUTCOMES",
    "claimed_outcome",
    "failed_call",
]

CLAIMED_OUTCOMES = frozenset({"failed", "denied", "interrupted", "retried"})
"""Every outcome a claim can carry; ``success`` is the default and never written."""

ERROR_OUTCOMES = frozenset({"failed", "retried"})
"""Outcomes the bridge turns into ``tool-output-error`` (the result's content as the error text), as
pydantic-ai's own ``ERROR_OUTCOMES``; ``denied`` becomes ``tool-output-denied`` and ``interrupted`` stays an
ordinary output."""

UNSUCCESSFUL_OUTCOMES = CLAIMED_OUTCOMES
"""Outcomes ``tool_calls_df`` does not report as ``ok``: ``denied`` is ``status == "denied"``,
``CANCELLED_OUTCOMES`` are ``status == "cancelled"``, the others ``status == "error"`` (``error`` is
``"<outcome>: <content>"``, or the RUN_ERROR's message for a ``FAILED_CLOSEOUT``: see :func:`failed_call`)."""

DENIED_TOOL_MESSAGE_ERROR = "denied"
"""The ``error`` of an AG-UI ToolMessage that answers a call the user denied (its content is the reason the
agent reads): what ``to_agui_messages`` writes for an ``output-denied`` part, what ``tool_calls_df`` reads as
``status == "denied"``."""

FAILED_CLOSEOUT = "Tool execution was interrupted by an error."
"""The content pydantic-ai gives every tool call still open when its run fails (claimed ``failed``): the one
that raised and the ones cancelled because of it alike."""

CANCELLED_OUTCOMES = frozenset({"interrupted"})
"""Claimed outcomes that say the call was cancelled (pydantic-ai's calls open when its run was cancelled)."""

_NAMESPACE = "pydantic_ai"
_NAMED_TOOL = re.compile(r"\bTool '([^']+)'")
"""How pydantic-ai names the tool that ended a run ("Tool 'lookup_db' exceeded max retries count of 0")."""


def failed_call(closed: Sequence[tuple[str, str | None]], run_error: str) -> str | None:
    """Which of a failed run's closed calls (``(tool_call_id, tool_name)`` each, in order) raised: the others
    were cancelled because of it. None when the run's error does not tell (several calls were open and the
    error names none of them, or more than one with the tool it names).

    The call is the only one closed, else the only one whose tool the error names.

    >>> failed_call([("c1", "slow_search"), ("c2", "lookup_db")], "Tool 'lookup_db' exceeded max retries")
    'c2'
    >>> failed_call([("c1", "slow_search")], "search backend down")
    'c1'
    >>> failed_call([("c1", "slow_search"), ("c2", "lookup_db")], "search backend down") is None
    True
    """
    if len(closed) == 1:
        return closed[0][0]
    named = _NAMED_TOOL.search(run_error)
    if named is None:
        return None
    matching = [call_id for call_id, name in closed if name == named.group(1)]
    return matching[0] if len(matching) == 1 else None


def claimed_outcome(encrypted_value: Any) -> str | None:
    """The outcome claimed in a tool result message's encrypted value, or None.

    Anything other than a JSON object with a ``pydantic_ai`` object whose ``outcome`` is one of
    ``CLAIMED_OUTCOMES`` (a provider's opaque blob, a malformed or unknown claim) claims nothing, as in
    pydantic-ai's own reader.

    >>> claimed_outcome('{"pydantic_ai": {"outcome": "failed"}}')
    'failed'
    >>> claimed_outcome('{"pydantic_ai": {"outcome": "exploded"}}') is None
    True
    """
    if not isinstance(encrypted_value, str):
        return None
    try:
        claim = orjson.loads(encrypted_value)
    except orjson.JSONDecodeError:
        return None
    ours = claim.get(_NAMESPACE) if isinstance(claim, dict) else None
    outcome = ours.get("outcome") if isinstance(ours, dict) else None
    return outcome if isinstance(outcome, str) and outcome in CLAIMED_OUTCOMES else None
