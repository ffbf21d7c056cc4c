"""``judge``: an LLM-as-judge scorer through any agent the chat runs, with its reasons, bounded concurrency and a
cache by run and rubric.

A pydantic-ai ``Agent`` answers with structured output (``agent.run(prompt, output_type=Verdict model)``); any
other agent runs once per run through a headless ``Chat`` (no log) and answers a JSON object
``{"score": ..., "reason": ...}`` in its text. What the judge reads is the run's transcript (``transcript``):
the user's turn, the answer, and each tool call with its result.

>>> import asyncio
>>> def strict(run_input):
...     yield '{"score": false, "reason": "no sources"}'
>>> from agui_notebook.evals._run import runs_of
>>> run = runs_of([{"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}])[0]
>>> asyncio.run(judge(strict, rubric="Does it cite sources?", name="cited").function(run))
Verdict(value=False, reason='no sources')
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError, create_model

from agui_notebook._errors import AgentError, OptionError, ScorerError
from agui_notebook._options import count, file_path, keyword_options, typed
from agui_notebook._shown import shown
from agui_notebook.chat._agents import check_agent, describe_agent, is_pydantic_ai_agent
from agui_notebook.wire._json import encode_json

from ._run import Run, message_text
from ._scorers import Scorer, Verdict, checked_dtype, checked_name

__all__ = ["JudgeCache", "judge", "transcript"]

OUTPUT_TYPES: dict[Any, str] = {bool: "bool", float: "float", int: "int", str: "str"}
"""What a judge's score may be, and how its cache key names it."""

TOOL_TEXT_CHARS = 2000
"""A tool call's arguments and result are cut to this many characters in the transcript."""

PROMPT = """You are grading one run of an AI agent against a rubric.

Rubric: {rubric}

The run:
{transcript}

Grade the run against the rubric. The score is {kind}."""

JSON_ANSWER = """
Answer with one JSON object and nothing else: {{"score": <the score>, "reason": "<one sentence>"}}"""

_KINDS = {bool: "true or false", float: "a number", int: "a whole number", str: "a short label"}


def _cut(text: str) -> str:
    return text if len(text) <= TOOL_TEXT_CHARS else text[:TOOL_TEXT_CHARS] + "…"


def transcript(run: Run) -> str:
    """The run as a judge reads it: the user's turn, each assistant message's text and tool calls (name,
    arguments, result), in order.

    >>> from agui_notebook.evals._run import runs_of
    >>> print(transcript(runs_of([
    ...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
    ...     {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "role": "assistant", "delta": "Hi."},
    ... ])[0]))
    assistant: Hi.
    """
    lines = []
    if run.question:
        lines.append(f"user: {run.question}")
    for message in run.messages:
        role = str(message.get("role"))
        if role == "user" and run.question:
            continue  # the run input's turn, shown once
        for part in message.get("parts") or ():
            kind = str(part.get("type", ""))
            if kind.startswith("tool-") or kind == "dynamic-tool":
                tool = part.get("toolName") or kind.removeprefix("tool-")
                arguments = _cut(encode_json(part.get("input")))
                lines.append(f"tool call {tool}({arguments})")
                if "output" in part:
                    lines.append(f"tool result: {_cut(encode_json(part.get('output')))}")
                elif part.get("errorText"):
                    lines.append(f"tool error: {_cut(str(part.get('errorText')))}")
        text = message_text(message)
        if text:
            lines.append(f"{role}: {text}")
    return "\n".join(lines) if lines else "(the run has no messages)"


