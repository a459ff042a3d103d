"""Run folders: where a run writes, such that nothing of another run is lost or mixed in.

- no ``--output``: a fresh folder ``./out/<scenario>/<YYYY-mm-dd_HH-MM-SS>`` (relative to the
  user's current directory, like ``ros2 bag record``), and ``./out/<scenario>/latest`` points at it;
- ``--output D``: D must be new or empty; a D that holds another run's outputs is refused unless
  the user says ``--overwrite``; then the new run writes into ``D/unfinished-run-<time>/`` and
  only once it has ended (finished, or stopped by a signal) its files replace the earlier run's
  (only the files a run writes: ``summary.json``, ``bag/``, ``snapshot.png``, the report's
  plots; anything else stays). A run that fails, or is killed, leaves the earlier run as it was
  and its own outputs in that folder;
- a file where a folder is expected is refused before any work.

:class:`RunFolder` checks all of this without touching anything; ``open()`` creates the folder
once the run's nodes are built (every parameter checked), ``commit()`` swaps the run in.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import time
from pathlib import Path
from typing import Any

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


class RunFolder:
    """Where one run writes: ``final`` is the folder the user sees, ``work`` the one the run
    writes into (``final`` itself, or a folder inside it while an earlier run is kept)."""

    def __init__(self, output: Path | None, scenario: str, *, overwrite: bool = False):
        self.fresh_root: Path | None = None
        self.earlier: list[Path] = []
        self.opened = False  # open() was called: something may have been written
        if output is None:
            self.fresh_root = Path.cwd() / 'out' / scenario
            self.final = self.work = None  # named when opened (the time of the start)
            return
        output = Path(os.path.expanduser(output)).absolute()  # relative to the user's directory
        if output.exists() and not output.is_dir():
            raise ScenarioError(f'--output {output}: is a file; expected a folder (new, empty, '
                                'or an earlier run with --overwrite)')
        self.earlier = run_outputs(output) if output.is_dir() else []
        if self.earlier and not overwrite:
            names = ', '.join(p.name for p in self.earlier)
            raise ScenarioError(f'--output {output}: holds an earlier run ({names}); choose '
                                'another folder, or add --overwrite to replace that run')
        self.final = self.work = output

    def open(self) -> Path:
        """Create the folder the run writes into; returns it."""
        self.opened = True
        if self.fresh_root is not None:
            self.final = self.work = fresh_run_folder(self.fresh_root)
            return self.work
        try:
            self.final.mkdir(parents=True, exist_ok=True)
            if self.earlier:  # kept until this run has ended: a failure loses nothing
                self.work = _new_folder(self.final, 'unfinished-run-')
        except OSError as exc:
            raise ScenarioError(f'--output {self.final}: cannot create '
                                f'{exc.filename or self.final} ({exc.strerror})') from None
        return self.work

    @property
    def staged(self) -> bool:
        return self.opened and self.work != self.final

    def commit(self) -> None:
        """This run's files replace the earlier run's (a few renames in one file system)."""
        if not self.staged:
            return
        aside = self.final / f'.earlier-run-{os.getpid()}'
        aside.mkdir(exist_ok=True)
        for path in run_outputs(self.final):
            os.replace(path, aside / path.name)
        for path in sorted(self.work.iterdir()):
            os.replace(path, self.final / path.name)
        self.work.rmdir()
        self.work = self.final
        shutil.rmtree(aside)

    def abandon(self) -> str | None:
        """After a failure: the earlier run stays; returns where this run's outputs are (None
        when it wrote none, its folder then removed)."""
        if not self.staged:
            return None
        try:
            self.work.rmdir()  # only when empty
        except OSError:
            return (f'the earlier run in {self.final} is kept; this run\'s outputs are in '
                    f'{self.work}')
        return None


def prepare_output(output: Path | None, scenario: str, *, overwrite: bool = False) -> Path:
    """The folder a run writes into, created, an earlier run's outputs removed first with
    ``overwrite`` (the gravity study's folders; ``robozoo run`` keeps them: :class:`RunFolder`)."""
    folder = RunFolder(output, scenario, overwrite=overwrite)
    for path in folder.earlier:  # the caller said overwrite
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    folder.earlier = []
    return folder.open()


def fresh_run_folder(root: Path) -> Path:
    """A new folder named after the current time under ``root`` (``_2``, ``_3`` ... when two
    runs start in the same second), and ``root/latest`` pointing at it."""
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ScenarioError(f'{root}: cannot create the output folder ({exc.strerror}); give '
                            'another with --output') from None
    folder = _new_folder(root, '')
    _point_latest(root / 'latest', folder.name)
    return folder


def _new_folder(root: Path, prefix: str) -> Path:
    """``root/<prefix><YYYY-mm-dd_HH-MM-SS>``, created (``_2``, ``_3`` ... when taken)."""
    stamp = prefix + time.strftime('%Y-%m-%d_%H-%M-%S')
    for n in range(1, 1000):
        folder = root / (stamp if n == 1 else f'{stamp}_{n}')
        try:
            folder.mkdir()  # atomic: a concurrent run gets the next name
        except FileExistsError:
            continue
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
    """Write ``path`` whole or not at all (a kill mid-write leaves the old file or none; a full
    disk leaves no temporary file behind)."""
    tmp = path.with_name(f'.{path.name}.{os.getpid()}.tmp')
    try:
        tmp.write_text(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def strict_json(value: Any, where: str = '', found: list[str] | None = None) -> Any:
    """``value`` with every NaN or infinity replaced by None (JSON's null): json.dumps would
    write NaN and Infinity, which strict JSON parsers refuse. ``found`` collects where."""
    if isinstance(value, dict):
        return {k: strict_json(v, f'{where}.{k}' if where else str(k), found)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict_json(v, f'{where}[{i}]', found) for i, v in enumerate(value)]
    if hasattr(value, 'tolist') and not isinstance(value, (str, bytes)):  # numpy values
        return strict_json(value.tolist(), where, found)
    if isinstance(value, float) and not math.isfinite(value):
        if found is not None:
            found.append(where)
        return None
    return value
