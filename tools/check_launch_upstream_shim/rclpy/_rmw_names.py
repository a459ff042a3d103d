"""Python port of upstream ros2/rmw (jazzy c90c2970) rmw/src/validate_full_topic_name.c,
validate_namespace.c and validate_node_name.c: the same checks in the same order, the same messages
and invalid indices. Each returns None (valid) or (message, invalid_index), as rclpy's C extension
(rclpy/src/rclpy/names.cpp get_validation_error_for_*) hands them to rclpy."""

TOPIC_MAX_NAME_LENGTH = 255 - 8       # rmw/validate_full_topic_name.h
NAMESPACE_MAX_LENGTH = TOPIC_MAX_NAME_LENGTH - 2   # rmw/validate_namespace.h
NODE_NAME_MAX_NAME_LENGTH = 255       # rmw/validate_node_name.h


def _alnum(c: str) -> bool:          # rcutils_isalnum_no_locale: ASCII only
    return c.isascii() and c.isalnum()


def _digit(c: str) -> bool:
    return '0' <= c <= '9'


def full_topic_name(name: str):
    if not name:
        return 'topic name must not be empty', 0
    if name[0] != '/':
        return "topic name must be absolute, it must lead with a '/'", 0
    if name[-1] == '/':
        return "topic name must not end with a '/'", len(name) - 1
    for i, c in enumerate(name):
        if not (_alnum(c) or c in '_/'):
            return ("topic name must not contain characters other than alphanumerics, '_', or "
                    "'/'", i)
    for i in range(len(name) - 1):
        if name[i] == '/':
            if name[i + 1] == '/':
                return "topic name must not contain repeated '/'", i + 1
            if _digit(name[i + 1]):
                return 'topic name must not have a token that starts with a number', i + 1
    if len(name) > TOPIC_MAX_NAME_LENGTH:
        return 'too long', TOPIC_MAX_NAME_LENGTH - 1
    return None


_NAMESPACE_MESSAGES = {
    'topic name must not be empty': 'namespace must not be empty',
    "topic name must be absolute, it must lead with a '/'":
        "namespace must be absolute, it must lead with a '/'",
    "topic name must not end with a '/'": "namespace must not end with a '/', unless only a '/'",
    "topic name must not contain characters other than alphanumerics, '_', or '/'":
        "namespace must not contain characters other than alphanumerics, '_', or '/'",
    "topic name must not contain repeated '/'": "namespace must not contain repeated '/'",
    'topic name must not have a token that starts with a number':
        'namespace must not have a token that starts with a number',
}


def namespace(ns: str):
    if ns == '/':
        return None
    error = full_topic_name(ns)
    if error is not None and error[0] != 'too long':   # RMW_TOPIC_INVALID_TOO_LONG is ignored
        return _NAMESPACE_MESSAGES[error[0]], error[1]
    if len(ns) > NAMESPACE_MAX_LENGTH:
        # upstream stringifies an undefined macro name here, so this is its literal message
        return "namespace should not exceed 'RMW_NAMESPACE_MAX_NAME_LENGTH'", \
            NAMESPACE_MAX_LENGTH - 1
    return None


def node_name(name: str):
    if not name:
        return 'node name must not be empty', 0
    for i, c in enumerate(name):
        if not (_alnum(c) or c == '_'):
            return "node name must not contain characters other than alphanumerics or '_'", i
    if _digit(name[0]):
        return 'node name must not start with a number', 0
    if len(name) > NODE_NAME_MAX_NAME_LENGTH:
        return "node name length should not exceed '255'", NODE_NAME_MAX_NAME_LENGTH - 1
    return None
