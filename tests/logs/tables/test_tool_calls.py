"""tool_calls_df: known answers, the real captures' calls and outcomes, results in a resumed run."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from agui_notebook.logs._columns import TOOL_CALL_COLUMNS, names
from agui_notebook.logs._load import load_events
from agui_notebook.logs._summary import totals_df
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df
from tests.logs.samples import CAPTURES, at, ts, values


def test_tool_calls_known_answers(known: pd.DataFrame) -> None:
    calls = tool_calls_df(known)
    assert list(calls.columns) == names(TOOL_CALL_COLUMNS)
    assert values(calls["tool_call_id"]) == ["c1", "c2", "c3", "c4"]
    assert values(calls["run_id"]) == ["r1", "r1", "r2", "r4"]
    assert values(calls["tool_name"]) == ["search", "calc", "search", "calc"]
    assert values(calls["parent_message_id"]) == ["m1", "m1", None, None]
    assert values(calls["started_at"]) == [ts(1000), ts(1400), ts(5300), ts(7100)]
    assert values(calls["args_end_at"]) == [ts(1400), ts(1500), None, ts(7200)]
    assert values(calls["result_at"]) == [ts(2400), ts(2000), None, None]
    assert values(calls["args_s"]) == pytest.approx([0.4, 0.1, None, 0.1], nan_ok=True)
    assert values(calls["latency_s"]) == pytest.approx([1.0, 0.5, None, None], nan_ok=True)
    assert values(calls["total_s"]) == pytest.approx([1.4, 0.6, None, None], nan_ok=True)
    assert calls["args_chars"].tolist() == [10, 7, 0, 0]
    assert calls["args_json_valid"].tolist() == [True, False, True, True]
    assert calls["args"].tolist() == [{"q": "x"}, None, {}, {}]
    # A list of parts counts its text.
    assert values(calls["result"]) == ["found it", "division", None, None]
    assert calls["result_chars"].tolist() == [8, 8, 0, 0]
    assert values(calls["error"]) == [None, "division by zero", "model overloaded [529]", None]
    assert values(calls["status"]) == ["ok", "error", "error", "pending"]


def test_captured_tool_calls(captured: pd.DataFrame) -> None:
    calls = tool_calls_df(captured).set_index("tool_call_id")
    assert dict(calls["status"].astype(str)) == {
        "call_w1": "ok", "call_p": "ok", "call_o": "ok", "call_f": "error", "call_b": "error", "call_d": "pending",
    }  # fmt: skip
    assert calls.loc["call_f", "error"] == "retried: lookup of 'x' failed: backend unavailable"
    # The only call open when the run failed is the one that failed: it carries the RUN_ERROR's message.
    assert calls.loc["call_b", "error"] == "lookup service crashed on 'y'"
    assert calls.loc["call_b", "result"] == "Tool execution was interrupted by an error."
    assert calls.loc["call_o", "args"] == {"city": "Oslo"} and calls["args_json_valid"].all()
    assert calls.loc["call_w1", "result"] == '{"city":"Paris","sky":"sunny","temp_c":21}'
    finished = calls.dropna(subset=["result_at"])
    assert (finished["started_at"] <= finished["args_end_at"]).all()
    assert (finished["args_end_at"] <= finished["result_at"]).all()
    assert finished["total_s"].to_numpy() == pytest.approx(
        (finished["args_s"] + finished["latency_s"]).to_numpy()
    )
    # The weather tool sleeps 20-30 ms.
    assert calls.loc[["call_w1", "call_p", "call_o"], "latency_s"].between(0.02, 1).all()


def test_sse_and_ui_stream_captures_give_the_same_tool_calls() -> None:
    for name in ("pydantic_ai_run.sse", "pydantic_ai_ui_stream.jsonl"):
        calls = tool_calls_df(load_events(CAPTURES / name))
        assert values(calls["status"]) == ["ok"] and calls["args"].tolist() == [{"city": "Paris"}]
        assert calls["latency_s"].iloc[0] > 0


def test_a_result_in_the_resumed_run_joins_its_call() -> None:
    """An approval splits a tool call across runs: START/ARGS/END in the first, RESULT in the resumed one."""
    ms = 1_700_000_000_000
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r1", "timestamp": ms},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "delete", "timestamp": ms + 100},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"p": 1}', "timestamp": ms + 200},
        {"type": "TOOL_CALL_END", "toolCallId": "c", "timestamp": ms + 300},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1", "timestamp": ms + 400,
         "outcome": {"type": "interrupt", "interrupts": [{"id": "i", "reason": "tool_call", "toolCallId": "c"}]}},
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r2", "timestamp": ms + 5_000},
        {"type": "TOOL_CALL_RESULT", "toolCallId": "c", "messageId": "m", "content": "done", "timestamp": ms + 5_300},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r2", "timestamp": ms + 5_400},
        # the same id in another thread is another call
        {"type": "RUN_STARTED", "threadId": "u", "runId": "r3", "timestamp": ms + 6_000},
        {"type": "TOOL_CALL_RESULT", "toolCallId": "c", "messageId": "m2", "content": "x", "timestamp": ms + 6_100},
        {"type": "RUN_FINISHED", "threadId": "u", "runId": "r3", "timestamp": ms + 6_200},
    ]  # fmt: skip
    calls = tool_calls_df(events)
    assert calls[["run_id", "status", "result_chars"]].to_dict("records") == [
        {"run_id": "r1", "status": "ok", "result_chars": 4},
        {"run_id": "r3", "status": "ok", "result_chars": 1},
    ]
    assert calls.loc[0, "args"] == {"p": 1}
    assert calls.loc[0, "latency_s"] == pytest.approx(5.0)
    assert calls.loc[0, "total_s"] == pytest.approx(5.2)
    assert runs_df(events).set_index("run_id").tool_calls.to_dict() == {"r1": 1, "r2": 0, "r3": 1}


def test_calls_outside_runs_in_two_files_are_two_calls(tmp_path) -> None:
    from tests.logs.samples import at, jsonl

    call = [
        at(0, "TOOL_CALL_START", toolCallId="c", toolCallName="search"),
        at(1, "TOOL_CALL_END", toolCallId="c"),
    ]
    (tmp_path / "a.jsonl").write_bytes(jsonl(call))
    (tmp_path / "b.jsonl").write_bytes(jsonl(call))
    calls = tool_calls_df(load_events(tmp_path))
    assert len(calls) == 2


def test_an_outcome_marker_applies_within_its_file(tmp_path) -> None:
    from tests.logs.samples import at, jsonl

    marker = at(
        5,
        "REASONING_ENCRYPTED_VALUE",
        subtype="message",
        entityId="res",
        encryptedValue='{"pydantic_ai": {"outcome": "failed"}}',
    )
    run = [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(1, "TOOL_CALL_START", toolCallId="c", toolCallName="search"),
        at(2, "TOOL_CALL_END", toolCallId="c"),
        at(3, "TOOL_CALL_RESULT", toolCallId="c", messageId="res", content="no"),
        at(4, "RUN_FINISHED", threadId="t", runId="r"),
    ]
    (tmp_path / "a.jsonl").write_bytes(jsonl(run))
    (tmp_path / "b.jsonl").write_bytes(jsonl([marker]))
    assert tool_calls_df(load_events(tmp_path))["status"].tolist() == ["ok"]
    (tmp_path / "b.jsonl").unlink()
    (tmp_path / "a.jsonl").write_bytes(jsonl([*run, marker]))
    assert tool_calls_df(load_events(tmp_path))["status"].tolist() == ["error"]


def _approval_log(answer: dict) -> list[dict]:
    """A call interrupted for approval, then the resumed run answering it with ``answer`` (a resume entry)."""
    ms = 1_700_000_000_000
    interrupt = {"id": "int-c", "reason": "tool_call", "toolCallId": "c"}
    return [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r1", "timestamp": ms},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "send", "timestamp": ms + 100},
        {"type": "TOOL_CALL_END", "toolCallId": "c", "timestamp": ms + 200},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1", "timestamp": ms + 300,
         "outcome": {"type": "interrupt", "interrupts": [interrupt]}},
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r2", "timestamp": ms + 5_000,
         "input": {"threadId": "t", "runId": "r2", "resume": [{"interruptId": "int-c", **answer}]}},
        {"type": "TOOL_CALL_RESULT", "toolCallId": "c", "messageId": "m", "content": "The user declined.",
         "timestamp": ms + 5_001},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r2", "timestamp": ms + 5_100},
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ({"status": "resolved", "payload": {"approved": False, "reason": "not now"}}, "denied"),
        # pydantic-ai denies a cancelled approval too ("Cancelled by user."), but the user denied nothing: they
        # asked something new, and the widget's card says "Cancelled".
        ({"status": "cancelled"}, "cancelled"),
        ({"status": "resolved", "payload": {"approved": True}}, "ok"),
    ],
)
def test_a_call_denied_by_its_resume_entry_is_denied(answer: dict, status: str) -> None:
    events = _approval_log(answer)
    call = tool_calls_df(events).iloc[0]
    assert call["status"] == status
    if status != "ok":
        # Never executed: no latency, no tool time in the run, no error.
        assert pd.isna(call["latency_s"]) and pd.isna(call["error"])
        assert call["result"] == "The user declined."
        assert runs_df(events)["tool_time_s"].tolist() == [0.0, 0.0]
    else:
        assert call["latency_s"] == pytest.approx(4.801)


def test_pydantic_ai_denials_are_denied_in_both_protocols() -> None:
    """pydantic-ai's AG-UI adapter claims the outcome `denied`; its Vercel AI adapter sends `tool-output-denied`."""
    import asyncio
    import json

    from pydantic_ai.ui.vercel_ai import VercelAIAdapter

    from agui_notebook import ChatWidget
    from tests.support.pydantic_ai_runs import capture_approval, make_approval_agent

    captured = asyncio.run(capture_approval(False))
    calls = tool_calls_df(captured.agui_events)
    assert values(calls["status"]) == ["denied"] and pd.isna(calls["latency_s"].iloc[0])

    agent = make_approval_agent()

    def vercel(run_input):
        body = {"trigger": "submit-message", "id": run_input.thread_id, "messages": chat.messages}
        run = VercelAIAdapter.build_run_input(json.dumps(body).encode())
        return VercelAIAdapter(agent=agent, run_input=run, sdk_version=7).run_stream()

    chat = ChatWidget(vercel)

    async def converse() -> None:
        assert await chat.send_message("Delete /tmp/x") == "interrupt"
        await chat.answer_approval("call_d", False)

    asyncio.run(converse())
    assert any(r["event"].get("type") == "tool-output-denied" for r in chat.events)
    calls = tool_calls_df(chat)
    assert values(calls["status"]) == ["denied"] and values(calls["error"]) == [None]


