#!/usr/bin/python3
"""stdlib_keys.py — writes the answer-key goldens of stdlib/activations, softmax, norm, rope and attention
(tests/golden/stdlib/*_keys_*.tcp): inputs and expected outputs computed in double precision and
rounded to f32 after every operation, as the Vector Engine's stages round (docs/numerics.md).
Run: `/usr/bin/python3 scripts/stdlib_keys.py` from the repository root."""
import math
import struct

OUT = "tests/golden/stdlib/"


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def vec(xs):
    return "vec![" + ", ".join(repr(float(v)) for v in xs) + "]"


def ramp(n, lo, hi):
    return [f32(lo + (hi - lo) * i / (n - 1)) for i in range(n)]


def wave(rows, cols, seed):
    # smooth, sign-changing rows with different scales: exercises max subtraction and the reductions
    return [[f32((1 + r * 0.25) * math.sin(0.37 * c + seed * r) + 0.1 * r) for c in range(cols)] for r in range(rows)]


def sigmoid(x):
    return f32(1.0 / (1.0 + math.exp(-x)))


ACT = {
    "relu": lambda x: f32(max(x, 0.0)),
    "sigmoid": sigmoid,
    "silu": lambda x: f32(sigmoid(x) * x),
    "gelu": lambda x: f32(f32(f32(f32(math.erf(f32(x * f32(0.7071067690849304)))) + 1.0) * x) / 2.0),
}


def activations(e, lo, hi):
    x = ramp(e, lo, hi)
    lines = [f"// stdlib activations.tcp at E = {e}: relu, sigmoid, silu, gelu, swiglu against answer keys computed in",
             "// double precision, rounded to f32 after every op (scripts/stdlib_keys.py writes this file).",
             "// RUN: tcpi %s"]
    lines += [f"// expect: {k}: {e} elements ok" for k in list(ACT) + ["swiglu"]]
    lines += ["use furiosa_visa_std::prelude::*;", "use activations::{relu, sigmoid, silu, gelu, swiglu};", "",
              f"axes![E = {e}];", "", "type Chip = m![1];", "type Cluster = m![1 # 2];",
              "type EwSlice = m![E / 8 # 256];", "", "fn main() {", "    let mut ctx = Context::acquire();",
              f"    let x: HostTensor<f32, m![E]> = HostTensor::from_vec({vec(x)});",
              "    let x_hbm = x.to_hbm(&mut ctx.pdma, 0);"]
    for k, f in ACT.items():
        lines += [f"    let {k}_out = launch({k}, (&mut ctx, &x_hbm)).to_host::<m![E]>(&mut ctx.pdma);",
                  f"    let {k}_key: HostTensor<f32, m![E]> = HostTensor::from_vec({vec([f(v) for v in x])});",
                  f"    assert_close!({k}_out, {k}_key, 0.000001, 0.0000001);",
                  f"    println!(\"{k}: {{}} elements ok\", {k}_out.len());"]
    up = [f32(0.5 + 0.25 * math.cos(0.3 * i)) for i in range(e)]
    lines += [f"    let up: HostTensor<f32, m![E]> = HostTensor::from_vec({vec(up)});",
              "    let up_hbm = up.to_hbm(&mut ctx.pdma, 1 << 20);",
              "    let swiglu_out = launch(swiglu, (&mut ctx, &x_hbm, &up_hbm)).to_host::<m![E]>(&mut ctx.pdma);",
              f"    let swiglu_key: HostTensor<f32, m![E]> = HostTensor::from_vec({vec([f32(ACT['silu'](v) * u) for v, u in zip(x, up)])});",
              "    assert_close!(swiglu_out, swiglu_key, 0.000001, 0.0000001);",
              "    println!(\"swiglu: {} elements ok\", swiglu_out.len());"]
    lines += ["}"]
    open(OUT + f"activations_keys_{e}.tcp", "w").write("\n".join(lines) + "\n")


activations(64, -4.0, 4.0)
activations(512, -9.0, 7.0)


