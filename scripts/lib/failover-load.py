#!/usr/bin/env python3
"""Load and checks for scripts/test-failover and bench/cluster, standard library only.

  load       mixed rider reads and trip writes through BASE until STOP_FILE appears (or --max-seconds);
             a write that gets 503 is retried with the same Idempotency-Key, as a client would. Prints a JSON
             summary: statuses, transport errors, the first write acknowledged after the time in
             EVENT_FILE (written by the caller when it stops a node), and whether every acknowledged trip
             is readable afterwards with the id it was acknowledged with.
  coherence  N rounds of: read rider R's first page on instance B (cached there), record a trip through
             instance A, read the first page on B again at once; a read that misses the new trip is polled
             until it includes it (failing at --settle-seconds); counts the reads stale at once.
  read-your-writes
             N rounds of: record a trip of rider R through instance A, then read R's first page at once on A
             and on B (each caches it, so the next round also checks that the cached page was replaced); a
             read that misses the new trip counts as a miss, never polled. Then waits --settle-seconds and
             prints the first page as each instance serves it (cached) and one of 99 trips each computes, for
             the caller to compare with the database.

Exit status 0 when the checks hold, 1 otherwise; the JSON goes to stdout either way.
"""

import argparse
import datetime
import http.client
import itertools
import json
import os
import random
import sys
import threading
import time
import urllib.parse


def trip_body(rider):
    # Recent instants, so the new trip is on the rider's first page (newest first).
    requested = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=30)
    started = requested + datetime.timedelta(minutes=4)
    completed = started + datetime.timedelta(minutes=20)
    fmt = "%Y-%m-%dT%H:%M:%S.%fZ"
    return json.dumps({
        "rider_id": str(rider), "status": "completed", "product": "standard", "city": "Paris",
        "time_zone": "Europe/Paris", "requested_at": requested.strftime(fmt),
        "started_at": started.strftime(fmt), "completed_at": completed.strftime(fmt),
        "pickup": {"lat": 48.8566, "lon": 2.3522, "address": "1 Rue de Rivoli, Paris"},
        "dropoff": {"lat": 48.8738, "lon": 2.2950, "address": "Place Charles de Gaulle, Paris"},
        "distance_m": 5200, "duration_s": 1200, "fare": {"amount_minor": 1850, "currency": "EUR"},
    })


class Client:
    """One keep-alive HTTP connection, reopened after any transport error."""

    def __init__(self, base, timeout):
        url = urllib.parse.urlsplit(base)
        self.host, self.port, self.timeout = url.hostname, url.port or 80, timeout
        self.conn = None

    def request(self, method, path, token, body=None, headers=None):
        all_headers = {"Authorization": "Bearer " + token}
        if body is not None:
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        reused = self.conn is not None
        result = self._send(method, path, body, all_headers)
        # A kept-alive connection the server closed while idle fails on reuse; that is no answer to judge,
        # so the request goes once more on a new connection (a repeated POST carries its Idempotency-Key).
        if result[0] is None and reused:
            result = self._send(method, path, body, all_headers)
        return result

    def _send(self, method, path, body, all_headers):
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            self.conn.request(method, path, body=body, headers=all_headers)
            response = self.conn.getresponse()
            data = response.read()
            if response.getheader("Connection", "").lower() == "close":
                self.conn.close()
                self.conn = None
            return response.status, dict(response.getheaders()), data
        except (OSError, http.client.HTTPException) as error:
            if self.conn is not None:
                self.conn.close()
            self.conn = None
            return None, {}, str(error).encode()


def read_tokens(path):
    tokens = {}
    with open(path) as handle:
        for line in handle:
            rider, token = line.rstrip("\n").split("\t")
            tokens[int(rider)] = token
    return tokens