def test_a_chats_frontend_tools_take_their_results_from_the_follow_up_run_input() -> None:
    """A ChatWidget runs its frontend tools itself; their results reach the agent only in the next run's input."""
    import asyncio

    from agui_notebook import ChatWidget, frontend_tool
    from agui_notebook.chat._frontend_tools import APPROVAL_PREFIX
    from tests.chat.test_frontend_tools import get_time, scripted

    def lookup(city: str) -> str:
        raise LookupError(f"no station near {city}")

    def delete_file(path: str) -> str:
        raise AssertionError("a denied call never runs")

    agent = scripted(
        [
            ("c1", "get_time", '{"tz": "UTC"}'),
            ("c2", "lookup", '{"city": "Atlantis"}'),
            ("c3", "delete_file", '{"path": "/a"}'),
        ]
    )
    chat = ChatWidget(agent, tools=[get_time, lookup, frontend_tool(delete_file, approval=True)])

    async def converse() -> None:
        assert await chat.send_message("go") == "interrupt"
        # Until the follow-up run carries the results, the agent has none of them: the calls are pending.
        assert values(tool_calls_df(chat)["status"]) == ["pending"] * 3
        assert await chat.answer_approval(APPROVAL_PREFIX + "c3", False) == "success"

    asyncio.run(converse())
    calls = tool_calls_df(chat)
    assert values(calls["status"]) == ["ok", "error", "denied"]
    assert values(calls["result"]) == [
        '{"tz":"UTC","time":"12:00"}',
        "LookupError: no station near Atlantis",
        "Tool call denied",
    ]
    assert values(calls["error"]) == [None, "LookupError: no station near Atlantis", None]
    # Received when the follow-up run that carried them started; a denied call never ran.
    follow_up = load_events(chat).query("type == 'RUN_STARTED'")["time"].iloc[-1]
    assert values(calls["result_at"]) == [follow_up] * 3
    assert (calls["latency_s"].iloc[:2] > 0).all() and pd.isna(calls["latency_s"].iloc[2])
    runs = runs_df(chat)
    assert runs["tool_calls"].tolist() == [3, 0]
    assert runs["tool_time_s"].iloc[0] > 0


