#!/usr/bin/env python3
"""Writes tests/data/rosdistro/: the part of a ros/rosdistro checkout that this workspace's
package.xml keys need, so tests/test_rosdep.py runs the real rosdep with no network.

    python3 tools/rosdistro_snapshot.py ROSDISTRO_GIT_DIR [COMMIT]

Reads, at COMMIT (default HEAD) of that git directory: rosdep/base.yaml and rosdep/python.yaml
(the entries of exactly the keys used here), jazzy/distribution.yaml (the header and every
repository that releases a package used here or one named like a workspace package) and index-v4.yaml (the jazzy entry). Keys found in
none of them are listed: they belong in rosdep/robozoo.yaml."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml
from catkin_pkg.package import parse_package

WS = Path(__file__).resolve().parents[1]
OUT = WS / 'tests' / 'data' / 'rosdistro'
DEP_KINDS = ('buildtool_depends', 'buildtool_export_depends', 'build_depends',
             'build_export_depends', 'exec_depends', 'test_depends', 'doc_depends')


def workspace_keys() -> tuple[set[str], set[str]]:
    """(every dependency name of every package.xml under src/, the workspace package names)."""
    keys, names = set(), set()
    for xml in sorted((WS / 'src').glob('*/package.xml')):
        pkg = parse_package(str(xml))
        names.add(pkg.name)
        for kind in DEP_KINDS:
            keys |= {d.name for d in getattr(pkg, kind)}
    return keys, names


def main(git_dir: str, commit: str = 'HEAD') -> int:
    def show(path: str) -> str:
        return subprocess.run(['git', '-C', git_dir, 'show', f'{commit}:{path}'],
                              capture_output=True, text=True, check=True).stdout
    sha, date = subprocess.run(['git', '-C', git_dir, 'log', '-1', '--format=%H %cs', commit],
                               capture_output=True, text=True, check=True).stdout.split()
    keys, names = workspace_keys()
    wanted = keys - names  # rosdep keys and released packages we depend on
    head = (f'# A trimmed copy of ros/rosdistro at commit {sha} ({date}):\n'
            '# {what}.\n# Entries are copied unchanged (re-serialised); written by '
            'tools/rosdistro_snapshot.py.\n')
    found: set[str] = set()
    OUT.mkdir(parents=True, exist_ok=True)
    for name in ('base', 'python'):
        data = yaml.safe_load(show(f'rosdep/{name}.yaml'))
        part = {k: data[k] for k in sorted(wanted & set(data))}
        found |= set(part)
        what = f'rosdep/{name}.yaml, the entries of the keys our package.xml files use'
        if not part:
            what += '\n# (none of them is in it; kept so that a key added there can be copied in)'
        text = yaml.safe_dump(part, sort_keys=True, default_flow_style=False) if part else '{}\n'
        (OUT / 'rosdep').mkdir(exist_ok=True)
        (OUT / 'rosdep' / f'{name}.yaml').write_text(head.format(what=what) + text)
    dist = yaml.safe_load(show('jazzy/distribution.yaml'))
    repos, clash = {}, set()
    for repo, entry in dist['repositories'].items():
        rel = entry.get('release') or {}
        pkgs = set(rel.get('packages') or ([repo] if 'version' in rel else []))
        if 'version' in rel and pkgs & (wanted | names):  # ours too: a name clash shows
            repos[repo] = entry
            found |= pkgs & wanted
            clash |= pkgs & names
    dist['repositories'] = repos
    what = ('jazzy/distribution.yaml, the repositories releasing a package we depend on or '
            'one named\n# like a workspace package (at this commit: '
            f'{", ".join(sorted(clash)) or "none, so e.g. opencv_apps has no Jazzy release"})')
    (OUT / 'jazzy').mkdir(exist_ok=True)
    (OUT / 'jazzy' / 'distribution.yaml').write_text(
        head.format(what=what) + yaml.safe_dump(dist, sort_keys=False, default_flow_style=False))
    index = yaml.safe_load(show('index-v4.yaml'))
    index['distributions'] = {'jazzy': index['distributions']['jazzy']}
    what = 'index-v4.yaml, the jazzy entry (rosdistro reads its distribution file relative to\n# this one)'
    (OUT / 'index-v4.yaml').write_text(
        head.format(what=what) + yaml.safe_dump(index, sort_keys=False))
    missing = sorted(wanted - found)
    print(f'{OUT.relative_to(WS)}: {len(found)} keys from ros/rosdistro {sha[:8]}; '
          f'in none of its files: {", ".join(missing) or "none"}')
    return 0


if __name__ == '__main__':
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split('\n\n')[1].strip())
    sys.exit(main(*sys.argv[1:]))
