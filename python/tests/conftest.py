"""The fixtures every test of the layer uses: a fake service, a client of it, and the waits asked for."""

from __future__ import annotations

import httpx
import pytest
from fakes import FakeService

import trip_history_kit
from trip_history_kit import http


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest.fixture
def client(service: FakeService) -> trip_history_kit.AuthenticatedClient:
    return trip_history_kit.connect(
        "http://service.test", "analyst-token", httpx_args={"transport": httpx.MockTransport(service.handle)}
    )


@pytest.fixture(autouse=True)
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits the kit asked for, instead of sleeping them."""
    waited: list[float] = []
    monkeypatch.setattr(http, "pause", waited.append)
    return waited
