"""The mobile app's traffic on the "Your trips" screen, for Locust, at a fixed rate per simulated user.

Each simulated user is one rider's app, picked at random from the fixtures that
`trip-history seed --write-fixtures PATH` writes (riders with their tokens and trip ids, and a service token).
On start it takes a changes-feed token for now and loads the first page, as an app opening the screen does;
then it runs these tasks, each user starting one every 1/--user-rate seconds (Locust's constant_throughput):

- first page, weight 35: `GET /v1/riders/{id}/trips?limit=20`, every opening of the screen;
- refresh, 25: pull-to-refresh, `GET .../trips/changes?since=...` with the kept token and `If-None-Match`, the
  other thing an open screen does, mostly answered 304;
- next page, 20: scrolling with the last `next_cursor`; fewer riders scroll than open the screen, and a scroll
  stops at the end of the history (the user then opens the screen again, counted as a first page);
- detail, 15: `GET .../trips/{trip_id}` of a trip seen on a page or in the fixtures, a tap on a trip;
- tip, 5: `POST .../trips/{trip_id}/adjustments` with the service token and a fresh `Idempotency-Key`, the
  write path; more than real traffic tips, so that a short run exercises it, and the rider's next refresh
  sees it (a 200 with the tipped trip).

The first load's feed call is named "changes (first load)". Answers outside 2xx count as failures, except the
304 that a refresh asks for with its `If-None-Match`. `Accept-Language` varies as apps' languages do.

Tips need trips within the service's tip window: seeded trips are older than its default of 30 days, so serve
with `TRIP_HISTORY_TIP_WINDOW_DAYS=3650`. With --summary-file, Locust's final counts (requests and failures per
name, response-time percentiles) and each name's statuses are written there as JSON once the users have stopped.
"""

import json
import random
import uuid
from collections import Counter, defaultdict

from locust import HttpUser, constant_throughput, events, task
from locust.runners import WorkerRunner

LANGUAGES = ["en-US", "en-GB", "fr-FR", "de-DE", "ja-JP", "es-ES"]
# One minor unit, so a long run stays far below a trip's cap on tips (twice its fare).
TIP_BODY = json.dumps({"kind": "tip", "amount_minor": 1, "reason": "In-app tip"})
TIMEOUT_SECONDS = 10
# The trips a user remembers from the pages it saw, as an app's list holds them.
SEEN_TRIPS = 100

statuses = defaultdict(Counter)
fixtures = None


@events.init_command_line_parser.add_listener
def add_arguments(parser):
    parser.add_argument(
        "--fixtures", env_var="LOCUST_FIXTURES", default="", help="the file of `trip-history seed --write-fixtures`"
    )
    parser.add_argument(
        "--user-rate",
        env_var="LOCUST_USER_RATE",
        type=float,
        default=1.0,
        help="tasks each simulated user starts per second (default 1)",
    )
    parser.add_argument(
        "--summary-file", env_var="LOCUST_SUMMARY_FILE", default="", help="write the run's final counts here (JSON)"
    )


@events.init.add_listener
def load_fixtures(environment, **_kwargs):
    global fixtures
    options = environment.parsed_options
    if options is None or not options.fixtures:
        raise SystemExit("pass --fixtures PATH (the file of `trip-history seed --write-fixtures PATH`)")
    with open(options.fixtures, encoding="utf-8") as file:
        fixtures = json.load(file)
    if not fixtures["riders"]:
        raise SystemExit(f"{options.fixtures} lists no rider")
    MobileApp.wait_time = constant_throughput(options.user_rate)


@events.test_stop.add_listener
def write_summary(environment, **_kwargs):
    path = environment.parsed_options.summary_file if environment.parsed_options else ""
    # With --processes only the master's counts are whole (the statuses are counted in each worker).
    if not path or isinstance(environment.runner, WorkerRunner):
        return
    total = environment.stats.total
    summary = {
        "requests": total.num_requests,
        "failures": total.num_failures,
        "median_ms": total.get_response_time_percentile(0.5),
        "p99_ms": total.get_response_time_percentile(0.99),
        "seconds": (total.last_request_timestamp or 0) - total.start_time,
        "by_name": {
            entry.name: {
                "requests": entry.num_requests,
                "failures": entry.num_failures,
                "statuses": statuses[entry.name],
            }
            for entry in environment.stats.entries.values()
        },
    }
    with open(path, "w", encoding="utf-8") as file:
        json.dump(summary, file, indent=1, sort_keys=True)


