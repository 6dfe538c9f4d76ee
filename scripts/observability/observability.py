#!/usr/bin/env python3
"""Checks of deploy/ and of a live instance, for scripts/test-observability (standard library plus PyYAML).

    observability.py runbooks RULES OPERATIONS_MD
    observability.py names RULES DASHBOARD METRICS_TEXT
    observability.py load BASE SECONDS TOKENS_JSON REPORT_JSON
    observability.py trickle BASE TOKENS_JSON
    observability.py recorded RULES PROMETHEUS_URL
    observability.py dashboard DASHBOARD PROMETHEUS_URL
    observability.py logs LOG_FILE SENSITIVE_JSON

Each prints one line per finding ("FAIL: ...") and a last line saying what held; the exit status is 1 when
anything failed. Every HTTP request goes to 127.0.0.1.
"""

import json
import math
import random
import re
import socket
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import yaml

# PromQL words that are not metric names: keywords, aggregation modifiers, the le/quantile label names that
# appear in by() lists, and the numbers' specials.
PROMQL_KEYWORDS = {
    "by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "offset", "bool",
    "inf", "nan", "atan2",
}
# Grafana variables and PromQL range syntax are removed before names are looked for.
GRAFANA_VARIABLE = re.compile(r"\$(__\w+|\w+|\{[^}]*\})")


def fail(message):
    print(f"FAIL: {message}")


