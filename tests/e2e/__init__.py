"""End-to-end tests in a real JupyterLab and Notebook 7."""
