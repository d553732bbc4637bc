#!/usr/bin/env python3
# The layers of src/ only call downwards (docs/design.md): a file includes
# headers of its own folder and of the folders below it, never above, and
# only src/transport/ sees UCX.
#
#   check_layers.py SRC_DIR
import os
import re
import sys

# folder -> the src/ folders its files may include from (besides its own)
BELOW = {
    "core": set(),
    "transport": {"core"},
    "nic": {"core", "transport"},
    "rdma": {"core", "nic"},
    "dpa": {"core", "nic", "rdma"},
    "diag": {"core", "nic"},  # diagnostics of the soft NIC, through its hooks
    "argp": {"core"},
    "flexio": set(),  # libflexio: standalone, beside libdoca_dpa
}
LOCAL = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.M)
SYSTEM = re.compile(r'^\s*#\s*include\s+<(ucp|uct|ucs|ucm)/', re.M)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_layers.py SRC_DIR")
    src, errors, files = sys.argv[1], [], 0
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        if not os.path.isdir(path):
            continue
        if folder not in BELOW:
            errors.append(f"src/{folder}: a folder the layer rules do not know")
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith((".c", ".h")):
                continue
            files += 1
            text = open(os.path.join(path, name), encoding="utf-8").read()
            for used in LOCAL.findall(text):
                if used != folder and used not in BELOW[folder]:
                    errors.append(f"src/{folder}/{name} includes from src/{used}/")
            if folder != "transport" and SYSTEM.search(text):
                errors.append(f"src/{folder}/{name} includes a UCX header")
    print(f"{files} files checked")
    for e in errors:
        print("error:", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
