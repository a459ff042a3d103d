"""Validate a URDF with libsdformat's own parser (``ign sdf -k``), as Gazebo will read it."""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from .errors import DescriptionError

_ANSI = re.compile(r'\x1b\[[0-9;]*m')
# Printed by every `ign` call on Debian; it says nothing about the file.
_NOISE = 'libignition-tools-backward.so'


def validate_with_sdformat(urdf_text: str, name: str = 'robot') -> None:
    """Raise DescriptionError with the parser's messages unless ``ign sdf -k`` says the URDF is
    valid."""
    ign = shutil.which('ign')
    if ign is None:
        raise DescriptionError(
            f'{name}.urdf: `ign` not found: install libsdformat-dev and ignition-tools (tools/setup.sh)')
    with tempfile.TemporaryDirectory(prefix='zoo_sdf_') as tmp:
        path = Path(tmp) / f'{name}.urdf'
        path.write_text(urdf_text, encoding='utf-8')
        proc = subprocess.run([ign, 'sdf', '-k', str(path)], capture_output=True, text=True,
                              timeout=120, check=False)
    output = _ANSI.sub('', proc.stdout + '\n' + proc.stderr)
    lines = [ln.strip() for ln in output.splitlines() if ln.strip() and _NOISE not in ln]
    if proc.returncode != 0 or 'Valid.' not in lines:
        detail = ' | '.join(ln.replace(tmp, '') for ln in lines) or f'exit code {proc.returncode}'
        raise DescriptionError(f'{name}.urdf: ign sdf -k failed: {detail}')
