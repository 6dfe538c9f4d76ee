"""Pages and exports into Arrow tables, DataFrames and Parquet files, against the fake service."""

from __future__ import annotations

import json
import os

import httpx
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from fakes import CutStream, ndjson, problem, trip

import trip_history_kit as kit

OCTOBER = kit.TripFilter(from_="2026-10-01", to="2026-11-01", tz="Europe/Paris", city="Paris")


def page(trips: list[dict], next_cursor: str | None) -> httpx.Response:
    return httpx.Response(
        200,
        json={
            "data": trips,
            "page": {"limit": 2, "has_more": next_cursor is not None, "next_cursor": next_cursor, "prev_cursor": None},
            "filter": {
                "from": "2026-09-30T22:00:00Z",
                "to": "2026-10-31T23:00:00Z",
                "tz": "Europe/Paris",
                "status": None,
                "city": "Paris",
                "product": None,
                "rider_id": None,
            },
        },
    )


def test_a_trip_becomes_a_row_of_the_csv_exports_columns_with_typed_values():
    table = kit.trips_table([trip(12, "2026-10-05T08:00:00Z"), trip(11, "2026-10-04T07:00:00.5Z", canceled=True)])

    assert table.schema == kit.TRIP_SCHEMA
    assert table.column_names[:3] == ["id", "rider_id", "status"] and table.column_names[-1] == "updated_at"
    first, second = table.to_pylist()
    assert first["id"] == 12 and first["rider_id"] == 7
    assert first["requested_at"] == pd.Timestamp("2026-10-05T08:00:00Z").to_pydatetime()
    assert first["completed_at"].microsecond == 123000
    assert first["updated_at"].microsecond == 1
    assert first["dropoff_lon"] == 2.0 and first["dropoff_address"] == "=Champ de Mars"
    assert (first["fare_amount_minor"], first["fare_total_minor"], first["tips_minor"]) == (1834, 2134, 300)
    assert first["fare_currency"] == "EUR" and first["version"] == 1
    assert second["completed_at"] is None and second["status"] == "canceled"
    assert "display" not in table.column_names


def test_no_trips_is_an_empty_table_with_the_schema():
    assert kit.trips_table([]).schema == kit.TRIP_SCHEMA
    assert kit.trips_table([]).num_rows == 0


def test_a_dataframe_keeps_the_types():
    frame = kit.trips_frame([trip(1, "2026-10-05T08:00:00Z")])
    assert str(frame["requested_at"].dtype) == "datetime64[us, UTC]"
    assert frame["id"].dtype == "int64" and frame["fare_total_minor"].dtype == "int64"


def test_pages_follow_next_cursor_with_the_same_filter(service, client):
    service.on(
        "/v1/trips",
        page([trip(3, "2026-10-03T00:00:00Z"), trip(2, "2026-10-02T00:00:00Z")], "CUR2"),
        page([trip(1, "2026-10-01T00:00:00Z")], None),
    )

    table = kit.pages_table(client, OCTOBER, limit=2)

    assert table.column("id").to_pylist() == [3, 2, 1]
    first, second = service.params("/v1/trips")
    assert first == {"from": "2026-10-01", "to": "2026-11-01", "tz": "Europe/Paris", "city": "Paris", "limit": "2"}
    assert second == first | {"cursor": "CUR2"}
    assert service.requests[0].headers["authorization"] == "Bearer analyst-token"


def test_a_refused_page_raises_the_problem(service, client):
    service.on("/v1/trips", problem(400, "invalid_parameter", param="from"))

    with pytest.raises(kit.ApiError) as refused:
        kit.pages_frame(client, OCTOBER)

    assert (refused.value.status, refused.value.code, refused.value.param) == (400, "invalid_parameter", "from")
    assert refused.value.request_id == "req-1"


def test_a_rate_limited_page_is_asked_again_after_retry_after(service, client, pauses):
    service.on("/v1/trips", problem(429, "rate_limited", retry_after=2), page([trip(1, "2026-10-01T00:00:00Z")], None))

    assert kit.pages_table(client, OCTOBER).num_rows == 1
    assert pauses == [2.0]


def test_an_export_streams_ndjson_into_a_table(service, client):
    service.on(
        "/v1/trips/export",
        httpx.Response(200, content=ndjson(trip(2, "2026-10-02T00:00:00Z"), trip(1, "2026-10-01T00:00:00Z"))),
    )

    table = kit.export_table(client, OCTOBER)

    assert table.column("id").to_pylist() == [2, 1]
    assert service.params("/v1/trips/export") == [OCTOBER.params() | {"format": "ndjson"}]


