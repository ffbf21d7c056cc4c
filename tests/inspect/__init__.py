"""Tests of agui_notebook.inspect (a package, so test module names never clash with other folders)."""
