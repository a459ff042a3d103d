"""Import-only placeholders for rosidl-generated message modules (see README.md): any type name
gives a class that raises when built; its constants (``Transition.TRANSITION_CREATE``, read by
launch_ros at import) are placeholder strings naming themselves."""


class _PlaceholderType(type):
    def __getattr__(cls, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return f'{cls.__module__}.{cls.__name__}.{name}'


def placeholder_module(package: str, kind: str):
    """A module ``__getattr__`` for ``<package>.<kind>``."""
    def __getattr__(name):
        if name.startswith('__'):
            raise AttributeError(name)

        def fail(*args, **kwargs):
            raise NotImplementedError(
                f'{package}.{kind}.{name}: no ROS 2 messages in the launch check '
                '(stand-in, tools/check_launch_upstream_shim)')
        return _PlaceholderType(name, (), {'__init__': fail, '__module__': f'{package}.{kind}'})
    return __getattr__
