// SequencerDetail.h — internals shared by the sequencer sources: merged entries and padded reads (not a public API).
#pragma once

#include "MappingFactor.h"
#include "Sequencer.h"

#include <string>
#include <vector>

namespace tcp::seqdetail {

inline std::string q(const std::string &s) { return "`" + s + "`"; }
inline std::string num(uint64_t v) { return std::to_string(v); }

// An entry that iterates one contiguous range of one axis; merged entries keep a name from it
// (`C / 2`, `C % 2` → `C`; `W / 8 % 2`, `W % 8` → `W % 16`).
struct AxisRange {
  bool valid = false;
  AxisInfo axis;
  uint64_t axisStride = 1;
  uint64_t count = 1;
};

struct Entry {
  SeqEntry e;
  AxisRange r;
};

std::string rangeName(const AxisRange &r);
// Merges adjacent contiguous entries (outer stride = inner size × inner stride) up to maxSize.
std::vector<Entry> mergeEntries(std::vector<Entry> v, uint64_t maxSize);

// `# l + X + # r` (X one data part) reads as `X # (l + |X| + r)` from l positions of X before
// X's start: the left padding becomes a negative base offset (the manual's masking cases).
struct Shift {
  MappingRef x;
  uint64_t left = 0;
  std::string concat;  // the concatenation's text: every term of one `B'` shares one offset
};

// Rewrites the concatenations and padded axes of `m` as paddings of their data part, recording each
// left padding in `shifts`; nullptr with `err` when a concatenation joins several data parts.
// symbolsOnly: only padded axes are rewritten (a buffer's own concatenations keep their layout).
MappingRef rewriteConcats(const MappingRef &m, std::vector<Shift> &shifts, std::string &err, bool symbolsOnly = false);

}  // namespace tcp::seqdetail
