"""follow_changes against the fake service: first runs, resuming, token stores, and rebuilding after 410."""

from __future__ import annotations

import httpx
import pytest
from fakes import problem, trip

import trip_history_kit as kit

FEED = "/v1/trips/changes"


def changes(next_since: str, *entries: dict, has_more: bool = False) -> httpx.Response:
    return httpx.Response(200, json={"data": list(entries), "page": {"has_more": has_more, "next_since": next_since}})


def upsert(trip_id: int, version: int = 2) -> dict:
    return {"change": "upsert", "trip": trip(trip_id, "2026-10-05T08:00:00Z", version=version)}


def erased(trip_id: int) -> dict:
    return {"change": "erased", "id": str(trip_id)}


class Resyncs(list):
    """The resync callback: records why it was called."""

    def __call__(self, error: kit.ApiError | None) -> None:
        self.append(error.code if error else None)


def test_a_first_run_takes_a_token_then_rebuilds_then_follows(service, client, tmp_path):
    service.on(FEED, changes("T0"), changes("T1", upsert(4), erased(3), has_more=True), changes("T2", upsert(5)))
    resyncs = Resyncs()
    token_file = tmp_path / "state" / "since"

    seen = list(kit.follow_changes(client, token_file, resyncs))

    assert resyncs == [None]
    assert [(change.kind, change.id) for change in seen] == [("upsert", "4"), ("erased", "3"), ("upsert", "5")]
    assert seen[0].trip["version"] == 2 and seen[1].trip is None
    assert [params.get("since") for params in service.params(FEED)] == [None, "T0", "T1"]
    assert all(params["limit"] == "200" for params in service.params(FEED))
    assert token_file.read_text() == "T2\n"


def test_a_run_resumes_from_the_stored_token_and_skips_unknown_kinds(service, client, tmp_path):
    token_file = tmp_path / "since"
    token_file.write_text("T7\n")
    service.on(FEED, changes("T8", {"change": "merged", "ids": ["1", "2"]}, upsert(9)))
    resyncs = Resyncs()

    assert [change.id for change in kit.follow_changes(client, token_file, resyncs)] == ["9"]
    assert resyncs == []
    assert service.params(FEED) == [{"since": "T7", "limit": "200"}]
    assert token_file.read_text() == "T8\n"


def test_a_page_left_midway_is_read_again_next_time(service, client, tmp_path):
    token_file = tmp_path / "since"
    token_file.write_text("T1")
    service.on(FEED, changes("T2", upsert(1), upsert(2)), changes("T2", upsert(1), upsert(2)))

    follower = kit.follow_changes(client, token_file, Resyncs())
    assert next(follower).id == "1"
    follower.close()
    assert token_file.read_text() == "T1"

    assert [change.id for change in kit.follow_changes(client, token_file, Resyncs())] == ["1", "2"]
    assert token_file.read_text() == "T2\n"


def test_a_callback_store_keeps_the_token_where_the_caller_wants(service, client):
    kept = {"since": "T1"}
    store = kit.CallbackTokenStore(load=lambda: kept["since"], save=lambda token: kept.update(since=token))
    service.on(FEED, changes("T2", erased(8)))

    assert [change.kind for change in kit.follow_changes(client, store, Resyncs())] == ["erased"]
    assert kept == {"since": "T2"}


def test_an_expired_token_rebuilds_from_a_fresh_token_taken_before_the_rebuild(service, client):
    kept = {"since": "OLD"}
    order = []
    service.on(
        FEED,
        problem(410, "sync_token_expired", param="since"),
        lambda request: order.append("fresh token") or changes("FRESH"),
        changes("NEXT", upsert(6)),
    )

    def resync(error: kit.ApiError | None) -> None:
        order.append(f"resync after {error.status} {error.code}")

    store = kit.CallbackTokenStore(load=lambda: kept["since"], save=lambda token: kept.update(since=token))
    assert [change.id for change in kit.follow_changes(client, store, resync)] == ["6"]
    assert order == ["fresh token", "resync after 410 sync_token_expired"]
    assert [params.get("since") for params in service.params(FEED)] == ["OLD", None, "FRESH"]
    assert kept == {"since": "NEXT"}


def test_a_failed_resync_keeps_the_old_token(service, client):
    kept = {"since": "OLD"}
    service.on(FEED, problem(410, "sync_token_expired", param="since"), changes("FRESH"))

    def resync(error: kit.ApiError | None) -> None:
        raise RuntimeError("the export failed")

    store = kit.CallbackTokenStore(load=lambda: kept["since"], save=lambda token: kept.update(since=token))
    with pytest.raises(RuntimeError):
        list(kit.follow_changes(client, store, resync))
    assert kept == {"since": "OLD"}


def test_an_invalid_token_raises_unless_asked_to_rebuild(service, client):
    store = kit.CallbackTokenStore(load=lambda: "EDITED", save=lambda token: None)
    service.on(FEED, problem(400, "invalid_cursor", param="since"))

    with pytest.raises(kit.ApiError) as refused:
        list(kit.follow_changes(client, store, Resyncs()))
    assert refused.value.code == "invalid_cursor"

    service.on(FEED, problem(400, "invalid_cursor", param="since"), changes("FRESH"), changes("NEXT"))
    resyncs = Resyncs()
    assert list(kit.follow_changes(client, store, resyncs, resync_on={"sync_token_expired", "invalid_cursor"})) == []
    assert resyncs == ["invalid_cursor"]


def test_a_fresh_token_refused_at_once_raises_instead_of_looping(service, client):
    service.on(FEED, changes("FRESH"), problem(410, "sync_token_expired", param="since"))

    with pytest.raises(kit.ApiError, match="sync_token_expired"):
        list(kit.follow_changes(client, kit.CallbackTokenStore(load=lambda: None, save=lambda token: None), Resyncs()))
    assert len(service.requests) == 2


def test_polling_asks_again_after_the_interval(service, client, pauses):
    store = kit.CallbackTokenStore(load=lambda: "T1", save=lambda token: None)
    service.on(FEED, changes("T1"), changes("T2", upsert(3)))

    follower = kit.follow_changes(client, store, Resyncs(), poll_every=15)
    assert next(follower).id == "3"
    assert pauses == [15]
    follower.close()


def test_a_rate_limited_feed_is_asked_again(service, client, pauses):
    store = kit.CallbackTokenStore(load=lambda: "T1", save=lambda token: None)
    service.on(FEED, problem(429, "rate_limited", retry_after=1), changes("T2", upsert(3)))

    assert [change.id for change in kit.follow_changes(client, store, Resyncs())] == ["3"]
    assert pauses == [1.0]
