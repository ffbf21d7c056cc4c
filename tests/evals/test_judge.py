"""judge (evals/_judge.py): a real offline pydantic-ai judge (FunctionModel), a text judge through a Chat, the
cache, the concurrency bound and the transcript it reads."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agui_notebook import AgentError, OptionError, ScorerError
from agui_notebook.evals import judge, score
from agui_notebook.evals._judge import transcript
from agui_notebook.evals._run import runs_of
from tests.evals.events import WEATHER


def _the_run(messages: list[ModelMessage]) -> str:
    prompt = messages[-1].parts[-1].content  # type: ignore[union-attr]
    assert isinstance(prompt, str)
    return prompt.split("The run:", 1)[1]


class Grader:
    """A FunctionModel judge: passes a run whose transcript mentions Paris; counts its calls and how many ran at once."""

    def __init__(self) -> None:
        self.calls = 0
        self.running = 0
        self.most = 0

    async def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.calls += 1
        self.running += 1
        self.most = max(self.most, self.running)
        await asyncio.sleep(0.01)
        self.running -= 1
        seen = _the_run(messages)
        ok = "Paris" in seen
        verdict = {"score": ok, "reason": "it names Paris" if ok else "it does not name Paris"}
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, verdict)])


def test_a_pydantic_ai_judge_scores_each_run_with_its_reason() -> None:
    grader = Grader()
    paris = judge(
        Agent(FunctionModel(grader), name="grader"), rubric="Does it answer about Paris?", name="paris"
    )
    table = score(WEATHER, paris)
    assert table["paris"].tolist() == [True, False, False]
    assert table["paris_reason"].tolist() == [
        "it names Paris",
        "it does not name Paris",
        "it does not name Paris",
    ]
    assert str(table["paris"].dtype) == "boolean"
    assert grader.calls == 3


def test_verdicts_are_cached_by_run_and_rubric_in_memory_and_in_a_file(tmp_path: Path) -> None:
    grader = Grader()
    agent = Agent(FunctionModel(grader), name="grader")
    cache = tmp_path / "verdicts.json"
    paris = judge(agent, rubric="Does it answer about Paris?", name="paris", cache=cache)
    score(WEATHER, paris)
    score(WEATHER, paris)
    assert grader.calls == 3
    stored = json.loads(cache.read_text())
    assert len(stored) == 3 and all(key.startswith("pydantic-ai:grader:function:") for key in stored)
    again = judge(agent, rubric="Does it answer about Paris?", name="paris", cache=cache)
    assert score(WEATHER, again)["paris"].tolist() == [True, False, False]
    assert grader.calls == 3  # read from the file
    other_rubric = judge(agent, rubric="Is it about Paris?", name="paris", cache=cache)
    score(WEATHER, other_rubric)
    assert grader.calls == 6
    cache.write_text("[1, 2]")
    with pytest.raises(OptionError, match=r"is not a judge's cache$"):
        score(WEATHER, judge(agent, rubric="x", cache=cache))


def _eight_runs() -> list[dict[str, Any]]:
    """The first run of WEATHER eight times over, as runs r0 to r7."""
    return [dict(e, runId=f"r{i}") if "runId" in e else e for i in range(8) for e in WEATHER[:7]]


def test_at_most_concurrency_runs_are_judged_at_once() -> None:
    grader = Grader()
    events = _eight_runs()
    paris = judge(Agent(FunctionModel(grader)), rubric="Paris?", concurrency=2)
    assert score(events, paris)["judge"].tolist() == [True] * 8
    assert grader.calls == 8 and grader.most == 2


def test_a_float_judge_and_a_failing_judge() -> None:
    def half(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, {"score": 0.5, "reason": "meh"})])

    rated = score(WEATHER, judge(Agent(FunctionModel(half)), rubric="How good?", output_type=float, name="q"))
    assert rated["q"].tolist() == [0.5, 0.5, 0.5] and str(rated["q"].dtype) == "float64"

    def crash(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        raise RuntimeError("model down")

    with pytest.raises(
        ScorerError, match=r"^scorer 'judge', run 'r1': the judge's run failed: RuntimeError: model down$"
    ):
        score(WEATHER, judge(Agent(FunctionModel(crash)), rubric="x"))


def test_the_error_names_the_earliest_failing_run_whichever_fails_first() -> None:
    events = _eight_runs()
    sent = 0

    async def failing(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        nonlocal sent
        sent += 1
        if sent == 1:  # the first run's judge fails last
            await asyncio.sleep(0.1)
        raise RuntimeError("model down")

    with pytest.raises(ScorerError, match=r"^scorer 'judge', run 'r0': the judge's run failed"):
        score(events, judge(Agent(FunctionModel(failing)), rubric="x", concurrency=2))
    assert sent <= 3  # the runs after the failing one were not sent


def test_any_other_agent_answers_a_json_verdict_through_a_chat() -> None:
    seen: list[str] = []

    def agent(run_input: Any) -> Any:
        prompt = run_input.messages[-1].content
        seen.append(prompt)
        ok = "Oslo" in prompt.split("The run:", 1)[1]
        yield "Here is my verdict: " + json.dumps({"score": ok, "reason": "Oslo" if ok else "elsewhere"})

    table = score(WEATHER, judge(agent, rubric="Is it about Oslo?", name="oslo"))
    assert table["oslo"].tolist() == [False, False, True]
    assert table["oslo_reason"].tolist() == ["elsewhere", "elsewhere", "Oslo"]
    assert '{"score": <the score>, "reason": "<one sentence>"}' in seen[0]

    def rambler(run_input: Any) -> Any:
        yield "I think it is fine."

    with pytest.raises(
        ScorerError,
        match=r"^scorer 'judge', run 'r1': the judge answered 'I think it is fine.', not a verdict",
    ):
        score(WEATHER, judge(rambler, rubric="x"))


@pytest.mark.parametrize(
    ("output_type", "answer"),
    [(bool, "yes"), (bool, "true"), (bool, 1), (int, True), (float, "0.5"), (str, 3)],
)
def test_a_text_judge_must_answer_the_type_asked(output_type: type, answer: Any) -> None:
    def agent(run_input: Any) -> Any:
        yield json.dumps({"score": answer, "reason": "because"})

    with pytest.raises(
        ScorerError, match=r"^scorer 'judge', run 'r1': the judge answered .*, not a verdict \(score"
    ):
        score(WEATHER, judge(agent, rubric="x", output_type=output_type))


def test_the_transcript_shows_the_tool_calls_and_the_answer() -> None:
    assert transcript(runs_of(WEATHER)[0]) == (  # type: ignore[arg-type]
        'tool call get_weather({"city":"Paris"})\ntool result: "sunny"\nassistant: Sunny in Paris.'
    )


def test_the_judges_options_are_checked() -> None:
    with pytest.raises(AgentError, match=r"^judge: give it an agent"):
        judge(None, rubric="x")
    with pytest.raises(OptionError, match=r"^judge: rubric must say what to grade"):
        judge(lambda run_input: "x", rubric=" ")
    with pytest.raises(
        OptionError, match=r"^judge: output_type must be bool, float, int or str, not <class 'list'>$"
    ):
        judge(lambda run_input: "x", rubric="x", output_type=list)
    with pytest.raises(OptionError, match=r"^judge: concurrency must be at least 1, not 0$"):
        judge(lambda run_input: "x", rubric="x", concurrency=0)
