"""The kit against a live server, run by scripts/test-analyst-kit; skipped unless it set these variables:
TRIP_HISTORY_KIT_BASE_URL, TRIP_HISTORY_KIT_ANALYST_TOKEN, TRIP_HISTORY_KIT_SERVICE_TOKEN, and
TRIP_HISTORY_KIT_SECRET, the server's signing secret, with which a feed token is made to look old."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import os
import struct
import time
import uuid

import duckdb
import httpx
import pandas as pd
import pyarrow.parquet as pq
import pytest

import trip_history_kit as kit
from trip_history_kit.generated.api.trips import record_adjustment
from trip_history_kit.generated.models.adjustment_kind import AdjustmentKind
from trip_history_kit.generated.models.new_adjustment import NewAdjustment

ENVIRONMENT = ("BASE_URL", "ANALYST_TOKEN", "SERVICE_TOKEN", "SECRET")
pytestmark = pytest.mark.skipif(
    not all(os.environ.get(f"TRIP_HISTORY_KIT_{name}") for name in ENVIRONMENT),
    reason="needs a live server (scripts/test-analyst-kit)",
)

# The seeder's last month, in a city it always fills.
OCTOBER = kit.TripFilter(from_="2026-10-01", to="2026-11-01", tz="Europe/Paris", city="Paris")


@pytest.fixture(autouse=True)
def pauses():
    """Live tests wait for real."""


@pytest.fixture
def analyst():
    env = os.environ
    return kit.connect(env["TRIP_HISTORY_KIT_BASE_URL"], env["TRIP_HISTORY_KIT_ANALYST_TOKEN"])


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def aged(token: str, days: int) -> str:
    """`token`, an analysts' feed token the server just issued, as the server would have issued it `days` days
    ago: its issue hour moved back and signed again with the server's secret.

    SyncTokenCodec (Sources/TripHistoryAPI/Cursors) lays a token out as the feed's version (2 for the
    analysts'), three 8-byte position fields, the 8-byte issue hour in seconds, then the first 16 bytes of
    HMAC-SHA256 under a key derived from the secret; the original's signature is checked first, so a change
    of that layout fails here by name instead of as a puzzling 400.
    """
    raw = _unb64(token)
    key = hmac.new(
        os.environ["TRIP_HISTORY_KIT_SECRET"].encode(), b"trip-history sync token v1", hashlib.sha256
    ).digest()

    def sign(payload: bytes) -> bytes:
        return hmac.new(key, payload, hashlib.sha256).digest()[:16]

    assert len(raw) == 49 and raw[0] == 2 and sign(raw[:33]) == raw[33:], (
        "SyncTokenCodec's layout is not the one known here"
    )
    hour = (int(time.time()) - days * 86_400) // 3600 * 3600
    payload = raw[:25] + struct.pack(">q", hour)
    return _b64(payload + sign(payload))


def fresh_token(analyst) -> str:
    response = analyst.get_httpx_client().get("/v1/trips/changes")
    assert response.status_code == 200, response.text
    return response.json()["page"]["next_since"]


def correct_a_fare(trip: dict) -> int:
    """Records a small fare correction on `trip` with the service token; returns the trip's new version."""
    service = kit.connect(os.environ["TRIP_HISTORY_KIT_BASE_URL"], os.environ["TRIP_HISTORY_KIT_SERVICE_TOKEN"])
    response = record_adjustment.sync_detailed(
        trip["rider_id"],
        trip["id"],
        client=service,
        body=NewAdjustment(kind=AdjustmentKind.FARE_CORRECTION, amount_minor=10, reason="kit live test"),
        idempotency_key=f"kit-live-{uuid.uuid4()}",
    )
    assert response.status_code == 201, response.content
    return response.parsed.version


def follow_until(analyst, tokens, resync, wanted) -> list[kit.Change]:
    """Follows the feed until a change `wanted` accepts came, for at most 30 s (a change reaches the feed once
    every older transaction has ended)."""
    seen: list[kit.Change] = []
    deadline = time.monotonic() + 30
    while not any(wanted(change) for change in seen):
        assert time.monotonic() < deadline, f"no wanted change within 30 s; saw {seen}"
        seen += kit.follow_changes(analyst, tokens, resync)
        time.sleep(0.2)
    return seen


