"""expect: chained checks over recorded runs, and what a failure says (word for word)."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from agui_notebook import ChatWidget, OptionError, expect, load_events
from tests.logs.samples import CAPTURES, RUN, at, known_events

LOG = CAPTURES / "pydantic_ai_runs.jsonl"
"""Six pydantic-ai runs recorded with receive times (text_only, reasoning_tool_text, parallel_tools,
retried_tool, crashing_tool, needs_approval)."""


def failure(check) -> str:
    with pytest.raises(AssertionError) as caught:
        check()
    return str(caught.value)


def test_checks_chain_and_pass_on_a_recorded_run() -> None:
    check = (
        expect(LOG, run="reasoning_tool_text")
        .tool_called("get_weather", city="Paris")
        .tool_called("get_weather", times=1)
        .before("REASONING_START", "get_weather")
        .before("get_weather", "TOOL_CALL_RESULT")
        .before("TOOL_CALL_RESULT", "sunny")
        .no_tool_errors()
        .text_contains("Paris", "sunny")
        .ttft_below(5)
        .verify()
    )
    assert repr(check) == "<expect run 'reasoning_tool_text': 9 checks passed>"


def test_a_missing_call_names_the_calls_the_run_made_with_their_arguments_and_events() -> None:
    message = failure(lambda: expect(LOG, run="parallel_tools").tool_called("get_weather", city="Rome"))
    assert message == (
        "expected run 'parallel_tools' to call 'get_weather' with arguments containing {\"city\":\"Rome\"}; it "
        'called get_weather({"city":"Paris"}) at event 37 (TOOL_CALL_START), get_weather({"city":"Oslo"}) at '
        "event 40 (TOOL_CALL_START)"
    )
    assert failure(lambda: expect(LOG, run=0).tool_called("get_weather")) == (
        "expected run 'text_only' to call 'get_weather'; it called no tool"
    )


def test_times_counts_the_matching_calls() -> None:
    expect(LOG, run=2).tool_called("get_weather", times=2).tool_called("get_weather", times=1, city="Oslo")
    message = failure(lambda: expect(LOG, run=2).tool_called("get_weather", times=2, city="Oslo"))
    assert message == (
        "expected run 'parallel_tools' to call 'get_weather' with arguments containing {\"city\":\"Oslo\"} 2 "
        'times; it did once (it called get_weather({"city":"Paris"}) at event 37 (TOOL_CALL_START), '
        'get_weather({"city":"Oslo"}) at event 40 (TOOL_CALL_START))'
    )
    assert "it did never (it called no tool)" in failure(lambda: expect(LOG, run=0).tool_called("x", times=1))


def test_arguments_match_as_a_subset_nested_objects_partly() -> None:
    events = [
        *RUN[:1],
        at(1, "TOOL_CALL_START", toolCallId="c", toolCallName="search"),
        at(2, "TOOL_CALL_ARGS", toolCallId="c", delta='{"q": "x", "opts": {"lang": "fr", "n": 3}}'),
        at(3, "TOOL_CALL_END", toolCallId="c"),
        RUN[-1],
    ]
    expect(events).tool_called("search", opts={"lang": "fr"}).tool_called("search", q="x", opts={"n": 3})
    with pytest.raises(AssertionError):
        expect(events).tool_called("search", opts={"lang": "de"})
    with pytest.raises(AssertionError):
        expect(events).tool_called("search", q={"nested": "no"})


def test_tool_errors_are_listed_with_their_error() -> None:
    message = failure(lambda: expect(LOG).no_tool_errors())
    assert message == (
        'expected no tool errors in the events; flaky_lookup({"key":"x"}) at event 54 (TOOL_CALL_START): '
        'retried: lookup of \'x\' failed: backend unavailable; broken_lookup({"key":"y"}) at event 72 '
        "(TOOL_CALL_START): lookup service crashed on 'y'"  # the run's error: the call that failed it
    )
    assert "failed: failed:" not in message  # the error says how the call ended; it is not said twice
    expect(LOG, run="parallel_tools").no_tool_errors()


def test_before_says_where_each_first_happened() -> None:
    message = failure(lambda: expect(LOG, run=1).before("Paris is", "get_weather"))
    assert message == (
        "expected 'Paris is' before 'get_weather' in run 'reasoning_tool_text'; 'get_weather' (tool call) first "
        "at event 22 (TOOL_CALL_START), 'Paris is' (text) first at event 28 (TEXT_MESSAGE_CONTENT)"
    )
    message = failure(lambda: expect(LOG, run=1).before("get_weather", "nowhere"))
    assert message == (
        "expected 'get_weather' before 'nowhere' in run 'reasoning_tool_text'; 'nowhere' never happens: it is no "
        "event type, no tool called (get_weather) and no text of the run"
    )


def test_before_finds_a_snippet_split_across_deltas_at_the_delta_completing_it() -> None:
    events = known_events()  # r1 (from event 1) streams "Hello", "", " world", "!" as events 10 to 13
    check = expect(events, run="r1")
    assert check._first("lo wor") == (11, "text")  # rows of the run: event 12
    check.before("lo wor", "TOOL_CALL_START").before("Hello", "lo wor")
    assert "'Done.' (text) first at event 27 (TEXT_MESSAGE_CONTENT)" in failure(
        lambda: check.before("Done.", "calc")
    )


def test_text_contains_quotes_the_text_the_run_streamed() -> None:
    assert failure(lambda: expect(LOG, run=0).text_contains("Hello", "Goodbye")) == (
        "expected the text of run 'text_only' to contain 'Goodbye'; its text: 'Hello, world! Here is a list:\\n\\n"
        "- one\\n- two\\n'"
    )
    no_text = [RUN[0], RUN[-1]]
    assert failure(lambda: expect(no_text).text_contains("x")) == (
        "expected the text of the events to contain 'x'; it streamed no text"
    )


def test_ttft_below_reads_runs_df() -> None:
    events = known_events()  # r1's first reasoning delta is 150 ms after its start; r3 streams nothing
    expect(events, run="r1").ttft_below(0.2)
    assert failure(lambda: expect(events, run="r1").ttft_below(0.15)) == (
        "expected a TTFT below 0.15 s in run 'r1'; run 'r1' had a TTFT of 0.150 s"
    )
    assert failure(lambda: expect(events, run="r3").ttft_below(1)) == (
        "expected a TTFT below 1 s in run 'r3'; run 'r3' streamed no text or reasoning (no TTFT)"
    )


def test_verify_lists_the_checkers_errors_at_their_events_in_the_source() -> None:
    events = [
        *RUN[:1],
        *RUN[-1:],
        at(60, "RUN_STARTED", threadId="t", runId="r2"),
        at(61, "TOOL_CALL_ARGS", toolCallId="nope", delta="{}"),
        at(62, "RUN_FINISHED", threadId="t", runId="r2"),
    ]
    expect(events, run=0).verify()
    message = failure(lambda: expect(events, run="r2").verify())
    assert re.fullmatch(
        r"expected run 'r2' to pass verify_events; 1 error: event 3 \(TOOL_CALL_ARGS\): .*'nope'.*", message
    ), message


def test_run_picks_by_index_or_id_and_says_what_it_has() -> None:
    assert expect(LOG, run=-1).run.label == "run 'needs_approval'"
    assert expect(load_events(LOG), run="text_only").run.start == 0
    with pytest.raises(OptionError, match=r"^run=6: the source has 6 runs$"):
        expect(LOG, run=6)
    with pytest.raises(OptionError, match=r"^run='nope': no run has that id \(runs: 'text_only', "):
        expect(LOG, run="nope")


def test_a_chat_is_checked_through_its_events() -> None:
    def agent(run_input):
        ids = {"threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "RUN_STARTED", **ids}
        yield {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "lookup"}
        yield {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"key": "k"}'}
        yield {"type": "TOOL_CALL_END", "toolCallId": "c1"}
        yield {"type": "TOOL_CALL_RESULT", "messageId": "r1", "toolCallId": "c1", "content": "found"}
        yield {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "It was found."}
        yield {"type": "RUN_FINISHED", **ids}

    async def run() -> ChatWidget:
        chat = ChatWidget(agent)
        await chat.send_message("Find k")
        return chat

    chat = asyncio.run(run())
    expect(chat).tool_called("lookup", key="k").before("lookup", "found.").text_contains("found").verify()


def test_a_run_read_from_ai_sdk_chunks_is_verified_as_the_ai_sdk_reads_it() -> None:
    stream = CAPTURES / "pydantic_ai_ui_stream.jsonl"
    expect(stream).tool_called("get_weather", city="Paris").text_contains("sunny").verify()
    chunks = [json.loads(line) for line in stream.read_text().splitlines()]
    broken = [*chunks[:3], {"type": "text-delta", "id": "nope", "delta": "x"}, *chunks[3:]]
    assert failure(lambda: expect(broken).verify()) == (
        "expected the events to be a valid UI message stream; run 'ui-run-1': chunk 3 (text-delta): no text part "
        "with id 'nope' (send text-start first)"
    )

    async def run() -> ChatWidget:
        chat = ChatWidget(lambda run_input: iter(["Plain ", "text."]))  # recorded as AI SDK chunks
        await chat.send_message("Hi")
        return chat

    expect(asyncio.run(run())).text_contains("Plain text.").verify()
