"""The one resource locator: installed means registered in a prefix's ament index (as
ament_index_python decides), else the checkout's src/ (zoo_description_tools, zoo_sim and
zoo_bringup all ask it)."""
from pathlib import Path

from zoo_runtime.resources import package_dir, package_share, workspace_root


def _prefix(root: Path, pkg: str, registered: bool) -> Path:
    (root / 'share' / pkg).mkdir(parents=True)
    (root / 'share' / pkg / 'package.xml').write_text(f'<package><name>{pkg}</name></package>')
    if registered:
        index = root / 'share' / 'ament_index' / 'resource_index' / 'packages'
        index.mkdir(parents=True)
        (index / pkg).touch()
    return root


def test_installed_is_what_the_ament_index_registers(tmp_path, monkeypatch):
    bare, real = _prefix(tmp_path / 'a', 'pkg', False), _prefix(tmp_path / 'b', 'pkg', True)
    monkeypatch.setenv('AMENT_PREFIX_PATH', f'{bare}:{real}')
    assert package_share('pkg') == real / 'share' / 'pkg'
    assert package_share('other') is None


def test_the_checkout_serves_what_is_not_installed(tmp_path, monkeypatch):
    ws = tmp_path / 'ws'
    (ws / 'src' / 'pkg').mkdir(parents=True)
    (ws / 'src' / 'pkg' / 'package.xml').write_text('<package><name>pkg</name></package>')
    monkeypatch.setenv('ROBOZOO_WS', str(ws))
    monkeypatch.setenv('AMENT_PREFIX_PATH', '')
    assert workspace_root() == ws
    assert package_dir('pkg') == ws / 'src' / 'pkg' and package_dir('nowhere') is None
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(_prefix(tmp_path / 'p', 'pkg', True)))
    assert package_dir('pkg') == tmp_path / 'p' / 'share' / 'pkg'
