from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.get_trip_receipt_response_400 import GetTripReceiptResponse400
from ...models.get_trip_receipt_response_401 import GetTripReceiptResponse401
from ...models.get_trip_receipt_response_403 import GetTripReceiptResponse403
from ...models.get_trip_receipt_response_404 import GetTripReceiptResponse404
from ...models.get_trip_receipt_response_406 import GetTripReceiptResponse406
from ...models.get_trip_receipt_response_429 import GetTripReceiptResponse429
from ...models.get_trip_receipt_response_500 import GetTripReceiptResponse500
from ...models.get_trip_receipt_response_503 import GetTripReceiptResponse503
from ...models.receipt import Receipt
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
        "url": "/v1/riders/{rider_id}/trips/{trip_id}/receipt".format(
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
    | GetTripReceiptResponse400
    | GetTripReceiptResponse401
    | GetTripReceiptResponse403
    | GetTripReceiptResponse404
    | GetTripReceiptResponse406
    | GetTripReceiptResponse429
    | GetTripReceiptResponse500
    | GetTripReceiptResponse503
    | Receipt
    | None
):
    if response.status_code == 200:
        response_200 = Receipt.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = GetTripReceiptResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = GetTripReceiptResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = GetTripReceiptResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = GetTripReceiptResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 406:
        response_406 = GetTripReceiptResponse406.from_dict(response.json())

        return response_406

    if response.status_code == 429:
        response_429 = GetTripReceiptResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = GetTripReceiptResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = GetTripReceiptResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    Any
    | GetTripReceiptResponse400
    | GetTripReceiptResponse401
    | GetTripReceiptResponse403
    | GetTripReceiptResponse404
    | GetTripReceiptResponse406
    | GetTripReceiptResponse429
    | GetTripReceiptResponse500
    | GetTripReceiptResponse503
    | Receipt
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
    | GetTripReceiptResponse400
    | GetTripReceiptResponse401
    | GetTripReceiptResponse403
    | GetTripReceiptResponse404
    | GetTripReceiptResponse406
    | GetTripReceiptResponse429
    | GetTripReceiptResponse500
    | GetTripReceiptResponse503
    | Receipt
]:
    """The receipt of one trip, as JSON or a printable page.

     The receipt of the trip `trip_id` of rider `rider_id`, with every label and amount written in the
    language negotiated from `Accept-Language`, as `display` is: the fare's lines (its breakdown as
    recorded, or one line of kind `fare` for the whole fare when none was), the fare, the sums of its
    tips,
    refunds and fare corrections (each only when not zero), the total the rider paid, the payment when
    recorded, and a summary of the ride. Access is the detail's: the rider themself, analysts and
    services; a
    trip that does not exist, belongs to another rider, or belongs to a rider the caller may not read
    gets
    `404 not_found`; a privacy token gets `403 forbidden`.

    The token is checked first, then the path and `tz`, then access, then `Accept`, which chooses the
    representation (`q` values are honoured; ties and wildcards prefer them in this order; no `Accept`
    means JSON); when none is acceptable the answer is `406 not_acceptable`:

    - `application/json`: a `Receipt`.
    - `text/html`: a printable page (UTF-8) holding the same receipt, self-contained: no script, and its
      one style sheet inline, with a print style. Its `Content-Security-Policy` lets it load nothing and
      allows that style sheet alone, by its hash; every recorded text is HTML-escaped.

    Both are cached and revalidated like the detail: `ETag`, and `304` on a matching `If-None-Match`; a
    tag names one representation in one language. Any change to the rider's trips (a new trip, an
    adjustment) makes a new receipt, with a new tag.

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
        Response[Any | GetTripReceiptResponse400 | GetTripReceiptResponse401 | GetTripReceiptResponse403 | GetTripReceiptResponse404 | GetTripReceiptResponse406 | GetTripReceiptResponse429 | GetTripReceiptResponse500 | GetTripReceiptResponse503 | Receipt]
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
    | GetTripReceiptResponse400
    | GetTripReceiptResponse401
    | GetTripReceiptResponse403
    | GetTripReceiptResponse404
    | GetTripReceiptResponse406
    | GetTripReceiptResponse429
    | GetTripReceiptResponse500
    | GetTripReceiptResponse503
    | Receipt
    | None
):
    """The receipt of one trip, as JSON or a printable page.

     The receipt of the trip `trip_id` of rider `rider_id`, with every label and amount written in the
    language negotiated from `Accept-Language`, as `display` is: the fare's lines (its breakdown as
    recorded, or one line of kind `fare` for the whole fare when none was), the fare, the sums of its
    tips,
    refunds and fare corrections (each only when not zero), the total the rider paid, the payment when
    recorded, and a summary of the ride. Access is the detail's: the rider themself, analysts and
    services; a
    trip that does not exist, belongs to another rider, or belongs to a rider the caller may not read
    gets
    `404 not_found`; a privacy token gets `403 forbidden`.

    The token is checked first, then the path and `tz`, then access, then `Accept`, which chooses the
    representation (`q` values are honoured; ties and wildcards prefer them in this order; no `Accept`
    means JSON); when none is acceptable the answer is `406 not_acceptable`:

    - `application/json`: a `Receipt`.
    - `text/html`: a printable page (UTF-8) holding the same receipt, self-contained: no script, and its
      one style sheet inline, with a print style. Its `Content-Security-Policy` lets it load nothing and
      allows that style sheet alone, by its hash; every recorded text is HTML-escaped.

    Both are cached and revalidated like the detail: `ETag`, and `304` on a matching `If-None-Match`; a
    tag names one representation in one language. Any change to the rider's trips (a new trip, an
    adjustment) makes a new receipt, with a new tag.

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
        Any | GetTripReceiptResponse400 | GetTripReceiptResponse401 | GetTripReceiptResponse403 | GetTripReceiptResponse404 | GetTripReceiptResponse406 | GetTripReceiptResponse429 | GetTripReceiptResponse500 | GetTripReceiptResponse503 | Receipt
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
    | GetTripReceiptResponse400
    | GetTripReceiptResponse401
    | GetTripReceiptResponse403
    | GetTripReceiptResponse404
    | GetTripReceiptResponse406
    | GetTripReceiptResponse429
    | GetTripReceiptResponse500
    | GetTripReceiptResponse503
    | Receipt
]:
    """The receipt of one trip, as JSON or a printable page.

     The receipt of the trip `trip_id` of rider `rider_id`, with every label and amount written in the
    language negotiated from `Accept-Language`, as `display` is: the fare's lines (its breakdown as
    recorded, or one line of kind `fare` for the whole fare when none was), the fare, the sums of its
    tips,
    refunds and fare corrections (each only when not zero), the total the rider paid, the payment when
    recorded, and a summary of the ride. Access is the detail's: the rider themself, analysts and
    services; a
    trip that does not exist, belongs to another rider, or belongs to a rider the caller may not read
    gets
    `404 not_found`; a privacy token gets `403 forbidden`.

    The token is checked first, then the path and `tz`, then access, then `Accept`, which chooses the
    representation (`q` values are honoured; ties and wildcards prefer them in this order; no `Accept`
    means JSON); when none is acceptable the answer is `406 not_acceptable`:

    - `application/json`: a `Receipt`.
    - `text/html`: a printable page (UTF-8) holding the same receipt, self-contained: no script, and its
      one style sheet inline, with a print style. Its `Content-Security-Policy` lets it load nothing and
      allows that style sheet alone, by its hash; every recorded text is HTML-escaped.

    Both are cached and revalidated like the detail: `ETag`, and `304` on a matching `If-None-Match`; a
    tag names one representation in one language. Any change to the rider's trips (a new trip, an
    adjustment) makes a new receipt, with a new tag.

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
        Response[Any | GetTripReceiptResponse400 | GetTripReceiptResponse401 | GetTripReceiptResponse403 | GetTripReceiptResponse404 | GetTripReceiptResponse406 | GetTripReceiptResponse429 | GetTripReceiptResponse500 | GetTripReceiptResponse503 | Receipt]
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
    | GetTripReceiptResponse400
    | GetTripReceiptResponse401
    | GetTripReceiptResponse403
    | GetTripReceiptResponse404
    | GetTripReceiptResponse406
    | GetTripReceiptResponse429
    | GetTripReceiptResponse500
    | GetTripReceiptResponse503
    | Receipt
    | None
):
    """The receipt of one trip, as JSON or a printable page.

     The receipt of the trip `trip_id` of rider `rider_id`, with every label and amount written in the
    language negotiated from `Accept-Language`, as `display` is: the fare's lines (its breakdown as
    recorded, or one line of kind `fare` for the whole fare when none was), the fare, the sums of its
    tips,
    refunds and fare corrections (each only when not zero), the total the rider paid, the payment when
    recorded, and a summary of the ride. Access is the detail's: the rider themself, analysts and
    services; a
    trip that does not exist, belongs to another rider, or belongs to a rider the caller may not read
    gets
    `404 not_found`; a privacy token gets `403 forbidden`.

    The token is checked first, then the path and `tz`, then access, then `Accept`, which chooses the
    representation (`q` values are honoured; ties and wildcards prefer them in this order; no `Accept`
    means JSON); when none is acceptable the answer is `406 not_acceptable`:

    - `application/json`: a `Receipt`.
    - `text/html`: a printable page (UTF-8) holding the same receipt, self-contained: no script, and its
      one style sheet inline, with a print style. Its `Content-Security-Policy` lets it load nothing and
      allows that style sheet alone, by its hash; every recorded text is HTML-escaped.

    Both are cached and revalidated like the detail: `ETag`, and `304` on a matching `If-None-Match`; a
    tag names one representation in one language. Any change to the rider's trips (a new trip, an
    adjustment) makes a new receipt, with a new tag.

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
        Any | GetTripReceiptResponse400 | GetTripReceiptResponse401 | GetTripReceiptResponse403 | GetTripReceiptResponse404 | GetTripReceiptResponse406 | GetTripReceiptResponse429 | GetTripReceiptResponse500 | GetTripReceiptResponse503 | Receipt
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
