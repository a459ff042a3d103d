"""Recordings under signals and runs over earlier outputs (issue 10), as a user meets them:
`bin/robozoo run nao_walk --record` in a subprocess, paced at twice real time so that a signal
lands mid-run, stopped by SIGINT, SIGTERM or SIGKILL at seeded random moments.

- SIGINT/SIGTERM: a complete bag (rosbags reads it as is), summary.json of this run with
  ``interrupted`` and the same message counts as the bag, exit 130/143.
- SIGKILL: no summary at all (never another run's), a bag that `robozoo bag repair` turns into
  one rosbags reads, whose messages are intact up to the last flushed chunk.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest
from rosbags.rosbag2 import Reader

WS = Path(__file__).resolve().parents[1]
ROBOZOO = WS / 'bin' / 'robozoo'
RNG = random.Random(10)  # the moments are random, but the same on every run of the tests
MOMENTS = {sig: [round(RNG.uniform(0.3, 2.0), 2) for _ in range(2)] for sig in ('SIGINT', 'SIGTERM')}
# a kill >= 1 s of wall (>= 2 s of sim) into the recording: after the first flush (1 s of sim)
MOMENTS['SIGKILL'] = [round(RNG.uniform(1.0, 2.5), 2) for _ in range(2)]


def _env() -> dict:
    return {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'AMENT_PREFIX_PATH')}


def _start(output: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([str(ROBOZOO), 'run', 'nao_walk', '--record', '--quiet',
                             '--real-time-factor', '2', '--output', str(output), *extra],
                            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _stop_at(proc: subprocess.Popen, output: Path, delay: float, sig: str) -> int:
    """Send ``sig`` ``delay`` s after the recording started (its bag folder exists)."""
    t_end = time.monotonic() + 60
    while not (output / 'bag').exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < t_end, 'the recording never started'
        time.sleep(0.02)
    time.sleep(delay)
    proc.send_signal(getattr(signal, sig))
    _, proc.stderr_text = proc.communicate(timeout=120)
    return proc.returncode


def _bag_counts(bag: Path) -> dict[str, int]:
    with Reader(bag) as reader:
        counts = {c.topic: 0 for c in reader.connections}
        for conn, _, _ in reader.messages():
            counts[conn.topic] += 1
    return counts


@pytest.mark.parametrize('sig', ['SIGINT', 'SIGTERM'])
@pytest.mark.parametrize('moment', [0, 1])
def test_interrupt_closes_the_bag_and_writes_this_runs_summary(tmp_path, sig, moment):
    out = tmp_path / 'run'
    rc = _stop_at(_start(out), out, MOMENTS[sig][moment], sig)
    assert rc == 128 + getattr(signal, sig).value
    summary = json.loads((out / 'summary.json').read_text())
    assert summary['interrupted'] == sig and 0 < summary['sim_time'] < 6.0
    counts = _bag_counts(out / 'bag')  # readable as it is: no repair
    assert {t: n for t, n in counts.items() if n} == \
        {t: n for t, n in summary['recorded'].items() if n}
    assert counts['/nao/joint_states'] > 0


@pytest.mark.parametrize('moment', [0, 1])
def test_sigkill_leaves_a_repairable_bag_and_no_summary(tmp_path, moment):
    out = tmp_path / 'run'
    rc = _stop_at(_start(out), out, MOMENTS['SIGKILL'][moment], 'SIGKILL')
    assert rc == -signal.SIGKILL
    assert not (out / 'summary.json').exists()
    r = subprocess.run([str(ROBOZOO), 'bag', 'repair', str(out / 'bag')], env=_env(),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    with Reader(out / 'bag') as reader:
        stamps = [t for conn, t, _ in reader.messages() if conn.topic == '/nao/joint_states']
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
    # every 10 ms of sim time from the first message: nothing missing inside what was kept
    assert all(b - a == 10_000_000 for a, b in zip(stamps, stamps[1:]))
    assert len(stamps) >= 50  # at least the first flushed second of sim time (100 Hz)


def test_sigkill_over_an_earlier_run_keeps_it_whole(tmp_path):
    """--overwrite removed the earlier run before the new one had run (issue 25): the new run
    writes into its own folder inside, and only its end replaces the earlier run. Killed, it
    leaves the earlier run whole (its summary beside its own bag) and its bag repairable."""
    out = tmp_path / 'run'
    first = subprocess.run([str(ROBOZOO), 'run', 'talker_listener', '--duration', '0.2',
                            '--record', '--quiet', '--output', str(out)], env=_env(),
                           capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    earlier = {p: p.read_bytes() for p in out.rglob('*') if p.is_file()}
    proc = _start(out, '--overwrite')
    t_end = time.monotonic() + 60
    while not list(out.glob('unfinished-run-*/bag')):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < t_end, 'the recording never started'
        time.sleep(0.02)
    time.sleep(1.5)  # past the first flushed second of sim time
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=120)
    assert {p: p.read_bytes() for p in earlier} == earlier
    assert json.loads((out / 'summary.json').read_text())['sim_time'] == pytest.approx(0.2)
    [bag] = out.glob('unfinished-run-*/bag')
    r = subprocess.run([str(ROBOZOO), 'bag', 'repair', str(bag)], env=_env(),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert _bag_counts(bag)['/nao/joint_states'] >= 50


def test_sigint_with_report_says_the_plots_are_missing(tmp_path):
    """SIGINT during a --report run skipped the plots without a word (issue 25): the one line
    says so and how to draw them; summary and bag are kept."""
    out = tmp_path / 'run'
    proc = _start(out, '--report')
    assert _stop_at(proc, out, 0.5, 'SIGINT') == 130
    proc_err = proc.stderr_text
    assert 'Traceback' not in proc_err
    [line] = [ln for ln in proc_err.splitlines() if ln.startswith('robozoo')]
    assert line == (f'robozoo: interrupted by SIGINT; the outputs in {out} hold the run up to '
                    f'there; no plots (--report): `bin/robozoo bag report {out / "bag"}` draws '
                    'them')
    assert json.loads((out / 'summary.json').read_text())['interrupted'] == 'SIGINT'
    assert _bag_counts(out / 'bag')['/nao/joint_states'] > 0
    assert not list(out.glob('*.png'))


def _limited(max_bytes: int):
    """A child whose files may not grow beyond ``max_bytes`` (RLIMIT_FSIZE, as `ulimit -f`):
    a write beyond fails with EFBIG as a full disk fails one with ENOSPC (Python ignores the
    SIGXFSZ). No root needed."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, max_bytes))
    return limit