def _sibling_failure(failure: str) -> list[dict]:
    import asyncio

    from tests.support.pydantic_ai_runs import agui_run, make_sibling_failure_agent

    return asyncio.run(agui_run(make_sibling_failure_agent(failure)))


def test_a_call_cancelled_because_its_sibling_failed_is_cancelled_and_names_it() -> None:
    # A real pydantic-ai run: lookup_db fails past its retries while slow_search runs; pydantic-ai closes both
    # with the same "interrupted by an error" and says why only in RUN_ERROR, naming the tool.
    events = _sibling_failure("retries")
    reason = events[-1]["message"]
    assert reason.startswith("Tool 'lookup_db' exceeded max retries count of 0.")
    calls = tool_calls_df(events).set_index("tool_call_id")
    assert dict(calls["status"].astype(str)) == {"call_s": "cancelled", "call_l": "error"}
    assert values(calls["cause"]) == ["call_l", None]
    assert values(calls["error"]) == [None, reason]
    assert values(calls["result"]) == ["Tool execution was interrupted by an error."] * 2
    totals = totals_df(events)[["tool_calls", "tool_errors", "tool_denied", "tool_cancelled"]]
    assert totals.iloc[0].tolist() == [2, 1, 0, 1]


def test_when_the_error_names_no_call_each_closed_call_stays_an_error() -> None:
    # "search backend down" could be either call's: none is called cancelled without knowing it was.
    events = _sibling_failure("raise")
    calls = tool_calls_df(events)
    assert values(calls["status"]) == ["error", "error"]
    assert values(calls["error"]) == ["search backend down"] * 2
    assert values(calls["cause"]) == [None, None]


