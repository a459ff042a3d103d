"""Shared fixtures: test data paths and small scene builders."""
from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / 'data'


@pytest.fixture
def data_dir() -> Path:
    return DATA


def urdf_text(name: str, **replace: str) -> str:
    """A test URDF, with literal text replacements (e.g. a different effort limit)."""
    text = (DATA / name).read_text()
    for old, new in replace.items():
        assert old in text, f'{old} not in {name}'
        text = text.replace(old, new)
    return text
