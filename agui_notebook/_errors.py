"""Every exception and warning the package raises, in one family.

Catch :class:`AguiNotebookError` to catch them all; each also keeps the builtin a caller would reach for
(``ValueError`` for input that cannot be read, ``TypeError`` for a value of the wrong kind)::

    AguiNotebookError
    ├── SourceError                (OSError)      a file of events that cannot be read: unreadable, shrinking
    │   ├── SourceNotFoundError    (FileNotFoundError) a path naming no file: missing, a symlink loop, an empty glob
    │   └── SourceFolderError      (IsADirectoryError) a folder where a file is read (load_events reads folders)
    ├── InputTypeError             (TypeError)    a value of a kind no reader takes (None, a number): what it got
    ├── EventParseError            (ValueError)   input that is not a readable AG-UI event: source, line, index
    ├── ChunkExpansionError        (ValueError)   a *_CHUNK event that cannot be expanded
    ├── ChunkDecodeError           (ValueError)   input that is not an AI SDK chunk: source, line, index
    ├── ProtocolError              (ValueError)   events that break the AG-UI protocol (strict replay)
    ├── JsonPatchError             (ValueError)   a JSON Patch operation that is malformed or does not apply
    ├── UIMessageStreamError       (ValueError)   a malformed AI SDK UI message stream: chunk index and type
    ├── UIMessageStreamErrorChunk                 an ``error`` chunk the producer sent (given to ``on_error``)
    ├── MessageValidationError     (ValueError)   messages that are not valid or cannot be converted: the path
    │   └── UIMessageValidationError              UIMessages that are not valid: the path of the bad value
    ├── JsonValueError             (TypeError)    a value with no JSON form: where it is and its JSON path
    ├── RunStreamError             (ValueError)   a stream item a conversation cannot take: its index
    ├── AgentError                 (TypeError)    an agent the widget cannot run, or one that broke its contract
    ├── ChatStateError             (RuntimeError) a chat action that cannot be taken now (busy, no event loop, ...)
    ├── MessageNotFoundError       (KeyError)     an id that names no message, approval or interrupt of the chat
    ├── MessageIndexError          (IndexError)   a message place or branch number the conversation does not have
    ├── ChatLogError               (ValueError)   a chat log or saved conversation that cannot be read: file, line
    ├── AgentRunError              (RuntimeError) the agent reported that its run failed (RUN_ERROR, error chunk)
    ├── ToolLoopError              (RuntimeError) an agent still calling frontend tools after the follow-up limit
    ├── ContextError               (RuntimeError) a computed context value whose callable raised: which entry
    ├── HttpAgentError             (RuntimeError) an AG-UI server that answered with an error or a bad stream
    ├── PatchError                                a live patch the widget front end could not apply
    ├── RendererOutputError        (ValueError)   a renderer's output a part cannot show (too large)
    ├── InterruptPayloadError      (ValueError)   an interrupt answer its responseSchema refuses: the field
    ├── SeekError                  (IndexError)   an event position a run does not have (Inspector.seek)
    ├── WorkerError                (RuntimeError) a logs worker process (workers=) that stopped: files unread
    ├── ScorerError                (RuntimeError) a scorer (or judge) that raised or gave a value of the wrong kind
    ├── OptionalDependencyError    (ImportError)  an optional dependency a function needs: what to pip install
    └── OptionError                (ValueError)   an argument value a function does not take

    AguiNotebookWarning            (UserWarning)
    ├── EventLogWarning                           logs: input skipped, odd values read as missing, runs left out
    ├── ForkInputWarning                          a fork whose run input holds no user message
    └── StateUpdateWarning                        a STATE_DELTA that did not apply; the old state is kept

>>> from agui_notebook import AguiNotebookError, EventParseError, iter_wire_events
>>> try:
...     list(iter_wire_events("{oops}\\n"))
... except AguiNotebookError as error:
...     print(type(error).__name__, isinstance(error, ValueError), error.line)
EventParseError True 1
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from agui_notebook._shown import shown

if TYPE_CHECKING:
    from agui_notebook.agui._problem import Problem

__all__ = [
    "AgentError",
    "AgentRunError",
    "AguiNotebookError",
    "AguiNotebookWarning",
    "ChatLogError",
    "ChatStateError",
    "ChunkDecodeError",
    "ChunkExpansionError",
    "ContextError",
    "EventLogWarning",
    "EventParseError",
    "ForkInputWarning",
    "HttpAgentError",
    "InputTypeError",
    "InterruptPayloadError",
    "JsonPatchError",
    "JsonValueError",
    "MessageIndexError",
    "MessageNotFoundError",
    "MessageValidationError",
    "OptionError",
    "OptionalDependencyError",
    "PatchError",
    "ProtocolError",
    "RendererOutputError",
    "RunStreamError",
    "ScorerError",
    "SeekError",
    "SourceError",
    "SourceFolderError",
    "SourceNotFoundError",
    "StateUpdateWarning",
    "ToolLoopError",
    "UIMessageStreamError",
    "UIMessageStreamErrorChunk",
    "UIMessageValidationError",
    "WorkerError",
]


class AguiNotebookError(Exception):
    """The base of every exception agui-notebook raises.

    Every one pickles with its attributes (a worker process of ``workers=`` sends its errors back pickled; the
    keyword-only constructors would not rebuild from ``args`` alone).
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuilt, (type(self), self.args, self.__dict__))