def test_a_cut_export_resumes_after_its_last_complete_line(service, client):
    lines = ndjson(trip(3, "2026-10-03T00:00:00Z"), trip(2, "2026-10-02T00:00:00.25Z"))
    partial = json.dumps(trip(1, "2026-10-01T00:00:00Z")).encode()[:40]
    service.on(
        "/v1/trips/export",
        httpx.Response(200, stream=CutStream([lines, partial])),
        httpx.Response(200, content=ndjson(trip(1, "2026-10-01T00:00:00Z"))),
    )

    assert kit.export_table(client, OCTOBER).column("id").to_pylist() == [3, 2, 1]
    assert service.params("/v1/trips/export")[1] == OCTOBER.params() | {
        "format": "ndjson",
        "resume_after": "2",
        "resume_requested_at": "2026-10-02T00:00:00.25Z",
    }


def test_an_export_cut_again_and_again_without_progress_fails(service, client):
    service.on("/v1/trips/export", *[httpx.Response(200, stream=CutStream([b'{"id": "1"'])) for _ in range(3)])

    with pytest.raises(httpx.RemoteProtocolError):
        kit.export_table(client, OCTOBER)
    assert len(service.requests) == 3


def test_an_export_refused_while_another_runs_waits_its_turn(service, client, pauses):
    service.on(
        "/v1/trips/export",
        problem(429, "rate_limited", retry_after=1),
        httpx.Response(200, content=ndjson(trip(1, "2026-10-01T00:00:00Z"))),
    )

    assert kit.export_frame(client, OCTOBER)["id"].tolist() == [1]
    assert pauses == [1.0]


def test_an_export_refused_for_good_raises_without_waiting(service, client, pauses):
    service.on("/v1/trips/export", problem(422, "query_timeout"))

    with pytest.raises(kit.ApiError, match="query_timeout"):
        kit.export_table(client, OCTOBER)
    assert pauses == []


def test_export_parquet_writes_every_batch(service, client, tmp_path):
    trips = [trip(n, f"2026-10-{n:02d}T00:00:00Z") for n in range(5, 0, -1)]
    service.on("/v1/trips/export", httpx.Response(200, content=ndjson(*trips)))
    path = tmp_path / "paris.parquet"

    assert kit.export_parquet(client, OCTOBER, path, batch_size=2) == 5

    written = pq.read_table(path)
    assert written.schema == kit.TRIP_SCHEMA
    assert written.equals(kit.trips_table(trips))
    assert os.listdir(tmp_path) == ["paris.parquet"]


def test_a_failed_export_leaves_no_parquet_file(service, client, tmp_path):
    service.on("/v1/trips/export", problem(400, "invalid_parameter", param="tz"))

    with pytest.raises(kit.ApiError):
        kit.export_parquet(client, OCTOBER, tmp_path / "paris.parquet")
    assert os.listdir(tmp_path) == []


def test_write_parquet_keeps_the_schema_of_a_dataframe(tmp_path):
    table = kit.trips_table([trip(2, "2026-10-02T00:00:00Z"), trip(1, "2026-10-01T00:00:00Z", canceled=True)])
    kit.write_parquet(table.to_pandas(), tmp_path / "trips.parquet")

    assert pq.read_table(tmp_path / "trips.parquet").equals(table)
    assert isinstance(pq.read_schema(tmp_path / "trips.parquet").field("completed_at").type, pa.TimestampType)


def test_the_ledger_tables_have_one_row_per_entry_with_its_trips_columns(service, client):
    tipped = trip(2, "2026-10-02T00:00:00Z")
    tipped["adjustments"] = [
        {
            "id": "7",
            "kind": "tip",
            "amount_minor": 200,
            "reason": "thanks",
            "created_at": "2026-10-03T00:00:00.000000Z",
        },
        {
            "id": "9",
            "kind": "refund",
            "amount_minor": -50,
            "reason": "late",
            "created_at": "2026-10-04T00:00:00.000000Z",
        },
    ]
    tipped["fare"]["breakdown"] = [{"kind": "base", "amount_minor": 1000}, {"kind": "tolls", "amount_minor": 500}]
    plain = trip(1, "2026-10-01T00:00:00Z")
    plain["adjustments"] = []
    service.on("/v1/trips/export", *[httpx.Response(200, content=ndjson(tipped, plain)) for _ in range(2)])

    ledger = kit.adjustments_table(client, OCTOBER)
    lines = kit.fare_lines_table(client, OCTOBER)

    assert ledger.schema == kit.ADJUSTMENT_SCHEMA and lines.schema == kit.FARE_LINE_SCHEMA
    assert ledger.column("id").to_pylist() == [7, 9]
    assert ledger.column("trip_id").to_pylist() == [2, 2]
    assert ledger.column("amount_minor").to_pylist() == [200, -50]
    assert lines.column("kind").to_pylist() == ["base", "tolls"]
    assert lines.column("line").to_pylist() == [0, 1]
    assert [p["include"] for p in service.params("/v1/trips/export")] == ["adjustments", "fare_breakdown"]
