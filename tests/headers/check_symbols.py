#!/usr/bin/env python3
# Every function a public header declares, for every API generation, is
# exported by a softdoca library: a program that compiles against the headers
# also links. Declarations come from clang's AST (so the per-generation symbol
# names that the headers select with asm labels are what is checked), the
# exports from `nm -D --defined-only`.
#
#   check_symbols.py CLANG INCLUDE_DIR LIB.so...
import subprocess
import sys

from api_decls import API_VERSIONS, declared


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
            name = decls[symbol].name
            print(f"  missing: {symbol}" + ("" if symbol == name else f" (declared as {name})"))
        missing += len(absent)
    if missing:
        sys.exit(f"{missing} declared functions are not exported by {', '.join(libs)}")


if __name__ == "__main__":
    main()
