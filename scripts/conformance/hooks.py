"""schemathesis hooks of scripts/test-conformance.

openapi.yaml states every rule of a single value (patterns, lengths, enums, formats). A few documented rules
relate values to each other or to the server's state, which JSON Schema cannot state; for *positive* cases
only (requests schemathesis promises are valid), these hooks make generated requests follow them, so the
positive_data_acceptance check tests what it means to. Negative cases are left alone, and every other check
sees every request. The rules:

- `cursor` is a value the service signed for one rider and filter: no client can generate a valid one. Positive
  cases drop generated cursors and send the ones the service issued (the stateful phase follows the `nextPage`
  links) with the filter they were issued for, as the page that issued them echoed it.
- `from` must be earlier than `to`, and an analyst window spans at most 400 days: `to` is moved to a day after
  `from` when the pair breaks either.
- `resume_after` and `resume_requested_at` go together, only with an export `Accept` (not modelled as a
  parameter) and without `cursor`: positive cases of GET /v1/trips leave them out (the Swift suites test them).
- POST /v1/trips: `started_at` not before `requested_at`, `completed_at` not before `started_at`; and an
  `Idempotency-Key` names one body: the key is derived from the body, so a repeated body replays (201) and
  another body never reuses a key (that `422 idempotency_key_reused` is tested in the Swift suites).
- POST /v1/trips: the receipt's parts follow their cross-field rules: a `fare.breakdown` sums to the fare (one
  `base` line), `payment.last4` is four digits and absent for cash, `route.polyline` is a valid polyline.
- POST .../adjustments: the rules depend on the trip (a tip only on a completed trip, within its window and cap,
  a refund never below zero): positive cases send a small positive `fare_correction`, which any trip accepts,
  and no `If-Match` (a generated one names no version); the Swift suites test every rule.
- GET .../trips/changes and GET /v1/trips/changes: `since` is a token the service signed for one feed: positive
  cases leave it out.
- No free text holds a run of digits that could be a payment card number (refused with 422 by design).
- Each operation is called with its role's token (RoleTokens below); auth checks still remove or spoil it.
- Free text is 1 to 512 UTF-8 *bytes*; `maxLength` counts characters, so positive cases are cut to 512 bytes.
- NDJSON bodies are validated as the text the document describes (a deserializer below).
- The custom formats `iana-time-zone` and `iso-4217` (a zone or currency the server knows, which a pattern
  cannot say) get values from the zones and currencies below, in every phase.
"""

import hashlib
import json
import os
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import schemathesis
from hypothesis import strategies as st
from hypothesis.internal import lambda_sources

# The CPython 3.11 builds here (3.11.2, 3.11.7) at times raise "SystemError: AST constructor recursion depth
# mismatch" from ast.parse, which hypothesis calls only to describe a filtered strategy in its repr; a run then
# ended with a runtime error unrelated to the service. A description that cannot be parsed becomes the one
# hypothesis gives any lambda whose source it cannot find.
_describe_lambda = lambda_sources._lambda_description


def _lambda_description_or_unknown(f, *args, **kwargs):
    try:
        return _describe_lambda(f, *args, **kwargs)
    except SystemError:
        return "lambda: <unknown>"


lambda_sources._lambda_description = _lambda_description_or_unknown

TIME_ZONES = [
    "UTC", "Europe/Paris", "Europe/London", "Europe/Berlin", "America/New_York", "America/Los_Angeles",
    "America/Sao_Paulo", "Asia/Tokyo", "Asia/Kolkata", "Australia/Sydney", "Pacific/Auckland", "Africa/Cairo",
    "Pacific/Apia", "Asia/Kathmandu", "America/St_Johns", "Australia/Lord_Howe",
]
CURRENCIES = ["USD", "EUR", "JPY", "GBP", "CHF", "BRL", "INR", "AUD", "KWD", "CLP"]
ANALYST_MAXIMUM_SPAN = timedelta(days=400)

schemathesis.openapi.format("iana-time-zone", st.sampled_from(TIME_ZONES))
schemathesis.openapi.format("iso-4217", st.sampled_from(CURRENCIES))


