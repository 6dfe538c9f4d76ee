import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.export_trips_format import ExportTripsFormat
from ...models.export_trips_response_400 import ExportTripsResponse400
from ...models.export_trips_response_401 import ExportTripsResponse401
from ...models.export_trips_response_403 import ExportTripsResponse403
from ...models.export_trips_response_414 import ExportTripsResponse414
from ...models.export_trips_response_422 import ExportTripsResponse422
from ...models.export_trips_response_429 import ExportTripsResponse429
from ...models.export_trips_response_431 import ExportTripsResponse431
from ...models.export_trips_response_500 import ExportTripsResponse500
from ...models.export_trips_response_503 import ExportTripsResponse503
from ...models.trip_status import TripStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    format_: ExportTripsFormat,
    from_: str,
    to: str,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    city: str | Unset = UNSET,
    product: str | Unset = UNSET,
    rider_id: str | Unset = UNSET,
    include: str | Unset = UNSET,
    resume_after: str | Unset = UNSET,
    resume_requested_at: datetime.datetime | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(accept_language, Unset):
        headers["Accept-Language"] = accept_language

    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    json_format_ = format_.value
    params["format"] = json_format_

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

    params["include"] = include

    params["resume_after"] = resume_after

    json_resume_requested_at: str | Unset = UNSET
    if not isinstance(resume_requested_at, Unset):
        json_resume_requested_at = resume_requested_at.isoformat()
    params["resume_requested_at"] = json_resume_requested_at

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/trips/export",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    ExportTripsResponse400
    | ExportTripsResponse401
    | ExportTripsResponse403
    | ExportTripsResponse414
    | ExportTripsResponse422
    | ExportTripsResponse429
    | ExportTripsResponse431
    | ExportTripsResponse500
    | ExportTripsResponse503
    | str
    | None
):
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = ExportTripsResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ExportTripsResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ExportTripsResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 414:
        response_414 = ExportTripsResponse414.from_dict(response.json())

        return response_414

    if response.status_code == 422:
        response_422 = ExportTripsResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = ExportTripsResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 431:
        response_431 = ExportTripsResponse431.from_dict(response.json())

        return response_431

    if response.status_code == 500:
        response_500 = ExportTripsResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ExportTripsResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    ExportTripsResponse400
    | ExportTripsResponse401
    | ExportTripsResponse403
    | ExportTripsResponse414
    | ExportTripsResponse422
    | ExportTripsResponse429
    | ExportTripsResponse431
    | ExportTripsResponse500
    | ExportTripsResponse503
    | str
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
    format_: ExportTripsFormat,
    from_: str,
    to: str,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    city: str | Unset = UNSET,
    product: str | Unset = UNSET,
    rider_id: str | Unset = UNSET,
    include: str | Unset = UNSET,
    resume_after: str | Unset = UNSET,
    resume_requested_at: datetime.datetime | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    ExportTripsResponse400
    | ExportTripsResponse401
    | ExportTripsResponse403
    | ExportTripsResponse414
    | ExportTripsResponse422
    | ExportTripsResponse429
    | ExportTripsResponse431
    | ExportTripsResponse500
    | ExportTripsResponse503
    | str
]:
    """Export every rider's trips in a window as CSV or NDJSON (analysts).

     Every trip requested in `[from, to)`, across riders, narrowed by the optional filters, newest first,
    streamed: the same selection and representations as `GET /v1/trips` with an export `Accept`, in the
    style of a rider's own export (`format=csv` or `format=ndjson`, whatever `Accept` says). Analysts
    only:
    riders and services get `403 forbidden` before any parameter is looked at. `limit`, `cursor` and
    `count` belong to pages: an export with one gets `400 invalid_parameter` naming it. The content
    negotiation of `GET /v1/trips` keeps working as it did.

    At most a few exports stream at once per instance and one per analyst (`429 rate_limited` with
    `Retry-After`); one streams for at most `TRIP_HISTORY_EXPORT_TIME_LIMIT_SECONDS`. The first rows are
    read before the response starts, so a refused or failing query is still a problem response; a
    failure after that ends the stream without its final chunk, which clients see as a truncated
    transfer: resume with `resume_after` and `resume_requested_at`, the `id` and `requested_at` of the
    last complete line or row received (a CSV starts with its header row again).

    Args:
        format_ (ExportTripsFormat):
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
        include (str | Unset):
        resume_after (str | Unset): A positive 64-bit integer (1 to 9223372036854775807) written
            in decimal.
        resume_requested_at (datetime.datetime | Unset): An RFC 3339 timestamp with an offset (`Z`
            or `±HH:MM`), of a day that exists, seconds up to 59 (no
            leap second), at most 9 fraction digits, an instant within the years 0000 to 9999 in UTC
            (else
            `422`); stored to the microsecond.
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ExportTripsResponse400 | ExportTripsResponse401 | ExportTripsResponse403 | ExportTripsResponse414 | ExportTripsResponse422 | ExportTripsResponse429 | ExportTripsResponse431 | ExportTripsResponse500 | ExportTripsResponse503 | str]
    """

    kwargs = _get_kwargs(
        format_=format_,
        from_=from_,
        to=to,
        tz=tz,
        status=status,
        city=city,
        product=product,
        rider_id=rider_id,
        include=include,
        resume_after=resume_after,
        resume_requested_at=resume_requested_at,
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
    format_: ExportTripsFormat,
    from_: str,
    to: str,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    city: str | Unset = UNSET,
    product: str | Unset = UNSET,
    rider_id: str | Unset = UNSET,
    include: str | Unset = UNSET,
    resume_after: str | Unset = UNSET,
    resume_requested_at: datetime.datetime | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    ExportTripsResponse400
    | ExportTripsResponse401
    | ExportTripsResponse403
    | ExportTripsResponse414
    | ExportTripsResponse422
    | ExportTripsResponse429
    | ExportTripsResponse431
    | ExportTripsResponse500
    | ExportTripsResponse503
    | str
    | None
):
    """Export every rider's trips in a window as CSV or NDJSON (analysts).

     Every trip requested in `[from, to)`, across riders, narrowed by the optional filters, newest first,
    streamed: the same selection and representations as `GET /v1/trips` with an export `Accept`, in the
    style of a rider's own export (`format=csv` or `format=ndjson`, whatever `Accept` says). Analysts
    only:
    riders and services get `403 forbidden` before any parameter is looked at. `limit`, `cursor` and
    `count` belong to pages: an export with one gets `400 invalid_parameter` naming it. The content
    negotiation of `GET /v1/trips` keeps working as it did.

    At most a few exports stream at once per instance and one per analyst (`429 rate_limited` with
    `Retry-After`); one streams for at most `TRIP_HISTORY_EXPORT_TIME_LIMIT_SECONDS`. The first rows are
    read before the response starts, so a refused or failing query is still a problem response; a
    failure after that ends the stream without its final chunk, which clients see as a truncated
    transfer: resume with `resume_after` and `resume_requested_at`, the `id` and `requested_at` of the
    last complete line or row received (a CSV starts with its header row again).

    Args:
        format_ (ExportTripsFormat):
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
        include (str | Unset):
        resume_after (str | Unset): A positive 64-bit integer (1 to 9223372036854775807) written
            in decimal.
        resume_requested_at (datetime.datetime | Unset): An RFC 3339 timestamp with an offset (`Z`
            or `±HH:MM`), of a day that exists, seconds up to 59 (no
            leap second), at most 9 fraction digits, an instant within the years 0000 to 9999 in UTC
            (else
            `422`); stored to the microsecond.
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ExportTripsResponse400 | ExportTripsResponse401 | ExportTripsResponse403 | ExportTripsResponse414 | ExportTripsResponse422 | ExportTripsResponse429 | ExportTripsResponse431 | ExportTripsResponse500 | ExportTripsResponse503 | str
    """

    return sync_detailed(
        client=client,
        format_=format_,
        from_=from_,
        to=to,
        tz=tz,
        status=status,
        city=city,
        product=product,
        rider_id=rider_id,
        include=include,
        resume_after=resume_after,
        resume_requested_at=resume_requested_at,
        accept_language=accept_language,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    format_: ExportTripsFormat,
    from_: str,
    to: str,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    city: str | Unset = UNSET,
    product: str | Unset = UNSET,
    rider_id: str | Unset = UNSET,
    include: str | Unset = UNSET,
    resume_after: str | Unset = UNSET,
    resume_requested_at: datetime.datetime | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    ExportTripsResponse400
    | ExportTripsResponse401
    | ExportTripsResponse403
    | ExportTripsResponse414
    | ExportTripsResponse422
    | ExportTripsResponse429
    | ExportTripsResponse431
    | ExportTripsResponse500
    | ExportTripsResponse503
    | str
]:
    """Export every rider's trips in a window as CSV or NDJSON (analysts).

     Every trip requested in `[from, to)`, across riders, narrowed by the optional filters, newest first,
    streamed: the same selection and representations as `GET /v1/trips` with an export `Accept`, in the
    style of a rider's own export (`format=csv` or `format=ndjson`, whatever `Accept` says). Analysts
    only:
    riders and services get `403 forbidden` before any parameter is looked at. `limit`, `cursor` and
    `count` belong to pages: an export with one gets `400 invalid_parameter` naming it. The content
    negotiation of `GET /v1/trips` keeps working as it did.

    At most a few exports stream at once per instance and one per analyst (`429 rate_limited` with
    `Retry-After`); one streams for at most `TRIP_HISTORY_EXPORT_TIME_LIMIT_SECONDS`. The first rows are
    read before the response starts, so a refused or failing query is still a problem response; a
    failure after that ends the stream without its final chunk, which clients see as a truncated
    transfer: resume with `resume_after` and `resume_requested_at`, the `id` and `requested_at` of the
    last complete line or row received (a CSV starts with its header row again).

    Args:
        format_ (ExportTripsFormat):
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
        include (str | Unset):
        resume_after (str | Unset): A positive 64-bit integer (1 to 9223372036854775807) written
            in decimal.
        resume_requested_at (datetime.datetime | Unset): An RFC 3339 timestamp with an offset (`Z`
            or `±HH:MM`), of a day that exists, seconds up to 59 (no
            leap second), at most 9 fraction digits, an instant within the years 0000 to 9999 in UTC
            (else
            `422`); stored to the microsecond.
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ExportTripsResponse400 | ExportTripsResponse401 | ExportTripsResponse403 | ExportTripsResponse414 | ExportTripsResponse422 | ExportTripsResponse429 | ExportTripsResponse431 | ExportTripsResponse500 | ExportTripsResponse503 | str]
    """

    kwargs = _get_kwargs(
        format_=format_,
        from_=from_,
        to=to,
        tz=tz,
        status=status,
        city=city,
        product=product,
        rider_id=rider_id,
        include=include,
        resume_after=resume_after,
        resume_requested_at=resume_requested_at,
        accept_language=accept_language,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    format_: ExportTripsFormat,
    from_: str,
    to: str,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    city: str | Unset = UNSET,
    product: str | Unset = UNSET,
    rider_id: str | Unset = UNSET,
    include: str | Unset = UNSET,
    resume_after: str | Unset = UNSET,
    resume_requested_at: datetime.datetime | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    ExportTripsResponse400
    | ExportTripsResponse401
    | ExportTripsResponse403
    | ExportTripsResponse414
    | ExportTripsResponse422
    | ExportTripsResponse429
    | ExportTripsResponse431
    | ExportTripsResponse500
    | ExportTripsResponse503
    | str
    | None
):
    """Export every rider's trips in a window as CSV or NDJSON (analysts).

     Every trip requested in `[from, to)`, across riders, narrowed by the optional filters, newest first,
    streamed: the same selection and representations as `GET /v1/trips` with an export `Accept`, in the
    style of a rider's own export (`format=csv` or `format=ndjson`, whatever `Accept` says). Analysts
    only:
    riders and services get `403 forbidden` before any parameter is looked at. `limit`, `cursor` and
    `count` belong to pages: an export with one gets `400 invalid_parameter` naming it. The content
    negotiation of `GET /v1/trips` keeps working as it did.

    At most a few exports stream at once per instance and one per analyst (`429 rate_limited` with
    `Retry-After`); one streams for at most `TRIP_HISTORY_EXPORT_TIME_LIMIT_SECONDS`. The first rows are
    read before the response starts, so a refused or failing query is still a problem response; a
    failure after that ends the stream without its final chunk, which clients see as a truncated
    transfer: resume with `resume_after` and `resume_requested_at`, the `id` and `requested_at` of the
    last complete line or row received (a CSV starts with its header row again).

    Args:
        format_ (ExportTripsFormat):
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
        include (str | Unset):
        resume_after (str | Unset): A positive 64-bit integer (1 to 9223372036854775807) written
            in decimal.
        resume_requested_at (datetime.datetime | Unset): An RFC 3339 timestamp with an offset (`Z`
            or `±HH:MM`), of a day that exists, seconds up to 59 (no
            leap second), at most 9 fraction digits, an instant within the years 0000 to 9999 in UTC
            (else
            `422`); stored to the microsecond.
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ExportTripsResponse400 | ExportTripsResponse401 | ExportTripsResponse403 | ExportTripsResponse414 | ExportTripsResponse422 | ExportTripsResponse429 | ExportTripsResponse431 | ExportTripsResponse500 | ExportTripsResponse503 | str
    """

    return (
        await asyncio_detailed(
            client=client,
            format_=format_,
            from_=from_,
            to=to,
            tz=tz,
            status=status,
            city=city,
            product=product,
            rider_id=rider_id,
            include=include,
            resume_after=resume_after,
            resume_requested_at=resume_requested_at,
            accept_language=accept_language,
            x_request_id=x_request_id,
        )
    ).parsed
