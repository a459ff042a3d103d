"""Run folders: where a run writes, such that nothing of another run is lost or mixed in.

- no ``--output``: a fresh folder ``./out/<scenario>/<YYYY-mm-dd_HH-MM-SS>`` (relative to the
  user's current directory, like ``ros2 bag record``), and ``./out/<scenario>/latest`` points at it;
- ``--output D``: D must be new or empty; a D that holds another run's outputs is refused unless
  the user says ``--overwrite``, which removes that run's outputs (only the files a run writes:
  ``summary.json``, ``bag/``, ``snapshot.png``, the report's plots) and keeps anything else;
- a file where a folder is expected is refused before any work.
"""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from .scenario import ScenarioError

# what a run writes into its folder (report.py names the plots)
RUN_FILES = ('summary.json', 'bag', 'snapshot.png')
RUN_PLOT_SUFFIXES = ('_trajectory.png', '_joints.png')


def run_outputs(folder: Path) -> list[Path]:
    """The files of an earlier run in ``folder``: what every run writes, and what its nodes
    wrote (summary.json's ``files``, e.g. a tracker's plan.npz)."""
    found = [folder / name for name in RUN_FILES if (folder / name).exists()
             or (folder / name).is_symlink()]
    found += sorted(p for p in folder.glob('*.png') if p.name.endswith(RUN_PLOT_SUFFIXES))
    try:
        listed = json.loads((folder / 'summary.json').read_text()).get('files', [])
    except (OSError, ValueError, AttributeError):
        listed = []
    for name in listed if isinstance(listed, list) else []:
        path = (folder / str(name)).resolve()
        if path.parent == folder.resolve() and path.exists() and path not in found:
            found.append(path)  # only plain entries of this folder: never outside it
    return found


def prepare_output(output: Path | None, scenario: str, *, overwrite: bool = False) -> Path:
    """The folder this run writes into, created; see the module docstring."""
    if output is None:
        return fresh_run_folder(Path.cwd() / 'out' / scenario)
    output = Path(os.path.expanduser(output)).absolute()  # relative to the user's directory
    if output.exists() and not output.is_dir():
        raise ScenarioError(f'--output {output}: is a file; expected a folder (new, empty, or an '
                            'earlier run with --overwrite)')
    if output.is_dir():
        earlier = run_outputs(output)
        if earlier and not overwrite:
            names = ', '.join(p.name for p in earlier)
            raise ScenarioError(f'--output {output}: holds an earlier run ({names}); choose '
                                'another folder, or add --overwrite to replace that run')
        for path in earlier:  # the user said --overwrite
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ScenarioError(f'--output {output}: cannot create the folder ({exc.strerror})') \
            from None
    return output


def fresh_run_folder(root: Path) -> Path:
    """A new folder named after the current time under ``root`` (``_2``, ``_3`` ... when two
    runs start in the same second), and ``root/latest`` pointing at it."""
    stamp = time.strftime('%Y-%m-%d_%H-%M-%S')
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ScenarioError(f'{root}: cannot create the output folder ({exc.strerror}); give '
                            'another with --output') from None
    for n in range(1, 1000):
        folder = root / (stamp if n == 1 else f'{stamp}_{n}')
        try:
            folder.mkdir()  # atomic: a concurrent run gets the next name
        except FileExistsError:
            continue
        _point_latest(root / 'latest', folder.name)
        return folder
    raise ScenarioError(f'{root}: too many runs started in the same second')


def _point_latest(link: Path, target: str) -> None:
    if link.exists() and not link.is_symlink():
        return  # a user's own file or folder named 'latest': leave it
    tmp = link.with_name(f'.latest.{os.getpid()}')
    try:
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(target)
        os.replace(tmp, link)
    except OSError:
        tmp.unlink(missing_ok=True)  # a file system without symlinks: no 'latest', no harm


def write_atomically(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all (a kill mid-write leaves the old file or none)."""
    tmp = path.with_name(f'.{path.name}.{os.getpid()}.tmp')
    tmp.write_text(text)
    os.replace(tmp, path)
