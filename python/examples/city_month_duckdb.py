"""One city's month of trips in DuckDB, kept equal to the service through the analysts' changes feed.

Loads the month from an analyst export into a DuckDB table (the first run of `follow_changes` takes a feed
token, then rebuilds the table), records a tip, a refund and a fare correction on three of its trips with a
service token and erases one of its riders with a privacy token, follows the feed applying each change to the
table, and ends by asserting that the table equals what the service answers for the city and month now.

It writes to the service, so it runs only against one on this machine (`scripts/run`) unless
EXAMPLE_ALLOW_WRITES=1: never point it at production. The tip needs a trip completed within the server's tip
window (`TRIP_HISTORY_TIP_WINDOW_DAYS`, 30 days by default); for an older month start the server with a larger
one.

Environment: BASE, ANALYST_TOKEN and SERVICE_TOKEN as `scripts/run` prints them, PRIVACY_TOKEN from
`trip-history token --role privacy`; optionally EXAMPLE_CITY (Paris), EXAMPLE_TZ (Europe/Paris),
EXAMPLE_MONTH (2026-10, the demo data's last month) and EXAMPLE_DIR, where the DuckDB file and the feed's token
are kept between runs (a temporary directory, removed at the end, by default). Exits 0 when the table matches.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import uuid
from datetime import date
from urllib.parse import urlsplit

import duckdb
import pyarrow as pa

import trip_history_kit as kit
from trip_history_kit.generated.api.analytics import list_trips
from trip_history_kit.generated.api.privacy import erase_rider
from trip_history_kit.generated.api.trips import record_adjustment
from trip_history_kit.generated.models.adjustment_kind import AdjustmentKind
from trip_history_kit.generated.models.new_adjustment import NewAdjustment

BASE = os.environ["BASE"]
CITY = os.environ.get("EXAMPLE_CITY", "Paris")
TZ = os.environ.get("EXAMPLE_TZ", "Europe/Paris")
MONTH = os.environ.get("EXAMPLE_MONTH", "2026-10")

analyst = kit.connect(BASE, os.environ["ANALYST_TOKEN"])
service = kit.connect(BASE, os.environ["SERVICE_TOKEN"])
privacy = kit.connect(BASE, os.environ["PRIVACY_TOKEN"])


def month_filter() -> kit.TripFilter:
    """The month as dates, which the service reads as midnights in the city's zone."""
    first = date.fromisoformat(f"{MONTH}-01")
    following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return kit.TripFilter(from_=first.isoformat(), to=following.isoformat(), tz=TZ, city=CITY)


MONTH_FILTER = month_filter()


def month_bounds() -> tuple:
    """The month's bounds as UTC instants, as the service resolved them (the filter a JSON page echoes)."""
    response = list_trips.sync_detailed(
        client=analyst, from_=MONTH_FILTER.from_, to=MONTH_FILTER.to, tz=TZ, city=CITY, limit=1
    )
    if response.status_code != 200:
        raise kit.ApiError.from_response(response)
    return response.parsed.filter_.from_, response.parsed.filter_.to


def load_month(con: duckdb.DuckDBPyConnection, error: kit.ApiError | None) -> None:
    """Rebuilds the table from an export: on the first run, and whenever the feed's token expired."""
    month = kit.export_table(analyst, MONTH_FILTER)
    con.register("month_export", month)
    run(con, "CREATE OR REPLACE TABLE trips AS SELECT * FROM month_export")
    con.unregister("month_export")
    print(f"loaded {month.num_rows} trips of {CITY} in {MONTH}" + (f" again after {error.code}" if error else ""))


def apply(con: duckdb.DuckDBPyConnection, change: kit.Change, bounds: tuple) -> None:
    """One change of the feed applied to the table: an erased trip is dropped; an upserted trip of the city
    and month replaces an older version of itself, or is added when the table does not have it."""
    if change.kind == kit.ERASED:
        run(con, "DELETE FROM trips WHERE id = ?", int(change.id))
        return
    row = kit.trips_table([change.trip])
    con.register("change_row", row)
    try:
        run(
            con,
            "DELETE FROM trips WHERE id IN (SELECT id FROM change_row) AND version < (SELECT version FROM change_row)",
        )
        run(
            con,
            "INSERT INTO trips SELECT * FROM change_row WHERE city = ? AND requested_at >= ? AND requested_at < ? "
            "AND id NOT IN (SELECT id FROM trips)",
            CITY,
            *bounds,
        )
    finally:
        con.unregister("change_row")


def adjust(trip: tuple[int, int], kind: AdjustmentKind, amount_minor: int) -> int:
    """Records an adjustment on (trip id, rider id) as a backend service would; returns the trip's new version."""
    trip_id, rider_id = trip
    response = record_adjustment.sync_detailed(
        str(rider_id),
        str(trip_id),
        client=service,
        body=NewAdjustment(kind=kind, amount_minor=amount_minor, reason=f"kit example: {kind.value}"),
        idempotency_key=f"kit-example-{uuid.uuid4()}",
    )
    if response.status_code != 201:
        error = kit.ApiError.from_response(response)
        if kind == AdjustmentKind.TIP and error.param == "kind":
            sys.exit(f"the server refused the tip ({error}): {MONTH} is older than its tip window")
        raise error
    print(f"{kind.value} of {amount_minor:+d} on trip {trip_id}: version {response.parsed.version}")
    return response.parsed.version


def run(con: duckdb.DuckDBPyConnection, sql: str, *params: object) -> list[tuple]:
    """Every row `sql` gives; DuckDB wants a statement's result read to its end before the next one."""
    return con.execute(sql, list(params)).fetchall()


