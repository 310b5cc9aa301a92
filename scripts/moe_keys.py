#!/usr/bin/python3
"""moe_keys.py — writes the answer-key goldens of stdlib/moe.tcp (tests/golden/stdlib/moe_keys_*.tcp):
the routing indices of the manual's "Mixture of Experts" > 3.3 Index Generation computed here with
plain loops (Count, Num_Blocks = ceil(Count / B), Global_Offset = exclusive cumsum, the blocks'
end, Expert_IDs with E for an empty block, Local_Offset = Token_Rank - 1, Scatter_Idx =
Global_Offset[expert] * B + Local_Offset). Run: `/usr/bin/python3 scripts/moe_keys.py` from the
repository root."""
import random

OUT = "tests/golden/stdlib/"

TEMPLATE = """{HEADER}
// RUN: tcpi %s
// expect: moe_histogram: {E} experts ok
// expect: moe_block_offsets: {E} experts ok
// expect: moe_expert_ids: {G} blocks ok
// expect: moe_local_offset: {TK} pairs ok
// expect: moe_scatter_idx: {TK} pairs ok
use furiosa_visa_std::prelude::*;
use moe::*;

axes![TK = {TK}, P = {TK}, E = {E}, E2 = {E}, G = {G}, Z = 2];

type Chip = m![1];
type Cluster = m![1 # 2];
type PairSlice = m![TK # 256];
type ExpertSlice = m![E # 256];
type GridSlice = m![G # 256];
const MOE_BLOCK_SHIFT: u32 = {SHIFT};

async fn main() {{
    let mut ctx = Context::acquire();
{IDX_COMMENT}    let idx = HostTensor::<i32, m![TK]>::from_vec({IDX});
    let experts = HostTensor::<i32, m![E]>::from_fn(|ix| ix.get(E) as i32);
    // A slice's own value travels as an 8-byte pair [v, v] (the DMA moves 8-byte packets).
    let experts_own = HostTensor::<i32, m![E, Z]>::from_fn(|ix| experts.get(i![E: ix.get(E)]));
    let idx_own = HostTensor::<i32, m![TK, Z]>::from_fn(|ix| idx.get(i![TK: ix.get(TK)]));
    let idx_hbm = idx.to_hbm(&mut ctx.pdma, 0).await;
    let experts_hbm = experts.to_hbm(&mut ctx.pdma, 1 << 20).await;
    let experts_own_hbm = experts_own.to_hbm(&mut ctx.pdma, 11 << 20).await;
    let idx_own_hbm = idx_own.to_hbm(&mut ctx.pdma, 12 << 20).await;

    let (count_hbm, blocks_hbm) = launch(moe_histogram, (&mut ctx, &idx_hbm, &experts_own_hbm)).await;
    let count = count_hbm.to_host::<m![E]>(&mut ctx.pdma).await;
    let blocks = blocks_hbm.to_host::<m![E]>(&mut ctx.pdma).await;
    assert_eq!(count, HostTensor::<i32, m![E]>::from_vec({COUNT}));
    assert_eq!(blocks, HostTensor::<i32, m![E]>::from_vec({NB}));
    println!("moe_histogram: {{}} experts ok", count.len());

    // Global_Offset = the exclusive cumsum of the block counts; the end of each expert's blocks.
    let blocks_row = HostTensor::<i32, m![E2]>::from_vec(blocks.to_vec());
    let before_e = HostTensor::<i32, m![E, E2]>::from_fn(|ix| if ix.get(E2) < ix.get(E) {{ -1 }} else {{ 0 }});
    let blocks_row_hbm = blocks_row.to_hbm(&mut ctx.pdma, 2 << 20).await;
    let blocks_own = HostTensor::<i32, m![E, Z]>::from_fn(|ix| blocks.get(i![E: ix.get(E)]));
    let blocks_hbm2 = blocks_own.to_hbm(&mut ctx.pdma, 3 << 20).await;
    let before_e_hbm = before_e.to_hbm(&mut ctx.pdma, 4 << 20).await;
    let (offset_hbm, end_hbm) = launch(moe_block_offsets, (&mut ctx, &blocks_row_hbm, &blocks_hbm2, &before_e_hbm)).await;
    let offset = offset_hbm.to_host::<m![E]>(&mut ctx.pdma).await;
    let end = end_hbm.to_host::<m![E]>(&mut ctx.pdma).await;
    assert_eq!(offset, HostTensor::<i32, m![E]>::from_vec({GO}));
    assert_eq!(end, HostTensor::<i32, m![E]>::from_vec({END}));
    println!("moe_block_offsets: {{}} experts ok", offset.len());

{IDS_COMMENT}    let range = HostTensor::<i32, m![G, Z]>::from_fn(|ix| ix.get(G) as i32);
    let range_hbm = range.to_hbm(&mut ctx.pdma, 5 << 20).await;
    let end_hbm2 = end.to_hbm(&mut ctx.pdma, 6 << 20).await;
    let ids = launch(moe_expert_ids, (&mut ctx, &end_hbm2, &range_hbm)).await.to_host::<m![G]>(&mut ctx.pdma).await;
    assert_eq!(ids, HostTensor::<i32, m![G]>::from_vec({IDS}));
    println!("moe_expert_ids: {{}} blocks ok", ids.len());

    // Local_Offset: the pair's place among the earlier pairs of its expert.
    let idx_row = HostTensor::<i32, m![P]>::from_vec(idx.to_vec());
    let before_p = HostTensor::<i32, m![TK, P]>::from_fn(|ix| if ix.get(P) < ix.get(TK) {{ 1 }} else {{ 0 }});
    let idx_row_hbm = idx_row.to_hbm(&mut ctx.pdma, 7 << 20).await;
    let before_p_hbm = before_p.to_hbm(&mut ctx.pdma, 8 << 20).await;
    let local_hbm = launch(moe_local_offset, (&mut ctx, &idx_row_hbm, &idx_own_hbm, &before_p_hbm)).await;
    let local = local_hbm.to_host::<m![TK]>(&mut ctx.pdma).await;
    assert_eq!(local, HostTensor::<i32, m![TK]>::from_vec({LOCAL}));
    println!("moe_local_offset: {{}} pairs ok", local.len());

    // Scatter_Idx = Global_Offset[expert] · B + Local_Offset.
    let offset_hbm2 = offset.to_hbm(&mut ctx.pdma, 9 << 20).await;
    let local_own = HostTensor::<i32, m![TK, Z]>::from_fn(|ix| local.get(i![TK: ix.get(TK)]));
    let local_hbm2 = local_own.to_hbm(&mut ctx.pdma, 10 << 20).await;
    let scatter = launch(moe_scatter_idx, (&mut ctx, &experts_hbm, &offset_hbm2, &idx_own_hbm, &local_hbm2)).await
        .to_host::<m![TK]>(&mut ctx.pdma).await;
    assert_eq!(scatter, HostTensor::<i32, m![TK]>::from_vec({SCATTER}));
    println!("moe_scatter_idx: {{}} pairs ok", scatter.len());
}}
"""


