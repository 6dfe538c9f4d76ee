from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_rider_trips_count import ListRiderTripsCount
from ...models.list_rider_trips_response_400 import ListRiderTripsResponse400
from ...models.list_rider_trips_response_401 import ListRiderTripsResponse401
from ...models.list_rider_trips_response_403 import ListRiderTripsResponse403
from ...models.list_rider_trips_response_404 import ListRiderTripsResponse404
from ...models.list_rider_trips_response_414 import ListRiderTripsResponse414
from ...models.list_rider_trips_response_429 import ListRiderTripsResponse429
from ...models.list_rider_trips_response_431 import ListRiderTripsResponse431
from ...models.list_rider_trips_response_500 import ListRiderTripsResponse500
from ...models.list_rider_trips_response_503 import ListRiderTripsResponse503
from ...models.trip_page import TripPage
from ...models.trip_status import TripStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    rider_id: str,
    *,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    count: ListRiderTripsCount | Unset = UNSET,
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

    params["limit"] = limit

    params["cursor"] = cursor

    params["from"] = from_

    params["to"] = to

    params["tz"] = tz

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    json_count: str | Unset = UNSET
    if not isinstance(count, Unset):
        json_count = count.value

    params["count"] = json_count

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/riders/{rider_id}/trips".format(
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
    | ListRiderTripsResponse400
    | ListRiderTripsResponse401
    | ListRiderTripsResponse403
    | ListRiderTripsResponse404
    | ListRiderTripsResponse414
    | ListRiderTripsResponse429
    | ListRiderTripsResponse431
    | ListRiderTripsResponse500
    | ListRiderTripsResponse503
    | TripPage
    | None
):
    if response.status_code == 200:
        response_200 = TripPage.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = ListRiderTripsResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ListRiderTripsResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ListRiderTripsResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ListRiderTripsResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 414:
        response_414 = ListRiderTripsResponse414.from_dict(response.json())

        return response_414

    if response.status_code == 429:
        response_429 = ListRiderTripsResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 431:
        response_431 = ListRiderTripsResponse431.from_dict(response.json())

        return response_431

    if response.status_code == 500:
        response_500 = ListRiderTripsResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ListRiderTripsResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    Any
    | ListRiderTripsResponse400
    | ListRiderTripsResponse401
    | ListRiderTripsResponse403
    | ListRiderTripsResponse404
    | ListRiderTripsResponse414
    | ListRiderTripsResponse429
    | ListRiderTripsResponse431
    | ListRiderTripsResponse500
    | ListRiderTripsResponse503
    | TripPage
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
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    count: ListRiderTripsCount | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[
    Any
    | ListRiderTripsResponse400
    | ListRiderTripsResponse401
    | ListRiderTripsResponse403
    | ListRiderTripsResponse404
    | ListRiderTripsResponse414
    | ListRiderTripsResponse429
    | ListRiderTripsResponse431
    | ListRiderTripsResponse500
    | ListRiderTripsResponse503
    | TripPage
]:
    """List a rider's trips, newest first.

     One page of the rider's trips, newest first. Readable by the rider themself and by analysts. A rider
    with no trips, or no trip matching the filter, gets an empty `data` array. The token is checked
    first, then the parameters (each rejection names its `param`), then the cursor, then access.
    Each query parameter may appear at most once.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        from_ (str | Unset): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-
            DD`. The date must exist (the
            pattern checks months, days and leap years); seconds go to 59 (no leap second) and
            fractions to 9
            digits; a `+` offset that arrived as a space (an unencoded query) is read as `+`. The
            instant (for a
            date, its start in `tz`) must fall within the years 0000 to 9999 in UTC, or it gets `400`;
            the
            pattern admits the years 0001 to 9998, whose every date and offset stays within them.
        to (str | Unset): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-DD`.
            The date must exist (the
            pattern checks months, days and leap years); seconds go to 59 (no leap second) and
            fractions to 9
            digits; a `+` offset that arrived as a space (an unencoded query) is read as `+`. The
            instant (for a
            date, its start in `tz`) must fall within the years 0000 to 9999 in UTC, or it gets `400`;
            the
            pattern admits the years 0001 to 9998, whose every date and offset stays within them.
        tz (str | Unset): An IANA time zone name (`format: iana-time-zone`): `UTC` or an
            `Area/Location` identifier such as
            `Europe/Paris`, at most 64 bytes, known to the server's time zone database. Abbreviations
            and bare
            offsets (`EST`, `GMT+1`) are refused as ambiguous: `400 invalid_parameter` in a query,
            `422` in a body.
        status (TripStatus | Unset): How the trip ended; only finished trips are recorded. Closed
            where a client sends it (a body, the
            `status` filter); a response reports it as `ReportedTripStatus`, which is open.
        count (ListRiderTripsCount | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ListRiderTripsResponse400 | ListRiderTripsResponse401 | ListRiderTripsResponse403 | ListRiderTripsResponse404 | ListRiderTripsResponse414 | ListRiderTripsResponse429 | ListRiderTripsResponse431 | ListRiderTripsResponse500 | ListRiderTripsResponse503 | TripPage]
    """

    kwargs = _get_kwargs(
        rider_id=rider_id,
        limit=limit,
        cursor=cursor,
        from_=from_,
        to=to,
        tz=tz,
        status=status,
        count=count,
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
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    count: ListRiderTripsCount | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> (
    Any
    | ListRiderTripsResponse400
    | ListRiderTripsResponse401
    | ListRiderTripsResponse403
    | ListRiderTripsResponse404
    | ListRiderTripsResponse414
    | ListRiderTripsResponse429
    | ListRiderTripsResponse431
    | ListRiderTripsResponse500
    | ListRiderTripsResponse503
    | TripPage
    | None
):
    """List a rider's trips, newest first.

     One page of the rider's trips, newest first. Readable by the rider themself and by analysts. A rider
    with no trips, or no trip matching the filter, gets an empty `data` array. The token is checked
    first, then the parameters (each rejection names its `param`), then the cursor, then access.
    Each query parameter may appear at most once.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        from_ (str | Unset): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-
            DD`. The date must exist (the
            pattern checks months, days and leap years); seconds go to 59 (no leap second) and
            fractions to 9
            digits; a `+` offset that arrived as a space (an unencoded query) is read as `+`. The
            instant (for a
            date, its start in `tz`) must fall within the years 0000 to 9999 in UTC, or it gets `400`;
            the
            pattern admits the years 0001 to 9998, whose every date and offset stays within them.
        to (str | Unset): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-DD`.
            The date must exist (the
            pattern checks months, days and leap years); seconds go to 59 (no leap second) and
            fractions to 9
            digits; a `+` offset that arrived as a space (an unencoded query) is read as `+`. The
            instant (for a
            date, its start in `tz`) must fall within the years 0000 to 9999 in UTC, or it gets `400`;
            the
            pattern admits the years 0001 to 9998, whose every date and offset stays within them.
        tz (str | Unset): An IANA time zone name (`format: iana-time-zone`): `UTC` or an
            `Area/Location` identifier such as
            `Europe/Paris`, at most 64 bytes, known to the server's time zone database. Abbreviations
            and bare
            offsets (`EST`, `GMT+1`) are refused as ambiguous: `400 invalid_parameter` in a query,
            `422` in a body.
        status (TripStatus | Unset): How the trip ended; only finished trips are recorded. Closed
            where a client sends it (a body, the
            `status` filter); a response reports it as `ReportedTripStatus`, which is open.
        count (ListRiderTripsCount | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ListRiderTripsResponse400 | ListRiderTripsResponse401 | ListRiderTripsResponse403 | ListRiderTripsResponse404 | ListRiderTripsResponse414 | ListRiderTripsResponse429 | ListRiderTripsResponse431 | ListRiderTripsResponse500 | ListRiderTripsResponse503 | TripPage
    """

    return sync_detailed(
        rider_id=rider_id,
        client=client,
        limit=limit,
        cursor=cursor,
        from_=from_,
        to=to,
        tz=tz,
        status=status,
        count=count,
        accept_language=accept_language,
        x_request_id=x_request_id,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    rider_id: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    count: ListRiderTripsCount | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[
    Any
    | ListRiderTripsResponse400
    | ListRiderTripsResponse401
    | ListRiderTripsResponse403
    | ListRiderTripsResponse404
    | ListRiderTripsResponse414
    | ListRiderTripsResponse429
    | ListRiderTripsResponse431
    | ListRiderTripsResponse500
    | ListRiderTripsResponse503
    | TripPage
]:
    """List a rider's trips, newest first.

     One page of the rider's trips, newest first. Readable by the rider themself and by analysts. A rider
    with no trips, or no trip matching the filter, gets an empty `data` array. The token is checked
    first, then the parameters (each rejection names its `param`), then the cursor, then access.
    Each query parameter may appear at most once.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        from_ (str | Unset): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-
            DD`. The date must exist (the
            pattern checks months, days and leap years); seconds go to 59 (no leap second) and
            fractions to 9
            digits; a `+` offset that arrived as a space (an unencoded query) is read as `+`. The
            instant (for a
            date, its start in `tz`) must fall within the years 0000 to 9999 in UTC, or it gets `400`;
            the
            pattern admits the years 0001 to 9998, whose every date and offset stays within them.
        to (str | Unset): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-DD`.
            The date must exist (the
            pattern checks months, days and leap years); seconds go to 59 (no leap second) and
            fractions to 9
            digits; a `+` offset that arrived as a space (an unencoded query) is read as `+`. The
            instant (for a
            date, its start in `tz`) must fall within the years 0000 to 9999 in UTC, or it gets `400`;
            the
            pattern admits the years 0001 to 9998, whose every date and offset stays within them.
        tz (str | Unset): An IANA time zone name (`format: iana-time-zone`): `UTC` or an
            `Area/Location` identifier such as
            `Europe/Paris`, at most 64 bytes, known to the server's time zone database. Abbreviations
            and bare
            offsets (`EST`, `GMT+1`) are refused as ambiguous: `400 invalid_parameter` in a query,
            `422` in a body.
        status (TripStatus | Unset): How the trip ended; only finished trips are recorded. Closed
            where a client sends it (a body, the
            `status` filter); a response reports it as `ReportedTripStatus`, which is open.
        count (ListRiderTripsCount | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ListRiderTripsResponse400 | ListRiderTripsResponse401 | ListRiderTripsResponse403 | ListRiderTripsResponse404 | ListRiderTripsResponse414 | ListRiderTripsResponse429 | ListRiderTripsResponse431 | ListRiderTripsResponse500 | ListRiderTripsResponse503 | TripPage]
    """

    kwargs = _get_kwargs(
        rider_id=rider_id,
        limit=limit,
        cursor=cursor,
        from_=from_,
        to=to,
        tz=tz,
        status=status,
        count=count,
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
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    count: ListRiderTripsCount | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> (
    Any
    | ListRiderTripsResponse400
    | ListRiderTripsResponse401
    | ListRiderTripsResponse403
    | ListRiderTripsResponse404
    | ListRiderTripsResponse414
    | ListRiderTripsResponse429
    | ListRiderTripsResponse431
    | ListRiderTripsResponse500
    | ListRiderTripsResponse503
    | TripPage
    | None
):
    """List a rider's trips, newest first.

     One page of the rider's trips, newest first. Readable by the rider themself and by analysts. A rider
    with no trips, or no trip matching the filter, gets an empty `data` array. The token is checked
    first, then the parameters (each rejection names its `param`), then the cursor, then access.
    Each query parameter may appear at most once.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        from_ (str | Unset): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-
            DD`. The date must exist (the
            pattern checks months, days and leap years); seconds go to 59 (no leap second) and
            fractions to 9
            digits; a `+` offset that arrived as a space (an unencoded query) is read as `+`. The
            instant (for a
            date, its start in `tz`) must fall within the years 0000 to 9999 in UTC, or it gets `400`;
            the
            pattern admits the years 0001 to 9998, whose every date and offset stays within them.
        to (str | Unset): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-DD`.
            The date must exist (the
            pattern checks months, days and leap years); seconds go to 59 (no leap second) and
            fractions to 9
            digits; a `+` offset that arrived as a space (an unencoded query) is read as `+`. The
            instant (for a
            date, its start in `tz`) must fall within the years 0000 to 9999 in UTC, or it gets `400`;
            the
            pattern admits the years 0001 to 9998, whose every date and offset stays within them.
        tz (str | Unset): An IANA time zone name (`format: iana-time-zone`): `UTC` or an
            `Area/Location` identifier such as
            `Europe/Paris`, at most 64 bytes, known to the server's time zone database. Abbreviations
            and bare
            offsets (`EST`, `GMT+1`) are refused as ambiguous: `400 invalid_parameter` in a query,
            `422` in a body.
        status (TripStatus | Unset): How the trip ended; only finished trips are recorded. Closed
            where a client sends it (a body, the
            `status` filter); a response reports it as `ReportedTripStatus`, which is open.
        count (ListRiderTripsCount | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ListRiderTripsResponse400 | ListRiderTripsResponse401 | ListRiderTripsResponse403 | ListRiderTripsResponse404 | ListRiderTripsResponse414 | ListRiderTripsResponse429 | ListRiderTripsResponse431 | ListRiderTripsResponse500 | ListRiderTripsResponse503 | TripPage
    """

    return (
        await asyncio_detailed(
            rider_id=rider_id,
            client=client,
            limit=limit,
            cursor=cursor,
            from_=from_,
            to=to,
            tz=tz,
            status=status,
            count=count,
            accept_language=accept_language,
            x_request_id=x_request_id,
            if_none_match=if_none_match,
        )
    ).parsed
