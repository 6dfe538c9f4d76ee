"""A minimal OTLP/HTTP trace receiver for scripts/test-traces.

Listens on 127.0.0.1:PORT, accepts POST /v1/traces with an ExportTraceServiceRequest in protobuf, answers
with an empty ExportTraceServiceResponse, and appends one JSON line per span to OUT: trace and span ids in
hex, the parent span id, the name, the kind, and the attributes as strings.

    python receiver.py PORT OUT
"""

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)


def attribute_value(value):
    kind = value.WhichOneof("value")
    return str(getattr(value, kind)) if kind else ""


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path != "/v1/traces":
            self.send_response(404)
            self.end_headers()
            return
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        lines = []
        for resource_spans in request.resource_spans:
            service = {a.key: attribute_value(a.value) for a in resource_spans.resource.attributes}
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    lines.append(
                        json.dumps(
                            {
                                "trace_id": span.trace_id.hex(),
                                "span_id": span.span_id.hex(),
                                "parent_span_id": span.parent_span_id.hex(),
                                "name": span.name,
                                "kind": span.kind,
                                "service": service.get("service.name", ""),
                                "attributes": {a.key: attribute_value(a.value) for a in span.attributes},
                            }
                        )
                    )
        with open(self.server.out, "a", encoding="utf-8") as out:
            for line in lines:
                out.write(line + "\n")
        reply = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


def main():
    port, out = int(sys.argv[1]), sys.argv[2]
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.out = out
    server.serve_forever()


if __name__ == "__main__":
    main()
