"""The Kubernetes half of scripts/check-deploy: the manifests under deploy/kubernetes are valid and fit the binary.

    .local/kubernetes-venv/bin/python k8s_check.py ROOT

Run with the virtual environment of scripts/kubernetes/requirements.txt (kubernetes-validate, jsonschema,
PyYAML). For every manifest (each YAML document of every file but the kustomization.yaml files):

- schema: the built-in kinds against the Kubernetes API's schemas of each version in KUBERNETES_VERSIONS
  with kubernetes-validate, strictly (an unknown field fails); ServiceMonitor and PrometheusRule, which it has
  no schema for, against scripts/lib/k8s_crds.py; a Secret fails, since a secret value is never committed;
- settings: every environment variable a container of the service's image is given, one by one or as the
  keys of a ConfigMap it takes whole, is a setting the binary reads (check_deploy.py's reader), the secret
  ones (signing secrets, connection strings) come from a Secret by secretKeyRef, and service links are off
  (they would add TRIP_HISTORY_* variables for the Services);
- wiring: the probes ask /healthz (liveness, startup) and /readyz (readiness) on the API's port, the
  Services' and the ServiceMonitor's ports and selectors reach the pods' ports, no Service publishes the
  metrics port beside the API's, the disruption budget selects the pods, the pods run as a non-root user, and
  terminationGracePeriodSeconds exceeds the preStop pause plus the longest request a drain waits for;
- rules: the PrometheusRule is what scripts/lib/k8s_rules.py generates from deploy/prometheus/rules.yml;
- kustomizations: each lists every manifest of its folder and names only what exists; with kubectl on PATH,
  `kubectl kustomize` renders each and the rendered resources pass the schema check too.

Prints one line per finding and one summary line per part; exits 1 when anything fails.
"""

import pathlib
import re
import shutil
import subprocess
import sys

import jsonschema
import kubernetes_validate
import yaml

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import check_deploy  # noqa: E402
import k8s_crds  # noqa: E402
import k8s_rules  # noqa: E402

# The oldest Kubernetes the manifests need (the preStop sleep action is on by default from 1.30) and the
# newest kubernetes-validate knows.
KUBERNETES_VERSIONS = ["1.30", "1.37"]
# Settings that hold a secret or a password: never a plain value in a manifest or a ConfigMap key.
SECRET_SETTING = re.compile(r"SECRET|DATABASE(?:_READ)?_URL$")
WORKLOADS = {"Deployment", "StatefulSet", "DaemonSet", "Job", "ReplicaSet"}
# The timeouts that bound the requests a drain waits for, and the grace added to a statement's timeout.
REQUEST_LIMITS_MS = ["TRIP_HISTORY_STATEMENT_TIMEOUT_MS", "TRIP_HISTORY_ANALYST_STATEMENT_TIMEOUT_MS",
                     "TRIP_HISTORY_BODY_DEADLINE_MS"]
QUERY_GRACE_MS = "TRIP_HISTORY_QUERY_GRACE_MS"


def name_of(doc):
    return f"{doc.get('kind')}/{(doc.get('metadata') or {}).get('name')}"


def load(root, files):
    """[(file, document)] of every non-empty YAML document of `files`; a file that does not parse fails."""
    documents, problems = [], []
    for file in files:
        try:
            documents += [(file, doc) for doc in yaml.safe_load_all((root / file).read_text(encoding="utf-8")) if doc]
        except yaml.YAMLError as error:
            problems.append(f"{file}: not YAML: {error}")
    return documents, problems


