"""``StaticCopy``: nothing before the widget is shown; then the view, the copy, and updates only on change."""

from __future__ import annotations

import pytest
from ag_ui.core import RunAgentInput
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from agui_notebook.widget._chat import ChatWidget
from agui_notebook.widget._static_copy import StaticCopy


class Shown:
    model_id = "m1"

    def _repr_mimebundle_(self, **kwargs: object) -> tuple[dict[str, object], dict[str, object]]:
        return {"application/vnd.jupyter.widget-view+json": {"model_id": "m1"}, "text/plain": "Shown()"}, {}


def test_the_copy_is_shown_after_the_view_and_sent_again_only_when_it_changed() -> None:
    InteractiveShell.instance()
    text = ["first"]
    copy = StaticCopy("m1", lambda: {"text/plain": text[0]})
    with capture_output() as before:
        copy.update()
    assert before.outputs == []  # never displayed: nothing to update
    with capture_output() as shown:
        copy.display(Shown())
    view, first = shown.outputs
    assert set(view.data) == {"application/vnd.jupyter.widget-view+json"}  # no "Shown()" beside the copy
    assert first.data == {"text/plain": "first"} and first.transient == {
        "display_id": "agui-notebook-static-m1"
    }
    with capture_output() as same:
        copy.update()
    assert same.outputs == []
    text[0] = "second"
    with capture_output() as changed:
        copy.update()
    (update,) = changed.outputs
    assert update.update and update.data == {"text/plain": "second"}


async def test_a_finished_turn_is_in_the_copy_before_the_status_says_it_is_over() -> None:
    def echo(run_input: RunAgentInput) -> str:
        return f"You said: {run_input.messages[-1].content}"

    InteractiveShell.instance()
    chat = ChatWidget(echo)
    copies_when_ready: list[str] = []
    with capture_output() as shown:
        chat._ipython_display_()

        def on_status(change: dict[str, object]) -> None:
            if change["new"] == "ready":
                copies_when_ready.append(str(shown.outputs[-1].data["text/plain"]))

        chat.observe(on_status, names="status")
        assert await chat.send_message("Is it saved?") == "success"
    # A save the moment a view shows "ready" keeps the turn: the copy was sent before the status.
    assert len(copies_when_ready) == 1 and "You said: Is it saved?" in copies_when_ready[0]


async def test_a_copy_that_cannot_be_made_is_said_and_the_turn_still_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    InteractiveShell.instance()
    chat = ChatWidget(lambda run_input: "Here.")
    with capture_output():
        chat._ipython_display_()

        def broken() -> dict[str, str]:
            raise RuntimeError("no copy")

        monkeypatch.setattr(chat._static, "_build", broken)
        assert await chat.send_message("Hi") == "success"
    assert chat.status == "ready"
    assert chat.warnings == ["the saved copy could not be sent: RuntimeError: no copy"]
