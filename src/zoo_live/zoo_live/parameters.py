"""Parameters: get and set the run's node parameters from a Foxglove client.

A parameter is named ``<node's fully qualified name>.<parameter>`` (``/talker.rate``), as
foxglove_bridge names them. Values go through the node's own parameter API
(``get_parameters``/``set_parameters``), so its declared types, ranges and
on-set-parameters callbacks apply; a refused value is one line and the parameter keeps its value.
A whole-valued number sent for a double parameter is taken as that double (the wire's JSON
cannot tell 1 from 1.0).
"""
from __future__ import annotations

from foxglove import Parameter as FoxParameter, ParameterType

from zoo_runtime import introspection
from zoo_runtime.rclpy.parameter import Parameter


class Parameters:
    def __init__(self, context, report):
        self.context = context
        self.report = report  # report(line): tell the clients and the user about a refusal

    def nodes(self) -> dict[str, object]:
        """The run's nodes by fully qualified name (every node of the graph has an endpoint:
        at least its /rosout publisher)."""
        snap = introspection.graph_snapshot(self.context)
        ends = [e for t in snap.topics.values() for e in t.publishers + t.subscriptions]
        ends += [e for group in (snap.services, snap.clients) for es in group.values() for e in es]
        found = {}
        for e in ends:
            if e.node is not None and e.node.get_name() != 'robozoo_live':
                found[e.node.get_fully_qualified_name()] = e.node
        return found

    def get(self, names: list[str]) -> list[FoxParameter]:
        """The named parameters (every parameter of every node for no names); unknown names
        are left out, as foxglove_bridge does."""
        nodes = self.nodes()
        if not names:
            names = [f'{fq}.{p}' for fq, node in sorted(nodes.items())
                     for p in introspection.declared_parameters(node)]
        found = []
        for full in names:
            node, name = self._split(nodes, full)
            if node is not None and node.has_parameter(name):
                found.append(_to_fox(full, node.get_parameter(name).value))
        return found

    def set(self, params: list[FoxParameter]) -> list[FoxParameter]:
        """Set each through its node; the values they have afterwards."""
        nodes = self.nodes()
        for p in params:
            node, name = self._split(nodes, p.name)
            if node is None or not node.has_parameter(name):
                self.report(f'live: parameter {p.name!r} not set: no such node parameter '
                            '(expected /<node>.<parameter>)')
                continue
            value = _coerce(p.get_value(), node.get_parameter(name).type_)
            try:
                result = node.set_parameters([Parameter(name, value=value)])[0]
                reason = None if result.successful else result.reason
            except Exception as exc:  # a value of no parameter type at all
                reason = str(exc)
            if reason is not None:
                self.report(f'live: parameter {p.name!r} not set to {value!r}: {reason}')
        return self.get([p.name for p in params])

    @staticmethod
    def _split(nodes: dict, full: str):
        fq, _, name = full.partition('.')
        return nodes.get(fq), name


def _coerce(value, type_):
    if type_ == Parameter.Type.DOUBLE and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if type_ == Parameter.Type.DOUBLE_ARRAY and isinstance(value, list):
        return [float(v) if isinstance(v, int) and not isinstance(v, bool) else v for v in value]
    return value


def _to_fox(name: str, value) -> FoxParameter:
    if isinstance(value, float):
        return FoxParameter(name, value=value, type=ParameterType.Float64)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, float) for v in value):
        return FoxParameter(name, value=list(value), type=ParameterType.Float64Array)
    if isinstance(value, (bytes, bytearray)):
        return FoxParameter(name, value=bytes(value), type=ParameterType.ByteArray)
    return FoxParameter(name, value=list(value) if isinstance(value, tuple) else value)
