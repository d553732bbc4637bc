#!/usr/bin/env python3
# Every function a public header declares, for every API generation, is
# exported by a softdoca library: a program that compiles against the headers
# also links. Declarations come from clang's AST (so the per-generation symbol
# names that the headers select with asm labels are what is checked), the
# exports from `nm -D --defined-only`.
#
#   check_symbols.py CLANG INCLUDE_DIR LIB.so...
import json
import os
import subprocess
import sys
import tempfile

API_VERSIONS = (300, 205, 202)


def declared(clang, include_dir, api):
    """{symbol: name} of the out-of-line functions the headers declare."""
    headers = sorted(h for h in os.listdir(include_dir) if h.endswith(".h"))
    with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as tu:
        tu.write("".join(f"#include <{h}>\n" for h in headers))
    try:
        ast = subprocess.run(
            [clang, "-fsyntax-only", "-I", include_dir, "-DDOCA_ALLOW_EXPERIMENTAL_API",
             f"-DSOFTDOCA_API_VERSION={api}", "-Xclang", "-ast-dump=json", tu.name],
            check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(tu.name)
    found = {}

    def walk(node):
        if node.get("kind") == "FunctionDecl":
            name = node.get("name", "")
            inner = node.get("inner", [])
            inline_body = any(i.get("kind") == "CompoundStmt" for i in inner)
            if (name.startswith(("doca_", "softdoca_")) and not inline_body
                    and node.get("storageClass") != "static"):
                symbol = node.get("mangledName", name).lstrip("\x01")
                found[symbol] = name
        for child in node.get("inner", []):
            walk(child)

    walk(json.loads(ast))
    return found


def exported(libs):
    out = subprocess.run(["nm", "-D", "--defined-only", *libs], check=True,
                         capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines()
            if len(line.split()) == 3 and line.split()[1] in "TtWiV"}


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__ or "usage: check_symbols.py CLANG INCLUDE_DIR LIB.so...")
    clang, include_dir, libs = sys.argv[1], sys.argv[2], sys.argv[3:]
    have = exported(libs)
    missing = 0
    for api in API_VERSIONS:
        decls = declared(clang, include_dir, api)
        absent = sorted(s for s in decls if s not in have)
        print(f"API {api}: {len(decls)} functions declared, {len(decls) - len(absent)} exported")
        for symbol in absent:
            print(f"  missing: {symbol}" + ("" if symbol == decls[symbol]
                                              else f" (declared as {decls[symbol]})"))
        missing += len(absent)
    if missing:
        sys.exit(f"{missing} declared functions are not exported by {', '.join(libs)}")


if __name__ == "__main__":
    main()
