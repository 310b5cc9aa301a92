#!/usr/bin/env python3
# compare_frontend.py — checks that two tcpc builds print byte-identical ASTs and diagnostics on every tracked .tcp file.
"""Usage: scripts/compare_frontend.py --ref /work/main/build/bin --bin build/bin [FILE...]

Without FILEs it runs over `git ls-files '*.tcp'` and tests/conformance/manual/*. For each file both
builds run `tcpc FILE --emit=ast` (stdout, stderr, exit code) and `tcpc FILE --check` (stderr, exit
code); any difference is printed and the script exits 1. Use it after a grammar or AST-builder change
that must not change behaviour (e.g. a speed-up of the parser).
"""
import argparse
import concurrent.futures
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def stdlib_dir(tcpc):
    """The kernel library directory a tcpc reads (it differs between worktrees)."""
    return subprocess.run([tcpc, "--print-stdlib-dir"], capture_output=True, check=True).stdout.strip()


def outputs(tcpc, path):
    """(emit=ast stdout, stderr, rc) and (b"", check stderr, rc) of one tcpc on one file; paths are
    repo-relative and the stdlib directory reads <stdlib>."""
    lib = stdlib_dir(tcpc)
    res = []
    for args in (["--emit=ast"], ["--check"]):
        p = subprocess.run([tcpc, path] + args, cwd=ROOT, capture_output=True, timeout=600)
        out = p.stdout if args == ["--emit=ast"] else b""
        res.append((out.replace(lib, b"<stdlib>"), p.stderr.replace(lib, b"<stdlib>"), p.returncode))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ref", required=True, help="directory holding the reference tcpc")
    ap.add_argument("--bin", required=True, help="directory holding the tcpc under test")
    ap.add_argument("-j", type=int, default=2, help="parallel files (default 2)")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files
    if not files:
        tracked = subprocess.run(["git", "ls-files", "*.tcp"], cwd=ROOT, capture_output=True, text=True,
                                 check=True).stdout.split()
        manual = sorted(os.path.relpath(f, ROOT) for f in glob.glob(os.path.join(ROOT, "tests/conformance/manual/*")))
        files = sorted(set(tracked) | set(manual))
    ref = os.path.abspath(os.path.join(a.ref, "tcpc"))
    new = os.path.abspath(os.path.join(a.bin, "tcpc"))

    def compare(path):
        r, n = outputs(ref, path), outputs(new, path)
        names = ("--emit=ast", "--check")
        return [f"{path}: {names[i]} differs (exit {r[i][2]} vs {n[i][2]})" for i in range(2) if r[i] != n[i]]

    bad = 0
    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        for diffs in pool.map(compare, files):
            for d in diffs:
                print(d)
                bad += 1
    print(f"{len(files)} files, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
