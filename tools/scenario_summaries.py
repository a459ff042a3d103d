#!/usr/bin/env python3
"""Run every scenario and write, or compare against, their summaries: the check that a refactor
changed no behaviour (issue 26).

    tools/scenario_summaries.py --write before.json        # at the old commit
    tools/scenario_summaries.py --compare before.json      # at the new one: exit 1 on a difference

Each scenario runs through `bin/robozoo run` for at most --max-duration sim seconds (servers that
wait for peers run that long and stop). Runs that the wall clock paces (real_time_factor > 0: UDP
links, remote clients) are not deterministic; for them only the summary's keys and the kinds of its
values are compared. Every other run is compared exactly, number for number.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import tempfile
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
# measured by the wall clock, different on every run
VOLATILE = {'wall_time', 'real_time_factor', 'summary', 'output', 'bag', 'plots', 'report'}
VOLATILE_PATTERN = re.compile(r'latency|wall|solve_time')
# where the checkout is: warnings name files by absolute path
CHECKOUT_PATH = re.compile(r'/\S*?/(?=(install|src|config|worlds|models)/)')


def scenario_names() -> list[str]:
    return sorted(p.stem for p in (ROOT / 'config' / 'scenarios').glob('*.yaml'))


def scenario(name: str):
    from zoo_scenario.scenario import load_scenario  # with what it inherits (extends:)
    return load_scenario(str(ROOT / 'config' / 'scenarios' / f'{name}.yaml'))


def wall_paced(name: str) -> bool:
    return float(scenario(name).physics.get('real_time_factor') or 0.0) > 0.0


def strip(value, exact: bool):
    """The summary without wall-clock fields; for a wall-paced run, only its shape."""
    if isinstance(value, dict):
        return {k: strip(v, exact) for k, v in sorted(value.items())
                if k not in VOLATILE and not VOLATILE_PATTERN.search(k)}
    if isinstance(value, list):
        return [strip(v, exact) for v in value] if exact else ['list']
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, str):
        value = CHECKOUT_PATH.sub('<checkout>/', value)
    if exact:
        return value
    return type(value).__name__


def fresh_outputs(name: str, folder: str) -> list[str]:
    """`--set` moving a node's relative ``output`` (a search journal, which a second run would
    resume) into ``folder``."""
    sets = []
    for node in scenario(name).nodes:
        out = node.parameters.get('output')
        if isinstance(out, str) and not Path(out).is_absolute():
            sets += ['--set', f"{node.name}.output={Path(folder) / out}"]
    return sets


def run_one(name: str, max_duration: float) -> dict:
    with tempfile.TemporaryDirectory() as cwd:
        out = str(Path(cwd) / 'run')
        proc = subprocess.run([str(ROOT / 'bin' / 'robozoo'), 'run', name, '--duration',
                               str(max_duration), '--output', out, '--quiet',
                               *fresh_outputs(name, cwd)],
                              capture_output=True, text=True, timeout=900, cwd=cwd)
        summary_file = Path(out) / 'summary.json'
        if proc.returncode != 0 or not summary_file.exists():
            return {'error': f'exit {proc.returncode}: {proc.stderr.strip()[-400:]}'}
        return {'summary': json.loads(summary_file.read_text())}


def comparable(run: dict, name: str) -> dict:
    """What of a run is compared: its error, or its summary stripped as its pacing allows."""
    if 'error' in run:
        return run
    if 'exact' in run:  # stripped already (--write): checkout paths as this version strips them
        return {'exact': run['exact'], 'summary': strip(run['summary'], True)}
    exact = not wall_paced(name)
    return {'exact': exact, 'summary': strip(run['summary'], exact)}


def diff(a, b, path='') -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f'{path}.{k}: only {"after" if k in b else "before"}')
            else:
                out += diff(a[k], b[k], f'{path}.{k}')
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in diff(x, y, f'{path}[{i}]')]
    return [] if a == b else [f'{path}: {a!r} before, {b!r} after']


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument('--write', type=Path, help='write the summaries to this JSON file')
    mode.add_argument('--compare', type=Path, help='compare with summaries written by --write')
    ap.add_argument('--max-duration', type=float, default=8.0, help='sim seconds per scenario')
    ap.add_argument('scenarios', nargs='*', help='only these (default: all)')
    args = ap.parse_args(argv)
    names = args.scenarios or scenario_names()
    results = {}
    for i, name in enumerate(names, 1):
        print(f'[{i}/{len(names)}] {name}', file=sys.stderr, flush=True)
        results[name] = comparable(run_one(name, args.max_duration), name)
    if args.write:
        args.write.write_text(json.dumps({'max_duration': args.max_duration, 'runs': results},
                                         indent=1, sort_keys=True))
        errors = [n for n, r in results.items() if 'error' in r]
        print(f'{len(results)} summaries written to {args.write}'
              + (f'; {len(errors)} failed: {", ".join(errors)}' if errors else ''))
        return 0
    before = json.loads(args.compare.read_text())
    if before['max_duration'] != args.max_duration:
        print(f'{args.compare}: written with --max-duration {before["max_duration"]}, '
              f'not {args.max_duration}', file=sys.stderr)
        return 2
    failures = 0
    for name, after in results.items():
        if name not in before['runs']:
            print(f'{name}: new scenario, nothing to compare')
            continue
        d = diff(comparable(before['runs'][name], name), after)
        kind = 'exact' if after.get('exact') else 'shape'
        print(f'{name}: {"equal" if not d else "DIFFERS"} ({kind})')
        for line in d[:10]:
            print(f'    {line}')
        failures += bool(d)
    for name in sorted(set(before['runs']) - set(results)):
        if not args.scenarios:
            print(f'{name}: gone')
            failures += 1
    print(f'{len(results) - failures} of {len(results)} summaries equal')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
