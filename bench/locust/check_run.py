"""Checks a headless run of bench/locust/locustfile.py for scripts/test-locust, and prints its figures.

    check_run.py LOCUST_STATUS FIXTURES RIDERS SUMMARY TARGET_RATE

LOCUST_STATUS is Locust's exit status; FIXTURES the file `trip-history seed --write-fixtures` wrote for RIDERS
riders; SUMMARY what the run wrote with --summary-file; TARGET_RATE the tasks per second asked of all users
together. Ends with "N passed, M failed"; exits 1 when a check failed.
"""

import json
import sys

KINDS = ["changes (first load)", "first page", "next page", "refresh", "detail", "tip"]

locust_status, fixtures_path, riders, summary_path, target_rate = sys.argv[1:6]
results = []


def check(name, passed, detail=""):
    results.append(bool(passed))
    print(f"{'ok' if passed else 'FAILED'}: {name}{': ' + detail if detail else ''}")


def read_json(path):
    try:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    except (OSError, ValueError):
        return None


fixtures = read_json(fixtures_path) or {"riders": []}
listed = fixtures["riders"]
check(
    f"the fixtures list the {riders} seeded riders, each with a token and trip ids, and a service token",
    len(listed) == int(riders)
    and all(rider["token"] and rider["trip_ids"] for rider in listed)
    and fixtures.get("service_token"),
    f"{len(listed)} riders, {sum(len(rider['trip_ids']) for rider in listed)} trip ids",
)
check("Locust exited 0", locust_status == "0", f"status {locust_status}")

summary = read_json(summary_path) or {}
requests, failures = summary.get("requests", 0), summary.get("failures", 0)
by_name = summary.get("by_name", {})
check("the run sent requests and wrote its summary", requests > 0, f"{requests} requests")
check("no request failed (non-2xx but the refreshes' 304s)", requests > 0 and failures == 0, f"{failures} failures")
counts = {kind: by_name.get(kind, {}).get("requests", 0) for kind in KINDS}
check(
    "every request kind was sent",
    all(counts.values()),
    ", ".join(f"{kind} {count}" for kind, count in counts.items()),
)
statuses = {name: entry["statuses"] for name, entry in sorted(by_name.items())}
check(
    "refreshes with nothing new were answered 304, and tips 201",
    statuses.get("refresh", {}).get("304", 0) > 0 and statuses.get("tip", {}).get("201", 0) > 0,
    json.dumps(statuses),
)

seconds = summary.get("seconds") or 0
rate = requests / seconds if seconds > 0 else 0
print(
    f"locust: {requests} requests, {failures} failures in {seconds:.0f} s ({rate:.1f} requests/s, "
    f"{float(target_rate):.0f} tasks/s asked); median {summary.get('median_ms')} ms, "
    f"99th percentile {summary.get('p99_ms')} ms"
)
passed, failed = results.count(True), results.count(False)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
