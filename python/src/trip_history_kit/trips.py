"""Every rider's trips in a window (`GET /v1/trips`), as pages or as a streamed export, into Arrow tables,
pandas DataFrames and Parquet files with one flat schema."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import httpx
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .errors import ApiError
from .generated import AuthenticatedClient
from .generated.api.analytics import list_trips
from .generated.models.trip_status import TripStatus
from .generated.types import UNSET
from .http import DEFAULT_RETRIES, Retries, call, wait_or_raise

_TIME = pa.timestamp("us", tz="UTC")

# The analyst CSV export's columns, in its order (openapi.yaml, `GET /v1/trips`), each with where a trip's
# JSON holds it: the stored values, without display strings, so a table from pages, an export or the changes
# feed has the columns of the CSV export.
_COLUMNS: tuple[tuple[str, tuple[str, ...], pa.DataType], ...] = (
    ("id", ("id",), pa.int64()),
    ("rider_id", ("rider_id",), pa.int64()),
    ("status", ("status",), pa.string()),
    ("product", ("product",), pa.string()),
    ("city", ("city",), pa.string()),
    ("time_zone", ("time_zone",), pa.string()),
    ("requested_at", ("requested_at",), _TIME),
    ("started_at", ("started_at",), _TIME),
    ("completed_at", ("completed_at",), _TIME),
    ("pickup_lat", ("pickup", "lat"), pa.float64()),
    ("pickup_lon", ("pickup", "lon"), pa.float64()),
    ("pickup_address", ("pickup", "address"), pa.string()),
    ("dropoff_lat", ("dropoff", "lat"), pa.float64()),
    ("dropoff_lon", ("dropoff", "lon"), pa.float64()),
    ("dropoff_address", ("dropoff", "address"), pa.string()),
    ("distance_m", ("distance_m",), pa.int64()),
    ("duration_s", ("duration_s",), pa.int64()),
    ("fare_amount_minor", ("fare", "amount_minor"), pa.int64()),
    ("fare_currency", ("fare", "currency"), pa.string()),
    ("fare_total_minor", ("fare", "total_minor"), pa.int64()),
    ("tips_minor", ("fare", "tips_minor"), pa.int64()),
    ("refunds_minor", ("fare", "refunds_minor"), pa.int64()),
    ("version", ("version",), pa.int64()),
    ("recorded_at", ("recorded_at",), _TIME),
    ("updated_at", ("updated_at",), _TIME),
)

TRIP_SCHEMA = pa.schema([(name, kind) for name, _, kind in _COLUMNS])
"""The flat schema of every table the kit builds: ids as 64-bit integers, times as UTC microseconds, amounts
in the currency's minor unit; `completed_at` is null for a canceled trip."""


