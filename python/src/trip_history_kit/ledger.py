"""The money of every trip in a window, one row per entry: the adjustments ledger (tips, refunds, fare
corrections) and the fare breakdowns, from `GET /v1/trips/export?include=...`, into Arrow tables with flat
schemas a warehouse loads as they are."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import pyarrow as pa

from .generated import AuthenticatedClient
from .trips import TripFilter, iter_export

_TIME = pa.timestamp("us", tz="UTC")

# The trip's columns each entry repeats, so a table of entries groups without a join.
_TRIP_COLUMNS = (
    ("trip_id", pa.int64()),
    ("rider_id", pa.int64()),
    ("city", pa.string()),
    ("product", pa.string()),
    ("fare_currency", pa.string()),
    ("requested_at", _TIME),
)

ADJUSTMENT_SCHEMA = pa.schema(
    [
        ("id", pa.int64()),
        *_TRIP_COLUMNS,
        ("kind", pa.string()),
        ("amount_minor", pa.int64()),
        ("reason", pa.string()),
        ("created_at", _TIME),
    ]
)
"""One row per ledger entry: its id, its trip's columns, `kind` (`tip`, `refund`, `fare_correction`), the
signed `amount_minor` in the trip's currency's minor unit, the reason and when it was recorded."""

FARE_LINE_SCHEMA = pa.schema(
    [*_TRIP_COLUMNS, ("line", pa.int32()), ("kind", pa.string()), ("amount_minor", pa.int64())]
)
"""One row per line of a trip's fare breakdown, in the receipt's order (`line` from 0); a trip's lines add up to
its fare. Trips recorded without a breakdown have no row."""


def _trip_values(trip: Mapping[str, Any]) -> list[Any]:
    return [trip["id"], trip["rider_id"], trip["city"], trip["product"], trip["fare"]["currency"], trip["requested_at"]]


def _table(rows: list[list[Any]], schema: pa.Schema) -> pa.Table:
    columns = list(zip(*rows, strict=True)) if rows else [[] for _ in schema]
    arrays = []
    for values, field in zip(columns, schema, strict=True):
        if field.type == _TIME or field.name in ("id", "trip_id", "rider_id"):
            # Ids arrive as decimal text and times as RFC 3339 text; Arrow parses both.
            arrays.append(pa.array(list(values), pa.string()).cast(field.type))
        else:
            arrays.append(pa.array(list(values), field.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def adjustment_rows(trips: Iterable[Mapping[str, Any]]) -> Iterator[list[Any]]:
    """The ledger entries of trips exported with `include=adjustments`, as rows of `ADJUSTMENT_SCHEMA`."""
    for trip in trips:
        for entry in trip.get("adjustments") or []:
            yield [
                entry["id"],
                *_trip_values(trip),
                entry["kind"],
                entry["amount_minor"],
                entry["reason"],
                entry["created_at"],
            ]


def fare_line_rows(trips: Iterable[Mapping[str, Any]]) -> Iterator[list[Any]]:
    """The fare lines of trips exported with `include=fare_breakdown`, as rows of `FARE_LINE_SCHEMA`."""
    for trip in trips:
        for index, line in enumerate(trip["fare"].get("breakdown") or []):
            yield [*_trip_values(trip), index, line["kind"], line["amount_minor"]]


def adjustments_table(client: AuthenticatedClient, query: TripFilter) -> pa.Table:
    """Every ledger entry of the trips `query` matches (streamed in one export), as a table of
    `ADJUSTMENT_SCHEMA`, newest trip first and each trip's entries oldest first."""
    rows = list(adjustment_rows(iter_export(client, query, include=("adjustments",))))
    return _table(rows, ADJUSTMENT_SCHEMA)


def fare_lines_table(client: AuthenticatedClient, query: TripFilter) -> pa.Table:
    """Every fare line of the trips `query` matches (streamed in one export), as a table of
    `FARE_LINE_SCHEMA`."""
    rows = list(fare_line_rows(iter_export(client, query, include=("fare_breakdown",))))
    return _table(rows, FARE_LINE_SCHEMA)
