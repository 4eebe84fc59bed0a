"""Fixtures for the narration tests: one narrator per verbosity."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from voicejack.narration import Narrator, Verbosity

# The suite runs with --import-mode=importlib, which puts no test folder on
# sys.path; the test modules import their position builder from narration_helpers.py.
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture
def full() -> Narrator:
    return Narrator(Verbosity.FULL)


@pytest.fixture
def brief() -> Narrator:
    return Narrator(Verbosity.BRIEF)
