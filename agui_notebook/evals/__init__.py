"""``agui_notebook.evals``: Scores on the tables (docs/evals.md): ``score`` adds one column per scorer to the
runs (or messages) of a log, a folder or a chat; scorers are checks built from ``expect``'s (``tool_called``,
``text_contains``, ``json_matches``, ``ttft_below`` ...), plain functions (``scorer``) and LLM judges
(``judge``); ``agreement`` sets a score against the 👍/👎 feedback, ``compare`` two sets of runs with bootstrap
intervals, and ``log_cases`` turns a folder of logs into pytest parameters.

>>> from agui_notebook import evals
>>> events = [
...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
...     {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "role": "assistant", "delta": "Sunny in Paris."},
...     {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
... ]
>>> evals.score(events, evals.text_contains("Paris"))[["run_id", "contains_Paris"]]
  run_id  contains_Paris
0     r1            True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agui_notebook._lazy import lazy_namespace

_EXPORTS: dict[str, str] = {
    "Agreement": "agui_notebook.evals._agreement",
    "agreement": "agui_notebook.evals._agreement",
    "check": "agui_notebook.evals._cases",
    "log_cases": "agui_notebook.evals._cases",
    "Comparison": "agui_notebook.evals._compare",
    "compare": "agui_notebook.evals._compare",
    "judge": "agui_notebook.evals._judge",
    "Message": "agui_notebook.evals._run",
    "Run": "agui_notebook.evals._run",
    "ascore": "agui_notebook.evals._score",
    "score": "agui_notebook.evals._score",
    "score_columns": "agui_notebook.evals._score",
    "Scorer": "agui_notebook.evals._scorers",
    "Verdict": "agui_notebook.evals._scorers",
    "before": "agui_notebook.evals._scorers",
    "json_matches": "agui_notebook.evals._scorers",
    "no_tool_errors": "agui_notebook.evals._scorers",
    "scorer": "agui_notebook.evals._scorers",
    "text_contains": "agui_notebook.evals._scorers",
    "tool_called": "agui_notebook.evals._scorers",
    "ttft_below": "agui_notebook.evals._scorers",
    "verified": "agui_notebook.evals._scorers",
}

__all__ = sorted(_EXPORTS)

if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_namespace(__name__, _EXPORTS)

if TYPE_CHECKING:
    from agui_notebook.evals._agreement import Agreement as Agreement, agreement as agreement
    from agui_notebook.evals._cases import check as check, log_cases as log_cases
    from agui_notebook.evals._compare import Comparison as Comparison, compare as compare
    from agui_notebook.evals._judge import judge as judge
    from agui_notebook.evals._run import Message as Message, Run as Run
    from agui_notebook.evals._score import (
        ascore as ascore,
        score as score,
        score_columns as score_columns,
    )
    from agui_notebook.evals._scorers import (
        Scorer as Scorer,
        Verdict as Verdict,
        before as before,
        json_matches as json_matches,
        no_tool_errors as no_tool_errors,
        scorer as scorer,
        text_contains as text_contains,
        tool_called as tool_called,
        ttft_below as ttft_below,
        verified as verified,
    )
