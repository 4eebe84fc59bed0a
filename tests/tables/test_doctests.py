"""The examples in the package docs run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["voicejack.engine", "voicejack.language", "voicejack.bots"])
def test_package_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
