"""Print a description's URDF: ``python -m zoo_description_tools <package> [name:=value ...]``."""
from __future__ import annotations

import sys

from . import DescriptionError, xacro_to_urdf


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ('-h', '--help'):
        print(__doc__.strip())
        return 0 if argv else 2
    args = {}
    for item in argv[1:]:
        name, sep, value = item.partition(':=')
        if not sep:
            print(f'argument {item!r}: expected name:=value', file=sys.stderr)
            return 2
        args[name] = value
    try:
        sys.stdout.write(xacro_to_urdf(argv[0], args))
    except DescriptionError as exc:
        print(f'error: {exc}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
