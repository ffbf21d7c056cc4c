"""Context from the notebook: what the agent sees (``chat/_context.py``) and how every run carries it.

Notebook objects become bounded text (DataFrames, Series, arrays, figures, JSON, any repr), callables are called at
each run, the sizes sent are what the views show, the log keeps each run's context, and real agents see it:
pydantic-ai's ``Agent`` (through its AG-UI adapter, as the run's instructions) and a LangGraph graph through
``ag_ui_langgraph`` (``forwardedProps`` reach the graph's input).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from ag_ui.core import Context, RunAgentInput
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agui_notebook import AguiNotebookError, Chat, ContextError, InputTypeError, OptionError
from agui_notebook.chat._context import context_sources, describe_value, resolve_context
from agui_notebook.chat._listeners import ChatListener
from tests.support.hostile import DEEP_LIST, HUGE_INT

CITIES = pd.DataFrame(
    {
        "city": ["Paris", "Oslo", "Rome", "Lima", "Kyiv", "Nice", "Bern"],
        "temp_c": [21.0, 9.5, 25, 18, 12, 22, 15],
    }
)


class Seen:
    """An agent that answers "ok" and keeps every run input it was given."""

    def __init__(self) -> None:
        self.inputs: list[RunAgentInput] = []

    async def __call__(self, run_input: RunAgentInput) -> AsyncIterator[str]:
        self.inputs.append(run_input)
        yield "ok"


# ---------------------------------------------------------------------------------------------- describing values
def test_a_dataframe_is_its_shape_dtypes_and_first_rows() -> None:
    text, kind = describe_value(CITIES)
    assert kind == "DataFrame 7×2"
    assert text == (
        "pandas DataFrame: 7 rows × 2 columns\n"
        "columns (dtype): city (str), temp_c (float64)\n"
        "first 5 rows (CSV):\n"
        ",city,temp_c\n0,Paris,21.0\n1,Oslo,9.5\n2,Rome,25.0\n3,Lima,18.0\n4,Kyiv,12.0\n"
        "(2 more rows not shown)"
    )


def test_a_wide_dataframe_names_its_first_columns_and_counts_the_rest() -> None:
    wide = pd.DataFrame([list(range(40))], columns=[f"c{i}" for i in range(40)])
    text, kind = describe_value(wide)
    assert kind == "DataFrame 1×40"
    assert "c29 (int64)" in text and "c30" not in text
    assert "(10 more columns not shown)" in text
    assert text.endswith(",".join(["0", *map(str, range(30))]))


def test_a_dataframe_with_repeated_column_names_is_described() -> None:
    twice = pd.DataFrame([[1, "a"]], columns=["x", "x"])
    assert describe_value(twice)[0].splitlines()[1] == "columns (dtype): x (int64), x (str)"


def test_series_arrays_json_and_other_values() -> None:
    assert describe_value(pd.Series([1.5, 2.5], name="load")) == (
        "pandas Series 'load': 2 values of dtype float64\n,load\n0,1.5\n1,2.5",
        "Series of 2",
    )
    assert describe_value(np.arange(12).reshape(3, 4)) == (
        "NumPy array of shape (3, 4) and dtype int64; first values: [0, 1, 2, 3, 4] (7 more not shown)",
        "array 3×4",
    )
    assert describe_value({"units": "metric", "n": [1, 2]}) == ('{"units":"metric","n":[1,2]}', "JSON")
    assert describe_value({1: object()})[1] == "dict"  # no JSON form: its repr
    assert describe_value(float("nan")) == ("nan", "float")
    assert describe_value("as it is") == ("as it is", "text")


def test_a_figure_is_its_axes_labels_and_what_they_draw() -> None:
    from matplotlib.figure import Figure

    figure = Figure()
    figure.suptitle("Weather")
    axes = figure.add_subplot()
    axes.plot([0, 1], [2, 3], label="Paris")
    axes.set(title="Temperatures", xlabel="day", ylabel="°C", xlim=(0, 1), ylim=(0, 5))
    text, kind = describe_value(figure)
    assert kind == "Figure"
    assert text == (
        "matplotlib Figure with 1 axes titled 'Weather'\n"
        "axes 1: title 'Temperatures', x 'day' (0.0, 1.0), y '°C' (0.0, 5.0); draws line 'Paris'"
    )


def test_a_repr_that_raises_is_told_not_raised() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert describe_value(Broken()) == ("<Broken whose repr raised RuntimeError>", "Broken")


def test_the_budget_cuts_a_description_and_says_how_much() -> None:
    entries, sent = resolve_context(context_sources({"log": "x" * 1000}), budget=300)
    value = entries[0]["value"]  # type: ignore[index]
    assert len(value) == 300
    assert value == "x" * 266 + "\n… (734 more characters not shown)"  # 266 kept + 734 cut = 1,000
    assert sent == [{"description": "log", "kind": "text", "chars": 300, "cut": 734, "dynamic": False}]


# ---------------------------------------------------------------------------------------------- the entries
def test_entries_mappings_and_ag_ui_contexts_are_taken() -> None:
    sources = context_sources(
        [{"description": "a", "value": 1}, Context(description="b", value="two")],
    )
    assert [(s.description, s.value) for s in sources] == [("a", 1), ("b", "two")]
    assert [(s.description, s.value) for s in context_sources({"c": 3})] == [("c", 3)]
    assert context_sources(None) == []


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ("text", InputTypeError, "context must be a list of context entries, not str"),
        ([3], InputTypeError, r"context\[0\] must be a context entry"),
        ([{"description": "a"}], OptionError, r"context\[0\] takes 'description' and 'value' only"),
        ([{"description": "a", "value": 1, "extra": 2}], OptionError, "got keys"),
        ([{"description": 5, "value": 1}], InputTypeError, r"context\[0\].description must be a string"),
        ({5: "x"}, InputTypeError, "context key 5 must be a description"),
        ([{"description": "f", "value": lambda x: x}], OptionError, "this one needs arguments"),
    ],
)
def test_bad_entries_are_refused_naming_the_entry(value: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        Chat(Seen(), store=None, context=value)


def test_the_budget_and_forwarded_props_are_checked() -> None:
    with pytest.raises(OptionError, match="context_budget must be at least 200, not 10"):
        Chat(Seen(), store=None, context_budget=10)
    with pytest.raises(InputTypeError, match="forwarded_props must be a mapping"):
        Chat(Seen(), store=None, forwarded_props=[1])
    with pytest.raises(OptionError, match=r"did you mean context=\?"):
        Chat(Seen(), store=None, contxt=[])


# ---------------------------------------------------------------------------------------------- runs carry it
async def test_every_run_carries_the_context_and_the_forwarded_props(tmp_path: Path) -> None:
    calls = []

    def selection() -> pd.DataFrame:
        calls.append(1)
        return CITIES.head(len(calls))  # what the user has selected changes between runs

    agent = Seen()
    chat = Chat(
        agent,
        store=tmp_path / "chat.jsonl",
        context={"cities": CITIES, "selected": selection, "units": "metric"},
        forwarded_props={"node_name": "answer"},
    )
    assert chat.context_sent == [
        {"description": "cities", "kind": "DataFrame 7×2", "chars": 199, "cut": 0, "dynamic": False},
        {"description": "selected", "kind": "callable", "chars": None, "cut": 0, "dynamic": True},
        {"description": "units", "kind": "text", "chars": 6, "cut": 0, "dynamic": False},
    ]
    assert calls == []  # a preview calls nothing
    assert await chat.send_message("Which city is warmest?") == "success"
    assert await chat.send_message("And now?") == "success"
    first, second = agent.inputs
    assert [c.description for c in first.context] == ["cities", "selected", "units"]
    assert first.context[0].value == describe_value(CITIES)[0]
    assert first.context[1].value.startswith("pandas DataFrame: 1 rows × 2 columns")
    assert second.context[1].value.startswith("pandas DataFrame: 2 rows × 2 columns")
    assert first.forwarded_props == {"node_name": "answer"}
    assert calls == [1, 1]
    assert chat.context_sent[1] == {
        "description": "selected",
        "kind": "DataFrame 2×2",
        "chars": len(second.context[1].value),
        "cut": 0,
        "dynamic": True,
    }
    # The log is the conversation: each run's input, context included, is in it and comes back.
    logged = [run_input["context"] for _, run_input in chat.run_inputs]
    assert logged == [[c.model_dump() for c in i.context] for i in agent.inputs]
    store = chat.store
    chat.close()
    again = Chat(Seen(), store=store)
    assert [run_input["context"] for _, run_input in again.run_inputs] == logged


async def test_context_given_with_a_message_goes_with_that_turn_only() -> None:
    agent = Seen()
    chat = Chat(agent, store=None, context={"units": "metric"})
    await chat.send_message("Plot this", context=[{"description": "figure size", "value": (8, 4)}])
    await chat.send_message("Thanks")
    assert [[c.description for c in i.context] for i in agent.inputs] == [["units", "figure size"], ["units"]]
    assert agent.inputs[0].context[1].value == "[8,4]"


async def test_a_callable_that_raises_refuses_the_run_and_the_chat_goes_on() -> None:
    def broken() -> str:
        raise ZeroDivisionError("division by zero")

    agent = Seen()
    chat = Chat(agent, store=None, context={"ratio": broken})
    with pytest.raises(
        ContextError, match=r"context\[0\] \('ratio'\): the callable raised ZeroDivisionError"
    ):
        chat.send_message("Hi")
    assert chat.status == "error"
    assert "ZeroDivisionError" in chat.error
    assert agent.inputs == []
    chat.context = {"ratio": 0.5}
    assert await chat.send_message("Again") == "success"
    assert agent.inputs[0].context[0].value == "0.5"


async def test_views_are_told_what_the_context_sent() -> None:
    class ContextView(ChatListener):
        def __init__(self) -> None:
            self.told = 0

        def context_changed(self) -> None:
            self.told += 1

    chat = Chat(Seen(), store=None, context={"n": lambda: 1})
    view = ContextView()
    chat.subscribe(view)
    await chat.send_message("a")
    assert view.told == 1  # the callable's size became known
    await chat.send_message("b")
    assert view.told == 1  # the same sizes: nothing new to show
    chat.context = {"n": 2}
    assert view.told == 2


async def test_configure_takes_the_cells_new_context() -> None:
    agent = Seen()
    chat = Chat(agent, store=None, context={"old": 1}, forwarded_props={"a": 1})
    chat.configure(agent=agent, context={"new": 2})
    await chat.send_message("hi")
    assert [c.description for c in agent.inputs[0].context] == ["new"]
    assert agent.inputs[0].forwarded_props is None


# ---------------------------------------------------------------------------------------------- real agents see it
async def test_a_pydantic_ai_agent_sees_the_context_as_instructions() -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelRequest
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    seen: list[str | None] = []

    async def model(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        request = messages[-1]
        assert isinstance(request, ModelRequest)
        seen.append(request.instructions)
        yield "It is warmest in Rome."

    chat = Chat(Agent(FunctionModel(stream_function=model)), store=None, context={"cities": CITIES})
    assert await chat.send_message("Which city is warmest?") == "success"
    assert seen == [
        "The user's notebook shares this context with you:\n\n## cities\n" + describe_value(CITIES)[0]
    ]
    assert chat.messages[-1]["parts"][-1]["text"] == "It is warmest in Rome."


@pytest.mark.filterwarnings("ignore:.*get_config_jsonschema.*")  # ag_ui_langgraph calls it, not us
async def test_forwarded_props_reach_a_langgraph_graph() -> None:
    from ag_ui_langgraph import LangGraphAgent
    from langgraph.checkpoint.memory import MemorySaver
    from langgraph.graph import END, START, StateGraph
    from typing_extensions import TypedDict

    class State(TypedDict, total=False):
        messages: list[Any]
        topic: str
        seen: str

    reached: list[str] = []

    def node(state: State) -> dict[str, str]:
        reached.append(state.get("topic", ""))
        return {"seen": f"topic={state.get('topic')}"}

    graph = StateGraph(State)
    graph.add_node("answer", node)
    graph.add_edge(START, "answer")
    graph.add_edge("answer", END)
    agent = LangGraphAgent(name="graph", graph=graph.compile(checkpointer=MemorySaver()))
    chat = Chat(agent, store=None, forwarded_props={"topic": "weather"})
    assert await asyncio.wait_for(chat.send_message("hi"), 30) == "success"
    assert reached == ["weather"]
    assert chat.state["seen"] == "topic=weather"  # type: ignore[index]


# ---------------------------------------------------------------------------------------------- the widget shows it
async def test_the_widget_shows_what_the_context_sent_and_takes_new_context() -> None:
    from agui_notebook import ChatWidget

    agent = Seen()
    widget = ChatWidget(agent, store=None, context={"cities": CITIES, "pick": lambda: "Rome"})
    assert [(e["description"], e["chars"]) for e in widget.context_sent] == [("cities", 199), ("pick", None)]
    await widget.send_message("hi")
    assert [(e["description"], e["chars"]) for e in widget.context_sent] == [("cities", 199), ("pick", 4)]
    seen: list[Any] = []
    widget.observe(lambda change: seen.append(change["new"]), "context")
    widget.context = {"units": "metric"}  # a trait: observable, and linkable to another widget
    assert seen == [[{"description": "units", "value": "metric"}]]
    assert widget.context_sent == [
        {"description": "units", "kind": "text", "chars": 6, "cut": 0, "dynamic": False}
    ]
    assert widget.chat.context == [{"description": "units", "value": "metric"}]
    widget.chat.context = {"units": "imperial"}  # from the chat (another view, Python): the trait follows
    assert widget.context == [{"description": "units", "value": "imperial"}]
    with pytest.raises(InputTypeError, match="context must be a list of context entries, not int"):
        widget.context = 3
    assert widget.context == [{"description": "units", "value": "imperial"}]
    widget.forwarded_props = {"node_name": "plan"}
    await widget.send_message("again")
    assert agent.inputs[-1].forwarded_props == {"node_name": "plan"}
    with pytest.raises(OptionError, match="did you mean context_budget="):
        ChatWidget(agent, store=None, context_budgt=500)


# ---------------------------------------------------------------------------------------------- hostile values
_ODD = ["\ud83d", "a\udfff", "😀", b"bytes", {1: "x"}, {"k": {1, 2}}, float("nan"), float("inf")]
_VALUES = (
    st.sampled_from(_ODD)
    | st.booleans().map(lambda negative: -HUGE_INT if negative else HUGE_INT)  # repr() raises ValueError
    | st.builds(object)
    | st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
        max_leaves=20,
    )
)
_KEYS = st.text(max_size=4) | st.integers() | st.none() | st.sampled_from(["\ud83d", b"k"])
_DESCRIPTIONS = st.text(max_size=12) | st.sampled_from(["\ud83d", "é\n", ""])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    entries=st.lists(st.tuples(_DESCRIPTIONS, _VALUES | st.just(DEEP_LIST)), max_size=4),
    budget=st.integers(200, 600),
)
def test_any_value_is_sent_within_its_budget_and_the_log_reads_back(
    entries: list[tuple[str, Any]], budget: int
) -> None:
    async def turn() -> None:
        folder = Path(tempfile.mkdtemp())
        agent = Seen()
        context = [{"description": d, "value": v} for d, v in entries]
        chat = Chat(agent, store=folder / "chat.jsonl", context=context, context_budget=budget)
        assert await chat.send_message("hi") == "success", chat.error
        sent = agent.inputs[0].context
        assert [c.description for c in sent] == [d for d, _ in entries]
        assert all(len(c.value) <= budget for c in sent)
        assert [e["chars"] for e in chat.context_sent] == [len(c.value) for c in sent]
        records = chat.events
        chat.close()
        assert Chat(Seen(), store=folder / "chat.jsonl").events == records

    asyncio.run(turn())


@settings(max_examples=80, deadline=None)
@given(value=_VALUES | st.lists(_VALUES, max_size=3) | st.dictionaries(_KEYS, _VALUES, max_size=3))
def test_any_context_argument_is_taken_or_refused_by_the_family(value: Any) -> None:
    try:
        sources = context_sources(value)
    except AguiNotebookError as error:
        assert "context" in str(error)
        return
    resolve_context(sources, 300)


async def test_half_an_emoji_in_a_description_reaches_the_views_replaced() -> None:
    from agui_notebook import ChatWidget
    from tests.widget.front_end import FrontEnd

    widget = ChatWidget(Seen(), store=None)
    view = FrontEnd(widget)
    widget.context = [{"description": "a\ud83d", "value": "b\udfff"}]  # the comm carries no lone surrogate
    assert view.trait_updates("context_sent")[-1][0]["description"] == "a\ufffd"
    assert await widget.send_message("hi") == "success"
    assert widget.chat.context_sent[0]["description"] == "a\ud83d"  # the chat keeps what it was given
