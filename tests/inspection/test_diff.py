"""diff_runs: hand-made pairs with known differences, the side-by-side view, run= and chats."""

from __future__ import annotations

import asyncio
import difflib
import re
from pathlib import Path
from typing import Any

from agui_notebook import ChatWidget, diff_runs
from agui_notebook.inspection import _diff
from agui_notebook.inspection._diff import CHANGES, DIFF_COLUMNS
from tests.logs.samples import CAPTURES, at


def weather_run(
    *,
    run_id: str = "r",
    reasoning: str = "Think.",
    city: str = "Paris",
    result: str = "sunny",
    answer: str = "Sunny in Paris.",
    extra_call: bool = False,
    first_ms: int = 100,
    end_ms: int = 1000,
    output_tokens: int = 20,
) -> list[dict[str, Any]]:
    """One run: reasoning, a get_weather call and its result, an answer; every difference a keyword away."""
    ids = {"threadId": "t", "runId": run_id}
    events = [
        at(0, "RUN_STARTED", **ids),
        at(first_ms, "REASONING_MESSAGE_CHUNK", messageId="think", delta=reasoning),
        at(
            first_ms + 10, "TOOL_CALL_START", toolCallId="c1", toolCallName="get_weather", parentMessageId="a"
        ),
        at(first_ms + 20, "TOOL_CALL_ARGS", toolCallId="c1", delta=f'{{"city": "{city}"}}'),
        at(first_ms + 30, "TOOL_CALL_END", toolCallId="c1"),
        at(first_ms + 40, "TOOL_CALL_RESULT", messageId="res1", toolCallId="c1", content=result),
    ]
    if extra_call:
        events += [
            at(
                first_ms + 50,
                "TOOL_CALL_START",
                toolCallId="c2",
                toolCallName="get_time",
                parentMessageId="a",
            ),
            at(first_ms + 60, "TOOL_CALL_ARGS", toolCallId="c2", delta='{"tz": "CET"}'),
            at(first_ms + 70, "TOOL_CALL_END", toolCallId="c2"),
            at(first_ms + 80, "TOOL_CALL_RESULT", messageId="res2", toolCallId="c2", content="12:00"),
        ]
    events += [
        at(first_ms + 100, "TEXT_MESSAGE_CHUNK", messageId="m", delta=answer),
        at(end_ms, "RUN_FINISHED", **ids, usage=[{"inputTokens": 100, "outputTokens": output_tokens}]),
    ]
    return events


def rows(diff) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in diff.table[list(DIFF_COLUMNS)].itertuples(index=False)]


def test_every_kind_of_difference_in_one_pair() -> None:
    a = weather_run()
    b = weather_run(
        run_id="r2",
        reasoning="Think it over.",
        city="Lyon",
        result="rain",
        answer="Rainy in Lyon.",
        extra_call=True,
        first_ms=250,
        end_ms=1500,
        output_tokens=35,
    )
    diff = diff_runs(a, b)
    found = rows(diff)
    assert found[:5] == [
        ("reasoning_length", "message 0 part 1", 6, 14, 8),
        ("tool_args_changed", "message 0 part 2", '{"city":"Paris"}', '{"city":"Lyon"}', None),
        ("tool_result_changed", "message 0 part 2", "sunny", "rain", None),
        ("tool_added", "message 0 part 4", None, 'get_time({"tz":"CET"})', None),  # part 3 starts a step
        ("text_changed", "message 0 part 4 / message 0 part 6", "Sunny in Paris.", "Rainy in Lyon.", None),
    ]
    metrics = {row[0]: row[2:4] for row in found[5:]}
    assert list(metrics) == ["ttft_s", "duration_s", "output_tokens"]  # input tokens are the same
    assert metrics["ttft_s"] == (0.1, 0.25)
    assert metrics["duration_s"] == (1.0, 1.5)
    assert metrics["output_tokens"] == (20, 35)
    assert abs(found[5][4] - 0.15) < 1e-9  # delta: b - a
    assert set(diff.table["change"]) <= set(CHANGES)
    assert len(diff) == 8 and bool(diff)


def test_a_removed_call_and_a_run_against_itself() -> None:
    a, b = weather_run(extra_call=True), weather_run()
    assert rows(diff_runs(a, b)) == [
        ("tool_removed", "message 0 part 4", 'get_time({"tz":"CET"})', None, None)
    ]
    same = diff_runs(a, a)
    assert same.table.empty and not same and list(same.table.columns) == list(DIFF_COLUMNS)
    assert repr(same) == "<RunDiff the events vs the events: no differences>"
    assert "no differences" in same._repr_html_()


def test_an_unanswered_call_is_a_changed_result() -> None:
    pending = weather_run()[:5] + weather_run()[6:]
    assert rows(diff_runs(weather_run(), pending))[0][:4] == (
        "tool_result_changed",
        "message 0 part 2",
        "sunny",
        "(input-available)",
    )


