#!/usr/bin/env python3
# bench.py — `make bench`: tcpi against numpy on GEMM/GEMV shapes and tcpc --check over the goldens, ratios against issue 13's targets.
"""Measures, in one run on this machine:

* tcpi on the GEMM sample (512 x 512 x 1024) and on the kernels of benchmarks/kernels/ (GEMMs 512^3,
  1024^3, 2048 x 1024 x 1024, GEMV 16384 x 4096), each against the same computation in numpy (random
  bf16-rounded inputs, f32 matmul, bf16-rounded outputs): whole process (median of --runs paired runs)
  and in-process (tcpi --time reports the kernel launch; numpy's matmul is timed around `a @ b`),
  and peak RSS per element of data (inputs and output);
* tcpc --check over every golden .tcp and sample (p50, p95, max; optionally against a reference tcpc
  in the same run, --tcpc-ref) with the summed time of each step (tcpc --time) and the slowest files;
and prints each ratio next to its target.
"""
import argparse
import glob
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name, file, (M, N, K): C[M, N] = A[M, K] B[K, N]  (GEMV: N = 1)
CASES = [
    ("gemm sample 512x512x1024", "samples/hello/gemm.tcp", (512, 512, 1024)),
    ("gemm 512^3", "benchmarks/kernels/gemm_512.tcp", (512, 512, 512)),
    ("gemm 1024^3", "benchmarks/kernels/gemm_1024.tcp", (1024, 1024, 1024)),
    ("gemm 2048x1024x1024", "benchmarks/kernels/gemm_2048.tcp", (2048, 1024, 1024)),
    ("gemv 16384x4096", "benchmarks/kernels/gemv_16384.tcp", (16384, 1, 4096)),
]

NUMPY_WORKER = r"""
import sys, time, numpy as np
m, n, k = map(int, sys.argv[1:4])
def bf16(x):
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    u = (u + np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000)
    return u.view(np.float32)
rng = np.random.default_rng(42)
a = bf16(rng.random((m, k), dtype=np.float32) * 2 - 1)
b = bf16(rng.random((k, n), dtype=np.float32) * 2 - 1)
np.ones((64, 64), np.float32) @ np.ones((64, 64), np.float32)  # BLAS threads started
t, cpu = time.perf_counter(), time.process_time()
c = a @ b
t, cpu = time.perf_counter() - t, time.process_time() - cpu
c = bf16(c)
print(f"matmul {t:.6f} cpu {cpu:.6f}")
"""


def numpy_python():
    """A Python that imports numpy: this one, else the system's (python3-numpy from scripts/setup.sh)."""
    for py in (sys.executable, "/usr/bin/python3"):
        if subprocess.run([py, "-c", "import numpy"], capture_output=True).returncode == 0:
            return py
    sys.exit("bench: numpy is missing (apt-get install python3-numpy)")


def run(cmd):
    """Runs cmd; returns (wall seconds, stdout, stderr, exit code)."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = p.communicate()
    wall = time.perf_counter() - t
    return wall, out, err, p.returncode


def run_rss(cmd):
    """Like run, plus the child's own peak RSS in bytes (os.wait4's ru_maxrss, KiB on Linux)."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = p.stdout.read(), p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss * 1024, usage.ru_utime + usage.ru_stime, out, err, p.returncode


def fmt_ratio(r, target, better="lower"):
    ok = r <= target if better == "lower" else r >= target
    return f"{r:7.2f}x  (target <= {target:g}x: {'ok' if ok else 'MISSED'})"


