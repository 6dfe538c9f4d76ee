from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.trip_stats import TripStats
from ...models.trip_stats_by import TripStatsBy
from ...models.trip_stats_group_by import TripStatsGroupBy
from ...models.trip_stats_response_400 import TripStatsResponse400
from ...models.trip_stats_response_401 import TripStatsResponse401
from ...models.trip_stats_response_403 import TripStatsResponse403
from ...models.trip_stats_response_406 import TripStatsResponse406
from ...models.trip_stats_response_414 import TripStatsResponse414
from ...models.trip_stats_response_422 import TripStatsResponse422
from ...models.trip_stats_response_429 import TripStatsResponse429
from ...models.trip_stats_response_431 import TripStatsResponse431
from ...models.trip_stats_response_500 import TripStatsResponse500
from ...models.trip_stats_response_503 import TripStatsResponse503
from ...models.trip_status import TripStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    from_: str,
    to: str,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    city: str | Unset = UNSET,
    product: str | Unset = UNSET,
    rider_id: str | Unset = UNSET,
    group_by: TripStatsGroupBy | Unset = TripStatsGroupBy.DAY,
    by: TripStatsBy | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    params["from"] = from_

    params["to"] = to

    params["tz"] = tz

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["city"] = city

    params["product"] = product

    params["rider_id"] = rider_id

    json_group_by: str | Unset = UNSET
    if not isinstance(group_by, Unset):
        json_group_by = group_by.value

    params["group_by"] = json_group_by

    json_by: str | Unset = UNSET
    if not isinstance(by, Unset):
        json_by = by.value

    params["by"] = json_by

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/trips/stats",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    TripStats
    | TripStatsResponse400
    | TripStatsResponse401
    | TripStatsResponse403
    | TripStatsResponse406
    | TripStatsResponse414
    | TripStatsResponse422
    | TripStatsResponse429
    | TripStatsResponse431
    | TripStatsResponse500
    | TripStatsResponse503
    | None
):
    if response.status_code == 200:
        response_200 = TripStats.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = TripStatsResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = TripStatsResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = TripStatsResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 406:
        response_406 = TripStatsResponse406.from_dict(response.json())

        return response_406

    if response.status_code == 414:
        response_414 = TripStatsResponse414.from_dict(response.json())

        return response_414

    if response.status_code == 422:
        response_422 = TripStatsResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = TripStatsResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 431:
        response_431 = TripStatsResponse431.from_dict(response.json())

        return response_431

    if response.status_code == 500:
        response_500 = TripStatsResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = TripStatsResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    TripStats
    | TripStatsResponse400
    | TripStatsResponse401
    | TripStatsResponse403
    | TripStatsResponse406
    | TripStatsResponse414
    | TripStatsResponse422
    | TripStatsResponse429
    | TripStatsResponse431
    | TripStatsResponse500
    | TripStatsResponse503
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
    from_: str,
    to: str,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    city: str | Unset = UNSET,
    product: str | Unset = UNSET,
    rider_id: str | Unset = UNSET,
    group_by: TripStatsGroupBy | Unset = TripStatsGroupBy.DAY,
    by: TripStatsBy | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    TripStats
    | TripStatsResponse400
    | TripStatsResponse401
    | TripStatsResponse403
    | TripStatsResponse406
    | TripStatsResponse414
    | TripStatsResponse422
    | TripStatsResponse429
    | TripStatsResponse431
    | TripStatsResponse500
    | TripStatsResponse503
]:
    """Per-period totals of every rider's trips in a window (analysts).

     Aggregates of the trips requested in `[from, to)`, narrowed by the optional filters, grouped by the
    calendar period `group_by` (`day`, ISO `week` starting Monday, or `month`) in the zone `tz` (UTC
    when
    absent; a day may last 23 or 25 hours across a daylight-saving change). One bucket per period that
    has matching trips, oldest first; periods without trips are left out, and the first bucket may start
    before `from` when `from` is not at a period boundary. Fares are summed per currency, never mixed.

    With `by` (`city` or `product`) each period is split further: one bucket per period and value of
    that
    field among the matching trips, with the value in the bucket's `city` or `product` member, ordered
    by
    period and then by the value's UTF-8 bytes. The `city` and `product` filters still apply first, so
    `by=product&city=Paris` splits Paris's trips by product. At most 10000 buckets: a `by` query that
    would return more gets `400 invalid_parameter` naming `by`. Without `by` the answer is the same as
    before it existed.

    Analysts only: riders and services get `403 forbidden` before any parameter is looked at. The only
    representation is `application/json`; an `Accept` header that excludes it gets `406 not_acceptable`.
    Each query parameter may appear at most once.

    Args:
        from_ (str): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-DD`. The
            date must exist (the
            pattern checks months, days and leap years); seconds go to 59 (no leap second) and
            fractions to 9
            digits; a `+` offset that arrived as a space (an unencoded query) is read as `+`. The
            instant (for a
            date, its start in `tz`) must fall within the years 0000 to 9999 in UTC, or it gets `400`;
            the
            pattern admits the years 0001 to 9998, whose every date and offset stays within them.
        to (str): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-DD`. The date
            must exist (the
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
        city (str | Unset):
        product (str | Unset):
        rider_id (str | Unset): A positive 64-bit integer (1 to 9223372036854775807) written in
            decimal.
        group_by (TripStatsGroupBy | Unset):  Default: TripStatsGroupBy.DAY.
        by (TripStatsBy | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[TripStats | TripStatsResponse400 | TripStatsResponse401 | TripStatsResponse403 | TripStatsResponse406 | TripStatsResponse414 | TripStatsResponse422 | TripStatsResponse429 | TripStatsResponse431 | TripStatsResponse500 | TripStatsResponse503]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        tz=tz,
        status=status,
        city=city,
        product=product,
        rider_id=rider_id,
        group_by=group_by,
        by=by,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    from_: str,
    to: str,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    city: str | Unset = UNSET,
    product: str | Unset = UNSET,
    rider_id: str | Unset = UNSET,
    group_by: TripStatsGroupBy | Unset = TripStatsGroupBy.DAY,
    by: TripStatsBy | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    TripStats
    | TripStatsResponse400
    | TripStatsResponse401
    | TripStatsResponse403
    | TripStatsResponse406
    | TripStatsResponse414
    | TripStatsResponse422
    | TripStatsResponse429
    | TripStatsResponse431
    | TripStatsResponse500
    | TripStatsResponse503
    | None
):
    """Per-period totals of every rider's trips in a window (analysts).

     Aggregates of the trips requested in `[from, to)`, narrowed by the optional filters, grouped by the
    calendar period `group_by` (`day`, ISO `week` starting Monday, or `month`) in the zone `tz` (UTC
    when
    absent; a day may last 23 or 25 hours across a daylight-saving change). One bucket per period that
    has matching trips, oldest first; periods without trips are left out, and the first bucket may start
    before `from` when `from` is not at a period boundary. Fares are summed per currency, never mixed.

    With `by` (`city` or `product`) each period is split further: one bucket per period and value of
    that
    field among the matching trips, with the value in the bucket's `city` or `product` member, ordered
    by
    period and then by the value's UTF-8 bytes. The `city` and `product` filters still apply first, so
    `by=product&city=Paris` splits Paris's trips by product. At most 10000 buckets: a `by` query that
    would return more gets `400 invalid_parameter` naming `by`. Without `by` the answer is the same as
    before it existed.

    Analysts only: riders and services get `403 forbidden` before any parameter is looked at. The only
    representation is `application/json`; an `Accept` header that excludes it gets `406 not_acceptable`.
    Each query parameter may appear at most once.

    Args:
        from_ (str): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-DD`. The
            date must exist (the
            pattern checks months, days and leap years); seconds go to 59 (no leap second) and
            fractions to 9
            digits; a `+` offset that arrived as a space (an unencoded query) is read as `+`. The
            instant (for a
            date, its start in `tz`) must fall within the years 0000 to 9999 in UTC, or it gets `400`;
            the
            pattern admits the years 0001 to 9998, whose every date and offset stays within them.
        to (str): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-DD`. The date
            must exist (the
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
        city (str | Unset):
        product (str | Unset):
        rider_id (str | Unset): A positive 64-bit integer (1 to 9223372036854775807) written in
            decimal.
        group_by (TripStatsGroupBy | Unset):  Default: TripStatsGroupBy.DAY.
        by (TripStatsBy | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        TripStats | TripStatsResponse400 | TripStatsResponse401 | TripStatsResponse403 | TripStatsResponse406 | TripStatsResponse414 | TripStatsResponse422 | TripStatsResponse429 | TripStatsResponse431 | TripStatsResponse500 | TripStatsResponse503
    """

    return sync_detailed(
        client=client,
        from_=from_,
        to=to,
        tz=tz,
        status=status,
        city=city,
        product=product,
        rider_id=rider_id,
        group_by=group_by,
        by=by,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    from_: str,
    to: str,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    city: str | Unset = UNSET,
    product: str | Unset = UNSET,
    rider_id: str | Unset = UNSET,
    group_by: TripStatsGroupBy | Unset = TripStatsGroupBy.DAY,
    by: TripStatsBy | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    TripStats
    | TripStatsResponse400
    | TripStatsResponse401
    | TripStatsResponse403
    | TripStatsResponse406
    | TripStatsResponse414
    | TripStatsResponse422
    | TripStatsResponse429
    | TripStatsResponse431
    | TripStatsResponse500
    | TripStatsResponse503
]:
    """Per-period totals of every rider's trips in a window (analysts).

     Aggregates of the trips requested in `[from, to)`, narrowed by the optional filters, grouped by the
    calendar period `group_by` (`day`, ISO `week` starting Monday, or `month`) in the zone `tz` (UTC
    when
    absent; a day may last 23 or 25 hours across a daylight-saving change). One bucket per period that
    has matching trips, oldest first; periods without trips are left out, and the first bucket may start
    before `from` when `from` is not at a period boundary. Fares are summed per currency, never mixed.

    With `by` (`city` or `product`) each period is split further: one bucket per period and value of
    that
    field among the matching trips, with the value in the bucket's `city` or `product` member, ordered
    by
    period and then by the value's UTF-8 bytes. The `city` and `product` filters still apply first, so
    `by=product&city=Paris` splits Paris's trips by product. At most 10000 buckets: a `by` query that
    would return more gets `400 invalid_parameter` naming `by`. Without `by` the answer is the same as
    before it existed.

    Analysts only: riders and services get `403 forbidden` before any parameter is looked at. The only
    representation is `application/json`; an `Accept` header that excludes it gets `406 not_acceptable`.
    Each query parameter may appear at most once.

    Args:
        from_ (str): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-DD`. The
            date must exist (the
            pattern checks months, days and leap years); seconds go to 59 (no leap second) and
            fractions to 9
            digits; a `+` offset that arrived as a space (an unencoded query) is read as `+`. The
            instant (for a
            date, its start in `tz`) must fall within the years 0000 to 9999 in UTC, or it gets `400`;
            the
            pattern admits the years 0001 to 9998, whose every date and offset stays within them.
        to (str): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-DD`. The date
            must exist (the
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
        city (str | Unset):
        product (str | Unset):
        rider_id (str | Unset): A positive 64-bit integer (1 to 9223372036854775807) written in
            decimal.
        group_by (TripStatsGroupBy | Unset):  Default: TripStatsGroupBy.DAY.
        by (TripStatsBy | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[TripStats | TripStatsResponse400 | TripStatsResponse401 | TripStatsResponse403 | TripStatsResponse406 | TripStatsResponse414 | TripStatsResponse422 | TripStatsResponse429 | TripStatsResponse431 | TripStatsResponse500 | TripStatsResponse503]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        tz=tz,
        status=status,
        city=city,
        product=product,
        rider_id=rider_id,
        group_by=group_by,
        by=by,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    from_: str,
    to: str,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    city: str | Unset = UNSET,
    product: str | Unset = UNSET,
    rider_id: str | Unset = UNSET,
    group_by: TripStatsGroupBy | Unset = TripStatsGroupBy.DAY,
    by: TripStatsBy | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    TripStats
    | TripStatsResponse400
    | TripStatsResponse401
    | TripStatsResponse403
    | TripStatsResponse406
    | TripStatsResponse414
    | TripStatsResponse422
    | TripStatsResponse429
    | TripStatsResponse431
    | TripStatsResponse500
    | TripStatsResponse503
    | None
):
    """Per-period totals of every rider's trips in a window (analysts).

     Aggregates of the trips requested in `[from, to)`, narrowed by the optional filters, grouped by the
    calendar period `group_by` (`day`, ISO `week` starting Monday, or `month`) in the zone `tz` (UTC
    when
    absent; a day may last 23 or 25 hours across a daylight-saving change). One bucket per period that
    has matching trips, oldest first; periods without trips are left out, and the first bucket may start
    before `from` when `from` is not at a period boundary. Fares are summed per currency, never mixed.

    With `by` (`city` or `product`) each period is split further: one bucket per period and value of
    that
    field among the matching trips, with the value in the bucket's `city` or `product` member, ordered
    by
    period and then by the value's UTF-8 bytes. The `city` and `product` filters still apply first, so
    `by=product&city=Paris` splits Paris's trips by product. At most 10000 buckets: a `by` query that
    would return more gets `400 invalid_parameter` naming `by`. Without `by` the answer is the same as
    before it existed.

    Analysts only: riders and services get `403 forbidden` before any parameter is looked at. The only
    representation is `application/json`; an `Accept` header that excludes it gets `406 not_acceptable`.
    Each query parameter may appear at most once.

    Args:
        from_ (str): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-DD`. The
            date must exist (the
            pattern checks months, days and leap years); seconds go to 59 (no leap second) and
            fractions to 9
            digits; a `+` offset that arrived as a space (an unencoded query) is read as `+`. The
            instant (for a
            date, its start in `tz`) must fall within the years 0000 to 9999 in UTC, or it gets `400`;
            the
            pattern admits the years 0001 to 9998, whose every date and offset stays within them.
        to (str): An RFC 3339 timestamp with an offset, or a calendar date `YYYY-MM-DD`. The date
            must exist (the
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
        city (str | Unset):
        product (str | Unset):
        rider_id (str | Unset): A positive 64-bit integer (1 to 9223372036854775807) written in
            decimal.
        group_by (TripStatsGroupBy | Unset):  Default: TripStatsGroupBy.DAY.
        by (TripStatsBy | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        TripStats | TripStatsResponse400 | TripStatsResponse401 | TripStatsResponse403 | TripStatsResponse406 | TripStatsResponse414 | TripStatsResponse422 | TripStatsResponse429 | TripStatsResponse431 | TripStatsResponse500 | TripStatsResponse503
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            to=to,
            tz=tz,
            status=status,
            city=city,
            product=product,
            rider_id=rider_id,
            group_by=group_by,
            by=by,
            x_request_id=x_request_id,
        )
    ).parsed
