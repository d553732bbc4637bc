#!/usr/bin/env python3
# Every function of the DOCA version softdoca follows (doca_3_3_functions.txt)
# is declared by softdoca's headers for the default API generation, in the
# header DOCA declares it in: a program that includes that header alone
# finds it (as a function or a static inline).
#
#   check_api_coverage.py CLANG INCLUDE_DIR FUNCTION_LIST
import json
import os
import subprocess
import sys
import tempfile


def functions_of(clang, include_dir, header):
    """Names of every doca_* function a TU including only `header` sees."""
    with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as tu:
        tu.write(f"#include <{header}>\n")
    try:
        run = subprocess.run(
            [clang, "-fsyntax-only", "-I", include_dir, "-DDOCA_ALLOW_EXPERIMENTAL_API",
             "-Xclang", "-ast-dump=json", tu.name], capture_output=True, text=True)
    finally:
        os.unlink(tu.name)
    if run.returncode != 0:
        return None, run.stderr.strip().splitlines()[:5]
    found = set()

    def walk(node):
        if node.get("kind") == "FunctionDecl" and node.get("name", "").startswith("doca_"):
            found.add(node["name"])
        for child in node.get("inner", []):
            walk(child)

    walk(json.loads(run.stdout))
    return found, []


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: check_api_coverage.py CLANG INCLUDE_DIR FUNCTION_LIST")
    clang, include_dir, listing = sys.argv[1:]
    wanted = {}
    for line in open(listing, encoding="utf-8"):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        wanted.setdefault(fields[0], []).append(fields[1])
    errors, total = [], 0
    for header, names in sorted(wanted.items()):
        if not os.path.exists(os.path.join(include_dir, header)):
            errors.append(f"{header}: not shipped ({len(names)} functions: {', '.join(names[:3])}...)")
            continue
        found, problems = functions_of(clang, include_dir, header)
        if found is None:
            errors.append(f"{header}: does not compile alone: {' | '.join(problems)}")
            continue
        for name in names:
            total += 1
            if name not in found:
                errors.append(f"{header}: {name} is not declared")
    print(f"{total} functions of {len(wanted)} headers checked against {os.path.basename(listing)}")
    for e in errors:
        print("error:", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
