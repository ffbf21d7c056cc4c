"""Scorers (evals/_scorers.py): expect's checks as columns, plain functions, dtypes and their errors."""

from __future__ import annotations

import pytest

from agui_notebook import InputTypeError, OptionError, ScorerError
from agui_notebook.evals import (
    Verdict,
    before,
    json_matches,
    no_tool_errors,
    scorer,
    text_contains,
    tool_called,
    ttft_below,
    verified,
)
from agui_notebook.evals._run import runs_of
from tests.evals.events import WEATHER

R1, R2, R3 = runs_of(WEATHER)


def test_tool_called_gives_true_or_false_with_expects_message() -> None:
    check = tool_called("get_weather", city="Paris")
    assert check.name == "called_get_weather"
    assert (
        check.description
        == "whether the run called tool 'get_weather' with arguments containing {'city': 'Paris'}"
    )
    assert check.verdict(R1) == Verdict(True, None)
    assert check.verdict(R3) == Verdict(
        False,
        "expected run 'r3' to call 'get_weather' with arguments containing {\"city\":\"Paris\"}; it called "
        'get_weather({"city":"Oslo"}) at event 11 (TOOL_CALL_START)',
    )
    assert tool_called("get_weather", times=2).verdict(R1).value is False


def test_text_contains_no_tool_errors_ttft_and_verify() -> None:
    assert [text_contains("Paris")(r) for r in (R1, R2, R3)] == [True, False, False]
    assert text_contains("Paris").verdict(R2).reason == (
        "expected the text of run 'r2' to contain 'Paris'; its text: \"I don't know.\""
    )
    assert no_tool_errors()(R1) is True
    # The runs carry no times: no TTFT to compare.
    assert ttft_below(2)(R1) is False
    assert ttft_below(2).verdict(R1).reason == (
        "expected a TTFT below 2 s in run 'r1'; run 'r1' streamed no text or reasoning (no TTFT)"
    )
    assert verified()(R1) is True


def test_json_matches_checks_the_final_answer_against_the_schema() -> None:
    schema = {"type": "object", "properties": {"sky": {"enum": ["sun", "snow"]}}, "required": ["city", "sky"]}
    check = json_matches(schema)
    assert check.verdict(R3) == Verdict(True, None)
    assert check.verdict(R1) == Verdict(
        False, "the answer is not JSON (Expecting value: line 1 column 1 (char 0)): 'Sunny in Paris.'"
    )
    wrong = json_matches({"type": "object", "properties": {"sky": {"enum": ["sun"]}}})
    assert (
        wrong.verdict(R3).reason
        == "the answer's JSON does not match the schema at $.sky: 'snow' is not one of ['sun']"
    )
    with pytest.raises(OptionError, match=r"^json_matches: not a JSON Schema: 12 is not valid"):
        json_matches({"type": 12})


def test_a_plain_function_is_a_column_named_and_typed_by_its_signature() -> None:
    def answer_chars(run) -> int:  # type: ignore[no-untyped-def]
        """Characters of the final answer.

        More text."""
        return len(run.text)

    chars = scorer(answer_chars)
    assert (chars.name, chars.description, chars.dtype, chars.per) == (
        "answer_chars",
        "Characters of the final answer.",
        "float64",
        "run",
    )
    assert chars(R1) == 15.0
    named = scorer(lambda run: run.key, name="key", dtype=str)
    assert (named.dtype, named(R2)) == ("string", "r2")


def test_a_scorer_that_raises_or_gives_the_wrong_kind_is_a_scorer_error_naming_it_and_the_run() -> None:
    def broken(run) -> bool:  # type: ignore[no-untyped-def]
        return 1 / 0 > 0

    with pytest.raises(
        ScorerError, match=r"^scorer 'broken', run 'r2': raised ZeroDivisionError: division by zero$"
    ) as caught:
        scorer(broken)(R2)
    assert (caught.value.scorer, caught.value.run_key) == ("broken", "r2")
    assert isinstance(caught.value.__cause__, ZeroDivisionError)
    with pytest.raises(
        ScorerError, match=r"^scorer 'k', run 'r1': gave 'r1', not a bool \(its column is boolean\)$"
    ):
        scorer(lambda run: run.key, name="k", dtype=bool)(R1)
    assert scorer(lambda run: None, name="nothing", dtype=float)(R1) is None


def test_the_options_are_checked() -> None:
    with pytest.raises(OptionError, match=r"give it a name="):
        scorer(lambda run: True, dtype=bool)
    with pytest.raises(OptionError, match=r"give it a dtype="):
        scorer(lambda run: True, name="x")
    with pytest.raises(OptionError, match=r"dtype must be one of boolean, float64, string"):
        scorer(lambda run: True, name="x", dtype="int8")
    with pytest.raises(
        InputTypeError, match=r"^tool_called: name must be a tool name \(a string\), not int$"
    ):
        tool_called(3)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=r"^text_contains: give at least one snippet$"):
        text_contains()
    with pytest.raises(OptionError, match=r"^ttft_below: seconds must be a positive number, not -1$"):
        ttft_below(-1)


def test_the_columns_are_declared_like_the_tables() -> None:
    assert [(c.name, c.dtype) for c in tool_called("search").columns] == [
        ("called_search", "boolean"),
        ("called_search_reason", "string"),
    ]


def test_before_orders_a_tool_call_and_a_text() -> None:
    assert before("get_weather", "Paris").verdict(R1) == Verdict(True, None)
    assert before("Paris", "get_weather").verdict(R1) == Verdict(
        False,
        "expected 'Paris' before 'get_weather' in run 'r1'; 'get_weather' (tool call) first at event 1 "
        "(TOOL_CALL_START), 'Paris' (text) first at event 5 (TEXT_MESSAGE_CHUNK)",
    )