def test_a_token_past_the_retention_is_a_real_410(analyst):
    response = analyst.get_httpx_client().get("/v1/trips/changes", params={"since": aged(fresh_token(analyst), 40)})

    assert response.status_code == 410, response.text
    assert response.json()["code"] == "sync_token_expired"
    assert kit.ApiError.from_response(response).code == "sync_token_expired"


def test_an_aged_token_rebuilds_and_keeps_the_changes_made_during_the_rebuild(analyst, tmp_path):
    trip = next(kit.iter_pages(analyst, OCTOBER, limit=1))[0]
    tokens = tmp_path / "since"
    tokens.write_text(aged(fresh_token(analyst), 40))
    rebuilt: list[str] = []
    written: dict[str, int] = {}

    def resync(error: kit.ApiError | None) -> None:
        rebuilt.append(error.code if error else "first run")
        if len(rebuilt) == 1:
            # A write while the copy is rebuilt, after the kit took its fresh token: it must come through.
            written["version"] = correct_a_fare(trip)

    seen = follow_until(analyst, tokens, resync, lambda change: change.id == trip["id"])

    assert rebuilt == ["sync_token_expired"]
    versions = [change.trip["version"] for change in seen if change.id == trip["id"]]
    assert versions[-1] == written["version"]
    assert tokens.read_text().strip() != ""


def test_an_edited_token_is_a_400_that_rebuilds_only_when_asked(analyst, tmp_path):
    tokens = tmp_path / "since"
    tokens.write_text("AAAAAAAAAAAAAAAAAAAAAAAA")

    with pytest.raises(kit.ApiError) as refused:
        list(kit.follow_changes(analyst, tokens, lambda error: None))
    assert (refused.value.status, refused.value.code) == (400, "invalid_cursor")

    rebuilt: list[str] = []
    list(kit.follow_changes(analyst, tokens, lambda error: rebuilt.append(error.code), resync_on={"invalid_cursor"}))
    assert rebuilt == ["invalid_cursor"]
    list(kit.follow_changes(analyst, tokens, lambda error: rebuilt.append("again")))
    assert rebuilt == ["invalid_cursor"], "the token saved after the rebuild is accepted"


def test_pages_and_the_export_give_the_same_table(analyst, tmp_path):
    exported = kit.export_table(analyst, OCTOBER)
    paged = kit.pages_table(analyst, OCTOBER, limit=7)

    assert exported.num_rows > 7
    assert paged.equals(exported)
    assert set(exported.column("city").to_pylist()) == {"Paris"}

    path = tmp_path / "paris.parquet"
    assert kit.export_parquet(analyst, OCTOBER, path, batch_size=5) == exported.num_rows
    assert pq.read_table(path).equals(exported)
    assert kit.export_frame(analyst, OCTOBER).equals(exported.to_pandas())


def test_the_raw_csv_export_loads_into_duckdb_unchanged(tmp_path):
    """A trip whose text cells a spreadsheet would run as formulas comes back from `format=csv_raw` through
    DuckDB's CSV reader exactly as recorded, while `format=csv` still defuses them."""
    env = os.environ
    city = f"Raw {uuid.uuid4().hex[:8]}"
    pickup = '=HYPERLINK("http://x","y")'
    dropoff = '+1;-2,@SUM(A1)\n"quoted" line'
    trip = {
        "rider_id": "7", "status": "completed", "product": "@Pool", "city": city, "time_zone": "Asia/Tokyo",
        "requested_at": "2026-03-01T09:00:00.123456+09:00", "started_at": "2026-03-01T09:04:00+09:00",
        "completed_at": "2026-03-01T09:25:00.5+09:00",
        "pickup": {"lat": 35.6812, "lon": 139.7671, "address": pickup},
        "dropoff": {"lat": 35.6586, "lon": 139.7454, "address": dropoff},
        "distance_m": 5230, "duration_s": 1260, "fare": {"amount_minor": 1500, "currency": "JPY"},
    }  # fmt: skip
    service = {"Authorization": f"Bearer {env['TRIP_HISTORY_KIT_SERVICE_TOKEN']}"}
    analyst = {"Authorization": f"Bearer {env['TRIP_HISTORY_KIT_ANALYST_TOKEN']}"}
    with httpx.Client(base_url=env["TRIP_HISTORY_KIT_BASE_URL"], timeout=30) as http:
        recorded = http.post("/v1/trips", json=trip, headers=service | {"Idempotency-Key": str(uuid.uuid4())})
        assert recorded.status_code == 201, recorded.text
        window = {"from": "2026-03-01", "to": "2026-03-02", "tz": "Asia/Tokyo", "city": city}
        exports = {}
        for name in ("csv_raw", "csv", "ndjson"):
            response = http.get("/v1/trips/export", params=window | {"format": name}, headers=analyst)
            assert response.status_code == 200, response.text
            exports[name] = response.content
    (line,) = exports["ndjson"].splitlines()
    detail = json.loads(line)
    path = tmp_path / "raw.csv"
    path.write_bytes(exports["csv_raw"])

    as_text = duckdb.sql(f"SELECT * FROM read_csv('{path}', header = true, all_varchar = true)")
    (row,) = [dict(zip(as_text.columns, values, strict=True)) for values in as_text.fetchall()]
    assert (row["pickup_address"], row["dropoff_address"]) == (pickup, dropoff)
    assert (row["product"], row["city"]) == ("@Pool", city)
    assert row["id"] == detail["id"]
    for name in ("requested_at", "started_at", "completed_at", "recorded_at", "updated_at"):
        assert row[name] == detail[name], name

    # With DuckDB's own type detection: ids and amounts are numbers, times are timestamps to the microsecond.
    typed = duckdb.sql(
        "SELECT id, typeof(requested_at), microsecond(requested_at) % 1000000, fare_amount_minor "
        f"FROM read_csv('{path}', header = true)"
    )
    (values,) = typed.fetchall()
    assert (str(values[0]), values[3]) == (detail["id"], 1500)
    assert values[1].startswith("TIMESTAMP") and values[2] == 123456

    assert b"\"'=HYPERLINK" in exports["csv"]
    assert b"'" not in exports["csv_raw"]