def bench_tcpi(binary, runs, only):
    py = numpy_python()
    rows = []
    for name, path, (m, n, k) in CASES:
        if only and not any(o in name for o in only):
            continue
        keys = ("tcpi_wall", "tcpi_cpu", "tcpi_dev", "tcpi_devcpu", "tcpi_rss", "tcpi_devmem", "tcpi_devshared", "np_wall", "np_cpu", "np_mm",
                "np_mmcpu", "np_rss")
        got = {key: [] for key in keys}
        for _ in range(runs):  # paired: tcpi then numpy, alternating
            wall, rss, cpu, out, err, rc = run_rss([os.path.join(binary, "tcpi"), "--time", os.path.join(ROOT, path)])
            if rc != 0:
                sys.exit(f"bench: tcpi {path} failed ({rc}):\n{out}{err}")
            mt = re.search(r"time: .*launch ([0-9.]+) s", err)
            mc = re.search(r"cpu time.*launch ([0-9.]+) s", err)
            got["tcpi_wall"].append(wall)
            got["tcpi_cpu"].append(cpu)
            got["tcpi_dev"].append(float(mt.group(1)) if mt else float("nan"))
            got["tcpi_devcpu"].append(float(mc.group(1)) if mc else float("nan"))
            got["tcpi_rss"].append(rss)
            md = re.search(r"device memory: ([0-9]+) bytes.*?([0-9]+) more read from broadcasts", err)
            got["tcpi_devmem"].append(float(md.group(1)) if md else float("nan"))
            got["tcpi_devshared"].append(float(md.group(2)) if md else float("nan"))
            wall, rss, cpu, out, err, rc = run_rss([py, "-c", NUMPY_WORKER, str(m), str(n), str(k)])
            if rc != 0:
                sys.exit(f"bench: numpy worker failed ({rc}):\n{err}")
            mm = re.search(r"matmul ([0-9.]+) cpu ([0-9.]+)", out)
            got["np_wall"].append(wall)
            got["np_cpu"].append(cpu)
            got["np_mm"].append(float(mm.group(1)))
            got["np_mmcpu"].append(float(mm.group(2)))
            got["np_rss"].append(rss)
        r = {key: (max(v) if key.endswith("rss") else statistics.median(v)) for key, v in got.items()}
        r.update(name=name, macs=m * n * k, elems=m * k + k * n + m * n)
        # The data tcpi holds: its host tensors (a, b, the result and the answer key: 32 bits per
        # element) and what the device's HBM and SRAMs hold (tcpi --time): the resident bytes, plus the
        # DM bytes of slices that read a broadcast range the model holds once (the program's data all
        # the same: a device that copied the broadcast into each slice holds them).
        r["held"] = (m * k + k * n + 2 * m * n) * 4 + r["tcpi_devmem"] + r["tcpi_devshared"]
        rows.append(r)
        print(f"  {name:26s} tcpi {r['tcpi_wall']:7.3f} s, cpu {r['tcpi_cpu']:7.3f} s (launch {r['tcpi_dev']:7.3f} s,"
              f" cpu {r['tcpi_devcpu']:7.3f} s; {r['tcpi_rss'] / 2**20:7.1f} MiB)   numpy {r['np_wall']:6.3f} s, cpu"
              f" {r['np_cpu']:6.3f} s (matmul {r['np_mm'] * 1e3:7.2f} ms, cpu {r['np_mmcpu'] * 1e3:7.2f} ms;"
              f" {r['np_rss'] / 2**20:6.1f} MiB)", flush=True)
    return rows