def test_a_sibling_that_returned_before_the_failure_is_ok() -> None:
    events = _sibling_failure("raise")
    # The search returned before lookup_db failed: only lookup_db was open, so it is the one that failed.
    closed = [e for e in events if e.get("toolCallId") != "call_s" or e["type"] != "TOOL_CALL_RESULT"]
    result = {"type": "TOOL_CALL_RESULT", "messageId": "m-s", "toolCallId": "call_s", "content": "found",
              "role": "tool"}  # fmt: skip
    closed.insert(next(i for i, e in enumerate(closed) if e["type"] == "TOOL_CALL_RESULT"), result)
    calls = tool_calls_df(closed).set_index("tool_call_id")
    assert dict(calls["status"].astype(str)) == {"call_s": "ok", "call_l": "error"}
    assert calls.loc["call_l", "error"] == "search backend down"


def test_calls_open_when_their_run_is_cancelled_are_cancelled() -> None:
    # An AI SDK stream aborted while a tool ran (read as RUN_FINISHED with a cancelled outcome); and pydantic-ai's
    # claim "interrupted" for the calls open when its run was cancelled.
    chunks = [
        {"type": "start"},
        {"type": "tool-input-available", "toolCallId": "c1", "toolName": "search", "input": {"q": "x"}},
        {"type": "abort"},
    ]
    assert values(tool_calls_df(chunks)["status"]) == ["cancelled"]
    interrupted = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "search"},
        {"type": "TOOL_CALL_END", "toolCallId": "c1"},
        {"type": "TOOL_CALL_RESULT", "messageId": "m1", "toolCallId": "c1", "content": "Interrupted."},
        {"type": "REASONING_ENCRYPTED_VALUE", "subtype": "message", "entityId": "m1",
         "encryptedValue": '{"pydantic_ai": {"outcome": "interrupted"}}'},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "cancelled"}},
    ]  # fmt: skip
    calls = tool_calls_df(interrupted)
    assert values(calls["status"]) == ["cancelled"] and values(calls["error"]) == [None]


# ---------------------------------------------------------------------------------------------------------------
# The widget's badge and tool_calls_df agree on every status a call can end in.

_BADGE_STATUS = {
    "Done": "ok",
    "Error": "error",
    "Denied": "denied",
    "Cancelled": "cancelled",
    "Stopped": "cancelled",
    "Waiting for approval": "pending",
    "Running": "pending",
    "Preparing": "pending",
}
"""The status word a tool card's badge shows (widget/_static_html.py's ``_tool_state``, the live card's words)
and the ``tool_calls_df`` status that says the same."""


