from enum import StrEnum


class ProblemCode(StrEnum):
    CONFLICT = "conflict"
    CURSOR_MISMATCH = "cursor_mismatch"
    FORBIDDEN = "forbidden"
    HEADERS_TOO_LARGE = "headers_too_large"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    INTERNAL = "internal"
    INVALID_CURSOR = "invalid_cursor"
    INVALID_PARAMETER = "invalid_parameter"
    MALFORMED_REQUEST = "malformed_request"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_ACCEPTABLE = "not_acceptable"
    NOT_FOUND = "not_found"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    PRECONDITION_FAILED = "precondition_failed"
    QUERY_TIMEOUT = "query_timeout"
    RATE_LIMITED = "rate_limited"
    REQUEST_TIMEOUT = "request_timeout"
    RIDER_ERASED = "rider_erased"
    SYNC_TOKEN_EXPIRED = "sync_token_expired"
    TOO_MANY_REQUESTS = "too_many_requests"
    UNAUTHORIZED = "unauthorized"
    UNAVAILABLE = "unavailable"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    URI_TOO_LONG = "uri_too_long"

    def __str__(self) -> str:
        return str(self.value)
