"""The one error the kit raises for an answer the service refused: its problem document, typed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx

from .generated.types import Response


@dataclass
class ApiError(Exception):
    """A response that is not a success, with the members of its RFC 9457 problem (docs/api-errors.md, Errors).

    `code` is the problem's machine-readable code (`invalid_parameter`, `sync_token_expired`, ...), or
    `unknown` when the body was not a problem document; `retry_after` is the `Retry-After` header in seconds.
    """

    status: int
    code: str
    detail: str | None = None
    param: str | None = None
    request_id: str | None = None
    retryable: bool = False
    retry_after: float | None = None

    def __str__(self) -> str:
        where = f" (param {self.param})" if self.param else ""
        return f"{self.status} {self.code}{where}: {self.detail or 'no detail'} [request {self.request_id}]"

    @classmethod
    def from_response(cls, response: httpx.Response | Response[Any], body: bytes | None = None) -> ApiError:
        """The error `response` (httpx's, or a generated operation's) stands for; `body` when the caller
        already read a streamed one."""
        content = response.content if body is None else body
        try:
            problem = json.loads(content)
        except ValueError:
            problem = None
        if not isinstance(problem, dict):
            problem = {}
        retry_after = None
        try:
            retry_after = float(response.headers["retry-after"])
        except (KeyError, ValueError):
            pass
        return cls(
            status=response.status_code,
            code=str(problem.get("code") or "unknown"),
            detail=problem.get("detail"),
            param=problem.get("param"),
            request_id=problem.get("request_id") or response.headers.get("x-request-id"),
            retryable=bool(problem.get("retryable", False)),
            retry_after=retry_after,
        )
