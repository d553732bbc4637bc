# The functions softdoca's public headers declare, per API generation, from
# clang's AST: the name a program calls, the symbol it links to (the headers
# pick per-generation symbols with asm labels), and whether it returns a
# doca_error_t. Used by check_symbols.py and check_compatibility.py.
import json
import os
import subprocess
import tempfile
from typing import NamedTuple

API_VERSIONS = (300, 205, 202)
API_NAMES = {300: "3.0", 205: "2.5", 202: "2.2"}


class Decl(NamedTuple):
    name: str
    returns_error: bool


def declared(clang, include_dir, api):
    """{symbol: Decl} of the out-of-line functions the headers declare."""
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
            inline_body = any(i.get("kind") == "CompoundStmt" for i in node.get("inner", []))
            if (name.startswith(("doca_", "softdoca_")) and not inline_body
                    and node.get("storageClass") != "static"):
                symbol = node.get("mangledName", name).lstrip("\x01")
                qual = node.get("type", {}).get("qualType", "")
                found[symbol] = Decl(name, qual.startswith("doca_error_t"))
        for child in node.get("inner", []):
            walk(child)

    walk(json.loads(ast))
    return found
