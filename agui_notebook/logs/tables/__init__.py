"""Private: see agui_notebook/__init__.py for the public API."""
