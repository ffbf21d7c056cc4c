"""``StaticCopy``: nothing before the widget is shown; then the view, the copy, and updates only on change."""

from __future__ import annotations

from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

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
