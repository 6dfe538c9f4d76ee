"""A fake service on httpx's MockTransport and the answers it gives, so the kit's layer is tested without a
server."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx


def trip(trip_id: int, requested_at: str, *, city: str = "Paris", version: int = 1, canceled: bool = False) -> dict:
    """A trip as a list row serves it (openapi.yaml's Trip, without the detail's members)."""
    return {
        "id": str(trip_id),
        "rider_id": "7",
        "status": "canceled" if canceled else "completed",
        "product": "UberX",
        "city": city,
        "time_zone": "Europe/Paris",
        "requested_at": requested_at,
        "started_at": requested_at,
        "completed_at": None if canceled else "2026-10-05T08:30:00.123Z",
        "pickup": {"lat": 48.8566, "lon": 2.3522, "address": "Place de l'Hôtel de Ville"},
        "dropoff": {"lat": 48.8584, "lon": 2, "address": "=Champ de Mars"},
        "distance_m": 5230,
        "duration_s": 1260,
        "fare": {"amount_minor": 1834, "currency": "EUR", "total_minor": 2134, "tips_minor": 300, "refunds_minor": 0},
        "display": {
            "title": "Trip to Champ de Mars",
            "date": "5 oct. 2026",
            "time": "10:00",
            "fare": "21,34 €",
            "distance": "5,2 km",
            "duration": "21 min",
            "status": "Terminée",
        },
        "version": version,
        "recorded_at": "2026-10-05T08:31:00Z",
        "updated_at": "2026-10-06T09:00:00.000001Z",
    }


def problem(status: int, code: str, *, param: str | None = None, retry_after: int | None = None) -> httpx.Response:
    """A problem response as the service writes it."""
    body = {
        "type": f"urn:trip-history:problem:{code}",
        "title": code,
        "status": status,
        "code": code,
        "detail": f"{code} for the test.",
        "retryable": status == 503,
        "request_id": "req-1",
    }
    if param:
        body["param"] = param
    headers = {"Content-Type": "application/problem+json", "X-Request-ID": "req-1"}
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    return httpx.Response(status, headers=headers, content=json.dumps(body).encode())


class CutStream(httpx.SyncByteStream):
    """A body that sends its chunks, then fails as a transfer cut short without its last chunk does."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        raise httpx.RemoteProtocolError("peer closed connection without sending complete message body")


class FakeService:
    """Answers each request with the next answer its route was given, recording every request."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self.answers: dict[str, list[Callable[[httpx.Request], httpx.Response]]] = {}

    def on(self, path: str, *answers: Callable[[httpx.Request], httpx.Response] | httpx.Response) -> None:
        self.answers.setdefault(path, []).extend(
            answer if callable(answer) else (lambda _request, answer=answer: answer) for answer in answers
        )

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        queue = self.answers.get(request.url.path)
        assert queue, f"unexpected request {request.method} {request.url}"
        return queue.pop(0)(request)

    def params(self, path: str) -> list[dict[str, str]]:
        """The query parameters of each request made to `path`, in order."""
        return [dict(request.url.params) for request in self.requests if request.url.path == path]


def ndjson(*trips: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(item).encode() + b"\n" for item in trips)
