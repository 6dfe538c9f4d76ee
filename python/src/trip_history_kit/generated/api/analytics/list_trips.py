import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.analyst_trip_page import AnalystTripPage
from ...models.list_trips_count import ListTripsCount
from ...models.list_trips_response_400 import ListTripsResponse400
from ...models.list_trips_response_401 import ListTripsResponse401
from ...models.list_trips_response_403 import ListTripsResponse403
from ...models.list_trips_response_406 import ListTripsResponse406
from ...models.list_trips_response_414 import ListTripsResponse414
from ...models.list_trips_response_422 import ListTripsResponse422
from ...models.list_trips_response_429 import ListTripsResponse429
from ...models.list_trips_response_431 import ListTripsResponse431
from ...models.list_trips_response_500 import ListTripsResponse500
from ...models.list_trips_response_503 import ListTripsResponse503
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
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    resume_after: str | Unset = UNSET,
    resume_requested_at: datetime.datetime | Unset = UNSET,
    count: ListTripsCount | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(accept_language, Unset):
        headers["Accept-Language"] = accept_language

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

    params["limit"] = limit

    params["cursor"] = cursor

    params["resume_after"] = resume_after

    json_resume_requested_at: str | Unset = UNSET
    if not isinstance(resume_requested_at, Unset):
        json_resume_requested_at = resume_requested_at.isoformat()
    params["resume_requested_at"] = json_resume_requested_at

    json_count: str | Unset = UNSET
    if not isinstance(count, Unset):
        json_count = count.value

    params["count"] = json_count

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/trips",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    AnalystTripPage
    | ListTripsResponse400
    | ListTripsResponse401
    | ListTripsResponse403
    | ListTripsResponse406
    | ListTripsResponse414
    | ListTripsResponse422
    | ListTripsResponse429
    | ListTripsResponse431
    | ListTripsResponse500
    | ListTripsResponse503
    | None
):
    if response.status_code == 200:
        response_200 = AnalystTripPage.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ListTripsResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ListTripsResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ListTripsResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 406:
        response_406 = ListTripsResponse406.from_dict(response.json())

        return response_406

    if response.status_code == 414:
        response_414 = ListTripsResponse414.from_dict(response.json())

        return response_414

    if response.status_code == 422:
        response_422 = ListTripsResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = ListTripsResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 431:
        response_431 = ListTripsResponse431.from_dict(response.json())

        return response_431

    if response.status_code == 500:
        response_500 = ListTripsResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ListTripsResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    AnalystTripPage
    | ListTripsResponse400
    | ListTripsResponse401
    | ListTripsResponse403
    | ListTripsResponse406
    | ListTripsResponse414
    | ListTripsResponse422
    | ListTripsResponse429
    | ListTripsResponse431
    | ListTripsResponse500
    | ListTripsResponse503
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
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    resume_after: str | Unset = UNSET,
    resume_requested_at: datetime.datetime | Unset = UNSET,
    count: ListTripsCount | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    AnalystTripPage
    | ListTripsResponse400
    | ListTripsResponse401
    | ListTripsResponse403
    | ListTripsResponse406
    | ListTripsResponse414
    | ListTripsResponse422
    | ListTripsResponse429
    | ListTripsResponse431
    | ListTripsResponse500
    | ListTripsResponse503
]:
    """List or export every rider's trips in a window (analysts).

     Every trip requested in `[from, to)`, across riders, narrowed by the optional filters, newest first:
    ordered by `requested_at` then `id`, both descending. Analysts only: riders and services get
    `403 forbidden` before any parameter is looked at. The token is checked first, then the role, then
    `Accept`, then the parameters (each rejection names its `param`), then the cursor. Each query
    parameter may appear at most once.

    The `Accept` header chooses the representation (`q` values are honoured; ties and wildcards prefer
    them in this order; no `Accept` means JSON; `application/ndjson` is accepted as an alias of
    `application/x-ndjson`); when none is acceptable the answer is `406 not_acceptable`:

    - `application/json`: one page of `limit` trips (`AnalystTripPage`), with `page.next_cursor` and
      `page.prev_cursor` and the same links in `Link`, exactly like a rider's list.
    - `application/x-ndjson`: every matching trip, streamed, one `Trip` object (with its `display`
      strings) per line, each line ended by `\\n`; an empty result is an empty body.
    - `text/csv`: every matching trip, streamed, as RFC 4180 CSV (UTF-8, records ended by CRLF, every
      text cell quoted with inner quotes doubled, numbers, ids and times unquoted) with a
      header row naming the columns `id`, `rider_id`, `status`, `product`, `city`, `time_zone`,
      `requested_at`, `started_at`, `completed_at`, `pickup_lat`, `pickup_lon`, `pickup_address`,
      `dropoff_lat`, `dropoff_lon`, `dropoff_address`, `distance_m`, `duration_s`, `fare_amount_minor`,
      `fare_currency`, `fare_total_minor`, `tips_minor`, `refunds_minor`, `version`, `recorded_at`,
      `updated_at`; a later version may add columns after these, so read cells by the header's names.
      Rows hold the stored values only, no display strings; times are RFC 3339 UTC as in JSON, and
      `completed_at` is empty for a canceled trip.

    Exports ignore `limit` (it is still checked) and hold no cursors. They are limited to a few at once
    per instance and one per analyst; one more gets `429 rate_limited` with `Retry-After`. The first
    rows are read
    before the response starts, so a refused or failing query is still a problem response; a failure
    after that ends the stream without its final chunk, which clients see as a truncated transfer.

    **Resuming.** Every NDJSON line and CSV row carries the trip's `id` and `requested_at`. To resume an
    interrupted export, repeat the same request (same filter, same `Accept`) with `resume_after` and
    `resume_requested_at` set to the `id` and `requested_at` of the last complete line or row
    received: the export continues with the next older trip, so nothing is skipped or repeated (a CSV
    starts with its header row again). An export may also start after a JSON page: send that page's
    `page.next_cursor` as `cursor` with an export `Accept`; a `prev_cursor` gets
    `400 invalid_parameter`. `resume_after` is for exports only (a JSON page with it gets
    `400 invalid_parameter`), and may not be combined with `cursor`.

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
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        resume_after (str | Unset): A positive 64-bit integer (1 to 9223372036854775807) written
            in decimal.
        resume_requested_at (datetime.datetime | Unset): An RFC 3339 timestamp with an offset (`Z`
            or `±HH:MM`), of a day that exists, seconds up to 59 (no
            leap second), at most 9 fraction digits, an instant within the years 0000 to 9999 in UTC
            (else
            `422`); stored to the microsecond.
        count (ListTripsCount | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AnalystTripPage | ListTripsResponse400 | ListTripsResponse401 | ListTripsResponse403 | ListTripsResponse406 | ListTripsResponse414 | ListTripsResponse422 | ListTripsResponse429 | ListTripsResponse431 | ListTripsResponse500 | ListTripsResponse503]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        tz=tz,
        status=status,
        city=city,
        product=product,
        rider_id=rider_id,
        limit=limit,
        cursor=cursor,
        resume_after=resume_after,
        resume_requested_at=resume_requested_at,
        count=count,
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
    from_: str,
    to: str,
    tz: str | Unset = UNSET,
    status: TripStatus | Unset = UNSET,
    city: str | Unset = UNSET,
    product: str | Unset = UNSET,
    rider_id: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    resume_after: str | Unset = UNSET,
    resume_requested_at: datetime.datetime | Unset = UNSET,
    count: ListTripsCount | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    AnalystTripPage
    | ListTripsResponse400
    | ListTripsResponse401
    | ListTripsResponse403
    | ListTripsResponse406
    | ListTripsResponse414
    | ListTripsResponse422
    | ListTripsResponse429
    | ListTripsResponse431
    | ListTripsResponse500
    | ListTripsResponse503
    | None
):
    """List or export every rider's trips in a window (analysts).

     Every trip requested in `[from, to)`, across riders, narrowed by the optional filters, newest first:
    ordered by `requested_at` then `id`, both descending. Analysts only: riders and services get
    `403 forbidden` before any parameter is looked at. The token is checked first, then the role, then
    `Accept`, then the parameters (each rejection names its `param`), then the cursor. Each query
    parameter may appear at most once.

    The `Accept` header chooses the representation (`q` values are honoured; ties and wildcards prefer
    them in this order; no `Accept` means JSON; `application/ndjson` is accepted as an alias of
    `application/x-ndjson`); when none is acceptable the answer is `406 not_acceptable`:

    - `application/json`: one page of `limit` trips (`AnalystTripPage`), with `page.next_cursor` and
      `page.prev_cursor` and the same links in `Link`, exactly like a rider's list.
    - `application/x-ndjson`: every matching trip, streamed, one `Trip` object (with its `display`
      strings) per line, each line ended by `\\n`; an empty result is an empty body.
    - `text/csv`: every matching trip, streamed, as RFC 4180 CSV (UTF-8, records ended by CRLF, every
      text cell quoted with inner quotes doubled, numbers, ids and times unquoted) with a
      header row naming the columns `id`, `rider_id`, `status`, `product`, `city`, `time_zone`,
      `requested_at`, `started_at`, `completed_at`, `pickup_lat`, `pickup_lon`, `pickup_address`,
      `dropoff_lat`, `dropoff_lon`, `dropoff_address`, `distance_m`, `duration_s`, `fare_amount_minor`,
      `fare_currency`, `fare_total_minor`, `tips_minor`, `refunds_minor`, `version`, `recorded_at`,
      `updated_at`; a later version may add columns after these, so read cells by the header's names.
      Rows hold the stored values only, no display strings; times are RFC 3339 UTC as in JSON, and
      `completed_at` is empty for a canceled trip.

    Exports ignore `limit` (it is still checked) and hold no cursors. They are limited to a few at once
    per instance and one per analyst; one more gets `429 rate_limited` with `Retry-After`. The first
    rows are read
    before the response starts, so a refused or failing query is still a problem response; a failure
    after that ends the stream without its final chunk, which clients see as a truncated transfer.

    **Resuming.** Every NDJSON line and CSV row carries the trip's `id` and `requested_at`. To resume an
    interrupted export, repeat the same request (same filter, same `Accept`) with `resume_after` and
    `resume_requested_at` set to the `id` and `requested_at` of the last complete line or row
    received: the export continues with the next older trip, so nothing is skipped or repeated (a CSV
    starts with its header row again). An export may also start after a JSON page: send that page's
    `page.next_cursor` as `cursor` with an export `Accept`; a `prev_cursor` gets
    `400 invalid_parameter`. `resume_after` is for exports only (a JSON page with it gets
    `400 invalid_parameter`), and may not be combined with `cursor`.

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
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        resume_after (str | Unset): A positive 64-bit integer (1 to 9223372036854775807) written
            in decimal.
        resume_requested_at (datetime.datetime | Unset): An RFC 3339 timestamp with an offset (`Z`
            or `±HH:MM`), of a day that exists, seconds up to 59 (no
            leap second), at most 9 fraction digits, an instant within the years 0000 to 9999 in UTC
            (else
            `422`); stored to the microsecond.
        count (ListTripsCount | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AnalystTripPage | ListTripsResponse400 | ListTripsResponse401 | ListTripsResponse403 | ListTripsResponse406 | ListTripsResponse414 | ListTripsResponse422 | ListTripsResponse429 | ListTripsResponse431 | ListTripsResponse500 | ListTripsResponse503
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
        limit=limit,
        cursor=cursor,
        resume_after=resume_after,
        resume_requested_at=resume_requested_at,
        count=count,
        accept_language=accept_language,
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
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    resume_after: str | Unset = UNSET,
    resume_requested_at: datetime.datetime | Unset = UNSET,
    count: ListTripsCount | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    AnalystTripPage
    | ListTripsResponse400
    | ListTripsResponse401
    | ListTripsResponse403
    | ListTripsResponse406
    | ListTripsResponse414
    | ListTripsResponse422
    | ListTripsResponse429
    | ListTripsResponse431
    | ListTripsResponse500
    | ListTripsResponse503
]:
    """List or export every rider's trips in a window (analysts).

     Every trip requested in `[from, to)`, across riders, narrowed by the optional filters, newest first:
    ordered by `requested_at` then `id`, both descending. Analysts only: riders and services get
    `403 forbidden` before any parameter is looked at. The token is checked first, then the role, then
    `Accept`, then the parameters (each rejection names its `param`), then the cursor. Each query
    parameter may appear at most once.

    The `Accept` header chooses the representation (`q` values are honoured; ties and wildcards prefer
    them in this order; no `Accept` means JSON; `application/ndjson` is accepted as an alias of
    `application/x-ndjson`); when none is acceptable the answer is `406 not_acceptable`:

    - `application/json`: one page of `limit` trips (`AnalystTripPage`), with `page.next_cursor` and
      `page.prev_cursor` and the same links in `Link`, exactly like a rider's list.
    - `application/x-ndjson`: every matching trip, streamed, one `Trip` object (with its `display`
      strings) per line, each line ended by `\\n`; an empty result is an empty body.
    - `text/csv`: every matching trip, streamed, as RFC 4180 CSV (UTF-8, records ended by CRLF, every
      text cell quoted with inner quotes doubled, numbers, ids and times unquoted) with a
      header row naming the columns `id`, `rider_id`, `status`, `product`, `city`, `time_zone`,
      `requested_at`, `started_at`, `completed_at`, `pickup_lat`, `pickup_lon`, `pickup_address`,
      `dropoff_lat`, `dropoff_lon`, `dropoff_address`, `distance_m`, `duration_s`, `fare_amount_minor`,
      `fare_currency`, `fare_total_minor`, `tips_minor`, `refunds_minor`, `version`, `recorded_at`,
      `updated_at`; a later version may add columns after these, so read cells by the header's names.
      Rows hold the stored values only, no display strings; times are RFC 3339 UTC as in JSON, and
      `completed_at` is empty for a canceled trip.

    Exports ignore `limit` (it is still checked) and hold no cursors. They are limited to a few at once
    per instance and one per analyst; one more gets `429 rate_limited` with `Retry-After`. The first
    rows are read
    before the response starts, so a refused or failing query is still a problem response; a failure
    after that ends the stream without its final chunk, which clients see as a truncated transfer.

    **Resuming.** Every NDJSON line and CSV row carries the trip's `id` and `requested_at`. To resume an
    interrupted export, repeat the same request (same filter, same `Accept`) with `resume_after` and
    `resume_requested_at` set to the `id` and `requested_at` of the last complete line or row
    received: the export continues with the next older trip, so nothing is skipped or repeated (a CSV
    starts with its header row again). An export may also start after a JSON page: send that page's
    `page.next_cursor` as `cursor` with an export `Accept`; a `prev_cursor` gets
    `400 invalid_parameter`. `resume_after` is for exports only (a JSON page with it gets
    `400 invalid_parameter`), and may not be combined with `cursor`.

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
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        resume_after (str | Unset): A positive 64-bit integer (1 to 9223372036854775807) written
            in decimal.
        resume_requested_at (datetime.datetime | Unset): An RFC 3339 timestamp with an offset (`Z`
            or `±HH:MM`), of a day that exists, seconds up to 59 (no
            leap second), at most 9 fraction digits, an instant within the years 0000 to 9999 in UTC
            (else
            `422`); stored to the microsecond.
        count (ListTripsCount | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AnalystTripPage | ListTripsResponse400 | ListTripsResponse401 | ListTripsResponse403 | ListTripsResponse406 | ListTripsResponse414 | ListTripsResponse422 | ListTripsResponse429 | ListTripsResponse431 | ListTripsResponse500 | ListTripsResponse503]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        tz=tz,
        status=status,
        city=city,
        product=product,
        rider_id=rider_id,
        limit=limit,
        cursor=cursor,
        resume_after=resume_after,
        resume_requested_at=resume_requested_at,
        count=count,
        accept_language=accept_language,
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
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    resume_after: str | Unset = UNSET,
    resume_requested_at: datetime.datetime | Unset = UNSET,
    count: ListTripsCount | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    AnalystTripPage
    | ListTripsResponse400
    | ListTripsResponse401
    | ListTripsResponse403
    | ListTripsResponse406
    | ListTripsResponse414
    | ListTripsResponse422
    | ListTripsResponse429
    | ListTripsResponse431
    | ListTripsResponse500
    | ListTripsResponse503
    | None
):
    """List or export every rider's trips in a window (analysts).

     Every trip requested in `[from, to)`, across riders, narrowed by the optional filters, newest first:
    ordered by `requested_at` then `id`, both descending. Analysts only: riders and services get
    `403 forbidden` before any parameter is looked at. The token is checked first, then the role, then
    `Accept`, then the parameters (each rejection names its `param`), then the cursor. Each query
    parameter may appear at most once.

    The `Accept` header chooses the representation (`q` values are honoured; ties and wildcards prefer
    them in this order; no `Accept` means JSON; `application/ndjson` is accepted as an alias of
    `application/x-ndjson`); when none is acceptable the answer is `406 not_acceptable`:

    - `application/json`: one page of `limit` trips (`AnalystTripPage`), with `page.next_cursor` and
      `page.prev_cursor` and the same links in `Link`, exactly like a rider's list.
    - `application/x-ndjson`: every matching trip, streamed, one `Trip` object (with its `display`
      strings) per line, each line ended by `\\n`; an empty result is an empty body.
    - `text/csv`: every matching trip, streamed, as RFC 4180 CSV (UTF-8, records ended by CRLF, every
      text cell quoted with inner quotes doubled, numbers, ids and times unquoted) with a
      header row naming the columns `id`, `rider_id`, `status`, `product`, `city`, `time_zone`,
      `requested_at`, `started_at`, `completed_at`, `pickup_lat`, `pickup_lon`, `pickup_address`,
      `dropoff_lat`, `dropoff_lon`, `dropoff_address`, `distance_m`, `duration_s`, `fare_amount_minor`,
      `fare_currency`, `fare_total_minor`, `tips_minor`, `refunds_minor`, `version`, `recorded_at`,
      `updated_at`; a later version may add columns after these, so read cells by the header's names.
      Rows hold the stored values only, no display strings; times are RFC 3339 UTC as in JSON, and
      `completed_at` is empty for a canceled trip.

    Exports ignore `limit` (it is still checked) and hold no cursors. They are limited to a few at once
    per instance and one per analyst; one more gets `429 rate_limited` with `Retry-After`. The first
    rows are read
    before the response starts, so a refused or failing query is still a problem response; a failure
    after that ends the stream without its final chunk, which clients see as a truncated transfer.

    **Resuming.** Every NDJSON line and CSV row carries the trip's `id` and `requested_at`. To resume an
    interrupted export, repeat the same request (same filter, same `Accept`) with `resume_after` and
    `resume_requested_at` set to the `id` and `requested_at` of the last complete line or row
    received: the export continues with the next older trip, so nothing is skipped or repeated (a CSV
    starts with its header row again). An export may also start after a JSON page: send that page's
    `page.next_cursor` as `cursor` with an export `Accept`; a `prev_cursor` gets
    `400 invalid_parameter`. `resume_after` is for exports only (a JSON page with it gets
    `400 invalid_parameter`), and may not be combined with `cursor`.

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
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        resume_after (str | Unset): A positive 64-bit integer (1 to 9223372036854775807) written
            in decimal.
        resume_requested_at (datetime.datetime | Unset): An RFC 3339 timestamp with an offset (`Z`
            or `±HH:MM`), of a day that exists, seconds up to 59 (no
            leap second), at most 9 fraction digits, an instant within the years 0000 to 9999 in UTC
            (else
            `422`); stored to the microsecond.
        count (ListTripsCount | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AnalystTripPage | ListTripsResponse400 | ListTripsResponse401 | ListTripsResponse403 | ListTripsResponse406 | ListTripsResponse414 | ListTripsResponse422 | ListTripsResponse429 | ListTripsResponse431 | ListTripsResponse500 | ListTripsResponse503
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
            limit=limit,
            cursor=cursor,
            resume_after=resume_after,
            resume_requested_at=resume_requested_at,
            count=count,
            accept_language=accept_language,
            x_request_id=x_request_id,
        )
    ).parsed
