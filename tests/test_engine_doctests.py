"""The examples in the engine's docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["engine.tiles", "engine.lattice", "engine.moves", "engine.scoring", "engine.openings"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
