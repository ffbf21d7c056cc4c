"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for driving agent frameworks offline.

    with ScriptedModel("tool") as model:
        model.base_url   # "http://127.0.0.1:<port>/v1": give it to the framework's OpenAI client
        model.requests   # the JSON bodies of every POST /v1/chat/completions received, in order

It serves ``POST /v1/chat/completions`` (``stream: true`` -> SSE chunks ending ``data: [DONE]``, with the usage in
a last chunk when ``stream_options.include_usage`` asks for it; ``stream: false`` -> one JSON completion) and
``GET /v1/models``. What it answers depends only on the request, never on how many calls came before, so a
framework's extra calls (titles, retries, planning) do not derail the script:

- the last message is a tool result (role ``tool``, or any message with a ``tool_call_id``): a text answer that
  quotes the tool outputs;
- otherwise, by scenario (:data:`SCENARIOS`):
  ``text`` streamed text in several deltas; ``tool`` one ``get_weather {"city": "Paris"}`` call with its
  arguments streamed in pieces; ``parallel_tools`` two calls in one response (Paris, Lyon); ``failing_tool`` the
  same call as ``tool`` (the agent's tool is the one that raises); ``http_500`` HTTP 500 with an OpenAI error
  body; ``frontend_tool`` a call to ``change_background``, which only the client declares, so it is called only
  when the framework forwarded it (otherwise a text answer says it was missing); ``reasoning``
  ``reasoning_content`` deltas (as vLLM and DeepSeek send) before the text.

A city named in the last user message (Paris or Lyon) replaces Paris, so a second turn "And in Lyon?" asks for
Lyon. Tool names come from the request's ``tools`` where they differ (a framework that prefixes names). It runs on
the standard library alone, so it works in every framework's virtual environment.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SCENARIOS: tuple[str, ...] = (
    "text",
    "tool",
    "parallel_tools",
    "failing_tool",
    "http_500",
    "frontend_tool",
    "reasoning",
)

MODEL_ID = "scripted"
CREATED = 1_767_225_600  # a fixed time (2026-01-01) so captures do not change from one recording to the next
TEXT_DELTAS: tuple[str, ...] = ("It is ", "sunny ", "in Paris ", "today.")
REASONING_DELTAS: tuple[str, ...] = ("The user asks ", "about Paris; ", "no tool is needed.")
ERROR_MESSAGE = "The scripted model failed on purpose (scenario http_500)."
FRONTEND_TOOL = "change_background"
FRONTEND_ARGUMENTS: dict[str, Any] = {"background": "blue"}
WEATHER_TOOL = "get_weather"
CITIES: tuple[str, ...] = ("Paris", "Lyon")


