"""``deid-sql``: de-identify the notes of a table or query into a new table or Parquet, page by page.

The source is read by keyset pagination on the ``id`` column (unique, orderable): each page is the next
rows after the last key written, so a run resumes where it stopped and ``plan`` can cut the source into
key ranges ``(lower, upper]`` that separate processes (``--workers``, Dask) run on their own. Each row
becomes a Document (id, text, the patient id, its date as reference date) scrubbed by the FHIR path's
text pass (the run's privacy profile), so notes in a table and in a FHIR export share one patient key:
the ``patient`` column is written as the same pseudonym as the FHIR Patient id, and the ``date`` column
moves by the patient's shift, the one the profile's ``date_shift`` adds (with its per-date noise) to the
note's dates (or keeps its year alone if the profile's table shifts no date: Safe Harbor, dp). Columns
not mapped are not copied unless named in ``keep``. Nothing is updated in place.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.errors import AnonymedError, ConfigError
from anonymed.fhir.dates import Timeline, run_key, shift_date
from anonymed.fhir.ids import Pseudonyms
from anonymed.fhir.profile import check_text_operators, date_shift_params
from anonymed.fhir.rules import RuleTable, load_rules
from anonymed.fhir.text import TextContext, TextPass, replace_method
from anonymed.sql.database import Database, Source, open_database
from anonymed.sql.mapping import ColumnMap
from anonymed.sql.sinks import ParquetSink, Sink, TableSink, prepare_table

PAGE_SIZE = 1000


@dataclass(frozen=True)
class KeyRange:
    """Rows with ``lower < key <= upper`` (None: unbounded); ``index`` names its Parquet files."""

    index: int
    lower: Any = None
    upper: Any = None


@dataclass
class RangeResult:
    """What one range did: rows read, written and failed (id and reason, never text)."""

    rows: int = 0
    failed: list[dict[str, str]] = field(default_factory=list)
    spans: int = 0
    counts: dict[str, int] = field(default_factory=dict)  # the substitution stage's (run summary)


@dataclass(frozen=True)
class SqlJob:
    """Everything a worker needs to run a key range (picklable: URLs, names and plain settings); its
    ``repr`` shows neither the URL (it may hold a password) nor the key."""

    url: str = field(repr=False)
    source: Source
    columns: ColumnMap
    table: str | None = None
    parquet: Path | None = None
    config: PipelineConfig = field(default_factory=PipelineConfig)
    rules: Path | None = None
    patient_key: bytes | None = field(default=None, repr=False)
    seed: int | None = None
    as_of: dt.date | None = None
    driver: str = "auto"
    page_size: int = PAGE_SIZE
    resume: bool = False

    def __post_init__(self) -> None:
        if (self.table is None) == (self.parquet is None):
            raise ConfigError("give exactly one output: --to-table or -o FOLDER (Parquet)")
        # one key for the whole run, shared by every worker (the patient key, else from the seed, else a
        # secret): consistent surrogates, shifts and pseudonyms
        object.__setattr__(self, "patient_key", run_key(self.patient_key, self.seed))
        if self.table_rules.safe_harbor:
            check_text_operators(self.config)

    def database(self) -> Database:
        """A fresh connection (one per worker)."""
        return open_database(self.url, self.driver)

    # --- planning (driver) ------------------------------------------------------------------------
    def plan(self, parts: int = 1) -> list[KeyRange]:
        """Cut the source into ``parts`` key ranges of about equal row counts; prepare the output."""
        db = self.database()
        try:
            probe = db.page(self.source, self.columns.columns, self.columns.id, None, None, self.page_size)
            if self.table is not None:
                prepare_table(
                    db, self.table, self.schema(probe), resume=self.resume, source_table=self.source.table
                )
            elif (
                self.parquet is not None
                and not self.resume
                and self.parquet.exists()
                and any(self.parquet.iterdir())
            ):
                raise ConfigError(
                    f"{str(self.parquet)!r} is not empty: remove it, choose another, or --resume"
                )
            total = db.count(self.source) if parts > 1 else 0
            offsets = [total * i // parts - 1 for i in range(1, parts)]
            bounds = [db.key_at(self.source, self.columns.id, offset) for offset in offsets if offset >= 0]
        finally:
            db.close()
        edges = [None, *dict.fromkeys(b for b in bounds if b is not None), None]
        return [KeyRange(i, lo, hi) for i, (lo, hi) in enumerate(pairwise(edges))]

    def schema(self, probe: list[dict[str, Any]]) -> Any:
        """The output's Arrow schema: source types for id, date and kept columns; strings otherwise."""
        import pyarrow as pa

        def inferred(column: str) -> Any:
            kind = pa.array([row.get(column) for row in probe]).type if probe else pa.string()
            return pa.string() if pa.types.is_null(kind) else kind

        cols = self.columns
        fields = [pa.field(cols.id, inferred(cols.id)), pa.field(cols.text, pa.string())]
        if cols.patient is not None:
            fields.append(pa.field(cols.patient, pa.string()))
        if cols.date is not None:
            fields.append(
                pa.field(cols.date, pa.int64() if not self.table_rules.shifts_dates else inferred(cols.date))
            )
        fields += [pa.field(c, inferred(c)) for c in cols.keep]
        return pa.schema(fields)

    @cached_property
    def table_rules(self) -> RuleTable:
        """The profile's rules table (its id scheme and its Safe Harbor claim apply here)."""
        return load_rules(self.config.profile, self.rules)

    # --- one range (worker) ----------------------------------------------------------------------
    def run_range(self, key_range: KeyRange, progress: Callable[[int], None] | None = None) -> RangeResult:
        """De-identify the rows of one key range, page by page, resuming after the last key written."""
        import pyarrow as pa

        worker = _Worker(self)
        db = self.database()
        result = RangeResult()
        try:
            probe = db.page(
                self.source, self.columns.columns, self.columns.id, key_range.lower, key_range.upper, 1
            )
            schema = self.schema(probe)
            sink: Sink = (
                TableSink(db, self.table, self.columns.id, key_range.lower, key_range.upper)
                if self.table is not None
                else ParquetSink(self.parquet or Path("."), key_range.index, resume=self.resume)
            )
            after = sink.resume_key()
            after = key_range.lower if after is None else after
            while True:
                rows = db.page(
                    self.source, self.columns.columns, self.columns.id, after, key_range.upper, self.page_size
                )
                if not rows:
                    break
                out = [worker.row(row, result) for row in rows]
                after = rows[-1][self.columns.id]
                sink.write(pa.Table.from_pylist(out, schema=schema), after)
                result.rows += len(rows)
                if progress is not None:
                    progress(len(rows))
        finally:
            db.close()
        result.counts = dict(worker.text.stats.counts)
        return result


