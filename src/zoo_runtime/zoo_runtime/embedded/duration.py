"""rclpy.duration: a signed span of time in integer nanoseconds."""
from __future__ import annotations

from ._msgs import message

_S_TO_NS = 1_000_000_000


class Duration:
    __slots__ = ('_nanoseconds',)

    def __init__(self, *, seconds: float = 0, nanoseconds: int = 0):
        total = round(seconds * _S_TO_NS) + int(nanoseconds)
        if not -2 ** 63 <= total < 2 ** 63:
            raise OverflowError(f'Duration of {total} ns does not fit a signed 64-bit integer')
        self._nanoseconds = total

    @property
    def nanoseconds(self) -> int:
        return self._nanoseconds

    @classmethod
    def max(cls) -> Duration:
        return cls(nanoseconds=2 ** 63 - 1)

    def __repr__(self) -> str:
        return f'Duration(nanoseconds={self._nanoseconds})'

    def __str__(self) -> str:
        return f'{self._nanoseconds / _S_TO_NS:.9f}s'

    def __hash__(self) -> int:
        return hash(self._nanoseconds)

    def __eq__(self, other) -> bool:
        return isinstance(other, Duration) and self._nanoseconds == other._nanoseconds

    def __lt__(self, other) -> bool:
        if not isinstance(other, Duration):
            raise TypeError("Can't compare Duration with object of type: " + type(other).__name__)
        return self._nanoseconds < other._nanoseconds

    def __le__(self, other) -> bool:
        return self == other or self < other

    def __gt__(self, other) -> bool:
        if not isinstance(other, Duration):
            raise TypeError("Can't compare Duration with object of type: " + type(other).__name__)
        return self._nanoseconds > other._nanoseconds

    def __ge__(self, other) -> bool:
        return self == other or self > other

    def __add__(self, other):
        if isinstance(other, Duration):
            return Duration(nanoseconds=self._nanoseconds + other._nanoseconds)
        return NotImplemented

    def __sub__(self, other):
        if isinstance(other, Duration):
            return Duration(nanoseconds=self._nanoseconds - other._nanoseconds)
        return NotImplemented

    def __neg__(self) -> Duration:
        return Duration(nanoseconds=-self._nanoseconds)

    def __mul__(self, factor):
        if isinstance(factor, (int, float)) and not isinstance(factor, bool):
            return Duration(nanoseconds=round(self._nanoseconds * factor))
        return NotImplemented

    __rmul__ = __mul__

    def to_msg(self):
        sec, nanosec = divmod(self._nanoseconds, _S_TO_NS)
        return message('builtin_interfaces/msg/Duration')(sec=sec, nanosec=nanosec)

    @classmethod
    def from_msg(cls, msg) -> Duration:
        return cls(nanoseconds=msg.sec * _S_TO_NS + msg.nanosec)

    def get_c_duration(self):
        return self