def load(args):
    riders = read_tokens(args.rider_tokens)
    rider_ids = sorted(riders)
    lock = threading.Lock()
    statuses = {}
    transport_errors = []
    missing_retry_after = [0]
    acknowledged = []  # (rider, trip id, key, acknowledged attempt sent at, acknowledged at)
    sequence = itertools.count(1)
    stop_at = time.time() + args.max_seconds
    prefix = "%s-%d" % (args.key_prefix, os.getpid())

    def stopped():
        return os.path.exists(args.stop_file) or time.time() > stop_at

    def count(kind, status, headers):
        with lock:
            statuses.setdefault(kind, {}).setdefault(str(status), 0)
            statuses[kind][str(status)] += 1
            if status == 503 and "retry-after" not in {k.lower() for k in headers}:
                missing_retry_after[0] += 1

    def writer():
        client = Client(args.base, args.timeout)
        while not stopped():
            number = next(sequence)
            rider = rider_ids[number % len(rider_ids)]
            key = "%s-%d" % (prefix, number)
            body = trip_body(rider)
            while True:
                sent = time.time()
                status, headers, data = client.request(
                    "POST", "/v1/trips", args.service_token, body, {"Idempotency-Key": key})
                if status is None:
                    with lock:
                        transport_errors.append(data.decode(errors="replace"))
                    time.sleep(0.1)
                    continue
                count("write", status, headers)
                if status == 503 and not stopped():
                    time.sleep(0.1)
                    continue
                if status == 201:
                    trip = json.loads(data)
                    with lock:
                        acknowledged.append((rider, trip["id"], key, sent, time.time()))
                break
            if args.progress_file and status == 201:
                with lock:
                    progress = len(acknowledged)
                    # The latest send time of an acknowledged write, so a caller can tell when a write sent
                    # after an event was acknowledged.
                    latest = max(entry[3] for entry in acknowledged)
                    with open(args.progress_file + ".tmp", "w") as handle:
                        handle.write("%d %f\n" % (progress, latest))
                    os.replace(args.progress_file + ".tmp", args.progress_file)

    def reader():
        client = Client(args.base, args.timeout)
        while not stopped():
            rider = random.choice(rider_ids)
            status, headers, data = client.request(
                "GET", "/v1/riders/%d/trips?limit=10" % rider, riders[rider])
            if status is None:
                with lock:
                    transport_errors.append(data.decode(errors="replace"))
                time.sleep(0.1)
                continue
            count("read", status, headers)
            if status == 503:
                time.sleep(0.05)

    threads = [threading.Thread(target=writer) for _ in range(args.writers)]
    threads += [threading.Thread(target=reader) for _ in range(args.readers)]
    started = time.time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.time() - started

    event = None
    if args.event_file and os.path.exists(args.event_file):
        with open(args.event_file) as handle:
            event = float(handle.read().split()[0])
    first_after = None
    if event is not None:
        # Acknowledged writes sent after the event; one sent before it and answered after says nothing.
        after = [acked for (_, _, _, sent, acked) in acknowledged if sent > event]
        first_after = (min(after) - event) if after else None

    # Every acknowledged trip must be readable with the id it was acknowledged with; a 503 while the
    # formation settles is retried until the deadline.
    client = Client(args.base, args.timeout)
    lost = []
    deadline = time.time() + args.verify_seconds
    for rider, trip_id, key, _, _ in acknowledged:
        while True:
            status, _, _ = client.request("GET", "/v1/riders/%d/trips/%s" % (rider, trip_id), riders[rider])
            if status == 200:
                break
            if status in (None, 503) and time.time() < deadline:
                time.sleep(0.2)
                continue
            lost.append({"rider": rider, "trip": trip_id, "key": key, "status": status})
            break

    unexpected = {
        kind: {status: n for status, n in counts.items() if not (status.startswith("2") or status == "503")}
        for kind, counts in statuses.items()
    }
    unexpected = {kind: counts for kind, counts in unexpected.items() if counts}
    summary = {
        "seconds": round(elapsed, 2),
        "statuses": statuses,
        "acknowledged_trips": len(acknowledged),
        "lost_trips": lost,
        "unexpected_statuses": unexpected,
        "transport_errors": len(transport_errors),
        "transport_error_samples": transport_errors[:3],
        "responses_503_without_retry_after": missing_retry_after[0],
        "first_write_after_event_seconds": None if first_after is None else round(first_after, 3),
    }
    print(json.dumps(summary, indent=2))
    ok = (not lost and not unexpected and not transport_errors and missing_retry_after[0] == 0
          and acknowledged and (event is None or first_after is not None))
    return 0 if ok else 1