class JudgeCache:
    """A judge's verdicts by key (the judge, its output type, and a hash of the rubric and transcript), in memory
    and, with ``path``, in a JSON file read at the first look-up and written after each ``score``."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.entries: dict[str, list[Any]] = {}
        self._read = path is None
        self._lock = threading.Lock()

    def _load(self) -> None:
        if self._read or self.path is None:
            return
        self._read = True
        try:
            text = Path(self.path).read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except OSError as exc:
            raise OptionError(f"judge: cache={self.path!r} cannot be read: {exc.strerror or exc}") from None
        try:
            stored = json.loads(text)
        except ValueError:
            raise OptionError(f"judge: cache={self.path!r} is not a judge's cache (not JSON)") from None
        if not isinstance(stored, dict) or not all(
            isinstance(v, list) and len(v) == 2 for v in stored.values()
        ):
            raise OptionError(f"judge: cache={self.path!r} is not a judge's cache")
        self.entries.update(stored)

    def get(self, key: str) -> Verdict | None:
        """The verdict kept under ``key``, if any."""
        with self._lock:
            self._load()
            found = self.entries.get(key)
        return None if found is None else Verdict(found[0], found[1])

    def put(self, key: str, verdict: Verdict) -> None:
        """Keep ``verdict`` under ``key`` (in memory; ``save`` writes the file)."""
        with self._lock:
            self.entries[key] = [verdict.value, verdict.reason]

    def save(self) -> None:
        """Write the file (``path``), all at once (a new file renamed over the old one)."""
        if self.path is None:
            return
        with self._lock:
            text = json.dumps(self.entries, ensure_ascii=False, indent=0, sort_keys=True)
        target = Path(self.path)
        temporary = target.with_name(target.name + ".tmp")
        try:
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, target)
        except OSError as exc:
            raise OptionError(
                f"judge: cache={self.path!r} cannot be written: {exc.strerror or exc}"
            ) from None


def _identity(agent: Any) -> str:
    """How the cache names the judging agent: a pydantic-ai agent by its name and model, another by its kind."""
    if is_pydantic_ai_agent(agent):
        model = getattr(agent, "model", None)
        model_name = getattr(model, "model_name", None) or (model if isinstance(model, str) else "")
        return f"pydantic-ai:{getattr(agent, 'name', None) or ''}:{model_name}"
    return describe_agent(agent)


@keyword_options
def judge(
    agent: Any,
    rubric: str,
    *,
    output_type: type = bool,
    name: str = "judge",
    description: str | None = None,
    concurrency: int = 4,
    cache: str | os.PathLike[str] | None = None,
    identity: str | None = None,
) -> Scorer:
    """An LLM-as-judge scorer: ``agent`` grades each run against ``rubric``, giving a score of ``output_type``
    (``bool``, ``float``, ``int`` or ``str``) in the column ``name`` and its reason in ``<name>_reason``.

    ``agent`` is any agent the chat runs: a pydantic-ai ``Agent`` answers with structured output; any other
    agent's text must be a JSON object ``{"score": ..., "reason": ...}``. At most ``concurrency`` runs are
    judged at once. Verdicts are cached by the judge (``identity``, by default the agent's name and model), the
    output type, the rubric and the run's transcript: in memory for the scorer's life and, with ``cache=`` a
    path, in that JSON file across kernels.

    >>> from pydantic_ai import Agent  # doctest: +SKIP
    >>> helpful = judge(Agent("openai:gpt-4o-mini"), rubric="Does the answer help the user?", name="helpful")  # doctest: +SKIP
    """
    if agent is None:
        raise AgentError(
            "judge: give it an agent (a pydantic-ai Agent, a function, an object with run(input))"
        )
    check_agent(agent)
    typed(rubric, "judge: rubric", str, "a string")
    if not rubric.strip():
        raise OptionError("judge: rubric must say what to grade, not ''")
    if output_type not in OUTPUT_TYPES:
        raise OptionError(f"judge: output_type must be bool, float, int or str, not {shown(output_type)}")
    name = checked_name(name, "judge")
    if description is None:
        description = f"the judge's {OUTPUT_TYPES[output_type]} score for: {rubric.strip().splitlines()[0]}"
    typed(description, "judge: description", str, "a string")
    count(concurrency, "judge: concurrency", least=1)
    kept = JudgeCache(None if cache is None else file_path(cache, "judge: cache"))
    if identity is None:
        identity = _identity(agent)
    typed(identity, "judge: identity", str, "a string")
    dtype = checked_dtype(output_type, "judge")
    model = create_model("Verdict", score=(output_type, ...), reason=(str, ...))
    gate: dict[int, asyncio.Semaphore] = {}  # one per event loop: a semaphore belongs to the loop it waits on

    async def verdict(run: Run) -> Verdict:
        prompt = PROMPT.format(rubric=rubric, transcript=transcript(run), kind=_KINDS[output_type])
        digest = hashlib.sha256(f"{rubric}\0{prompt}".encode("utf-8", "surrogatepass")).hexdigest()
        key = f"{identity}|{OUTPUT_TYPES[output_type]}|{digest}"
        found = kept.get(key)
        if found is not None:
            return found
        loop = id(asyncio.get_running_loop())
        semaphore = gate.setdefault(loop, asyncio.Semaphore(concurrency))
        async with semaphore:
            if is_pydantic_ai_agent(agent):
                answer = await _structured(agent, prompt, model, name, run)
            else:
                answer = await _from_text(agent, prompt + JSON_ANSWER, model, name, run)
        kept.put(key, answer)
        return answer

    return Scorer(name, description, dtype, verdict, "run", reasons=True, cache=kept)


def _failed(name: str, run: Run, reason: str) -> ScorerError:
    return ScorerError(f"scorer {name!r}, run {run.key!r}: {reason}", scorer=name, run_key=run.key)


async def _structured(agent: Any, prompt: str, model: type[BaseModel], name: str, run: Run) -> Verdict:
    try:
        result = await agent.run(prompt, output_type=model)
    except Exception as exc:
        raise _failed(name, run, f"the judge's run failed: {type(exc).__name__}: {exc}") from exc
    output = result.output
    return Verdict(output.score, output.reason)


async def _from_text(agent: Any, prompt: str, model: type[BaseModel], name: str, run: Run) -> Verdict:
    from agui_notebook.chat._chat import Chat

    chat = Chat(agent, store=None, raise_errors=True)
    try:
        await chat.send_message(prompt)
    except Exception as exc:
        raise _failed(name, run, f"the judge's run failed: {type(exc).__name__}: {exc}") from exc
    answers = [message_text(m) for m in chat.messages if m.get("role") == "assistant"]
    text = answers[-1].strip() if answers else ""
    start, end = text.find("{"), text.rfind("}")
    try:
        # Strict: a score of the type asked ("yes" is not a yes/no verdict, nor true a number).
        parsed = model.model_validate_json(text[start : end + 1] if 0 <= start < end else text, strict=True)
    except ValidationError as exc:
        shown_text = text if len(text) <= 200 else text[:200] + "…"
        problem = exc.errors()[0]
        where = ".".join(str(p) for p in problem.get("loc", ())) or "the answer"
        raise _failed(
            name, run, f"the judge answered {shown_text!r}, not a verdict ({where}: {problem.get('msg')})"
        ) from None
    fields = parsed.model_dump()
    return Verdict(fields["score"], fields["reason"])
