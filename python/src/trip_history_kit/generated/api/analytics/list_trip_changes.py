from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_trip_changes_response_400 import ListTripChangesResponse400
from ...models.list_trip_changes_response_401 import ListTripChangesResponse401
from ...models.list_trip_changes_response_403 import ListTripChangesResponse403
from ...models.list_trip_changes_response_410 import ListTripChangesResponse410
from ...models.list_trip_changes_response_414 import ListTripChangesResponse414
from ...models.list_trip_changes_response_422 import ListTripChangesResponse422
from ...models.list_trip_changes_response_429 import ListTripChangesResponse429
from ...models.list_trip_changes_response_431 import ListTripChangesResponse431
from ...models.list_trip_changes_response_500 import ListTripChangesResponse500
from ...models.list_trip_changes_response_503 import ListTripChangesResponse503
from ...models.trip_change_page import TripChangePage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    since: str | Unset = UNSET,
    limit: int | Unset = 50,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(accept_language, Unset):
        headers["Accept-Language"] = accept_language

    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    params["since"] = since

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/trips/changes",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    ListTripChangesResponse400
    | ListTripChangesResponse401
    | ListTripChangesResponse403
    | ListTripChangesResponse410
    | ListTripChangesResponse414
    | ListTripChangesResponse422
    | ListTripChangesResponse429
    | ListTripChangesResponse431
    | ListTripChangesResponse500
    | ListTripChangesResponse503
    | TripChangePage
    | None
):
    if response.status_code == 200:
        response_200 = TripChangePage.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ListTripChangesResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ListTripChangesResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ListTripChangesResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 410:
        response_410 = ListTripChangesResponse410.from_dict(response.json())

        return response_410

    if response.status_code == 414:
        response_414 = ListTripChangesResponse414.from_dict(response.json())

        return response_414

    if response.status_code == 422:
        response_422 = ListTripChangesResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = ListTripChangesResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 431:
        response_431 = ListTripChangesResponse431.from_dict(response.json())

        return response_431

    if response.status_code == 500:
        response_500 = ListTripChangesResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ListTripChangesResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    ListTripChangesResponse400
    | ListTripChangesResponse401
    | ListTripChangesResponse403
    | ListTripChangesResponse410
    | ListTripChangesResponse414
    | ListTripChangesResponse422
    | ListTripChangesResponse429
    | ListTripChangesResponse431
    | ListTripChangesResponse500
    | ListTripChangesResponse503
    | TripChangePage
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    since: str | Unset = UNSET,
    limit: int | Unset = 50,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    ListTripChangesResponse400
    | ListTripChangesResponse401
    | ListTripChangesResponse403
    | ListTripChangesResponse410
    | ListTripChangesResponse414
    | ListTripChangesResponse422
    | ListTripChangesResponse429
    | ListTripChangesResponse431
    | ListTripChangesResponse500
    | ListTripChangesResponse503
    | TripChangePage
]:
    """What changed in every rider's trips since a token, oldest first (analysts).

     Every rider's changes since `since`, at most `limit` of them, in the order their transactions
    committed as far as a reader can tell: `upsert` with the trip as a list row serves it when it was
    recorded or adjusted, `erased` with its `id` when it was erased (a rider's erasure) or removed. A
    warehouse loads what changed since its last run with it: keep the last `next_since`, and call again
    at
    once while `page.has_more`. Analysts only: riders and services get `403 forbidden`. Each query
    parameter may appear at most once.

    Without `since`, `data` is empty and `page.next_since` stands for now: take it, run a full export
    (`GET /v1/trips` as CSV or NDJSON), then follow the feed; a change made during the export comes
    through the feed as well, and applying an `upsert` by `id` (a higher `version` is newer) is
    idempotent.

    No change is ever skipped or repeated between consecutive calls, whatever order concurrent writes
    commit in: changes are ordered by the id of the transaction that wrote them, and a read hands out
    only
    those of transactions older than every transaction still running, which have all ended. A change
    therefore appears once its transaction and every older one have ended, so a long transaction
    anywhere in the database holds later changes back (never loses them) until it ends. Tokens follow a
    rider's feed's rules: a malformed one gets `400 invalid_cursor`, a rider's feed's token
    `400 cursor_mismatch`, and one older than the feed's retention
    (`TRIP_HISTORY_CHANGES_RETENTION_DAYS`),
    or whose next changes have been purged, `410 sync_token_expired`: export again and start over
    without
    `since`. On the sharded topology the token holds a position per partition (so it is longer, by a few
    characters per partition), and one issued before a partition moved to another server, or by another
    topology, also gets `410 sync_token_expired`.

    Args:
        since (str | Unset):
        limit (int | Unset):  Default: 50.
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListTripChangesResponse400 | ListTripChangesResponse401 | ListTripChangesResponse403 | ListTripChangesResponse410 | ListTripChangesResponse414 | ListTripChangesResponse422 | ListTripChangesResponse429 | ListTripChangesResponse431 | ListTripChangesResponse500 | ListTripChangesResponse503 | TripChangePage]
    """

    kwargs = _get_kwargs(
        since=since,
        limit=limit,
        accept_language=accept_language,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    since: str | Unset = UNSET,
    limit: int | Unset = 50,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    ListTripChangesResponse400
    | ListTripChangesResponse401
    | ListTripChangesResponse403
    | ListTripChangesResponse410
    | ListTripChangesResponse414
    | ListTripChangesResponse422
    | ListTripChangesResponse429
    | ListTripChangesResponse431
    | ListTripChangesResponse500
    | ListTripChangesResponse503
    | TripChangePage
    | None
):
    """What changed in every rider's trips since a token, oldest first (analysts).

     Every rider's changes since `since`, at most `limit` of them, in the order their transactions
    committed as far as a reader can tell: `upsert` with the trip as a list row serves it when it was
    recorded or adjusted, `erased` with its `id` when it was erased (a rider's erasure) or removed. A
    warehouse loads what changed since its last run with it: keep the last `next_since`, and call again
    at
    once while `page.has_more`. Analysts only: riders and services get `403 forbidden`. Each query
    parameter may appear at most once.

    Without `since`, `data` is empty and `page.next_since` stands for now: take it, run a full export
    (`GET /v1/trips` as CSV or NDJSON), then follow the feed; a change made during the export comes
    through the feed as well, and applying an `upsert` by `id` (a higher `version` is newer) is
    idempotent.

    No change is ever skipped or repeated between consecutive calls, whatever order concurrent writes
    commit in: changes are ordered by the id of the transaction that wrote them, and a read hands out
    only
    those of transactions older than every transaction still running, which have all ended. A change
    therefore appears once its transaction and every older one have ended, so a long transaction
    anywhere in the database holds later changes back (never loses them) until it ends. Tokens follow a
    rider's feed's rules: a malformed one gets `400 invalid_cursor`, a rider's feed's token
    `400 cursor_mismatch`, and one older than the feed's retention
    (`TRIP_HISTORY_CHANGES_RETENTION_DAYS`),
    or whose next changes have been purged, `410 sync_token_expired`: export again and start over
    without
    `since`. On the sharded topology the token holds a position per partition (so it is longer, by a few
    characters per partition), and one issued before a partition moved to another server, or by another
    topology, also gets `410 sync_token_expired`.

    Args:
        since (str | Unset):
        limit (int | Unset):  Default: 50.
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListTripChangesResponse400 | ListTripChangesResponse401 | ListTripChangesResponse403 | ListTripChangesResponse410 | ListTripChangesResponse414 | ListTripChangesResponse422 | ListTripChangesResponse429 | ListTripChangesResponse431 | ListTripChangesResponse500 | ListTripChangesResponse503 | TripChangePage
    """

    return sync_detailed(
        client=client,
        since=since,
        limit=limit,
        accept_language=accept_language,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    since: str | Unset = UNSET,
    limit: int | Unset = 50,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    ListTripChangesResponse400
    | ListTripChangesResponse401
    | ListTripChangesResponse403
    | ListTripChangesResponse410
    | ListTripChangesResponse414
    | ListTripChangesResponse422
    | ListTripChangesResponse429
    | ListTripChangesResponse431
    | ListTripChangesResponse500
    | ListTripChangesResponse503
    | TripChangePage
]:
    """What changed in every rider's trips since a token, oldest first (analysts).

     Every rider's changes since `since`, at most `limit` of them, in the order their transactions
    committed as far as a reader can tell: `upsert` with the trip as a list row serves it when it was
    recorded or adjusted, `erased` with its `id` when it was erased (a rider's erasure) or removed. A
    warehouse loads what changed since its last run with it: keep the last `next_since`, and call again
    at
    once while `page.has_more`. Analysts only: riders and services get `403 forbidden`. Each query
    parameter may appear at most once.

    Without `since`, `data` is empty and `page.next_since` stands for now: take it, run a full export
    (`GET /v1/trips` as CSV or NDJSON), then follow the feed; a change made during the export comes
    through the feed as well, and applying an `upsert` by `id` (a higher `version` is newer) is
    idempotent.

    No change is ever skipped or repeated between consecutive calls, whatever order concurrent writes
    commit in: changes are ordered by the id of the transaction that wrote them, and a read hands out
    only
    those of transactions older than every transaction still running, which have all ended. A change
    therefore appears once its transaction and every older one have ended, so a long transaction
    anywhere in the database holds later changes back (never loses them) until it ends. Tokens follow a
    rider's feed's rules: a malformed one gets `400 invalid_cursor`, a rider's feed's token
    `400 cursor_mismatch`, and one older than the feed's retention
    (`TRIP_HISTORY_CHANGES_RETENTION_DAYS`),
    or whose next changes have been purged, `410 sync_token_expired`: export again and start over
    without
    `since`. On the sharded topology the token holds a position per partition (so it is longer, by a few
    characters per partition), and one issued before a partition moved to another server, or by another
    topology, also gets `410 sync_token_expired`.

    Args:
        since (str | Unset):
        limit (int | Unset):  Default: 50.
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListTripChangesResponse400 | ListTripChangesResponse401 | ListTripChangesResponse403 | ListTripChangesResponse410 | ListTripChangesResponse414 | ListTripChangesResponse422 | ListTripChangesResponse429 | ListTripChangesResponse431 | ListTripChangesResponse500 | ListTripChangesResponse503 | TripChangePage]
    """

    kwargs = _get_kwargs(
        since=since,
        limit=limit,
        accept_language=accept_language,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    since: str | Unset = UNSET,
    limit: int | Unset = 50,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    ListTripChangesResponse400
    | ListTripChangesResponse401
    | ListTripChangesResponse403
    | ListTripChangesResponse410
    | ListTripChangesResponse414
    | ListTripChangesResponse422
    | ListTripChangesResponse429
    | ListTripChangesResponse431
    | ListTripChangesResponse500
    | ListTripChangesResponse503
    | TripChangePage
    | None
):
    """What changed in every rider's trips since a token, oldest first (analysts).

     Every rider's changes since `since`, at most `limit` of them, in the order their transactions
    committed as far as a reader can tell: `upsert` with the trip as a list row serves it when it was
    recorded or adjusted, `erased` with its `id` when it was erased (a rider's erasure) or removed. A
    warehouse loads what changed since its last run with it: keep the last `next_since`, and call again
    at
    once while `page.has_more`. Analysts only: riders and services get `403 forbidden`. Each query
    parameter may appear at most once.

    Without `since`, `data` is empty and `page.next_since` stands for now: take it, run a full export
    (`GET /v1/trips` as CSV or NDJSON), then follow the feed; a change made during the export comes
    through the feed as well, and applying an `upsert` by `id` (a higher `version` is newer) is
    idempotent.

    No change is ever skipped or repeated between consecutive calls, whatever order concurrent writes
    commit in: changes are ordered by the id of the transaction that wrote them, and a read hands out
    only
    those of transactions older than every transaction still running, which have all ended. A change
    therefore appears once its transaction and every older one have ended, so a long transaction
    anywhere in the database holds later changes back (never loses them) until it ends. Tokens follow a
    rider's feed's rules: a malformed one gets `400 invalid_cursor`, a rider's feed's token
    `400 cursor_mismatch`, and one older than the feed's retention
    (`TRIP_HISTORY_CHANGES_RETENTION_DAYS`),
    or whose next changes have been purged, `410 sync_token_expired`: export again and start over
    without
    `since`. On the sharded topology the token holds a position per partition (so it is longer, by a few
    characters per partition), and one issued before a partition moved to another server, or by another
    topology, also gets `410 sync_token_expired`.

    Args:
        since (str | Unset):
        limit (int | Unset):  Default: 50.
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListTripChangesResponse400 | ListTripChangesResponse401 | ListTripChangesResponse403 | ListTripChangesResponse410 | ListTripChangesResponse414 | ListTripChangesResponse422 | ListTripChangesResponse429 | ListTripChangesResponse431 | ListTripChangesResponse500 | ListTripChangesResponse503 | TripChangePage
    """

    return (
        await asyncio_detailed(
            client=client,
            since=since,
            limit=limit,
            accept_language=accept_language,
            x_request_id=x_request_id,
        )
    ).parsed
