// OpFetch.cpp — rules of fetch: the Fetch Sequencer reading Buf as (Time, Packet) and the Fetch Adapter stages.
#include "DeliberateSlice.h"
#include "MappingFactor.h"
#include "MappingNormalForm.h"
#include "Sequencer.h"
#include "TypeCheckInternal.h"

namespace tcp {

namespace {
std::string bytesText(uint64_t b) { return std::to_string(b) + (b == 1 ? " byte" : " bytes"); }
}  // namespace

CheckedValue TypeChecker::FunctionChecker::opFetch(const ast::Expr &call, const CheckedValue &recv,
                                                   const std::optional<TensorType> &expected) {
  return checkFetch(call, recv, expected, std::nullopt);
}

CheckedValue TypeChecker::FunctionChecker::checkFetch(const ast::Expr &call, const CheckedValue &recv,
                                                      const std::optional<TensorType> &expected,
                                                      std::optional<num::DType> castFrom) {
  if (!requireStage(call, recv)) return {};
  auto args = typeArgs(call, 3);
  bool exp = expected && expected->tier == Tier::Stream;
  TensorType out = recv.type;
  out.stage = Stage::Fetch;
  out.dtype = args[0].dtype ? *args[0].dtype : exp ? expected->dtype : recv.type.dtype;
  if (args[0].given && !args[0].dtype)
    error(args[0].ast->range, "the first type argument of `.fetch()` is the element type (e.g. `bf16`)");
  out.time = pick(args[1], exp ? expected->time : nullptr, call, "Time");
  out.packet = pick(args[2], exp ? expected->packet : nullptr, call, "Packet");
  if (!out.time || !out.packet) return {};
  llvm::SMRange r = opRange(call);
  num::DType from = recv.type.dtype, to = out.dtype;
  // With a lookup table, Type Casting follows Table Indexing: it casts the table's Out type.
  num::DType castIn = castFrom.value_or(from);
  if (castIn != to && !num::fetchCastSupported(castIn, to, tc_.rngdS())) {
    bool onS = num::fetchCastSupported(castIn, to, true);
    error(r, std::string(castFrom ? "table indexing yields " + std::string(num::dtypeName(castIn)) + " (the LookupTable's Out "
                                    "type) but the fetch produces " + num::dtypeName(to) + ", and the Fetch Adapter's Type "
                                    "Casting, the stage after Table Indexing, "
                                  : "the Fetch Engine ") +
                 "cannot cast " + num::dtypeName(castIn) + " to " + num::dtypeName(to) +
                 " (RNGD fetch casts: i4 → i5/i32, i8 → i9/i32, i16 → i32, f8e4m3/f8e5m2/bf16/f16 → f32, f32 → bf16" +
                 (tc_.rngdS() ? "; RNGD-S adds i4/i16 → i9, f8e4m3/f8e5m2 → bf16)"
                              : onS ? "); RNGD-S supports it: compile with --target=rngd-s" : ")"));
  }
  uint64_t bytes = out.packetBytes();
  if (bytes % 8 != 0)
    error(r, "fetch output packet " + out.packet->str() + " is " + bytesText(bytes) + " of " + num::dtypeName(to) +
                 "; it must be a multiple of 8 bytes (the fetch sequencer's read granularity)");
  // A resize on the result (`A % 4 = 3`, "Slicing Axes") slices on purpose; any other loss is an error.
  checkPreserved({recv.type.time, recv.type.packet}, {unsliced(out.time), unsliced(out.packet)}, r, "fetch");
  // "Fetch Engine": `.fetch()` has no Slice parameter; each slice reads its own Element. Time and
  // Packet may broadcast (stride 0) only digits the tensor lacks: digits of an axis its Chip, Cluster or
  // Slice holds live on other slices, and repeating them would label this slice's data with their
  // coordinates (other digits of such an axis may broadcast: the GEMM's `J / 8 % 4` under Slice `J / 32`).
  if (out.time && out.packet && recv.type.packet) {
    std::vector<FactorTerm> held = factorization(recv.type.packet).terms;
    struct Place { const char *role; MappingRef map; std::vector<FactorTerm> terms; };
    std::vector<Place> places;
    for (auto [role, m] : {std::pair<const char *, MappingRef>{"Chip", recv.type.chip}, {"Cluster", recv.type.cluster},
                           {"Slice", recv.type.slice}})
      if (m) places.push_back({role, m, factorization(m).terms});
    // Shared digits of one axis, whatever alias or skew names it (`overlap()` compares names and
    // counts a padded term's padding digits; here only real digits of the base axis count).
    auto digits = [](const FactorTerm &f) { return std::max<uint64_t>(std::min(f.count, f.limit), 1); };
    auto heldElsewhere = [&](const FactorTerm &t) -> const Place * {
      for (const Place &p : places)
        for (const FactorTerm &u : p.terms)
          if (u.kind == FactorTerm::Axis && u.axis.baseName() == t.axis.baseName() &&
              u.axisStride < t.axisStride * digits(t) && t.axisStride < u.axisStride * digits(u))
            return &p;
      return nullptr;
    };
    for (const auto &[role, m] : {std::pair<const char *, MappingRef>{"Time", out.time}, {"Packet", out.packet}}) {
      const Place *p = nullptr;
      const FactorTerm *bad = nullptr;
      std::vector<FactorTerm> terms = factorization(m).terms;
      for (const FactorTerm &t : terms)
        if (t.kind == FactorTerm::Axis && locate(t, held).status == Placement::Broadcast && (p = heldElsewhere(t))) {
          bad = &t;
          break;
        }
      if (!bad) continue;
      error(r, std::string("fetch ") + role + " " + m->str() + " reads `" + bad->str() + "` of axis `" +
                   bad->axis.baseName() + "`, which the tensor holds in its " + p->role + " " + p->map->str() +
                   ", not in the Element " + recv.type.packet->str() +
                   ": each slice fetches its own Element (\"Fetch Engine\": no Slice parameter; a fetch "
                   "broadcasts only digits the tensor lacks, and the Switch Engine moves data across slices)");
      break;
    }
  }
  // The fetch sequencer must be able to read Buf as (Time, Packet).
  SeqOptions opts;
  opts.use = SeqUse::Fetch;
  SeqResult seq = derive(recv.type.packet, out.time, out.packet, num::storageBits(from), opts);
  for (const std::string &d : seq.diagnostics) error(r, "fetch sequencer: " + d);
  emit(call, recv.type, out).sequencer = std::make_shared<const SeqResult>(std::move(seq));
  return tensorValue(out, place(out, "", r, std::nullopt));
}

}  // namespace tcp
