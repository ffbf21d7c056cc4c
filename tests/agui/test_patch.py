"""apply_json_patch against fast-json-patch's validating, non-mutating applyPatch (what @ag-ui/client uses)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from agui_notebook.agui._patch import JsonPatchError, apply_json_patch, json_equal

DOC = {"a": {"b": [1, 2, {"c": None}], "t~x": 1, "s/l": 2}, "list": [], "n": 0, "f": False, "": "empty key"}

CASES: list[tuple[str, Any, list[Any]]] = [
    ("add-member", DOC, [{"op": "add", "path": "/z", "value": {"deep": [1]}}]),
    ("add-overwrites-member", DOC, [{"op": "add", "path": "/n", "value": 5}]),
    ("add-array-insert", DOC, [{"op": "add", "path": "/a/b/1", "value": "x"}]),
    ("add-array-end-index", DOC, [{"op": "add", "path": "/a/b/3", "value": "x"}]),
    ("add-array-dash", DOC, [{"op": "add", "path": "/a/b/-", "value": "x"}]),
    ("add-array-past-end", DOC, [{"op": "add", "path": "/a/b/4", "value": "x"}]),
    ("add-array-leading-zero", DOC, [{"op": "add", "path": "/a/b/01", "value": "x"}]),
    ("add-array-bad-index", DOC, [{"op": "add", "path": "/a/b/x", "value": 1}]),
    ("add-missing-parent", DOC, [{"op": "add", "path": "/nope/x", "value": 1}]),
    ("add-through-primitive", DOC, [{"op": "add", "path": "/n/x", "value": 1}]),
    ("add-root", DOC, [{"op": "add", "path": "", "value": [1]}]),
    ("add-empty-key", DOC, [{"op": "add", "path": "/", "value": "new"}]),
    ("add-null-value", DOC, [{"op": "add", "path": "/v", "value": None}]),
    ("escapes", DOC, [{"op": "replace", "path": "/a/t~0x", "value": 9}, {"op": "remove", "path": "/a/s~1l"}]),
    ("remove-member", DOC, [{"op": "remove", "path": "/a/b"}]),
    ("remove-array-item", DOC, [{"op": "remove", "path": "/a/b/0"}]),
    ("remove-missing", DOC, [{"op": "remove", "path": "/zz"}]),
    ("remove-array-dash", DOC, [{"op": "remove", "path": "/a/b/-"}]),
    ("remove-array-out-of-range", DOC, [{"op": "remove", "path": "/a/b/3"}]),
    ("remove-root", DOC, [{"op": "remove", "path": ""}]),
    ("replace-null-member", DOC, [{"op": "replace", "path": "/a/b/2/c", "value": 1}]),
    ("replace-missing", DOC, [{"op": "replace", "path": "/a/q", "value": 1}]),
    ("replace-root", DOC, [{"op": "replace", "path": "", "value": "s"}]),
    ("move-member", DOC, [{"op": "move", "from": "/a/b", "path": "/moved"}]),
    ("move-array-item-to-end", DOC, [{"op": "move", "from": "/a/b/0", "path": "/a/b/-"}]),
    ("move-to-array-past-end", DOC, [{"op": "move", "from": "/n", "path": "/list/5"}]),
    ("move-missing-from", DOC, [{"op": "move", "from": "/nope", "path": "/x"}]),
    ("move-without-from", DOC, [{"op": "move", "path": "/x"}]),
    ("move-to-root", DOC, [{"op": "move", "from": "/a", "path": ""}]),
    (
        "copy-then-change-copy",
        DOC,
        [{"op": "copy", "from": "/a", "path": "/c"}, {"op": "add", "path": "/c/new", "value": 1}],
    ),
    (
        "copy-then-change-source",
        DOC,
        [{"op": "copy", "from": "/a/b", "path": "/c"}, {"op": "add", "path": "/a/b/-", "value": 1}],
    ),
    (
        "change-then-copy-then-change",
        DOC,
        [
            {"op": "add", "path": "/a/x", "value": 1},
            {"op": "copy", "from": "/a", "path": "/c"},
            {"op": "add", "path": "/a/y", "value": 2},
        ],
    ),
    ("copy-missing-from", DOC, [{"op": "copy", "from": "/q", "path": "/c"}]),
    ("test-passes", DOC, [{"op": "test", "path": "/a/b", "value": [1, 2, {"c": None}]}]),
    ("test-number-vs-float", DOC, [{"op": "test", "path": "/n", "value": 0.0}]),
    ("test-bool-vs-number", DOC, [{"op": "test", "path": "/f", "value": 0}]),
    ("test-fails", DOC, [{"op": "test", "path": "/n", "value": 1}]),
    ("test-missing", DOC, [{"op": "test", "path": "/q", "value": None}]),
    ("test-root", DOC, [{"op": "test", "path": "", "value": DOC}]),
    ("test-leading-zero-index", DOC, [{"op": "test", "path": "/a/b/01", "value": 2}]),
    (
        "failure-is-atomic",
        DOC,
        [{"op": "add", "path": "/new", "value": 1}, {"op": "remove", "path": "/nope"}],
    ),
    ("unknown-op", DOC, [{"op": "merge", "path": "/a", "value": 1}]),
    ("missing-value", DOC, [{"op": "add", "path": "/a"}]),
    ("path-without-slash", DOC, [{"op": "add", "path": "a", "value": 1}]),
    ("operation-not-object", DOC, [["add", "/a", 1]]),
    ("empty-patch", DOC, []),
    ("primitive-document", 5, [{"op": "replace", "path": "", "value": 6}]),
    ("array-document", [1, [2]], [{"op": "add", "path": "/1/0", "value": 0}, {"op": "remove", "path": "/0"}]),
    (
        "sequence-builds-on-itself",
        {},
        [
            {"op": "add", "path": "/items", "value": []},
            {"op": "add", "path": "/items/-", "value": {"id": 1}},
            {"op": "add", "path": "/items/0/tags", "value": ["x"]},
            {"op": "move", "from": "/items/0/tags", "path": "/tags"},
            {"op": "copy", "from": "/tags/0", "path": "/first"},
        ],
    ),
    ("extra-members-ignored", DOC, [{"op": "remove", "path": "/n", "value": "ignored"}]),
]


def _random_pointer(rng: random.Random, doc: Any, existing: bool) -> str:
    path, node = "", doc
    while isinstance(node, (dict, list)) and node and rng.random() < 0.7:
        if isinstance(node, dict):
            key = rng.choice(list(node))
            path, node = path + "/" + key.replace("~", "~0").replace("/", "~1"), node[key]
        else:
            index = rng.randrange(len(node))
            path, node = f"{path}/{index}", node[index]
    if not existing:
        path += "/" + rng.choice(["new", "-", "0", "9", "x"])
    return path


def _random_cases(count: int) -> list[tuple[str, Any, list[Any]]]:
    rng = random.Random(6902)
    cases = []
    for number in range(count):
        doc = {"a": {"b": [1, {"c": [2, 3]}], "d": "s"}, "e": [[], {}], "f": None}
        patch = []
        for _ in range(rng.randint(1, 4)):
            op = rng.choice(["add", "remove", "replace", "move", "copy", "test"])
            operation: dict[str, Any] = {
                "op": op,
                "path": _random_pointer(rng, doc, existing=op != "add" and rng.random() < 0.85),
            }
            if op in ("move", "copy"):
                operation["from"] = _random_pointer(rng, doc, existing=rng.random() < 0.9)
            if op in ("add", "replace", "test"):
                operation["value"] = rng.choice([1, "v", None, [1], {"k": True}])
            patch.append(operation)
        cases.append((f"random-{number}", doc, patch))
    return cases


ALL_CASES = CASES + _random_cases(250)


def _moves_into_itself(patch: list[Any]) -> bool:
    return any(
        isinstance(o, dict)
        and o.get("op") == "move"
        and ((o["from"] == "" and o["path"] != "") or o["path"].startswith(o["from"] + "/"))
        for o in patch
        if isinstance(o, dict) and isinstance(o.get("from"), str) and isinstance(o.get("path"), str)
    )


def ours(document: Any, patch: list[Any]) -> dict[str, Any]:
    before = copy.deepcopy(document)
    try:
        result = {"document": apply_json_patch(document, patch)}
    except JsonPatchError as exc:
        result = {"error": str(exc)}
    result["unchanged"] = json_equal(before, document)
    return result


@pytest.fixture(scope="module")
def reference() -> list[dict[str, Any]]:
    from tests.support.node import run_node_reference

    return run_node_reference(
        "agui_patch.mjs", {"cases": [{"document": d, "patch": p} for _, d, p in ALL_CASES]}
    )


@pytest.mark.node
def test_every_case_matches_fast_json_patch(reference: list[dict[str, Any]]) -> None:
    mismatches = []
    for (name, document, patch), theirs in zip(ALL_CASES, reference, strict=True):
        mine = ours(document, patch)
        if theirs.get("circular") or theirs.get("undefined") or _moves_into_itself(patch):
            # Where fast-json-patch produces no JSON document at all (a cycle from a value moved into its own
            # child, ``undefined`` from a root copy of a missing path) or breaks RFC 6902 section 4.4 (a move
            # whose from is a prefix of its path), we reject the operation instead.
            assert "error" in mine, (name, patch, mine)
            continue
        same = ("error" in mine) == ("error" in theirs) and json_equal(
            mine.get("document"), theirs.get("document")
        )
        if not same or not mine["unchanged"]:
            mismatches.append((name, patch, mine, theirs))
    assert mismatches == []
    # The random cases exercise both outcomes.
    outcomes = ["error" in r for r in reference[len(CASES) :]]
    assert 50 < sum(outcomes) < 200


def test_errors_name_the_operation_index_op_and_path() -> None:
    with pytest.raises(JsonPatchError) as caught:
        apply_json_patch({"a": 1}, [{"op": "test", "path": "/a", "value": 1}, {"op": "remove", "path": "/b"}])
    assert str(caught.value) == "operation 1 (remove '/b'): path does not exist"
    assert caught.value.index == 1
    with pytest.raises(
        JsonPatchError, match=r"^operation 0 \(add '/a/b'\): cannot add at a path whose parent"
    ):
        apply_json_patch({}, [{"op": "add", "path": "/a/b", "value": 1}])


def test_unchanged_containers_are_shared_and_changed_ones_copied() -> None:
    document = {"keep": {"big": [1, 2, 3]}, "change": {"x": 1}}
    result = apply_json_patch(document, [{"op": "add", "path": "/change/y", "value": 2}])
    assert result == {"keep": {"big": [1, 2, 3]}, "change": {"x": 1, "y": 2}}
    assert result["keep"] is document["keep"]
    assert document["change"] == {"x": 1}


def test_in_place_mutates_the_document() -> None:
    document = {"a": [1]}
    result = apply_json_patch(document, [{"op": "add", "path": "/a/-", "value": 2}], in_place=True)
    assert result is document
    assert document == {"a": [1, 2]}


def test_json_equal_follows_json_types() -> None:
    assert json_equal({"a": [1, 2.0]}, {"a": [1.0, 2]})
    assert not json_equal(True, 1)
    assert not json_equal({"a": 0}, {"a": False})
    assert not json_equal([1], {"0": 1})
    assert not json_equal({"a": None}, {"b": None})
