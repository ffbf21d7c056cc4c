"""Tests of agui_notebook.ui (a package so module names cannot clash with other test folders)."""
