"""A chat's actions, called with hostile arguments in any order, raise only the package's errors and never wedge
the chat: after any sequence of them, a question sent gets its answer, and the log opens again as it was.

The arguments are the hostile values of ``tests/support/hostile.py`` (huge ints, lone surrogates, deep nesting,
values of the wrong type) mixed with the chat's own good values (the ids and places of its messages, its thread
ids), so that calls get past the first checks and into the chat's state.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agui_notebook import (
    AgentError,
    AguiNotebookError,
    Chat,
    ChatLogError,
    ChatStateError,
    InputTypeError,
    MessageIndexError,
    MessageNotFoundError,
    OptionError,
)
from agui_notebook.chat._listeners import ChatListener
from tests.support.hostile import HUGE_INT, VALUES


async def echo(run_input: Any) -> Any:
    """An agent that answers at once with what was asked (text the chat streams as an assistant message)."""
    last = run_input.messages[-1].content if run_input.messages else ""
    yield f"you said: {last if isinstance(last, str) else '…'}"


ACTIONS = {
    name: member
    for name, member in inspect.getmembers(Chat)
    if not name.startswith("_") and callable(member) and not isinstance(member, property)
}
"""Every public method of Chat, classmethods included."""

LEFT_OUT = {"close": "ends the chat: the check after the sequence needs it open"}


def good_values(chat: Chat) -> list[Any]:
    """Arguments that name real things of the chat: its message ids and places, threads, a tool's approval id."""
    ids = [m["id"] for m in chat.messages]
    files = [
        [(b"\x89PNG", "image/png")],
        [("a.txt", b"hi", 5)],
        [(b"x", None)],
        [{"url": 1, "mediaType": "x"}],
    ]
    return [
        *ids,
        *range(len(ids) + 1),
        *(t["id"] for t in chat.threads),
        "up",
        "down",
        "hello",
        True,
        False,
        *files,
    ]


ARGUMENT = st.one_of(
    VALUES,
    st.sampled_from([None, "", 0, -1, HUGE_INT, 1.5, float("nan"), b"\xff", object(), [], {}, (1, 2)]),
    st.just(lambda *args, **kwargs: None),
)


@st.composite
def calls(draw: st.DrawFn, chat: Chat) -> tuple[str, list[Any], dict[str, Any]]:
    name = draw(st.sampled_from(sorted(set(ACTIONS) - set(LEFT_OUT))))
    good = st.sampled_from(good_values(chat))
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for parameter in list(inspect.signature(getattr(chat, name)).parameters.values()):
        if parameter.kind is parameter.VAR_KEYWORD:
            if draw(st.booleans()):
                kwargs[draw(st.sampled_from(["speed", "colour", "store"]))] = draw(ARGUMENT)
            continue
        value = draw(st.one_of(good, good, ARGUMENT))
        if parameter.kind is parameter.KEYWORD_ONLY:
            if draw(st.booleans()):
                kwargs[parameter.name] = value
        elif parameter.default is parameter.empty or draw(st.booleans()):
            args.append(value)
    return name, args, kwargs


async def _settled(result: Any) -> None:
    """Wait for what an action started: a run's task ends (well inside the bound: the agent answers at once)."""
    if isinstance(result, asyncio.Task):
        await asyncio.wait_for(asyncio.shield(result), timeout=10)


