"""The speech tests share a helper module next to them (importlib mode adds no test folders to sys.path)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