def header(module, what, m, n, items, uses, extra_axes=""):
    lines = [f"// stdlib {module}.tcp at M = {m}, N = {n}: {what} against answer keys computed in double",
             "// precision, rounded to f32 after every op (scripts/stdlib_keys.py writes this file).",
             "// RUN: tcpi %s"]
    lines += [f"// expect: {k}: {m} rows of {n} ok" for k in items]
    lines += ["use furiosa_visa_std::prelude::*;", f"use {module}::{{{uses}}};", "",
              f"axes![M = {m}, N = {n}];", "", "type Chip = m![1];", "type Cluster = m![1 # 2];",
              "type RowSlice = m![M # 256];" + extra_axes, ""]
    return lines


def flat(rows):
    return [v for r in rows for v in r]


def softmax_rows(x):
    out = []
    for r in x:
        mx = max(r)
        e = [f32(math.exp(f32(v - mx))) for v in r]
        s = f32(sum(e))
        out.append([f32(v / s) for v in e])
    return out


def softmax(m, n, seed):
    x = wave(m, n, seed)
    lines = header("softmax", "row softmax", m, n, ["softmax"], "softmax")
    lines += ["fn main() {", "    let mut ctx = Context::acquire();",
              f"    let x: HostTensor<f32, m![M, N]> = HostTensor::from_vec({vec(flat(x))});",
              "    let x_hbm = x.to_hbm(&mut ctx.pdma, 0);",
              "    let y = launch(softmax, (&mut ctx, &x_hbm)).to_host::<m![M, N]>(&mut ctx.pdma);",
              f"    let key: HostTensor<f32, m![M, N]> = HostTensor::from_vec({vec(flat(softmax_rows(x)))});",
              "    assert_close!(y, key);",
              "    println!(\"softmax: {} rows of {} ok\", M::SIZE, N::SIZE);", "}"]
    open(OUT + f"softmax_keys_{m}x{n}.tcp", "w").write("\n".join(lines) + "\n")




def softmax_causal(m, n, seed):
    # attention's causal mask: query row r sees keys 0 ..= r + (n - m) (the last m of n positions)
    x = wave(m, n, seed)
    mask = [[0.0 if c <= r + (n - m) else -1e30 for c in range(n)] for r in range(m)]
    z = [[f32(v + k) for v, k in zip(xr, kr)] for xr, kr in zip(x, mask)]
    lines = header("softmax", "softmax_masked with a causal mask", m, n, ["softmax_masked"], "softmax_masked")
    lines += ["fn main() {", "    let mut ctx = Context::acquire();",
              f"    let x: HostTensor<f32, m![M, N]> = HostTensor::from_vec({vec(flat(x))});",
              f"    let mask: HostTensor<f32, m![M, N]> = HostTensor::from_vec({vec(flat(mask))});",
              "    let x_hbm = x.to_hbm(&mut ctx.pdma, 0);",
              "    let mask_hbm = mask.to_hbm(&mut ctx.pdma, 1 << 20);",
              "    let y = launch(softmax_masked, (&mut ctx, &x_hbm, &mask_hbm)).to_host::<m![M, N]>(&mut ctx.pdma);",
              f"    let key: HostTensor<f32, m![M, N]> = HostTensor::from_vec({vec(flat(softmax_rows(z)))});",
              "    assert_close!(y, key);",
              "    println!(\"softmax_masked: {} rows of {} ok\", M::SIZE, N::SIZE);", "}"]
    open(OUT + f"softmax_causal_keys_{m}x{n}.tcp", "w").write("\n".join(lines) + "\n")


softmax(16, 16, 0.9)
softmax(64, 128, 0.3)
softmax_causal(16, 16, 0.9)
softmax_causal(64, 128, 0.3)


NORM_EPS = f32(0.00001)


def rmsnorm_rows(x, g):
    out = []
    for r in x:
        ms = f32(f32(sum(f32(v * v) for v in r)) / len(r))
        rs = f32(math.sqrt(f32(ms + NORM_EPS)))
        out.append([f32(f32(gi * v) / rs) for v, gi in zip(r, g)])
    return out