def test_every_exported_time_has_six_fraction_digits_and_pandas_parses_it_without_a_format():
    env = os.environ
    analyst = {"Authorization": f"Bearer {env['TRIP_HISTORY_KIT_ANALYST_TOKEN']}"}
    window = {"from": "2026-10-01", "to": "2026-11-01", "tz": "Europe/Paris", "city": "Paris", "format": "csv_raw"}
    with httpx.Client(base_url=env["TRIP_HISTORY_KIT_BASE_URL"], timeout=60) as http:
        response = http.get("/v1/trips/export", params=window, headers=analyst)
    assert response.status_code == 200, response.text
    table = pd.read_csv(io.BytesIO(response.content), dtype=str, keep_default_na=False)
    assert len(table) > 10
    for name in ("requested_at", "started_at", "completed_at", "recorded_at", "updated_at"):
        written = table[name][table[name] != ""]
        assert written.str.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z").all(), name
        parsed = pd.to_datetime(written)
        assert parsed.notna().all() and str(parsed.dt.tz) == "UTC", name


def test_the_ledger_tables_add_up_to_each_trips_totals_and_fare(analyst):
    trips = kit.export_table(analyst, OCTOBER).to_pandas().set_index("id")
    correct_a_fare({"rider_id": str(trips.iloc[0]["rider_id"]), "id": str(trips.index[0])})
    trips = kit.export_table(analyst, OCTOBER).to_pandas().set_index("id")

    ledger = kit.adjustments_table(analyst, OCTOBER).to_pandas()
    lines = kit.fare_lines_table(analyst, OCTOBER).to_pandas()

    assert len(ledger) > 0 and len(lines) > 0
    assert set(ledger["trip_id"]) <= set(trips.index) and set(lines["trip_id"]) <= set(trips.index)
    by_kind = ledger.pivot_table(index="trip_id", columns="kind", values="amount_minor", aggfunc="sum", fill_value=0)
    for kind, column in (("tip", "tips_minor"), ("refund", "refunds_minor")):
        expected = trips[column][trips[column] != 0]
        actual = by_kind[kind] if kind in by_kind else pd.Series(dtype="int64")
        assert actual[actual != 0].sort_index().to_dict() == expected.sort_index().to_dict(), kind
    # Every trip's total is its fare plus its ledger.
    net = ledger.groupby("trip_id")["amount_minor"].sum().reindex(trips.index, fill_value=0)
    assert ((trips["fare_amount_minor"] + net) == trips["fare_total_minor"]).all()
    # A breakdown adds up to its trip's fare.
    fares = lines.groupby("trip_id")["amount_minor"].sum()
    assert (fares == trips.loc[fares.index, "fare_amount_minor"]).all()
