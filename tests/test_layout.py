"""Issue 26: the README's "## Layout" shows the architecture as it is: every package under src/
(a folder with a package.xml) is named there as `<name>/`, and nothing named there is gone."""
from __future__ import annotations

import re
from pathlib import Path

WS = Path(__file__).resolve().parents[1]


def layout_section() -> str:
    text = (WS / 'README.md').read_text(encoding='utf-8')
    match = re.search(r'^## Layout\n(.*?)(?=^## )', text, re.S | re.M)
    assert match, 'README.md has no "## Layout" section'
    return match.group(1)


def test_every_package_is_in_the_readme_layout():
    layout = layout_section()
    packages = sorted(p.parent.name for p in (WS / 'src').glob('*/package.xml'))
    assert len(packages) >= 24
    missing = [p for p in packages if not re.search(rf'(?<![\w/]){re.escape(p)}/', layout)]
    assert not missing, f'README.md "## Layout" lacks {missing}: add a one-line role for each'


def test_the_layout_names_no_package_that_is_gone():
    # package lines are indented two spaces: "  name/ [name/ ...]   role"
    heads = [m.group(1) for m in re.finditer(r'^  (\S.*?)(?:\s{2,}|$)', layout_section(), re.M)]
    named = {n.rstrip('/') for head in heads for n in head.split() if n.endswith('/')}
    assert len(named) >= 24
    gone = sorted(n for n in named if not (WS / 'src' / n / 'package.xml').is_file())
    assert not gone, f'README.md "## Layout" names packages src/ does not have: {gone}'