def _claimed(message_id: str, outcome: str) -> dict:
    claim = json.dumps({"pydantic_ai": {"outcome": outcome}})
    return {
        "type": "REASONING_ENCRYPTED_VALUE",
        "subtype": "message",
        "entityId": message_id,
        "encryptedValue": claim,
    }


class _EveryEnding:
    """A Python agent whose turns end tool calls every way: the user's text picks the turn. Results and claims
    are pydantic-ai's wire shapes (its AG-UI adapter's); after any resume it answers each call "cancelled", as
    agents commonly do for a call they were told not to run."""

    def __init__(self) -> None:
        import asyncio

        self.stopped = asyncio.Event()

    async def __call__(self, run_input):
        thread, run_id = run_input.thread_id, f"run-{len(run_input.messages)}"
        yield {"type": "RUN_STARTED", "threadId": thread, "runId": run_id}
        for entry in run_input.resume or ():
            call_id = entry.interrupt_id.removeprefix("int-")
            yield {"type": "TOOL_CALL_RESULT", "messageId": f"r-{call_id}", "toolCallId": call_id,
                   "content": "cancelled", "role": "tool"}  # fmt: skip
        prompt = run_input.messages[-1].content if run_input.messages[-1].role == "user" else ""

        def call(call_id: str, name: str) -> list[dict]:
            return [
                {"type": "TOOL_CALL_START", "toolCallId": call_id, "toolCallName": name},
                {"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": "{}"},
                {"type": "TOOL_CALL_END", "toolCallId": call_id},
            ]

        def result(call_id: str, content: str) -> dict:
            return {"type": "TOOL_CALL_RESULT", "messageId": f"r-{call_id}", "toolCallId": call_id,
                    "content": content, "role": "tool"}  # fmt: skip

        if prompt == "results":
            for event in [*call("c_ok", "get_time"), result("c_ok", "12:00"), *call("c_err", "flaky"),
                          result("c_err", "boom"), _claimed("r-c_err", "failed")]:  # fmt: skip
                yield event
        elif prompt == "sibling fails":
            closeout = "Tool execution was interrupted by an error."
            for event in [*call("c_search", "slow_search"), *call("c_lookup", "lookup_db"),
                          result("c_search", closeout), _claimed("r-c_search", "failed"),
                          result("c_lookup", closeout), _claimed("r-c_lookup", "failed")]:  # fmt: skip
                yield event
            yield {"type": "RUN_ERROR", "message": "Tool 'lookup_db' exceeded max retries count of 0."}
            return
        elif prompt.startswith("approve"):
            call_id = {"approve to deny": "c_deny", "approve, then move on": "c_moved", "approve": "c_wait"}[
                prompt
            ]
            for event in call(call_id, "delete_file"):
                yield event
            interrupt = {"id": f"int-{call_id}", "reason": "tool_call", "toolCallId": call_id}
            yield {"type": "RUN_FINISHED", "threadId": thread, "runId": run_id,
                   "outcome": {"type": "interrupt", "interrupts": [interrupt]}}  # fmt: skip
            return
        elif prompt == "run long":
            for event in call("c_stop", "slow_search"):
                yield event
            await self.stopped.wait()  # until the user stops the run
        yield {"type": "RUN_FINISHED", "threadId": thread, "runId": run_id}


def test_the_widgets_badge_and_tool_calls_df_agree_on_every_status(tmp_path) -> None:
    import asyncio

    from agui_notebook import Chat
    from agui_notebook.logs._columns import TOOL_STATUSES
    from agui_notebook.widget._static_html import _tool_state

    agent = _EveryEnding()
    chat = Chat(agent, store=tmp_path / "chat.jsonl")

    async def converse() -> None:
        assert await chat.send_message("results") == "success"
        assert await chat.send_message("sibling fails") == "error"
        assert await chat.send_message("approve to deny") == "interrupt"
        assert await chat.answer_approval("int-c_deny", False, reason="not that file") == "success"
        assert await chat.send_message("approve, then move on") == "interrupt"
        task = chat.send_message("run long")  # a new message cancels the open approval
        await asyncio.sleep(0.2)
        chat.stop()
        assert await task == "cancelled"
        assert await chat.send_message("approve") == "interrupt"  # left waiting

    asyncio.run(converse())
    badges = {
        part["toolCallId"]: _tool_state(part)
        for message in chat.messages
        for part in message["parts"]
        if part["type"].startswith("tool-")
    }
    assert badges == {
        "c_ok": "Done", "c_err": "Error", "c_search": "Cancelled", "c_lookup": "Error",
        "c_deny": "Denied: not that file", "c_moved": "Cancelled", "c_stop": "Stopped",
        "c_wait": "Waiting for approval",
    }  # fmt: skip
    calls = tool_calls_df(chat).set_index("tool_call_id")
    table = dict(calls["status"].astype(str))
    assert table == {call_id: _BADGE_STATUS[badge.split(":")[0]] for call_id, badge in badges.items()}
    assert set(table.values()) == set(TOOL_STATUSES)  # every status a call can end in
    assert calls.loc["c_search", "cause"] == "c_lookup"
    assert calls.loc["c_lookup", "error"] == "Tool 'lookup_db' exceeded max retries count of 0."
    assert calls.loc["c_deny", "result"] == "cancelled" and pd.isna(calls.loc["c_deny", "error"])
    # The chat's log read back from its file says the same.
    assert (
        dict(tool_calls_df(tmp_path / "chat.jsonl").set_index("tool_call_id")["status"].astype(str)) == table
    )


