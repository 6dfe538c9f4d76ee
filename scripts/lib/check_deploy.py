"""The static half of scripts/check-deploy: the deployment files name only what the image and binary have.

    python3 check_deploy.py ROOT

For the Dockerfile, each compose file (docker-compose.yml, .cluster.yml, .shards.yml) and each Kubernetes
manifest (deploy/kubernetes/**/*.yaml):

- every `TRIP_HISTORY_*` (and `DATABASE_*`) setting it names must be read by the binary: the name appears
  in a Swift file under Sources/ (where each setting is read, or documented in the help of its flag);
- every path under the image's application directory (the final stage's WORKDIR, /app) that it names must
  be one the Dockerfile puts there: the directory itself and what its final stage copies into it, following
  `COPY --from=STAGE` back to the files that stage's `cp ... ./` commands put in the copied directory.

Prints one line per finding and a summary; exits 1 when anything is named that does not exist. Plain text
matching rather than a YAML parser, so it needs nothing beyond Python's standard library. scripts/lib/k8s_check.py
imports its readers (settings_the_binary_reads, image_layout) for the checks of the manifests' structure.
"""

import pathlib
import re
import shlex
import sys

COMPOSE_FILES = ["docker-compose.yml", "docker-compose.cluster.yml", "docker-compose.shards.yml"]
KUBERNETES_DIR = "deploy/kubernetes"
SETTING = re.compile(r"\b(?:TRIP_HISTORY|DATABASE)_[A-Z0-9_]*[A-Z0-9]\b")


def dockerfile_stages(text):
    """[(name, [(instruction, arguments)])] of each stage, continuation lines joined, comments dropped."""
    stages = []
    logical = re.sub(r"\\\n", " ", "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")))
    for line in logical.splitlines():
        words = line.strip().split(None, 1)
        if not words:
            continue
        instruction, arguments = words[0].upper(), (words[1] if len(words) > 1 else "")
        if instruction == "FROM":
            alias = re.search(r"\bAS\s+(\S+)", arguments, re.IGNORECASE)
            stages.append((alias.group(1) if alias else str(len(stages)), []))
        elif stages:
            stages[-1][1].append((instruction, arguments))
    return stages


def stage_paths(stages):
    """The absolute paths each stage is known to hold: WORKDIRs, COPY targets and `cp SOURCE ./` results."""
    held = {}
    for name, instructions in stages:
        paths, workdir = set(), "/"
        for instruction, arguments in instructions:
            if instruction == "WORKDIR":
                workdir = str(pathlib.PurePosixPath(workdir, arguments.strip()))
                paths.add(workdir)
            elif instruction == "COPY":
                words = [word for word in shlex.split(arguments) if not word.startswith("--")]
                origin = re.search(r"--from=(\S+)", arguments)
                *sources, target = words
                target = str(pathlib.PurePosixPath(workdir, target))
                paths.add(target)
                if origin and origin.group(1) in held:
                    for source in sources:
                        for path in held[origin.group(1)]:
                            if path.startswith(source.rstrip("/") + "/"):
                                paths.add(target + path[len(source.rstrip("/")) :])
            elif instruction == "RUN":
                # `cp [-options] SOURCE ./` or `cp SOURCE ./NAME`, one per `&&`-separated command.
                for command in arguments.split("&&"):
                    found = re.match(r"\s*cp\s+(?:-\S+\s+)*(\"[^\"]*\"|\S+)\s+(\S+)\s*$", command)
                    if not found:
                        continue
                    source, target = found.group(1).strip('"'), found.group(2)
                    base = source.rstrip("/").rsplit("/", 1)[-1]
                    if target in (".", "./") or target.endswith("/"):
                        paths.add(str(pathlib.PurePosixPath(workdir, target, base)))
                    else:
                        paths.add(str(pathlib.PurePosixPath(workdir, target)))
        held[name] = paths
    return held


def settings_the_binary_reads(root):
    """Every `TRIP_HISTORY_*` and `DATABASE_*` name that appears in a Swift file under Sources/."""
    sources = "\n".join(path.read_text(encoding="utf-8") for path in (root / "Sources").rglob("*.swift"))
    return set(SETTING.findall(sources))


def image_layout(root):
    """(the image's application directory, the paths the image holds), from the Dockerfile's final stage."""
    stages = dockerfile_stages((root / "Dockerfile").read_text(encoding="utf-8"))
    final_name, final = stages[-1]
    workdirs = [arguments.strip() for instruction, arguments in final if instruction == "WORKDIR"]
    return (workdirs[-1] if workdirs else "/app"), stage_paths(stages)[final_name]


def kubernetes_manifests(root):
    """The YAML files under deploy/kubernetes, relative to `root`, in a stable order."""
    folder = root / KUBERNETES_DIR
    return sorted(str(path.relative_to(root)) for path in folder.rglob("*.y*ml")) if folder.is_dir() else []


def main(root):
    read_settings = settings_the_binary_reads(root)
    app_dir, image_paths = image_layout(root)
    path_pattern = re.compile(re.escape(app_dir) + r"(?:/[A-Za-z0-9._-]+)*")
    manifests = kubernetes_manifests(root)

    problems, settings_checked, paths_checked = [], set(), set()
    for file in ["Dockerfile"] + COMPOSE_FILES + manifests:
        text = (root / file).read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            for setting in SETTING.findall(line):
                settings_checked.add(setting)
                if setting not in read_settings:
                    problems.append(f"{file}:{number}: {setting} is not a setting the binary reads (not in Sources/)")
            if file == "Dockerfile":
                continue
            for match in path_pattern.finditer(line):
                # Only whole paths: not the tail of a longer one (/usr/app/x) or part of a URL.
                if match.start() > 0 and line[match.start() - 1] not in " \t\"'[=:,(":
                    continue
                path = match.group(0).rstrip(".")
                paths_checked.add(path)
                if path not in image_paths:
                    problems.append(f"{file}:{number}: {path} is not in the image (the Dockerfile does not put it there)")
    for problem in problems:
        print(f"  FAIL  {problem}")
    print(
        f"  {'ok  ' if not problems else 'FAIL'}  {len(settings_checked)} settings and {len(paths_checked)} paths under "
        f"{app_dir} named by the Dockerfile, {', '.join(COMPOSE_FILES)} and {len(manifests)} files under "
        f"{KUBERNETES_DIR}; the image has {', '.join(sorted(image_paths))}"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1])))