def test_the_side_by_side_view_aligns_escapes_and_highlights() -> None:
    a = weather_run(answer="Sunny <b>now</b> in Paris.")
    b = weather_run(answer="Sunny <b>now</b> in Lyon.", extra_call=True)
    page = diff_runs(a, b)._repr_html_()
    statuses = re.findall(r'<tr data-diff="(\w+)">', page)
    assert statuses == ["same", "same", "added", "changed"]  # reasoning, get_weather, get_time, the answer
    assert "<b>" not in page and "&lt;b&gt;now&lt;/b&gt;" in page
    assert "<del>Paris.</del>" in page and "<ins>Lyon.</ins>" in page
    assert "<script" not in page.replace("<style>", "")
    for variable in ("--jp-warn-color1", "--jp-success-color1", "--jp-error-color1", "--jp-ui-font-color1"):
        assert f"var({variable}," in page  # JupyterLab's theme colours, with fallbacks elsewhere
    assert "color3" not in page  # the pale shades, which white text on a dark theme cannot be read on
    added_row = page.split('<tr data-diff="added">')[1].split("</tr>")[0]
    assert 'class="agui-diff-a agui-diff-empty"' in added_row and "get_time(" in added_row


def test_run_picks_one_run_of_each_source() -> None:
    log = CAPTURES / "pydantic_ai_runs.jsonl"
    diff = diff_runs(log, log, run=("reasoning_tool_text", "parallel_tools"))
    assert diff.labels == (f"{log} run 'reasoning_tool_text'", f"{log} run 'parallel_tools'")
    # a: reasoning, get_weather(Paris), text; b: text, get_weather(Paris), get_weather(Oslo), text. The longest
    # aligned block is [get_weather, text]: b's first call is the one added, its second is a's call changed.
    assert list(diff.table["change"]) == [
        "reasoning_removed",
        "text_added",
        "tool_added",
        "tool_args_changed",
        "tool_result_changed",
        "text_changed",
        "ttft_s",
        "duration_s",
        "output_tokens",
    ]
    assert diff_runs(log, log, run=2).table.empty


def test_two_chats_compare_their_conversations() -> None:
    def agent_saying(text: str):
        def agent(run_input):
            yield text

        return agent

    async def run() -> tuple[ChatWidget, ChatWidget]:
        first, second = ChatWidget(agent_saying("Yes.")), ChatWidget(agent_saying("No."))
        await first.send_message("Well?")
        await second.send_message("Well?")
        return first, second

    first, second = asyncio.run(run())
    diff = diff_runs(first, second)
    assert diff.labels == ("the chat", "the chat")
    found = [row for row in rows(diff) if row[1] != "run"]
    assert found == [("text_changed", "message 1 part 1", "Yes.", "No.", None)]  # the user turns agree


def test_docs_list_every_change_kind() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "inspect.md").read_text()
    for change in CHANGES:
        assert f"`{change}`" in docs, change


def test_one_run_of_each_chat_starts_from_the_question_the_chat_sent() -> None:
    """The user's turn is in the run input (pydantic-ai does not echo it): a changed question is a change."""
    from tests.support.pydantic_ai_runs import _text_only, make_agent

    async def run() -> tuple[ChatWidget, ChatWidget]:
        first, second = ChatWidget(make_agent(_text_only)), ChatWidget(make_agent(_text_only))
        await first.send_message("Hello")
        await first.send_message("Weather in Oslo?")
        await second.send_message("Hello")
        await second.send_message("Weather in Bergen?")
        return first, second

    first, second = asyncio.run(run())
    diff = diff_runs(first, second, run=1)
    questions = [row for row in rows(diff) if row[0] == "text_changed" and row[2] == "Weather in Oslo?"]
    assert questions == [("text_changed", "message 2 part 0", "Weather in Oslo?", "Weather in Bergen?", None)]


def test_the_view_aligns_words_only_where_the_texts_differ_and_within_a_bound(monkeypatch: Any) -> None:
    aligned: list[int] = []
    real = difflib.SequenceMatcher

    def counted(junk: Any, a: Any, b: Any, **options: Any) -> difflib.SequenceMatcher:
        aligned.append(len(a) * len(b))
        return real(junk, a, b, **options)

    monkeypatch.setattr(_diff.difflib, "SequenceMatcher", counted)

    def run(text: str) -> list[dict[str, Any]]:
        return [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": text},
            {"type": "TEXT_MESSAGE_END", "messageId": "m"},
            {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
        ]

    # One word changed in a long text: the common start and end are not aligned again.
    words = " ".join(f"w{i % 7}" for i in range(300))
    page = diff_runs(run(f"{words} Paris. {words}"), run(f"{words} Lyon. {words}"))._repr_html_()
    assert "<del>Paris.</del>" in page and "<ins>Lyon.</ins>" in page
    assert page.count("<del>") == 1 and page.count("<ins>") == 1
    # Two long texts that differ everywhere: marked whole, never aligned word by word.
    one = " ".join(f"a{i % 5}" for i in range(900))
    two = " ".join(f"a{(i * 3) % 5}" for i in range(900))
    page = diff_runs(run(one), run(two))._repr_html_()
    assert page.count("<del>") == 1 and page.count("<ins>") == 1
    assert aligned and max(aligned) <= _diff.WORD_DIFF_PAIRS