def test_a_result_before_its_end_is_measured_from_the_arguments_never_negative() -> None:
    """Langroid (ag-ui-langroid 0.2.0) sends START, ARGS, runs the tool, then RESULT and END: the END tells
    nothing of when the tool started; the arguments were complete at their last event before the result."""
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(100, "TOOL_CALL_START", toolCallId="c", toolCallName="lookup"),
        at(110, "TOOL_CALL_ARGS", toolCallId="c", delta='{"q": 1}'),
        at(600, "TOOL_CALL_RESULT", toolCallId="c", messageId="m", content="found"),
        at(610, "TOOL_CALL_END", toolCallId="c"),
        at(700, "RUN_FINISHED", threadId="t", runId="r"),
    ]
    calls = tool_calls_df(events)
    assert values(calls["args_end_at"]) == [ts(110)] and values(calls["result_at"]) == [ts(600)]
    assert calls["latency_s"].tolist() == pytest.approx([0.49])
    assert calls["args_s"].tolist() == pytest.approx([0.01]) and calls["total_s"].tolist() == pytest.approx(
        [0.5]
    )
    assert values(calls["status"]) == ["ok"] and values(calls["result"]) == ["found"]
    assert runs_df(events)["tool_time_s"].tolist() == pytest.approx([0.49])


def _snapshot(ms: int, *messages: dict) -> dict:
    return at(ms, "MESSAGES_SNAPSHOT", messages=list(messages))


USER = {"id": "u1", "role": "user", "content": "Weather in Paris?"}


def _asks(message_id: str, *calls: tuple[str, str, str]) -> dict:
    """An assistant message holding tool calls (id, name, arguments), as AG-UI snapshots carry them."""
    return {"id": message_id, "role": "assistant", "toolCalls": [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
        for call_id, name, arguments in calls
    ]}  # fmt: skip


def _answer(call_id: str, content: str, **fields: str) -> dict:
    return {"id": f"tool-{call_id}", "role": "tool", "toolCallId": call_id, "content": content, **fields}


def test_a_result_only_in_a_snapshot_is_the_calls_result_timed_when_the_snapshot_arrived() -> None:
    """LlamaIndex (llama-index-protocols-ag-ui 0.6.0) streams each call as one TOOL_CALL_CHUNK and its result
    only in the MESSAGES_SNAPSHOT sent once the tools ran; an AG-UI tool message's ``error`` makes it an error."""
    asks = _asks("a1", ("c1", "get_weather", '{"city": "Paris"}'), ("c2", "get_weather", '{"city": "Oz"}'))
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(100, "TOOL_CALL_CHUNK", toolCallId="c1", toolCallName="get_weather", delta='{"city": "Paris"}'),
        at(110, "TOOL_CALL_CHUNK", toolCallId="c2", toolCallName="get_weather", delta='{"city": "Oz"}'),
        _snapshot(120, USER, asks),  # the calls, no results yet
        _snapshot(900, USER, asks, _answer("c1", "sunny"), _answer("c2", "", error="no such city")),
        _snapshot(
            1500,
            USER,
            asks,
            _answer("c1", "sunny"),
            _answer("c2", "", error="no such city"),
            {"id": "a2", "role": "assistant", "content": "Sunny in Paris."},
        ),
        at(1600, "RUN_FINISHED", threadId="t", runId="r"),
    ]
    calls = tool_calls_df(events)
    assert values(calls["tool_call_id"]) == ["c1", "c2"]
    assert values(calls["status"]) == ["ok", "error"]
    assert values(calls["result"]) == ["sunny", ""] and values(calls["error"]) == [None, "no such city"]
    assert values(calls["result_at"]) == [ts(900), ts(900)]
    assert values(calls["result_source"]) == ["snapshot", "snapshot"]
    # A chunk is the call's whole arguments: they end with it.
    assert calls["latency_s"].tolist() == pytest.approx([0.8, 0.79])
    assert runs_df(events)["tool_time_s"].tolist() == pytest.approx([0.8])


