"""The AI SDK's rule for message metadata: a deep merge, nested objects merged key by key.

AG-UI folds metadata shallowly instead (``agui/_metadata.py``); the two protocols disagree, so each side keeps
its own rule.
"""

from __future__ import annotations

from agui_notebook._types import JSON

__all__ = ["deep_merge_metadata"]

# Keys the AI SDK's mergeObjects skips, so metadata cannot reach an object's prototype.
_FORBIDDEN_MERGE_KEYS = frozenset({"__proto__", "constructor", "prototype"})


def deep_merge_metadata(base: JSON, overrides: JSON) -> JSON:
    """Deep-merge message metadata as the AI SDK does: nested objects merge, everything else is replaced.

    Neither argument is modified; the result shares unchanged nested values with them.

    >>> deep_merge_metadata({"usage": {"input": 3}, "model": "a"}, {"usage": {"output": 5}})
    {'usage': {'input': 3, 'output': 5}, 'model': 'a'}
    >>> deep_merge_metadata({"tags": [1]}, {"tags": [2], "__proto__": {"x": 1}})
    {'tags': [2]}
    """
    if type(base) is not dict or type(overrides) is not dict:
        return overrides
    result = dict(base)
    pending = [(result, overrides)]  # iterative, so any depth merges (the AI SDK recurses on a deeper stack)
    while pending:
        target, source = pending.pop()
        for key, value in source.items():
            if key in _FORBIDDEN_MERGE_KEYS:
                continue
            current = target.get(key)
            if type(current) is dict and type(value) is dict:
                merged = dict(current)
                target[key] = merged
                pending.append((merged, value))
            else:
                target[key] = value
    return result
