"""Private: see agui_notebook/__init__.py for the public API.

Looking into recorded runs: assertions over a run (``_expect.py``), two runs side by side (``_diff.py``) and the
run input to continue a conversation from any event (``_fork.py``), each reading its source through
``_source.py``.
"""
