"""astmcp: a code graph and reviewed refactoring plans for coding agents."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
