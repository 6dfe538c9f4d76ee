"""JSON schemas of the two Prometheus Operator resources deploy/kubernetes uses (monitoring.coreos.com/v1),
which kubernetes-validate has no schema for: ServiceMonitor and PrometheusRule.

Written for this check from the fields the operator's CRDs define, with their types, patterns and required
fields, and strict where the manifests have fields: a field not listed here fails the check, so a misspelt
one is caught; add it here once the CRD has it. Nested objects the manifests do not use (TLS, authorization,
relabelings) are only checked to be objects.
"""

DURATION = {
    "type": "string",
    "pattern": r"^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$",
}
STRING = {"type": "string"}
STRINGS = {"type": "array", "items": STRING}
STRING_MAP = {"type": "object", "additionalProperties": STRING}
INT_OR_STRING = {"anyOf": [{"type": "integer"}, {"type": "string"}]}
OBJECT = {"type": "object"}


def strict(properties, required=()):
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}


LABEL_SELECTOR = strict({
    "matchLabels": STRING_MAP,
    "matchExpressions": {"type": "array", "items": strict({
        "key": STRING,
        "operator": {"enum": ["In", "NotIn", "Exists", "DoesNotExist"]},
        "values": STRINGS,
    }, required=["key", "operator"])},
})

METADATA = strict({"name": STRING, "namespace": STRING, "labels": STRING_MAP, "annotations": STRING_MAP},
                  required=["name"])


def resource(kind, spec):
    return strict({
        "apiVersion": {"const": "monitoring.coreos.com/v1"},
        "kind": {"const": kind},
        "metadata": METADATA,
        "spec": spec,
    }, required=["apiVersion", "kind", "metadata", "spec"])


ENDPOINT = strict({
    "port": STRING,
    "targetPort": INT_OR_STRING,
    "path": STRING,
    "scheme": {"enum": ["http", "https", "HTTP", "HTTPS"]},
    "interval": DURATION,
    "scrapeTimeout": DURATION,
    "honorLabels": {"type": "boolean"},
    "honorTimestamps": {"type": "boolean"},
    "followRedirects": {"type": "boolean"},
    "enableHttp2": {"type": "boolean"},
    "params": {"type": "object", "additionalProperties": STRINGS},
    "relabelings": {"type": "array", "items": OBJECT},
    "metricRelabelings": {"type": "array", "items": OBJECT},
    "tlsConfig": OBJECT,
    "authorization": OBJECT,
    "bearerTokenSecret": OBJECT,
})

RULE = {
    **strict({
        "record": STRING,
        "alert": STRING,
        "expr": INT_OR_STRING,
        "for": DURATION,
        "keep_firing_for": {**DURATION, "minLength": 1},
        "labels": STRING_MAP,
        "annotations": STRING_MAP,
    }, required=["expr"]),
    # Exactly one of record and alert.
    "oneOf": [{"required": ["record"]}, {"required": ["alert"]}],
}

SCHEMAS = {
    "ServiceMonitor": resource("ServiceMonitor", strict({
        "endpoints": {"type": "array", "minItems": 1, "items": ENDPOINT},
        "selector": LABEL_SELECTOR,
        "namespaceSelector": strict({"any": {"type": "boolean"}, "matchNames": STRINGS}),
        "jobLabel": STRING,
        "targetLabels": STRINGS,
        "podTargetLabels": STRINGS,
        "sampleLimit": {"type": "integer"},
        "targetLimit": {"type": "integer"},
    }, required=["endpoints", "selector"])),
    "PrometheusRule": resource("PrometheusRule", strict({
        "groups": {"type": "array", "items": strict({
            "name": {"type": "string", "minLength": 1},
            "interval": DURATION,
            "limit": {"type": "integer"},
            "query_offset": DURATION,
            "partial_response_strategy": {"type": "string", "pattern": "^((?i:abort|warn))?$"},
            "labels": STRING_MAP,
            "rules": {"type": "array", "items": RULE},
        }, required=["name"])},
    })),
}
