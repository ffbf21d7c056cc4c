"""A misspelled option is an OptionError naming the closest option (agui_notebook/_options.py).

Every public function and class of the package that takes keyword options is called with each of its options
misspelled.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

import agui_notebook
from agui_notebook import OptionError
from agui_notebook._options import keyword_options, unknown_option
from tests.support.public import public_names, public_value


def _with_options() -> list[tuple[str, Any, list[str]]]:
    """(name, callable, its keyword-only options) of every public function and option-taking class here."""
    found = []
    for name, module in sorted(public_names().items()):
        if module.endswith("._errors"):
            continue
        value = public_value(name)
        if inspect.isclass(value) and hasattr(value, "model_fields"):
            continue  # pydantic models: their keywords are data (fields), not options
        try:
            parameters = inspect.signature(value).parameters.values()
        except (TypeError, ValueError):
            continue
        if any(p.kind is p.VAR_KEYWORD for p in parameters) and name not in ("inspect_run", "Inspector"):
            continue
        options = [p.name for p in parameters if p.kind is p.KEYWORD_ONLY]
        if options:
            found.append((name, value, options))
    return found


WITH_OPTIONS = _with_options()


def test_the_public_functions_with_options_are_all_checked() -> None:
    names = {name for name, _, _ in WITH_OPTIONS}
    assert {
        "runs_df",
        "tool_calls_df",
        "messages_df",
        "chunks_df",
        "reasoning_df",
        "load_events",
        "summarize",
        "totals_df",
        "apply_events",
        "verify_events",
    } <= names
    assert {
        "UIMessageStreamReducer",
        "EventReducer",
        "UIMessageAssembler",
        "inspect_run",
        "Inspector",
        "Chat",
        "ChatWidget",
        "HttpAgent",
        "DemoAgent",
        "EventRecorder",
        "frontend_tool",
        "fork",
    } <= names
    assert {"score", "ascore", "judge", "scorer", "agreement", "compare", "json_matches"} <= names


@pytest.mark.parametrize(("name", "function", "options"), WITH_OPTIONS, ids=[n for n, _, _ in WITH_OPTIONS])
def test_a_misspelled_option_names_the_closest_one(name: str, function: Any, options: list[str]) -> None:
    for option in options:
        misspelled = option[:-1] if len(option) > 3 else option + "s"
        with pytest.raises(
            OptionError, match=rf"takes no option {misspelled}=: did you mean {option}=\?"
        ) as caught:
            function([], **{misspelled: None})
        assert isinstance(caught.value, ValueError)
        # Not "During handling of the above exception (TypeError ...)": the option is the whole story.
        assert caught.value.__suppress_context__ or not isinstance(caught.value.__context__, TypeError)


def test_the_message_lists_the_options_and_suggests_nothing_far_off() -> None:
    with pytest.raises(OptionError) as caught:
        agui_notebook.runs_df([], colour="red")
    assert str(caught.value) == (
        "runs_df() takes no option colour= (its options: prices=, workers=, client=, lazy=, progress=, errors=)"
    )
    assert str(unknown_option("f", "x", [])) == "f() takes no option x= (it takes no options)"


def test_a_type_error_from_inside_the_function_is_not_taken_for_an_option() -> None:
    @keyword_options
    def broken(*, size: int = 0) -> None:
        raise TypeError("inside")

    with pytest.raises(TypeError, match=r"^inside$"):
        broken(size=1)


def test_the_check_keeps_the_signature_the_docstring_and_the_name() -> None:
    def table(events: object, *, workers: int | None = None) -> str:
        """Doc."""
        return "built"

    checked = keyword_options(table)
    assert inspect.signature(checked) == inspect.signature(table)
    assert (checked.__doc__, checked.__name__, checked([])) == ("Doc.", "table", "built")
