#!/usr/bin/env python3
"""Fault-injection driver for scripts/test-faults, standard library only.

Runs a mixed load against a formation of scripts/lib/cluster.sh (two instances behind haproxy) for a bounded
time while a scheduler, driven by --seed alone, injects faults one at a time: kill -9 or SIGSTOP/SIGCONT of
the primary's or the standby's PostgreSQL, the standby's walreceiver stalled, a fast restart of a node's
PostgreSQL (its keeper starts it again), kill -9 of an instance (restarted) or SIGSTOP/SIGCONT of one.

The load: trip POSTs through the proxy with an Idempotency-Key (retried with the same key on 503, 409,
connection errors and proxy errors, as clients are told to) and without one (sent once), adjustments (a fare
correction of +1, always keyed and retried the same way) of trips acknowledged earlier in the run, and rider
list reads on both instances directly. Every request and response and every fault goes to the history file (JSON
lines). Afterwards it waits for the formation and the instances to recover, reads the trips back from the
final primary and checks the history:

  - every acknowledged trip (201) is stored exactly once, with the id it was acknowledged with;
  - every acknowledged adjustment is stored exactly once, on the trip it was sent for, and none twice;
  - no operation is stored more than once (a key never makes two trips; a POST sent once never two);
  - every keyed operation was acknowledged in the end;
  - every response is 2xx, 409 to a keyed retry (its twin still settling), or 503 with Retry-After;
  - connection errors (and haproxy's 502/504, its word for an instance that died under a request) only while
    an instance was down or stopped;
  - no rider read missed a trip acknowledged before the read was sent.

Each check is written to --results as `ok|FAIL<TAB>name` lines; exit status 0 when all hold.
"""

import argparse
import datetime
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

FAULTS = [
    "kill-primary", "kill-standby", "stop-primary", "stop-standby", "stall-walreceiver",
    "restart-primary", "restart-standby", "kill-instance", "stop-instance",
]
# An instance fault's window stays open this long after the instance answers again: a reset noticed on the
# next request over a connection the fault broke is still the fault's.
INSTANCE_GRACE = 1.5


class History:
    """The history file: one JSON object a line, appended under a lock."""

    def __init__(self, path):
        self.handle = open(path, "w")
        self.lock = threading.Lock()
        self.records = []

    def add(self, record):
        with self.lock:
            self.records.append(record)
            self.handle.write(json.dumps(record, sort_keys=True) + "\n")
            self.handle.flush()

    def close(self):
        self.handle.close()


class Client:
    """One keep-alive connection, dropped after any error; a request is never sent twice by this class."""

    def __init__(self, base, timeout):
        url = urllib.parse.urlsplit(base)
        self.host, self.port, self.timeout = url.hostname, url.port or 80, timeout
        self.conn = None

    def request(self, method, path, headers, body=None):
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
            if response.getheader("Connection", "").lower() == "close":
                self.close()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, data, None
        except ConnectionRefusedError:
            error = "refused"
        except (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected):
            error = "reset"
        except (socket.timeout, TimeoutError):
            error = "timeout"
        except (OSError, http.client.HTTPException) as other:
            error = "other: %s" % other
        self.close()
        return None, {}, b"", error

    def close(self):
        if self.conn is not None:
            self.conn.close()
        self.conn = None


def trip_body(rider, marker):
    # Recent instants, so a new trip is on its rider's first page (newest first); the marker in the pickup
    # address tells the stored rows of each operation apart.
    requested = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=30)
    started = requested + datetime.timedelta(minutes=4)
    completed = started + datetime.timedelta(minutes=20)
    fmt = "%Y-%m-%dT%H:%M:%S.%fZ"
    return json.dumps({
        "rider_id": str(rider), "status": "completed", "product": "standard", "city": "Paris",
        "time_zone": "Europe/Paris", "requested_at": requested.strftime(fmt),
        "started_at": started.strftime(fmt), "completed_at": completed.strftime(fmt),
        "pickup": {"lat": 48.8566, "lon": 2.3522, "address": marker},
        "dropoff": {"lat": 48.8738, "lon": 2.2950, "address": "Place Charles de Gaulle, Paris"},
        "distance_m": 5200, "duration_s": 1200, "fare": {"amount_minor": 1850, "currency": "EUR"},
    })


