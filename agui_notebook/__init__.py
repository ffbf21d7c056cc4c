"""agui-notebook: prototype, watch and analyse AI agents in Jupyter."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
