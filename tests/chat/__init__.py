"""Tests of agui_notebook.widget."""