class Formation:
    """The nodes as the monitor has them, their processes, and the instances' processes."""

    def __init__(self, args):
        self.args = args

    def psql(self, port, database, sql, timeout=5):
        env = dict(os.environ, PGCONNECT_TIMEOUT="3")
        try:
            out = subprocess.run(
                [os.path.join(self.args.pg_bin, "psql"), "-X", "-q", "-A", "-t", "-F", "\t", "-h", "127.0.0.1",
                 "-p", str(port), "-U", "postgres", "-d", database, "-c", sql],
                capture_output=True, text=True, timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            return None
        return out.stdout if out.returncode == 0 else None

    def node_port(self, name):
        return self.args.db_port + (1 if name == "node1" else 2)

    def nodes(self):
        """{name: (reported state, goal state)}, empty when the monitor does not answer."""
        out = self.psql(self.args.db_port, "pg_auto_failover",
                        "SELECT nodename, reportedstate, goalstate FROM pgautofailover.node ORDER BY nodename")
        result = {}
        for line in (out or "").splitlines():
            name, reported, goal = line.split("\t")
            result[name] = (reported, goal)
        return result

    def in_recovery(self, name):
        out = self.psql(self.node_port(name), "postgres", "SELECT pg_is_in_recovery()", timeout=3)
        return None if out is None else out.strip()

    def roles(self):
        """(primary, standby) names when the formation is settled, else None."""
        nodes = self.nodes()
        primary = [n for n, (r, g) in nodes.items() if r == g == "primary"]
        standby = [n for n, (r, g) in nodes.items() if r == g == "secondary"]
        if len(primary) == 1 and len(standby) == 1:
            if self.in_recovery(primary[0]) == "f" and self.in_recovery(standby[0]) == "t":
                return primary[0], standby[0]
        return None

    def postmaster(self, name):
        try:
            with open(os.path.join(self.args.dir, name, "postmaster.pid")) as handle:
                pid = int(handle.readline())
            os.kill(pid, 0)
            return pid
        except (OSError, ValueError):
            return None

    @staticmethod
    def children(pid):
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % entry) as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
        return found

    def postgres_processes(self, name):
        pid = self.postmaster(name)
        return [] if pid is None else [pid] + self.children(pid)

    def walreceiver(self, name):
        pid = self.postmaster(name)
        for child in self.children(pid) if pid else []:
            try:
                with open("/proc/%d/cmdline" % child, "rb") as handle:
                    if b"walreceiver" in handle.read():
                        return child
            except OSError:
                continue
        return None

    def instance_pid(self, index):
        try:
            with open(os.path.join(self.args.dir, "run", "instance%d.pid" % index)) as handle:
                pid = int(handle.read().strip())
            os.kill(pid, 0)
            return pid
        except (OSError, ValueError):
            return None

    def instance_ready(self, index):
        client = Client(self.args.instance[index - 1], 2)
        status, _, _, _ = client.request("GET", "/readyz", {})
        client.close()
        return status == 200

    def restart_instances(self):
        """Starts the instances that are not running (cl_instances_up) and waits until they are ready; None
        when done, else what went wrong."""
        root = self.args.root
        script = ('source "$1/scripts/lib/common.sh"; source "$1/scripts/lib/postgres.sh"; '
                  'source "$1/scripts/lib/cluster.sh"; cl_init "$2" "$3" "$4" 2 && cl_instances_up "$5"')
        try:
            done = subprocess.run(
                ["bash", "-c", script, "restart", root, self.args.dir, str(self.args.db_port),
                 str(self.args.http_port), self.args.bin],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                timeout=90)
            return None if done.returncode == 0 else "exit status %d: %s" % (done.returncode, done.stderr[-500:])
        except subprocess.TimeoutExpired:
            return "cl_instances_up still running after 90 s"

    def wait_settled(self, deadline):
        while time.time() < deadline:
            if self.roles() and all(self.instance_ready(i) for i in (1, 2)):
                return True
            time.sleep(0.3)
        return False


def signal_all(pids, signum):
    for pid in pids:
        try:
            os.kill(pid, signum)
        except OSError:
            pass