def _member(trip: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = trip
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def trips_batch(trips: Iterable[Mapping[str, Any]]) -> pa.RecordBatch:
    """The trips' JSON objects (list rows, export lines, the feed's upserts or details) as one record batch
    of `TRIP_SCHEMA`; members they do not carry are null, members the schema does not name are left out."""
    rows = trips if isinstance(trips, list) else list(trips)
    arrays = []
    for name, path, kind in _COLUMNS:
        values = [_member(trip, path) for trip in rows]
        if kind == _TIME or name in ("id", "rider_id"):
            # Times arrive as RFC 3339 text and ids as decimal text; Arrow parses both.
            arrays.append(pa.array(values, pa.string()).cast(kind))
        else:
            arrays.append(pa.array(values, kind))
    return pa.RecordBatch.from_arrays(arrays, schema=TRIP_SCHEMA)


def trips_table(trips: Iterable[Mapping[str, Any]]) -> pa.Table:
    """The trips' JSON objects as an Arrow table of `TRIP_SCHEMA`."""
    return pa.Table.from_batches([trips_batch(trips)], schema=TRIP_SCHEMA)


def trips_frame(trips: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """The trips' JSON objects as a pandas DataFrame with `TRIP_SCHEMA`'s columns."""
    return trips_table(trips).to_pandas()


@dataclass(frozen=True)
class TripFilter:
    """An analyst query's window and filters (docs/api-analysts.md): `from_` inclusive and `to` exclusive,
    each an RFC 3339 instant or a date meaning its midnight in `tz`; the others narrow by exact match."""

    from_: str
    to: str
    tz: str | None = None
    city: str | None = None
    product: str | None = None
    status: str | None = None
    rider_id: str | int | None = None

    def params(self) -> dict[str, str]:
        """The query parameters, without those not given."""
        given = {
            "from": self.from_,
            "to": self.to,
            "tz": self.tz,
            "city": self.city,
            "product": self.product,
            "status": self.status,
            "rider_id": None if self.rider_id is None else str(self.rider_id),
        }
        return {name: value for name, value in given.items() if value is not None}


def iter_pages(
    client: AuthenticatedClient,
    query: TripFilter,
    *,
    limit: int = 1000,
    retries: Retries = DEFAULT_RETRIES,
) -> Iterator[list[dict[str, Any]]]:
    """Each JSON page of the trips `query` matches, newest first, as lists of trip objects, following
    `next_cursor` until the last page."""
    cursor: str | None = None
    while True:
        response = call(
            partial(
                list_trips.sync_detailed,
                client=client,
                from_=query.from_,
                to=query.to,
                tz=query.tz or UNSET,
                city=query.city or UNSET,
                product=query.product or UNSET,
                status=TripStatus(query.status) if query.status else UNSET,
                rider_id=UNSET if query.rider_id is None else str(query.rider_id),
                limit=limit,
                cursor=cursor or UNSET,
            ),
            retries,
        )
        page = json.loads(response.content)
        yield page["data"]
        cursor = page["page"]["next_cursor"]
        if not cursor:
            return


def pages_table(client: AuthenticatedClient, query: TripFilter, *, limit: int = 1000) -> pa.Table:
    """Every trip `query` matches, read page by page, as one Arrow table."""
    batches = [trips_batch(page) for page in iter_pages(client, query, limit=limit)]
    return pa.Table.from_batches(batches, schema=TRIP_SCHEMA)


def pages_frame(client: AuthenticatedClient, query: TripFilter, *, limit: int = 1000) -> pd.DataFrame:
    """Every trip `query` matches, read page by page, as a pandas DataFrame."""
    return pages_table(client, query, limit=limit).to_pandas()


class _Cut(ValueError):
    """An export's line is not JSON: the transfer ended in the middle of it."""


def iter_export(
    client: AuthenticatedClient,
    query: TripFilter,
    *,
    include: Iterable[str] = (),
    retries: Retries = DEFAULT_RETRIES,
    resumes: int = 3,
) -> Iterator[dict[str, Any]]:
    """Every trip `query` matches, newest first, streamed as NDJSON (one request, flat memory), each with the
    parts `include` names (`fare_breakdown`, `adjustments`: `GET /v1/trips/export`'s `include`).

    A transfer cut short (a failure on the server, its export time limit, the network) is resumed after the
    last complete line with `resume_after` and `resume_requested_at`, so no trip is repeated or missed; after
    `resumes` cuts in a row without a new line, the last one is raised (httpx's `TransportError`, or a
    `ValueError` for a line cut short).
    """
    http = client.get_httpx_client()
    last: tuple[str, str] | None = None
    attempt = 0
    cuts = 0
    while True:
        params = query.params() | {"format": "ndjson"}
        if include:
            params["include"] = ",".join(include)
        if last is not None:
            params["resume_after"], params["resume_requested_at"] = last
        received = False
        try:
            with http.stream("GET", "/v1/trips/export", params=params) as response:
                if response.status_code != 200:
                    attempt += 1
                    wait_or_raise(ApiError.from_response(response, response.read()), attempt, retries)
                    continue
                for line in response.iter_lines():
                    if not line:
                        continue
                    try:
                        trip = json.loads(line)
                    except ValueError as error:
                        raise _Cut(line[:80]) from error
                    last = (trip["id"], trip["requested_at"])
                    received = True
                    yield trip
                return
        except (httpx.TransportError, _Cut):
            cuts = 0 if received else cuts + 1
            if cuts >= resumes:
                raise


def export_batches(
    client: AuthenticatedClient, query: TripFilter, *, batch_size: int = 10_000
) -> Iterator[pa.RecordBatch]:
    """The export of `query` as record batches of at most `batch_size` trips."""
    batch: list[dict[str, Any]] = []
    for trip in iter_export(client, query):
        batch.append(trip)
        if len(batch) == batch_size:
            yield trips_batch(batch)
            batch = []
    if batch:
        yield trips_batch(batch)


def export_table(client: AuthenticatedClient, query: TripFilter) -> pa.Table:
    """The export of `query` as one Arrow table."""
    return pa.Table.from_batches(list(export_batches(client, query)), schema=TRIP_SCHEMA)


def export_frame(client: AuthenticatedClient, query: TripFilter) -> pd.DataFrame:
    """The export of `query` as a pandas DataFrame."""
    return export_table(client, query).to_pandas()


def export_parquet(
    client: AuthenticatedClient,
    query: TripFilter,
    path: str | os.PathLike[str],
    *,
    batch_size: int = 10_000,
) -> int:
    """Streams the export of `query` into the Parquet file `path`, a batch at a time, and returns how many
    trips it holds. The file appears whole or not at all: it is written beside `path` and renamed at the end."""
    partial = f"{os.fspath(path)}.partial"
    rows = 0
    try:
        with pq.ParquetWriter(partial, TRIP_SCHEMA) as writer:
            for batch in export_batches(client, query, batch_size=batch_size):
                writer.write_batch(batch)
                rows += batch.num_rows
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
    return rows


def write_parquet(data: pa.Table | pd.DataFrame, path: str | os.PathLike[str]) -> None:
    """Writes a table or DataFrame of trips to the Parquet file `path` with `TRIP_SCHEMA`'s types."""
    table = data if isinstance(data, pa.Table) else pa.Table.from_pandas(data, preserve_index=False)
    partial = f"{os.fspath(path)}.partial"
    pq.write_table(table.select(TRIP_SCHEMA.names).cast(TRIP_SCHEMA), partial)
    os.replace(partial, path)
