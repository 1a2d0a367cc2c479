"""Command-line values converted without pydantic where the conversion is plain.

typer (>= 0.28) converts every parameter's value through a pydantic `TypeAdapter` it builds on
first use: any command that parses an option imports pydantic and builds adapters, about a
tenth of a second, more than all the work of a short paper's `paperlint preflight`. The
parameters paperlint declares are mostly plain (a string, a path, an enum choice, an integer
without bounds, a list of these), and typer's own helpers convert those without pydantic
(`coerce_cli_path` for a value that is already a `Path`, `coerce_cli_choice`). `plain_params`
gives such parameters that conversion before a command runs; every other parameter (bounds, a
custom parser, a tuple, a datetime...) keeps typer's. `tests/cli/test_coercion.py` holds the
two to the same answers and messages.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar, Union, get_args, get_origin

from typer import _click as click
from typer._click.exceptions import BadParameter
from typer._coercion import RuntimeParam, TypeDescriptor
from typer._param_types import coerce_cli_choice, coerce_cli_path
from typer.models import ParameterInfo

Convert = Callable[[Any, Any, click.Context], Any]
N = TypeVar("N", int, float)


@dataclass(frozen=True)
class _Plain(RuntimeParam):
    convert: Convert

    def _coerce_value(self, value: Any, param: Any, ctx: click.Context) -> Any:
        return self.convert(value, param, ctx)


def plain_params(command: click.Command, ctx: click.Context) -> None:
    """Give every plain parameter of `command` (and of its subcommands), its `--help`
    included (click makes that one on first use, under `ctx`'s names), a pydantic-free
    conversion; parameters already converted once, or not typer's, are left alone."""
    for param in [*command.params, command.get_help_option(ctx)]:
        descriptor = getattr(param, "type_descriptor", None)
        if not isinstance(descriptor, TypeDescriptor) or getattr(param, "_runtime_param", True):
            continue
        convert = converter(descriptor.annotation, descriptor.parameter_info)
        if convert is not None:
            param._runtime_param = _Plain(  # type: ignore[union-attr]
                parameter_info=descriptor.parameter_info,
                annotation=descriptor.annotation,
                convert=convert,
            )
    for sub in getattr(command, "commands", {}).values():
        plain_params(sub, ctx)


def converter(annotation: Any, info: ParameterInfo) -> Convert | None:
    """The conversion of a value to `annotation`, or None where typer's must be used."""
    if info.parser is not None or info.clamp:
        return None
    if annotation is int:
        return lambda v, p, c: _integer(v, info.min, info.max, p, c)
    if annotation is float:
        return lambda v, p, c: _real(v, info.min, info.max, p, c)
    if info.min is not None or info.max is not None:
        return None
    if get_origin(annotation) in (Union, types.UnionType):
        rest = [a for a in get_args(annotation) if a is not type(None)]
        return converter(rest[0], info) if len(rest) == 1 else None
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        one = converter(item, info)
        if one is None:
            return None
        return lambda v, p, c: [one(x, p, c) for x in (v if isinstance(v, list | tuple) else [v])]
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return _choice(tuple(annotation), info.case_sensitive)
    if annotation is str:
        return lambda v, p, c: _text(v)
    if annotation is bool:
        return _boolean
    if annotation is Path and info.path_type is None:
        return lambda v, p, c: coerce_cli_path(
            v if isinstance(v, Path) else Path(_text(v)), info, path_type=Path, param=p, ctx=c
        )
    return None


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _choice(choices: tuple[Any, ...], case_sensitive: bool) -> Convert:
    def convert(value: Any, param: Any, ctx: click.Context) -> Any:
        try:
            return coerce_cli_choice(value, choices=choices, case_sensitive=case_sensitive, ctx=ctx)
        except ValueError as exc:  # worded as typer's adapter words it
            raise BadParameter(f"Value error, {exc}", ctx=ctx, param=param) from None

    return convert


_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE = frozenset({"", "0", "off", "f", "false", "n", "no"})
_NOT_BOOLEAN = "Input should be a valid boolean, unable to interpret input"


def _boolean(value: Any, param: Any, ctx: click.Context) -> bool:
    """A flag's value, or a word as pydantic's lax mode reads it (`yes`, `off`, `1`...)."""
    if isinstance(value, bool):
        return value
    word = value.strip().lower() if isinstance(value, str) else None
    if word in _TRUE or value == 1:
        return True
    if word in _FALSE or value == 0:
        return False
    raise BadParameter(_NOT_BOOLEAN, ctx=ctx, param=param)


_INTEGER = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*(?:\.0*)?")


def _integer(value: Any, low: Any, high: Any, param: Any, ctx: click.Context) -> int:
    """An integer as pydantic's lax mode reads one (spaces around, `1_000`, `3.0`), in
    [low, high], with its messages."""
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        number = int(value.strip().split(".")[0])
    else:
        message = "Input should be a valid integer, unable to parse string as an integer"
        raise BadParameter(message, ctx=ctx, param=param)
    return _bounded(number, low, high, param, ctx)


def _real(value: Any, low: Any, high: Any, param: Any, ctx: click.Context) -> float:
    """A float as pydantic's lax mode reads one (ASCII only: `1e3`, `inf`, `1_000.5`)."""
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            number = float(value)
        elif isinstance(value, str) and value.isascii():
            number = float(value.strip())
        else:
            raise ValueError(value)
    except ValueError:
        message = "Input should be a valid number, unable to parse string as a number"
        raise BadParameter(message, ctx=ctx, param=param) from None
    return _bounded(number, low, high, param, ctx)


def _bounded(number: N, low: Any, high: Any, param: Any, ctx: click.Context) -> N:
    if low is not None and number < low:
        message = f"Input should be greater than or equal to {low}"
        raise BadParameter(message, ctx=ctx, param=param)
    if high is not None and number > high:
        message = f"Input should be less than or equal to {high}"
        raise BadParameter(message, ctx=ctx, param=param)
    return number