class MobileApp(HttpUser):
    wait_time = constant_throughput(1.0)

    def on_start(self):
        rider = random.choice(fixtures["riders"])
        self.trips_path = f"/v1/riders/{rider['rider_id']}/trips"
        self.headers = {"Authorization": f"Bearer {rider['token']}", "Accept-Language": random.choice(LANGUAGES)}
        self.service_headers = {
            "Authorization": f"Bearer {fixtures['service_token']}",
            "Content-Type": "application/json",
        }
        self.tippable = rider["trip_ids"]
        self.seen = list(rider["trip_ids"])
        self.next_cursor = None
        self.since = None
        self.feed_tag = None
        self.feed("changes (first load)")
        self.first_page()

    def request(self, name, method, path, expected, headers=None, **kwargs):
        """Sends one request, counting an answer outside `expected` as a failure; returns the response and its
        parsed body, or None for either when it failed or has no body (a 304)."""
        with self.client.request(
            method,
            path,
            name=name,
            headers=headers or self.headers,
            timeout=TIMEOUT_SECONDS,
            catch_response=True,
            **kwargs,
        ) as response:
            statuses[name][str(response.status_code)] += 1
            if response.status_code not in expected:
                response.failure(f"{response.status_code}: {response.text[:300]}")
                return None, None
            response.success()
            if response.status_code == 304:
                return response, None
            try:
                return response, response.json()
            except ValueError:
                response.failure(f"{response.status_code} with a body that is not JSON")
                return None, None

    def keep_page(self, page):
        if page is not None:
            self.next_cursor = page["page"]["next_cursor"] if page["page"]["has_more"] else None
            self.seen = ([trip["id"] for trip in page["data"]] + self.seen)[:SEEN_TRIPS]

    def feed(self, name):
        """Asks the feed what changed since the kept token (none: a token for now), with the last answer's ETag,
        and keeps the new token and tag; calls again while the feed has more, as an app does."""
        for _ in range(10):
            params, headers, expected = {"limit": 50}, self.headers, (200,)
            if self.since is not None:
                params["since"] = self.since
                if self.feed_tag is not None:
                    headers, expected = dict(self.headers, **{"If-None-Match": self.feed_tag}), (200, 304)
            response, body = self.request(name, "GET", f"{self.trips_path}/changes", expected, headers, params=params)
            if body is None:
                return
            self.since, self.feed_tag = body["page"]["next_since"], response.headers.get("ETag")
            if not body["page"]["has_more"]:
                return

    @task(35)
    def first_page(self):
        self.keep_page(self.request("first page", "GET", self.trips_path, (200,), params={"limit": 20})[1])

    @task(25)
    def refresh(self):
        self.feed("refresh")

    @task(20)
    def next_page(self):
        if self.next_cursor is None:
            # At the end of the history this user opens the screen again, as after leaving it.
            self.first_page()
            return
        params = {"limit": 20, "cursor": self.next_cursor}
        self.keep_page(self.request("next page", "GET", self.trips_path, (200,), params=params)[1])

    @task(15)
    def detail(self):
        if not self.seen:
            return
        self.request("detail", "GET", f"{self.trips_path}/{random.choice(self.seen)}", (200,))

    @task(5)
    def tip(self):
        if not self.tippable:
            return
        headers = dict(self.service_headers, **{"Idempotency-Key": f"locust-tip-{uuid.uuid4().hex}"})
        path = f"{self.trips_path}/{random.choice(self.tippable)}/adjustments"
        self.request("tip", "POST", path, (201,), headers, data=TIP_BODY)
