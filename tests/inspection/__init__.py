"""Tests of agui_notebook.inspection (a package, so test module names never clash with other folders)."""
