"""Reads a live trip-history server with the Python client openapi-python-client generated from openapi.yaml.

Run by scripts/test-python-client with the generated package installed and these variables set:
TRIP_HISTORY_PY_BASE_URL, TRIP_HISTORY_PY_RIDER, TRIP_HISTORY_PY_OTHER_RIDER, TRIP_HISTORY_PY_RIDER_TOKEN.
Each check prints one line; the last line is "N passed, M failed", and the exit status is 1 when any failed.
"""

import os
import sys
import traceback

from trip_history_api_client import AuthenticatedClient, Client
from trip_history_api_client.api.trips import get_rider_trip, list_rider_trips
from trip_history_api_client.models.problem_code import ProblemCode
from trip_history_api_client.models.trip import Trip
from trip_history_api_client.models.trip_page import TripPage
from trip_history_api_client.models.trip_status import TripStatus

BASE = os.environ["TRIP_HISTORY_PY_BASE_URL"]
RIDER = os.environ["TRIP_HISTORY_PY_RIDER"]
OTHER_RIDER = os.environ["TRIP_HISTORY_PY_OTHER_RIDER"]
TOKEN = os.environ["TRIP_HISTORY_PY_RIDER_TOKEN"]

rider = AuthenticatedClient(base_url=BASE, token=TOKEN, timeout=30.0, raise_on_unexpected_status=True)
anonymous = Client(base_url=BASE, timeout=30.0, raise_on_unexpected_status=True)
results = []


def check(name):
    def run(function):
        try:
            function()
            results.append(True)
            print(f"ok    {name}")
        except Exception:  # any failure of a check is reported and the next one runs
            results.append(False)
            print(f"FAIL  {name}")
            traceback.print_exc(limit=4)
        return function

    return run


def code_text(code):
    """A problem's code as text, whether the client knew it (ProblemCode) or kept it as a string."""
    return code.value if isinstance(code, ProblemCode) else code


def expect_problem(response, status, code, param=None):
    assert response.status_code == status, f"status {response.status_code}, body {response.content[:200]!r}"
    problem = response.parsed
    assert problem is not None, "the problem response was not parsed"
    assert problem.status == status, problem.status
    assert code_text(problem.code) == code, problem.code
    assert isinstance(problem.code, ProblemCode), "a documented code parses as ProblemCode"
    assert problem.type_ == f"urn:trip-history:problem:{code}", problem.type_
    assert problem.retryable is False
    assert problem.request_id == response.headers["x-request-id"]
    if param is not None:
        assert problem.param == param, problem.param
    return problem


@check("a page of the rider's trips parses, and its next cursor leads to the next page")
def page_and_next():
    response = list_rider_trips.sync_detailed(RIDER, client=rider, limit=3)
    assert response.status_code == 200, response.status_code
    page = response.parsed
    assert isinstance(page, TripPage), type(page)
    assert len(page.data) == 3
    for trip in page.data:
        assert isinstance(trip, Trip)
        assert trip.rider_id == RIDER
        assert isinstance(trip.status, TripStatus), trip.status
        assert trip.display.title and trip.fare.currency and trip.fare.amount_minor >= 0
    times = [trip.requested_at for trip in page.data]
    assert times == sorted(times, reverse=True), "newest first"
    assert page.page.has_more is True and isinstance(page.page.next_cursor, str)
    following = list_rider_trips.sync_detailed(RIDER, client=rider, limit=3, cursor=page.page.next_cursor).parsed
    assert isinstance(following, TripPage)
    assert len(following.data) == 3
    assert not {trip.id for trip in page.data} & {trip.id for trip in following.data}
    assert following.data[0].requested_at <= page.data[-1].requested_at


# Members only a trip's detail carries: its receipt's parts and its ledger.
DETAIL_ONLY = ("payment", "driver", "route", "adjustments")


@check("one trip parses with the members the page showed, and its detail's receipt and ledger")
def one_trip():
    first = list_rider_trips.sync_detailed(RIDER, client=rider, limit=1).parsed.data[0]
    response = get_rider_trip.sync_detailed(RIDER, first.id, client=rider)
    assert response.status_code == 200
    trip = response.parsed
    assert isinstance(trip, Trip)
    detail = trip.to_dict()
    # The seeder gives every trip with a fare a receipt, and every detail has its ledger (perhaps empty).
    assert isinstance(detail.get("adjustments"), list)
    breakdown = detail["fare"].pop("breakdown", None)
    if detail["fare"]["amount_minor"] > 0:
        assert sum(line["amount_minor"] for line in breakdown) == detail["fare"]["amount_minor"]
    for member in DETAIL_ONLY:
        detail.pop(member, None)
    assert detail == first.to_dict()


@check("limit=0 is a parsed 400 problem naming limit")
def invalid_limit():
    expect_problem(list_rider_trips.sync_detailed(RIDER, client=rider, limit=0), 400, "invalid_parameter", "limit")


@check("an edited cursor is a parsed 400 invalid_cursor")
def invalid_cursor():
    expect_problem(
        list_rider_trips.sync_detailed(RIDER, client=rider, cursor="AAAAAAAAAAAAAAAAAAAAAAAA"),
        400,
        "invalid_cursor",
        "cursor",
    )


@check("no token is a parsed 401 problem")
def no_token():
    expect_problem(list_rider_trips.sync_detailed(RIDER, client=anonymous), 401, "unauthorized")


@check("another rider's trips are a parsed 404 problem")
def other_rider():
    expect_problem(list_rider_trips.sync_detailed(OTHER_RIDER, client=rider), 404, "not_found")


passed = results.count(True)
failed = results.count(False)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or not results else 0)
