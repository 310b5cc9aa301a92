#!/usr/bin/env python3
# gen.py — writes the large hostile inputs of the robustness goldens to stdout (generated, not committed).
# usage: python3 gen.py CASE [N]
import sys

case = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 0
out = sys.stdout.write

if case == "mapping-chain":      # m![A / 2 / 1 / 1 / ...] with n operators
    out("axes![A = 4];\ntype T = m![A / 2" + " / 1" * n + "];\n")
elif case == "closers":          # one line of n unbalanced ')'
    out("axes![A = 4];\n" + ")" * n + "\n")
elif case == "unary-minus":      # assert_eq!(- - - ... 1, 1) with n minus signs
    out("fn main() {\n    assert_eq!(" + "-" * n + "1, 1);\n}\n")
elif case == "axes":             # n axis declarations, then uses of the first and the last
    out("axes![" + ", ".join("A%d = 2" % k for k in range(n)) + "];\n")
    out("type First = m![A0];\ntype Last = m![A%d];\n" % (n - 1))
    out("type Bad = m![A%d];\n" % n)
elif case == "repl-lines":       # a REPL session of n definitions and queries
    for k in range(n):
        out("axes![L%d = 2];\n" % k if k % 2 == 0 else "L%d::SIZE\n" % (k - 1))
    out("axes![B = 0];\n")
elif case == "repl-errors":      # n erroneous inputs, then one more that must still be reported
    for k in range(n):
        out("axes![E%d = 0];\n" % k)
    out("axes![B = 0];\n")
elif case == "repl-open":        # a long run of open brackets entered over n lines, then closed
    out("axes![P = 4];\n")
    for k in range(n):
        out("(\n")
    out("1" + ")" * n + "\n")
    out("axes![B = 0];\n")
elif case == "long-line":        # one line holding a function of n `let` statements
    out("fn f() { " + "let x = 1; " * n + "}\n")
elif case == "garbled-list":     # garbled method chains, then a call with a list of n numbers
    out("fn other_constructs(ctx: &mut Context, input: &HbmTensor<i32, m![1], m![A]>) -> HbmTensor<i32, m![1], m![A]> {\n")
    line = "        .vector_intra_slice_branch(BranchMode::t()` at line 32) wrote DM [128, 384) of each slice, over its DM [0,xt::acquire();\n"
    out(line + line)
    out("    let x: HostTensor<i8, m![B]> = HostTensor::from_vec(vec![" + ", ".join(str(k) for k in range(n)) + "]);\n")
elif case == "npy-huge-shape":   # a .npy header whose shape multiplies past 2^64
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999, 4), }"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    sys.stdout.buffer.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
else:
    sys.exit("gen.py: unknown case " + case)
