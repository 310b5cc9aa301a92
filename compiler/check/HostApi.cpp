// HostApi.cpp — the host API table: what host code may call, its arity, documented usage and a runnable example.
#include "HostApi.h"

#include <algorithm>

namespace tcp {

namespace {
using K = HostApiEntry::Kind;
constexpr unsigned V = HostApiEntry::kVariadic;

HostApiEntry entry(K kind, std::string owner, std::string name, unsigned minArgs, unsigned maxArgs, std::string usage,
                   std::string example, std::string expectedFailure = "") {
  HostApiEntry e;
  e.kind = kind;
  e.owner = std::move(owner);
  e.name = std::move(name);
  e.minArgs = minArgs;
  e.maxArgs = maxArgs;
  e.usage = std::move(usage);
  e.example = std::move(example);
  e.expectedFailure = std::move(expectedFailure);
  return e;
}

HostApiEntry refused(K kind, std::string owner, std::string name, std::string usage, std::string example,
                     std::string reason) {
  HostApiEntry e = entry(kind, std::move(owner), std::move(name), 0, V, std::move(usage), std::move(example));
  e.unsupported = std::move(reason);
  return e;
}

std::vector<HostApiEntry> build() {
  // Examples run in order in one tcpi session (tests/unit/host_api_test.cpp) after a prelude that
  // binds ctx, rng, x: HostTensor<i32, m![A]>, y: HostTensor<i32, m![B]>, h = x.to_hbm(..),
  // t: LookupTable<i8, i8>, o = Some(3), v = vec![1, 2], s = "ab", ix = i![A: 1], type E = m![A, B],
  // and a kernel `kernel(ctx, input: &HbmTensor<i32, m![1], m![A]>)`; $TMP is a scratch directory.
  return {
      // Free functions and values.
      entry(K::Function, "", "launch", 2, V, "launch(kernel, (&mut ctx, &a, &b))", "launch(kernel, (&mut ctx, &h))"),
      entry(K::Function, "", "contraction", 2, 2, "contraction::<D, M>(&a, &b)", "contraction::<i32, m![1]>(&x, &x)"),
      entry(K::Function, "", "Some", 1, 1, "Some(x)", "Some(1)"),
      entry(K::Value, "", "None", 0, 0, "None", "None"),
      // Mappings: an axis, a mapping alias or `<m![...]>`.
      entry(K::AssocConst, "mapping", "SIZE", 0, 0, "E::SIZE", "E::SIZE"),
      entry(K::AssocFn, "mapping", "map", 1, 1, "E::map(i)", "E::map(519)"),
      entry(K::AssocFn, "mapping", "map_all", 1, 1, "E::map_all(i)", "E::map_all(3)"),
      // Constructors.
      entry(K::AssocFn, "Context", "acquire", 0, 0, "Context::acquire()", "Context::acquire()"),
      entry(K::AssocFn, "SmallRng", "seed_from_u64", 1, 1, "SmallRng::seed_from_u64(n)", "SmallRng::seed_from_u64(7)"),
      entry(K::AssocFn, "HostTensor", "rand", 1, 1, "HostTensor::<D, M>::rand(&mut rng)",
            "HostTensor::<i32, m![B]>::rand(&mut rng)"),
      entry(K::AssocFn, "HostTensor", "from_vec", 1, 1, "HostTensor::<D, M>::from_vec(vec![...])",
            "HostTensor::<i32, m![B]>::from_vec(vec![1, 2, 3, 4])"),
      entry(K::AssocFn, "HostTensor", "from_fn", 1, 1, "HostTensor::<D, M>::from_fn(|ix| ...)",
            "HostTensor::<i32, m![B]>::from_fn(|ix| ix.get(B))"),
      entry(K::AssocFn, "HostTensor", "zeros", 0, 0, "HostTensor::<D, M>::zeros()", "HostTensor::<i32, m![B]>::zeros()"),
      entry(K::AssocFn, "HostTensor", "load_npy", 1, 1, "HostTensor::<D, M>::load_npy(path)",
            "{ y.save_npy(\"$TMP/api_load.npy\"); HostTensor::<i32, m![B]>::load_npy(\"$TMP/api_load.npy\") }"),
      entry(K::AssocFn, "LookupTable", "from_fn", 1, 1, "LookupTable::<In, Out>::from_fn(|x| ...)",
            "LookupTable::<i8, i8>::from_fn(|v| v)"),
      entry(K::AssocFn, "LookupTable", "from_vec", 1, 1, "LookupTable::<In, Out>::from_vec(vec![...])",
            "LookupTable::<i4, i8>::from_vec(vec![0; 16])"),
      entry(K::AssocFn, "HbmTensor", "from_addr", 1, 1, "unsafe { HbmTensor::<D, Chip, M>::from_addr(address) }",
            "unsafe { HbmTensor::<i32, m![1], m![A]>::from_addr(1 << 20) }"),
      // HostTensor methods.
      entry(K::Method, "HostTensor", "to_hbm", 2, 2, "x.to_hbm(&mut ctx.pdma, addr)", "y.to_hbm(&mut ctx.pdma, 1 << 20)"),
      entry(K::Method, "HostTensor", "into_vec", 0, 0, "x.into_vec()", "y.into_vec()"),
      entry(K::Method, "HostTensor", "to_vec", 0, 0, "x.to_vec()", "y.to_vec()"),
      entry(K::Method, "HostTensor", "len", 0, 0, "x.len()", "y.len()"),
      entry(K::Method, "HostTensor", "get", 1, 1, "x.get(i![A: 1, B: 2])", "y.get(i![B: 1])"),
      entry(K::Method, "HostTensor", "map", 1, 1, "x.map(|v| ...)", "y.map(|e| e + 1)"),
      entry(K::Method, "HostTensor", "zip_with", 2, 2, "x.zip_with(&y, |a, b| ...)", "y.zip_with(&y, |a, b| a * b)"),
      entry(K::Method, "HostTensor", "save_npy", 1, 1, "x.save_npy(path)", "y.save_npy(\"$TMP/api_save.npy\")"),
      // HbmTensor methods.
      entry(K::Method, "HbmTensor", "to_host", 1, 1, "h.to_host::<M>(&mut ctx.pdma)", "h.to_host::<m![A]>(&mut ctx.pdma)"),
      entry(K::Method, "HbmTensor", "address", 0, 0, "h.address()", "h.address()"),
      entry(K::Method, "HbmTensor", "view", 0, 0, "h.view()", "h.view()"),
      refused(K::Method, "HbmTensor", "tile", "h.view().tile::<Dim, SIZE, Tile>(start)",
              "h.tile::<m![A / 8], 8, m![A % 64]>(0)",
              "`.tile()` takes a view of an HBM tensor: write `h.view().tile::<Dim, SIZE, Tile>(start)` (\"Mapping "
              "Tensors\" > Resize)"),
      // HbmTensorView methods: a view is metadata over the tensor's bytes ("Mapping Tensors" > Resize).
      entry(K::Method, "HbmTensorView", "tile", 1, 1, "v.tile::<Dim, SIZE, Tile>(start)",
            "h.view().tile::<m![A / 8], 8, m![A / 8 = 8 # 256, A % 8]>(2)"),
      entry(K::Method, "HbmTensorView", "view", 0, 0, "v.view()", "h.view().view()"),
      entry(K::Method, "HbmTensorView", "to_host", 1, 1, "v.to_host::<M>(&mut ctx.pdma)",
            "h.view().tile::<m![A / 8], 8, m![A / 8 = 8 # 256, A % 8]>(2).to_host::<m![A / 8 = 8, A % 8]>(&mut ctx.pdma)"),
      entry(K::Method, "HbmTensorView", "address", 0, 0, "v.address()",
            "h.view().tile::<m![A / 8], 8, m![A / 8 = 8 # 256, A % 8]>(2).address()"),
      // LookupTable methods.
      entry(K::Method, "LookupTable", "get", 1, 1, "t.get(x)", "t.get(-3)"),
      entry(K::Method, "LookupTable", "len", 0, 0, "t.len()", "t.len()"),
      entry(K::Method, "LookupTable", "into_vec", 0, 0, "t.into_vec()", "t.into_vec()"),
      entry(K::Method, "LookupTable", "to_vec", 0, 0, "t.to_vec()", "t.to_vec()"),
      // Other values.
      entry(K::Method, "SmallRng", "next_u32", 0, 0, "rng.next_u32()", "rng.next_u32()"),
      entry(K::Method, "Option", "unwrap", 0, 0, "o.unwrap()", "o.unwrap()"),
      entry(K::Method, "Option", "is_some", 0, 0, "o.is_some()", "o.is_some()"),
      entry(K::Method, "Option", "is_none", 0, 0, "o.is_none()", "o.is_none()"),
      entry(K::Method, "Vec", "len", 0, 0, "v.len()", "v.len()"),
      entry(K::Method, "String", "len", 0, 0, "s.len()", "s.len()"),
      entry(K::Method, "Index", "get", 1, 1, "ix.get(A)", "ix.get(A)"),
      entry(K::Method, "any", "clone", 0, 0, "x.clone()", "x.clone()"),
      // Context fields.
      entry(K::Field, "Context", "pdma", 0, 0, "ctx.pdma", "ctx.pdma"),
      entry(K::Field, "Context", "tdma", 0, 0, "ctx.tdma", "ctx.tdma"),
      refused(K::Field, "Context", "main", "ctx.main", "ctx.main",
              "`ctx.main` is a Tensor Unit context: it exists inside `#[device]` kernels, not in host code"),
      refused(K::Field, "Context", "sub", "ctx.sub", "ctx.sub",
              "`ctx.sub` is a Tensor Unit context: it exists inside `#[device]` kernels, not in host code"),
      // Macros.
      entry(K::Macro, "", "i", 0, V, "i![A: 1, B: 2]", "i![A: 1, B: 2]"),
      entry(K::Macro, "", "m", 0, V, "m![A, B]", "m![A, B]"),
      entry(K::Macro, "", "vec", 0, V, "vec![a, b]", "vec![1, 2, 3]"),
      entry(K::Macro, "", "assert_close", 2, 4, "assert_close!(x, y)", "assert_close!(x, x, 0.0, 0.0)"),
      entry(K::Macro, "", "assert_eq", 2, V, "assert_eq!(x, y)", "assert_eq!(y, y)"),
      entry(K::Macro, "", "assert_ne", 2, V, "assert_ne!(x, y)", "assert_ne!(1, 2, \"{} differs\", 1)"),
      entry(K::Macro, "", "assert", 1, V, "assert!(cond)", "assert!(true, \"never shown\")"),
      entry(K::Macro, "", "debug_assert", 1, V, "debug_assert!(cond)", "debug_assert!(1 < 2)"),
      entry(K::Macro, "", "println", 0, V, "println!(\"{}\", x)", "println!(\"{} {:?} {o:?}\", 1, o)"),
      entry(K::Macro, "", "print", 0, V, "print!(\"{}\", x)", "print!(\"{}\\n\", s)"),
      entry(K::Macro, "", "eprintln", 0, V, "eprintln!(\"{}\", x)", "eprintln!(\"to stderr\")"),
      entry(K::Macro, "", "eprint", 0, V, "eprint!(\"{}\", x)", "eprint!(\"{}\\n\", 2)"),
      entry(K::Macro, "", "format", 0, V, "format!(\"{}\", x)", "format!(\"{}-{}\", 1, s)"),
      entry(K::Macro, "", "todo", 0, V, "todo!()", "todo!()", "not yet implemented"),
      entry(K::Macro, "", "unimplemented", 0, V, "unimplemented!()", "unimplemented!()", "not implemented"),
      entry(K::Macro, "", "panic", 0, V, "panic!(\"...\")", "panic!(\"boom {}\", 1)", "explicit panic: boom 1"),
      entry(K::Macro, "", "unreachable", 0, V, "unreachable!()", "unreachable!()", "entered unreachable code"),
  };
}
}  // namespace

std::string HostApiEntry::spelling() const {
  switch (kind) {
    case Function:
    case Value: return name;
    case AssocFn:
    case AssocConst: return (owner == "mapping" ? "E" : owner) + "::" + name;
    case Method:
    case Field: return owner + "." + name;
    case Macro: return name + "!";
  }
  return name;
}

const std::vector<HostApiEntry> &hostApi() {
  static const std::vector<HostApiEntry> kApi = build();
  return kApi;
}

const HostApiEntry *findHostApi(HostApiEntry::Kind kind, const std::string &owner, const std::string &name) {
  for (const HostApiEntry &e : hostApi())
    if (e.kind == kind && e.name == name && (e.owner == owner || (kind == K::Method && e.owner == "any"))) return &e;
  return nullptr;
}

std::vector<std::string> hostApiNames(HostApiEntry::Kind kind, const std::string &owner) {
  std::vector<std::string> out;
  for (const HostApiEntry &e : hostApi())
    if (e.kind == kind && e.supported() && (e.owner == owner || (kind == K::Method && e.owner == "any"))) out.push_back(e.name);
  return out;
}

std::vector<std::string> hostApiOwners() {
  std::vector<std::string> out;
  for (const HostApiEntry &e : hostApi())
    if ((e.kind == K::AssocFn || e.kind == K::AssocConst) && e.owner != "mapping" &&
        std::find(out.begin(), out.end(), e.owner) == out.end())
      out.push_back(e.owner);
  return out;
}

}  // namespace tcp
