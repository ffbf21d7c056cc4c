"""``log_cases``: a folder of recorded logs as pytest parameters, one per run, so that a recorded conversation
becomes a regression test.

A test file in CI::

    import pytest
    from agui_notebook import evals

    @pytest.mark.parametrize("run", evals.log_cases("tests/recorded/"))
    def test_the_agent_still_answers(run):
        run.expect().no_tool_errors().text_contains("Paris")

    @pytest.mark.parametrize("run", evals.log_cases("tests/recorded/"))
    def test_the_answer_is_json(run):
        evals.check(run, evals.json_matches({"type": "object"}))

Each parameter is a :class:`~agui_notebook.evals._run.Run`; its test id is ``<file name>:<run key>``.
"""

from __future__ import annotations

import os
from typing import Any

from agui_notebook._errors import InputTypeError, OptionalDependencyError, ScorerError
from agui_notebook._options import keyword_options

from ._run import Message, Run, runs_of
from ._scorers import Scorer, scorer

__all__ = ["check", "log_cases"]


@keyword_options
def log_cases(source: Any) -> list[Any]:
    """The runs of ``source`` (a folder of logs, a glob, a log, a chat ...) as ``pytest.param(run,
    id="<file>:<run key>")``, for ``@pytest.mark.parametrize("run", log_cases("logs/"))``.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "weather.jsonl").write_text('{"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}\\n')
    >>> [case.id for case in log_cases(folder)]
    ['weather.jsonl:r1']
    """
    try:
        import pytest
    except ImportError:
        raise OptionalDependencyError("log_cases makes pytest parameters: pip install pytest") from None
    return [
        pytest.param(run, id=f"{os.path.basename(run.source)}:{run.key}")
        for run in runs_of(source)
        if run is not None
    ]


def check(item: Run | Message, *scorers: Any) -> None:
    """Assert that each scorer passes on ``item`` (a boolean score: True; a number: above 0), raising
    ``AssertionError`` with the scorer's reason: the test body for :func:`log_cases`' runs.

    >>> from agui_notebook import evals
    >>> run = runs_of([{"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}])[0]
    >>> check(run, evals.tool_called("search"))
    Traceback (most recent call last):
    ...
    AssertionError: called_search: expected run 'r1' to call 'search'; it called no tool
    """
    if not isinstance(item, (Run, Message)):
        raise InputTypeError(f"check: give a run (from evals.log_cases), not {type(item).__name__}")
    for given in scorers:
        one = given if isinstance(given, Scorer) else scorer(given)
        if one.is_async:
            raise ScorerError(
                f"check: scorer {one.name!r} is async (a judge): score it with evals.score",
                scorer=one.name,
                run_key=str(item.row["run_key"]),
            )
        value, reason = one.verdict(item)
        if value is None or value is False or (isinstance(value, float) and not value > 0):
            raise AssertionError(f"{one.name}: {reason or f'scored {value!r}'}")
