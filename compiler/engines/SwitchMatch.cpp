// SwitchMatch.cpp — matches a SwitchConfig against the input and output Slice/Time mappings ("Switch Engine"):
// the topology's parameters, the output mappings part by part, the broadcast tile; regular topologies in
// SwitchRegular.cpp, custom bitmaps in SwitchCustom.cpp.
#include "SwitchMatchDetail.h"

namespace tcp {

namespace switchmatch {

bool Matcher::readParams(const std::vector<const char *> &names) {
  bool ok = true;
  std::string list;
  for (const char *n : names) list += (list.empty() ? "" : ", ") + std::string(n);
  for (const auto &field : cfg_.fields) {
    const std::string &k = field.first;
    const uint64_t v = field.second;
    if (std::find_if(names.begin(), names.end(), [&](const char *n) { return k == n; }) == names.end()) {
      error("no field `" + k + "` (its fields: " + (list.empty() ? "none" : list) + ")");
      ok = false;
    } else if (v == 0) {
      error("`" + k + "` must be at least 1");
      ok = false;
    } else {
      given_[k] = v;
    }
  }
  for (const char *n : names)
    if (!given_.count(n) && ok) {
      bool present = std::any_of(cfg_.fields.begin(), cfg_.fields.end(), [&](const auto &f) { return f.first == n; });
      if (!present) {
        error(std::string("missing field `") + n + "` (its fields: " + list + ")");
        ok = false;
      }
    }
  return ok;
}

bool Matcher::expect(const char *what, const MappingRef &out, const std::vector<std::pair<std::string, MappingRef>> &pattern) {
  std::vector<uint64_t> radices;
  std::vector<MappingRef> want;
  std::string layout;
  for (const auto &[name, m] : pattern) {
    radices.push_back(m ? m->size() : 1);
    want.push_back(m);
    layout += (layout.empty() ? "" : ", ") + name;
  }
  MappingRef whole = join(want);
  std::vector<MappingRef> have = split(out, radices);
  if (pattern.size() == 1) {
    if (same(out, want[0])) return true;
    error(std::string("the output ") + what + " must be the input " + what + " " + show(want[0]) +
          " (topology pattern matching: the topology keeps it), but it is " + show(out));
    return false;
  }
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (same(have[i], want[i])) continue;
    uint64_t minor = 1;
    for (size_t j = i + 1; j < radices.size(); ++j) minor *= radices[j];
    error(std::string("the output ") + what + " must be [" + layout + "] = " + show(whole) + " (topology pattern matching), but its " +
          pattern[i].first + " part (" + num(radices[i]) + " positions" + (minor > 1 ? " of stride " + num(minor) : "") +
          ") is " + show(have[i]) + ", not " + show(want[i]));
    return false;
  }
  return true;
}

bool Matcher::expectTile(const MappingRef &tile, const std::string &where) {
  std::set<std::string> input = axisNames({inS_, inT_});
  for (const AxisInfo &a : tile ? tile->axes() : std::vector<AxisInfo>{})
    if (input.count(a.name)) {
      error("the output Slice's " + where + " (" + num(tile->size()) +
            " positions) is the broadcast tile: every slice of a ring group receives the same data there, so it holds a new axis or padding (e.g. `X` with `axes![X = " +
            num(tile->size()) + "]`), not " + show(tile) + " of the input");
      return false;
    }
  return true;
}

SwitchMatch Matcher::run() {
  SwitchMatch r;
  static const std::vector<std::pair<SwitchTopology, std::vector<const char *>>> kinds = {
      {SwitchTopology::Forwarding, {}},
      {SwitchTopology::Broadcast01, {"slice1", "slice0", "time0"}},
      {SwitchTopology::Broadcast1, {"slice1", "slice0"}},
      {SwitchTopology::Transpose, {"slice1", "slice0"}},
      {SwitchTopology::InterTranspose, {"slice1", "slice0", "time0"}},
      {SwitchTopology::CustomBroadcast, {"ring_size"}},
  };
  auto plan = std::make_shared<SwitchPlan>();
  const std::vector<const char *> *fields = nullptr;
  for (const auto &[k, f] : kinds)
    if (cfg_.name == topologyName(k)) {
      plan->topology = k;
      fields = &f;
    }
  title_ = "switch `SwitchConfig::" + cfg_.name + "`";
  if (!fields) {
    r.errors.push_back("unknown switch topology `SwitchConfig::" + cfg_.name +
                       "`; the Switch Engine has Forwarding, Broadcast01, Broadcast1, Transpose, InterTranspose and CustomBroadcast");
    return r;
  }
  if (!readParams(*fields)) {
    r.errors = errors_;
    return r;
  }
  if (inS_->size() != kSlices || outS_->size() != kSlices) {
    const MappingRef &bad = inS_->size() != kSlices ? inS_ : outS_;
    error(std::string(inS_->size() != kSlices ? "InSlice" : "OutSlice") + "::SIZE is " + num(bad->size()) + " (" + bad->str() +
          "); the switch runs on a full cluster: InSlice::SIZE = OutSlice::SIZE = 256 (full cluster operation; pad the Slice, e.g. m![" +
          bad->body() + " # 256])");
    r.errors = errors_;
    return r;
  }
  plan->inTime = inT_->size();
  plan->outTime = outT_->size();
  bool ok = plan->topology == SwitchTopology::CustomBroadcast ? custom(*plan) : regular(*plan);
  r.errors = errors_;
  if (ok && errors_.empty()) r.plan = std::move(plan);
  return r;
}

}  // namespace switchmatch

SwitchMatch matchSwitch(const SwitchConfigArgs &cfg, const MappingRef &inSlice, const MappingRef &inTime,
                        const MappingRef &outSlice, const MappingRef &outTime) {
  if (!inSlice || !inTime || !outSlice || !outTime) return {};
  return switchmatch::Matcher(cfg, inSlice, inTime, outSlice, outTime).run();
}

}  // namespace tcp
