#!/usr/bin/env python3
# mutation_probe.py — finds programs that check but compute wrong results: mutates the #[device] kernels of .tcp files, runs the variants that `tcpc --check` accepts in `tcpi`, lists the failures.
"""Usage: scripts/mutation_probe.py [--bin build/bin] [--mode numbers|swap|ops] FILE...

Each FILE must run clean in tcpi (a sample or a golden whose RUN is tcpi and that checks its result
against an answer key). For every mutation inside its `#[device]` kernels
  numbers  each integer n becomes n / 2, 2 n and n + 1
  swap     adjacent top-level terms of each m![...] change places
  ops      one ` / ` of an m![...] becomes ` % ` or the reverse
the variant goes through `tcpc --check`; a variant that checks is run by tcpi, and a run that fails
is printed with its first error. Read each one: a changed constant or tile start honestly changes
the answer, but a variant that checks and then writes or reads the wrong elements is a gap in the
checker (see the note of the stop that added this script). Variants are written to the current
directory (`mutant.tcp`), so modules next to FILE are not found: run it on self-contained files.
"""
import argparse
import os
import re
import subprocess
import sys


def kernel_lines(src):
    """Line numbers (0-based) inside #[device] functions: from the attribute to the closing `}` at column 0."""
    lines, i = [], 0
    while i < len(src):
        if src[i].startswith('#[device'):
            j = i + 1
            while j < len(src) and not src[j].startswith('}'):
                lines.append(j)
                j += 1
            i = j
        i += 1
    return lines


def top_terms(body):
    out, depth, cur = [], 0, ''
    for ch in body:
        depth += ch in '[({'
        depth -= ch in '])}'
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    out.append(cur.strip())
    return out


def mutants(line, mode):
    if mode == 'numbers':
        for m in re.finditer(r'(?<![\w.])(\d+)(?![\w.])', line):
            n = int(m.group(1))
            for v in sorted({n // 2, n * 2, n + 1} - {n}):
                yield line[:m.start()] + str(v) + line[m.end():]
    elif mode == 'swap':
        for m in re.finditer(r'm!\[([^\[\]]*)\]', line):
            ts = top_terms(m.group(1))
            for k in range(len(ts) - 1):
                t2 = ts[:]
                t2[k], t2[k + 1] = t2[k + 1], t2[k]
                yield line[:m.start(1)] + ', '.join(t2) + line[m.end(1):]
    else:
        for m in re.finditer(r'm!\[[^\[\]]*\]', line):
            for op in re.finditer(r' ([/%]) ', m.group(0)):
                pos = m.start() + op.start(1)
                yield line[:pos] + ('%' if line[pos] == '/' else '/') + line[pos + 1:]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--bin', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'bin'))
    ap.add_argument('--mode', choices=['numbers', 'swap', 'ops'], default='numbers')
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    tcpc, tcpi = os.path.join(args.bin, 'tcpc'), os.path.join(args.bin, 'tcpi')
    tried = checked = failed = 0
    for path in args.files:
        src = open(path).read().split('\n')
        for ln in kernel_lines(src):
            if src[ln].strip().startswith('//'):
                continue
            for new in mutants(src[ln], args.mode):
                tried += 1
                with open('mutant.tcp', 'w') as f:
                    f.write('\n'.join(src[:ln] + [new] + src[ln + 1:]))
                if subprocess.run([tcpc, '--check', 'mutant.tcp'], capture_output=True).returncode != 0:
                    continue
                checked += 1
                try:
                    r = subprocess.run([tcpi, 'mutant.tcp'], capture_output=True, text=True, timeout=args.timeout)
                    if r.returncode == 0:
                        continue
                    errors = [l for l in r.stderr.split('\n') if 'error' in l]
                    status = errors[0] if errors else r.stderr[-300:]
                except subprocess.TimeoutExpired:
                    status = 'timeout'
                failed += 1
                print(f"{path}:{ln + 1}: {new.strip()}\n    -> {status}", flush=True)
    print(f"mutation_probe: {tried} variants, {checked} checked, {failed} of those failed in tcpi", file=sys.stderr)


if __name__ == '__main__':
    main()
