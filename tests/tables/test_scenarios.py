"""The public scenarios: `voicejack moves` must print exactly the expected phrases."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCENARIOS = Path(__file__).resolve().parents[2].parent / "shared" / "scenarios"

CASES = sorted(SCENARIOS.glob("*.json")) if SCENARIOS.is_dir() else []


@pytest.mark.skipif(not CASES, reason="shared/scenarios is not beside this checkout")
@pytest.mark.parametrize("table", CASES, ids=lambda p: p.stem)
def test_moves_command_prints_expected_phrases(table: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "voicejack", "moves", str(table)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == table.with_suffix(".expected").read_text(encoding="utf-8").rstrip("\n") + "\n"
