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
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = [
    "CLAIMED_OUTCOMES",
    "DENIED_TOOL_MESSAGE_ERROR",
    "ERROR_OUTCOMES",
    "UNSUCCESSFUL_OUTCOMES",
    "claimed_outcome",
]

CLAIMED_OUTCOMES = frozenset({"failed", "denied", "interrupted", "retried"})
"""Every outcome a claim can carry; ``success`` is the default and never written."""

ERROR_OUTCOMES = frozenset({"failed", "retried"})
"""Outcomes the bridge turns into ``tool-output-error`` (the result's content as the error text), as
pydantic-ai's own ``ERROR_OUTCOMES``; ``denied`` becomes ``tool-output-denied`` and ``interrupted`` stays an
ordinary output."""

UNSUCCESSFUL_OUTCOMES = CLAIMED_OUTCOMES
"""Outcomes ``tool_calls_df`` does not report as ``ok``: ``denied`` is ``status == "denied"``, the others
``status == "error"`` (``error`` is ``"<outcome>: <content>"``)."""

DENIED_TOOL_MESSAGE_ERROR = "denied"
"""The ``error`` of an AG-UI ToolMessage that answers a call the user denied (its content is the reason the
agent reads): what ``to_agui_messages`` writes for an ``output-denied`` part, what ``tool_calls_df`` reads as
``status == "denied"``."""

_NAMESPACE = "pydantic_ai"


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
