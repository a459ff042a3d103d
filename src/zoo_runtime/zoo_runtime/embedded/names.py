"""ROS 2 name rules: validation of node names, namespaces and topic/service names, and the
expansion of relative (``chatter``), private (``~/x``) and substituted (``{node}``) names."""
from __future__ import annotations

import re

from .exceptions import (InvalidNamespaceException, InvalidNodeNameException,
                         InvalidServiceNameException, InvalidTopicNameException)

_NODE_NAME = re.compile(r'[A-Za-z_][A-Za-z0-9_]*\Z')
_TOKEN = re.compile(r'[A-Za-z_][A-Za-z0-9_]*\Z')
_SUBST = re.compile(r'\{([^{}]*)\}')


def validate_node_name(name: str) -> None:
    if not isinstance(name, str) or not name:
        raise InvalidNodeNameException(name, 'node name must not be empty')
    if not _NODE_NAME.match(name):
        bad = next(i for i, c in enumerate(name) if not (c.isalnum() or c == '_') or
                   (i == 0 and c.isdigit()))
        raise InvalidNodeNameException(
            name, 'node name must be letters, digits and underscores, not starting with a digit',
            bad)


def validate_namespace(namespace: str) -> None:
    """A namespace is absolute, ``/`` or ``/tok(/tok)*`` with tokens like node names."""
    if not isinstance(namespace, str) or not namespace.startswith('/'):
        raise InvalidNamespaceException(namespace, 'namespace must be absolute (start with /)')
    if namespace == '/':
        return
    if namespace.endswith('/'):
        raise InvalidNamespaceException(namespace, 'namespace must not end with /',
                                        len(namespace) - 1)
    _check_tokens(namespace, InvalidNamespaceException, 'namespace')


def _check_tokens(name: str, exc, what: str) -> None:
    pos = 1
    for token in name[1:].split('/'):
        if not token:
            raise exc(name, f'{what} must not contain //', pos)
        if not _TOKEN.match(token):
            raise exc(name, f'{what} token {token!r} must be letters, digits and underscores, '
                            'not starting with a digit', pos)
        pos += len(token) + 1


def validate_topic_name(name: str, *, is_service: bool = False) -> None:
    """Check a name as the user wrote it (before expansion)."""
    exc = InvalidServiceNameException if is_service else InvalidTopicNameException
    what = 'service name' if is_service else 'topic name'
    if not isinstance(name, str) or not name:
        raise exc(name, f'{what} must not be empty')
    if name.endswith('/'):
        raise exc(name, f'{what} must not end with /', len(name) - 1)
    if '~' in name[1:] or (name.startswith('~') and len(name) > 1 and name[1] != '/'):
        raise exc(name, f'~ may only appear at the start of a {what}, followed by /',
                  name.find('~', 1))
    stripped = _SUBST.sub('x', name)
    if '{' in stripped or '}' in stripped:
        raise exc(name, f'unbalanced {{}} in {what}', max(stripped.find('{'), stripped.find('}')))
    bad = re.search(r'[^A-Za-z0-9_/~]', stripped)
    if bad:
        raise exc(name, f'{what} must be letters, digits, _, / and ~', bad.start())
    if '//' in name:
        raise exc(name, f'{what} must not contain //', name.find('//'))


def validate_full_topic_name(name: str, *, is_service: bool = False) -> None:
    exc = InvalidServiceNameException if is_service else InvalidTopicNameException
    what = 'service name' if is_service else 'topic name'
    if not name.startswith('/'):
        raise exc(name, f'fully qualified {what} must start with /')
    if name == '/':
        raise exc(name, f'{what} must not be /')
    if name.endswith('/'):
        raise exc(name, f'{what} must not end with /', len(name) - 1)
    _check_tokens(name, exc, what)


def join(namespace: str, name: str) -> str:
    return namespace + name if namespace.endswith('/') else f'{namespace}/{name}'


def expand_topic_name(name: str, node_name: str, node_namespace: str, *,
                      is_service: bool = False) -> str:
    """Expand and validate ``name`` for the node ``node_namespace``/``node_name``."""
    validate_topic_name(name, is_service=is_service)
    exc = InvalidServiceNameException if is_service else InvalidTopicNameException

    def substitute(m: re.Match) -> str:
        key = m.group(1)
        if key == 'node':
            return node_name
        if key in ('ns', 'namespace'):
            return node_namespace.rstrip('/')
        raise exc(name, f'unknown substitution {{{key}}}: expected {{node}}, {{ns}} or '
                        '{namespace}', m.start())

    expanded = _SUBST.sub(substitute, name)
    if expanded == '~':
        expanded = join(node_namespace, node_name)
    elif expanded.startswith('~/'):
        expanded = join(node_namespace, node_name) + expanded[1:]
    elif not expanded.startswith('/'):
        expanded = join(node_namespace, expanded)
    validate_full_topic_name(expanded, is_service=is_service)
    return expanded


def fully_qualified_node_name(namespace: str, name: str) -> str:
    return join(namespace, name)


def normalize_namespace(namespace: str | None) -> str:
    """rcl accepts '' and relative namespaces and makes them absolute."""
    if not namespace:
        return '/'
    if not namespace.startswith('/'):
        namespace = '/' + namespace
    validate_namespace(namespace)
    return namespace


def logger_name(namespace: str, name: str) -> str:
    """rcl's node logger name: the namespace tokens and node name joined with dots."""
    return '.'.join([t for t in namespace.split('/') if t] + [name])
