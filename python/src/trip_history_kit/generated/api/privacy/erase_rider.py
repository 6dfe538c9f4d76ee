from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.erase_rider_response_400 import EraseRiderResponse400
from ...models.erase_rider_response_401 import EraseRiderResponse401
from ...models.erase_rider_response_403 import EraseRiderResponse403
from ...models.erase_rider_response_429 import EraseRiderResponse429
from ...models.erase_rider_response_500 import EraseRiderResponse500
from ...models.erase_rider_response_503 import EraseRiderResponse503
from ...types import UNSET, Response, Unset


def _get_kwargs(
    rider_id: str,
    *,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/riders/{rider_id}".format(
            rider_id=quote(str(rider_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    Any
    | EraseRiderResponse400
    | EraseRiderResponse401
    | EraseRiderResponse403
    | EraseRiderResponse429
    | EraseRiderResponse500
    | EraseRiderResponse503
    | None
):
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = EraseRiderResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = EraseRiderResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = EraseRiderResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 429:
        response_429 = EraseRiderResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = EraseRiderResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = EraseRiderResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    Any
    | EraseRiderResponse400
    | EraseRiderResponse401
    | EraseRiderResponse403
    | EraseRiderResponse429
    | EraseRiderResponse500
    | EraseRiderResponse503
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
    x_request_id: str | Unset = UNSET,
) -> Response[
    Any
    | EraseRiderResponse400
    | EraseRiderResponse401
    | EraseRiderResponse403
    | EraseRiderResponse429
    | EraseRiderResponse500
    | EraseRiderResponse503
]:
    """Erase everything stored about a rider (GDPR Article 17).

     Removes every trip of rider `rider_id` with its receipt, adjustments and idempotency keys (role
    `privacy`; every other role gets `403 forbidden`, checked before the path). Answers `204` once the
    erasure is committed, as durably as a recorded trip, and, when a read replica is configured,
    replayed
    there; from then on no instance, replica, cached response, receipt, export, changes-feed upsert or
    idempotency replay returns any of it. Repeating it answers `204` again, and so does a rider never
    seen: the answer tells nobody who exists.

    The rider's changes feed reports each erased trip as `{"change": "erased", "id": ...}` to tokens
    issued before, so apps drop their copies. A trip requested before the erasure can no longer be
    recorded for the rider (`422 rider_erased`, also when a backend retries an old `Idempotency-Key`);
    one requested afterwards can. Analysts keep nothing of the erased trips. Each erasure leaves an
    audit
    record (rider id, time, trips and adjustments removed, the token's subject), listed by
    `trip-history erasures`.

    A `503` means the outcome is unknown (or the replica has not replayed it yet): repeat the request.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | EraseRiderResponse400 | EraseRiderResponse401 | EraseRiderResponse403 | EraseRiderResponse429 | EraseRiderResponse500 | EraseRiderResponse503]
    """

    kwargs = _get_kwargs(
        rider_id=rider_id,
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
    x_request_id: str | Unset = UNSET,
) -> (
    Any
    | EraseRiderResponse400
    | EraseRiderResponse401
    | EraseRiderResponse403
    | EraseRiderResponse429
    | EraseRiderResponse500
    | EraseRiderResponse503
    | None
):
    """Erase everything stored about a rider (GDPR Article 17).

     Removes every trip of rider `rider_id` with its receipt, adjustments and idempotency keys (role
    `privacy`; every other role gets `403 forbidden`, checked before the path). Answers `204` once the
    erasure is committed, as durably as a recorded trip, and, when a read replica is configured,
    replayed
    there; from then on no instance, replica, cached response, receipt, export, changes-feed upsert or
    idempotency replay returns any of it. Repeating it answers `204` again, and so does a rider never
    seen: the answer tells nobody who exists.

    The rider's changes feed reports each erased trip as `{"change": "erased", "id": ...}` to tokens
    issued before, so apps drop their copies. A trip requested before the erasure can no longer be
    recorded for the rider (`422 rider_erased`, also when a backend retries an old `Idempotency-Key`);
    one requested afterwards can. Analysts keep nothing of the erased trips. Each erasure leaves an
    audit
    record (rider id, time, trips and adjustments removed, the token's subject), listed by
    `trip-history erasures`.

    A `503` means the outcome is unknown (or the replica has not replayed it yet): repeat the request.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | EraseRiderResponse400 | EraseRiderResponse401 | EraseRiderResponse403 | EraseRiderResponse429 | EraseRiderResponse500 | EraseRiderResponse503
    """

    return sync_detailed(
        rider_id=rider_id,
        client=client,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    rider_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> Response[
    Any
    | EraseRiderResponse400
    | EraseRiderResponse401
    | EraseRiderResponse403
    | EraseRiderResponse429
    | EraseRiderResponse500
    | EraseRiderResponse503
]:
    """Erase everything stored about a rider (GDPR Article 17).

     Removes every trip of rider `rider_id` with its receipt, adjustments and idempotency keys (role
    `privacy`; every other role gets `403 forbidden`, checked before the path). Answers `204` once the
    erasure is committed, as durably as a recorded trip, and, when a read replica is configured,
    replayed
    there; from then on no instance, replica, cached response, receipt, export, changes-feed upsert or
    idempotency replay returns any of it. Repeating it answers `204` again, and so does a rider never
    seen: the answer tells nobody who exists.

    The rider's changes feed reports each erased trip as `{"change": "erased", "id": ...}` to tokens
    issued before, so apps drop their copies. A trip requested before the erasure can no longer be
    recorded for the rider (`422 rider_erased`, also when a backend retries an old `Idempotency-Key`);
    one requested afterwards can. Analysts keep nothing of the erased trips. Each erasure leaves an
    audit
    record (rider id, time, trips and adjustments removed, the token's subject), listed by
    `trip-history erasures`.

    A `503` means the outcome is unknown (or the replica has not replayed it yet): repeat the request.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | EraseRiderResponse400 | EraseRiderResponse401 | EraseRiderResponse403 | EraseRiderResponse429 | EraseRiderResponse500 | EraseRiderResponse503]
    """

    kwargs = _get_kwargs(
        rider_id=rider_id,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    rider_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> (
    Any
    | EraseRiderResponse400
    | EraseRiderResponse401
    | EraseRiderResponse403
    | EraseRiderResponse429
    | EraseRiderResponse500
    | EraseRiderResponse503
    | None
):
    """Erase everything stored about a rider (GDPR Article 17).

     Removes every trip of rider `rider_id` with its receipt, adjustments and idempotency keys (role
    `privacy`; every other role gets `403 forbidden`, checked before the path). Answers `204` once the
    erasure is committed, as durably as a recorded trip, and, when a read replica is configured,
    replayed
    there; from then on no instance, replica, cached response, receipt, export, changes-feed upsert or
    idempotency replay returns any of it. Repeating it answers `204` again, and so does a rider never
    seen: the answer tells nobody who exists.

    The rider's changes feed reports each erased trip as `{"change": "erased", "id": ...}` to tokens
    issued before, so apps drop their copies. A trip requested before the erasure can no longer be
    recorded for the rider (`422 rider_erased`, also when a backend retries an old `Idempotency-Key`);
    one requested afterwards can. Analysts keep nothing of the erased trips. Each erasure leaves an
    audit
    record (rider id, time, trips and adjustments removed, the token's subject), listed by
    `trip-history erasures`.

    A `503` means the outcome is unknown (or the replica has not replayed it yet): repeat the request.

    Args:
        rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | EraseRiderResponse400 | EraseRiderResponse401 | EraseRiderResponse403 | EraseRiderResponse429 | EraseRiderResponse500 | EraseRiderResponse503
    """

    return (
        await asyncio_detailed(
            rider_id=rider_id,
            client=client,
            x_request_id=x_request_id,
        )
    ).parsed
