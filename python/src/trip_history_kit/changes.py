"""Following the analysts' changes feed (`GET /v1/trips/changes`) from a stored token, through expiry."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from . import http
from .errors import ApiError
from .generated import AuthenticatedClient
from .generated.api.analytics import list_trip_changes
from .generated.types import UNSET
from .http import DEFAULT_RETRIES, Retries, call

UPSERT = "upsert"
ERASED = "erased"


@dataclass(frozen=True)
class Change:
    """One entry of the feed: `kind` is `upsert` (recorded or adjusted; `trip` is the trip as a list row
    serves it, to replace the copy with the same `id` when its `version` is higher) or `erased` (the trip
    `id` no longer exists; drop it)."""

    kind: str
    id: str
    trip: dict[str, Any] | None = None


class TokenStore(Protocol):
    """Where the feed's position is kept between runs."""

    def load(self) -> str | None:
        """The stored token, or None before the first run."""
        ...

    def save(self, token: str) -> None:
        """Keeps `token`, replacing the stored one."""
        ...


class FileTokenStore:
    """A token kept in a text file, replaced atomically so that a crash leaves the old token or the new."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def load(self) -> str | None:
        try:
            token = self.path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            return None
        return token or None

    def save(self, token: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, partial = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(token + "\n")
        os.replace(partial, self.path)


@dataclass(frozen=True)
class CallbackTokenStore:
    """A token kept by the caller's own functions (a warehouse table, a key-value store)."""

    load: Callable[[], str | None]
    save: Callable[[str], None]


def _store(tokens: TokenStore | str | os.PathLike[str]) -> TokenStore:
    return FileTokenStore(tokens) if isinstance(tokens, (str, os.PathLike)) else tokens


def _page(client: AuthenticatedClient, since: str | None, limit: int, retries: Retries) -> dict[str, Any]:
    response = call(lambda: list_trip_changes.sync_detailed(client=client, since=since or UNSET, limit=limit), retries)
    return json.loads(response.content)


def follow_changes(
    client: AuthenticatedClient,
    tokens: TokenStore | str | os.PathLike[str],
    resync: Callable[[ApiError | None], None],
    *,
    limit: int = 200,
    resync_on: Collection[str] = ("sync_token_expired",),
    poll_every: float | None = None,
    retries: Retries = DEFAULT_RETRIES,
) -> Iterator[Change]:
    """The changes since the token in `tokens` (a file's path, or a `TokenStore`), oldest first, until the
    feed has nothing more (or, with `poll_every`, asking again that many seconds later, for ever).

    A page's token is saved once the caller has taken every change of the page, so a run that stops midway
    gets that page again next time; applying a change twice is harmless (compare `version`s). Entries of a
    kind the kit does not know are skipped, as the API asks.

    Without a stored token, and when the feed refuses the stored one with a code in `resync_on` (by default
    `410 sync_token_expired`: changes after it are no longer kept), the copy must be rebuilt: the kit takes a
    token for now, calls `resync(error)` (`None` on a first run), which reloads the data (an export), then
    saves that token and follows from it, so nothing changed during the reload is lost. Add `invalid_cursor`
    to `resync_on` to do the same after the service's keys were rotated out. Other refusals raise `ApiError`.
    """
    store = _store(tokens)
    token = store.load()
    error: ApiError | None = None
    while True:
        resynced = token is None
        if resynced:
            token = _page(client, None, limit, retries)["page"]["next_since"]
            resync(error)
            store.save(token)
        try:
            page = _page(client, token, limit, retries)
        except ApiError as refused:
            # A token the feed has just handed out and refuses at once would loop for ever.
            if refused.code not in resync_on or resynced:
                raise
            token, error = None, refused
            continue
        for entry in page["data"]:
            kind = entry.get("change")
            if kind == UPSERT:
                yield Change(UPSERT, entry["trip"]["id"], entry["trip"])
            elif kind == ERASED:
                yield Change(ERASED, entry["id"])
        token = page["page"]["next_since"]
        store.save(token)
        if not page["page"]["has_more"]:
            if poll_every is None:
                return
            http.pause(poll_every)