def _rebuilt(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> BaseException:
    """An exception of ``cls`` with ``args`` and the attributes ``state``, without running its constructor."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class AguiNotebookWarning(UserWarning):
    """The base of every warning agui-notebook issues."""


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn(message: str, category: type[Warning] = AguiNotebookWarning) -> None:
    """``warnings.warn`` pointed at the user's line: the first caller outside this package (its checking
    wrappers and helpers are skipped), however deep in the package the warning was found.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn("careful", EventLogWarning)
    >>> caught[0].filename == __file__ or caught[0].filename.startswith("<doctest")
    True
    """
    frame = sys._getframe(1)
    level = 2
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)


# -- reading -----------------------------------------------------------------------------------------------------


class SourceError(AguiNotebookError, OSError):
    """A file of events that cannot be read: one the process may not read, one that got shorter while it was
    read. ``path`` is the file (the message names it too)."""

    def __init__(self, message: str, *, path: str) -> None:
        super().__init__(message)
        self.path = path


class SourceNotFoundError(SourceError, FileNotFoundError):
    """A path that names no file: missing (and not JSON, JSONL or SSE text either), a symbolic link to nothing
    (a loop, a missing target), a glob that matches nothing, a folder without logs."""


class SourceFolderError(SourceError, IsADirectoryError):
    """A folder given where a file of events is read (``parse_events``, ``iter_ui_chunks``; ``load_events`` and
    the tables read a folder's logs)."""


class InputTypeError(AguiNotebookError, TypeError):
    """A value of a kind no reader takes, where a source (a path, text, events) or an event is expected: ``None``,
    a number. The message says what was expected and what came."""


class EventParseError(AguiNotebookError, ValueError):
    """Input that is not a readable AG-UI event; the message starts with where it is.

    ``source`` is the file path or ``"<text>"``/``"<events>"``, ``line`` the 1-based line (when known) and
    ``index`` the 0-based position of the event in the input.
    """

    def __init__(self, message: str, *, source: str, line: int | None, index: int | None) -> None:
        super().__init__(message)
        self.source = source
        self.line = line
        self.index = index


class ChunkExpansionError(AguiNotebookError, ValueError):
    """A ``*_CHUNK`` event that cannot be expanded (no id on a first chunk, a conflicting repeat, ...)."""


class ChunkDecodeError(AguiNotebookError, ValueError):
    """Part of a chunk source is not a JSON chunk; the message starts with where: ``<text>:3: invalid JSON ...``.

    ``source`` is the path or ``"<text>"``/``"<events>"``, ``line`` the 1-based line (None for an item given as
    an object) and ``index`` the 0-based position of the chunk in the source.
    """

    def __init__(self, message: str, *, source: str, line: int | None, index: int) -> None:
        super().__init__(message)
        self.source = source
        self.line = line
        self.index = index


# -- protocols ---------------------------------------------------------------------------------------------------


class ProtocolError(AguiNotebookError, ValueError):
    """An event sequence that breaks the AG-UI protocol (raised by ``apply_events(..., errors="raise")``).

    ``problem`` is the :class:`~agui_notebook.agui._problem.Problem` found; ``index`` the event's position.
    """

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.describe())
        self.problem = problem
        self.index = problem.index