def _instant(text, zone):
    """The UTC instant of a DateBound value (a date meaning its start in `zone`), or None."""
    try:
        if len(text) == 10:
            day = datetime.strptime(text, "%Y-%m-%d")
            return day.replace(tzinfo=zone).astimezone(timezone.utc)
        normalized = text.upper().replace(" ", "+").replace("Z", "+00:00")
        head, _, rest = normalized.partition(".")
        if rest:
            digits = len(rest) - len(rest.lstrip("0123456789"))
            normalized = f"{head}.{rest[:min(digits, 6)]}{rest[digits:]}"
        return datetime.fromisoformat(normalized).astimezone(timezone.utc)
    except (ValueError, OverflowError):
        return None


def _format(instant):
    return instant.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _fix_window(query, maximum_span):
    if "from" not in query or "to" not in query:
        return
    try:
        zone = ZoneInfo(query.get("tz") or "UTC")
    except Exception:
        zone = ZoneInfo("UTC")
    start, end = _instant(str(query["from"]), zone), _instant(str(query["to"]), zone)
    if start is None or end is None:
        # Years Python's datetime cannot hold (0000): a window the service surely accepts.
        query["from"], query["to"] = "2026-03-01", "2026-03-02"
        return
    if end <= start or (maximum_span is not None and end - start > maximum_span):
        try:
            query["to"] = _format(start + timedelta(days=1))
        except OverflowError:
            query["from"], query["to"] = "2026-03-01", "2026-03-02"


def _fix_trip(body):
    if not isinstance(body, dict):
        return
    # Instants must fall within the years 0000 to 9999 in UTC (RFC 3339's four-digit years), and a trip within
    # the recording horizon (TRIP_HISTORY_RECORDING_HORIZON_YEARS, 10 by default) of now: its three times move
    # to a day within it together, so their order is kept.
    for name in ("requested_at", "started_at", "completed_at"):
        if isinstance(body.get(name), str) and _instant(body[name], ZoneInfo("UTC")) is None:
            body[name] = "2026-03-01T09:00:00+09:00"
    requested = body.get("requested_at")
    first = _instant(requested, ZoneInfo("UTC")) if isinstance(requested, str) else None
    if first is not None and abs((first - datetime.now(timezone.utc)).days) > 9 * 365:
        for name in ("requested_at", "started_at", "completed_at"):
            if isinstance(body.get(name), str):
                body[name] = "2026-03-01T09:00:00+09:00"
    requested, started = body.get("requested_at"), body.get("started_at")
    zone = ZoneInfo("UTC")
    if isinstance(requested, str) and isinstance(started, str):
        first, second = _instant(requested, zone), _instant(started, zone)
        if first and second and second < first:
            body["started_at"] = started = requested
    completed = body.get("completed_at")
    if isinstance(started, str) and isinstance(completed, str):
        second, third = _instant(started, zone), _instant(completed, zone)
        if second and third and third < second:
            body["completed_at"] = started


def _within_bytes(text, limit=512):
    """`text` cut to at most `limit` UTF-8 bytes (the schema's maxLength counts characters)."""
    if not isinstance(text, str):
        return text
    cut = text.encode("utf-8", "surrogatepass")[:limit].decode("utf-8", "ignore")
    return cut or "x"


def _text(text, limit=512):
    """`text` within `limit` bytes, without NUL and without digits (no card number can stand in it)."""
    if not isinstance(text, str):
        return text
    cleaned = "".join(ch for ch in text if ch != "\x00" and not ch.isdigit())
    return _within_bytes(cleaned, limit)


ROUTE = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"


