"""Private: see agui_notebook/__init__.py for the public API.

The chat core, with no widget in it: a conversation's threads, message tree, run loop (agents, frontend tools,
approvals, interrupts, stop, follow-up runs), state, feedback and its log (``_chat.py`` and the modules it uses).
``widget/`` shows a chat; ``logs/`` and ``inspection/`` read its log.
"""
