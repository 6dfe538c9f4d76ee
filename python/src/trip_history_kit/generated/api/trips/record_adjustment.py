from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.new_adjustment import NewAdjustment
from ...models.record_adjustment_response_400 import RecordAdjustmentResponse400
from ...models.record_adjustment_response_401 import RecordAdjustmentResponse401
from ...models.record_adjustment_response_403 import RecordAdjustmentResponse403
from ...models.record_adjustment_response_404 import RecordAdjustmentResponse404
from ...models.record_adjustment_response_409 import RecordAdjustmentResponse409
from ...models.record_adjustment_response_412 import RecordAdjustmentResponse412
from ...models.record_adjustment_response_413 import RecordAdjustmentResponse413
from ...models.record_adjustment_response_415 import RecordAdjustmentResponse415
from ...models.record_adjustment_response_422 import RecordAdjustmentResponse422
from ...models.record_adjustment_response_429 import RecordAdjustmentResponse429
from ...models.record_adjustment_response_500 import RecordAdjustmentResponse500
from ...models.record_adjustment_response_503 import RecordAdjustmentResponse503
from ...models.trip import Trip
from ...types import UNSET, Response, Unset


def _get_kwargs(
    rider_id: str,
    trip_id: str,
    *,
    body: NewAdjustment,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    if not isinstance(accept_language, Unset):
        headers["Accept-Language"] = accept_language

    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/riders/{rider_id}/trips/{trip_id}/adjustments".format(
            rider_id=quote(str(rider_id), safe=""),
            trip_id=quote(str(trip_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    RecordAdjustmentResponse400
    | RecordAdjustmentResponse401
    | RecordAdjustmentResponse403
    | RecordAdjustmentResponse404
    | RecordAdjustmentResponse409
    | RecordAdjustmentResponse412
    | RecordAdjustmentResponse413
    | RecordAdjustmentResponse415
    | RecordAdjustmentResponse422
    | RecordAdjustmentResponse429
    | RecordAdjustmentResponse500
    | RecordAdjustmentResponse503
    | Trip
    | None
):
    if response.status_code == 201:
        response_201 = Trip.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = RecordAdjustmentResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = RecordAdjustmentResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = RecordAdjustmentResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = RecordAdjustmentResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = RecordAdjustmentResponse409.from_dict(response.json())

        return response_409

    if response.status_code == 412:
        response_412 = RecordAdjustmentResponse412.from_dict(response.json())

        return response_412

    if response.status_code == 413:
        response_413 = RecordAdjustmentResponse413.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = RecordAdjustmentResponse415.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = RecordAdjustmentResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = RecordAdjustmentResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = RecordAdjustmentResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = RecordAdjustmentResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    RecordAdjustmentResponse400
    | RecordAdjustmentResponse401
    | RecordAdjustmentResponse403
    | RecordAdjustmentResponse404
    | RecordAdjustmentResponse409
    | RecordAdjustmentResponse412
    | RecordAdjustmentResponse413
    | RecordAdjustmentResponse415
    | RecordAdjustmentResponse422
    | RecordAdjustmentResponse429
    | RecordAdjustmentResponse500
    | RecordAdjustmentResponse503
    | Trip
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    rider_id: str,
    trip_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: NewAdjustment,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    RecordAdjustmentResponse400
    | RecordAdjustmentResponse401
    | RecordAdjustmentResponse403
    | RecordAdjustmentResponse404
    | RecordAdjustmentResponse409
    | RecordAdjustmentResponse412
    | RecordAdjustmentResponse413
    | RecordAdjustmentResponse415
    | RecordAdjustmentResponse422
    | RecordAdjustmentResponse429
    | RecordAdjustmentResponse500
    | RecordAdjustmentResponse503
    | Trip
]:
    """Record a tip, refund or fare correction on a trip.

     Appends an adjustment to the trip `trip_id` of rider `rider_id` (role `service`; riders and analysts
    get `403 forbidden`) and answers the trip as it is now, in detail form, with its new `version` and
    `ETag`. Nothing is overwritten: adjustments are stored append-only, and `fare.total_minor` is
    `fare.amount_minor` plus all of them. An unknown trip, or one of another rider, gets `404
    not_found`.
    The role is checked before the body is read.

    `amount_minor` is in the minor unit of the trip's currency, never 0, at most 10^13 either way. The
    rules, each a `422 invalid_parameter` naming the member:

    - `tip`: positive (`param` `amount_minor`); only on a completed trip, and within
      `TRIP_HISTORY_TIP_WINDOW_DAYS` days (30 by default) after its `completed_at` (`param` `kind`); the
      trip's tips together at most twice `fare.amount_minor` (`param` `amount_minor`).
    - `refund`: negative, and never takes `fare.total_minor` below 0 (`param` `amount_minor`).
    - `fare_correction`: either sign; `fare.total_minor` stays between 0 and 10^13 (`param`
      `amount_minor`).
    - `reason`: 1 to 512 UTF-8 bytes without NUL (`param` `reason`).

    A string anywhere in the body holding a payment card number (13 to 19 digits, contiguous or grouped
    as
    cards print them (a first group of four, none under three, single spaces or dashes between), passing
    the Luhn check) gets `422 invalid_parameter` naming that string's
    JSON path; the number is neither stored nor logged.

    With `If-Match` (an `ETag` of this trip's detail, or of a previous `201`), the adjustment is
    recorded
    only if the tag's version is the trip's current `version`; otherwise `412 precondition_failed`: read
    the trip again and decide anew.

    With an `Idempotency-Key`, exactly as for `POST /v1/trips`: repeating the same request (same
    service,
    key and body) answers `201` with `Idempotent-Replayed: true` and the trip as it is now, storing
    nothing
    new; the same key with a different body gets `422 idempotency_key_reused`; a repeat while the first
    is
    still being processed gets `409 conflict` with `Retry-After`. A `503` means the outcome is unknown:
    repeat with the same key.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        trip_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        idempotency_key (str | Unset):
        if_match (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (NewAdjustment): An adjustment to record, in the minor unit of the trip's currency.
            Unknown members are ignored. Besides
            the constraints below, each a `422 invalid_parameter` naming the member: a `tip` only on a
            completed
            trip, within the tip window after `completed_at` (`kind`), and the trip's tips together at
            most twice
            `fare.amount_minor`; a `refund` never takes `fare.total_minor` below 0; a
            `fare_correction` keeps it
            between 0 and 10^13 (`amount_minor`). No string may hold a payment card number, as in
            `NewTrip`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[RecordAdjustmentResponse400 | RecordAdjustmentResponse401 | RecordAdjustmentResponse403 | RecordAdjustmentResponse404 | RecordAdjustmentResponse409 | RecordAdjustmentResponse412 | RecordAdjustmentResponse413 | RecordAdjustmentResponse415 | RecordAdjustmentResponse422 | RecordAdjustmentResponse429 | RecordAdjustmentResponse500 | RecordAdjustmentResponse503 | Trip]
    """

    kwargs = _get_kwargs(
        rider_id=rider_id,
        trip_id=trip_id,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
        accept_language=accept_language,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    rider_id: str,
    trip_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: NewAdjustment,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    RecordAdjustmentResponse400
    | RecordAdjustmentResponse401
    | RecordAdjustmentResponse403
    | RecordAdjustmentResponse404
    | RecordAdjustmentResponse409
    | RecordAdjustmentResponse412
    | RecordAdjustmentResponse413
    | RecordAdjustmentResponse415
    | RecordAdjustmentResponse422
    | RecordAdjustmentResponse429
    | RecordAdjustmentResponse500
    | RecordAdjustmentResponse503
    | Trip
    | None
):
    """Record a tip, refund or fare correction on a trip.

     Appends an adjustment to the trip `trip_id` of rider `rider_id` (role `service`; riders and analysts
    get `403 forbidden`) and answers the trip as it is now, in detail form, with its new `version` and
    `ETag`. Nothing is overwritten: adjustments are stored append-only, and `fare.total_minor` is
    `fare.amount_minor` plus all of them. An unknown trip, or one of another rider, gets `404
    not_found`.
    The role is checked before the body is read.

    `amount_minor` is in the minor unit of the trip's currency, never 0, at most 10^13 either way. The
    rules, each a `422 invalid_parameter` naming the member:

    - `tip`: positive (`param` `amount_minor`); only on a completed trip, and within
      `TRIP_HISTORY_TIP_WINDOW_DAYS` days (30 by default) after its `completed_at` (`param` `kind`); the
      trip's tips together at most twice `fare.amount_minor` (`param` `amount_minor`).
    - `refund`: negative, and never takes `fare.total_minor` below 0 (`param` `amount_minor`).
    - `fare_correction`: either sign; `fare.total_minor` stays between 0 and 10^13 (`param`
      `amount_minor`).
    - `reason`: 1 to 512 UTF-8 bytes without NUL (`param` `reason`).

    A string anywhere in the body holding a payment card number (13 to 19 digits, contiguous or grouped
    as
    cards print them (a first group of four, none under three, single spaces or dashes between), passing
    the Luhn check) gets `422 invalid_parameter` naming that string's
    JSON path; the number is neither stored nor logged.

    With `If-Match` (an `ETag` of this trip's detail, or of a previous `201`), the adjustment is
    recorded
    only if the tag's version is the trip's current `version`; otherwise `412 precondition_failed`: read
    the trip again and decide anew.

    With an `Idempotency-Key`, exactly as for `POST /v1/trips`: repeating the same request (same
    service,
    key and body) answers `201` with `Idempotent-Replayed: true` and the trip as it is now, storing
    nothing
    new; the same key with a different body gets `422 idempotency_key_reused`; a repeat while the first
    is
    still being processed gets `409 conflict` with `Retry-After`. A `503` means the outcome is unknown:
    repeat with the same key.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        trip_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        idempotency_key (str | Unset):
        if_match (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (NewAdjustment): An adjustment to record, in the minor unit of the trip's currency.
            Unknown members are ignored. Besides
            the constraints below, each a `422 invalid_parameter` naming the member: a `tip` only on a
            completed
            trip, within the tip window after `completed_at` (`kind`), and the trip's tips together at
            most twice
            `fare.amount_minor`; a `refund` never takes `fare.total_minor` below 0; a
            `fare_correction` keeps it
            between 0 and 10^13 (`amount_minor`). No string may hold a payment card number, as in
            `NewTrip`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        RecordAdjustmentResponse400 | RecordAdjustmentResponse401 | RecordAdjustmentResponse403 | RecordAdjustmentResponse404 | RecordAdjustmentResponse409 | RecordAdjustmentResponse412 | RecordAdjustmentResponse413 | RecordAdjustmentResponse415 | RecordAdjustmentResponse422 | RecordAdjustmentResponse429 | RecordAdjustmentResponse500 | RecordAdjustmentResponse503 | Trip
    """

    return sync_detailed(
        rider_id=rider_id,
        trip_id=trip_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
        accept_language=accept_language,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    rider_id: str,
    trip_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: NewAdjustment,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    RecordAdjustmentResponse400
    | RecordAdjustmentResponse401
    | RecordAdjustmentResponse403
    | RecordAdjustmentResponse404
    | RecordAdjustmentResponse409
    | RecordAdjustmentResponse412
    | RecordAdjustmentResponse413
    | RecordAdjustmentResponse415
    | RecordAdjustmentResponse422
    | RecordAdjustmentResponse429
    | RecordAdjustmentResponse500
    | RecordAdjustmentResponse503
    | Trip
]:
    """Record a tip, refund or fare correction on a trip.

     Appends an adjustment to the trip `trip_id` of rider `rider_id` (role `service`; riders and analysts
    get `403 forbidden`) and answers the trip as it is now, in detail form, with its new `version` and
    `ETag`. Nothing is overwritten: adjustments are stored append-only, and `fare.total_minor` is
    `fare.amount_minor` plus all of them. An unknown trip, or one of another rider, gets `404
    not_found`.
    The role is checked before the body is read.

    `amount_minor` is in the minor unit of the trip's currency, never 0, at most 10^13 either way. The
    rules, each a `422 invalid_parameter` naming the member:

    - `tip`: positive (`param` `amount_minor`); only on a completed trip, and within
      `TRIP_HISTORY_TIP_WINDOW_DAYS` days (30 by default) after its `completed_at` (`param` `kind`); the
      trip's tips together at most twice `fare.amount_minor` (`param` `amount_minor`).
    - `refund`: negative, and never takes `fare.total_minor` below 0 (`param` `amount_minor`).
    - `fare_correction`: either sign; `fare.total_minor` stays between 0 and 10^13 (`param`
      `amount_minor`).
    - `reason`: 1 to 512 UTF-8 bytes without NUL (`param` `reason`).

    A string anywhere in the body holding a payment card number (13 to 19 digits, contiguous or grouped
    as
    cards print them (a first group of four, none under three, single spaces or dashes between), passing
    the Luhn check) gets `422 invalid_parameter` naming that string's
    JSON path; the number is neither stored nor logged.

    With `If-Match` (an `ETag` of this trip's detail, or of a previous `201`), the adjustment is
    recorded
    only if the tag's version is the trip's current `version`; otherwise `412 precondition_failed`: read
    the trip again and decide anew.

    With an `Idempotency-Key`, exactly as for `POST /v1/trips`: repeating the same request (same
    service,
    key and body) answers `201` with `Idempotent-Replayed: true` and the trip as it is now, storing
    nothing
    new; the same key with a different body gets `422 idempotency_key_reused`; a repeat while the first
    is
    still being processed gets `409 conflict` with `Retry-After`. A `503` means the outcome is unknown:
    repeat with the same key.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        trip_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        idempotency_key (str | Unset):
        if_match (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (NewAdjustment): An adjustment to record, in the minor unit of the trip's currency.
            Unknown members are ignored. Besides
            the constraints below, each a `422 invalid_parameter` naming the member: a `tip` only on a
            completed
            trip, within the tip window after `completed_at` (`kind`), and the trip's tips together at
            most twice
            `fare.amount_minor`; a `refund` never takes `fare.total_minor` below 0; a
            `fare_correction` keeps it
            between 0 and 10^13 (`amount_minor`). No string may hold a payment card number, as in
            `NewTrip`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[RecordAdjustmentResponse400 | RecordAdjustmentResponse401 | RecordAdjustmentResponse403 | RecordAdjustmentResponse404 | RecordAdjustmentResponse409 | RecordAdjustmentResponse412 | RecordAdjustmentResponse413 | RecordAdjustmentResponse415 | RecordAdjustmentResponse422 | RecordAdjustmentResponse429 | RecordAdjustmentResponse500 | RecordAdjustmentResponse503 | Trip]
    """

    kwargs = _get_kwargs(
        rider_id=rider_id,
        trip_id=trip_id,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
        accept_language=accept_language,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    rider_id: str,
    trip_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: NewAdjustment,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    RecordAdjustmentResponse400
    | RecordAdjustmentResponse401
    | RecordAdjustmentResponse403
    | RecordAdjustmentResponse404
    | RecordAdjustmentResponse409
    | RecordAdjustmentResponse412
    | RecordAdjustmentResponse413
    | RecordAdjustmentResponse415
    | RecordAdjustmentResponse422
    | RecordAdjustmentResponse429
    | RecordAdjustmentResponse500
    | RecordAdjustmentResponse503
    | Trip
    | None
):
    """Record a tip, refund or fare correction on a trip.

     Appends an adjustment to the trip `trip_id` of rider `rider_id` (role `service`; riders and analysts
    get `403 forbidden`) and answers the trip as it is now, in detail form, with its new `version` and
    `ETag`. Nothing is overwritten: adjustments are stored append-only, and `fare.total_minor` is
    `fare.amount_minor` plus all of them. An unknown trip, or one of another rider, gets `404
    not_found`.
    The role is checked before the body is read.

    `amount_minor` is in the minor unit of the trip's currency, never 0, at most 10^13 either way. The
    rules, each a `422 invalid_parameter` naming the member:

    - `tip`: positive (`param` `amount_minor`); only on a completed trip, and within
      `TRIP_HISTORY_TIP_WINDOW_DAYS` days (30 by default) after its `completed_at` (`param` `kind`); the
      trip's tips together at most twice `fare.amount_minor` (`param` `amount_minor`).
    - `refund`: negative, and never takes `fare.total_minor` below 0 (`param` `amount_minor`).
    - `fare_correction`: either sign; `fare.total_minor` stays between 0 and 10^13 (`param`
      `amount_minor`).
    - `reason`: 1 to 512 UTF-8 bytes without NUL (`param` `reason`).

    A string anywhere in the body holding a payment card number (13 to 19 digits, contiguous or grouped
    as
    cards print them (a first group of four, none under three, single spaces or dashes between), passing
    the Luhn check) gets `422 invalid_parameter` naming that string's
    JSON path; the number is neither stored nor logged.

    With `If-Match` (an `ETag` of this trip's detail, or of a previous `201`), the adjustment is
    recorded
    only if the tag's version is the trip's current `version`; otherwise `412 precondition_failed`: read
    the trip again and decide anew.

    With an `Idempotency-Key`, exactly as for `POST /v1/trips`: repeating the same request (same
    service,
    key and body) answers `201` with `Idempotent-Replayed: true` and the trip as it is now, storing
    nothing
    new; the same key with a different body gets `422 idempotency_key_reused`; a repeat while the first
    is
    still being processed gets `409 conflict` with `Retry-After`. A `503` means the outcome is unknown:
    repeat with the same key.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        trip_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        idempotency_key (str | Unset):
        if_match (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (NewAdjustment): An adjustment to record, in the minor unit of the trip's currency.
            Unknown members are ignored. Besides
            the constraints below, each a `422 invalid_parameter` naming the member: a `tip` only on a
            completed
            trip, within the tip window after `completed_at` (`kind`), and the trip's tips together at
            most twice
            `fare.amount_minor`; a `refund` never takes `fare.total_minor` below 0; a
            `fare_correction` keeps it
            between 0 and 10^13 (`amount_minor`). No string may hold a payment card number, as in
            `NewTrip`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        RecordAdjustmentResponse400 | RecordAdjustmentResponse401 | RecordAdjustmentResponse403 | RecordAdjustmentResponse404 | RecordAdjustmentResponse409 | RecordAdjustmentResponse412 | RecordAdjustmentResponse413 | RecordAdjustmentResponse415 | RecordAdjustmentResponse422 | RecordAdjustmentResponse429 | RecordAdjustmentResponse500 | RecordAdjustmentResponse503 | Trip
    """

    return (
        await asyncio_detailed(
            rider_id=rider_id,
            trip_id=trip_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            if_match=if_match,
            accept_language=accept_language,
            x_request_id=x_request_id,
        )
    ).parsed
