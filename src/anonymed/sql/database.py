"""Database access for ``deid-sql``: ADBC drivers for PostgreSQL and SQLite, SQLAlchemy for the others.

Both give the same few operations: read one keyset page (``WHERE key > after [AND key <= upper] ORDER
BY key LIMIT n``) of a table or of a query wrapped as a subquery, count and locate keys (to split a
source into ranges), and create or append to an output table from Arrow data. Nothing is ever updated:
outputs are new tables. The drivers are in the ``sql`` extra and imported when used.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from anonymed.errors import ConfigError, InputError
from anonymed.redact import url_without_password, without_url_password

ADBC_SCHEMES = {"postgresql": "postgresql", "postgres": "postgresql", "sqlite": "sqlite"}


@dataclass(frozen=True)
class Source:
    """A table name (``schema.table`` allowed) or a query whose rows are read."""

    table: str | None = None
    query: str | None = None

    def __post_init__(self) -> None:
        if (self.table is None) == (self.query is None):
            raise ConfigError("give exactly one of --table and --query")


def quote_ansi(name: str) -> str:
    """A (possibly schema-qualified) identifier quoted the SQL-standard way."""
    return ".".join('"' + part.replace('"', '""') + '"' for part in name.split("."))


class Database(ABC):
    """The operations ``deid-sql`` needs from a database (see module docstring)."""

    @abstractmethod
    def page(self, source: Source, columns: tuple[str, ...], key: str, after: Any, upper: Any, limit: int
             ) -> list[dict[str, Any]]:  # fmt: skip
        """Up to ``limit`` rows with ``after < key <= upper`` (None: unbounded), by increasing key."""

    @abstractmethod
    def count(self, source: Source) -> int:
        """The number of rows of the source."""

    @abstractmethod
    def key_at(self, source: Source, key: str, offset: int) -> Any:
        """The key of the row at ``offset`` in key order."""

    @abstractmethod
    def exists(self, table: str) -> bool:
        """Whether a table of that name exists."""

    @abstractmethod
    def max_key(self, table: str, key: str, lower: Any = None, upper: Any = None) -> Any:
        """The largest key written to an output table within ``lower < key <= upper`` (None: none)."""

    @abstractmethod
    def write(self, table: str, data: Any, *, create: bool) -> None:
        """Create ``table`` from an Arrow table, or append to it; committed on return."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection."""


