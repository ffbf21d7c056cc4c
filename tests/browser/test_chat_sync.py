"""The sync protocol in the browser: patches in seq order, resync on gaps and mid-run mounts, snapshots, traits."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def user(mid: str, text: str) -> dict:
    return {"id": mid, "role": "user", "parts": [{"type": "text", "text": text}]}


def answer(mid: str, *parts: dict) -> dict:
    return {"id": mid, "role": "assistant", "parts": list(parts)}


def patch(seq: int, *ops: list) -> dict:
    return {"kind": "patch", "seq": seq, "ops": list(ops)}


def texts(widget) -> list[str]:
    return widget.locator(".agui-message").evaluate_all("(els) => els.map((e) => e.innerText.trim())")


def mark(locator, name: str) -> None:
    """Tag a DOM node so a later check can tell whether it is still the same object."""
    locator.evaluate("(e, name) => { e.__aguiMark = name; }", name)


def marked(locator) -> str | None:
    return locator.evaluate("(e) => e.__aguiMark ?? null")


def test_streamed_text_deltas_render_in_order(chat):
    widget = chat.open(messages=[user("u1", "Hi")])
    widget.deliver(
        patch(
            1,
            ["status", "streaming", ""],
            ["m", 1, answer("a1", {"type": "text", "text": "", "state": "streaming"})],
        )
    )
    assert widget.locator("[data-agui=status]").inner_text() == "Answering…"
    assert widget.locator("[data-agui=stop]").is_visible()
    for seq, delta in enumerate(["Hel", "lo, ", "**wor", "ld**!"], start=2):
        widget.deliver(patch(seq, ["t", 1, 0, delta]))
    text = widget.message(1).locator("[data-part-type=text]")
    assert text.get_attribute("data-state") == "streaming"
    assert text.inner_text() == "Hello, world!"
    assert text.locator("strong").inner_text() == "world"
    widget.deliver(
        patch(
            6,
            ["p", 1, 0, {"type": "text", "text": "Hello, **world**!", "state": "done"}],
            ["status", "ready", ""],
        )
    )
    assert text.get_attribute("data-state") == "done"
    assert not widget.locator("[data-agui=stop]").is_visible()
    assert widget.sent() == []


def test_tool_call_through_approval_and_the_messages_buttons_send(chat):
    tool = {
        "type": "tool-delete_files",
        "toolCallId": "c1",
        "state": "input-streaming",
        "input": {"paths": ["/tm"]},
    }
    widget = chat.open(messages=[user("u1", "clean up"), answer("a1", tool)])
    card = widget.locator("[data-part-type=tool-delete_files]")
    assert card.get_attribute("data-tool-state") == "input-streaming"
    assert card.locator(".agui-tool-input pre").text_content() == '{\n  "paths": [\n    "/tm"\n  ]\n}'
    widget.deliver(patch(1, ["p", 1, 0, {**tool, "input": {"paths": ["/tmp/a", "/tmp/b"]}}]))
    assert '"/tmp/b"' in card.locator(".agui-tool-input pre").text_content()
    widget.deliver(
        patch(2, ["p", 1, 0, {**tool, "state": "input-available", "input": {"paths": ["/tmp/a"]}}])
    )
    assert card.locator("[data-agui=tool-state]").inner_text() == "Running"
    requested = {
        **tool,
        "state": "approval-requested",
        "input": {"paths": ["/tmp/a"]},
        "approval": {"id": "ap-1"},
    }
    widget.deliver(patch(3, ["p", 1, 0, requested]))
    assert card.get_attribute("data-tool-state") == "approval-requested"
    card.locator("[data-agui=approve]").click()
    assert widget.sent() == [{"kind": "approval", "approvalId": "ap-1", "approved": True}]
    assert (
        card.locator("[data-agui=approve]").is_disabled() and card.locator("[data-agui=deny]").is_disabled()
    )
    card.locator("[data-agui=deny]").click(force=True)  # a second choice is not sent
    assert len(widget.sent()) == 1
    responded = {**requested, "state": "approval-responded", "approval": {"id": "ap-1", "approved": True}}
    widget.deliver(patch(4, ["p", 1, 0, responded]))
    assert card.locator("[data-agui=tool-state]").inner_text() == "Approved"
    assert not card.locator("[data-agui=approve]").is_visible()
    done = {**responded, "state": "output-available", "output": {"deleted": 1}}
    widget.deliver(patch(5, ["p", 1, 0, done]))
    assert card.locator("[data-agui=tool-state]").inner_text() == "Done"
    assert card.locator(".agui-tool-output pre").text_content() == '{\n  "deleted": 1\n}'

    second = {
        "type": "dynamic-tool",
        "toolName": "rm",
        "toolCallId": "c2",
        "state": "approval-requested",
        "input": {},
    }
    second["approval"] = {"id": "ap-2"}
    widget.deliver(patch(6, ["p", 1, 1, second]))
    denied = widget.locator("[data-part-type=dynamic-tool]")
    denied.locator("[data-agui=approval-reason]").fill("not today")
    denied.locator("[data-agui=deny]").click()
    assert widget.sent()[-1] == {
        "kind": "approval",
        "approvalId": "ap-2",
        "approved": False,
        "reason": "not today",
    }
    widget.deliver(
        patch(
            7,
            ["p", 1, 1, {**second, "state": "output-denied", "approval": {"id": "ap-2", "approved": False}}],
        )
    )
    assert denied.get_attribute("data-tool-state") == "output-denied"
    assert denied.locator("[data-agui=tool-state]").inner_text() == "Denied"


def snapshot(seq: int | None, *messages: dict, status: str = "ready", thread: str = "t1") -> dict:
    return {
        "kind": "snapshot",
        "seq": seq,
        "messages": list(messages),
        "status": status,
        "error": "",
        "threadId": thread,
    }


def test_a_view_shows_nothing_of_the_conversation_until_the_snapshot_answering_its_resync(chat):
    model = chat.new_model(answer_resync=False, suggestions=["What is the weather?"])
    widget = chat.mount(model)
    assert widget.sent(resyncs=True) == [{"kind": "resync"}]  # every mount asks
    assert chat.evaluate("(m) => window.agui.model(m).get('messages')", model) is None  # no such trait
    assert widget.root.get_attribute("data-loaded") == "false"
    assert widget.locator("[data-agui=loading]").text_content() == "Loading the conversation…"
    assert widget.locator("[data-agui=loading]").is_visible()
    # No flash of the empty state and its suggestions while the conversation loads.
    assert not widget.locator("[data-agui=empty-state]").is_visible()
    assert widget.locator("[data-agui=suggestion]:visible").count() == 0
    widget.deliver(patch(4, ["m", 0, user("u0", "dropped")]))  # patches wait for the snapshot
    assert widget.locator(".agui-message").count() == 0
    widget.deliver(snapshot(7, user("u1", "Hi"), answer("a1", {"type": "text", "text": "Hello!"})))
    assert texts(widget) == ["Hi", "Hello!"]
    assert widget.root.get_attribute("data-loaded") == "true"
    assert not widget.locator("[data-agui=loading]").is_visible()
    assert not widget.locator("[data-agui=empty-state]").is_visible()
    widget.deliver(patch(8, ["t", 1, 0, " How can I help?"]))
    assert texts(widget) == ["Hi", "Hello! How can I help?"]

    empty = chat.mount(chat.new_model(answer_resync=False, suggestions=["What is the weather?"]))
    empty.deliver(snapshot(1))
    assert empty.locator("[data-agui=empty-state]").is_visible()
    assert empty.locator("[data-agui=suggestion]").inner_text() == "What is the weather?"


def test_the_harness_kernel_answers_every_mount_with_its_conversation(chat):
    widget = chat.open(messages=[user("u1", "Hi")])
    assert widget.resyncs() == 1
    assert texts(widget) == ["Hi"]
    widget.deliver(patch(1, ["m", 1, answer("a1", {"type": "text", "text": "Hello"})]))
    assert widget.kernel_messages()[1]["parts"][0]["text"] == "Hello"


def test_gap_asks_for_resync_and_ignores_patches_until_the_snapshot(chat):
    widget = chat.mount(chat.new_model(answer_resync=False))
    widget.deliver(snapshot(0, answer("a", {"type": "text", "text": "one", "state": "done"})))
    widget.deliver(patch(1, ["t", 0, 0, " two"]))
    widget.deliver(patch(3, ["t", 0, 0, " LOST"]))
    assert widget.resyncs() == 2  # the mount's, and the gap's
    widget.deliver(patch(4, ["t", 0, 0, " IGNORED"]))
    assert texts(widget) == ["one two"]
    assert widget.resyncs() == 2  # not asked again right away
    widget.deliver(
        snapshot(
            9, answer("a", {"type": "text", "text": "one two three", "state": "done"}), status="streaming"
        )
    )
    assert texts(widget) == ["one two three"]
    widget.deliver(patch(10, ["t", 0, 0, " four"]))
    assert texts(widget) == ["one two three four"]
    assert widget.resyncs() == 2
    assert widget.sent() == []


def test_bad_op_asks_for_resync_and_the_kernels_snapshot_puts_it_right(chat):
    widget = chat.open(messages=[answer("a", {"type": "text", "text": "x", "state": "done"})])
    widget.deliver(patch(1, ["t", 5, 0, "nope"]))
    assert widget.resyncs() == 2
    widget.deliver(patch(2, ["t", 0, 0, "y"]))
    assert texts(widget) == ["xy"]


def test_a_snapshot_without_a_seq_takes_the_next_patch_as_the_base(chat):
    widget = chat.open(messages=[answer("a", {"type": "text", "text": "x", "state": "done"})])
    widget.deliver(patch(57, ["t", 0, 0, "y"]), patch(58, ["t", 0, 0, "z"]))
    assert texts(widget) == ["xyz"]
    assert widget.resyncs() == 1


def test_a_view_mounted_mid_run_gets_the_conversation_as_it_stands_and_the_first_view_keeps_its_dom(chat):
    model = chat.new_model(messages=[user("u", "q")])
    first = chat.mount(model)
    first.deliver(
        patch(1, ["status", "streaming", ""], ["m", 1, answer("a", {"type": "text", "text": "par"})])
    )
    first.deliver(patch(2, ["t", 1, 0, "tial"]))
    mark(first.message(0), "kept")
    second = chat.mount(model)
    assert second.resyncs() == 2
    assert texts(second) == texts(first) == ["q", "partial"]
    assert marked(first.message(0)) == "kept"  # the snapshot left unchanged messages' DOM alone
    first.deliver(patch(3, ["t", 1, 0, "!"]))
    assert texts(second) == texts(first) == ["q", "partial!"]
    assert second.locator("[data-agui=stop]").is_visible()


def test_a_snapshot_replaces_the_conversation_and_keeps_unchanged_dom(chat):
    messages = [user("u1", "a"), answer("a1", {"type": "text", "text": "b", "state": "done"})]
    widget = chat.open(messages=messages)
    mark(widget.message(0), "u1")
    mark(widget.message(1).locator("[data-part-type=text]"), "b")
    chat.evaluate(
        """() => { window.__mutated = new Set();
        new MutationObserver((records) => { for (const r of records) {
          const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
          window.__mutated.add(node.closest('[data-message-id]')?.dataset.messageId ?? 'list'); } })
          .observe(document.querySelector('.agui-messages'),
                   {subtree: true, childList: true, characterData: true, attributes: true}); }"""
    )
    widget.set("messages", [*messages, user("u2", "c")])  # the kernel's chat.messages = ...: a snapshot
    assert texts(widget) == ["a", "b", "c"]
    assert marked(widget.message(0)) == "u1"
    assert marked(widget.message(1).locator("[data-part-type=text]")) == "b"
    # Only the new message was drawn (and the old last one lost its "last" mark).
    assert chat.evaluate("() => [...window.__mutated].sort()") == ["a1", "list", "u2"]
    widget.set("messages", [messages[0]])
    assert texts(widget) == ["a"]


def test_len_meta_parts_and_status_ops(chat):
    widget = chat.open(
        messages=[user("u1", "a"), answer("a1", {"type": "text", "text": "b"}), user("u2", "c")]
    )
    widget.deliver(patch(1, ["len", 2]))
    assert texts(widget) == ["a", "b"]
    widget.deliver(
        patch(2, ["meta", 1, {"ag-ui": {"model": "m-1", "usage": {"inputTokens": 3, "outputTokens": 4}}}])
    )
    assert widget.message(1).locator("[data-agui=meta]").text_content() == "m-1 · 3 in · 4 out"
    widget.deliver(patch(3, ["parts", 1, [{"type": "step-start"}, {"type": "text", "text": "B"}]]))
    types = (
        widget.message(1)
        .locator("[data-part-type]")
        .evaluate_all("(els) => els.map((e) => e.dataset.partType)")
    )
    assert types == ["step-start", "text"]
    widget.deliver(patch(4, ["meta", 1, None], ["status", "error", "model overloaded"]))
    assert widget.message(1).locator("[data-agui=meta]").text_content() == ""
    assert widget.locator("[data-agui=error-text]").inner_text() == "model overloaded"
    assert widget.locator("[data-agui=status]").inner_text() == "Error"


def test_a_patch_touches_only_the_parts_it_names(chat):
    messages = [
        answer(f"a{i}", {"type": "text", "text": f"m{i}"}, {"type": "text", "text": "x"}) for i in range(20)
    ]
    widget = chat.open(messages=messages)
    chat.evaluate(
        """() => {
        window.__mutations = [];
        const list = document.querySelector('.agui-messages');
        new MutationObserver((records) => {
          for (const r of records) {
            const part = (r.target.nodeType === 1 ? r.target : r.target.parentElement).closest('[data-part-type]');
            const msg = (r.target.nodeType === 1 ? r.target : r.target.parentElement).closest('[data-message-id]');
            window.__mutations.push([msg?.dataset.messageId ?? null, part?.dataset.partIndex ?? null]);
          }
        }).observe(list, {subtree: true, childList: true, characterData: true, attributes: true});
      }"""
    )
    widget.deliver(patch(1, ["t", 7, 1, " more"], ["t", 7, 1, " text"]))
    mutations = chat.evaluate("() => window.__mutations")
    assert mutations and {tuple(m) for m in mutations} == {("a7", "1")}
    assert widget.message(7).locator("[data-part-index='1']").inner_text() == "x more text"


def test_unmount_removes_every_model_listener(chat):
    model = chat.new_model(messages=[user("u", "q")])
    chat.mount(model)
    assert chat.evaluate("(m) => window.agui.listenerCount(m)", model) > 0
    chat.evaluate("() => window.agui.unmount(0)")
    assert chat.evaluate("(m) => window.agui.listenerCount(m)", model) == 0