def schema_problems(file, doc):
    """What the API's (or the CRD's) schema says is wrong with `doc`."""
    kind = doc.get("kind") if isinstance(doc, dict) else None
    if kind == "Secret":
        return [f"{file}: {name_of(doc)}: a Secret is never committed; create it by hand (docs/kubernetes.md)"]
    if kind in k8s_crds.SCHEMAS:
        validator = jsonschema.Draft202012Validator(k8s_crds.SCHEMAS[kind])
        return [f"{file}: {name_of(doc)}: {'.'.join(map(str, error.absolute_path))}: {error.message}"
                for error in sorted(validator.iter_errors(doc), key=lambda error: list(map(str, error.path)))]
    problems = []
    for version in KUBERNETES_VERSIONS:
        try:
            kubernetes_validate.validate(doc, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            path = ".".join(map(str, error.path))
            problems.append(f"{file}: {name_of(doc)} against Kubernetes {version}: {path}: {error.message}")
        except (kubernetes_validate.SchemaNotFoundError, kubernetes_validate.InvalidSchemaError) as error:
            problems.append(f"{file}: {name_of(doc)}: {error.message}")
        except (KeyError, TypeError) as error:
            problems.append(f"{file}: not a Kubernetes resource (no {error})")
    return problems


def pod_spec(doc):
    return ((doc.get("spec") or {}).get("template") or {}).get("spec") if doc.get("kind") in WORKLOADS else None


def image_name(image):
    """`registry:5000/trip-history` of `registry:5000/trip-history:1.2@sha256:...`: without tag and digest."""
    image = image.split("@", 1)[0]
    path, _, last = image.rpartition("/")
    return (path + "/" if path else "") + last.split(":", 1)[0]


def service_containers(doc, images):
    """The containers of `doc`'s pods that run the service's image."""
    spec = pod_spec(doc) or {}
    return [container for container in spec.get("initContainers", []) + spec.get("containers", [])
            if image_name(container.get("image", "")) in images]


def config_maps_of(documents):
    """{name: (file, ConfigMap)} of the manifests' ConfigMaps."""
    return {doc["metadata"]["name"]: (file, doc) for file, doc in documents if doc.get("kind") == "ConfigMap"}


def effective_settings(container, config_maps):
    """{setting: value} a container is given: its ConfigMaps' keys, then its plain values (which win)."""
    settings = {}
    for source in container.get("envFrom", []):
        _, config_map = config_maps.get((source.get("configMapRef") or {}).get("name"), (None, {}))
        settings.update(config_map.get("data") or {})
    settings.update({env["name"]: env["value"] for env in container.get("env", []) if "value" in env})
    return settings


def settings_problems(documents, read_settings, images):
    problems, checked = [], set()
    config_maps = config_maps_of(documents)
    for file, doc in documents:
        if service_containers(doc, images) and pod_spec(doc).get("enableServiceLinks") is not False:
            problems.append(f"{file}: {name_of(doc)}: set enableServiceLinks: false, or the Services named "
                            "trip-history give the pods TRIP_HISTORY_PORT=tcp://... and the like")
        for container in service_containers(doc, images):
            where = f"{file}: {name_of(doc)} container {container.get('name')}"
            for source in container.get("envFrom", []):
                if "secretRef" in source:
                    problems.append(f"{where}: envFrom secretRef hides the names it sets; use env with secretKeyRef")
                    continue
                referenced = (source.get("configMapRef") or {}).get("name")
                if referenced not in config_maps:
                    problems.append(f"{where}: envFrom names ConfigMap {referenced}, which no manifest defines")
                    continue
                origin_file, config_map = config_maps[referenced]
                origin = f"ConfigMap {referenced} ({origin_file})"
                for key in (config_map.get("data") or {}):
                    checked.add(key)
                    if key not in read_settings:
                        problems.append(f"{where}: {origin} key {key} is not a setting the binary reads")
                    if SECRET_SETTING.search(key):
                        problems.append(f"{where}: {origin} holds {key}, a secret; use a secretKeyRef")
            for env in container.get("env", []):
                name, origin = env.get("name"), env.get("valueFrom") or {}
                checked.add(name)
                if name not in read_settings:
                    problems.append(f"{where}: {name} is not a setting the binary reads (not in Sources/)")
                if SECRET_SETTING.search(name or "") and "secretKeyRef" not in origin:
                    problems.append(f"{where}: {name} is a secret: give it with valueFrom.secretKeyRef, not a value")
                reference = origin.get("configMapKeyRef")
                keys = config_maps.get((reference or {}).get("name"), (None, {}))[1].get("data") or {}
                if reference and reference.get("key") not in keys:
                    problems.append(f"{where}: {name} reads key {reference.get('key')} of ConfigMap "
                                    f"{reference.get('name')}, which no manifest defines")
    return problems, checked


def selects(selector, labels):
    return bool(selector) and all(labels.get(key) == value for key, value in selector.items())


def container_port(container, port):
    """The containerPort a Service's targetPort or a probe's port (a name or a number) means, or None."""
    for declared in container.get("ports", []):
        if port in (declared.get("name"), declared.get("containerPort")):
            return declared.get("containerPort")
    return port if isinstance(port, int) else None


def service_target(container, port):
    """The containerPort a Service's port entry forwards to, or None."""
    return container_port(container, port.get("targetPort", port.get("port")))


def prestop_seconds(container):
    pre_stop = (container.get("lifecycle") or {}).get("preStop") or {}
    if "sleep" in pre_stop:
        return pre_stop["sleep"].get("seconds")
    command = (pre_stop.get("exec") or {}).get("command") or []
    if command and command[0].rsplit("/", 1)[-1] == "sleep" and len(command) == 2 and command[1].isdigit():
        return int(command[1])
    return None


def wiring_problems(documents, images):
    """Probes, ports, selectors, the drain's timing and the user of each Deployment of the service."""
    problems, summaries = [], []
    config_maps = config_maps_of(documents)
    services = [(file, doc) for file, doc in documents if doc.get("kind") == "Service"]
    for file, deployment in documents:
        containers = service_containers(deployment, images) if deployment.get("kind") == "Deployment" else []
        if not containers:
            continue
        where = f"{file}: {name_of(deployment)}"
        spec, container = pod_spec(deployment), containers[0]
        labels = ((deployment["spec"].get("template") or {}).get("metadata") or {}).get("labels") or {}
        settings = effective_settings(container, config_maps)
        api_port = int(settings.get("TRIP_HISTORY_PORT", 8080))
        metrics_port = None if settings.get("TRIP_HISTORY_METRICS") == "off" else int(
            settings.get("TRIP_HISTORY_METRICS_PORT", 9464))
        declared = {port.get("containerPort") for port in container.get("ports", [])}
        for wanted, what in ((api_port, "the API's"), (metrics_port, "the metrics listener's")):
            if wanted is not None and wanted not in declared:
                problems.append(f"{where}: no containerPort {wanted}, {what} port (TRIP_HISTORY_*PORT)")
        for probe, path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz"), ("startupProbe", "/healthz")):
            get = (container.get(probe) or {}).get("httpGet")
            if get is None:
                if probe != "startupProbe":
                    problems.append(f"{where}: {probe} must be an httpGet of {path}")
                continue
            if get.get("path") != path or container_port(container, get.get("port")) != api_port:
                problems.append(f"{where}: {probe} asks {get.get('path')} on port {get.get('port')}; "
                                f"it must ask {path} on the API's port {api_port}")
        security = {**(spec.get("securityContext") or {}), **(container.get("securityContext") or {})}
        if security.get("runAsNonRoot") is not True or security.get("runAsUser") in (None, 0):
            problems.append(f"{where}: must run as non-root with a numeric runAsUser (the image's user is a name)")
        # The drain: the preStop pause, then the longest request in flight at SIGTERM.
        pause, grace = prestop_seconds(container), spec.get("terminationGracePeriodSeconds", 30)
        missing = [name for name in REQUEST_LIMITS_MS + [QUERY_GRACE_MS] if not str(settings.get(name, "")).isdigit()]
        if pause is None:
            problems.append(f"{where}: needs a preStop sleep, so endpoints are removed before the SIGTERM")
        elif missing:
            problems.append(f"{where}: state {', '.join(missing)} in its ConfigMap, so the drain can be checked")
        else:
            longest = (max(int(settings[name]) for name in REQUEST_LIMITS_MS) + int(settings[QUERY_GRACE_MS])) / 1000
            if grace <= pause + longest:
                problems.append(f"{where}: terminationGracePeriodSeconds {grace} must exceed the preStop pause "
                                f"{pause} s plus the longest request {longest:g} s")
            else:
                summaries.append(f"grace {grace} s > preStop {pause} s + longest request {longest:g} s")
        pods_services = [(service_file, service) for service_file, service in services
                         if selects((service.get("spec") or {}).get("selector"), labels)]
        for service_file, service in pods_services:
            targets = set()
            for port in service["spec"].get("ports", []):
                targets.add(service_target(container, port))
                if service_target(container, port) not in declared:
                    problems.append(f"{service_file}: {name_of(service)} targets port "
                                    f"{port.get('targetPort', port.get('port'))}, which the pods lack")
            if api_port in targets and metrics_port in targets:
                problems.append(f"{service_file}: {name_of(service)} publishes the metrics port beside the API's")
        if not any(api_port in {service_target(container, port) for port in service["spec"].get("ports", [])}
                   for _, service in pods_services):
            problems.append(f"{where}: no Service reaches the API's port {api_port}")
        for budget_file, budget in documents:
            if budget.get("kind") == "PodDisruptionBudget":
                if not selects(((budget.get("spec") or {}).get("selector") or {}).get("matchLabels"), labels):
                    problems.append(f"{budget_file}: {name_of(budget)} does not select {name_of(deployment)}'s pods")
        for monitor_file, monitor in documents:
            if monitor.get("kind") != "ServiceMonitor":
                continue
            selector = ((monitor.get("spec") or {}).get("selector") or {}).get("matchLabels")
            chosen = [service for _, service in pods_services
                      if selects(selector, (service.get("metadata") or {}).get("labels") or {})]
            if not chosen:
                problems.append(f"{monitor_file}: {name_of(monitor)} selects no Service of {name_of(deployment)}")
            for endpoint in monitor["spec"].get("endpoints", []):
                for service in chosen:
                    port = next((port for port in service["spec"].get("ports", [])
                                 if port.get("name") == endpoint.get("port")), None)
                    if port is None or service_target(container, port) != metrics_port:
                        problems.append(f"{monitor_file}: {name_of(monitor)} port {endpoint.get('port')} is not "
                                        f"{name_of(service)}'s port to the metrics listener ({metrics_port})")
                if endpoint.get("path", "/metrics") != "/metrics":
                    problems.append(f"{monitor_file}: {name_of(monitor)} scrapes {endpoint.get('path')}, not /metrics")
    return problems, summaries


def rules_problems(root, documents):
    """The committed PrometheusRule against the one generated from the rules file, as text and as data."""
    output = k8s_rules.OUTPUT
    problems = []
    if subprocess.run([sys.executable, str(pathlib.Path(k8s_rules.__file__)), str(root), "--check"],
                      capture_output=True, text=True).returncode != 0:
        problems.append(f"{output} is not what scripts/lib/k8s_rules.py makes from {k8s_rules.RULES}; "
                        f"run `python3 scripts/lib/k8s_rules.py . --write` (diff: `... --check`)")
    groups = yaml.safe_load((root / k8s_rules.RULES).read_text(encoding="utf-8"))["groups"]
    committed = [doc for file, doc in documents if file == output and doc.get("kind") == "PrometheusRule"]
    if len(committed) != 1 or (committed[0].get("spec") or {}).get("groups") != groups:
        problems.append(f"{output}: its spec.groups are not the groups of {k8s_rules.RULES}")
    return problems, len(groups)


def kustomization_problems(root, kustomizations, validate_rendered):
    """Each kustomization lists its folder's manifests and names only what exists; rendered when kubectl can,
    and the rendered resources validated unless the files' own failures would only be repeated."""
    problems, rendered, kubectl = [], [], shutil.which("kubectl")
    for file in kustomizations:
        folder = (root / file).parent
        listed = (yaml.safe_load((root / file).read_text(encoding="utf-8")) or {}).get("resources") or []
        for entry in listed:
            target = folder / entry
            if not (target.is_file() or (target / "kustomization.yaml").is_file()):
                problems.append(f"{file}: resource {entry} is neither a file nor a folder with a kustomization.yaml")
        for manifest in sorted(folder.glob("*.yaml")):
            if manifest.name != "kustomization.yaml" and manifest.name not in listed:
                problems.append(f"{file}: does not list {manifest.name}, a manifest of its folder")
        if kubectl is None:
            continue
        result = subprocess.run([kubectl, "kustomize", str(folder)], capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            problems.append(f"{file}: kubectl kustomize failed: {result.stderr.strip()}")
            continue
        documents = [doc for doc in yaml.safe_load_all(result.stdout) if doc]
        for doc in documents if validate_rendered else []:
            problems += [f"(rendered) {problem}" for problem in schema_problems(str(folder.relative_to(root)), doc)]
        rendered.append(f"{folder.relative_to(root)} ({len(documents)} resources)")
    return problems, rendered, kubectl is not None


def report(problems, summary):
    for problem in problems:
        print(f"  FAIL  {problem}")
    print(f"  {'ok  ' if not problems else 'FAIL'}  {summary}")
    return bool(problems)


def service_images(root, kustomizations):
    """The names the service's image goes by: the manifests' own and what each kustomization renames it to."""
    names = {"trip-history"}
    for file in kustomizations:
        for image in (yaml.safe_load((root / file).read_text(encoding="utf-8")) or {}).get("images", []):
            names |= {image[key] for key in ("name", "newName") if image.get(key)}
    return names


def main(root):
    files = check_deploy.kubernetes_manifests(root)
    kustomizations = [file for file in files if pathlib.PurePath(file).name == "kustomization.yaml"]
    manifests = [file for file in files if file not in kustomizations]
    documents, problems = load(root, manifests)
    images = service_images(root, kustomizations)
    for file, doc in documents:
        problems += schema_problems(file, doc)
    schema_failed = failed = report(problems, (
        f"{len(documents)} resources in {len(manifests)} files: Kubernetes {' and '.join(KUBERNETES_VERSIONS)} "
        f"schemas (kubernetes-validate {kubernetes_validate.__version__}, strict), k8s_crds.py for the CRDs"))
    problems, checked = settings_problems(documents, check_deploy.settings_the_binary_reads(root), images)
    failed |= report(problems, f"{len(checked)} variables of the service's containers: settings the binary reads, "
                               "secrets by secretKeyRef")
    problems, summaries = wiring_problems(documents, images)
    failed |= report(problems, f"probes, ports, selectors, non-root; drain: {'; '.join(summaries) or 'unchecked'}")
    problems, groups = rules_problems(root, documents)
    failed |= report(problems, f"{k8s_rules.OUTPUT} is generated from {k8s_rules.RULES} ({groups} groups)")
    problems, rendered, has_kubectl = kustomization_problems(root, kustomizations, validate_rendered=not schema_failed)
    failed |= report(problems, "kustomizations list every manifest; " + (
        f"kubectl kustomize renders {', '.join(rendered)}" if has_kubectl
        else "not rendered: kubectl is not installed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1])))
