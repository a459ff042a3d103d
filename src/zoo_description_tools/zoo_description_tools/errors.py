"""The one exception type of the description tools."""


class DescriptionError(ValueError):
    """A description package, its xacro arguments or its generated URDF is wrong. The message is
    one line and starts with the file (or package) at fault."""