class JsonPatchError(AguiNotebookError, ValueError):
    """A patch operation that is malformed or does not apply; names the operation index, op and path."""

    def __init__(self, reason: str, *, index: int, operation: Any) -> None:
        op = operation.get("op") if isinstance(operation, dict) else None
        path = operation.get("path") if isinstance(operation, dict) else None
        if op is None:
            where = f"operation {index}"
        else:
            where = f"operation {index} ({op if type(op) is str else shown(op)} {shown(path)})"
        super().__init__(f"{where}: {reason}")
        self.index = index
        self.operation = operation
        self.reason = reason


class UIMessageStreamError(AguiNotebookError, ValueError):
    """A malformed UI message stream: the analogue of the AI SDK's ``UIMessageStreamError``.

    Raised where the AI SDK throws, e.g. a ``text-delta`` for a text part that was never started. The message
    names the chunk: ``chunk 12 (text-delta): no text part with id 't3'``. ``chunk_index`` counts from 0.
    """

    def __init__(self, reason: str, *, chunk_index: int, chunk_type: str, chunk_id: str = "") -> None:
        super().__init__(f"chunk {chunk_index} ({chunk_type}): {reason}")
        self.reason = reason
        self.chunk_index = chunk_index
        self.chunk_type = chunk_type
        self.chunk_id = chunk_id


class UIMessageStreamErrorChunk(AguiNotebookError):
    """An ``error`` chunk in a UI message stream: the producer reported ``error_text``.

    ``on_error`` callbacks receive it, like the ``Error(errorText)`` the AI SDK passes to ``onError``.
    """

    def __init__(self, error_text: str, *, chunk_index: int) -> None:
        super().__init__(error_text)
        self.error_text = error_text
        self.chunk_index = chunk_index


