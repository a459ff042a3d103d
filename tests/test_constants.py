"""Issue 26: one owner per concept. Earth's g is zoo_description_tools.physics.STANDARD_GRAVITY;
no package code writes it (or its 9.81 rounding) as a number literal (docstrings and comments
may quote it)."""
from __future__ import annotations

import ast
from pathlib import Path

from zoo_description_tools.physics import EARTH_GRAVITY, STANDARD_GRAVITY

WS = Path(__file__).resolve().parents[1]
OWNER = WS / 'src' / 'zoo_description_tools' / 'zoo_description_tools' / 'physics.py'
EARTH_G = (9.81, 9.80665)


def test_the_value_is_the_standard_one():
    assert STANDARD_GRAVITY == 9.80665 and EARTH_GRAVITY == (0.0, 0.0, -9.80665)


def test_no_package_code_writes_earth_g_as_a_number():
    hits = []
    for path in sorted((WS / 'src').glob('*/*/**/*.py')):
        rel = path.relative_to(WS / 'src')
        if path == OWNER or rel.parts[1] in ('test', 'examples'):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
            if isinstance(node, ast.Constant) and type(node.value) is float \
                    and abs(node.value) in EARTH_G:
                hits.append(f'src/{rel}:{node.lineno}: {node.value}')
    assert not hits, 'import zoo_description_tools.physics.STANDARD_GRAVITY instead:\n' + \
        '\n'.join(hits)
