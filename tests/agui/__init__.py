"""Tests of agui_notebook.agui (a package, so test module names never clash with other folders)."""