def tcpc_files():
    """Every golden .tcp and every sample: the files tcpc --check is timed on."""
    return (sorted(glob.glob(os.path.join(ROOT, "tests/golden/**/*.tcp"), recursive=True)),
            sorted(glob.glob(os.path.join(ROOT, "samples/**/*.tcp"), recursive=True)))


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def bench_tcpc(binaries, runs):
    """tcpc --check on every golden and sample, each binary in turn per file (paired, --runs times,
    the minimum kept: the machine is shared). Returns per binary {file: (wall, cpu)} and per binary
    the summed seconds of each step (tcpc --time, first run)."""
    goldens, samples = tcpc_files()
    times = [dict() for _ in binaries]
    steps = [dict() for _ in binaries]
    for f in goldens + samples:
        rel = os.path.relpath(f, ROOT)
        best = [(float("inf"), float("inf")) for _ in binaries]
        for _ in range(runs):
            for k, b in enumerate(binaries):
                wall, _, cpu, _, err, _ = run_rss([os.path.join(b, "tcpc"), "--check", "--time", f])
                best[k] = (min(best[k][0], wall), min(best[k][1], cpu))
                if _ == 0:
                    for name, sec in re.findall(r" (\w+) ([0-9.]+) s", err.split("tcpc: time:")[-1]) if "tcpc: time:" in err else []:
                        steps[k][name] = steps[k].get(name, 0.0) + float(sec)
        for k in range(len(binaries)):
            times[k][rel] = best[k]
    return times, steps, {os.path.relpath(f, ROOT) for f in goldens}