class MessageValidationError(AguiNotebookError, ValueError):
    """Messages (AG-UI, UIMessage or OpenAI) that are not valid, or that a conversion cannot take.

    The message starts with the path of the offending value, e.g. ``messages[2].toolCalls: Input should be a
    valid list``; ``path`` holds it alone and ``reason`` the rest.
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}" if path else reason)
        self.path = path
        self.reason = reason


class UIMessageValidationError(MessageValidationError):
    """UIMessages that are not valid: the analogue of the AI SDK's validation errors.

    ``validateUIMessages`` throws a ``TypeValidationError`` (or ``InvalidArgumentError``); this is the Python
    counterpart. The message starts with the path of the offending value, e.g.
    ``messages[0].parts[2].input: ...``; ``path`` holds it alone.
    """


class JsonValueError(AguiNotebookError, TypeError):
    """A value that has no JSON form under the conversion rule (``agui_notebook/wire/_values.py``).

    The message names where the value came from and its JSON path:
    ``item 12 (TOOL_CALL_RESULT) .content[3].when: a <class 'object'> is not JSON``. ``path`` holds the path
    alone (``.content[3].when``, ``""`` for the value itself), ``reason`` what is wrong there.
    """

    def __init__(self, message: str, *, path: str, reason: str = "") -> None:
        super().__init__(message)
        self.path = path
        self.reason = reason


# -- the widget and agents ---------------------------------------------------------------------------------------


class RunStreamError(AguiNotebookError, ValueError):
    """A stream item the conversation cannot take; the message names it: ``item 4 (TEXT_MESSAGE_CONTENT): ...``.

    ``index`` is the item's 0-based position in its run's stream.
    """

    def __init__(self, message: str, *, index: int) -> None:
        super().__init__(message)
        self.index = index


class AgentError(AguiNotebookError, TypeError):
    """An agent the widget cannot run (not an agent at all), or one that broke its contract while running."""


class AgentRunError(AguiNotebookError, RuntimeError):
    """The agent reported that its run failed (an AG-UI ``RUN_ERROR``, an AI SDK ``error`` chunk): its message,
    and ``code`` when it gave one (what ``ChatWidget(raise_errors=True)`` raises for such a run)."""

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


class ToolLoopError(AguiNotebookError, RuntimeError):
    """The agent kept calling frontend tools: a run after ``ChatWidget.max_follow_ups`` automatic follow-up runs
    of one user turn still called them, so the widget stopped without running them (what the turn ends with)."""


class ContextError(AguiNotebookError, RuntimeError):
    """A context value (or ``forwarded_props``) computed at a run whose callable raised; the message names the
    entry, and the callable's exception is the cause. The run does not start."""


class HttpAgentError(AguiNotebookError, RuntimeError):
    """The AG-UI server answered with an error status or a stream that is not AG-UI events.

    ``status`` is the HTTP status of the response (``None`` when no response came: the request failed).
    """

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class PatchError(AguiNotebookError):
    """A live patch that does not apply to the front end's copy of the messages (it then asks for a reset)."""


class RendererOutputError(AguiNotebookError, ValueError):
    """A renderer returned something its part cannot show (``widget/_renderers.py``); shown in the part."""


class InterruptPayloadError(AguiNotebookError, ValueError):
    """An answer to an interrupt that its ``responseSchema`` refuses, or one it cannot take (expired, answered).

    The message names the interrupt and the field: ``interrupt 'i1': payload.address.zip: is required``;
    ``interrupt_id`` and ``path`` (``"payload.address.zip"``; ``""`` when the interrupt itself refuses) hold them.
    """

    def __init__(self, message: str, *, interrupt_id: str = "", path: str = "") -> None:
        super().__init__(message)
        self.interrupt_id = interrupt_id
        self.path = path


class SeekError(AguiNotebookError, IndexError):
    """A position a run does not have: ``Inspector.seek(n)`` beyond its events (the message gives the range)."""


class WorkerError(AguiNotebookError, RuntimeError):
    """A worker process of the logs' ``workers=`` pool stopped before it returned the tables of its files:
    it could not start, or it was killed (out of memory, a signal). ``paths`` lists the files whose tables
    did not come back (the one that was being read among them)."""

    def __init__(self, message: str, *, paths: list[str]) -> None:
        super().__init__(message)
        self.paths = paths


class ScorerError(AguiNotebookError, RuntimeError):
    """A scorer of ``evals.score`` that raised, or gave a value its column cannot hold; a judge whose agent
    failed or answered without a verdict. The message names the scorer and the run (``scorer 'helpful', run
    'r2': ...``); ``scorer`` and ``run_key`` hold them, and the scorer's own exception is the cause."""

    def __init__(self, message: str, *, scorer: str, run_key: str) -> None:
        super().__init__(message)
        self.scorer = scorer
        self.run_key = run_key


class ChatStateError(AguiNotebookError, RuntimeError):
    """A chat action that cannot be taken now: the agent is answering, no event loop runs, nothing to regenerate."""


class MessageNotFoundError(AguiNotebookError, KeyError):
    """An id that names no message of the conversation (or its branches), or no approval or interrupt waiting."""

    def __str__(self) -> str:  # KeyError would show the message quoted
        return str(self.args[0]) if self.args else ""


