"""Reads whose SQL is built once per process and run with each request's values.

Django builds a QuerySet's SQL anew each time it runs: the filters into a query tree, the tree
into SQL. For the one-row reads that every phone at a table makes again and again (the member's
game behind the game page, a season and its menu behind the standings, a game's seats behind a
board fetch and a record), that building is most of the read: 470 of the member's game's
620 µs on SQLite, where the database's own work is 45 µs. Yet the SQL is the same each time but
for the ids.

A `PreparedQuery` builds its QuerySet once, with a stand-in for each value, keeps the SQL and
the compiler that turns its rows into model instances (related objects of `select_related`
included), and each call runs that SQL with the call's values through the same compiler: the
rows come back as the QuerySet would have given them.

Only for values that leave the SQL's shape alone: ids compared with `=`, never None (`IS
NULL`) or a list (`IN`). A QuerySet whose SQL doesn't carry each stand-in as a parameter is
refused on the first call. Checks the ORM makes while building the SQL (that `FOR UPDATE` is
in a transaction) are the caller's to make.

The compiler is Django's `SQLCompiler` with its `as_sql` skipped; this leans on how Django's
iterables read it (`select`, `klass_info`, `annotation_col_map`), which
tests/common/test_prepared.py and every test of the reads that use it check against the ORM on
each database the suite runs on.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import QuerySet
from django.db.models.sql import Query
from django.db.models.sql.compiler import SQLCompiler

# Stand-ins no row's id will be, one for each named value: negative, yet within a 32-bit
# column's range (Django makes a value out of its column's range an empty query, with no SQL).
_STAND_IN_BASE = -2_147_000_000


@dataclass(frozen=True)
class _Compiled:
    queryset: QuerySet[Any]
    compiler: SQLCompiler
    sql: str
    params: tuple[object, ...]
    # For each parameter, the name of the call's value it takes, or None to keep the one built.
    slots: tuple[str | None, ...]


class PreparedQuery[Row]:
    """`build(**values)`'s rows, with its SQL built on the first call (see the module), for
    the database the built QuerySet reads: the site has one, and no router."""

    def __init__(self, build: Callable[..., QuerySet[Any, Row]], *names: str) -> None:
        self._build = build
        self._stand_ins = {name: _STAND_IN_BASE - index for index, name in enumerate(names)}
        self._compiled: _Compiled | None = None
        self._lock = threading.Lock()

    def __call__(self, **values: object) -> list[Row]:
        if values.keys() != self._stand_ins.keys():
            raise TypeError(f"expected the values {sorted(self._stand_ins)}, got {sorted(values)}")
        for name, value in values.items():
            # The ORM would turn a model instance into its id; the kept SQL takes the id itself.
            if type(value) is not int:
                raise TypeError(f"{name} must be an id (int), not {type(value).__name__}")
        compiled = self._compiled or self._compile()
        params = tuple(
            compiled.params[index] if name is None else values[name]
            for index, name in enumerate(compiled.slots)
        )
        return list(_with_sql(compiled, params))

    def _compile(self) -> _Compiled:
        with self._lock:
            if self._compiled is None:
                queryset = self._build(**self._stand_ins)
                compiler = queryset.query.get_compiler(using=queryset.db)
                try:
                    sql, params = compiler.as_sql()
                except EmptyResultSet:
                    raise ValueError(
                        f"a stand-in for {sorted(self._stand_ins)} is out of its column's range:"
                        " only ids can be prepared"
                    ) from None
                names_of = {value: name for name, value in self._stand_ins.items()}
                slots = tuple(
                    names_of.get(param) if type(param) is int else None for param in params
                )
                missing = self._stand_ins.keys() - set(slots)
                if missing:
                    raise ValueError(f"the SQL doesn't take {sorted(missing)} as parameters: {sql}")
                self._compiled = _Compiled(queryset, compiler, sql, tuple(params), slots)
            return self._compiled


class _KeptQuery:
    """The built query, but for the compiler it gives: `ModelIterable` asks it for one."""

    def __init__(self, query: Query, compiler: SQLCompiler) -> None:
        self._query = query
        self._compiler = compiler

    def get_compiler(self, *args: object, **kwargs: object) -> SQLCompiler:
        return self._compiler

    def __getattr__(self, name: str) -> Any:
        return getattr(self._query, name)


def _with_sql(compiled: _Compiled, params: tuple[object, ...]) -> QuerySet[Any]:
    """The built QuerySet, not yet run, whose compiler gives the kept SQL with `params`, on
    this thread's connection (Django's connections are per thread)."""
    compiler = copy.copy(compiled.compiler)
    compiler.connection = connections[compiler.using]
    compiler.as_sql = lambda *args, **kwargs: (compiled.sql, params)  # type: ignore[method-assign]
    # A new QuerySet with the built one's settings: copying it would run it (__getstate__),
    # and _chain() would rebuild the query tree this is here to spare.
    queryset = QuerySet.__new__(type(compiled.queryset))
    queryset.__dict__.update(compiled.queryset.__dict__)
    queryset._query = _KeptQuery(compiled.queryset.query, compiler)
    return queryset