def test_a_streamed_result_is_not_counted_again_from_a_snapshot() -> None:
    """LangGraph streams TOOL_CALL_RESULT, then repeats the call in its snapshot under another message id."""
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(100, "TOOL_CALL_START", toolCallId="c1", toolCallName="get_weather", parentMessageId="a1"),
        at(110, "TOOL_CALL_ARGS", toolCallId="c1", delta='{"city": "Paris"}'),
        at(120, "TOOL_CALL_END", toolCallId="c1"),
        at(500, "TOOL_CALL_RESULT", toolCallId="c1", messageId="m-result", content="sunny"),
        _snapshot(
            900,
            USER,
            _asks("a1-other", ("c1", "get_weather", '{"city": "Paris"}')),
            _answer("c1", "sunny, 20 C", error="late"),
        ),
        at(1000, "RUN_FINISHED", threadId="t", runId="r"),
    ]
    calls = tool_calls_df(events)
    assert len(calls) == 1 and values(calls["result_source"]) == ["event"]
    assert values(calls["result"]) == ["sunny"] and values(calls["status"]) == ["ok"]
    assert values(calls["result_at"]) == [ts(500)] and calls["latency_s"].tolist() == pytest.approx([0.38])
    assert runs_df(events)["tool_calls"].tolist() == [1]


def test_calls_only_in_snapshots_are_listed_once_without_a_start() -> None:
    """CrewAI and LlamaIndex put whole calls in snapshots: each is a row of the run whose snapshot first shows
    it, without a start (so without latency); the next run's snapshot repeating it adds nothing."""
    asks = _asks("a1", ("c9", "get_weather", '{"city": "Paris"}'))
    first = [USER, asks, _answer("c9", "sunny"), {"id": "a2", "role": "assistant", "content": "Sunny."}]
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r1"),
        _snapshot(700, *first),
        at(800, "RUN_FINISHED", threadId="t", runId="r1"),
        at(5_000, "RUN_STARTED", threadId="t", runId="r2"),
        _snapshot(
            5_400,
            *first,
            {"id": "u2", "role": "user", "content": "And Oslo?"},
            _asks("a3", ("c10", "get_weather", '{"city": "Oslo"')),
        ),
        at(5_500, "RUN_FINISHED", threadId="t", runId="r2"),
        at(6_000, "RUN_STARTED", threadId="t", runId="r3"),
        at(6_100, "RUN_ERROR", message="model overloaded"),
    ]
    calls = tool_calls_df(events)
    assert values(calls["tool_call_id"]) == ["c9", "c10"] and values(calls["run_id"]) == ["r1", "r2"]
    assert values(calls["tool_name"]) == ["get_weather", "get_weather"]
    assert values(calls["parent_message_id"]) == ["a1", "a3"]
    assert calls["args"].tolist() == [{"city": "Paris"}, None]
    assert calls["args_json_valid"].tolist() == [True, False] and calls["args_chars"].tolist() == [17, 15]
    assert values(calls["started_at"]) == [None, None] and values(calls["args_end_at"]) == [None, None]
    assert values(calls["result_at"]) == [ts(700), None]
    assert calls[["latency_s", "total_s", "args_s"]].isna().all().all()
    assert values(calls["status"]) == ["ok", "pending"] and values(calls["result"]) == ["sunny", None]
    assert values(calls["result_source"]) == ["snapshot", None]
    assert runs_df(events)["tool_calls"].tolist() == [1, 1, 0]


