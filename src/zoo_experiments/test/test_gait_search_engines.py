"""The gait search on Dask (``--engine dask``, a LocalCluster of 2 worker processes) against the
multiprocessing path, on the real simulator (nao_gait_search, 1 s walks): the same journal, and a
SIGKILL of the driver alone followed by a resume loses and repeats no candidate."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from journaled_cli import child_env, start_until_journaled
from zoo_runtime import EMBEDDED

if not EMBEDDED:
    pytest.skip('runs the scenario in the embedded runtime', allow_module_level=True)
pytest.importorskip('distributed')

BUDGET = 10
SHORT = ['--set', 'walker.duration=1.0']


def journal(out: Path) -> tuple[dict, dict]:
    """The header and the records by seq (a candidate journaled twice fails here)."""
    lines = (out / 'journal.jsonl').read_text().splitlines()
    recs = [json.loads(x) for x in lines[1:]]
    assert len({r['seq'] for r in recs}) == len(recs), 'a candidate was evaluated twice'
    return json.loads(lines[0]), {r['seq']: r for r in recs}


def command(out: Path, *engine: str) -> list[str]:
    return [sys.executable, '-m', 'zoo_experiments.gait_search', 'nao_gait_search', *SHORT,
            '--budget', str(BUDGET), '--workers', '2', '--out', str(out), '--no-progress',
            *engine]


def run(out: Path, *engine: str) -> dict:
    r = subprocess.run(command(out, *engine), env=child_env(), capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout[r.stdout.index('{'):])


@pytest.fixture(scope='module')
def multiprocessing_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp('process')
    summary = run(out, '--engine', 'process')
    assert summary['evaluated_this_run'] == BUDGET
    return out


def test_dask_search_journals_what_the_multiprocessing_path_does(tmp_path, multiprocessing_run):
    out = tmp_path / 'dask'
    summary = run(out, '--engine', 'dask')
    assert summary['engine'] == 'dask' and summary['evaluated_this_run'] == BUDGET
    header, records = journal(out)
    want_header, want = journal(multiprocessing_run)
    assert header == want_header  # the engine is not part of the search's identity
    assert records == want        # candidates, statistics, CMA-ES info: record for record
    assert len({tuple(r['values']) for r in records.values()}) == BUDGET


def test_killed_dask_driver_resumes_losing_and_repeating_nothing(tmp_path, multiprocessing_run):
    out = tmp_path / 'killed'
    proc = start_until_journaled(command(out, '--engine', 'dask'), out / 'journal.jsonl', 3)
    try:
        os.kill(proc.pid, signal.SIGKILL)  # the driver only: its Dask workers must follow
        proc.wait()
        assert _group_gone(proc.pid, within_s=30), 'Dask workers outlived the killed driver'
    finally:
        if not _group_gone(proc.pid, within_s=0):
            os.killpg(proc.pid, signal.SIGKILL)
    _, partial = journal(out)
    assert 3 <= len(partial) < BUDGET
    resumed = run(out, '--engine', 'dask')
    assert resumed['evaluated_this_run'] == BUDGET - len(partial)  # only the missing ones
    _, records = journal(out)
    assert records == journal(multiprocessing_run)[1]


def _group_gone(pgid: int, within_s: float) -> bool:
    deadline = time.monotonic() + within_s
    while True:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.2)


@pytest.mark.parametrize('flags, words', [
    (['--engine', 'process', '--cluster', 'tcp://127.0.0.1:8786'], 'needs --engine dask'),
    (['--cluster', 'nowhere'], "expected a scheduler address such as 'tcp://host:8786'"),
    (['--engine', 'ray'], "invalid choice: 'ray'"),
])
def test_bad_engine_flags_are_one_line(flags, words, tmp_path, capsys):
    from zoo_experiments.gait_search.cli import main

    assert main(['nao_gait_search', '--out', str(tmp_path / 'out'), *flags]) == 2
    out, err = capsys.readouterr()
    assert out == '' and len(err.strip().splitlines()) == 1, err
    assert err.startswith('robozoo search: error: ') and words in err, err
    assert not (tmp_path / 'out').exists()
