"""`Record`: the base of preflight's mutable records (the draft inventory's, the walk's, the
source tree's).

Each subclass lists its fields in `__slots__` and writes its `__init__`; `Record` gives it a
dataclass's `__eq__` (same class, equal fields) and `__repr__`. Written out rather than made
by `@dataclass`, whose generated methods are compiled at every import: creating preflight's 37
dataclasses took about 25 of the 38 ms its import took (CPython 3.11), and `dataclasses`
itself imports `inspect`.
"""

from __future__ import annotations


class Record:
    """Equality and a readable form over `__slots__` (see the module's docstring)."""

    __slots__ = ()

    def _fields(self) -> tuple[str, ...]:
        fields: tuple[str, ...] = self.__slots__  # the subclass's own
        return fields

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._fields())

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass with eq is

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields())
        return f"{type(self).__qualname__}({fields})"