class Scheduler:
    """Injects one fault at a time, chosen by a generator seeded with --seed alone."""

    def __init__(self, args, formation, history, stop_at):
        self.args, self.formation, self.history = args, formation, history
        self.rng = random.Random(args.seed)
        self.stop_at = stop_at
        self.stopped = []  # processes under SIGSTOP, continued on any exit
        self.instance_windows = []  # (index, start, end) while an instance was down or stopped
        self.lock = threading.Lock()
        self.count = 0
        self.errors = []

    def release(self):
        with self.lock:
            signal_all(self.stopped, signal.SIGCONT)
            self.stopped = []

    def pause(self, pids, seconds):
        with self.lock:
            self.stopped = list(pids)
        signal_all(pids, signal.SIGSTOP)
        time.sleep(seconds)
        self.release()

    def run(self):
        time.sleep(self.rng.uniform(2, 4))
        while time.time() < self.stop_at - 2:
            kind = self.rng.choice(self.args.kinds)
            # Drawn whether used or not, so the sequence depends on the seed only.
            seconds = round(self.rng.uniform(1, 4), 2)
            instance = self.rng.choice([1, 2])
            gap = self.rng.uniform(1, 3)
            settled = time.time() + 60
            if not self.formation.wait_settled(min(settled, self.stop_at)):
                break
            self.inject(kind, seconds, instance)
            time.sleep(gap)

    def inject(self, kind, seconds, instance):
        roles = self.formation.roles()
        if roles is None:
            return
        primary, standby = roles
        node = primary if kind.endswith("primary") else standby
        record = {"type": "fault", "fault": kind, "start": time.time()}
        self.count += 1
        if kind in ("kill-primary", "kill-standby"):
            pids = self.formation.postgres_processes(node)
            signal_all(pids, signal.SIGKILL)
            record.update(node=node, pids=pids)
        elif kind in ("stop-primary", "stop-standby"):
            pids = self.formation.postgres_processes(node)
            record.update(node=node, pids=pids, seconds=seconds)
            self.pause(pids, seconds)
        elif kind == "stall-walreceiver":
            pid = self.formation.walreceiver(standby)
            record.update(node=standby, pids=[pid] if pid else [], seconds=round(seconds + 1, 2))
            if pid:
                self.pause([pid], seconds + 1)
        elif kind in ("restart-primary", "restart-standby"):
            record.update(node=node)
            command = [os.path.join(self.args.pg_bin, "pg_ctl"), "-D", os.path.join(self.args.dir, node),
                       "stop", "-m", "fast", "-w", "-t", "30"]
            if os.geteuid() == 0:
                command = ["runuser", "-u", "postgres", "--"] + command
            subprocess.run(command, cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=40)
        elif kind == "kill-instance":
            pid = self.formation.instance_pid(instance)
            record.update(instance=instance, pids=[pid] if pid else [])
            if pid:
                os.kill(pid, signal.SIGKILL)
            time.sleep(min(seconds, 2))
            # Until its parent (init here) reaps it, the killed process still answers kill -0, and
            # cl_instances_up would take it for running.
            deadline = time.time() + 15
            while self.formation.instance_pid(instance) is not None and time.time() < deadline:
                time.sleep(0.1)
            failure = self.formation.restart_instances()
            if failure:
                self.errors.append("instance %d did not restart: %s" % (instance, failure))
        elif kind == "stop-instance":
            pid = self.formation.instance_pid(instance)
            record.update(instance=instance, pids=[pid] if pid else [], seconds=seconds)
            if pid:
                self.pause([pid], seconds)
        record["end"] = time.time()
        if "instance" in record:
            deadline = time.time() + 60
            while not self.formation.instance_ready(instance) and time.time() < deadline:
                time.sleep(0.1)
            record["ready"] = time.time()
            self.instance_windows.append((instance, record["start"], record["ready"] + INSTANCE_GRACE))
        self.history.add(record)
        print("fault %d at +%.1f s: %s" % (self.count, record["start"] - self.args.started, json.dumps(
            {k: v for k, v in record.items() if k not in ("type", "start", "end", "ready")})), flush=True)


