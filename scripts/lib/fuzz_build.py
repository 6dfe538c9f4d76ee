#!/usr/bin/env python3
"""Builds libFuzzer executables (scripts/fuzz) from the debug build SwiftPM already made.

Rebuilding every dependency with `-sanitize=fuzzer` in a separate build path costs a cold build of swift-nio,
swift-crypto and the rest. Coverage guidance only needs the code under test instrumented, so this recompiles
just TripHistoryDomain and TripHistoryAPI (whole-module, instrumented) with the exact compiler arguments SwiftPM
recorded in .build/debug.yaml, and links each target against the debug build's other object files.

    fuzz_build.py BUILD_DIR OUT_DIR TARGET_SOURCE...

BUILD_DIR is `swift build --show-bin-path`; each TARGET_SOURCE (fuzz/Targets/NAME.swift) becomes OUT_DIR/NAME.
"""

import json
import os
import re
import subprocess
import sys

INSTRUMENTED = ["TripHistoryDomain", "TripHistoryAPI"]
# Arguments of SwiftPM's incremental, batch-mode compile that a one-shot whole-module compile does not take.
DROPPED_FLAGS = {
    "-emit-dependencies", "-incremental", "-enable-batch-mode", "-serialize-diagnostics", "-parseable-output",
    "-emit-objc-header", "-emit-module",
}
DROPPED_WITH_VALUE = {"-output-file-map", "-index-store-path", "-emit-objc-header-path", "-emit-module-path",
                      "-module-cache-path"}


def recorded_commands(build_dir):
    """The `args` of every command in debug.yaml, by command name."""
    # BUILD_DIR is .build/<triple>/debug; SwiftPM writes the manifest next to the triple's folder.
    manifest = os.path.normpath(os.path.join(os.path.realpath(build_dir), "..", "..", "debug.yaml"))
    if not os.path.exists(manifest):
        sys.exit(f"fuzz_build: no {manifest}; build the debug configuration first")
    commands, current = {}, None
    with open(manifest, encoding="utf-8") as handle:
        for line in handle:
            header = re.match(r'^  "([^"]+)":\s*$', line)
            if header:
                current = header.group(1)
            elif current and line.startswith("    args: "):
                commands[current] = json.loads(line[len("    args: "):])
    return commands


def find(commands, pattern):
    matches = [args for name, args in commands.items() if re.fullmatch(pattern, name)]
    if len(matches) != 1:
        sys.exit(f"fuzz_build: expected one command matching {pattern} in debug.yaml, found {len(matches)}")
    return matches[0]


def compile_args(recorded, out_dir, module_cache):
    """SwiftPM's arguments for a module, turned into an instrumented whole-module compile into OUT_DIR."""
    args, skip = [], False
    for index, arg in enumerate(recorded):
        if skip:
            skip = False
            continue
        if arg in DROPPED_FLAGS or re.fullmatch(r"-j\d+", arg):
            continue
        if arg in DROPPED_WITH_VALUE:
            skip = True
            continue
        if arg == "-I" and index + 1 < len(recorded) and recorded[index + 1].endswith("/Modules"):
            args += ["-I", os.path.join(out_dir, "Modules")]
        args.append(arg)
    return args + ["-module-cache-path", module_cache, "-sanitize=fuzzer", "-wmo", "-num-threads", "0"]


def run(args):
    print("fuzz_build:", " ".join(args[:3]), "...", flush=True)
    if subprocess.run(args, check=False).returncode != 0:
        sys.exit(f"fuzz_build: failed: {' '.join(args)}")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    build_dir, out_dir, targets = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2]), sys.argv[3:]
    os.makedirs(os.path.join(out_dir, "Modules"), exist_ok=True)
    module_cache = os.path.join(out_dir, "ModuleCache")
    commands = recorded_commands(build_dir)
    triple = r"[^\"]*-debug"

    objects = []
    api_args = None
    for module in INSTRUMENTED:
        recorded = find(commands, rf"C\.{module}-{triple}\.module")
        args = compile_args(recorded, out_dir, module_cache)
        module_path = os.path.join(out_dir, "Modules", f"{module}.swiftmodule")
        obj = os.path.join(out_dir, f"{module}.o")
        run(args + ["-emit-module", "-emit-module-path", module_path, "-o", obj])
        objects.append(obj)
        api_args = args

    # The harnesses take the API module's search paths, C module maps and language settings.
    harness_flags, skip = [], False
    for arg in api_args:
        if skip:
            harness_flags.append(arg)
            skip = False
        elif arg in ("-I", "-Xcc", "-target", "-swift-version", "-enable-upcoming-feature", "-module-cache-path"):
            harness_flags.append(arg)
            skip = True
        elif arg.startswith("-D") or arg in ("-g", "-Onone", "-sanitize=fuzzer"):
            harness_flags.append(arg)

    link = find(commands, rf"C\.trip-history-{triple}\.exe")
    link_list = next(arg[1:] for arg in link if arg.startswith("@") and arg.endswith("Objects.LinkFileList"))
    excluded = ("/trip_history.build/",) + tuple(f"/{module}.build/" for module in INSTRUMENTED)
    with open(link_list, encoding="utf-8") as handle:
        # Kept as written (quoted where a name holds a space), since the list goes back into a response file.
        dependency_objects = [line.strip() for line in handle if line.strip()]
    dependency_objects = [path for path in dependency_objects if not any(part in path for part in excluded)]
    # SwiftPM's link arguments without its output, object list, module name and `main` alias: libFuzzer
    # brings its own `main`.
    link_flags, index = [], 0
    while index < len(link):
        arg = link[index]
        following = link[index + 1] if index + 1 < len(link) else ""
        defines_main = arg == "-Xlinker" and (following == "--defsym" or following.startswith("main="))
        if arg in ("-o", "-module-name") or defines_main:
            index += 2
            continue
        if not (arg.startswith("@") or arg == "-emit-executable"):
            link_flags.append(arg)
        index += 1
    objects_file = os.path.join(out_dir, "objects.txt")
    with open(objects_file, "w", encoding="utf-8") as handle:
        handle.write("\n".join([f"'{path}'" for path in objects] + dependency_objects) + "\n")

    for source in targets:
        name = os.path.splitext(os.path.basename(source))[0]
        module_name = "Fuzz" + re.sub(r"[^A-Za-z0-9]", "", name.title())
        harness = os.path.join(out_dir, f"{name}.harness.o")
        run([link[0], "-c", source, "-parse-as-library", "-module-name", module_name, "-o", harness] + harness_flags)
        run(link_flags[:1] + ["-emit-executable", "-sanitize=fuzzer", "-module-name", module_name, "-o",
                              os.path.join(out_dir, name), harness, f"@{objects_file}"] + link_flags[1:])


if __name__ == "__main__":
    main()
