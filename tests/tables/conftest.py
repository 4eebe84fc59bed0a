from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

def minimal_table(**overrides: Any) -> dict[str, Any]:
    """The table-format example: 4 players in teams, all marbles home, red to act."""
    table: dict[str, Any] = {
        "format": "voicejack-table/1",
        "mode": "regular",
        "teams": True,
        "players": [
            {"colour": "red", "name": "You", "kind": "human", "hand": ["K", "6", "4", "9"]},
            {"colour": "blue", "hand": ["2", "3", "5", "8"]},
            {"colour": "green", "hand": ["A", "Q", "J", "10"]},
            {"colour": "yellow", "hand": ["7", "7", "2", "3"]},
        ],
        "marbles": {colour: ["home"] * 4 for colour in ("red", "blue", "green", "yellow")},
        "turn": "red",
        "seed": 7,
    }
    table.update(overrides)
    return table


@pytest.fixture
def table_data():
    """A factory for table dicts: ``table_data(turn="blue")``."""
    return minimal_table


@pytest.fixture
def write_table(tmp_path: Path):
    def write(data: Any, name: str = "table.json") -> Path:
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        return path

    return write
