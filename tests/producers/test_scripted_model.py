"""The scripted OpenAI-compatible model the producer captures are driven by: what an OpenAI client receives."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.support.scripted_model import ERROR_MESSAGE, SCENARIOS, ScriptedModel

QUESTION = {"role": "user", "content": "What's the weather in Paris?"}
WEATHER = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
BACKGROUND = {"type": "function", "function": {"name": "change_background", "parameters": {"type": "object"}}}


def post(model: ScriptedModel, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{model.base_url}/chat/completions", json={"model": "scripted", **body}, timeout=30)


def chunks(response: httpx.Response) -> list[dict[str, Any]]:
    """The SSE data of a streamed answer, checking it ends with [DONE]."""
    data = [line[len("data: ") :] for line in response.text.splitlines() if line.startswith("data: ")]
    assert data[-1] == "[DONE]"
    return [json.loads(item) for item in data[:-1]]


def deltas(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [item["choices"][0]["delta"] for item in items if item["choices"]]


def test_streamed_text_comes_in_several_deltas_with_usage_last() -> None:
    with ScriptedModel("text") as model:
        response = post(
            model, {"messages": [QUESTION], "stream": True, "stream_options": {"include_usage": True}}
        )
        assert response.status_code == 200
        assert response.headers["content-type"] == "text/event-stream"
        items = chunks(response)
        assert model.requests[0]["messages"] == [QUESTION]
    texts = [d["content"] for d in deltas(items) if d.get("content")]
    assert texts == ["It is ", "sunny ", "in Paris ", "today."]
    assert items[-2]["choices"][0]["finish_reason"] == "stop"
    assert items[-1]["choices"] == []
    assert items[-1]["usage"] == {"prompt_tokens": 10, "completion_tokens": 4, "total_tokens": 14}


def test_no_usage_chunk_unless_asked() -> None:
    with ScriptedModel("text") as model:
        items = chunks(post(model, {"messages": [QUESTION], "stream": True}))
    assert all(item["choices"] for item in items)
    assert all("usage" not in item for item in items)


def test_a_streamed_tool_call_has_its_arguments_in_pieces() -> None:
    with ScriptedModel("tool") as model:
        items = chunks(post(model, {"messages": [QUESTION], "tools": [WEATHER], "stream": True}))
    calls = [call for d in deltas(items) for call in d.get("tool_calls", [])]
    assert calls[0] == {
        "index": 0,
        "id": "call_paris_0",
        "type": "function",
        "function": {"name": "get_weather", "arguments": ""},
    }
    pieces = [call["function"]["arguments"] for call in calls[1:]]
    assert len(pieces) == 2
    assert json.loads("".join(pieces)) == {"city": "Paris"}
    assert items[-1]["choices"][0]["finish_reason"] == "tool_calls"


def test_parallel_calls_and_the_answer_to_their_results() -> None:
    with ScriptedModel("parallel_tools") as model:
        first = post(model, {"messages": [QUESTION], "tools": [WEATHER]}).json()
        calls = first["choices"][0]["message"]["tool_calls"]
        assert [(c["id"], c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls] == [
            ("call_paris_0", "get_weather", {"city": "Paris"}),
            ("call_lyon_0", "get_weather", {"city": "Lyon"}),
        ]
        results = [
            {"role": "tool", "tool_call_id": "call_paris_0", "content": "sunny"},
            {"role": "tool", "tool_call_id": "call_lyon_0", "content": "rainy"},
        ]
        history = [QUESTION, first["choices"][0]["message"], *results]
        second = post(model, {"messages": history, "tools": [WEATHER]}).json()
    assert second["choices"][0]["message"]["content"] == "According to the tool: sunny; rainy."
    assert second["usage"] == {"prompt_tokens": 40, "completion_tokens": 3, "total_tokens": 43}


def test_a_result_sent_as_a_user_message_with_its_call_id_is_answered() -> None:
    # LlamaIndex's AG-UI workflow hands a client tool's result to the model this way
    result = {"role": "user", "tool_call_id": "call_background_0", "content": "background changed to blue"}
    with ScriptedModel("frontend_tool") as model:
        answer = post(model, {"messages": [QUESTION, result], "tools": [BACKGROUND]}).json()
    assert answer["choices"][0]["message"]["content"] == "According to the tool: background changed to blue."


def test_a_frontend_tool_is_called_only_when_the_request_declares_it() -> None:
    with ScriptedModel("frontend_tool") as model:
        declared = post(model, {"messages": [QUESTION], "tools": [WEATHER, BACKGROUND]}).json()
        missing = post(model, {"messages": [QUESTION], "tools": [WEATHER]}).json()
    call = declared["choices"][0]["message"]["tool_calls"][0]["function"]
    assert (call["name"], json.loads(call["arguments"])) == ("change_background", {"background": "blue"})
    assert missing["choices"][0]["message"] == {
        "role": "assistant",
        "content": "No change_background tool was offered to me.",
    }


def test_reasoning_content_comes_before_the_text() -> None:
    with ScriptedModel("reasoning") as model:
        items = chunks(post(model, {"messages": [QUESTION], "stream": True}))
    kinds = [next(iter(d)) for d in deltas(items)[1:-1]]
    assert kinds == ["reasoning_content"] * 3 + ["content"] * 4


def test_http_500_answers_an_openai_error_body() -> None:
    with ScriptedModel("http_500") as model:
        response = post(model, {"messages": [QUESTION], "stream": True})
        assert len(model.requests) == 1
    assert response.status_code == 500
    assert response.json()["error"]["message"] == ERROR_MESSAGE


def test_models_list_and_unknown_scenario() -> None:
    with ScriptedModel("text") as model:
        listed = httpx.get(f"{model.base_url}/models", timeout=30).json()
    assert [item["id"] for item in listed["data"]] == ["scripted"]
    assert "reasoning" in SCENARIOS
    with pytest.raises(ValueError, match="unknown scenario"):
        ScriptedModel("nope")
