"""Private: see agui_notebook/__init__.py for the public API.

The AI SDK side: UIMessage models and validation, partial JSON, and the UI message stream reducer. Sibling
subpackages (the bridge, the widget) import from its modules.
"""