def load_rules(path):
    with open(path, encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    rules = []
    for group in document["groups"]:
        for rule in group["rules"]:
            rules.append(rule)
    return rules


def dashboard_expressions(path):
    """Every PromQL text of the dashboard: panel targets, template variable queries, annotation queries."""
    with open(path, encoding="utf-8") as handle:
        dashboard = json.load(handle)
    found = []

    def walk(panels):
        for panel in panels:
            for target in panel.get("targets", []):
                if target.get("expr"):
                    found.append((f"panel '{panel.get('title')}'", target["expr"]))
            walk(panel.get("panels", []))

    walk(dashboard.get("panels", []))
    for variable in dashboard.get("templating", {}).get("list", []):
        query = variable.get("query")
        if isinstance(query, dict):
            query = query.get("query")
        if variable.get("type") == "query" and query:
            found.append((f"variable '{variable['name']}'", query))
    for annotation in dashboard.get("annotations", {}).get("list", []):
        if annotation.get("expr"):
            found.append((f"annotation '{annotation.get('name')}'", annotation["expr"]))
    return dashboard, found


def metric_names(expression):
    """The metric names a PromQL expression (or a Grafana label_values() query) reads."""
    text = GRAFANA_VARIABLE.sub("1m", expression)
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)  # string literals
    text = re.sub(r"\{[^}]*\}", "", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", "", text)  # ranges
    # Label lists of by/without/on/ignoring/group_left/group_right, and the label argument of label_values().
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    text = re.sub(r"\blabel_values\(\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*,\s*[A-Za-z_][A-Za-z0-9_]*\s*\)", r"\1", text)
    names = set()
    for match in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", text):
        word = match.group(0)
        following = text[match.end():].lstrip()
        if following.startswith("("):
            continue  # a function or aggregation
        if word.lower() in PROMQL_KEYWORDS:
            continue
        start = match.start()
        if start > 0 and (text[start - 1].isdigit() or text[start - 1] == "."):
            continue  # the exponent or unit of a number (1e-3, 5m)
        names.add(word)
    return names


def exposed_names(metrics_text):
    names = set()
    for line in metrics_text.splitlines():
        if not line or line.startswith("#"):
            continue
        names.add(re.match(r"[A-Za-z_:][A-Za-z0-9_:]*", line).group(0))
    return names


def heading_anchors(markdown):
    """GitHub's anchors of a Markdown file's headings."""
    anchors = set()
    for line in markdown.splitlines():
        match = re.match(r"#+\s+(.*)", line)
        if not match:
            continue
        title = match.group(1).strip().lower()
        title = re.sub(r"[^\w\- ]", "", title)
        anchors.add(title.replace(" ", "-"))
    return anchors


def command_runbooks(rules_path, operations_path):
    with open(operations_path, encoding="utf-8") as handle:
        anchors = heading_anchors(handle.read())
    alerts = [rule for rule in load_rules(rules_path) if "alert" in rule]
    failed = 0
    for rule in alerts:
        annotations = rule.get("annotations", {})
        if not annotations.get("summary"):
            fail(f"{rule['alert']} has no summary annotation")
            failed += 1
        runbook = annotations.get("runbook", "")
        page, _, anchor = runbook.partition("#")
        if page != "docs/operations-monitoring.md" or anchor not in anchors:
            fail(f"{rule['alert']}: runbook '{runbook}' is not a heading of docs/operations-monitoring.md")
            failed += 1
        if rule.get("labels", {}).get("severity") not in ("page", "ticket"):
            fail(f"{rule['alert']} has no severity label page or ticket")
            failed += 1
    if not alerts:
        fail("no alerting rules found")
        failed += 1
    print(f"{len(alerts)} alerts, each with a summary, a severity and a runbook heading in "
          "docs/operations-monitoring.md" if failed == 0 else f"{failed} problems in the alerts' annotations")
    return 1 if failed else 0


def command_names(rules_path, dashboard_path, metrics_path):
    with open(metrics_path, encoding="utf-8") as handle:
        exposed = exposed_names(handle.read())
    rules = load_rules(rules_path)
    recorded = {rule["record"] for rule in rules if "record" in rule}
    known = exposed | recorded
    _, panels = dashboard_expressions(dashboard_path)
    sources = [(f"rule {rule.get('record') or rule.get('alert')}", rule["expr"]) for rule in rules] + panels
    referenced = set()
    failed = 0
    for where, expression in sources:
        names = metric_names(expression)
        if not names:
            fail(f"{where}: no metric name found in {expression!r}")
            failed += 1
        for name in sorted(names - known):
            fail(f"{where} reads {name}, which the instance does not expose and no rule records")
            failed += 1
        referenced |= names
    if failed == 0:
        print(f"{len(referenced)} metric names in {len(sources)} expressions of the rules and the dashboard: "
              f"{len(referenced - recorded)} exposed by the instance, {len(referenced & recorded)} recorded by the rules")
    return 1 if failed else 0


def command_load(base, seconds, tokens_path, report_path):
    """Drives a mixed load for SECONDS: rider reads (repeated, so many are cache hits; conditional ones),
    details and next pages, analyst lists and stats, trips recorded by a service with distinctive addresses
    and coordinates, 4xx of every kind, a burst that runs into a rider's rate limit, and requests carrying
    forged tokens and the server's secret. Fails when a request class never got its expected status."""
    with open(tokens_path, encoding="utf-8") as handle:
        tokens = json.load(handle)
    deadline = time.monotonic() + float(seconds)
    statuses = {}
    lock = threading.Lock()
    errors = []

    def request(kind, method, path, token=None, body=None, headers=None):
        all_headers = dict(headers or {})
        if token is not None:
            all_headers["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            all_headers["Content-Type"] = "application/json"
        req = urllib.request.Request(base + path, data=data, method=method, headers=all_headers)
        try:
            with urllib.request.urlopen(req, timeout=10) as response:
                status, payload, etag = response.status, response.read(), response.headers.get("ETag")
        except urllib.error.HTTPError as error:
            status, payload, etag = error.code, error.read(), None
        except Exception as error:  # a refused or reset connection is a finding too
            with lock:
                errors.append(f"{method} {path}: {error}")
            return None, None, None
        with lock:
            statuses.setdefault(kind, {}).setdefault(status, 0)
            statuses[kind][status] += 1
        return status, payload, etag

    def trip(rider, index, pickup, dropoff, lat=None):
        minute = index % 50
        return {
            "rider_id": str(rider), "status": "completed", "product": "UberX", "city": "Paris",
            "time_zone": "Europe/Paris",
            "requested_at": f"2026-03-01T18:{minute:02d}:00+01:00",
            "started_at": f"2026-03-01T18:{minute:02d}:30+01:00",
            "completed_at": f"2026-03-01T19:{minute:02d}:00+01:00",
            "pickup": {"lat": tokens["pickup_lat"] if lat is None else lat, "lon": tokens["pickup_lon"],
                       "address": pickup},
            "dropoff": {"lat": tokens["dropoff_lat"], "lon": tokens["dropoff_lon"], "address": dropoff},
            "distance_m": 5230, "duration_s": 1260, "fare": {"amount_minor": 1500, "currency": "EUR"},
        }

    def malformed(token):
        # A request the HTTP parser refuses (a header line without a colon), carrying a valid token and the
        # address, so the connection guard's log of the refusal is scanned too.
        host, port = urllib.parse.urlsplit(base).hostname, urllib.parse.urlsplit(base).port
        raw = (f"GET /v1/riders/1/trips HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
               f"{tokens['pickup_address']}\r\n\r\n").encode("utf-8")
        try:
            with socket.create_connection((host, port), timeout=10) as connection:
                connection.sendall(raw)
                answer = connection.recv(4096).split(b"\r\n", 1)[0].split()
            status = int(answer[1]) if len(answer) > 1 and answer[1].isdigit() else 0
        except OSError:
            status = 0  # a parser may also just close the connection
        with lock:
            statuses.setdefault("malformed request", {}).setdefault(status, 0)
            statuses["malformed request"][status] += 1

    counter = [0]

    def next_index():
        with lock:
            counter[0] += 1
            return counter[0]

    def rider_reader(worker):
        rider = 1 + worker % 3
        token = tokens["riders"][str(rider)]
        while time.monotonic() < deadline:
            status, payload, etag = request("rider list", "GET", f"/v1/riders/{rider}/trips?limit=5", token)
            if status == 200:
                page = json.loads(payload)
                if page["data"]:
                    trip_id = page["data"][0]["id"]
                    request("rider detail", "GET", f"/v1/riders/{rider}/trips/{trip_id}", token)
                cursor = page["page"].get("next_cursor")
                if cursor:
                    request("rider next page", "GET",
                            f"/v1/riders/{rider}/trips?limit=5&cursor={urllib.parse.quote(cursor)}", token)
                if etag:
                    request("rider conditional", "GET", f"/v1/riders/{rider}/trips?limit=5", token,
                            headers={"If-None-Match": etag})
            # At most 4 requests per pass: this rider stays under its rate limit.
            time.sleep(0.1)

    def writer():
        service = tokens["service"]
        while time.monotonic() < deadline:
            index = next_index()
            rider = 1 + index % 3
            body = trip(rider, index, tokens["pickup_address"], tokens["dropoff_address"])
            request("trip write", "POST", "/v1/trips", service, body,
                    headers={"Idempotency-Key": f"observability-{tokens['run']}-{index}"})
            # Read-your-writes: the writer's rider reads at once, so the reader is behind for this rider.
            request("rider list", "GET", f"/v1/riders/{rider}/trips?limit=5", tokens["riders"][str(rider)])
            # A trip the rules refuse (latitude out of range), still carrying the distinctive address.
            request("trip refused", "POST", "/v1/trips", service,
                    trip(rider, index, tokens["pickup_address"], tokens["dropoff_address"], lat=91),
                    headers={"Idempotency-Key": f"observability-{tokens['run']}-bad-{index}"})
            time.sleep(0.2)

    def misbehaver():
        rider_token = tokens["riders"]["1"]
        while time.monotonic() < deadline:
            request("other rider", "GET", "/v1/riders/2/trips", rider_token)
            request("bad limit", "GET", "/v1/riders/1/trips?limit=0", rider_token)
            request("unknown trip", "GET", "/v1/riders/1/trips/999999999", rider_token)
            request("no token", "GET", "/v1/riders/1/trips")
            for forged in tokens["forged"]:
                request("forged token", "GET", "/v1/riders/1/trips", forged)
            request("secret as token", "GET", "/v1/riders/1/trips", tokens["secret"])
            request("secret in query", "GET",
                    f"/v1/riders/1/trips?access_token={urllib.parse.quote(tokens['secret'])}")
            request("secret in header", "GET", "/v1/riders/1/trips", rider_token,
                    headers={"X-Api-Key": tokens["secret"], "Cookie": f"session={tokens['secret']}"})
            request("token in query", "GET", f"/v1/riders/1/trips?token={urllib.parse.quote(rider_token)}")
            request("unknown route", "GET", "/v1/nowhere", rider_token)
            request("analyst list", "GET", "/v1/trips?from=2026-01-01&to=2026-12-31&limit=10", tokens["analyst"])
            request("analyst stats", "GET", "/v1/trips/stats?from=2026-01-01&to=2026-12-31", tokens["analyst"])
            request("malformed body", "POST", "/v1/trips", tokens["service"],
                    headers={"Idempotency-Key": f"observability-{tokens['run']}-malformed"})
            malformed(rider_token)
            time.sleep(0.1)

    def burst():
        # Rider 4 alone, from five threads at once, asks several times its burst (scripts/test-observability
        # sets 50/s, burst 100): some of these are refused with 429.
        token = tokens["riders"]["4"]
        for _ in range(80):
            if time.monotonic() >= deadline:
                return
            request("rider burst", "GET", "/v1/riders/4/trips?limit=5", token)

    workers = [threading.Thread(target=rider_reader, args=(n,)) for n in range(3)]
    workers += [threading.Thread(target=writer), threading.Thread(target=misbehaver)]
    workers += [threading.Thread(target=burst) for _ in range(5)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    expected = {
        "rider list": 200, "rider detail": 200, "rider conditional": 304, "trip write": 201,
        "trip refused": 422, "other rider": 404, "bad limit": 400, "unknown trip": 404, "no token": 401,
        "forged token": 401, "secret as token": 401, "unknown route": 404, "analyst list": 200,
        "analyst stats": 200, "rider burst": 429,
    }
    failed = 0
    for message in errors[:10]:
        fail(f"request failed without an HTTP answer: {message}")
        failed += 1
    for kind, status in expected.items():
        if statuses.get(kind, {}).get(status, 0) == 0:
            fail(f"'{kind}' never answered {status} (got {statuses.get(kind, {})})")
            failed += 1
    for kind, seen in statuses.items():
        if any(code >= 500 for code in seen):
            fail(f"'{kind}' was answered with a server error: {seen}")
            failed += 1
    with open(report_path, "w", encoding="utf-8") as handle:
        json.dump(statuses, handle, indent=1, sort_keys=True)
    total = sum(sum(seen.values()) for seen in statuses.values())
    print(f"{total} requests in {seconds} s, each kind answered as expected" if failed == 0
          else f"{failed} problems in the load's answers")
    return 1 if failed else 0


def command_trickle(base, tokens_path):
    """A few requests (a rider's list twice, so one is a cache hit, and a recorded trip), so the rates over
    the last minutes stay above zero while the recording rules are checked, however long the load's last
    scrapes took."""
    with open(tokens_path, encoding="utf-8") as handle:
        tokens = json.load(handle)
    rider = {"Authorization": f"Bearer {tokens['riders']['3']}"}
    for _ in range(2):
        urllib.request.urlopen(urllib.request.Request(base + "/v1/riders/3/trips?limit=5", headers=rider), timeout=10).read()
    body = {
        "rider_id": "3", "status": "canceled", "product": "UberX", "city": "Paris", "time_zone": "Europe/Paris",
        "requested_at": "2026-03-02T18:00:00+01:00", "started_at": "2026-03-02T18:00:00+01:00",
        "completed_at": None,
        "pickup": {"lat": 48.8566, "lon": 2.3522, "address": "Place de l'Hôtel de Ville"},
        "dropoff": {"lat": 48.8584, "lon": 2.2945, "address": "Champ de Mars"},
        "distance_m": 0, "duration_s": 0, "fare": {"amount_minor": 500, "currency": "EUR"},
    }
    headers = {"Authorization": f"Bearer {tokens['service']}", "Content-Type": "application/json",
               "Idempotency-Key": f"observability-{tokens['run']}-trickle-{time.time_ns()}"}
    request = urllib.request.Request(base + "/v1/trips", data=json.dumps(body).encode("utf-8"), method="POST",
                                     headers=headers)
    urllib.request.urlopen(request, timeout=10).read()
    return 0


def query(prometheus, expression):
    url = prometheus + "/api/v1/query?" + urllib.parse.urlencode({"query": expression})
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        return json.loads(error.read() or b"{}") or {"status": "error", "error": str(error)}


def finite_samples(answer):
    if answer.get("status") != "success":
        return []
    return [sample for sample in answer["data"]["result"] if math.isfinite(float(sample["value"][1]))]


def command_recorded(rules_path, prometheus):
    """Every recording rule has a finite value in the Prometheus that evaluated rules.yml against the live
    instance, and every rule of the file evaluated without an error."""
    recorded = [rule["record"] for rule in load_rules(rules_path) if "record" in rule]
    failed = 0
    for name in recorded:
        samples = finite_samples(query(prometheus, name))
        if not samples:
            fail(f"recording rule {name} has no finite value ({query(prometheus, name).get('data', {}).get('result')})")
            failed += 1
    with urllib.request.urlopen(prometheus + "/api/v1/rules", timeout=10) as response:
        groups = json.load(response)["data"]["groups"]
    evaluated = 0
    for group in groups:
        for rule in group["rules"]:
            evaluated += 1
            if rule.get("health") != "ok":
                fail(f"rule {rule.get('name')} is {rule.get('health')}: {rule.get('lastError')}")
                failed += 1
    if evaluated != len(load_rules(rules_path)):
        fail(f"Prometheus loaded {evaluated} rules, rules.yml has {len(load_rules(rules_path))}")
        failed += 1
    print(f"{len(recorded)} recording rules have values; {evaluated} rules evaluated without error" if failed == 0
          else f"{failed} recording rules without a value or rules in error")
    return 1 if failed else 0


def command_dashboard(dashboard_path, prometheus):
    """The dashboard's data source is the DS_PROMETHEUS input everywhere, and each of its queries, with the
    Grafana variables given values, is valid PromQL for the live Prometheus."""
    dashboard, expressions = dashboard_expressions(dashboard_path)
    failed = 0
    if [item.get("name") for item in dashboard.get("__inputs", [])] != ["DS_PROMETHEUS"]:
        fail("the dashboard's __inputs is not the one DS_PROMETHEUS data source")
        failed += 1
    text = json.dumps(dashboard)
    # Grafana's built-in annotation of its own alerts is the one other data source.
    uids = set(re.findall(r'"uid": "([^"]*)"', text)) - {dashboard.get("uid"), "-- Grafana --"}
    if uids != {"${DS_PROMETHEUS}"}:
        fail(f"data source uids other than ${{DS_PROMETHEUS}}: {sorted(uids - {'${DS_PROMETHEUS}'})}")
        failed += 1
    with_data = 0
    for where, expression in expressions:
        if expression.startswith("label_values("):
            metric = re.match(r"label_values\((\w+)", expression).group(1)
            expression = f"count by (job) ({metric})"
        concrete = (expression.replace("$__rate_interval", "1m").replace("$__range", "5m")
                    .replace("$job", ".*").replace("$instance", ".*"))
        answer = query(prometheus, concrete)
        if answer.get("status") != "success":
            fail(f"{where}: {answer.get('error')} in {concrete!r}")
            failed += 1
        elif answer["data"]["result"]:
            with_data += 1
    print(f"{len(expressions)} dashboard queries valid, {with_data} with data after the load" if failed == 0
          else f"{failed} dashboard problems")
    return 1 if failed else 0


RFC3339_UTC = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z")
LEVELS = {"trace", "debug", "info", "notice", "warning", "error", "critical"}


def command_logs(log_path, sensitive_path):
    """Every line of the server's log is one JSON object with time, level, label and message, and none of
    the sensitive values (tokens, secrets, addresses, coordinates) appears anywhere in the log, in any
    spelling JSON could give it."""
    with open(log_path, "rb") as handle:
        raw = handle.read()
    with open(sensitive_path, encoding="utf-8") as handle:
        sensitive = json.load(handle)
    failed = 0
    lines = raw.decode("utf-8", errors="replace").splitlines()
    levels = {}
    for number, line in enumerate(lines, 1):
        try:
            entry = json.loads(line)
        except ValueError:
            fail(f"log line {number} is not JSON: {line[:120]!r}")
            failed += 1
            continue
        if not isinstance(entry, dict):
            fail(f"log line {number} is not an object")
            failed += 1
            continue
        missing = [key for key in ("time", "level", "label", "message") if key not in entry]
        if missing or not RFC3339_UTC.fullmatch(str(entry.get("time"))) or entry.get("level") not in LEVELS:
            fail(f"log line {number} lacks {missing} or has a bad time or level: {line[:160]!r}")
            failed += 1
        levels[entry.get("level")] = levels.get(entry.get("level"), 0) + 1
    if "trace" not in levels:
        fail("no trace-level line: the server did not log at TRIP_HISTORY_LOG_LEVEL=trace")
        failed += 1
    text = raw.decode("utf-8", errors="replace")
    leaked = []
    for label, value in sensitive.items():
        spellings = {value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1],
                     urllib.parse.quote(value), urllib.parse.quote_plus(value)}
        if any(spelling and spelling in text for spelling in spellings):
            leaked.append(label)
    for label in leaked:
        fail(f"the log holds {label}: {sensitive[label]!r}")
        failed += 1
    print(f"{len(lines)} JSON log lines ({', '.join(f'{n} {level}' for level, n in sorted(levels.items()))}); "
          f"none holds any of {len(sensitive)} sensitive values" if failed == 0
          else f"{failed} problems in the server's log")
    return 1 if failed else 0


def main(argv):
    commands = {
        "runbooks": (command_runbooks, 2), "names": (command_names, 3), "load": (command_load, 4),
        "trickle": (command_trickle, 2),
        "recorded": (command_recorded, 2), "dashboard": (command_dashboard, 2), "logs": (command_logs, 2),
    }
    if len(argv) < 2 or argv[1] not in commands or len(argv) - 2 != commands[argv[1]][1]:
        print(__doc__, file=sys.stderr)
        return 2
    function, _ = commands[argv[1]]
    return function(*argv[2:])


if __name__ == "__main__":
    random.seed(13)
    sys.exit(main(sys.argv))