def vec(xs):
    return "vec![" + ", ".join(str(v) for v in xs) + "]"


def keys(idx, e, g, shift):
    b = 1 << shift
    count = [sum(1 for v in idx if v == x) for x in range(e)]
    nb = [(c + b - 1) // b for c in count]
    go = [sum(nb[:x]) for x in range(e)]
    end = [go[x] + nb[x] for x in range(e)]
    assert end[-1] <= g, "the grid must hold every block"
    ids = [sum(1 for x in range(e) if end[x] <= j) for j in range(g)]
    local = [sum(1 for p in range(tk) if idx[p] == idx[tk]) for tk in range(len(idx))]
    scatter = [go[idx[tk]] * b + local[tk] for tk in range(len(idx))]
    return count, nb, go, end, ids, local, scatter


def write(name, header, idx_comment, ids_comment, idx, e, g, shift):
    count, nb, go, end, ids, local, scatter = keys(idx, e, g, shift)
    text = TEMPLATE.format(HEADER=header, E=e, G=g, TK=len(idx), SHIFT=shift, IDX_COMMENT=idx_comment, IDX=vec(idx),
                           COUNT=vec(count), NB=vec(nb), GO=vec(go), END=vec(end), IDS_COMMENT=ids_comment, IDS=vec(ids),
                           LOCAL=vec(local), SCATTER=vec(scatter))
    with open(OUT + name, "w") as f:
        f.write(text)
    return count, nb, go, end, ids, local, scatter


def main():
    # The hand-checked shape: T = 8 tokens, K = 2, E = 8, B = 4.
    small = [0, 5, 2, 5, 7, 0, 5, 1, 2, 0, 3, 5, 0, 2, 5, 7]
    write("moe_keys_16x8.tcp",
          "// stdlib moe.tcp at TK = 16 (T = 8 tokens, K = 2), E = 8 experts, B = 4: the routing indices against host answer keys\n"
          "// (written by scripts/moe_keys.py).",
          "    // topk_indices[t, k] flattened (t major): expert 5 gets 5 pairs, 0 gets 4, 2 gets 3, 7 two, 1 and 3 one, 4 and 6 none.\n",
          "    // Expert_IDs: blocks 0..3 hold experts 0..3, blocks 4 and 5 expert 5, block 6 expert 7; 7.. are empty (E).\n",
          small, 8, 16, 2)
    # A full-width shape: T = 64 tokens, K = 4 distinct experts each of E = 128 (skewed: experts 96..127
    # are never chosen, low ids are chosen more), B = 4; G = (TK - E) / B + E = 160, the manual's worst case.
    rng = random.Random(14)
    big = []
    for _ in range(64):
        chosen = []
        while len(chosen) < 4:
            x = min(rng.randrange(96), rng.randrange(96))
            if x not in chosen:
                chosen.append(x)
        big += chosen
    write("moe_keys_256x128.tcp",
          "// stdlib moe.tcp at TK = 256 (T = 64 tokens, K = 4), E = 128 experts, B = 4, G = 160 (the worst case):\n"
          "// the routing indices against host answer keys (written by scripts/moe_keys.py).",
          "    // topk_indices[t, k] flattened (t major): 4 distinct experts per token, skewed to low ids, 96..127 unused.\n",
          "    // Expert_IDs: the expert of each grid block; blocks past the last expert's are empty (E).\n",
          big, 128, 160, 2)


if __name__ == "__main__":
    main()