FULL_BAG_BYTES = 700_000  # 2-3 flushed seconds of nao_stand's default topics (~270 kB/s)


def _run_until_full(out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROBOZOO), 'run', 'nao_stand', '--duration', '10', '--record',
                           '--quiet', '--output', str(out), *extra], env=_env(),
                          capture_output=True, text=True, timeout=300,
                          preexec_fn=_limited(FULL_BAG_BYTES))


def _repaired_counts(bag: Path) -> dict[str, int]:
    r = subprocess.run([str(ROBOZOO), 'bag', 'repair', str(bag)], env=_env(),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return _bag_counts(bag)


def test_a_full_disk_names_the_bag_keeps_the_summary_and_a_repairable_bag(tmp_path):
    """A full disk during a recording gave one line "[Errno 28] No space left on device"
    without a path, lost the summary, and the bag could be repaired only elsewhere (issue 25)."""
    out = tmp_path / 'run'
    r = _run_until_full(out)
    assert r.returncode == 2 and 'Traceback' not in r.stderr, r.stderr
    [line] = [ln for ln in r.stderr.splitlines() if not ln.startswith(('[INFO]', '[WARN]'))]
    bag = out / 'bag'
    assert line.startswith('robozoo: error: recording stopped at '), line
    for fragment in (f'{bag}/bag.mcap: File too large', f'`bin/robozoo bag repair {bag}`',
                     'summary.json holds the run up to there'):
        assert fragment in line, (fragment, line)
    summary = json.loads((out / 'summary.json').read_text())
    assert 'File too large' in summary['recording_failed']
    assert 0 < summary['sim_time'] < 10
    assert not (bag / 'metadata.yaml').exists()  # unfinished, as after a kill
    counts = _repaired_counts(bag)  # in place
    assert counts['/nao/joint_states'] >= 100  # the flushed seconds, at 100 Hz


def test_a_full_disk_over_an_earlier_run_keeps_it(tmp_path):
    out = tmp_path / 'run'
    first = subprocess.run([str(ROBOZOO), 'run', 'nao_stand', '--duration', '0.5', '--record',
                            '--quiet', '--output', str(out)], env=_env(), capture_output=True,
                           text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    earlier = {p: p.read_bytes() for p in out.rglob('*') if p.is_file()}
    r = _run_until_full(out, '--overwrite')
    assert r.returncode == 2, r.stderr
    [work] = out.glob('unfinished-run-*')
    line = r.stderr.strip().splitlines()[-1]
    assert f'{work}/bag/bag.mcap: File too large' in line
    assert line.endswith(f"the earlier run in {out} is kept; this run's outputs are in {work}")
    assert {p: p.read_bytes() for p in earlier} == earlier
    assert json.loads((work / 'summary.json').read_text())['bag'] == str(work / 'bag')
    assert _repaired_counts(work / 'bag')['/nao/joint_states'] >= 100


def test_existing_outputs_are_never_removed(tmp_path):
    """A folder with a user's bag and plots is refused without --overwrite, untouched."""
    out = tmp_path / 'mine'
    (out / 'bag').mkdir(parents=True)
    (out / 'bag' / 'bag.mcap').write_bytes(b'precious')
    (out / 'nao_trajectory.png').write_bytes(b'png')
    r = subprocess.run([str(ROBOZOO), 'run', 'nao_stand', '--duration', '0.1', '--record',
                        '--report', '--output', str(out)], env=_env(), capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and '--overwrite' in r.stderr
    assert (out / 'bag' / 'bag.mcap').read_bytes() == b'precious'
    assert (out / 'nao_trajectory.png').read_bytes() == b'png'