def test_snapshot_calls_keep_their_place_among_streamed_ones() -> None:
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(10, "TOOL_CALL_START", toolCallId="s1", toolCallName="search"),
        at(20, "TOOL_CALL_END", toolCallId="s1"),
        _snapshot(30, _asks("a", ("s1", "search", "{}"), ("n1", "note", "{}"))),
        at(40, "TOOL_CALL_START", toolCallId="s2", toolCallName="search"),
        at(50, "RUN_FINISHED", threadId="t", runId="r"),
    ]
    calls = tool_calls_df(events)
    assert values(calls["tool_call_id"]) == ["s1", "n1", "s2"]
    assert values(calls["tool_name"]) == ["search", "note", "search"]
    assert values(calls["started_at"]) == [ts(10), None, ts(40)]


def test_a_chats_log_reads_snapshot_results_and_the_results_it_sent(tmp_path) -> None:
    """A chat's log: a result only in a snapshot counts as the call's; a frontend tool's result the chat sent is
    the call's, however often the agent's later snapshots repeat it (LangGraph's frontend tools)."""
    import asyncio

    from agui_notebook import Chat
    from tests.chat.test_frontend_tools import get_time

    async def agent(run_input):
        ids = {"threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "RUN_STARTED", **ids}
        history = [m.model_dump(by_alias=True, exclude_none=True) for m in run_input.messages]
        if run_input.messages[-1].role == "tool":  # the chat ran get_time and sent its result
            yield {"type": "MESSAGES_SNAPSHOT", "messages": [
                *history, {"id": "a-done", "role": "assistant", "content": "It is noon."}]}  # fmt: skip
        elif len(history) == 1:  # a backend tool whose result comes only in the snapshot
            yield {"type": "TOOL_CALL_CHUNK", "toolCallId": "c_back", "toolCallName": "lookup", "delta": "{}"}
            yield {"type": "MESSAGES_SNAPSHOT", "messages": [
                *history, _asks("a-back", ("c_back", "lookup", "{}")), _answer("c_back", "found")]}  # fmt: skip
        else:  # the frontend tool
            yield {"type": "TOOL_CALL_START", "toolCallId": "c_front", "toolCallName": "get_time"}
            yield {"type": "TOOL_CALL_ARGS", "toolCallId": "c_front", "delta": '{"tz": "UTC"}'}
            yield {"type": "TOOL_CALL_END", "toolCallId": "c_front"}
        yield {"type": "RUN_FINISHED", **ids}

    chat = Chat(agent, tools=[get_time], store=tmp_path / "chat.jsonl")

    async def converse() -> None:
        assert await chat.send_message("look it up") == "success"
        assert await chat.send_message("what time is it?") == "success"

    asyncio.run(converse())
    for source in (chat, tmp_path / "chat.jsonl"):
        calls = tool_calls_df(source)
        assert values(calls["tool_call_id"]) == ["c_back", "c_front"]
        assert values(calls["status"]) == ["ok", "ok"]
        assert values(calls["result"]) == ["found", '{"tz":"UTC","time":"12:00"}']
        assert values(calls["result_source"]) == ["snapshot", "run_input"]
        events = load_events(source)
        snapshots = events.query("type == 'MESSAGES_SNAPSHOT'")["time"].tolist()
        follow_up = events.query("type == 'RUN_STARTED'")["time"].iloc[-1]
        assert values(calls["result_at"]) == [snapshots[0], follow_up]
        assert (calls["latency_s"] >= 0).all() and calls["latency_s"].notna().all()
        assert runs_df(source)["tool_calls"].tolist() == [1, 1, 0]


def test_the_llamaindex_captures_results_come_from_its_snapshots() -> None:
    """tests/fixtures/producers/llamaindex: the real integration's stream, results only in MESSAGES_SNAPSHOT."""
    path = CAPTURES.parent / "producers" / "llamaindex" / "parallel_tools.jsonl"
    calls = tool_calls_df(path)
    assert values(calls["status"]) == ["ok", "ok"]
    assert values(calls["result_source"]) == ["snapshot", "snapshot"]
    assert values(calls["result"]) == ["sunny, 21 degrees in Paris", "sunny, 21 degrees in Lyon"]
    assert (calls["latency_s"] >= 0).all() and calls["latency_s"].notna().all()
    # Its `timestamp`s are whole epoch seconds: read within a second of the receive times, not in 1970.
    events = load_events(path)
    stamped = events.dropna(subset=["timestamp"])
    assert len(stamped) > 0
    assert ((stamped["time"] - stamped["timestamp"]).abs() < pd.Timedelta(seconds=2)).all()