@pytest.mark.parametrize("store", ["memory", "file"])
def test_hostile_actions_raise_only_the_family_and_the_chat_goes_on(
    store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = Path(tempfile.mkdtemp(prefix="agui-chat-hostile-"))
    monkeypatch.chdir(folder)  # save("hello") and its kin write where they are told: here, not in the project
    made = iter(range(10_000))
    outcomes = {"done": 0, "refused": 0}

    @settings(
        max_examples=int(os.environ.get("HOSTILE_EXAMPLES", 60)),
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=os.environ.get("HOSTILE_EXAMPLES") is None,
    )
    @given(st.data())
    def check(data: st.DataObject) -> None:
        async def scenario() -> None:
            log = folder / f"chat-{next(made)}.jsonl" if store == "file" else None
            chat = Chat(echo, store=log)
            await chat.send_message("first question")
            for _ in range(data.draw(st.integers(1, 6), label="length")):
                name, args, kwargs = data.draw(calls(chat), label="call")
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # the package's warnings are not errors
                    try:
                        await _settled(getattr(chat, name)(*args, **kwargs))
                        outcomes["done"] += 1
                    except AguiNotebookError:
                        outcomes["refused"] += 1
                if chat.read_only:
                    return  # load() of this chat's own log in a second chat: the second one holds nothing here
            chat.stop()
            await _settled(chat.task)
            chat.configure(
                agent=echo
            )  # configure(agent=...) is one of the actions: the check needs the echo back
            before = len(chat.messages)
            await chat.send_message("still there?")
            assert chat.status == "ready", chat.error
            assert chat.messages[-1]["role"] == "assistant" and len(chat.messages) == before + 2
            if log is not None:
                shown = chat.messages
                chat.close()
                again = Chat(echo, store=log)
                assert again.messages == shown
                again.close()
            else:
                chat.close()

        asyncio.run(scenario())

    check()
    # The mix of good and hostile values gets calls through as well as refused: both paths were walked.
    assert outcomes["done"] >= 10 and outcomes["refused"] >= 10, outcomes


def test_the_errors_say_what_is_wrong(tmp_path: Path) -> None:
    async def scenario() -> None:
        chat = Chat(echo, store=None)
        with pytest.raises(MessageIndexError, match="no message 0 in the conversation"):
            chat.regenerate_at(0)
        await chat.send_message("hi")
        with pytest.raises(MessageNotFoundError, match="nope"):
            chat.feedback("nope", "up")
        with pytest.raises(OptionError, match="rating must be 'up', 'down' or None"):
            chat.feedback(chat.messages[-1]["id"], "sideways")
        with pytest.raises(InputTypeError, match="comment must be a string"):
            chat.feedback(chat.messages[-1]["id"], "up", comment=5)
        with pytest.raises(MessageIndexError, match="branch 3 does not exist"):
            chat.select_at(1, 3)
        slow = asyncio.Event()

        async def waiting(run_input: Any) -> Any:
            await slow.wait()
            yield "done"

        chat.configure(agent=waiting)
        task = chat.send_message("again")
        with pytest.raises(ChatStateError):
            chat.send_message("while it answers")
        chat.stop()
        assert (await task) == "cancelled"
        with pytest.raises(ChatLogError, match="not a saved ChatWidget conversation"):
            (tmp_path / "not-saved.json").write_text("{}")
            Chat.load(tmp_path / "not-saved.json")
        with pytest.raises(InputTypeError, match="a ChatListener"):
            chat.subscribe(5)  # type: ignore[arg-type]
        chat.close()

    asyncio.run(scenario())


def test_arguments_a_chat_refuses_at_once(tmp_path: Path) -> None:
    with pytest.raises(AgentError, match="cannot run 'int'"):
        Chat(5, store=None)
    with pytest.raises(InputTypeError, match="messages must be a list of messages, not int"):
        Chat(messages=5, store=None)
    with pytest.raises(InputTypeError, match=r"messages\[0\] must be a message"):
        Chat(messages=["hi"], store=None)
    with pytest.raises(AguiNotebookError, match="parts"):
        Chat(messages=[{"id": "m", "role": "user", "parts": 5}], store=None)
    with pytest.raises(OptionError, match=r"tools\[0\] is not an AG-UI tool declaration: description"):
        Chat(tools=[{"name": "t"}], store=None)
    with pytest.raises(InputTypeError, match="store must be a path"):
        Chat(store=5)
    with pytest.raises(OptionError, match="store must name a file"):
        Chat(store="\ud83d")
    with pytest.raises(OptionError, match="max_follow_ups must be at least 0"):
        Chat(max_follow_ups=-1, store=None)
    with pytest.raises(InputTypeError, match="raise_errors must be True or False, not str"):
        Chat(raise_errors="yes", store=None)
    with pytest.raises(InputTypeError, match="message_type must be a UIMessage model class"):
        Chat(message_type=dict, store=None)


def test_a_view_that_is_not_a_listener_is_refused() -> None:
    chat = Chat(store=None)
    chat.subscribe(ChatListener())
    with pytest.raises(InputTypeError):
        chat.subscribe(object())  # type: ignore[arg-type]
    chat.close()
