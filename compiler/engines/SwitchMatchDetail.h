// SwitchMatchDetail.h — the matcher shared by the Switch Engine's regular and custom topologies (not a public API).
#pragma once

#include "SwitchTopology.h"

#include "MappingFactor.h"
#include "MappingNormalForm.h"

#include <algorithm>
#include <map>
#include <set>

namespace tcp::switchmatch {

inline constexpr uint64_t kSlices = 256;

inline std::string num(uint64_t v) { return std::to_string(v); }
inline std::string show(const MappingRef &m) { return m ? normalize(m)->str() : std::string("?"); }

// The parts of m for the radices (major → minor): part i = m / (radices minor to i) % radix_i.
// The radices multiply to m's size (checked by the caller).
inline std::vector<MappingRef> split(const MappingRef &m, const std::vector<uint64_t> &radices) {
  std::vector<MappingRef> parts;
  std::string err;
  for (size_t i = 0; i < radices.size(); ++i) {
    uint64_t minor = 1;
    for (size_t j = i + 1; j < radices.size(); ++j) minor *= radices[j];
    MappingRef x = minor > 1 ? Mapping::stride(m, minor, &err) : m;
    if (x && i > 0 && x->size() != radices[i]) x = Mapping::modulo(x, radices[i], &err);
    parts.push_back(x ? normalize(x) : nullptr);
  }
  return parts;
}

inline MappingRef join(const std::vector<MappingRef> &parts) {
  MappingRef m;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (!*it) return nullptr;
    m = m ? Mapping::pair(*it, m) : *it;
  }
  return m ? normalize(m) : Mapping::identity();
}

inline bool same(const MappingRef &a, const MappingRef &b) { return a && b && a->size() == b->size() && equivalent(a, b); }

inline std::set<std::string> axisNames(const std::vector<MappingRef> &ms) {
  std::set<std::string> out;
  for (const MappingRef &m : ms)
    if (m)
      for (const AxisInfo &a : m->axes()) out.insert(a.name);
  return out;
}

class Matcher {
 public:
  Matcher(const SwitchConfigArgs &cfg, MappingRef inSlice, MappingRef inTime, MappingRef outSlice, MappingRef outTime)
      : cfg_(cfg), inS_(std::move(inSlice)), inT_(std::move(inTime)), outS_(std::move(outSlice)), outT_(std::move(outTime)) {}

  SwitchMatch run();

 private:
  void error(const std::string &m) { errors_.push_back(title_ + ": " + m); }
  bool readParams(const std::vector<const char *> &names);
  uint64_t p(const char *n) const { return given_.count(n) ? given_.at(n) : 0; }
  // Compares the output mapping `what` ("Slice"/"Time") part by part with the pattern's parts.
  bool expect(const char *what, const MappingRef &out, const std::vector<std::pair<std::string, MappingRef>> &pattern);
  // The output Slice's tile of `size` positions (broadcast) must hold no coordinate of the input.
  bool expectTile(const MappingRef &tile, const std::string &where);
  bool regular(SwitchPlan &plan);
  bool custom(SwitchPlan &plan);

  const SwitchConfigArgs &cfg_;
  MappingRef inS_, inT_, outS_, outT_;
  std::string title_;
  std::map<std::string, uint64_t> given_;
  std::vector<std::string> errors_;
};

}  // namespace tcp::switchmatch