def norm_main(x, g, b):
    lines = ["fn main() {", "    let mut ctx = Context::acquire();",
             f"    let x: HostTensor<f32, m![M, N]> = HostTensor::from_vec({vec(flat(x))});",
             f"    let g: HostTensor<f32, m![N]> = HostTensor::from_vec({vec(g)});",
             "    let x_hbm = x.to_hbm(&mut ctx.pdma, 0);",
             "    let g_hbm = g.to_hbm(&mut ctx.pdma, 1 << 20);",
             "    let y = launch(rmsnorm, (&mut ctx, &x_hbm, &g_hbm)).to_host::<m![M, N]>(&mut ctx.pdma);",
             f"    let key: HostTensor<f32, m![M, N]> = HostTensor::from_vec({vec(flat(rmsnorm_rows(x, g)))});",
             "    assert_close!(y, key);",
             "    println!(\"rmsnorm: {} rows of {} ok\", M::SIZE, N::SIZE);"]
    xb = [[bf16(v) for v in r] for r in x]
    lines += [f"    let xb: HostTensor<bf16, m![M, N]> = HostTensor::from_vec({vec(flat(xb))});",
              "    let xb_hbm = xb.to_hbm(&mut ctx.pdma, 3 << 20);",
              "    let yb = launch(rmsnorm_bf16, (&mut ctx, &xb_hbm, &g_hbm)).to_host::<m![M, N]>(&mut ctx.pdma);",
              f"    let keyb: HostTensor<bf16, m![M, N]> = HostTensor::from_vec({vec([bf16(v) for v in flat(rmsnorm_rows(xb, g))])});",
              "    // one bf16 ulp: the f32 sum's order may differ from the key's by an f32 ulp before rounding",
              "    assert_close!(yb, keyb, 0.008, 0.0);",
              "    println!(\"rmsnorm_bf16: {} rows of {} ok\", M::SIZE, N::SIZE);"]
    if b is not None:
        lines += [f"    let b: HostTensor<f32, m![N]> = HostTensor::from_vec({vec(b)});",
                  "    let b_hbm = b.to_hbm(&mut ctx.pdma, 2 << 20);",
                  "    let z = launch(layernorm, (&mut ctx, &x_hbm, &g_hbm, &b_hbm)).to_host::<m![M, N]>(&mut ctx.pdma);",
                  f"    let key2: HostTensor<f32, m![M, N]> = HostTensor::from_vec({vec(flat(layernorm_rows(x, g, b)))});",
                  "    assert_close!(z, key2);",
                  "    println!(\"layernorm: {} rows of {} ok\", M::SIZE, N::SIZE);"]
    return lines + ["}"]


def layernorm_rows(x, g, b):
    out = []
    for r in x:
        mu = f32(f32(sum(r)) / len(r))
        d = [f32(v - mu) for v in r]
        var = f32(f32(sum(f32(v * v) for v in d)) / len(r))
        rs = f32(math.sqrt(f32(var + NORM_EPS)))
        out.append([f32(f32(f32(gi * v) / rs) + bi) for v, gi, bi in zip(d, g, b)])
    return out


def bf16(x):
    # f32 -> bf16, round to nearest even (the Cast Engine's rounding)
    u = struct.unpack("<I", struct.pack("<f", f32(x)))[0]
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", u))[0]


def norm(m, n, seed, with_layernorm):
    x = wave(m, n, seed)
    g = ramp(n, 0.5, 1.5)
    b = ramp(n, -0.25, 0.25) if with_layernorm else None
    items = ["rmsnorm", "rmsnorm_bf16"] + (["layernorm"] if with_layernorm else [])
    lines = header("norm", " and ".join(items), m, n, items, ", ".join(items),
                   "\nconst NORM_EPS: f32 = 0.00001;")
    lines += norm_main(x, g, b)
    open(OUT + f"norm_keys_{m}x{n}.tcp", "w").write("\n".join(lines) + "\n")


norm(16, 16, 0.9, True)
norm(64, 128, 0.3, True)