def one(con: duckdb.DuckDBPyConnection, sql: str, *params: object) -> tuple:
    """The first row `sql` gives; the example needs it, so none ends the run."""
    found = run(con, sql, *params)
    if not found:
        sys.exit(f"{CITY} in {MONTH} has too few trips for the example ({sql})")
    return found[0]


def main(directory: str) -> None:
    if (
        urlsplit(BASE).hostname not in ("127.0.0.1", "localhost", "::1")
        and os.environ.get("EXAMPLE_ALLOW_WRITES") != "1"
    ):
        sys.exit(f"{BASE} is not on this machine; the example records adjustments and erases a rider there")
    os.makedirs(directory, exist_ok=True)
    con = duckdb.connect(os.path.join(directory, "trips.duckdb"))
    run(con, "SET TimeZone = 'UTC'")
    tokens = os.path.join(directory, "since")
    bounds = month_bounds()

    def follow() -> list[kit.Change]:
        seen = list(kit.follow_changes(analyst, tokens, lambda error: load_month(con, error)))
        for change in seen:
            apply(con, change, bounds)
        return seen

    follow()

    tipped = one(
        con, "SELECT id, rider_id FROM trips WHERE status = 'completed' ORDER BY completed_at DESC, id LIMIT 1"
    )
    refunded = one(
        con, "SELECT id, rider_id FROM trips WHERE fare_total_minor >= 200 AND id <> ? ORDER BY id LIMIT 1", tipped[0]
    )
    corrected = one(
        con, "SELECT id, rider_id FROM trips WHERE id NOT IN (?, ?) ORDER BY id LIMIT 1", tipped[0], refunded[0]
    )
    adjusted_riders = sorted({tipped[1], refunded[1], corrected[1]})
    erased_rider = one(
        con,
        "SELECT rider_id FROM trips WHERE rider_id NOT IN (SELECT unnest(?)) GROUP BY rider_id ORDER BY count(*) DESC, rider_id LIMIT 1",
        adjusted_riders,
    )[0]
    erased_trips = {row[0] for row in run(con, "SELECT id FROM trips WHERE rider_id = ?", erased_rider)}
    before = {
        trip_id: one(con, "SELECT fare_total_minor, tips_minor, refunds_minor FROM trips WHERE id = ?", trip_id)
        for trip_id in (tipped[0], refunded[0], corrected[0])
    }

    versions = {
        tipped[0]: adjust(tipped, AdjustmentKind.TIP, 250),
        refunded[0]: adjust(refunded, AdjustmentKind.REFUND, -150),
        corrected[0]: adjust(corrected, AdjustmentKind.FARE_CORRECTION, 120),
    }
    response = erase_rider.sync_detailed(str(erased_rider), client=privacy)
    if response.status_code != 204:
        raise kit.ApiError.from_response(response)
    print(f"erased rider {erased_rider}, who had {len(erased_trips)} trips in the table")

    # A change reaches the feed once every older transaction in the database has ended, so ask a few times.
    upserted: dict[int, int] = {}
    erased: set[int] = set()
    deadline = time.monotonic() + 30
    while not (upserted.keys() >= versions.keys() and erased >= erased_trips):
        if time.monotonic() > deadline:
            sys.exit(f"the feed did not bring every change within 30 s: upserts {upserted}, erased {sorted(erased)}")
        time.sleep(0.2)
        for change in follow():
            if change.kind == kit.UPSERT:
                upserted[int(change.id)] = change.trip["version"]
            else:
                erased.add(int(change.id))
    print(f"followed the feed: {len(upserted)} upserts, {len(erased)} erasures applied")

    assert all(upserted[trip_id] >= version for trip_id, version in versions.items()), upserted
    after = {
        trip_id: one(con, "SELECT fare_total_minor, tips_minor, refunds_minor FROM trips WHERE id = ?", trip_id)
        for trip_id in before
    }
    assert after[tipped[0]] == (before[tipped[0]][0] + 250, before[tipped[0]][1] + 250, before[tipped[0]][2])
    assert after[refunded[0]] == (before[refunded[0]][0] - 150, before[refunded[0]][1], before[refunded[0]][2] - 150)
    assert after[corrected[0]] == (before[corrected[0]][0] + 120, *before[corrected[0]][1:])
    assert run(con, "SELECT count(*) FROM trips WHERE rider_id = ?", erased_rider) == [(0,)]

    ours = con.sql("SELECT * FROM trips ORDER BY requested_at DESC, id DESC").to_arrow_table().cast(kit.TRIP_SCHEMA)
    theirs = kit.export_table(analyst, MONTH_FILTER)
    assert ours.equals(theirs), _difference(ours, theirs)
    print(f"the DuckDB table equals the service's {theirs.num_rows} trips of {CITY} in {MONTH}")


def _difference(ours: pa.Table, theirs: pa.Table) -> str:
    """The ids whose rows differ, for the failure message."""
    mine = {row["id"]: row for row in ours.to_pylist()}
    yours = {row["id"]: row for row in theirs.to_pylist()}
    differing = sorted(key for key in mine.keys() | yours.keys() if mine.get(key) != yours.get(key))
    return f"{len(differing)} trips differ, first ids {differing[:10]}"


if __name__ == "__main__":
    if os.environ.get("EXAMPLE_DIR"):
        main(os.environ["EXAMPLE_DIR"])
    else:
        with tempfile.TemporaryDirectory(prefix="trip-history-example.") as scratch:
            main(scratch)
