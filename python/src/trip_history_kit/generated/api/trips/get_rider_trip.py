from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.get_rider_trip_response_400 import GetRiderTripResponse400
from ...models.get_rider_trip_response_401 import GetRiderTripResponse401
from ...models.get_rider_trip_response_403 import GetRiderTripResponse403
from ...models.get_rider_trip_response_404 import GetRiderTripResponse404
from ...models.get_rider_trip_response_429 import GetRiderTripResponse429
from ...models.get_rider_trip_response_500 import GetRiderTripResponse500
from ...models.get_rider_trip_response_503 import GetRiderTripResponse503
from ...models.trip import Trip
from ...types import UNSET, Response, Unset


def _get_kwargs(
    rider_id: str,
    trip_id: str,
    *,
    tz: str | Unset = UNSET,
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

    params["tz"] = tz

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/riders/{rider_id}/trips/{trip_id}".format(
            rider_id=quote(str(rider_id), safe=""),
            trip_id=quote(str(trip_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    Any
    | GetRiderTripResponse400
    | GetRiderTripResponse401
    | GetRiderTripResponse403
    | GetRiderTripResponse404
    | GetRiderTripResponse429
    | GetRiderTripResponse500
    | GetRiderTripResponse503
    | Trip
    | None
):
    if response.status_code == 200:
        response_200 = Trip.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = GetRiderTripResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = GetRiderTripResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = GetRiderTripResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = GetRiderTripResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = GetRiderTripResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = GetRiderTripResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = GetRiderTripResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    Any
    | GetRiderTripResponse400
    | GetRiderTripResponse401
    | GetRiderTripResponse403
    | GetRiderTripResponse404
    | GetRiderTripResponse429
    | GetRiderTripResponse500
    | GetRiderTripResponse503
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
    tz: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[
    Any
    | GetRiderTripResponse400
    | GetRiderTripResponse401
    | GetRiderTripResponse403
    | GetRiderTripResponse404
    | GetRiderTripResponse429
    | GetRiderTripResponse500
    | GetRiderTripResponse503
    | Trip
]:
    """One trip of a rider.

     The trip `trip_id` of rider `rider_id`, in detail form: besides a list row's members,
    `fare.breakdown`,
    `payment`, `driver` and `route` when they were recorded, and `adjustments` (oldest first, empty when
    none). Readable by the rider themself, by analysts and by services (which adjust trips and send the
    version back in `If-Match`). A trip that does not exist, belongs to another rider, or belongs to a
    rider
    the caller may not read gets `404 not_found`.

    The `ETag` is `"v<version>.<hash>"`: its version part is what `If-Match` on
    `POST /v1/riders/{rider_id}/trips/{trip_id}/adjustments` compares.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        trip_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        tz (str | Unset): An IANA time zone name (`format: iana-time-zone`): `UTC` or an
            `Area/Location` identifier such as
            `Europe/Paris`, at most 64 bytes, known to the server's time zone database. Abbreviations
            and bare
            offsets (`EST`, `GMT+1`) are refused as ambiguous: `400 invalid_parameter` in a query,
            `422` in a body.
        accept_language (str | Unset):
        x_request_id (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | GetRiderTripResponse400 | GetRiderTripResponse401 | GetRiderTripResponse403 | GetRiderTripResponse404 | GetRiderTripResponse429 | GetRiderTripResponse500 | GetRiderTripResponse503 | Trip]
    """

    kwargs = _get_kwargs(
        rider_id=rider_id,
        trip_id=trip_id,
        tz=tz,
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
    trip_id: str,
    *,
    client: AuthenticatedClient | Client,
    tz: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> (
    Any
    | GetRiderTripResponse400
    | GetRiderTripResponse401
    | GetRiderTripResponse403
    | GetRiderTripResponse404
    | GetRiderTripResponse429
    | GetRiderTripResponse500
    | GetRiderTripResponse503
    | Trip
    | None
):
    """One trip of a rider.

     The trip `trip_id` of rider `rider_id`, in detail form: besides a list row's members,
    `fare.breakdown`,
    `payment`, `driver` and `route` when they were recorded, and `adjustments` (oldest first, empty when
    none). Readable by the rider themself, by analysts and by services (which adjust trips and send the
    version back in `If-Match`). A trip that does not exist, belongs to another rider, or belongs to a
    rider
    the caller may not read gets `404 not_found`.

    The `ETag` is `"v<version>.<hash>"`: its version part is what `If-Match` on
    `POST /v1/riders/{rider_id}/trips/{trip_id}/adjustments` compares.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        trip_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        tz (str | Unset): An IANA time zone name (`format: iana-time-zone`): `UTC` or an
            `Area/Location` identifier such as
            `Europe/Paris`, at most 64 bytes, known to the server's time zone database. Abbreviations
            and bare
            offsets (`EST`, `GMT+1`) are refused as ambiguous: `400 invalid_parameter` in a query,
            `422` in a body.
        accept_language (str | Unset):
        x_request_id (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | GetRiderTripResponse400 | GetRiderTripResponse401 | GetRiderTripResponse403 | GetRiderTripResponse404 | GetRiderTripResponse429 | GetRiderTripResponse500 | GetRiderTripResponse503 | Trip
    """

    return sync_detailed(
        rider_id=rider_id,
        trip_id=trip_id,
        client=client,
        tz=tz,
        accept_language=accept_language,
        x_request_id=x_request_id,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    rider_id: str,
    trip_id: str,
    *,
    client: AuthenticatedClient | Client,
    tz: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[
    Any
    | GetRiderTripResponse400
    | GetRiderTripResponse401
    | GetRiderTripResponse403
    | GetRiderTripResponse404
    | GetRiderTripResponse429
    | GetRiderTripResponse500
    | GetRiderTripResponse503
    | Trip
]:
    """One trip of a rider.

     The trip `trip_id` of rider `rider_id`, in detail form: besides a list row's members,
    `fare.breakdown`,
    `payment`, `driver` and `route` when they were recorded, and `adjustments` (oldest first, empty when
    none). Readable by the rider themself, by analysts and by services (which adjust trips and send the
    version back in `If-Match`). A trip that does not exist, belongs to another rider, or belongs to a
    rider
    the caller may not read gets `404 not_found`.

    The `ETag` is `"v<version>.<hash>"`: its version part is what `If-Match` on
    `POST /v1/riders/{rider_id}/trips/{trip_id}/adjustments` compares.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        trip_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        tz (str | Unset): An IANA time zone name (`format: iana-time-zone`): `UTC` or an
            `Area/Location` identifier such as
            `Europe/Paris`, at most 64 bytes, known to the server's time zone database. Abbreviations
            and bare
            offsets (`EST`, `GMT+1`) are refused as ambiguous: `400 invalid_parameter` in a query,
            `422` in a body.
        accept_language (str | Unset):
        x_request_id (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | GetRiderTripResponse400 | GetRiderTripResponse401 | GetRiderTripResponse403 | GetRiderTripResponse404 | GetRiderTripResponse429 | GetRiderTripResponse500 | GetRiderTripResponse503 | Trip]
    """

    kwargs = _get_kwargs(
        rider_id=rider_id,
        trip_id=trip_id,
        tz=tz,
        accept_language=accept_language,
        x_request_id=x_request_id,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    rider_id: str,
    trip_id: str,
    *,
    client: AuthenticatedClient | Client,
    tz: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> (
    Any
    | GetRiderTripResponse400
    | GetRiderTripResponse401
    | GetRiderTripResponse403
    | GetRiderTripResponse404
    | GetRiderTripResponse429
    | GetRiderTripResponse500
    | GetRiderTripResponse503
    | Trip
    | None
):
    """One trip of a rider.

     The trip `trip_id` of rider `rider_id`, in detail form: besides a list row's members,
    `fare.breakdown`,
    `payment`, `driver` and `route` when they were recorded, and `adjustments` (oldest first, empty when
    none). Readable by the rider themself, by analysts and by services (which adjust trips and send the
    version back in `If-Match`). A trip that does not exist, belongs to another rider, or belongs to a
    rider
    the caller may not read gets `404 not_found`.

    The `ETag` is `"v<version>.<hash>"`: its version part is what `If-Match` on
    `POST /v1/riders/{rider_id}/trips/{trip_id}/adjustments` compares.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        trip_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        tz (str | Unset): An IANA time zone name (`format: iana-time-zone`): `UTC` or an
            `Area/Location` identifier such as
            `Europe/Paris`, at most 64 bytes, known to the server's time zone database. Abbreviations
            and bare
            offsets (`EST`, `GMT+1`) are refused as ambiguous: `400 invalid_parameter` in a query,
            `422` in a body.
        accept_language (str | Unset):
        x_request_id (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | GetRiderTripResponse400 | GetRiderTripResponse401 | GetRiderTripResponse403 | GetRiderTripResponse404 | GetRiderTripResponse429 | GetRiderTripResponse500 | GetRiderTripResponse503 | Trip
    """

    return (
        await asyncio_detailed(
            rider_id=rider_id,
            trip_id=trip_id,
            client=client,
            tz=tz,
            accept_language=accept_language,
            x_request_id=x_request_id,
            if_none_match=if_none_match,
        )
    ).parsed