def coherence(args):
    riders = read_tokens(args.rider_tokens)
    rider = sorted(riders)[0]
    token = riders[rider]
    writer, reader = Client(args.base, args.timeout), Client(args.read_base, args.timeout)
    misses, failures = [], []
    path = "/v1/riders/%d/trips?limit=5" % rider
    for round_number in range(args.rounds):
        status, _, _ = reader.request("GET", path, token)
        if status != 200:
            failures.append({"round": round_number, "step": "prime", "status": status})
            continue
        key = "%s-%d-%d" % (args.key_prefix, os.getpid(), round_number)
        status, _, data = writer.request(
            "POST", "/v1/trips", args.service_token, trip_body(rider), {"Idempotency-Key": key})
        if status != 201:
            failures.append({"round": round_number, "step": "write", "status": status})
            continue
        trip_id = json.loads(data)["id"]
        status, _, data = reader.request("GET", path, token)
        if status != 200:
            failures.append({"round": round_number, "step": "read", "status": status})
            continue
        if trip_id in [trip["id"] for trip in json.loads(data)["data"]]:
            continue
        # Stale at once: the reader's cached page predates the notification's arrival there. It must be
        # replaced once the notification arrives; polled until the deadline.
        deadline = time.time() + args.settle_seconds
        while time.time() < deadline:
            status, _, data = reader.request("GET", path, token)
            if status == 200 and trip_id in [trip["id"] for trip in json.loads(data)["data"]]:
                misses.append({"round": round_number, "trip": trip_id, "fresh_after_seconds":
                               round(args.settle_seconds - (deadline - time.time()), 3)})
                break
            time.sleep(0.01)
        else:
            failures.append({"round": round_number, "step": "stale until the deadline", "trip": trip_id})
    summary = {"rounds": args.rounds, "stale_at_once": misses, "failures": failures}
    print(json.dumps(summary, indent=2))
    return 0 if not failures and (args.allow_stale_at_once or not misses) else 1


def read_your_writes(args):
    riders = read_tokens(args.rider_tokens)
    rider = sorted(riders)[0]
    token = riders[rider]
    clients = {"A": Client(args.base, args.timeout), "B": Client(args.read_base, args.timeout)}
    misses, failures, written = [], [], []

    def page(name, round_number, step, limit=100):
        status, _, data = clients[name].request("GET", "/v1/riders/%d/trips?limit=%d" % (rider, limit), token)
        if status != 200:
            failures.append({"round": round_number, "step": step, "instance": name, "status": status})
            return None
        return [trip["id"] for trip in json.loads(data)["data"]]

    for name in clients:
        page(name, -1, "prime")
    for round_number in range(args.rounds):
        key = "%s-%d-%d" % (args.key_prefix, os.getpid(), round_number)
        status, _, data = clients["A"].request(
            "POST", "/v1/trips", args.service_token, trip_body(rider), {"Idempotency-Key": key})
        if status != 201:
            failures.append({"round": round_number, "step": "write", "status": status})
            continue
        trip_id = json.loads(data)["id"]
        written.append(trip_id)
        for name in clients:
            ids = page(name, round_number, "read")
            if ids is not None and trip_id not in ids:
                misses.append({"round": round_number, "instance": name, "trip": trip_id})
    time.sleep(args.settle_seconds)
    final = {name: page(name, args.rounds, "final") for name in clients}
    # A page no round asked for is computed now, not served from a cache.
    computed = {name: page(name, args.rounds, "final computed", limit=99) for name in clients}
    summary = {"rounds": args.rounds, "rider": rider, "written": written, "misses": misses,
               "failures": failures, "final_pages": final, "final_computed_pages": computed}
    print(json.dumps(summary, indent=2))
    return 0 if not misses and not failures else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["load", "coherence", "read-your-writes"])
    parser.add_argument("--base", required=True)
    parser.add_argument("--read-base", help="coherence, read-your-writes: the instance that reads")
    parser.add_argument("--service-token", required=True)
    parser.add_argument("--rider-tokens", required=True, help="file of 'rider<TAB>token' lines")
    parser.add_argument("--writers", type=int, default=2)
    parser.add_argument("--readers", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=120)
    parser.add_argument("--verify-seconds", type=float, default=60)
    parser.add_argument("--timeout", type=float, default=10, help="per request, seconds")
    parser.add_argument("--stop-file", default="/nonexistent")
    parser.add_argument("--event-file")
    parser.add_argument("--progress-file")
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--key-prefix", default="load")
    parser.add_argument("--settle-seconds", type=float, default=5,
                        help="coherence: how long a stale page may take to be replaced; read-your-writes: the "
                        "wait before the final pages")
    parser.add_argument("--allow-stale-at-once", action="store_true",
                        help="coherence: count, rather than fail on, reads stale at once that are replaced in time")
    args = parser.parse_args()
    modes = {"load": load, "coherence": coherence, "read-your-writes": read_your_writes}
    sys.exit(modes[args.mode](args))


if __name__ == "__main__":
    main()