class MessageIndexError(AguiNotebookError, IndexError):
    """A place in the conversation it does not have (``chat.regenerate_at(9)`` of five messages), or a branch
    number a fork does not have; the message gives the range."""


class ChatLogError(AguiNotebookError, ValueError):
    """A chat log or saved conversation that cannot be read; the message names the file (and the line)."""


class OptionalDependencyError(AguiNotebookError, ImportError):
    """An optional dependency the function needs is not installed; the message says what to install:
    ``plotting needs matplotlib: pip install 'agui-notebook[plot]'``."""


class OptionError(AguiNotebookError, ValueError):
    """An argument value the function does not take (``errors="ignore"`` where ``"raise"``/``"collect"`` are meant)."""


def check_error_mode(errors: object, allowed: tuple[str, ...]) -> str:
    """``errors`` if it is one of ``allowed`` (a function's :data:`~agui_notebook._types.ErrorMode` values).

    >>> check_error_mode("collect", ("raise", "collect"))
    'collect'
    """
    if errors not in allowed:
        names = " or ".join(repr(a) for a in allowed)
        raise OptionError(f"errors must be {names}, not {shown(errors)}")
    return errors


@contextmanager
def no_unraisable_reports() -> Iterator[None]:
    """Silence ``sys.unraisablehook`` for a pydantic validation of untrusted input.

    pydantic writes an "Exception ignored" report to stderr when it cannot ``repr`` a value for an error message
    (an int beyond Python's 4,300-digit limit, a 10,000-level nesting); the validation error itself is raised
    as usual and carries what our messages need.
    """
    hook = sys.unraisablehook
    sys.unraisablehook = _ignore_unraisable
    try:
        yield
    finally:
        sys.unraisablehook = hook


def _ignore_unraisable(report: Any) -> None:
    pass


def json_path(root: str, value: Any, location: tuple[Any, ...] | list[Any]) -> str:
    """The JSON path of a pydantic error location in ``value``: the union tags pydantic adds are left out.

    >>> json_path("messages", [{"role": "user", "content": 5}], (0, "user", "content", "str"))
    'messages[0].content'
    """
    path = root
    node = value
    for key in location:
        if type(node) is dict and key in node:
            path += f".{key}"
        elif type(node) is list and type(key) is int and 0 <= key < len(node):
            path += f"[{key}]"
        else:
            continue  # a union member or tag, not a place in the value
        node = node[key]
    return path


def internal_failure(exc: BaseException) -> str:
    """What an unexpected exception met while processing an input says, for a located error's message.

    >>> internal_failure(TypeError("unhashable type: 'list'")), internal_failure(RecursionError())
    ("TypeError: unhashable type: 'list'", 'a value is nested too deeply')
    """
    if isinstance(exc, RecursionError):
        return "a value is nested too deeply"
    try:
        text = str(exc)
    except Exception:
        text = ""
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


# -- warnings ----------------------------------------------------------------------------------------------------


class EventLogWarning(AguiNotebookWarning):
    """Some input could not be read and was skipped (``errors="collect"``, a folder's entries that are not logs,
    an empty file, a recorder given non-events), a log table read odd values as missing
    (``attrs["odd_values"]``), or a summary's total leaves some runs out (no usage, no price: how many)."""


class ForkInputWarning(AguiNotebookWarning):
    """A ``fork`` whose run input holds messages but no user message: a log recorded on the server side holds
    only what the agent streamed (pass the run's input messages as ``fork(..., history=)``)."""


class StateUpdateWarning(AguiNotebookWarning):
    """A STATE_DELTA patch did not apply; the previous state is kept (as @ag-ui/client does)."""


# Tracebacks and reprs name the public path users import them from.
for _name in __all__:
    globals()[_name].__module__ = "agui_notebook"
del _name
