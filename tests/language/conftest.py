"""The command-language tests share positions and the case table as plain modules next to them."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)  # pytest runs with --import-mode=importlib, which adds no test folders
