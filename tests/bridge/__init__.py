"""Tests of agui_notebook.bridge."""
