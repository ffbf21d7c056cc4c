"""PatchBatcher: coalescing rules with exact ops, seq numbering, the time policy, and the front end's own applier
(js/src/sync.js, through node) reproducing the kernel's messages from the patches."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from agui_notebook.ui._changes import MessageChange
from agui_notebook.widget._patches import DEFAULT_MAX_RATE, PatchBatcher, PatchError


def text_part(text: str, state: str = "streaming") -> dict[str, Any]:
    return {"type": "text", "text": text, "state": state}


def assistant(mid: str, *parts: dict[str, Any]) -> dict[str, Any]:
    return {"id": mid, "role": "assistant", "parts": list(parts)}


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_consecutive_text_deltas_merge_into_one_op():
    messages = [assistant("a", text_part("Hello"))]
    batcher = PatchBatcher(messages)
    for delta in [" wor", "ld", "!"]:
        messages[0]["parts"][0]["text"] += delta
        batcher.add(MessageChange("text", 0, 0, delta))
    assert batcher.flush() == {"kind": "patch", "seq": 1, "ops": [["t", 0, 0, " world!"]]}


def test_deltas_to_different_parts_keep_first_seen_order():
    messages = [assistant("a", {"type": "reasoning", "text": "", "state": "streaming"}, text_part(""))]
    batcher = PatchBatcher(messages)
    for pi, delta in [(1, "A"), (0, "r1"), (1, "B"), (0, "r2")]:
        messages[0]["parts"][pi]["text"] += delta
        batcher.add(MessageChange("text", 0, pi, delta))
    assert batcher.flush()["ops"] == [["t", 0, 1, "AB"], ["t", 0, 0, "r1r2"]]


def test_empty_delta_records_nothing():
    batcher = PatchBatcher([assistant("a", text_part("x"))])
    batcher.add(MessageChange("text", 0, 0, ""))
    assert not batcher.pending
    assert batcher.flush() is None
    assert batcher.seq == 0


def test_part_replacement_supersedes_its_pending_deltas_in_place():
    messages = [assistant("a", text_part("Hi"), text_part("x"))]
    batcher = PatchBatcher(messages)
    messages[0]["parts"][1]["text"] += "y"
    batcher.add(MessageChange("text", 0, 1, "y"))
    messages[0]["parts"][0]["text"] += " there"
    batcher.add(MessageChange("text", 0, 0, " there"))
    messages[0]["parts"][1] = text_part("xy", "done")
    batcher.add(MessageChange("part", 0, 1))
    messages[0]["parts"][1]["text"] += "z"  # a delta after the replacement rides on the part op
    batcher.add(MessageChange("text", 0, 1, "z"))
    assert batcher.flush()["ops"] == [
        ["p", 0, 1, {"type": "text", "text": "xyz", "state": "done"}],
        ["t", 0, 0, " there"],
    ]


def test_appended_part_absorbs_its_deltas():
    messages = [assistant("a")]
    batcher = PatchBatcher(messages)
    messages[0]["parts"].append(text_part(""))
    batcher.add(MessageChange("part", 0, 0))
    for delta in ["a", "b", "c"]:
        messages[0]["parts"][0]["text"] += delta
        batcher.add(MessageChange("text", 0, 0, delta))
    assert batcher.flush()["ops"] == [["p", 0, 0, text_part("abc")]]


def test_message_op_absorbs_every_later_change_to_that_message():
    messages: list[dict[str, Any]] = []
    batcher = PatchBatcher(messages)
    messages.append(assistant("a", text_part("")))
    batcher.add(MessageChange("message", 0))
    messages[0]["parts"][0]["text"] = "hi"
    messages[0]["parts"].append({"type": "step-start"})
    messages[0]["metadata"] = {"ag-ui": {"runId": "r"}}
    batcher.extend(
        [
            MessageChange("text", 0, 0, "hi"),
            MessageChange("part", 0, 1),
            MessageChange("metadata", 0),
            MessageChange("parts", 0),
            MessageChange("message", 0),
        ]
    )
    expected = {
        "id": "a",
        "role": "assistant",
        "parts": [text_part("hi"), {"type": "step-start"}],
        "metadata": {"ag-ui": {"runId": "r"}},
    }
    assert batcher.flush()["ops"] == [["m", 0, expected]]


def test_message_replacement_drops_earlier_ops_on_that_message_and_goes_last():
    messages = [assistant("a", text_part("x")), assistant("b", text_part("y"))]
    batcher = PatchBatcher(messages)
    messages[0]["parts"][0]["text"] += "1"
    batcher.add(MessageChange("text", 0, 0, "1"))
    messages[0]["metadata"] = {"k": 1}
    batcher.add(MessageChange("metadata", 0))
    messages[1]["parts"][0]["text"] += "2"
    batcher.add(MessageChange("text", 1, 0, "2"))
    messages[0] = assistant("a2", text_part("new"))
    batcher.add(MessageChange("message", 0))
    assert batcher.flush()["ops"] == [["t", 1, 0, "2"], ["m", 0, assistant("a2", text_part("new"))]]


def test_parts_op_supersedes_part_ops_and_absorbs_later_ones():
    messages = [assistant("a", text_part("x"), {"type": "step-start"}, text_part("y"))]
    batcher = PatchBatcher(messages)
    messages[0]["parts"][2]["text"] += "!"
    batcher.add(MessageChange("text", 0, 2, "!"))
    messages[0]["metadata"] = {"m": 1}
    batcher.add(MessageChange("metadata", 0))
    del messages[0]["parts"][1]
    batcher.add(MessageChange("parts", 0))
    messages[0]["parts"][1]["text"] += "?"
    batcher.add(MessageChange("text", 0, 1, "?"))
    batcher.add(MessageChange("part", 0, 0))
    assert batcher.flush()["ops"] == [["meta", 0, {"m": 1}], ["parts", 0, [text_part("x"), text_part("y!?")]]]


def test_metadata_ops_coalesce_and_absent_metadata_is_null():
    messages = [assistant("a")]
    batcher = PatchBatcher(messages)
    messages[0]["metadata"] = {"v": 1}
    batcher.add(MessageChange("metadata", 0))
    messages[0]["metadata"] = {"v": 2}
    batcher.add(MessageChange("metadata", 0))
    assert batcher.flush()["ops"] == [["meta", 0, {"v": 2}]]
    del messages[0]["metadata"]
    batcher.add(MessageChange("metadata", 0))
    assert batcher.flush()["ops"] == [["meta", 0, None]]


def test_truncate_drops_ops_on_removed_messages_then_new_ones_follow():
    messages = [assistant("u"), assistant("a", text_part("old"))]
    batcher = PatchBatcher(messages)
    messages[1]["parts"][0]["text"] += "er"
    batcher.add(MessageChange("text", 1, 0, "er"))
    messages[0]["metadata"] = {"kept": True}
    batcher.add(MessageChange("metadata", 0))
    del messages[1:]
    batcher.truncate(1)
    messages.append(assistant("a2", text_part("")))
    batcher.add(MessageChange("message", 1))
    assert batcher.flush()["ops"] == [
        ["meta", 0, {"kept": True}],
        ["len", 1],
        ["m", 1, assistant("a2", text_part(""))],
    ]


def test_latest_status_wins_and_comes_after_earlier_ops():
    messages = [assistant("a", text_part(""))]
    batcher = PatchBatcher(messages)
    batcher.set_status("submitted")
    messages[0]["parts"][0]["text"] = "x"
    batcher.add(MessageChange("text", 0, 0, "x"))
    batcher.set_status("error", "boom")
    assert batcher.flush()["ops"] == [["t", 0, 0, "x"], ["status", "error", "boom"]]


def test_patches_and_snapshots_share_the_seq_counter():
    messages = [assistant("a", text_part(""))]
    batcher = PatchBatcher(messages)
    batcher.set_status("streaming")
    assert batcher.flush()["seq"] == 1
    assert batcher.flush() is None
    messages[0]["parts"][0]["text"] = "x"
    batcher.add(MessageChange("text", 0, 0, "x"))
    snapshot = batcher.snapshot("streaming")
    assert snapshot == {
        "kind": "snapshot",
        "seq": 2,
        "messages": messages,
        "status": "streaming",
        "error": "",
    }
    assert not batcher.pending  # the snapshot carries the pending delta
    batcher.set_status("ready")
    assert batcher.flush() == {"kind": "patch", "seq": 3, "ops": [["status", "ready", ""]]}
    assert batcher.seq == 3


def test_time_policy_sends_at_most_max_rate_messages_per_second():
    clock = Clock()
    messages = [assistant("a", text_part(""))]
    batcher = PatchBatcher(messages, clock=clock)
    assert batcher.interval == pytest.approx(1 / DEFAULT_MAX_RATE)
    assert batcher.delay() is None and not batcher.due()
    messages[0]["parts"][0]["text"] += "a"
    batcher.add(MessageChange("text", 0, 0, "a"))
    assert batcher.due()  # the first change after a quiet spell goes out at once
    batcher.flush()
    clock.now = 0.01
    messages[0]["parts"][0]["text"] += "b"
    batcher.add(MessageChange("text", 0, 0, "b"))
    assert not batcher.due()
    assert batcher.delay() == pytest.approx(1 / 30 - 0.01)
    clock.now = 1 / 30
    assert batcher.due()

    # 3,000 deltas over 2 simulated seconds: the policy lets about 30 messages a second through.
    sent = 0
    for step in range(3000):
        clock.now = 1.0 + step * (2 / 3000)
        messages[0]["parts"][0]["text"] += "x"
        batcher.add(MessageChange("text", 0, 0, "x"))
        if batcher.due():
            batcher.flush()
            sent += 1
    assert 58 <= sent <= 61


def test_rate_is_configurable_and_explicit_now_overrides_the_clock():
    batcher = PatchBatcher([assistant("a", text_part("x"))], max_rate=10, clock=Clock())
    batcher.set_status("streaming")
    batcher.flush(now=5.0)
    batcher.set_status("ready")
    assert batcher.delay(now=5.05) == pytest.approx(0.05)
    assert batcher.due(now=5.1)
    with pytest.raises(ValueError, match="max_rate must be positive"):
        PatchBatcher([], max_rate=0)


def test_errors_name_the_op_and_the_location():
    messages = [assistant("a", text_part("abc"))]
    batcher = PatchBatcher(messages)
    batcher.add(MessageChange("text", 0, 0, "zz"))
    with pytest.raises(
        PatchError, match=r"patch 1 op 0 \(t\): part 0 of message 0 does not end with the recorded text"
    ):
        batcher.flush()
    batcher = PatchBatcher(messages)
    batcher.add(MessageChange("part", 3, 0))
    with pytest.raises(PatchError, match=r"patch 1 op 0 \(p\): message 3 does not exist \(have 1\)"):
        batcher.flush()
    batcher = PatchBatcher(messages)
    batcher.add(MessageChange("part", 0, 4))
    with pytest.raises(PatchError, match=r"message 0 has no part 4 \(have 1\)"):
        batcher.flush()
    with pytest.raises(PatchError, match="part index -1 is negative"):
        batcher.add(MessageChange("text", 0, -1, "x"))
    with pytest.raises(PatchError, match="unknown kind 'bogus'"):
        batcher.add(MessageChange("bogus", 0))  # type: ignore[arg-type]


def test_docstring_example():
    messages = [
        {"id": "a", "role": "assistant", "parts": [{"type": "text", "text": "Hel", "state": "streaming"}]}
    ]
    batcher = PatchBatcher(messages)
    batcher.add(MessageChange("message", 0))
    messages[0]["parts"][0]["text"] += "lo"
    batcher.add(MessageChange("text", 0, 0, "lo"))
    assert batcher.flush()["ops"] == [
        ["m", 0, {"id": "a", "role": "assistant", "parts": [text_part("Hello")]}]
    ]


# -- the front end's applier reproduces the kernel's list ------------------------------------------------------


def random_part(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(["text", "text", "reasoning", "tool", "step"])
    if kind == "step":
        return {"type": "step-start"}
    if kind == "tool":
        return {
            "type": "tool-t",
            "toolCallId": f"c{rng.randrange(99)}",
            "state": "input-streaming",
            "input": {},
        }
    return {"type": kind, "text": rng.choice(["", "a", "héllo "]), "state": "streaming"}


def random_scenario(
    seed: int, steps: int = 120
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[Any]]:
    """Random reducer-like edits with their change records; returns (initial, wire messages, expected states)."""
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = [assistant("m0", text_part("start"))]
    initial = copy.deepcopy(messages)
    batcher = PatchBatcher(messages)
    wire: list[dict[str, Any]] = []
    expected: list[Any] = []
    status = ("ready", "")
    for step in range(steps):
        action = rng.random()
        mi = rng.randrange(len(messages)) if messages else None
        if action < 0.08 or mi is None:
            messages.append(assistant(f"m{step}", *[random_part(rng) for _ in range(rng.randrange(3))]))
            batcher.add(MessageChange("message", len(messages) - 1))
        elif action < 0.5:
            texts = [pi for pi, part in enumerate(messages[mi]["parts"]) if "text" in part]
            if texts:
                pi = rng.choice(texts)
                delta = rng.choice(["x", "yz", " ", "😀", "\n\n"])
                messages[mi]["parts"][pi]["text"] += delta
                batcher.add(MessageChange("text", mi, pi, delta))
        elif action < 0.62:
            messages[mi]["parts"].append(random_part(rng))
            batcher.add(MessageChange("part", mi, len(messages[mi]["parts"]) - 1))
        elif action < 0.7 and messages[mi]["parts"]:
            pi = rng.randrange(len(messages[mi]["parts"]))
            messages[mi]["parts"][pi] = {**messages[mi]["parts"][pi], "state": "done"}
            batcher.add(MessageChange("part", mi, pi))
        elif action < 0.76:
            messages[mi]["metadata"] = {"ag-ui": {"step": step}}
            batcher.add(MessageChange("metadata", mi))
        elif action < 0.81 and messages[mi]["parts"]:
            del messages[mi]["parts"][rng.randrange(len(messages[mi]["parts"]))]
            batcher.add(MessageChange("parts", mi))
        elif action < 0.84:
            messages[mi] = assistant(f"r{step}", text_part("replaced"))
            batcher.add(MessageChange("message", mi))
        elif action < 0.87:
            length = rng.randrange(len(messages) + 1)
            del messages[length:]
            batcher.truncate(length)
        elif action < 0.9:
            status = rng.choice([("streaming", ""), ("ready", ""), ("error", "bad")])
            batcher.set_status(*status)
        if rng.random() < 0.25:
            message = batcher.snapshot(*status) if rng.random() < 0.05 else batcher.flush()
            if message is not None:
                wire.append(json.loads(json.dumps(message)))
                expected.append(
                    {"messages": copy.deepcopy(messages), "status": status[0], "error": status[1]}
                )
    final = batcher.flush()
    if final is not None:
        wire.append(json.loads(json.dumps(final)))
        expected.append({"messages": copy.deepcopy(messages), "status": status[0], "error": status[1]})
    return initial, wire, expected


@pytest.mark.node
def test_front_end_applier_reproduces_the_kernel_messages(node_reference):
    scenarios = [random_scenario(seed) for seed in range(60)]
    result = node_reference(
        "../test-harness/apply_patches.mjs",
        {"cases": [{"initial": initial, "messages": wire} for initial, wire, _ in scenarios]},
    )
    assert sum(len(wire) for _, wire, _ in scenarios) > 600
    for seed, ((_, wire, expected), states) in enumerate(zip(scenarios, result["cases"], strict=True)):
        assert [w["seq"] for w in wire] == list(range(1, len(wire) + 1)), seed
        assert states == expected, f"seed {seed}"