class AdbcDatabase(Database):
    """PostgreSQL (libpq) or SQLite through their ADBC drivers; keyset pages as Arrow."""

    def __init__(self, url: str, kind: str) -> None:
        self.kind = kind
        try:
            if kind == "postgresql":
                import adbc_driver_postgresql.dbapi as driver

                self.conn = driver.connect("postgresql" + url[url.index(":") :])
            else:
                import adbc_driver_sqlite.dbapi as sqlite

                path = url.split("://", 1)[1]
                self.conn = sqlite.connect(path[1:] if path.startswith("/") else path or ":memory:")
        except ImportError:
            raise ConfigError("deid-sql needs the ADBC drivers: pip install 'anonymed[sql]'") from None
        except Exception as exc:  # the driver's own message, without the URL's password
            raise ConfigError(
                f"cannot connect to {url_without_password(url)} "
                f"({type(exc).__name__}: {without_url_password(str(exc), url)})"
            ) from None

    def _ph(self, index: int) -> str:
        return f"${index}" if self.kind == "postgresql" else "?"

    def _from(self, source: Source) -> str:
        return quote_ansi(source.table) if source.table is not None else f"({source.query}) AS anonymed_src"

    def _rows(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        cursor = self.conn.cursor()
        try:
            cursor.execute(sql, parameters=params or None)
            return list(cursor.fetch_arrow_table().to_pylist())
        except Exception as exc:  # the driver's own errors: named, never with data
            self.conn.rollback()
            state = getattr(exc, "sqlstate", None)
            raise InputError("sql", f"query failed ({type(exc).__name__}, SQLSTATE {state})") from None
        finally:
            cursor.close()

    def _key_range(self, key: str, lower: Any, upper: Any) -> tuple[str, list[Any]]:
        """`` WHERE key > lower AND key <= upper`` (a bound only when given; none: "") and its parameters."""
        params: list[Any] = []
        where = []
        for op, value in ((">", lower), ("<=", upper)):
            if value is not None:
                params.append(value)
                where.append(f"{quote_ansi(key)} {op} {self._ph(len(params))}")
        return (f" WHERE {' AND '.join(where)}" if where else ""), params

    def page(self, source: Source, columns: tuple[str, ...], key: str, after: Any, upper: Any, limit: int
             ) -> list[dict[str, Any]]:  # fmt: skip
        clause, params = self._key_range(key, after, upper)
        params.append(limit)
        cols = ", ".join(quote_ansi(c) for c in columns)
        order = f" ORDER BY {quote_ansi(key)} LIMIT {self._ph(len(params))}"
        sql = f"SELECT {cols} FROM {self._from(source)}{clause}{order}"
        return self._rows(sql, params)

    def count(self, source: Source) -> int:
        return int(next(iter(self._rows(f"SELECT count(*) AS n FROM {self._from(source)}", [])[0].values())))

    def key_at(self, source: Source, key: str, offset: int) -> Any:
        order = f"ORDER BY {quote_ansi(key)} LIMIT 1 OFFSET {int(offset)}"
        sql = f"SELECT {quote_ansi(key)} AS k FROM {self._from(source)} {order}"
        rows = self._rows(sql, [])
        return rows[0]["k"] if rows else None

    def exists(self, table: str) -> bool:
        if self.kind == "postgresql":
            rows = self._rows("SELECT to_regclass($1) IS NOT NULL AS found", [quote_ansi(table)])
        else:
            rows = self._rows("SELECT count(*) > 0 AS found FROM sqlite_master WHERE name = ?", [table])
        return bool(rows[0]["found"])

    def max_key(self, table: str, key: str, lower: Any = None, upper: Any = None) -> Any:
        clause, params = self._key_range(key, lower, upper)
        return self._rows(f"SELECT max({quote_ansi(key)}) AS k FROM {quote_ansi(table)}{clause}", params)[0][
            "k"
        ]

    def write(self, table: str, data: Any, *, create: bool) -> None:
        cursor = self.conn.cursor()
        try:
            cursor.adbc_ingest(table, data, mode="create" if create else "append")
            self.conn.commit()
        finally:
            cursor.close()

    def close(self) -> None:
        self.conn.close()


class AlchemyDatabase(Database):
    """Any database SQLAlchemy has a dialect for; queries built with SQLAlchemy Core (portable LIMIT)."""

    def __init__(self, url: str) -> None:
        try:
            import sqlalchemy as sa
        except ImportError:
            raise ConfigError(
                "deid-sql needs SQLAlchemy for this database: pip install 'anonymed[sql]'"
            ) from None
        self.sa = sa
        try:
            self.engine = sa.create_engine(url)
        except Exception as exc:  # an unknown dialect or a missing DB-API driver
            reason = without_url_password(str(exc), url)
            raise ConfigError(f"cannot open database URL ({type(exc).__name__}: {reason})") from None

    def _from(self, source: Source, columns: tuple[str, ...]) -> Any:
        sa = self.sa
        if source.table is not None:
            schema, _, name = source.table.rpartition(".")
            return sa.table(name, *(sa.column(c) for c in columns), schema=schema or None)
        return sa.text(str(source.query)).columns(*(sa.column(c) for c in columns)).subquery("anonymed_src")

    def _rows(self, statement: Any) -> list[dict[str, Any]]:
        try:
            with self.engine.connect() as conn:
                return [dict(row._mapping) for row in conn.execute(statement)]
        except self.sa.exc.SQLAlchemyError as exc:
            raise InputError("sql", f"query failed ({type(exc).__name__})") from None

    def _in_range(self, statement: Any, column: Any, lower: Any, upper: Any) -> Any:
        """``statement`` where ``lower < column <= upper`` (a bound only when given)."""
        if lower is not None:
            statement = statement.where(column > self.sa.bindparam("lower", lower))
        if upper is not None:
            statement = statement.where(column <= self.sa.bindparam("upper", upper))
        return statement

    def page(self, source: Source, columns: tuple[str, ...], key: str, after: Any, upper: Any, limit: int
             ) -> list[dict[str, Any]]:  # fmt: skip
        sa = self.sa
        src = self._from(source, tuple(dict.fromkeys((*columns, key))))
        statement = sa.select(*(src.c[c] for c in columns)).order_by(src.c[key]).limit(limit)
        return self._rows(self._in_range(statement, src.c[key], after, upper))

    def count(self, source: Source) -> int:
        src = self._from(source, ())
        return int(self._rows(self.sa.select(self.sa.func.count().label("n")).select_from(src))[0]["n"])

    def key_at(self, source: Source, key: str, offset: int) -> Any:
        src = self._from(source, (key,))
        rows = self._rows(self.sa.select(src.c[key]).order_by(src.c[key]).limit(1).offset(offset))
        return rows[0][key] if rows else None

    def exists(self, table: str) -> bool:
        schema, _, name = table.rpartition(".")
        return bool(self.sa.inspect(self.engine).has_table(name, schema=schema or None))

    def max_key(self, table: str, key: str, lower: Any = None, upper: Any = None) -> Any:
        src = self._from(Source(table=table), (key,))
        statement = self.sa.select(self.sa.func.max(src.c[key]).label("k"))
        return self._rows(self._in_range(statement, src.c[key], lower, upper))[0]["k"]

    def write(self, table: str, data: Any, *, create: bool) -> None:
        sa = self.sa
        schema, _, name = table.rpartition(".")
        metadata = sa.MetaData()
        target = sa.Table(name, metadata, *(sa.Column(f.name, _sa_type(sa, f.type)) for f in data.schema),
                          schema=schema or None)  # fmt: skip
        with self.engine.begin() as conn:
            if create:
                metadata.create_all(conn)
            rows = data.to_pylist()
            if rows:
                conn.execute(target.insert(), rows)

    def close(self) -> None:
        self.engine.dispose()


def _sa_type(sa: Any, arrow_type: Any) -> Any:
    import pyarrow as pa

    if pa.types.is_integer(arrow_type):
        return sa.BigInteger()
    if pa.types.is_floating(arrow_type):
        return sa.Float()
    if pa.types.is_date(arrow_type):
        return sa.Date()
    if pa.types.is_timestamp(arrow_type):
        return sa.DateTime()
    if pa.types.is_boolean(arrow_type):
        return sa.Boolean()
    return sa.Text()


def open_database(url: str, driver: str = "auto") -> Database:
    """ADBC for ``postgresql://`` and ``sqlite://`` URLs (unless ``driver="sqlalchemy"``), else SQLAlchemy."""
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if driver not in ("auto", "adbc", "sqlalchemy"):
        raise ConfigError(f"--driver must be auto, adbc or sqlalchemy, got {driver!r}")
    if driver != "sqlalchemy" and scheme in ADBC_SCHEMES:
        return AdbcDatabase(url, ADBC_SCHEMES[scheme])
    if driver == "adbc":
        raise ConfigError(f"no ADBC driver for URL scheme {scheme!r}; ADBC: {sorted(ADBC_SCHEMES)}")
    return AlchemyDatabase(url)