def rope(t, h, seed):
    # x[T, P, H] as rows of 2H features; the tables of Llama's RoPE with base θ = 10000
    x = wave(t, 2 * h, seed)
    cos = [[f32(math.cos(p * 10000.0 ** (-i / h))) for i in range(h)] for p in range(t)]
    sin = [[f32(math.sin(p * 10000.0 ** (-i / h))) for i in range(h)] for p in range(t)]
    y = []
    for r, c, s in zip(x, cos, sin):
        x1, x2 = r[:h], r[h:]
        y1 = [f32(f32(a * ci) - f32(b * si)) for a, b, ci, si in zip(x1, x2, c, s)]
        y2 = [f32(f32(b * ci) + f32(a * si)) for a, b, ci, si in zip(x1, x2, c, s)]
        y.append(y1 + y2)
    lines = [f"// stdlib rope.tcp at T = {t}, H = {h} (rows of {2 * h} features): RoPE with Llama's tables (base 10000)",
             "// against an answer key computed in double precision, rounded to f32 after every op",
             "// (scripts/stdlib_keys.py writes this file).", "// RUN: tcpi %s",
             f"// expect: rope: {t} rows of {2 * h} ok",
             "use furiosa_visa_std::prelude::*;", "use rope::rope;", "",
             f"axes![T = {t}, P = 2, H = {h}];", "", "type Chip = m![1];", "type Cluster = m![1 # 2];",
             "type RopeSlice = m![T # 256];", "", "fn main() {", "    let mut ctx = Context::acquire();",
             f"    let x: HostTensor<f32, m![T, P, H]> = HostTensor::from_vec({vec(flat(x))});",
             f"    let cos: HostTensor<f32, m![T, H]> = HostTensor::from_vec({vec(flat(cos))});",
             f"    let sin: HostTensor<f32, m![T, H]> = HostTensor::from_vec({vec(flat(sin))});",
             "    let x_hbm = x.to_hbm(&mut ctx.pdma, 0);",
             "    let cos_hbm = cos.to_hbm(&mut ctx.pdma, 1 << 20);",
             "    let sin_hbm = sin.to_hbm(&mut ctx.pdma, 2 << 20);",
             "    let y = launch(rope, (&mut ctx, &x_hbm, &cos_hbm, &sin_hbm)).to_host::<m![T, P, H]>(&mut ctx.pdma);",
             f"    let key: HostTensor<f32, m![T, P, H]> = HostTensor::from_vec({vec(flat(y))});",
             "    assert_close!(y, key);",
             "    println!(\"rope: {} rows of {} ok\", T::SIZE, 2 * H::SIZE);", "}"]
    open(OUT + f"rope_keys_{t}x{2 * h}.tcp", "w").write("\n".join(lines) + "\n")


rope(16, 16, 0.9)
rope(128, 64, 0.3)


def attn_rows(qrows, keys, vt, scale, mask):
    # one head: qrows [R][Dh] against keys [S][Dh] and vt [Dh][S]; the device's rounding points:
    # QKᵀ accumulated in f32 (here exactly, then rounded), · scale and + mask in f32, the softmax in
    # f32, P rounded to bf16, PV accumulated in f32 and rounded to bf16
    out = []
    for r, qr in enumerate(qrows):
        z = [f32(f32(f32(sum(a * b for a, b in zip(qr, kr))) * scale) + mask[r][s]) for s, kr in enumerate(keys)]
        mx = max(z)
        e = [f32(math.exp(f32(v - mx))) for v in z]
        tot = f32(sum(e))
        p = [bf16(f32(v / tot)) for v in e]
        out.append([bf16(sum(pv * vv for pv, vv in zip(p, vrow))) for vrow in vt])
    return out


def attn_input(n, seed):
    return [bf16(0.9 * math.sin(0.61 * i * seed + 0.3 * seed) + 0.15 * math.cos(1.7 * i)) for i in range(n)]


