"""``--ros-args`` parsing and the remapping rules it yields, following rcl's syntax.

Recognised inside ``--ros-args ... [--]``: ``-r/--remap [node:]from:=to`` (also ``__node:=``,
``__name:=``, ``__ns:=``), ``-p/--param [node:]name:=value``, ``--params-file FILE``,
``--log-level [name:=]level``; the remaining rcl flags (rosout, stdout, external-lib logs, enclave,
log config file) are accepted and ignored. Anything else inside ``--ros-args`` is an error.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import logging as _logging
from .exceptions import InvalidRemappingRuleError, UnknownROSArgsError
from .names import expand_topic_name, normalize_namespace, validate_node_name
from .parameter_files import OverrideSection, load_parameter_file, parse_value_text

__all__ = ['RemapRule', 'RosArguments', 'parse_arguments', 'remove_ros_args']

_IGNORED_FLAGS = ('--enable-rosout-logs', '--disable-rosout-logs', '--enable-stdout-logs',
                  '--disable-stdout-logs', '--enable-external-lib-logs',
                  '--disable-external-lib-logs')
_IGNORED_WITH_VALUE = ('--log-config-file', '-e', '--enclave', '--log-file-name')


@dataclass(frozen=True)
class RemapRule:
    node: str | None     # only nodes with this name, or all
    kind: str            # 'name' (topic/service), 'node' (__node) or 'ns' (__ns)
    match: str
    replacement: str


@dataclass
class RosArguments:
    remaps: list[RemapRule] = field(default_factory=list)
    parameters: list[OverrideSection] = field(default_factory=list)
    log_levels: list[tuple[str, str]] = field(default_factory=list)  # ('', lvl) = default
    user_args: list[str] = field(default_factory=list)

    def apply_log_levels(self) -> None:
        for name, level in self.log_levels:
            _logging.set_logger_level(name, level)  # '' is the default level


def _split_node_prefix(rule: str) -> tuple[str | None, str]:
    """``node:rest`` -> (node, rest); ``:=`` itself is not a prefix separator."""
    head, sep, _ = rule.partition(':=')
    if not sep:
        return None, rule
    if ':' in head:
        node, _, rest_head = head.partition(':')
        return node, rest_head + rule[len(head):]
    return None, rule


def _parse_remap(rule: str) -> RemapRule:
    node, rest = _split_node_prefix(rule)
    match, sep, replacement = rest.partition(':=')
    if not sep or not match or not replacement:
        raise InvalidRemappingRuleError(f'remap rule {rule!r}: expected [node:]from:=to')
    if node is not None:
        validate_node_name(node)
    if match in ('__node', '__name'):
        validate_node_name(replacement)
        return RemapRule(node, 'node', match, replacement)
    if match == '__ns':
        return RemapRule(node, 'ns', match, normalize_namespace(replacement))
    # Check both sides are valid names now, so mistakes surface at start-up.
    expand_topic_name(match, 'node', '/')
    expand_topic_name(replacement, 'node', '/')
    return RemapRule(node, 'name', match, replacement)


def _parse_param(rule: str) -> OverrideSection:
    node, rest = _split_node_prefix(rule)
    name, sep, text = rest.partition(':=')
    if not sep or not name:
        raise ValueError(f'-p {rule!r}: expected [node:]name:=value')
    pattern = '/**' if node is None else (node if node.startswith('/') else '/' + node)
    value = parse_value_text(text, f'-p {rule}')
    return OverrideSection(pattern, {name: value}, origin=f'-p {rule}')


def parse_arguments(args: list[str] | None) -> RosArguments:
    """Parse a full argument list (``sys.argv``-like); text outside ``--ros-args`` is kept as
    ``user_args``."""
    parsed = RosArguments()
    if not args:
        return parsed
    if isinstance(args, str) or not all(isinstance(a, str) for a in args):
        raise TypeError(f'ROS arguments must be a list of str, got {args!r}')
    i, in_ros = 0, False
    unknown: list[str] = []
    while i < len(args):
        arg = args[i]
        if arg == '--ros-args':
            in_ros = True
        elif not in_ros:
            parsed.user_args.append(arg)
        elif arg == '--':
            in_ros = False
        elif arg in ('-r', '--remap', '-p', '--param', '--params-file', '--log-level') + \
                _IGNORED_WITH_VALUE:
            if i + 1 >= len(args):
                raise UnknownROSArgsError(f'ROS argument {arg} needs a value after it')
            value = args[i + 1]
            i += 1
            if arg in ('-r', '--remap'):
                parsed.remaps.append(_parse_remap(value))
            elif arg in ('-p', '--param'):
                parsed.parameters.append(_parse_param(value))
            elif arg == '--params-file':
                parsed.parameters.extend(load_parameter_file(value))
            elif arg == '--log-level':
                name, sep, level = value.rpartition(':=')
                _logging._severity(level)  # validate now
                parsed.log_levels.append((name if sep else '', level))
        elif arg in _IGNORED_FLAGS:
            pass
        else:
            unknown.append(arg)
        i += 1
    if unknown:
        raise UnknownROSArgsError(f'Found unknown ROS arguments: {unknown}')
    return parsed


def remove_ros_args(args: list[str] | None = None) -> list[str]:
    """The arguments with every ``--ros-args ... --`` section removed (rclpy.utilities)."""
    import sys
    return parse_arguments(sys.argv if args is None else args).user_args


def first_match(rule_sets: list[list[RemapRule]], kind: str, node_name: str) -> RemapRule | None:
    for rules in rule_sets:
        for rule in rules:
            if rule.kind == kind and (rule.node is None or rule.node == node_name):
                return rule
    return None


def remap_name(rule_sets: list[list[RemapRule]], expanded: str, node_name: str, namespace: str,
               *, is_service: bool = False) -> str:
    """Apply the first name rule (node-local rules first) whose expanded match equals the
    expanded name; rules are expanded with the node's final name and namespace."""
    for rules in rule_sets:
        for rule in rules:
            if rule.kind != 'name' or (rule.node is not None and rule.node != node_name):
                continue
            if expand_topic_name(rule.match, node_name, namespace,
                                 is_service=is_service) == expanded:
                return expand_topic_name(rule.replacement, node_name, namespace,
                                         is_service=is_service)
    return expanded