class Load:
    def __init__(self, args, history, stop_at, riders):
        self.args, self.history, self.stop_at = args, history, stop_at
        self.riders = riders
        self.rider_ids = sorted(riders)
        self.lock = threading.Lock()
        self.sequence = 0
        self.ops = {}  # op id -> operation
        self.adjustments = {}  # op id -> adjustment operation
        self.latest_riders = []
        self.acked_trips = []  # (rider, trip) of the last acknowledged trips, which adjustments pick from
        self.give_up_at = stop_at + args.settle_seconds

    def next_op(self, keyed):
        with self.lock:
            self.sequence += 1
            number = self.sequence
        rider = self.rider_ids[number % len(self.rider_ids)]
        op = {"op": number, "keyed": keyed, "rider": rider, "marker": "fault-op %s-%d" % (self.args.run_id, number),
              "key": ("faults-%s-%d" % (self.args.run_id, number)) if keyed else None, "acked": None, "trip": None}
        with self.lock:
            self.ops[number] = op
        return op

    def record(self, kind, target, op, sent, status, headers, data, error, extra=None):
        record = {"type": kind, "target": target, "sent": sent, "received": time.time(), "status": status,
                  "error": error, "retry_after": headers.get("retry-after"),
                  "request_id": headers.get("x-request-id")}
        if op is not None:
            record.update(op=op["op"], key=op["key"], rider=op["rider"])
        if status is not None and not (200 <= status < 300):
            record["body"] = data[:300].decode(errors="replace")
        record.update(extra or {})
        self.history.add(record)
        return record

    def post(self, client, op):
        headers = {"Authorization": "Bearer " + self.args.service_token, "Content-Type": "application/json"}
        if op["key"]:
            headers["Idempotency-Key"] = op["key"]
        body = trip_body(op["rider"], op["marker"])
        while True:
            sent = time.time()
            status, response_headers, data, error = client.request("POST", "/v1/trips", headers, body)
            trip = None
            if status == 201:
                try:
                    trip = int(json.loads(data)["id"])
                except (ValueError, KeyError, TypeError):
                    trip = None
            self.record("write", "proxy", op, sent, status, response_headers, data, error,
                        {"trip": trip, "replayed": response_headers.get("idempotent-replayed")})
            if status == 201 and trip is not None:
                with self.lock:
                    op["acked"], op["trip"] = time.time(), trip
                    self.latest_riders = (self.latest_riders + [op["rider"]])[-20:]
                    self.acked_trips = (self.acked_trips + [(op["rider"], trip)])[-50:]
                return
            if not self.retry(op["keyed"], status, response_headers):
                return

    def retry(self, keyed, status, response_headers):
        """Whether to send a request again (with its key), after waiting as the answer asks."""
        retryable = status in (None, 409, 502, 503, 504)
        if not keyed or not retryable or time.time() > self.give_up_at:
            if retryable:
                time.sleep(0.2)
            return False
        try:
            wait = min(float(response_headers.get("retry-after", "0.2")), 1.0)
        except ValueError:
            wait = 0.2
        time.sleep(max(wait, 0.1))
        return True

    def adjust(self, client, rng):
        """One keyed fare correction of a trip acknowledged earlier, retried with its key until acknowledged."""
        with self.lock:
            if not self.acked_trips:
                choice = None
            else:
                choice = rng.choice(self.acked_trips)
                self.sequence += 1
                number = self.sequence
        if choice is None:
            time.sleep(0.1)
            return
        rider, trip = choice
        op = {"op": number, "keyed": True, "rider": rider, "trip": trip, "acked": None,
              "marker": "fault-adj %s-%d" % (self.args.run_id, number),
              "key": "faults-adj-%s-%d" % (self.args.run_id, number)}
        with self.lock:
            self.adjustments[number] = op
        headers = {"Authorization": "Bearer " + self.args.service_token, "Content-Type": "application/json",
                   "Idempotency-Key": op["key"]}
        body = json.dumps({"kind": "fare_correction", "amount_minor": 1, "reason": op["marker"]})
        path = "/v1/riders/%d/trips/%d/adjustments" % (rider, trip)
        while True:
            sent = time.time()
            status, response_headers, data, error = client.request("POST", path, headers, body)
            self.record("write", "proxy", op, sent, status, response_headers, data, error,
                        {"adjustment": True, "trip": trip, "replayed": response_headers.get("idempotent-replayed")})
            if status == 201:
                with self.lock:
                    op["acked"] = time.time()
                return
            if not self.retry(True, status, response_headers):
                return

    def adjuster(self, seed):
        rng = random.Random(seed)
        client = Client(self.args.proxy, self.args.timeout)
        while time.time() < self.stop_at:
            self.adjust(client, rng)
        client.close()

    def writer(self, keyed):
        client = Client(self.args.proxy, self.args.timeout)
        while time.time() < self.stop_at:
            if not keyed:
                # A fresh connection each time, so nothing below this driver can resend a POST without a key.
                client.close()
            self.post(client, self.next_op(keyed))
        client.close()

    def reader(self, seed):
        rng = random.Random(seed)
        clients = [Client(base, self.args.timeout) for base in self.args.instance]
        while time.time() < self.stop_at:
            with self.lock:
                recent = list(self.latest_riders)
            rider = rng.choice(recent) if recent and rng.random() < 0.8 else rng.choice(self.rider_ids)
            index = rng.choice([1, 2])
            self.read(clients[index - 1], index, rider)
        for client in clients:
            client.close()

    def read(self, client, index, rider):
        headers = {"Authorization": "Bearer " + self.riders[rider]}
        sent = time.time()
        ids, cursor, pages = [], None, 0
        while True:
            path = "/v1/riders/%d/trips?limit=100" % rider
            if cursor:
                path += "&cursor=" + urllib.parse.quote(cursor)
            page_sent = time.time()
            status, response_headers, data, error = client.request("GET", path, headers)
            pages += 1
            if status != 200:
                self.record("read", "instance%d" % index, None, page_sent, status, response_headers, data, error,
                            {"rider": rider, "page": pages})
                if status is None or status == 503:
                    time.sleep(0.1)
                return
            body = json.loads(data)
            ids += [int(trip["id"]) for trip in body["data"]]
            cursor = body.get("page", {}).get("next_cursor")
            if not body.get("page", {}).get("has_more") or not cursor or pages >= 5:
                break
        self.record("read", "instance%d" % index, None, sent, 200, response_headers, b"", None,
                    {"rider": rider, "ids": ids, "complete": not body.get("page", {}).get("has_more")})

    def run(self):
        # Daemons, so an interrupted run exits without waiting for their bounded loops.
        threads = [threading.Thread(target=self.writer, args=(True,), daemon=True) for _ in range(2)]
        threads.append(threading.Thread(target=self.writer, args=(False,), daemon=True))
        threads.append(threading.Thread(target=self.adjuster, args=(self.args.seed * 10 + 9,), daemon=True))
        threads += [threading.Thread(target=self.reader, args=(self.args.seed * 10 + n,), daemon=True)
                    for n in range(2)]
        for thread in threads:
            thread.start()
        return threads


