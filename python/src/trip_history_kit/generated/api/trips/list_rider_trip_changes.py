from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_rider_trip_changes_response_400 import (
    ListRiderTripChangesResponse400,
)
from ...models.list_rider_trip_changes_response_401 import (
    ListRiderTripChangesResponse401,
)
from ...models.list_rider_trip_changes_response_403 import (
    ListRiderTripChangesResponse403,
)
from ...models.list_rider_trip_changes_response_404 import (
    ListRiderTripChangesResponse404,
)
from ...models.list_rider_trip_changes_response_410 import (
    ListRiderTripChangesResponse410,
)
from ...models.list_rider_trip_changes_response_414 import (
    ListRiderTripChangesResponse414,
)
from ...models.list_rider_trip_changes_response_429 import (
    ListRiderTripChangesResponse429,
)
from ...models.list_rider_trip_changes_response_431 import (
    ListRiderTripChangesResponse431,
)
from ...models.list_rider_trip_changes_response_500 import (
    ListRiderTripChangesResponse500,
)
from ...models.list_rider_trip_changes_response_503 import (
    ListRiderTripChangesResponse503,
)
from ...models.trip_change_page import TripChangePage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    rider_id: str,
    *,
    since: str | Unset = UNSET,
    limit: int | Unset = 50,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(accept_language, Unset):
        headers["Accept-Language"] = accept_language

    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["since"] = since

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/riders/{rider_id}/trips/changes".format(
            rider_id=quote(str(rider_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    Any
    | ListRiderTripChangesResponse400
    | ListRiderTripChangesResponse401
    | ListRiderTripChangesResponse403
    | ListRiderTripChangesResponse404
    | ListRiderTripChangesResponse410
    | ListRiderTripChangesResponse414
    | ListRiderTripChangesResponse429
    | ListRiderTripChangesResponse431
    | ListRiderTripChangesResponse500
    | ListRiderTripChangesResponse503
    | TripChangePage
    | None
):
    if response.status_code == 200:
        response_200 = TripChangePage.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = ListRiderTripChangesResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ListRiderTripChangesResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ListRiderTripChangesResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ListRiderTripChangesResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 410:
        response_410 = ListRiderTripChangesResponse410.from_dict(response.json())

        return response_410

    if response.status_code == 414:
        response_414 = ListRiderTripChangesResponse414.from_dict(response.json())

        return response_414

    if response.status_code == 429:
        response_429 = ListRiderTripChangesResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 431:
        response_431 = ListRiderTripChangesResponse431.from_dict(response.json())

        return response_431

    if response.status_code == 500:
        response_500 = ListRiderTripChangesResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ListRiderTripChangesResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    Any
    | ListRiderTripChangesResponse400
    | ListRiderTripChangesResponse401
    | ListRiderTripChangesResponse403
    | ListRiderTripChangesResponse404
    | ListRiderTripChangesResponse410
    | ListRiderTripChangesResponse414
    | ListRiderTripChangesResponse429
    | ListRiderTripChangesResponse431
    | ListRiderTripChangesResponse500
    | ListRiderTripChangesResponse503
    | TripChangePage
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    rider_id: str,
    *,
    client: AuthenticatedClient | Client,
    since: str | Unset = UNSET,
    limit: int | Unset = 50,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[
    Any
    | ListRiderTripChangesResponse400
    | ListRiderTripChangesResponse401
    | ListRiderTripChangesResponse403
    | ListRiderTripChangesResponse404
    | ListRiderTripChangesResponse410
    | ListRiderTripChangesResponse414
    | ListRiderTripChangesResponse429
    | ListRiderTripChangesResponse431
    | ListRiderTripChangesResponse500
    | ListRiderTripChangesResponse503
    | TripChangePage
]:
    """What changed in a rider's trips since a token, oldest first.

     The changes to the rider's trips since `since`, oldest first, at most `limit` of them: `upsert` with
    the trip as a list row serves it (no `fare.breakdown`, `payment`, `driver`, `route` or
    `adjustments`)
    when it was recorded or adjusted, `erased` with its `id` when it was removed. Readable by the rider
    themself and by analysts; another rider's feed gets `404 not_found`, like their list, and a service
    token `403 forbidden`. Each query parameter may appear at most once.

    Without `since`, `data` is empty and `page.next_since` stands for now: an app takes this token,
    loads
    its list pages, then keeps it (a change made while the pages load comes through the feed as well).
    With `since`, `page.next_since` is the token of the next call; `page.has_more`
    says whether more changes wait behind it (call again at once). With nothing new, `data` is empty and
    `next_since` names the same position (and stays the same token within the hour, so the answer keeps
    its `ETag`). An app applies an `upsert` in place by
    `id` (a higher `version` is newer), drops an `erased` id, and keeps the last `next_since`.

    No change is ever skipped or repeated between consecutive pages, even when concurrent writes commit
    in
    another order than they began: each of a rider's changes takes the next number of the rider's own
    sequence under a lock held until it commits, so they become visible in the order of their numbers.
    Tokens are opaque, signed and bound to the rider: a malformed or foreign one gets
    `400 invalid_cursor`, one of another rider's feed `400 cursor_mismatch`, and one older than the
    feed's retention (`TRIP_HISTORY_CHANGES_RETENTION_DAYS`, 30 days by default), or whose next changes
    have been purged, `410 sync_token_expired`: reload the list's first page and start again without
    `since`.

    Caching is the list's: a strong `ETag`, `Cache-Control: private, no-cache`, and `304` on a matching
    `If-None-Match`, so a rider with nothing new costs a `304`.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        since (str | Unset):
        limit (int | Unset):  Default: 50.
        accept_language (str | Unset):
        x_request_id (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ListRiderTripChangesResponse400 | ListRiderTripChangesResponse401 | ListRiderTripChangesResponse403 | ListRiderTripChangesResponse404 | ListRiderTripChangesResponse410 | ListRiderTripChangesResponse414 | ListRiderTripChangesResponse429 | ListRiderTripChangesResponse431 | ListRiderTripChangesResponse500 | ListRiderTripChangesResponse503 | TripChangePage]
    """

    kwargs = _get_kwargs(
        rider_id=rider_id,
        since=since,
        limit=limit,
        accept_language=accept_language,
        x_request_id=x_request_id,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    rider_id: str,
    *,
    client: AuthenticatedClient | Client,
    since: str | Unset = UNSET,
    limit: int | Unset = 50,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> (
    Any
    | ListRiderTripChangesResponse400
    | ListRiderTripChangesResponse401
    | ListRiderTripChangesResponse403
    | ListRiderTripChangesResponse404
    | ListRiderTripChangesResponse410
    | ListRiderTripChangesResponse414
    | ListRiderTripChangesResponse429
    | ListRiderTripChangesResponse431
    | ListRiderTripChangesResponse500
    | ListRiderTripChangesResponse503
    | TripChangePage
    | None
):
    """What changed in a rider's trips since a token, oldest first.

     The changes to the rider's trips since `since`, oldest first, at most `limit` of them: `upsert` with
    the trip as a list row serves it (no `fare.breakdown`, `payment`, `driver`, `route` or
    `adjustments`)
    when it was recorded or adjusted, `erased` with its `id` when it was removed. Readable by the rider
    themself and by analysts; another rider's feed gets `404 not_found`, like their list, and a service
    token `403 forbidden`. Each query parameter may appear at most once.

    Without `since`, `data` is empty and `page.next_since` stands for now: an app takes this token,
    loads
    its list pages, then keeps it (a change made while the pages load comes through the feed as well).
    With `since`, `page.next_since` is the token of the next call; `page.has_more`
    says whether more changes wait behind it (call again at once). With nothing new, `data` is empty and
    `next_since` names the same position (and stays the same token within the hour, so the answer keeps
    its `ETag`). An app applies an `upsert` in place by
    `id` (a higher `version` is newer), drops an `erased` id, and keeps the last `next_since`.

    No change is ever skipped or repeated between consecutive pages, even when concurrent writes commit
    in
    another order than they began: each of a rider's changes takes the next number of the rider's own
    sequence under a lock held until it commits, so they become visible in the order of their numbers.
    Tokens are opaque, signed and bound to the rider: a malformed or foreign one gets
    `400 invalid_cursor`, one of another rider's feed `400 cursor_mismatch`, and one older than the
    feed's retention (`TRIP_HISTORY_CHANGES_RETENTION_DAYS`, 30 days by default), or whose next changes
    have been purged, `410 sync_token_expired`: reload the list's first page and start again without
    `since`.

    Caching is the list's: a strong `ETag`, `Cache-Control: private, no-cache`, and `304` on a matching
    `If-None-Match`, so a rider with nothing new costs a `304`.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        since (str | Unset):
        limit (int | Unset):  Default: 50.
        accept_language (str | Unset):
        x_request_id (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ListRiderTripChangesResponse400 | ListRiderTripChangesResponse401 | ListRiderTripChangesResponse403 | ListRiderTripChangesResponse404 | ListRiderTripChangesResponse410 | ListRiderTripChangesResponse414 | ListRiderTripChangesResponse429 | ListRiderTripChangesResponse431 | ListRiderTripChangesResponse500 | ListRiderTripChangesResponse503 | TripChangePage
    """

    return sync_detailed(
        rider_id=rider_id,
        client=client,
        since=since,
        limit=limit,
        accept_language=accept_language,
        x_request_id=x_request_id,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    rider_id: str,
    *,
    client: AuthenticatedClient | Client,
    since: str | Unset = UNSET,
    limit: int | Unset = 50,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[
    Any
    | ListRiderTripChangesResponse400
    | ListRiderTripChangesResponse401
    | ListRiderTripChangesResponse403
    | ListRiderTripChangesResponse404
    | ListRiderTripChangesResponse410
    | ListRiderTripChangesResponse414
    | ListRiderTripChangesResponse429
    | ListRiderTripChangesResponse431
    | ListRiderTripChangesResponse500
    | ListRiderTripChangesResponse503
    | TripChangePage
]:
    """What changed in a rider's trips since a token, oldest first.

     The changes to the rider's trips since `since`, oldest first, at most `limit` of them: `upsert` with
    the trip as a list row serves it (no `fare.breakdown`, `payment`, `driver`, `route` or
    `adjustments`)
    when it was recorded or adjusted, `erased` with its `id` when it was removed. Readable by the rider
    themself and by analysts; another rider's feed gets `404 not_found`, like their list, and a service
    token `403 forbidden`. Each query parameter may appear at most once.

    Without `since`, `data` is empty and `page.next_since` stands for now: an app takes this token,
    loads
    its list pages, then keeps it (a change made while the pages load comes through the feed as well).
    With `since`, `page.next_since` is the token of the next call; `page.has_more`
    says whether more changes wait behind it (call again at once). With nothing new, `data` is empty and
    `next_since` names the same position (and stays the same token within the hour, so the answer keeps
    its `ETag`). An app applies an `upsert` in place by
    `id` (a higher `version` is newer), drops an `erased` id, and keeps the last `next_since`.

    No change is ever skipped or repeated between consecutive pages, even when concurrent writes commit
    in
    another order than they began: each of a rider's changes takes the next number of the rider's own
    sequence under a lock held until it commits, so they become visible in the order of their numbers.
    Tokens are opaque, signed and bound to the rider: a malformed or foreign one gets
    `400 invalid_cursor`, one of another rider's feed `400 cursor_mismatch`, and one older than the
    feed's retention (`TRIP_HISTORY_CHANGES_RETENTION_DAYS`, 30 days by default), or whose next changes
    have been purged, `410 sync_token_expired`: reload the list's first page and start again without
    `since`.

    Caching is the list's: a strong `ETag`, `Cache-Control: private, no-cache`, and `304` on a matching
    `If-None-Match`, so a rider with nothing new costs a `304`.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        since (str | Unset):
        limit (int | Unset):  Default: 50.
        accept_language (str | Unset):
        x_request_id (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ListRiderTripChangesResponse400 | ListRiderTripChangesResponse401 | ListRiderTripChangesResponse403 | ListRiderTripChangesResponse404 | ListRiderTripChangesResponse410 | ListRiderTripChangesResponse414 | ListRiderTripChangesResponse429 | ListRiderTripChangesResponse431 | ListRiderTripChangesResponse500 | ListRiderTripChangesResponse503 | TripChangePage]
    """

    kwargs = _get_kwargs(
        rider_id=rider_id,
        since=since,
        limit=limit,
        accept_language=accept_language,
        x_request_id=x_request_id,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    rider_id: str,
    *,
    client: AuthenticatedClient | Client,
    since: str | Unset = UNSET,
    limit: int | Unset = 50,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> (
    Any
    | ListRiderTripChangesResponse400
    | ListRiderTripChangesResponse401
    | ListRiderTripChangesResponse403
    | ListRiderTripChangesResponse404
    | ListRiderTripChangesResponse410
    | ListRiderTripChangesResponse414
    | ListRiderTripChangesResponse429
    | ListRiderTripChangesResponse431
    | ListRiderTripChangesResponse500
    | ListRiderTripChangesResponse503
    | TripChangePage
    | None
):
    """What changed in a rider's trips since a token, oldest first.

     The changes to the rider's trips since `since`, oldest first, at most `limit` of them: `upsert` with
    the trip as a list row serves it (no `fare.breakdown`, `payment`, `driver`, `route` or
    `adjustments`)
    when it was recorded or adjusted, `erased` with its `id` when it was removed. Readable by the rider
    themself and by analysts; another rider's feed gets `404 not_found`, like their list, and a service
    token `403 forbidden`. Each query parameter may appear at most once.

    Without `since`, `data` is empty and `page.next_since` stands for now: an app takes this token,
    loads
    its list pages, then keeps it (a change made while the pages load comes through the feed as well).
    With `since`, `page.next_since` is the token of the next call; `page.has_more`
    says whether more changes wait behind it (call again at once). With nothing new, `data` is empty and
    `next_since` names the same position (and stays the same token within the hour, so the answer keeps
    its `ETag`). An app applies an `upsert` in place by
    `id` (a higher `version` is newer), drops an `erased` id, and keeps the last `next_since`.

    No change is ever skipped or repeated between consecutive pages, even when concurrent writes commit
    in
    another order than they began: each of a rider's changes takes the next number of the rider's own
    sequence under a lock held until it commits, so they become visible in the order of their numbers.
    Tokens are opaque, signed and bound to the rider: a malformed or foreign one gets
    `400 invalid_cursor`, one of another rider's feed `400 cursor_mismatch`, and one older than the
    feed's retention (`TRIP_HISTORY_CHANGES_RETENTION_DAYS`, 30 days by default), or whose next changes
    have been purged, `410 sync_token_expired`: reload the list's first page and start again without
    `since`.

    Caching is the list's: a strong `ETag`, `Cache-Control: private, no-cache`, and `304` on a matching
    `If-None-Match`, so a rider with nothing new costs a `304`.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        since (str | Unset):
        limit (int | Unset):  Default: 50.
        accept_language (str | Unset):
        x_request_id (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ListRiderTripChangesResponse400 | ListRiderTripChangesResponse401 | ListRiderTripChangesResponse403 | ListRiderTripChangesResponse404 | ListRiderTripChangesResponse410 | ListRiderTripChangesResponse414 | ListRiderTripChangesResponse429 | ListRiderTripChangesResponse431 | ListRiderTripChangesResponse500 | ListRiderTripChangesResponse503 | TripChangePage
    """

    return (
        await asyncio_detailed(
            rider_id=rider_id,
            client=client,
            since=since,
            limit=limit,
            accept_language=accept_language,
            x_request_id=x_request_id,
            if_none_match=if_none_match,
        )
    ).parsed
