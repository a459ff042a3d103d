"""Issue 26: no sibling package reads a private attribute of zoo_runtime; they use
``zoo_runtime.introspection`` (graph snapshot, latched history, context publishers, declared
parameters) and the rclpy API. The check walks the syntax tree of every module under src/ (but
zoo_runtime's own and test folders) for ``x._graph``, ``x._history``, ``x._destroy``,
``x._node`` and the other zoo_runtime privates siblings used to read, and the same names given
to getattr/hasattr/setattr; ``self.<name>`` is a class's own attribute (``self._node`` of a
sim_node helper) and is not flagged."""
from __future__ import annotations

import ast
from pathlib import Path

WS = Path(__file__).resolve().parents[1]
PRIVATES = {'_graph', '_history', '_destroy', '_node', '_parameters', '_override_origins',
            '_allow_undeclared_parameters', '_type_name', '_publish_observers', '_targets'}


def _own(value: ast.expr) -> bool:
    return isinstance(value, ast.Name) and value.id in ('self', 'cls')


def private_reads(source: str) -> list[tuple[int, str]]:
    """(line, text) of each read of a zoo_runtime private on an object not ``self``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in PRIVATES and not _own(node.value):
            found.append((node.lineno, node.col_offset, f'{ast.unparse(node.value)}.{node.attr}'))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ('getattr', 'hasattr', 'setattr') and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and node.args[1].value in PRIVATES
              and not _own(node.args[0])):
            found.append((node.lineno, node.col_offset, ast.unparse(node)))
    return [(line, text) for line, _, text in sorted(found)]


def sibling_modules() -> list[Path]:
    return sorted(p for p in (WS / 'src').rglob('*.py')
                  if p.relative_to(WS / 'src').parts[0] != 'zoo_runtime'
                  and not {'test', 'tests'} & set(p.relative_to(WS / 'src').parts))


def test_the_check_flags_reads_and_spares_own_attributes():
    src = ('graph = self.context._graph\n'
           'if pub._node is not None: pub._destroy()\n'
           "h = getattr(pub, '_history', None)\n"
           'self._node = node; self._graph = None; sync = self._node._command_sync\n')
    assert [t for _, t in private_reads(src)] == [
        'self.context._graph', 'pub._node', 'pub._destroy', "getattr(pub, '_history', None)"]


def test_no_sibling_reads_a_zoo_runtime_private():
    modules = sibling_modules()
    assert len(modules) > 50  # the walk found the packages
    bad = [f'{p.relative_to(WS)}:{line}: {text}'
           for p in modules for line, text in private_reads(p.read_text())]
    assert not bad, 'use zoo_runtime.introspection instead:\n' + '\n'.join(bad)
