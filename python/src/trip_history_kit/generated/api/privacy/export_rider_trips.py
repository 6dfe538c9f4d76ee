from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.export_rider_trips_format import ExportRiderTripsFormat
from ...models.export_rider_trips_response_400 import ExportRiderTripsResponse400
from ...models.export_rider_trips_response_401 import ExportRiderTripsResponse401
from ...models.export_rider_trips_response_403 import ExportRiderTripsResponse403
from ...models.export_rider_trips_response_404 import ExportRiderTripsResponse404
from ...models.export_rider_trips_response_429 import ExportRiderTripsResponse429
from ...models.export_rider_trips_response_500 import ExportRiderTripsResponse500
from ...models.export_rider_trips_response_503 import ExportRiderTripsResponse503
from ...types import UNSET, Response, Unset


def _get_kwargs(
    rider_id: str,
    *,
    format_: ExportRiderTripsFormat,
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

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/riders/{rider_id}/trips/export".format(
            rider_id=quote(str(rider_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    ExportRiderTripsResponse400
    | ExportRiderTripsResponse401
    | ExportRiderTripsResponse403
    | ExportRiderTripsResponse404
    | ExportRiderTripsResponse429
    | ExportRiderTripsResponse500
    | ExportRiderTripsResponse503
    | str
    | None
):
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = ExportRiderTripsResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ExportRiderTripsResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ExportRiderTripsResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ExportRiderTripsResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = ExportRiderTripsResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = ExportRiderTripsResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ExportRiderTripsResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    ExportRiderTripsResponse400
    | ExportRiderTripsResponse401
    | ExportRiderTripsResponse403
    | ExportRiderTripsResponse404
    | ExportRiderTripsResponse429
    | ExportRiderTripsResponse500
    | ExportRiderTripsResponse503
    | str
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
    format_: ExportRiderTripsFormat,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    ExportRiderTripsResponse400
    | ExportRiderTripsResponse401
    | ExportRiderTripsResponse403
    | ExportRiderTripsResponse404
    | ExportRiderTripsResponse429
    | ExportRiderTripsResponse500
    | ExportRiderTripsResponse503
    | str
]:
    """Every trip of a rider, with receipts and adjustments, as CSV or NDJSON (GDPR Article 20).

     Streams every trip of rider `rider_id`, newest first, each with its fare breakdown, payment, driver
    and vehicle, route and adjustments: the rider's own copy of their data. A rider may export only
    their own trips (another rider's gets `404 not_found`); analysts may export any rider's; services
    and the privacy role get `403 forbidden`.

    A rider's own exports take slots of their own: at most `TRIP_HISTORY_RIDER_MAX_EXPORTS` stream at
    once, one per rider; an analyst's takes one of the analysts' export slots (`429 rate_limited` with
    `Retry-After` either way). The first batch is read before the response starts; a failure after that,
    or an export still streaming after `TRIP_HISTORY_EXPORT_TIME_LIMIT_SECONDS`, ends the transfer
    early,
    which clients see as a truncated body: ask again.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        format_ (ExportRiderTripsFormat):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ExportRiderTripsResponse400 | ExportRiderTripsResponse401 | ExportRiderTripsResponse403 | ExportRiderTripsResponse404 | ExportRiderTripsResponse429 | ExportRiderTripsResponse500 | ExportRiderTripsResponse503 | str]
    """

    kwargs = _get_kwargs(
        rider_id=rider_id,
        format_=format_,
        accept_language=accept_language,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    rider_id: str,
    *,
    client: AuthenticatedClient | Client,
    format_: ExportRiderTripsFormat,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    ExportRiderTripsResponse400
    | ExportRiderTripsResponse401
    | ExportRiderTripsResponse403
    | ExportRiderTripsResponse404
    | ExportRiderTripsResponse429
    | ExportRiderTripsResponse500
    | ExportRiderTripsResponse503
    | str
    | None
):
    """Every trip of a rider, with receipts and adjustments, as CSV or NDJSON (GDPR Article 20).

     Streams every trip of rider `rider_id`, newest first, each with its fare breakdown, payment, driver
    and vehicle, route and adjustments: the rider's own copy of their data. A rider may export only
    their own trips (another rider's gets `404 not_found`); analysts may export any rider's; services
    and the privacy role get `403 forbidden`.

    A rider's own exports take slots of their own: at most `TRIP_HISTORY_RIDER_MAX_EXPORTS` stream at
    once, one per rider; an analyst's takes one of the analysts' export slots (`429 rate_limited` with
    `Retry-After` either way). The first batch is read before the response starts; a failure after that,
    or an export still streaming after `TRIP_HISTORY_EXPORT_TIME_LIMIT_SECONDS`, ends the transfer
    early,
    which clients see as a truncated body: ask again.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        format_ (ExportRiderTripsFormat):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ExportRiderTripsResponse400 | ExportRiderTripsResponse401 | ExportRiderTripsResponse403 | ExportRiderTripsResponse404 | ExportRiderTripsResponse429 | ExportRiderTripsResponse500 | ExportRiderTripsResponse503 | str
    """

    return sync_detailed(
        rider_id=rider_id,
        client=client,
        format_=format_,
        accept_language=accept_language,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    rider_id: str,
    *,
    client: AuthenticatedClient | Client,
    format_: ExportRiderTripsFormat,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[
    ExportRiderTripsResponse400
    | ExportRiderTripsResponse401
    | ExportRiderTripsResponse403
    | ExportRiderTripsResponse404
    | ExportRiderTripsResponse429
    | ExportRiderTripsResponse500
    | ExportRiderTripsResponse503
    | str
]:
    """Every trip of a rider, with receipts and adjustments, as CSV or NDJSON (GDPR Article 20).

     Streams every trip of rider `rider_id`, newest first, each with its fare breakdown, payment, driver
    and vehicle, route and adjustments: the rider's own copy of their data. A rider may export only
    their own trips (another rider's gets `404 not_found`); analysts may export any rider's; services
    and the privacy role get `403 forbidden`.

    A rider's own exports take slots of their own: at most `TRIP_HISTORY_RIDER_MAX_EXPORTS` stream at
    once, one per rider; an analyst's takes one of the analysts' export slots (`429 rate_limited` with
    `Retry-After` either way). The first batch is read before the response starts; a failure after that,
    or an export still streaming after `TRIP_HISTORY_EXPORT_TIME_LIMIT_SECONDS`, ends the transfer
    early,
    which clients see as a truncated body: ask again.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        format_ (ExportRiderTripsFormat):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ExportRiderTripsResponse400 | ExportRiderTripsResponse401 | ExportRiderTripsResponse403 | ExportRiderTripsResponse404 | ExportRiderTripsResponse429 | ExportRiderTripsResponse500 | ExportRiderTripsResponse503 | str]
    """

    kwargs = _get_kwargs(
        rider_id=rider_id,
        format_=format_,
        accept_language=accept_language,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    rider_id: str,
    *,
    client: AuthenticatedClient | Client,
    format_: ExportRiderTripsFormat,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> (
    ExportRiderTripsResponse400
    | ExportRiderTripsResponse401
    | ExportRiderTripsResponse403
    | ExportRiderTripsResponse404
    | ExportRiderTripsResponse429
    | ExportRiderTripsResponse500
    | ExportRiderTripsResponse503
    | str
    | None
):
    """Every trip of a rider, with receipts and adjustments, as CSV or NDJSON (GDPR Article 20).

     Streams every trip of rider `rider_id`, newest first, each with its fare breakdown, payment, driver
    and vehicle, route and adjustments: the rider's own copy of their data. A rider may export only
    their own trips (another rider's gets `404 not_found`); analysts may export any rider's; services
    and the privacy role get `403 forbidden`.

    A rider's own exports take slots of their own: at most `TRIP_HISTORY_RIDER_MAX_EXPORTS` stream at
    once, one per rider; an analyst's takes one of the analysts' export slots (`429 rate_limited` with
    `Retry-After` either way). The first batch is read before the response starts; a failure after that,
    or an export still streaming after `TRIP_HISTORY_EXPORT_TIME_LIMIT_SECONDS`, ends the transfer
    early,
    which clients see as a truncated body: ask again.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        format_ (ExportRiderTripsFormat):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ExportRiderTripsResponse400 | ExportRiderTripsResponse401 | ExportRiderTripsResponse403 | ExportRiderTripsResponse404 | ExportRiderTripsResponse429 | ExportRiderTripsResponse500 | ExportRiderTripsResponse503 | str
    """

    return (
        await asyncio_detailed(
            rider_id=rider_id,
            client=client,
            format_=format_,
            accept_language=accept_language,
            x_request_id=x_request_id,
        )
    ).parsed
