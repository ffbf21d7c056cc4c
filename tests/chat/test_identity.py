"""Where a notebook cell's chat keeps its log, and what running the cell again opens.

The kernel's side of JupyterLab is played here exactly as ipykernel has it: ``JPY_SESSION_NAME`` (the notebook's
path, which the server sets) and the parent execute request (whose metadata carries the ``cellId``). The real
thing runs in tests/e2e/test_durable_chat.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ag_ui.core import RunAgentInput

from agui_notebook import Chat, ChatWidget
from agui_notebook.chat import _identity
from agui_notebook.chat._identity import LOG_FOLDER, default_log_path
from tests.widget.front_end import FrontEnd


class Cell:
    """The execute request the kernel is running: a cell of a notebook, run for the n-th time."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, notebook: Path) -> None:
        self.runs = 0
        self.cell_id = "3f2a-b1"
        monkeypatch.setenv("JPY_SESSION_NAME", str(notebook))
        monkeypatch.setattr(_identity, "_parent_message", self.parent)

    def parent(self) -> dict[str, Any]:
        # Every execute request has its own id (a uuid in Jupyter).
        return {"header": {"msg_id": f"execute-{id(self)}-{self.runs}"}, "metadata": {"cellId": self.cell_id}}

    def run(self) -> None:
        self.runs += 1


@pytest.fixture
def cell(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Cell:
    return Cell(monkeypatch, tmp_path / "trip.ipynb")


def test_a_cells_chat_lives_beside_its_notebook(cell: Cell, tmp_path: Path) -> None:
    cell.run()
    assert default_log_path() == tmp_path / LOG_FOLDER / "trip.ipynb" / "3f2a-b1.jsonl"
    assert (
        default_log_path() == tmp_path / LOG_FOLDER / "trip.ipynb" / "3f2a-b1-2.jsonl"
    )  # a second chat, same run
    cell.run()
    assert (
        default_log_path() == tmp_path / LOG_FOLDER / "trip.ipynb" / "3f2a-b1.jsonl"
    )  # the next run: the first again
    cell.cell_id = "../../etc"
    cell.run()
    assert default_log_path().name == "______etc.jsonl"  # type: ignore[union-attr]


def test_outside_a_notebook_there_is_no_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    assert default_log_path() is None
    monkeypatch.setenv("JPY_SESSION_NAME", "relative/trip.ipynb")  # not the server's absolute path
    assert default_log_path() is None
    monkeypatch.setenv("JPY_SESSION_NAME", "/work/trip.ipynb")
    monkeypatch.setattr(_identity, "_parent_message", lambda: {"header": {"msg_id": "m"}, "metadata": {}})
    assert default_log_path() is None  # a client that sends no cell id (nbclient, nbval)
    assert Chat(None).store is None


def _echo(run_input: RunAgentInput) -> Any:
    yield "You said: "
    yield str(run_input.messages[-1].content)


async def test_running_the_cell_again_goes_on_with_the_conversation(cell: Cell) -> None:
    cell.run()
    first = ChatWidget(_echo)
    view = FrontEnd(first)
    assert await first.send_message("Hi") == "success"
    cell.run()
    second = ChatWidget(_echo, title="edited cell")  # the cell, run again (its code changed a little)
    assert second.chat is first.chat and second.messages == first.messages
    assert first.comm is None  # the earlier run's widget is closed: its output went with the cell's
    assert view.sent  # (its view got what it had before)
    assert await second.send_message("Again") == "success"
    assert [m["role"] for m in second.messages] == ["user", "assistant", "user", "assistant"]


async def test_a_restarted_kernel_running_all_cells_opens_the_same_conversation(cell: Cell) -> None:
    cell.run()
    chat = ChatWidget(_echo)
    await chat.send_message("Hi")
    before = chat.messages
    chat.chat.close()  # the kernel's end: nothing of it stays in this process but the file
    cell.run()
    again = ChatWidget(_echo)
    assert again.chat is not chat.chat and again.messages == before


async def test_an_explicit_store_shows_the_same_chat_in_two_widgets_in_step(tmp_path: Path) -> None:
    first = ChatWidget(_echo, store=tmp_path / "shared.jsonl")
    second = ChatWidget(_echo, store=tmp_path / "shared.jsonl")
    assert first.chat is second.chat and first.comm is not None  # both stay
    one, two = FrontEnd(first), FrontEnd(second)
    assert await first.send_message("Hi") == "success"
    assert one.state["messages"] == two.state["messages"] == first.messages