def print_tcpc(binaries, runs):
    times, steps, goldens = bench_tcpc(binaries, runs)
    print(f"  tcpc --check ({len(goldens)} goldens, {len(times[0]) - len(goldens)} samples; min of {runs} paired runs per file)")
    for k, b in enumerate(binaries):
        label = "this build" if k == 0 else f"reference {b}"
        for name, keys in (("goldens", goldens), ("all", set(times[k]))):
            walls = [times[k][f][0] for f in keys]
            cpus = [times[k][f][1] for f in keys]
            print(f"    {label:28s} {name:8s} wall p50 {pct(walls, .5) * 1e3:7.1f} ms  p95 {pct(walls, .95) * 1e3:7.1f} ms"
                  f"  max {max(walls) * 1e3:7.1f} ms | CPU p50 {pct(cpus, .5) * 1e3:7.1f} ms  p95 {pct(cpus, .95) * 1e3:7.1f} ms"
                  f"  max {max(cpus) * 1e3:7.1f} ms")
    if len(binaries) > 1:
        for stat, q in (("p50", .5), ("p95", .95), ("max", 1.0)):
            ratio = [pct([times[0][f][1] for f in goldens], q) / max(pct([times[1][f][1] for f in goldens], q), 1e-9)]
            print(f"    goldens CPU {stat} this build / reference: {ratio[0]:.2f}x")
    for k, b in enumerate(binaries):
        total = sum(steps[k].values())
        if total:
            label = "this build" if k == 0 else f"reference {b}"
            print(f"    where the time goes ({label}; wall, summed over all files, first run): " +
                  ", ".join(f"{n} {v:.2f} s ({100 * v / steps[k].get('total', total):.0f}%)"
                            for n, v in steps[k].items() if n != "total"))
    walls = [times[0][f][0] for f in goldens]
    cpus = [times[0][f][1] for f in goldens]
    p95, cp95 = pct(walls, .95), pct(cpus, .95)
    print(f"  tcpc --check over {len(goldens)} goldens: wall p95 {p95 * 1e3:.1f} ms"
          f" ({'ok' if p95 < 0.050 else 'MISSED'}: target p95 < 50 ms); CPU p95 {cp95 * 1e3:.1f} ms"
          f" ({'ok' if cp95 < 0.050 else 'MISSED'})")
    for f in sorted(times[0], key=lambda f: times[0][f][1])[-8:][::-1]:
        print(f"    {times[0][f][0] * 1e3:8.1f} ms (cpu {times[0][f][1] * 1e3:7.1f} ms)  {f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"), help="directory of tcpi and tcpc")
    ap.add_argument("--runs", type=int, default=3, help="paired runs per case (median)")
    ap.add_argument("--only", action="append", help="run the cases whose name contains this (repeatable)")
    ap.add_argument("--no-tcpc", action="store_true", help="skip tcpc --check over the goldens")
    ap.add_argument("--tcpc-only", action="store_true", help="only tcpc --check over the goldens and samples")
    ap.add_argument("--tcpc-ref", help="directory of a reference tcpc (e.g. main's build/bin), timed in the same run")
    ap.add_argument("--tcpc-runs", type=int, default=1, help="paired runs per file for tcpc --check (minimum)")
    args = ap.parse_args()

    if args.tcpc_only:
        print_tcpc([args.bin] + ([args.tcpc_ref] if args.tcpc_ref else []), args.tcpc_runs)
        return
    print(f"bench: tcpi vs numpy ({args.runs} paired runs, medians; {os.cpu_count()} CPUs)")
    rows = bench_tcpi(args.bin, args.runs, args.only)
    print()
    print("  ratios tcpi / numpy (wall; in parentheses CPU seconds of all threads, steadier on a shared machine)")
    print(f"  {'case':26s} {'whole process':>20s} {'in-process':>20s} {'ns/MAC':>8s} {'RSS B/elem':>11s} {'numpy B/elem':>12s}")
    for r in rows:
        whole = f"{r['tcpi_wall'] / r['np_wall']:.2f}x ({r['tcpi_cpu'] / r['np_cpu']:.2f}x)"
        inproc = f"{r['tcpi_dev'] / r['np_mm']:.1f}x ({r['tcpi_devcpu'] / max(r['np_mmcpu'], 1e-9):.1f}x)"
        print(f"  {r['name']:26s} {whole:>20s} {inproc:>20s}"
              f" {r['tcpi_dev'] / r['macs'] * 1e9:8.3f} {r['tcpi_rss'] / r['elems']:11.1f} {r['np_rss'] / r['elems']:12.1f}")
    print()
    print("targets:")
    by = {r["name"]: r for r in rows}
    if "gemm sample 512x512x1024" in by:
        r = by["gemm sample 512x512x1024"]
        print(f"  GEMM sample whole process vs numpy:        {fmt_ratio(r['tcpi_wall'] / r['np_wall'], 2)}")
    if "gemm 1024^3" in by:
        r = by["gemm 1024^3"]
        print(f"  1024^3 device contraction vs numpy sgemm:  {fmt_ratio(r['tcpi_dev'] / r['np_mm'], 5)}")
    gemms = [r for r in rows if r["name"].startswith("gemm ") and "sample" not in r["name"]]
    for i, r in enumerate(gemms):  # ns/MAC against the mean of its neighbours
        nb = [gemms[j]["tcpi_dev"] / gemms[j]["macs"] for j in (i - 1, i + 1) if 0 <= j < len(gemms)]
        if not nb:
            continue
        mine = r["tcpi_dev"] / r["macs"]
        trend = statistics.mean(nb)
        off = max(mine / trend, trend / mine)
        # The same measure of numpy's matmul, for scale: fixed and N^2 costs weigh on small sizes in BLAS too.
        np_nb = [gemms[j]["np_mm"] / gemms[j]["macs"] for j in (i - 1, i + 1) if 0 <= j < len(gemms)]
        np_mine, np_trend = r["np_mm"] / r["macs"], statistics.mean(np_nb)
        np_off = max(np_mine / np_trend, np_trend / np_mine)
        print(f"  {r['name']:26s} cost/MAC off its neighbours' trend: {fmt_ratio(off, 1.5)}"
              f"   (numpy's matmul: {np_off:.2f}x)")
    for r in rows:
        print(f"  {r['name']:26s} peak RSS / data held ({r['held'] / 2**20:.0f} MiB): {fmt_ratio(r['tcpi_rss'] / r['held'], 2)}"
              f"   (vs numpy's RSS {r['tcpi_rss'] / r['np_rss']:.2f}x; device {r['tcpi_devmem'] / 2**20:.0f} MiB resident,"
              f" {r['tcpi_devshared'] / 2**20:.0f} MiB of broadcasts held once)")
    if not args.no_tcpc:
        print_tcpc([args.bin] + ([args.tcpc_ref] if args.tcpc_ref else []), args.tcpc_runs)

if __name__ == "__main__":
    main()