def read_tokens(path):
    tokens = {}
    with open(path) as handle:
        for line in handle:
            rider, token = line.rstrip("\n").split("\t")
            tokens[int(rider)] = token
    return tokens


def stored_markers(formation, primary, sql):
    """{marker: [ids]} from `sql`'s rows (a marker, then ids joined by commas) on the final primary, or None
    when it does not answer."""
    out = formation.psql(formation.node_port(primary), formation.args.database, sql, timeout=30)
    if out is None:
        return None
    return {marker: [int(i) for i in ids.split(",")]
            for marker, ids in (line.split("\t") for line in out.splitlines() if line)}


def stored_trips(formation, primary, run_id):
    """{marker: [trip ids]} for this run's trips."""
    return stored_markers(
        formation, primary, "SELECT pickup_address, string_agg(id::text, ',' ORDER BY id) FROM trips "
        "WHERE pickup_address LIKE 'fault-op %s-%%' GROUP BY pickup_address" % run_id)


def stored_adjustments(formation, primary, run_id):
    """{marker: [trip ids]} for this run's adjustments: the trips they were stored on."""
    return stored_markers(
        formation, primary, "SELECT reason, string_agg(trip_id::text, ',' ORDER BY id) FROM trip_adjustments "
        "WHERE reason LIKE 'fault-adj %s-%%' GROUP BY reason" % run_id)


def in_window(windows, start, end, index=None):
    return any((index is None or index == i) and start <= w_end and end >= w_start
               for i, w_start, w_end in windows)


