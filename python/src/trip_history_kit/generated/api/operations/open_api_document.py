from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.open_api_document_response_200 import OpenApiDocumentResponse200
from ...models.open_api_document_response_429 import OpenApiDocumentResponse429
from ...models.open_api_document_response_500 import OpenApiDocumentResponse500
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/openapi.yaml",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    OpenApiDocumentResponse200
    | OpenApiDocumentResponse429
    | OpenApiDocumentResponse500
    | None
):
    if response.status_code == 200:
        response_200 = OpenApiDocumentResponse200.from_dict(response.content)

        return response_200

    if response.status_code == 429:
        response_429 = OpenApiDocumentResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = OpenApiDocumentResponse500.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    OpenApiDocumentResponse200 | OpenApiDocumentResponse429 | OpenApiDocumentResponse500
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
    x_request_id: str | Unset = UNSET,
) -> Response[
    OpenApiDocumentResponse200 | OpenApiDocumentResponse429 | OpenApiDocumentResponse500
]:
    """This document.

    Args:
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenApiDocumentResponse200 | OpenApiDocumentResponse429 | OpenApiDocumentResponse500]
    """

    kwargs = _get_kwargs(
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> (
    OpenApiDocumentResponse200
    | OpenApiDocumentResponse429
    | OpenApiDocumentResponse500
    | None
):
    """This document.

    Args:
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenApiDocumentResponse200 | OpenApiDocumentResponse429 | OpenApiDocumentResponse500
    """

    return sync_detailed(
        client=client,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> Response[
    OpenApiDocumentResponse200 | OpenApiDocumentResponse429 | OpenApiDocumentResponse500
]:
    """This document.

    Args:
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenApiDocumentResponse200 | OpenApiDocumentResponse429 | OpenApiDocumentResponse500]
    """

    kwargs = _get_kwargs(
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> (
    OpenApiDocumentResponse200
    | OpenApiDocumentResponse429
    | OpenApiDocumentResponse500
    | None
):
    """This document.

    Args:
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenApiDocumentResponse200 | OpenApiDocumentResponse429 | OpenApiDocumentResponse500
    """

    return (
        await asyncio_detailed(
            client=client,
            x_request_id=x_request_id,
        )
    ).parsed
