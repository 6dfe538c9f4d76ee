"""Checks the spans a receiver wrote (scripts/traces/receiver.py) for scripts/test-traces.

    python check.py SPANS READ_TRACE EARLY_TRACE FORBIDDEN...

SPANS holds one JSON span per line. Checks that READ_TRACE (a read the router answered) holds exactly one
server span with a client span (a statement) descending from it, that EARLY_TRACE (a read the early-read
handler answered) holds exactly one server span, both with the rider list's route, and that no span's name
or attribute holds any of the FORBIDDEN strings (bound values, tokens). Prints what failed and exits 1 when
anything did.
"""

import json
import sys


SERVER, CLIENT = 2, 3
ROUTE = "/v1/riders/{rider_id}/trips"


def request_span(spans, trace_id, failures):
    """The one server span of the trace, or None (and a failure) when there is not exactly one."""
    servers = [s for s in spans if s["trace_id"] == trace_id and s["kind"] == SERVER]
    if len(servers) != 1:
        failures.append(f"trace {trace_id}: {len(servers)} server spans, expected 1")
        return None
    request = servers[0]
    if request["attributes"].get("http.route") != ROUTE:
        failures.append(f"request span has http.route {request['attributes'].get('http.route')!r}")
    print(f"request span {request['name']!r}: {request['attributes']}")
    return request


def main():
    path, read_trace, early_trace, forbidden = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    with open(path, encoding="utf-8") as spans_file:
        spans = [json.loads(line) for line in spans_file if line.strip()]
    failures = []
    trace = [s for s in spans if s["trace_id"] == read_trace]
    request_span(spans, early_trace, failures)
    request = request_span(spans, read_trace, failures)
    if request:
        by_id = {s["span_id"]: s for s in trace}

        def descends(span):
            parent = span["parent_span_id"]
            while parent:
                if parent == request["span_id"]:
                    return True
                parent = by_id.get(parent, {}).get("parent_span_id", "")
            return False

        statements = [s for s in trace if s["kind"] == CLIENT and descends(s)]
        if not statements:
            failures.append(f"trace {read_trace}: no statement span under the request span {request['name']}")
        else:
            print(f"statement spans under it: {[(s['name'], s['attributes']) for s in statements]}")
    for span in spans:
        texts = [span["name"]] + [f"{k}={v}" for k, v in span["attributes"].items()]
        for text in texts:
            for value in forbidden:
                if value in text:
                    failures.append(f"span {span['name']} carries {value!r} in {text!r}")
    for failure in failures:
        print(failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