def check_history(load, scheduler, stored, stored_adjusted):
    """[(ok, name, details)] over the history, the stored trips and the stored adjustments."""
    results = []
    ops = list(load.ops.values())
    acked = [op for op in ops if op["acked"] is not None]

    lost = [] if stored is not None else ["the final primary did not answer"]
    for op in acked if stored is not None else []:
        ids = stored.get(op["marker"], [])
        if ids != [op["trip"]]:
            lost.append({"op": op["op"], "key": op["key"], "acknowledged_id": op["trip"], "stored_ids": ids})
    results.append((not lost, "every acknowledged trip stored exactly once with its id (%d acknowledged)"
                    % len(acked), lost[:10]))

    twice = [{"op": op["op"], "key": op["key"], "stored_ids": stored.get(op["marker"])}
             for op in ops if stored is not None and len(stored.get(op["marker"], [])) > 1]
    results.append((stored is not None and not twice,
                    "no operation stored more than once (%d with a key, %d without)"
                    % (sum(op["keyed"] for op in ops), sum(not op["keyed"] for op in ops)), twice[:10]))

    adjustments = list(load.adjustments.values())
    wrong = [] if stored_adjusted is not None else ["the final primary did not answer"]
    for op in adjustments if stored_adjusted is not None else []:
        stored_on = stored_adjusted.get(op["marker"], [])
        if (op["acked"] is not None and stored_on != [op["trip"]]) or len(stored_on) > 1:
            wrong.append({"op": op["op"], "key": op["key"], "trip": op["trip"], "stored_on": stored_on})
    results.append((not wrong and bool(adjustments),
                    "every acknowledged adjustment stored exactly once on its trip, none twice (%d sent, %d "
                    "acknowledged)" % (len(adjustments), sum(op["acked"] is not None for op in adjustments)),
                    wrong[:10]))

    unresolved = [op["op"] for op in ops + adjustments if op["keyed"] and op["acked"] is None]
    results.append((not unresolved, "every keyed operation acknowledged in the end (retried with its key)",
                    unresolved[:20]))

    requests = [r for r in load.history.records if r["type"] in ("write", "read")]
    bad_status, errors_outside, errors_inside = [], [], 0
    for r in requests:
        status = r["status"]
        proxy_error = r["target"] == "proxy" and status in (502, 504)
        if status is None or proxy_error:
            index = int(r["target"][-1]) if r["target"].startswith("instance") else None
            if in_window(scheduler.instance_windows, r["sent"], r["received"], index):
                errors_inside += 1
            else:
                errors_outside.append({k: r.get(k) for k in ("type", "target", "sent", "status", "error", "op")})
            continue
        if 200 <= status < 300 or (status == 409 and r.get("key")):
            continue
        if status == 503 and r.get("retry_after"):
            continue
        bad_status.append({k: r.get(k) for k in ("type", "target", "sent", "status", "op", "key", "body",
                                                 "request_id")})
    results.append((not bad_status, "every response 2xx, 409 to a keyed retry, or 503 with Retry-After "
                    "(%d responses)" % sum(r["status"] is not None for r in requests), bad_status[:10]))
    results.append((not errors_outside, "connection errors and proxy 502/504 only while an instance was down "
                    "(%d inside fault windows)" % errors_inside, errors_outside[:10]))

    acks_by_rider = {}
    for op in acked:
        acks_by_rider.setdefault(op["rider"], []).append((op["acked"], op["trip"]))
    stale, checked = [], 0
    for r in requests:
        if r["type"] != "read" or r["status"] != 200 or not r.get("complete", True):
            continue
        checked += 1
        present = set(r["ids"])
        missing = [trip for acked_at, trip in acks_by_rider.get(r["rider"], [])
                   if acked_at < r["sent"] and trip not in present]
        if missing:
            stale.append({"target": r["target"], "rider": r["rider"], "sent": r["sent"], "missing": missing,
                          "request_id": r.get("request_id")})
    results.append((not stale, "no rider read missed a trip acknowledged before it was sent (%d reads)"
                    % checked, stale[:10]))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--proxy", required=True)
    parser.add_argument("--instance", action="append", required=True, help="base URL, twice")
    parser.add_argument("--service-token", required=True)
    parser.add_argument("--rider-tokens", required=True, help="file of 'rider<TAB>token' lines")
    parser.add_argument("--dir", required=True, help="the topology's directory (cl_init)")
    parser.add_argument("--db-port", type=int, required=True, help="the monitor's port; nodes on the next two")
    parser.add_argument("--http-port", type=int, required=True, help="the proxy's port; instances on the next two")
    parser.add_argument("--pg-bin", required=True)
    parser.add_argument("--bin", required=True, help="trip-history, to restart a killed instance")
    parser.add_argument("--root", required=True, help="the checkout")
    parser.add_argument("--database", default="trip_history")
    parser.add_argument("--history", required=True)
    parser.add_argument("--results", required=True)
    parser.add_argument("--only", type=lambda text: [kind for kind in text.split(",") if kind],
                        help="comma-separated fault kinds to choose from (default: all of %s)" % ", ".join(FAULTS))
    parser.add_argument("--except", dest="excluded", type=lambda text: [kind for kind in text.split(",") if kind],
                        help="comma-separated fault kinds never to choose")
    parser.add_argument("--timeout", type=float, default=15, help="per request, seconds")
    parser.add_argument("--settle-seconds", type=float, default=45,
                        help="after the load, how long keyed operations are retried and the formation may settle")
    args = parser.parse_args()
    args.run_id = "%d-%d" % (args.seed, os.getpid())
    unknown = set((args.only or []) + (args.excluded or [])) - set(FAULTS)
    if unknown:
        parser.error("unknown fault kinds: %s" % ", ".join(sorted(unknown)))
    args.kinds = [kind for kind in (args.only or FAULTS) if kind not in (args.excluded or [])]
    if not args.kinds:
        parser.error("--only and --except leave no fault kind")

    riders = read_tokens(args.rider_tokens)
    history = History(args.history)
    formation = Formation(args)
    args.started = time.time()
    stop_at = args.started + args.seconds
    history.add({"type": "run", "seed": args.seed, "seconds": args.seconds, "start": args.started})
    scheduler = Scheduler(args, formation, history, stop_at)
    load = Load(args, history, stop_at, riders)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: (scheduler.release(), sys.exit(130)))
    try:
        threads = load.run()
        scheduler.run()
        for thread in threads:
            thread.join()
    finally:
        scheduler.release()

    # Whatever the last fault left: the instances restarted, the formation settled, then the final primary.
    if not all(formation.instance_pid(i) for i in (1, 2)):
        formation.restart_instances()
    settled = formation.wait_settled(time.time() + args.settle_seconds)
    roles = formation.roles()
    stored = stored_trips(formation, roles[0], args.run_id) if roles else None
    stored_adjusted = stored_adjustments(formation, roles[0], args.run_id) if roles else None
    history.add({"type": "end", "time": time.time(), "settled": settled, "roles": roles})
    history.close()

    ops = list(load.ops.values())
    requests = [r for r in history.records if r["type"] in ("write", "read")]
    statuses = {}
    for r in requests:
        name = "%s %s" % (r["type"], r["status"] if r["status"] is not None else r["error"].split(":")[0])
        statuses[name] = statuses.get(name, 0) + 1
    adjustments = list(load.adjustments.values())
    print("seed %d: %d requests in %.0f s, %d operations (%d acknowledged), %d adjustments (%d acknowledged), "
          "%d faults; %s" % (
              args.seed, len(requests), args.seconds, len(ops), sum(op["acked"] is not None for op in ops),
              len(adjustments), sum(op["acked"] is not None for op in adjustments), scheduler.count,
              json.dumps(dict(sorted(statuses.items())))), flush=True)

    # Per fault, the longest time without an acknowledged write from the fault until the next one (or the
    # end of the load): how long writes were unavailable, whatever a write in flight at the fault did.
    acks = sorted(r["received"] for r in requests if r["type"] == "write" and r["status"] == 201)
    faults = [r for r in history.records if r["type"] == "fault"]
    for number, fault in enumerate(faults):
        until = max(faults[number + 1]["start"] if number + 1 < len(faults) else stop_at, fault["start"])
        points = [fault["start"]] + [t for t in acks if fault["start"] < t < until] + [until]
        print("  %-17s at +%5.1f s: longest time without an acknowledged write until the next fault %.1f s" % (
            fault["fault"], fault["start"] - args.started, max(b - a for a, b in zip(points, points[1:]))))

    results = check_history(load, scheduler, stored, stored_adjusted)
    results.append((not scheduler.errors, "every fault injected and undone", scheduler.errors))
    results.append((scheduler.count > 0, "at least one fault injected (%d)" % scheduler.count, []))
    with open(args.results, "w") as handle:
        for ok, name, details in results:
            handle.write("%s\t%s\n" % ("ok" if ok else "FAIL", name))
            print("%s  %s" % ("ok  " if ok else "FAIL", name))
            if not ok and details:
                print("      " + json.dumps(details)[:2000])
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