class _Worker:
    """The per-process state of a job: text pass (the replace method of ``anonymed.methods``), shift and
    pseudonyms (built once)."""

    def __init__(self, job: SqlJob) -> None:
        self.job = job
        rules = job.table_rules
        self.year_only = not rules.shifts_dates
        assert job.patient_key is not None  # (set on creation)
        config = job.config.replace(patient_key=job.patient_key, seed=job.seed)
        self.timeline = Timeline(job.patient_key, date_shift_params(config), job.as_of or dt.date.today())
        self.ids = Pseudonyms(rules.ids, key=job.patient_key, seed=job.seed)
        self.text = TextPass(replace_method(config))

    def row(self, row: dict[str, Any], result: RangeResult) -> dict[str, Any]:
        cols = self.job.columns
        key = row[cols.id]
        patient = row.get(cols.patient) if cols.patient else None
        subject = str(patient) if patient is not None else f"\x00row/{key}"  # (no patient: the row alone)
        original_date = row.get(cols.date) if cols.date else None
        out: dict[str, Any] = {cols.id: key, **{c: row.get(c) for c in cols.keep}}
        if cols.patient is not None:
            out[cols.patient] = None if patient is None else self.ids.resource_id("Patient", str(patient))
        if cols.date is not None:
            out[cols.date] = self._date(original_date, subject)
        text = row.get(cols.text)
        out[cols.text] = None
        if isinstance(text, str):
            context = TextContext(doc_id=f"row/{key}", subject=subject, reference_date=_iso(original_date))
            try:
                doc = self.text.run(text, context)
            except AnonymedError as exc:
                result.failed.append({"id": str(key), "reason": f"{type(exc).__name__}: {exc}"})
            else:
                out[cols.text] = doc.result
                result.spans += len(doc.spans)
        elif text is not None:
            result.failed.append(
                {"id": str(key), "reason": f"text column holds {type(text).__name__}, not text"}
            )
        return out

    def _date(self, value: Any, subject: str) -> Any:
        """The date moved by the subject's shift, or its year (a table that shifts no date); None if 90+."""
        iso = _iso(value)
        if iso is None or self.timeline.over89(iso):
            return None
        if self.year_only:
            return int(iso[:4])
        days = self.timeline.days(subject)
        if isinstance(value, dt.date):  # datetime too (a subclass)
            moved: Any = value + dt.timedelta(days=days)
        else:
            head = shift_date(value[:10], days)
            moved = None if head is None else head + value[10:]
        return None if moved is None or self.timeline.over89(_iso(moved) or "") else moved


def _iso(value: Any) -> str | None:
    if isinstance(value, dt.date):
        return value.isoformat()
    return value[:10] if isinstance(value, str) and len(value) >= 10 else None
