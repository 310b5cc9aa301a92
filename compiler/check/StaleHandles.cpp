// StaleHandles.cpp — the rule that a device tensor handle is read only while its storage still holds its data.
//
// A kernel's TRF, VRF, DM and HBM tensors live at fixed places: a TRF region (`TrfAddress::…`), a VRF
// or DM byte range of every slice, an HBM byte range of every chip. A later write to an overlapping
// place (a `to_trf` to an overlapping region, a `to_vrf`, `to_dm`, `dma`, `commit` or `to_hbm` whose
// bytes meet the tensor's) replaces the data the old handle names: the handle is stale, and reading it
// would silently read the new contents. Every tensor of a tier starts at slice (and Row) 0, so the
// slices and Rows of two tensors always meet and only the address ranges decide.
#include "EngineConfig.h"
#include "TypeCheckInternal.h"

namespace tcp {

namespace {
// Where a tensor's data lives in its tier; `known == false` for a stage function's TRF or VRF
// parameter, whose place the caller chose (it may be anywhere in the tier).
struct Storage {
  bool known = false;
  uint64_t begin = 0, end = 0;
};

std::optional<Storage> storageOf(const PlacedTensor &t) {
  switch (t.type.tier) {
    case Tier::Trf: {
      Storage s;
      if (t.region.empty()) return s;  // a parameter
      s.known = true;
      s.begin = t.region == "TrfAddress::SecondHalf" ? kTrfBytesPerRow / 2 : 0;
      s.end = t.region == "TrfAddress::FirstHalf" ? kTrfBytesPerRow / 2 : kTrfBytesPerRow;
      return s;
    }
    case Tier::Vrf:
      if (!t.placed) return Storage{};  // a parameter
      return Storage{true, t.address, t.address + t.bytes};
    case Tier::Dm:
    case Tier::Hbm:
      // A kernel's DM or HBM parameter is placed by the host at launch (apart from the kernel's own
      // addresses); every other DM and HBM tensor has its address.
      if (!t.placed) return std::nullopt;
      return Storage{true, t.address, t.address + t.bytes};
    default:
      return std::nullopt;  // streams have no storage
  }
}

bool overlaps(const Storage &a, const Storage &b) {
  if (!a.known || !b.known) return true;  // fail closed: an unknown place may be any
  return a.begin < b.end && b.begin < a.end;
}

std::string range(uint64_t begin, uint64_t end) {
  return "[" + std::to_string(begin) + ", " + std::to_string(end) + ")";
}

// "TRF region `TrfAddress::Full` (bank rows 0–127 of each slice)", "VRF [0, 256) of each slice".
std::string describe(const PlacedTensor &t, const Storage &s) {
  switch (t.type.tier) {
    case Tier::Trf:
      if (!s.known) return "TRF region (a parameter: its region is not known here)";
      return "TRF region `" + t.region + "` (bank rows " +
             (t.region == "TrfAddress::FirstHalf" ? "0–63" : t.region == "TrfAddress::SecondHalf" ? "64–127" : "0–127") +
             " of each slice)";
    case Tier::Vrf:
      if (!s.known) return "VRF bytes (a parameter: its address is not known here)";
      return "VRF " + range(s.begin, s.end) + " of each slice";
    case Tier::Dm: return "DM " + range(s.begin, s.end) + " of each slice";
    case Tier::Hbm: return "HBM " + range(s.begin, s.end) + " of each chip";
    default: return "storage";
  }
}
}  // namespace

void TypeChecker::FunctionChecker::checkStale(const CheckedValue &v, llvm::SMRange at) {
  if (v.kind != CheckedValue::Tensor || v.tensorId < 0) return;
  const int id = v.tensorId;
  const PlacedTensor &old = tensors_[id];
  std::optional<Storage> mine = storageOf(old);
  if (!mine) return;
  auto root = [&](int k) { return tensors_[k].aliasOf >= 0 ? tensors_[k].aliasOf : k; };
  // The first write after the handle was made that reaches its storage. A tile view writes nothing
  // (it names bytes of its tensor), nor does a parameter; writes into the handle's own tensor
  // (`commit_view` into a tile of it) keep it current.
  for (int j = id + 1; j < static_cast<int>(tensors_.size()); ++j) {
    const PlacedTensor &w = tensors_[j];
    if (w.aliasOf >= 0 || w.param >= 0 || w.type.tier != old.type.tier || root(j) == root(id)) continue;
    std::optional<Storage> theirs = storageOf(w);
    if (!theirs || !overlaps(*mine, *theirs)) continue;
    const TypedOp *writer = nullptr;
    for (const TypedOp &op : out_.ops)
      if (op.result == j) writer = &op;
    std::string oldName = old.name.empty() ? "this " + std::string(tierName(old.type.tier)) : "`" + old.name + "`";
    std::string what = writer ? "`." + writer->name + "(" + (writer->name == "to_trf" ? writer->arg : "") + ")`" : "a write";
    std::string line = writer ? " at line " + std::to_string(writer->line) : "";
    std::string by = w.name.empty() ? what + line : "`" + w.name + "` (" + what + line + ")";
    bool trf = old.type.tier == Tier::Trf;
    bool known = mine->known && theirs->known;
    std::string fix = !known ? "make the load where " + oldName + "'s place is known (the kernel)"
                      : trf  ? "load them into disjoint halves (`TrfAddress::FirstHalf`, `TrfAddress::SecondHalf`)"
                             : "give " + (w.name.empty() ? std::string("the write") : "`" + w.name + "`") + " a disjoint address";
    error(at, oldName + " is stale: " + by + " wrote " + describe(w, *theirs) + (known ? ", over its " : ", which may overlap its ") +
                  describe(old, *mine) +
                  "; once a later write overlaps a handle's storage the handle would read the new data (" +
                  (trf ? "\"TRF Sequencer\": `TrfAddress::Full` dedicates the entire TRF, the halves split it"
                       : "\"Execution Contexts\": tensors in use occupy disjoint addresses") +
                  "): read " + oldName + " before that write or " + fix);
    diags().note(w.range, oldName + "'s storage is overwritten here");
    staleReported_.insert({id, j});
    staleReported_.insert({root(id), j});
    return;
  }
}

}  // namespace tcp
