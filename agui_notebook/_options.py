"""The options rule: a keyword a function does not take is an :class:`~agui_notebook.OptionError` that names the
closest option it does take (``runs_df(events, worker=4)``: ``did you mean workers=?``), not Python's bare
``TypeError``; and an argument of the wrong kind is an :class:`~agui_notebook.InputTypeError` naming it
(:func:`listed`, :func:`callback`).

:func:`keyword_options` wraps a public function (or a class's ``__init__``) with the check, at no cost to a good
call: the function is called as it is, and only a ``TypeError`` it raises is looked at again.

>>> @keyword_options
... def table(events: object, *, workers: int | None = None) -> None: ...
>>> table([], worker=2)
Traceback (most recent call last):
    ...
agui_notebook.OptionError: table() takes no option worker=: did you mean workers=? (its options: workers=)
"""

from __future__ import annotations

import difflib
import functools
import inspect
import os
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, ParamSpec, TypeVar

from agui_notebook._errors import InputTypeError, OptionError
from agui_notebook._shown import shown

__all__ = [
    "callback",
    "check_keywords",
    "count",
    "file_path",
    "keyword_options",
    "listed",
    "typed",
    "unknown_option",
]

P = ParamSpec("P")
R = TypeVar("R")


def listed(value: Any, name: str, items: str) -> list[Any]:
    """The items of ``value``, an argument that takes several (a list, any iterable), else an
    :class:`~agui_notebook.InputTypeError` naming the argument.

    >>> listed((1, 2), "messages", "messages")
    [1, 2]
    >>> listed(5, "messages", "UIMessages")
    Traceback (most recent call last):
        ...
    agui_notebook.InputTypeError: messages must be a list of UIMessages, not int
    """
    if type(value) is list:
        return value
    if isinstance(value, (str, bytes, bytearray, Mapping)) or not isinstance(value, Iterable):
        raise InputTypeError(f"{name} must be a list of {items}, not {type(value).__name__}")
    return list(value)


def typed(value: Any, name: str, kinds: type | tuple[type, ...], what: str) -> Any:
    """``value`` if it is an instance of ``kinds`` (``True`` is not an ``int`` here unless ``bool`` is named), else
    an :class:`~agui_notebook.InputTypeError` naming the argument and saying ``what`` it takes.

    >>> typed("t1", "thread_id", (str, type(None)), "a string or None")
    't1'
    >>> typed(3, "thread_id", (str, type(None)), "a string or None")
    Traceback (most recent call last):
        ...
    agui_notebook.InputTypeError: thread_id must be a string or None, not int
    """
    named = kinds if isinstance(kinds, tuple) else (kinds,)
    if not isinstance(value, named) or (type(value) is bool and bool not in named):
        raise InputTypeError(f"{name} must be {what}, not {type(value).__name__}")
    return value


def count(value: Any, name: str, *, least: int = 0) -> int:
    """``value`` if it is an ``int`` of at least ``least`` (a limit, a number of things), else the family's error:
    :class:`~agui_notebook.InputTypeError` for another kind, :class:`~agui_notebook.OptionError` for too few.

    >>> count(-1, "max_follow_ups")
    Traceback (most recent call last):
        ...
    agui_notebook.OptionError: max_follow_ups must be at least 0, not -1
    """
    typed(value, name, int, "a whole number")
    if value < least:
        raise OptionError(f"{name} must be at least {least}, not {shown(value)}")
    return int(value)


def file_path(value: Any, name: str) -> str:
    """``value``, a path to write (a ``str`` or ``os.PathLike``), as a ``str``; else the family's error naming the
    argument: :class:`~agui_notebook.InputTypeError` for another kind, :class:`~agui_notebook.OptionError` for a
    text no file system takes (empty, a NUL, a lone surrogate).

    >>> file_path("", "store")
    Traceback (most recent call last):
        ...
    agui_notebook.OptionError: store must name a file, not ''
    """
    typed(value, name, (str, os.PathLike), "a path (str or os.PathLike)")
    path = os.fspath(value)
    try:
        fine = isinstance(path, str) and bool(path) and "\0" not in path and bool(os.fsencode(path))
    except UnicodeEncodeError:
        fine = False
    if not fine:
        raise OptionError(f"{name} must name a file, not {shown(path)}")
    return str(path)


def callback(value: Any, name: str) -> Any:
    """``value`` if it is None or callable (a callback option), else an :class:`~agui_notebook.OptionError`."""
    if value is not None and not callable(value):
        raise OptionError(f"{name}= must be a function (or None), not {type(value).__name__}")
    return value


def unknown_option(
    function: str, given: str, options: Iterable[str], keywords: Iterable[str] = ()
) -> OptionError:
    """The error for ``given=``, a keyword ``function`` does not take: the closest of its ``options`` (its
    keyword-only parameters) and other ``keywords`` (parameters also given by position), and its options.

    >>> str(unknown_option("ChatWidget", "show_metric", ["show_metrics", "suggestions"]))
    'ChatWidget() takes no option show_metric=: did you mean show_metrics=? (its options: show_metrics=, suggestions=)'
    """
    names = list(options)
    closest = difflib.get_close_matches(given, [*names, *keywords], n=1, cutoff=0.6)
    hint = f": did you mean {closest[0]}=?" if closest else ""
    takes = f"its options: {', '.join(f'{name}=' for name in names)}" if names else "it takes no options"
    return OptionError(f"{function}() takes no option {given}={hint} ({takes})")


def check_keywords(
    function: str, given: Iterable[str], options: Sequence[str], others: Collection[str] = ()
) -> None:
    """Raise :func:`unknown_option`'s error for the first of ``given`` that is neither one of ``options`` nor of
    ``others`` (keywords a function passes on, such as a widget's traits).

    >>> check_keywords("inspect_run", ["thme"], ["run", "theme"])
    Traceback (most recent call last):
        ...
    agui_notebook.OptionError: inspect_run() takes no option thme=: did you mean theme=? (its options: run=, theme=)
    """
    for name in given:
        if name not in options and name not in others:
            raise unknown_option(function, name, options, others)


def keyword_options(function: Callable[P, R]) -> Callable[P, R]:
    """``function``, raising :func:`unknown_option`'s error for a keyword it does not take (its signature, types
    and docstring unchanged: ``inspect.signature`` and type checkers see the function itself)."""
    parameters = inspect.signature(function).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return function  # it takes any keyword: none is unknown
    options = [p.name for p in parameters if p.kind is p.KEYWORD_ONLY]
    keywords = [p.name for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD and p.name != "self"]
    known = frozenset(options + keywords)
    name = function.__qualname__.removesuffix(".__init__")

    @functools.wraps(function)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except TypeError:
            # Python refuses an unknown keyword before the function runs, so an unknown one here is the cause.
            for given in kwargs:
                if given not in known:
                    raise unknown_option(name, given, options, keywords) from None
            raise

    return checked
