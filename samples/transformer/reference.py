#!/usr/bin/python3
"""reference.py — the inputs, weights and numpy reference outputs of samples/transformer/layer.tcp.

Writes DIR/*.npy (default DIR = data): a Llama-style decoder layer (D = 1024, 8 query heads and 2 KV
heads of 128, F = 2816) with deterministic random bf16 weights, a prefill of T = 128 tokens and two
decode steps (positions 128 and 129) against the KV cache. The reference is the textbook layer in
float64 with the activations stored in bf16 between steps (RMSNorm, rotate-half RoPE with base 10000,
causal softmax attention with grouped-query heads, SwiGLU MLP, residuals); it shares no code and no
intermediate with the device program. `wq_rot` / `wk_rot` are the weight layout the device program
uses for RoPE (the rows of W_q / W_k rotated by half a head and negated: rotate_half(x Wᵀ) = x W_rotᵀ).
Run: `/usr/bin/python3 reference.py [DIR]` (about 50 MB of .npy)."""
import os
import sys

import numpy as np

T, D, HKV, G, DH, S, F = 128, 1024, 2, 4, 128, 160, 2816
HQ, HALF, EPS, STEPS = HKV * G, DH // 2, 1e-5, 2


def bf16(a):
    # round to nearest even bf16, kept in float32 (what the device stores)
    u = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


def rmsnorm(x, g):
    x = x.astype(np.float64)
    return bf16(g * x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + EPS))


def rotate_half(x):
    return np.concatenate([-x[..., HALF:], x[..., :HALF]], axis=-1)


def rope(x, pos, cos, sin):
    # x[..., tokens, heads, DH] with the tokens' positions `pos`
    c, s = cos[pos][:, None, :], sin[pos][:, None, :]
    return x * c + rotate_half(x) * s


def attend(q, k, v, pos):
    # q[tq, HQ, DH] at positions `pos`, k and v [tk, HKV, DH] at positions 0..tk-1: causal GQA
    kq = np.repeat(k, G, axis=1)  # query head h uses KV head h // G
    vq = np.repeat(v, G, axis=1)
    z = np.einsum("thd,shd->hts", q, kq) / np.sqrt(DH)
    z = np.where(np.arange(k.shape[0])[None, None, :] > np.asarray(pos)[None, :, None], -np.inf, z)
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    return bf16(np.einsum("hts,shd->thd", p, vq))


def layer(x, pos, w, kv):
    # x[t, D] bf16 at positions `pos`; kv = (K, V) [positions so far, HKV, DH], appended here
    xn = rmsnorm(x, w["gamma1"])
    q = rope((xn @ w["wq"].reshape(HQ * DH, D).T).reshape(-1, HQ, DH), pos, w["cos"], w["sin"])
    k = rope((xn @ w["wk"].reshape(HKV * DH, D).T).reshape(-1, HKV, DH), pos, w["cos"], w["sin"])
    v = (xn @ w["wv"].reshape(HKV * DH, D).T).reshape(-1, HKV, DH)
    kc = np.concatenate([kv[0], bf16(k)]) if kv else bf16(k)
    vc = np.concatenate([kv[1], bf16(v)]) if kv else bf16(v)
    o = attend(bf16(q), kc, vc, pos).reshape(-1, HQ * DH)
    h = bf16(x + o @ w["wo"].reshape(D, HQ * DH).T)
    hn = rmsnorm(h, w["gamma2"])
    g, u = hn @ w["wg"].T, hn @ w["wu"].T
    a = bf16(g / (1 + np.exp(-g)) * u)
    return bf16(h + a @ w["wd"].T), (kc, vc)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "data"
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(2026)

    def weight(shape, fan_in):
        return bf16(rng.standard_normal(shape) / np.sqrt(fan_in))

    w = {
        "wq": weight((HKV, G, DH, D), D), "wk": weight((HKV, DH, D), D), "wv": weight((HKV, DH, D), D),
        "wo": weight((D, HKV, G, DH), HQ * DH), "wg": weight((F, D), D), "wu": weight((F, D), D),
        "wd": weight((D, F), F),
        "gamma1": bf16(1 + 0.1 * rng.standard_normal(D)), "gamma2": bf16(1 + 0.1 * rng.standard_normal(D)),
    }
    inv_freq = 10000.0 ** (-np.arange(HALF) * 2 / DH)
    ang = np.arange(S)[:, None] * np.concatenate([inv_freq, inv_freq])[None, :]
    w["cos"], w["sin"] = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)
    w["wq_rot"] = np.concatenate([-w["wq"][..., HALF:, :], w["wq"][..., :HALF, :]], axis=-2)
    w["wk_rot"] = np.concatenate([-w["wk"][..., HALF:, :], w["wk"][..., :HALF, :]], axis=-2)
    x = bf16(rng.standard_normal((T, D)))
    xs = [bf16(rng.standard_normal(D)) for _ in range(STEPS)]
    for name, a in list(w.items()) + [("x", x)] + [(f"x_dec{i}", v) for i, v in enumerate(xs)]:
        np.save(os.path.join(out, name + ".npy"), np.asarray(a, dtype=np.float32))

    y, kv = layer(x, np.arange(T), w, None)
    np.save(os.path.join(out, "y_prefill.npy"), y)
    for i, xd in enumerate(xs):
        yd, kv = layer(xd[None, :], np.array([T + i]), w, kv)
        np.save(os.path.join(out, f"y_dec{i}.npy"), yd[0])
    print(f"reference: prefill {T} tokens + {STEPS} decode steps written to {out}/")


main()