def _text_of(content: Any) -> str:
    """A message's content as text (a string, or OpenAI content parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def _declared_tools(body: dict[str, Any]) -> list[str]:
    names = []
    for tool in body.get("tools") or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            names.append(function["name"])
    return names


def _tool_name(body: dict[str, Any], wanted: str, *, fallback: bool) -> str | None:
    """The declared tool named ``wanted`` (or one whose name contains it); else the first one when ``fallback``."""
    declared = _declared_tools(body)
    for name in declared:
        if name == wanted:
            return name
    for name in declared:
        if wanted.lower() in name.lower():
            return name
    return declared[0] if fallback and declared else None


def _cities(body: dict[str, Any]) -> list[str]:
    """The cities the last user message names, in the order of :data:`CITIES`; Paris when none."""
    users = [m for m in body.get("messages") or [] if isinstance(m, dict) and m.get("role") == "user"]
    question = _text_of(users[-1].get("content")) if users else ""
    named = [city for city in CITIES if city.lower() in question.lower()]
    return named or ["Paris"]


def _is_tool_result(message: dict[str, Any]) -> bool:
    """A tool's result: role ``tool``, or any message naming its call (LlamaIndex sends a client tool's result
    to the model as a user message with ``tool_call_id``)."""
    return message.get("role") == "tool" or bool(message.get("tool_call_id"))


class _Reply:
    """One scripted answer: text deltas, reasoning deltas and tool calls (name, argument pieces)."""

    def __init__(self) -> None:
        self.reasoning: list[str] = []
        self.text: list[str] = []
        self.calls: list[tuple[str, str, list[str]]] = []  # (id, name, argument pieces)

    def call(self, call_id: str, name: str, arguments: dict[str, Any]) -> None:
        encoded = json.dumps(arguments)
        middle = len(encoded) // 2
        self.calls.append((call_id, name, [encoded[:middle], encoded[middle:]]))


def script(scenario: str, body: dict[str, Any]) -> _Reply | None:
    """What the model answers ``body`` in ``scenario``; ``None`` means HTTP 500."""
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    reply = _Reply()
    if messages and _is_tool_result(messages[-1]):
        outputs = []
        for message in reversed(messages):
            if not _is_tool_result(message):
                break
            outputs.insert(0, _text_of(message.get("content")))
        reply.text = ["According to the tool: ", "; ".join(outputs), "."]
        return reply
    if scenario == "http_500":
        return None
    turn = sum(1 for m in messages if m.get("role") == "assistant")  # distinct call ids in every turn
    if scenario in ("tool", "failing_tool", "parallel_tools"):
        name = _tool_name(body, WEATHER_TOOL, fallback=True)
        if name is None:
            reply.text = ["No tool was offered to me."]
            return reply
        cities = ["Paris", "Lyon"] if scenario == "parallel_tools" else _cities(body)[:1]
        for city in cities:
            reply.call(f"call_{city.lower()}_{turn}", name, {"city": city})
        return reply
    if scenario == "frontend_tool":
        name = _tool_name(body, FRONTEND_TOOL, fallback=False)
        if name is None:
            reply.text = [f"No {FRONTEND_TOOL} tool was offered to me."]
            return reply
        reply.call(f"call_background_{turn}", name, FRONTEND_ARGUMENTS)
        return reply
    if scenario == "reasoning":
        reply.reasoning = list(REASONING_DELTAS)
    reply.text = list(TEXT_DELTAS)
    return reply


def _usage(body: dict[str, Any], reply: _Reply) -> dict[str, Any]:
    prompt = 10 * len(body.get("messages") or [])
    reasoning = len(reply.reasoning)
    completion = len(reply.text) + reasoning + sum(len(pieces) + 1 for _, _, pieces in reply.calls)
    usage: dict[str, Any] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }
    if reasoning:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning}
    return usage


def _chunk(
    completion_id: str, model: str, delta: dict[str, Any], finish: str | None = None
) -> dict[str, Any]:
    return {
        "id": completion_id,
        "object": "chat.completion.chunk",
        "created": CREATED,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
    }


def stream_chunks(body: dict[str, Any], reply: _Reply, completion_id: str) -> Iterator[dict[str, Any]]:
    """The chat.completion.chunk objects of ``reply``, usage last when the request asks for it."""
    model = body.get("model") or MODEL_ID
    # OpenAI opens a text answer with an empty content and a tool-call answer with none
    yield _chunk(completion_id, model, {"role": "assistant", "content": "" if reply.text else None})
    for delta in reply.reasoning:
        yield _chunk(completion_id, model, {"reasoning_content": delta})
    for delta in reply.text:
        yield _chunk(completion_id, model, {"content": delta})
    for index, (call_id, name, pieces) in enumerate(reply.calls):
        start = {
            "index": index,
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }
        yield _chunk(completion_id, model, {"tool_calls": [start]})
        for piece in pieces:
            yield _chunk(
                completion_id, model, {"tool_calls": [{"index": index, "function": {"arguments": piece}}]}
            )
    yield _chunk(completion_id, model, {}, "tool_calls" if reply.calls else "stop")
    if (body.get("stream_options") or {}).get("include_usage"):
        yield {
            "id": completion_id,
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": model,
            "choices": [],
            "usage": _usage(body, reply),
        }


def completion(body: dict[str, Any], reply: _Reply, completion_id: str) -> dict[str, Any]:
    """The whole chat.completion object of ``reply`` (``stream: false``)."""
    message: dict[str, Any] = {"role": "assistant", "content": "".join(reply.text) or None}
    if reply.reasoning:
        message["reasoning_content"] = "".join(reply.reasoning)
    if reply.calls:
        message["tool_calls"] = [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": "".join(pieces)}}
            for call_id, name, pieces in reply.calls
        ]
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": CREATED,
        "model": body.get("model") or MODEL_ID,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if reply.calls else "stop",
                "logprobs": None,
            }
        ],
        "usage": _usage(body, reply),
    }


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive and chunked streaming, as OpenAI clients expect
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # a test's output stays quiet
        pass

    def _send_json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            model = {"id": MODEL_ID, "object": "model", "created": CREATED, "owned_by": "agui-notebook"}
            self._send_json(200, {"object": "list", "data": [model]})
        else:
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        body = json.loads(raw or b"{}")
        number = self.server.received(body)
        reply = script(self.server.scenario, body)
        if reply is None:
            error = {
                "message": ERROR_MESSAGE,
                "type": "server_error",
                "param": None,
                "code": "internal_error",
            }
            self._send_json(500, {"error": error})
            return
        completion_id = f"chatcmpl-scripted-{number}"
        if not body.get("stream"):
            self._send_json(200, completion(body, reply, completion_id))
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for chunk in stream_chunks(body, reply, completion_id):
            self._write_chunk(f"data: {json.dumps(chunk)}\n\n".encode())
        self._write_chunk(b"data: [DONE]\n\n")
        self._write_chunk(b"")

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, scenario: str) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.scenario = scenario
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def received(self, body: dict[str, Any]) -> int:
        """Keep ``body``; its 1-based number among the requests."""
        with self._lock:
            self.requests.append(body)
            return len(self.requests)


class ScriptedModel:
    """A scripted OpenAI-compatible server for one scenario, on a free port of 127.0.0.1 while the block runs.

    >>> import json, urllib.request
    >>> with ScriptedModel("text") as model:
    ...     request = urllib.request.Request(
    ...         model.base_url + "/chat/completions",
    ...         data=json.dumps({"model": "scripted", "messages": [{"role": "user", "content": "hi"}]}).encode(),
    ...         headers={"Content-Type": "application/json"},
    ...     )
    ...     answer = json.load(urllib.request.urlopen(request))
    >>> answer["choices"][0]["message"]["content"], len(model.requests)
    ('It is sunny in Paris today.', 1)
    """

    def __init__(self, scenario: str) -> None:
        if scenario not in SCENARIOS:
            raise ValueError(f"unknown scenario {scenario!r}; one of {', '.join(SCENARIOS)}")
        self.scenario = scenario
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``, what an OpenAI client takes as its base URL."""
        return f"http://127.0.0.1:{self._running().server_address[1]}/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        """The JSON bodies of the chat-completion requests received so far, in order."""
        return self._running().requests

    def _running(self) -> _Server:
        if self._server is None:
            raise RuntimeError("the scripted model is not running: use it in a `with` block")
        return self._server

    def __enter__(self) -> ScriptedModel:
        self._server = _Server(self.scenario)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        server, thread = self._server, self._thread
        if server is not None:
            server.shutdown()
            server.server_close()
        if thread is not None:
            thread.join(timeout=10)
