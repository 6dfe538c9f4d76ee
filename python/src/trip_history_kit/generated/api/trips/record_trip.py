from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.new_trip import NewTrip
from ...models.record_trip_response_400 import RecordTripResponse400
from ...models.record_trip_response_401 import RecordTripResponse401
from ...models.record_trip_response_403 import RecordTripResponse403
from ...models.record_trip_response_409 import RecordTripResponse409
from ...models.record_trip_response_413 import RecordTripResponse413
from ...models.record_trip_response_415 import RecordTripResponse415
from ...models.record_trip_response_422 import RecordTripResponse422
from ...models.record_trip_response_429 import RecordTripResponse429
from ...models.record_trip_response_500 import RecordTripResponse500
from ...models.record_trip_response_503 import RecordTripResponse503
from ...models.trip import Trip
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: NewTrip,
    idempotency_key: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(accept_language, Unset):
        headers["Accept-Language"] = accept_language

    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/trips",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    RecordTripResponse400
    | RecordTripResponse401
    | RecordTripResponse403
    | RecordTripResponse409
    | RecordTripResponse413
    | RecordTripResponse415
    | RecordTripResponse422
    | RecordTripResponse429
    | RecordTripResponse500
    | RecordTripResponse503
    | Trip
    | None
):
    if response.status_code == 201:
        response_201 = Trip.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = RecordTripResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = RecordTripResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = RecordTripResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = RecordTripResponse409.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = RecordTripResponse413.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = RecordTripResponse415.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = RecordTripResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = RecordTripResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = RecordTripResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = RecordTripResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    RecordTripResponse400
    | RecordTripResponse401
    | RecordTripResponse403
    | RecordTripResponse409
    | RecordTripResponse413
    | RecordTripResponse415
    | RecordTripResponse422
    | RecordTripResponse429
    | RecordTripResponse500
    | RecordTripResponse503
    | Trip
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
    body: NewTrip,
    idempotency_key: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    RecordTripResponse400
    | RecordTripResponse401
    | RecordTripResponse403
    | RecordTripResponse409
    | RecordTripResponse413
    | RecordTripResponse415
    | RecordTripResponse422
    | RecordTripResponse429
    | RecordTripResponse500
    | RecordTripResponse503
    | Trip
]:
    """Record a finished trip.

     Stores a finished trip reported by a backend service (role `service`). The trip is in the rider's
    list as soon as this answers. The role is checked before the body is read.

    Shapes and types are checked first: a body that is not a JSON object, or a missing, null or
    mistyped member, gets `400 invalid_parameter` naming the member by its JSON path
    (`pickup.lat`). The rules are checked next: a value that breaks one gets
    `422 invalid_parameter` naming the first offending member. Where the service keeps trips for a
    limited time (`TRIP_HISTORY_RETENTION_MONTHS`), a trip requested before the oldest month kept gets
    `422 invalid_parameter` naming `requested_at`.

    The receipt members are optional: `fare.breakdown` (line items that sum exactly to
    `fare.amount_minor`, else `422` with `param` `fare.breakdown`), `payment`, `driver` and `route` (an
    encoded polyline; a broken one gets `422` with `param` `route.polyline`). A string anywhere in the
    body
    holding a payment card number (13 to 19 digits, contiguous or grouped as cards print them (a first
    group of four, none under three, single spaces or dashes between),
    passing the Luhn check) gets `422 invalid_parameter` naming that string's JSON path
    (`driver.first_name`); the number is neither stored nor logged.

    The answer is the trip in detail form with its `ETag`, which `If-Match` on
    `POST /v1/riders/{rider_id}/trips/{trip_id}/adjustments` accepts.

    With an `Idempotency-Key`, repeating the same request (same service, key and body) returns the
    first result again with `Idempotent-Replayed: true`; the same key with a different body gets
    `422 idempotency_key_reused`; a repeat while the first is still being processed gets
    `409 conflict` with `Retry-After`. Keys are scoped to the calling service.

    Args:
        idempotency_key (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (NewTrip): A finished trip to record. Unknown members are ignored. Besides the
            constraints below:
            `started_at` must not be before `requested_at`, `completed_at` not before `started_at`;
            `time_zone`
            must be an IANA zone; free text is 1 to 512 UTF-8 bytes (not characters) without NUL, or
            the shorter
            bound a member states; `fare.currency` must be an active ISO 4217 code. The receipt
            members
            (`fare.breakdown`, `payment`, `driver`, `route`) are optional. No string anywhere in the
            body may hold
            a payment card number (13 to 19 digits, contiguous or grouped as cards print them (a first
            group of four, none under three, single spaces or dashes between), passing the
            Luhn check): `422` naming the string's JSON path, and the number is neither stored nor
            logged.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[RecordTripResponse400 | RecordTripResponse401 | RecordTripResponse403 | RecordTripResponse409 | RecordTripResponse413 | RecordTripResponse415 | RecordTripResponse422 | RecordTripResponse429 | RecordTripResponse500 | RecordTripResponse503 | Trip]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
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
    body: NewTrip,
    idempotency_key: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    RecordTripResponse400
    | RecordTripResponse401
    | RecordTripResponse403
    | RecordTripResponse409
    | RecordTripResponse413
    | RecordTripResponse415
    | RecordTripResponse422
    | RecordTripResponse429
    | RecordTripResponse500
    | RecordTripResponse503
    | Trip
    | None
):
    """Record a finished trip.

     Stores a finished trip reported by a backend service (role `service`). The trip is in the rider's
    list as soon as this answers. The role is checked before the body is read.

    Shapes and types are checked first: a body that is not a JSON object, or a missing, null or
    mistyped member, gets `400 invalid_parameter` naming the member by its JSON path
    (`pickup.lat`). The rules are checked next: a value that breaks one gets
    `422 invalid_parameter` naming the first offending member. Where the service keeps trips for a
    limited time (`TRIP_HISTORY_RETENTION_MONTHS`), a trip requested before the oldest month kept gets
    `422 invalid_parameter` naming `requested_at`.

    The receipt members are optional: `fare.breakdown` (line items that sum exactly to
    `fare.amount_minor`, else `422` with `param` `fare.breakdown`), `payment`, `driver` and `route` (an
    encoded polyline; a broken one gets `422` with `param` `route.polyline`). A string anywhere in the
    body
    holding a payment card number (13 to 19 digits, contiguous or grouped as cards print them (a first
    group of four, none under three, single spaces or dashes between),
    passing the Luhn check) gets `422 invalid_parameter` naming that string's JSON path
    (`driver.first_name`); the number is neither stored nor logged.

    The answer is the trip in detail form with its `ETag`, which `If-Match` on
    `POST /v1/riders/{rider_id}/trips/{trip_id}/adjustments` accepts.

    With an `Idempotency-Key`, repeating the same request (same service, key and body) returns the
    first result again with `Idempotent-Replayed: true`; the same key with a different body gets
    `422 idempotency_key_reused`; a repeat while the first is still being processed gets
    `409 conflict` with `Retry-After`. Keys are scoped to the calling service.

    Args:
        idempotency_key (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (NewTrip): A finished trip to record. Unknown members are ignored. Besides the
            constraints below:
            `started_at` must not be before `requested_at`, `completed_at` not before `started_at`;
            `time_zone`
            must be an IANA zone; free text is 1 to 512 UTF-8 bytes (not characters) without NUL, or
            the shorter
            bound a member states; `fare.currency` must be an active ISO 4217 code. The receipt
            members
            (`fare.breakdown`, `payment`, `driver`, `route`) are optional. No string anywhere in the
            body may hold
            a payment card number (13 to 19 digits, contiguous or grouped as cards print them (a first
            group of four, none under three, single spaces or dashes between), passing the
            Luhn check): `422` naming the string's JSON path, and the number is neither stored nor
            logged.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        RecordTripResponse400 | RecordTripResponse401 | RecordTripResponse403 | RecordTripResponse409 | RecordTripResponse413 | RecordTripResponse415 | RecordTripResponse422 | RecordTripResponse429 | RecordTripResponse500 | RecordTripResponse503 | Trip
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        accept_language=accept_language,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: NewTrip,
    idempotency_key: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    RecordTripResponse400
    | RecordTripResponse401
    | RecordTripResponse403
    | RecordTripResponse409
    | RecordTripResponse413
    | RecordTripResponse415
    | RecordTripResponse422
    | RecordTripResponse429
    | RecordTripResponse500
    | RecordTripResponse503
    | Trip
]:
    """Record a finished trip.

     Stores a finished trip reported by a backend service (role `service`). The trip is in the rider's
    list as soon as this answers. The role is checked before the body is read.

    Shapes and types are checked first: a body that is not a JSON object, or a missing, null or
    mistyped member, gets `400 invalid_parameter` naming the member by its JSON path
    (`pickup.lat`). The rules are checked next: a value that breaks one gets
    `422 invalid_parameter` naming the first offending member. Where the service keeps trips for a
    limited time (`TRIP_HISTORY_RETENTION_MONTHS`), a trip requested before the oldest month kept gets
    `422 invalid_parameter` naming `requested_at`.

    The receipt members are optional: `fare.breakdown` (line items that sum exactly to
    `fare.amount_minor`, else `422` with `param` `fare.breakdown`), `payment`, `driver` and `route` (an
    encoded polyline; a broken one gets `422` with `param` `route.polyline`). A string anywhere in the
    body
    holding a payment card number (13 to 19 digits, contiguous or grouped as cards print them (a first
    group of four, none under three, single spaces or dashes between),
    passing the Luhn check) gets `422 invalid_parameter` naming that string's JSON path
    (`driver.first_name`); the number is neither stored nor logged.

    The answer is the trip in detail form with its `ETag`, which `If-Match` on
    `POST /v1/riders/{rider_id}/trips/{trip_id}/adjustments` accepts.

    With an `Idempotency-Key`, repeating the same request (same service, key and body) returns the
    first result again with `Idempotent-Replayed: true`; the same key with a different body gets
    `422 idempotency_key_reused`; a repeat while the first is still being processed gets
    `409 conflict` with `Retry-After`. Keys are scoped to the calling service.

    Args:
        idempotency_key (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (NewTrip): A finished trip to record. Unknown members are ignored. Besides the
            constraints below:
            `started_at` must not be before `requested_at`, `completed_at` not before `started_at`;
            `time_zone`
            must be an IANA zone; free text is 1 to 512 UTF-8 bytes (not characters) without NUL, or
            the shorter
            bound a member states; `fare.currency` must be an active ISO 4217 code. The receipt
            members
            (`fare.breakdown`, `payment`, `driver`, `route`) are optional. No string anywhere in the
            body may hold
            a payment card number (13 to 19 digits, contiguous or grouped as cards print them (a first
            group of four, none under three, single spaces or dashes between), passing the
            Luhn check): `422` naming the string's JSON path, and the number is neither stored nor
            logged.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[RecordTripResponse400 | RecordTripResponse401 | RecordTripResponse403 | RecordTripResponse409 | RecordTripResponse413 | RecordTripResponse415 | RecordTripResponse422 | RecordTripResponse429 | RecordTripResponse500 | RecordTripResponse503 | Trip]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
        accept_language=accept_language,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: NewTrip,
    idempotency_key: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    RecordTripResponse400
    | RecordTripResponse401
    | RecordTripResponse403
    | RecordTripResponse409
    | RecordTripResponse413
    | RecordTripResponse415
    | RecordTripResponse422
    | RecordTripResponse429
    | RecordTripResponse500
    | RecordTripResponse503
    | Trip
    | None
):
    """Record a finished trip.

     Stores a finished trip reported by a backend service (role `service`). The trip is in the rider's
    list as soon as this answers. The role is checked before the body is read.

    Shapes and types are checked first: a body that is not a JSON object, or a missing, null or
    mistyped member, gets `400 invalid_parameter` naming the member by its JSON path
    (`pickup.lat`). The rules are checked next: a value that breaks one gets
    `422 invalid_parameter` naming the first offending member. Where the service keeps trips for a
    limited time (`TRIP_HISTORY_RETENTION_MONTHS`), a trip requested before the oldest month kept gets
    `422 invalid_parameter` naming `requested_at`.

    The receipt members are optional: `fare.breakdown` (line items that sum exactly to
    `fare.amount_minor`, else `422` with `param` `fare.breakdown`), `payment`, `driver` and `route` (an
    encoded polyline; a broken one gets `422` with `param` `route.polyline`). A string anywhere in the
    body
    holding a payment card number (13 to 19 digits, contiguous or grouped as cards print them (a first
    group of four, none under three, single spaces or dashes between),
    passing the Luhn check) gets `422 invalid_parameter` naming that string's JSON path
    (`driver.first_name`); the number is neither stored nor logged.

    The answer is the trip in detail form with its `ETag`, which `If-Match` on
    `POST /v1/riders/{rider_id}/trips/{trip_id}/adjustments` accepts.

    With an `Idempotency-Key`, repeating the same request (same service, key and body) returns the
    first result again with `Idempotent-Replayed: true`; the same key with a different body gets
    `422 idempotency_key_reused`; a repeat while the first is still being processed gets
    `409 conflict` with `Retry-After`. Keys are scoped to the calling service.

    Args:
        idempotency_key (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (NewTrip): A finished trip to record. Unknown members are ignored. Besides the
            constraints below:
            `started_at` must not be before `requested_at`, `completed_at` not before `started_at`;
            `time_zone`
            must be an IANA zone; free text is 1 to 512 UTF-8 bytes (not characters) without NUL, or
            the shorter
            bound a member states; `fare.currency` must be an active ISO 4217 code. The receipt
            members
            (`fare.breakdown`, `payment`, `driver`, `route`) are optional. No string anywhere in the
            body may hold
            a payment card number (13 to 19 digits, contiguous or grouped as cards print them (a first
            group of four, none under three, single spaces or dashes between), passing the
            Luhn check): `422` naming the string's JSON path, and the number is neither stored nor
            logged.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        RecordTripResponse400 | RecordTripResponse401 | RecordTripResponse403 | RecordTripResponse409 | RecordTripResponse413 | RecordTripResponse415 | RecordTripResponse422 | RecordTripResponse429 | RecordTripResponse500 | RecordTripResponse503 | Trip
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            accept_language=accept_language,
            x_request_id=x_request_id,
        )
    ).parsed