def _fix_receipt(body):
    fare = body.get("fare")
    if isinstance(fare, dict) and "breakdown" in fare:
        amount = fare.get("amount_minor")
        if isinstance(amount, int) and amount >= 0:
            fare["breakdown"] = [{"kind": "base", "amount_minor": amount}]
        else:
            fare.pop("breakdown")
    payment = body.get("payment")
    if isinstance(payment, dict):
        if "brand" in payment:
            payment["brand"] = _text(payment["brand"], 32)
        if "last4" in payment:
            if payment.get("method") == "cash":
                payment.pop("last4")
            else:
                payment["last4"] = "4242"
    driver = body.get("driver")
    if isinstance(driver, dict):
        if "first_name" in driver:
            driver["first_name"] = _text(driver["first_name"], 64)
        vehicle = driver.get("vehicle")
        if isinstance(vehicle, dict):
            for name in ("make", "model", "color", "plate"):
                if name in vehicle:
                    vehicle[name] = _text(vehicle[name], 64)
    route = body.get("route")
    if isinstance(route, dict) and "polyline" in route:
        route["polyline"] = ROUTE


def _known(value, choices):
    """`value` when it is one of `choices`, else one of them picked by its hash (deterministic per value)."""
    if value in choices:
        return value
    return choices[int(hashlib.sha256(str(value).encode()).hexdigest(), 16) % len(choices)]


@schemathesis.auth(cache_by_key=lambda case, context: context.operation.definition.raw.get("operationId", ""))
class RoleTokens:
    """The bearer token of the role each operation is for: the service token for POST /v1/trips, the read
    token (a rider's or an analyst's, per run) for everything else. The tokens come from the environment
    scripts/test-conformance sets (minted with `trip-history token`)."""

    def get(self, case, context):
        read = os.environ["TRIP_HISTORY_CONFORMANCE_READ_TOKEN"]
        if context.operation.definition.raw.get("operationId") in ("recordTrip", "recordAdjustment"):
            return os.environ.get("TRIP_HISTORY_CONFORMANCE_SERVICE_TOKEN", read)
        return read

    def set(self, case, data, context):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


# The filter each cursor was issued for, from the pages the run received: a cursor is valid only with it.
ISSUED_CURSORS = {}
CURSOR_FILTERS = ("from", "to", "status", "city", "product", "rider_id")


# The total each trip the run saw was last answered with, by id: a positive case's fare correction must keep
# the total between 0 and 10^13, so a trip recorded with a fare near the top gets a small negative one.
TRIP_TOTALS = {}
MAXIMUM_TOTAL = 10**13


def _note_totals(value):
    if isinstance(value, dict):
        fare = value.get("fare")
        if isinstance(value.get("id"), str) and isinstance(fare, dict) and isinstance(fare.get("total_minor"), int):
            TRIP_TOTALS[value["id"]] = fare["total_minor"]
        for member in ("data", "trip"):
            _note_totals(value.get(member))
    elif isinstance(value, list):
        for element in value:
            _note_totals(element)


def _is_json(response):
    """Whether the response says it is JSON; only those are parsed here, since `Response.json()` keeps what it
    parsed for schemathesis' own checks, and a one-line NDJSON export parsed as JSON then fails its schema."""
    values = response.headers.get("content-type") or response.headers.get("Content-Type") or []
    value = values[0] if isinstance(values, list) and values else values if isinstance(values, str) else ""
    media_type = value.split(";")[0].strip().lower()
    return media_type == "application/json" or media_type.endswith("+json")


@schemathesis.hook
def after_call(context, case, response):
    if not _is_json(response):
        return
    try:
        page = response.json()
    except Exception:
        return
    _note_totals(page)
    if not isinstance(page, dict) or not isinstance(page.get("page"), dict) or not isinstance(page.get("filter"), dict):
        return
    for key in ("next_cursor", "prev_cursor"):
        cursor = page["page"].get(key)
        if isinstance(cursor, str):
            issued = {name: page["filter"].get(name) for name in CURSOR_FILTERS}
            path = case.path_parameters if isinstance(case.path_parameters, dict) else {}
            ISSUED_CURSORS[cursor] = (issued, path.get("rider_id"))