def attention_keys(hkv, g, dh, t, s, decode):
    scale = f32(1.0 / math.sqrt(dh))
    rows = 1 if decode else t
    q = attn_input(rows * hkv * g * dh, 1.3)
    k = attn_input(s * hkv * dh, 0.7)
    vt = attn_input(hkv * dh * s, 2.9)
    valid = s - 5  # decode: the cache holds s - 5 positions; the rest are masked
    if decode:
        mask = [[0.0 if c < valid else -1e30 for c in range(s)]]
    else:
        mask = [[0.0 if c <= r else -1e30 for c in range(s)] for r in range(t)]
    o = [0.0] * (rows * hkv * g * dh)  # [rows, hkv, g, dh]
    for h in range(hkv):
        keys = [[k[(c * hkv + h) * dh + d] for d in range(dh)] for c in range(s)]
        vth = [[vt[(h * dh + d) * s + c] for c in range(s)] for d in range(dh)]
        for gg in range(g):
            qrows = [[q[((r * hkv + h) * g + gg) * dh + d] for d in range(dh)] for r in range(rows)]
            for r, orow in enumerate(attn_rows(qrows, keys, vth, scale, mask)):
                for d in range(dh):
                    o[((r * hkv + h) * g + gg) * dh + d] = orow[d]
    kind = "decode" if decode else "prefill"
    kernel = "attention_decode" if decode else "attention"
    qm, mm = ("m![Hkv, G, Dh]", "m![S]") if decode else ("m![T, Hkv, G, Dh]", "m![T, S]")
    what = (f"one token against a cache of {s} positions ({valid} valid)" if decode
            else f"{t} tokens, causal mask")
    lines = [f"// stdlib attention.tcp, {kernel}: Hkv = {hkv} KV heads x G = {g} query heads, Dh = {dh}, {what},",
             "// against an answer key computed in double precision and rounded at the kernel's rounding points",
             "// (f32 scores and softmax, bf16 P and O; scripts/stdlib_keys.py writes this file).",
             "// RUN: tcpi %s",
             f"// expect: {kernel}: {rows * hkv * g} query rows of {dh} ok",
             "use furiosa_visa_std::prelude::*;", f"use attention::{kernel};", "",
             f"axes![Hkv = {hkv}, G = {g}, Dh = {dh}, T = {t}, S = {s}];", "",
             "type Chip = m![1];", "type Cluster = m![1 # 2];",
             f"type AttnSlice = m![Hkv, G, T / 8 # {256 // (hkv * g)}];", f"type DecodeSlice = m![Hkv # 256];",
             f"const ATTN_SCALE: f32 = {scale!r};", "",
             "fn main() {", "    let mut ctx = Context::acquire();",
             f"    let q: HostTensor<bf16, {qm}> = HostTensor::from_vec({vec(q)});",
             f"    let k: HostTensor<bf16, m![S, Hkv, Dh]> = HostTensor::from_vec({vec(k)});",
             f"    let vt: HostTensor<bf16, m![Hkv, Dh, S]> = HostTensor::from_vec({vec(vt)});",
             f"    let mask: HostTensor<f32, {mm}> = HostTensor::from_vec({vec(flat(mask))});",
             "    let q_hbm = q.to_hbm(&mut ctx.pdma, 0);",
             "    let k_hbm = k.to_hbm(&mut ctx.pdma, 1 << 20);",
             "    let vt_hbm = vt.to_hbm(&mut ctx.pdma, 2 << 20);",
             "    let mask_hbm = mask.to_hbm(&mut ctx.pdma, 3 << 20);",
             f"    let o = launch({kernel}, (&mut ctx, &q_hbm, &k_hbm, &vt_hbm, &mask_hbm)).to_host::<{qm}>(&mut ctx.pdma);",
             f"    let key: HostTensor<bf16, {qm}> = HostTensor::from_vec({vec(o)});",
             "    assert_close!(o, key);",
             f"    println!(\"{kernel}: {{}} query rows of {{}} ok\", o.len() / Dh::SIZE, Dh::SIZE);", "}"]
    name = f"attention_{kind}_keys_{hkv}x{g}x{dh}_{t if not decode else 1}x{s}.tcp"
    open(OUT + name, "w").write("\n".join(lines) + "\n")


attention_keys(2, 2, 32, 16, 32, False)
attention_keys(1, 4, 64, 32, 64, False)
attention_keys(2, 4, 32, 8, 64, True)
