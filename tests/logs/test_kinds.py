"""The event-type families of logs/_kinds.py against the protocol's own models (ag_ui.core)."""

from __future__ import annotations

import ag_ui.core as core
import pytest
from pydantic import BaseModel

from agui_notebook.logs import _kinds
from agui_notebook.logs._load import load_events


def _event_models() -> dict[str, type[BaseModel]]:
    """Every ag_ui.core event model by its ``type``."""
    models: dict[str, type[BaseModel]] = {}
    for name in dir(core):
        model = getattr(core, name)
        if isinstance(model, type) and issubclass(model, BaseModel) and "type" in model.model_fields:
            event_type = model.model_fields["type"].default
            if isinstance(event_type, core.EventType):
                models[event_type.value] = model
    return models


MODELS = _event_models()
FAMILIES = {
    name: getattr(_kinds, name)
    for name in _kinds.__all__
    if name.endswith("_TYPES") and name != "FIELD_TYPES"
}


def test_the_protocol_has_a_model_for_every_event_type():
    assert set(MODELS) == set(_kinds.EVENT_TYPES) == {t.value for t in core.EventType}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_family_names_real_event_types(family):
    assert FAMILIES[family] <= _kinds.EVENT_TYPES


@pytest.mark.parametrize("field", sorted(_kinds.FIELD_TYPES))
def test_a_sparsely_read_field_is_read_from_every_type_that_carries_it(field):
    carriers = {t for t, m in MODELS.items() if field in m.model_json_schema(by_alias=True)["properties"]}
    assert _kinds.FIELD_TYPES[field] == carriers


def test_chunk_ids_are_the_fields_the_chunk_models_have():
    for event_type, key in _kinds.CHUNK_ID_KEYS.items():
        assert key in MODELS[event_type].model_json_schema(by_alias=True)["properties"]
    assert set(_kinds.CHUNK_ID_KEYS) == {t for t in _kinds.EVENT_TYPES if t.endswith("_CHUNK")}


def test_a_subagent_keeps_the_message_it_started_from():
    df = load_events(
        [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            {"type": "SUBAGENT_STARTED", "subagentRunId": "s", "name": "researcher", "parentMessageId": "m1"},
        ]
    )
    assert df["parent_message_id"].tolist()[1] == "m1"
