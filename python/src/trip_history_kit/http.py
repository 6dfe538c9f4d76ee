"""Connecting to the service, and when a refused request is worth repeating."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from .errors import ApiError
from .generated import AuthenticatedClient


def connect(base_url: str, token: str, *, timeout: float = 60.0, **client_args: Any) -> AuthenticatedClient:
    """A client of the service at `base_url` that sends `token` (an analyst's, for every function of the kit);
    `timeout` bounds each connect, read and write, so a streamed export may take longer as a whole.

    `client_args` go to the generated `AuthenticatedClient` (`httpx_args`, `headers`, `verify_ssl`, ...).
    Statuses the API does not document raise `UnexpectedStatus` instead of passing unnoticed.
    """
    client_args.setdefault("raise_on_unexpected_status", True)
    return AuthenticatedClient(base_url=base_url, token=token, timeout=httpx.Timeout(timeout), **client_args)


@dataclass(frozen=True)
class Retries:
    """How often a refused request is repeated: only answers that say when to come back (`Retry-After`)
    and that repeating can cure (`429`, and problems marked `retryable`, such as a `503 unavailable`), at
    most `attempts` more times, and never after a wait longer than `longest_wait` seconds."""

    attempts: int = 4
    longest_wait: float = 30.0

    def wait(self, error: ApiError, attempt: int) -> float | None:
        """Seconds to wait before attempt number `attempt + 1`, or None when `error` is final."""
        if attempt > self.attempts or error.retry_after is None:
            return None
        if not (error.status == 429 or error.retryable):
            return None
        return error.retry_after if error.retry_after <= self.longest_wait else None


DEFAULT_RETRIES = Retries()


def pause(seconds: float) -> None:
    """Waits before a repeat; tests replace it so that they do not sleep."""
    time.sleep(seconds)


def wait_or_raise(error: ApiError, attempt: int, retries: Retries) -> None:
    """Waits as `retries` says before attempt number `attempt + 1` after `error`, or raises it when final."""
    wait = retries.wait(error, attempt)
    if wait is None:
        raise error
    pause(wait)


def call(send: Callable[[], Any], retries: Retries = DEFAULT_RETRIES) -> Any:
    """The response of `send()`, a generated operation's `sync_detailed`, repeated as `retries` allows while
    it is refused; raises `ApiError` for a refusal that is final."""
    attempt = 0
    while True:
        response = send()
        if 200 <= response.status_code < 300:
            return response
        attempt += 1
        wait_or_raise(ApiError.from_response(response), attempt, retries)