# Runs before every request of every phase (explicit examples and coverage included, which generation hooks
# do not see); schemathesis revalidates the case afterwards, so the checks judge what was really sent.
@schemathesis.hook
def before_call(context, case, kwargs):
    meta = case.meta
    # Explicit examples carry no generation metadata; they are meant to be valid.
    if meta is not None and not meta.generation.mode.is_positive:
        return
    operation = case.operation.definition.raw.get("operationId")
    query = case.query if isinstance(case.query, dict) else None
    if query is not None and operation in (
        "listRiderTrips", "listTrips", "exportTrips", "tripStats", "getRiderTrip", "getTripReceipt"
    ):
        if "tz" in query:
            query["tz"] = _known(query["tz"], TIME_ZONES)
        # Only a cursor the service issued is valid, and only with the filter it was issued for.
        if "cursor" in query:
            issued, rider = ISSUED_CURSORS.get(str(query["cursor"]), (None, None))
            if issued is None:
                del query["cursor"]
            else:
                if rider is not None and isinstance(case.path_parameters, dict) and "rider_id" in case.path_parameters:
                    case.path_parameters["rider_id"] = rider
                for name, value in issued.items():
                    if name in ("city", "product", "rider_id") and operation != "listTrips":
                        continue
                    if value is None:
                        query.pop(name, None)
                    else:
                        query[name] = value
        if "cursor" not in query:
            _fix_window(
                query, ANALYST_MAXIMUM_SPAN if operation in ("listTrips", "exportTrips", "tripStats") else None)
    if query is not None:
        for name in ("city", "product"):
            if name in query:
                query[name] = _within_bytes(query[name])
    if query is not None and operation in ("listTrips", "exportTrips"):
        # A resume point names a trip the run never received: exports start from the beginning.
        query.pop("resume_after", None)
        query.pop("resume_requested_at", None)
    if operation == "recordTrip" and isinstance(case.body, dict):
        body = case.body
        for owner, name in ((body, "product"), (body, "city"), (body.get("pickup"), "address"),
                            (body.get("dropoff"), "address")):
            if isinstance(owner, dict) and name in owner:
                owner[name] = _within_bytes(owner[name])
        if "time_zone" in body:
            body["time_zone"] = _known(body["time_zone"], TIME_ZONES)
        fare = body.get("fare")
        if isinstance(fare, dict) and "currency" in fare:
            fare["currency"] = _known(fare["currency"], CURRENCIES)
        _fix_trip(body)
        _fix_receipt(body)
        for owner, name in ((body, "product"), (body, "city"), (body.get("pickup"), "address"),
                            (body.get("dropoff"), "address")):
            if isinstance(owner, dict) and name in owner:
                owner[name] = _text(owner[name])
        headers = case.headers if isinstance(case.headers, dict) else None
        if headers and "Idempotency-Key" in headers:
            digest = hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()
            headers["Idempotency-Key"] = f"conformance-{digest[:40]}"
    if operation == "recordAdjustment" and isinstance(case.body, dict):
        body = case.body
        body["kind"] = "fare_correction"
        amount = body.get("amount_minor")
        amount = (abs(amount) % 1000) + 1 if isinstance(amount, int) else 1
        path = case.path_parameters if isinstance(case.path_parameters, dict) else {}
        total = TRIP_TOTALS.get(str(path.get("trip_id")))
        if total is not None and total + amount > MAXIMUM_TOTAL:
            amount = -min(amount, total)
        body["amount_minor"] = amount or 1
        body["reason"] = _text(body.get("reason", "correction")) if isinstance(body.get("reason"), str) else "correction"
        headers = case.headers if isinstance(case.headers, dict) else None
        if headers:
            headers.pop("If-Match", None)
            if "Idempotency-Key" in headers:
                digest = hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()
                path = json.dumps(case.path_parameters, sort_keys=True, default=str)
                digest = hashlib.sha256((path + digest).encode()).hexdigest()
                headers["Idempotency-Key"] = f"conformance-adjustment-{digest[:40]}"
    if operation in ("listRiderTripChanges", "listTripChanges") and query is not None:
        query.pop("since", None)


@schemathesis.deserializer("application/x-ndjson")
def _ndjson_as_text(ctx, response):
    """The exports' NDJSON is described as text whose lines are JSON objects (`type: string` with a line
    pattern); without this, a one-line body is read as one JSON document and fails that schema."""
    return response.content.decode("utf-8")
