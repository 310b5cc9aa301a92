// TransposeEngine.cpp — derives and checks a Transpose Engine configuration from a transpose's types, and its cycles.
#include "TransposeEngine.h"

#include "MappingNormalForm.h"

#include <algorithm>
#include <cassert>

namespace tcp {

TransposeLimits transposeLimits(num::DType d) {
  switch (num::storageBits(d)) {
    case 4: return {4, 16, 64, 16, {16, 32}};
    case 8: return {8, 8, 32, 8, {8, 16, 32}};
    case 16: return {16, 8, 16, 4, {8, 16, 32}};
    default: return {32, 8, 8, 2, {8, 16, 32}};
  }
}

std::string transposeWidthName(num::DType d) { return std::to_string(num::storageBits(d)) + "-bit"; }

uint64_t TransposeConfig::cyclesPerIter() const {
  return doubleBuffered() ? std::max(inputFlitsPerIter(), outputFlitsPerIter()) : inputFlitsPerIter() + outputFlitsPerIter();
}

uint64_t TransposeConfig::cycles() const {
  if (n == 0) return 0;
  if (doubleBuffered()) return inputFlitsPerIter() + (n - 1) * cyclesPerIter() + outputFlitsPerIter();
  return n * cyclesPerIter();
}

int64_t TransposeConfig::source(uint64_t outTime, uint64_t outLane) const {
  if (outLane >= inRows || outRows == 0) return -1;  // Align: padding after in_rows elements
  uint64_t iter = outTime / outRows, col = outTime % outRows;
  uint64_t inTime = iter * inRows * packetsPerCol + outLane * packetsPerCol + col / elementsPerPacket;
  return int64_t(inTime * inLanes + col % elementsPerPacket);
}

namespace {

std::string dec(uint64_t v) { return std::to_string(v); }

std::string listText(const std::vector<uint64_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? (i + 1 == v.size() ? " or " : ", ") : "") + dec(v[i]);
  return s;
}

// packets_per_col the checker tries (valid ones are 1, 2 and 4).
constexpr uint64_t kMaxPacketsPerCol = 16;

// Largest number of positions of one mapping the checker enumerates.
constexpr uint64_t kMaxPositions = uint64_t(1) << 22;

// The tensor index of every position of a mapping as coordinates over a fixed axis list.
struct CoordTable {
  size_t k = 0;
  std::vector<int64_t> coords;
  std::vector<uint8_t> valid;
  bool has(uint64_t i) const { return valid[i]; }
  const int64_t *at(uint64_t i) const { return &coords[i * k]; }
};

CoordTable coordTable(const MappingRef &m, const std::vector<std::string> &axes) {
  CoordTable t;
  t.k = axes.size();
  t.coords.assign(m->size() * t.k, 0);
  t.valid.assign(m->size(), 0);
  for (uint64_t i = 0; i < m->size(); ++i) {
    auto idx = m->map(i);
    if (!idx) continue;
    t.valid[i] = 1;
    for (size_t a = 0; a < t.k; ++a) t.coords[i * t.k + a] = idx->get(axes[a]);
  }
  return t;
}

// One past the last position of a packet that holds an element (0 when none does).
uint64_t dataExtent(const CoordTable &t) {
  for (uint64_t i = t.valid.size(); i > 0; --i)
    if (t.valid[i - 1]) return i;
  return 0;
}

struct Tables {
  CoordTable inTime, inPkt, outTime, outPkt;
};

// Where a candidate configuration first disagrees with the output type.
struct Simulation {
  bool match = false;
  bool trimmedData = false;   // Trim drops a row holding data
  uint64_t matched = 0;       // output positions that agree before the first disagreement
  uint64_t badTime = 0, badLane = 0;
  int64_t badSource = -1;
  uint64_t trimmedRow = 0;
};

Simulation simulate(const TransposeConfig &c, const Tables &t) {
  Simulation s;
  size_t k = t.inTime.k;
  uint64_t outTimes = c.n * c.outRows;
  for (uint64_t to = 0; to < outTimes; ++to)
    for (uint64_t p = 0; p < c.outLanes; ++p) {
      int64_t src = c.source(to, p);
      bool want = t.outTime.has(to) && t.outPkt.has(p);
      uint64_t ti = src >= 0 ? uint64_t(src) / c.inLanes : 0, li = src >= 0 ? uint64_t(src) % c.inLanes : 0;
      bool have = src >= 0 && t.inTime.has(ti) && t.inPkt.has(li);
      bool same = want == have;
      if (same && want) {
        const int64_t *a = t.outTime.at(to), *b = t.outPkt.at(p), *x = t.inTime.at(ti), *y = t.inPkt.at(li);
        for (size_t j = 0; j < k && same; ++j) same = a[j] + b[j] == x[j] + y[j];
      }
      if (!same) {
        s.badTime = to;
        s.badLane = p;
        s.badSource = src;
        return s;
      }
      ++s.matched;
    }
  // Trim keeps the first out_rows of the in_cols transposed rows: the others must be padding.
  for (uint64_t it = 0; it < c.n; ++it)
    for (uint64_t r = 0; r < c.inRows; ++r)
      for (uint64_t col = c.outRows; col < c.inCols(); ++col) {
        uint64_t ti = it * c.inRows * c.packetsPerCol + r * c.packetsPerCol + col / c.elementsPerPacket;
        if (t.inTime.has(ti) && t.inPkt.has(col % c.elementsPerPacket)) {
          s.trimmedData = true;
          s.trimmedRow = col;
          return s;
        }
      }
  s.match = true;
  return s;
}

std::string indexAt(const MappingRef &time, const MappingRef &packet, uint64_t t, uint64_t p) {
  auto a = time->map(t), b = packet->map(p);
  if (!a || !b) return "padding";
  a->add(*b);
  return a->str();
}

// The output types that configuration (R, C, O) gives for `in`: OutTime = [Time / (R·C), Time % C,
// Packet = elements_per_packet] (resized to O rows), OutPacket = [Time / C % R # output_alignment].
std::optional<std::pair<MappingRef, MappingRef>> outputTypes(const TensorType &in, const TransposeConfig &c) {
  std::string e;
  MappingRef outer = Mapping::stride(in.time, c.inRows * c.packetsPerCol, &e);
  MappingRef ppc = Mapping::modulo(in.time, c.packetsPerCol, &e);
  MappingRef major = Mapping::stride(in.time, c.packetsPerCol, &e);
  MappingRef rows = major ? Mapping::modulo(major, c.inRows, &e) : nullptr;
  MappingRef lanes = Mapping::resize(in.packet, c.elementsPerPacket, &e);
  if (!outer || !ppc || !rows || !lanes) return std::nullopt;
  MappingRef cols = Mapping::pair(ppc, lanes, &e);
  if (cols && c.outRows < cols->size()) cols = Mapping::resize(cols, c.outRows, &e);
  MappingRef time = cols ? Mapping::pair(outer, cols, &e) : nullptr;
  MappingRef packet = Mapping::pad(rows, c.outputAlignment, &e);
  if (!time || !packet) return std::nullopt;
  return std::make_pair(normalize(time), normalize(packet));
}

std::string suggestion(const TensorType &in, const TransposeConfig &c, const Tables &t) {
  auto types = outputTypes(in, c);
  if (!types) return "";
  std::vector<std::string> axes;  // the suggestion's own check, over its axes
  for (const MappingRef &m : {in.time, in.packet, types->first, types->second})
    for (const AxisInfo &a : m->axes())
      if (std::find(axes.begin(), axes.end(), a.name) == axes.end()) axes.push_back(a.name);
  if (types->first->size() > kMaxPositions) return "";
  Tables u{coordTable(in.time, axes), coordTable(in.packet, axes), coordTable(types->first, axes),
           coordTable(types->second, axes)};
  (void)t;
  TransposeConfig d = c;
  d.outRows = types->first->size() / std::max<uint64_t>(c.n, 1);
  if (!simulate(d, u).match) return "";
  return "; this configuration gives `.transpose::<" + types->first->str() + ", " + types->second->str() + ">()`";
}

}  // namespace

TransposeCheck checkTranspose(const TensorType &in, const TensorType &out) {
  TransposeCheck r;
  auto err = [&](const std::string &s) { r.errors.push_back(s); };
  if (!in.time || !in.packet || !out.time || !out.packet) return r;
  if (out.dtype != in.dtype)
    err(std::string("the Transpose Engine reorders elements and keeps their type: the input is ") + num::dtypeName(in.dtype) +
        ", the output " + num::dtypeName(out.dtype));
  const std::pair<const char *, std::pair<MappingRef, MappingRef>> kept[] = {
      {"Chip", {in.chip, out.chip}}, {"Cluster", {in.cluster, out.cluster}}, {"Slice", {in.slice, out.slice}}};
  for (const auto &[name, ms] : kept)
    if (ms.first && ms.second && !equivalent(ms.first, ms.second))
      err(std::string("the Transpose Engine operates on Time and Packet only: ") + name + " " + ms.first->str() +
          " cannot become " + ms.second->str());
  TransposeLimits L = transposeLimits(in.dtype);
  std::string width = transposeWidthName(in.dtype);
  if (in.packetBytes() != 32)
    err("the Transpose Engine takes 32-byte input packets, but Packet " + in.packet->str() + " is " +
        dec(in.packetBytes()) + " bytes (Constraints: both the input and output packets must be 32 bytes)");
  if (out.packetBytes() != 32)
    err("the Transpose Engine produces 32-byte output packets of output_alignment = " + dec(L.outputAlignment) + " " +
        width + " elements, but OutPacket " + out.packet->str() + " is " + dec(out.packetBytes()) +
        " bytes (Constraints: both the input and output packets must be 32 bytes)");
  if (!r.errors.empty()) return r;
  for (const MappingRef &m : {in.time, in.packet, out.time, out.packet})
    if (m->size() > kMaxPositions) {
      err("the transpose's Time " + m->str() + " has more than " + dec(kMaxPositions) + " positions, too many to check");
      return r;
    }

  std::vector<std::string> axes;
  for (const MappingRef &m : {in.time, in.packet, out.time, out.packet})
    for (const AxisInfo &a : m->axes())
      if (std::find(axes.begin(), axes.end(), a.name) == axes.end()) axes.push_back(a.name);
  Tables t{coordTable(in.time, axes), coordTable(in.packet, axes), coordTable(out.time, axes), coordTable(out.packet, axes)};

  // Unpack keeps the first elements_per_packet elements of each packet.
  uint64_t inExtent = dataExtent(t.inPkt), outExtent = dataExtent(t.outPkt);
  if (inExtent > L.elementsPerPacket) {
    err("Unpack keeps the first " + dec(L.elementsPerPacket) + " elements of each 32-byte packet (Input Bus Constraints: " +
        dec(L.bits) + "b × " + dec(L.elementsPerPacket) + " for " + width + " types), but Packet " + in.packet->str() +
        " holds data up to element " + dec(inExtent) + "; split the packet over Time before the transpose");
    return r;
  }

  uint64_t Tin = in.time->size(), Tout = out.time->size();
  TransposeConfig base;
  base.bits = L.bits;
  base.elementsPerPacket = L.elementsPerPacket;
  base.outputAlignment = L.outputAlignment;
  base.inLanes = in.packet->size();
  base.outLanes = out.packet->size();

  std::optional<TransposeConfig> invalidMatch, trimmed, best;
  Simulation bestSim, trimmedSim;
  for (uint64_t R = std::max<uint64_t>(outExtent, 1); R <= base.outLanes; ++R) {
    if (Tin % R) continue;
    // Valid in_cols need packets_per_col <= 4; larger ones are tried to name the broken constraint.
    for (uint64_t C = 1; C <= std::min<uint64_t>(Tin / R, kMaxPacketsPerCol); ++C) {
      if ((Tin / R) % C) continue;
      TransposeConfig c = base;
      c.inRows = R;
      c.packetsPerCol = C;
      c.n = Tin / (R * C);
      if (Tout % c.n) continue;
      c.outRows = Tout / c.n;
      if (c.outRows == 0 || c.outRows > c.inCols()) continue;
      bool valid = R <= L.maxInRows && std::count(L.validInCols.begin(), L.validInCols.end(), c.inCols());
      Simulation s = simulate(c, t);
      if (s.match) {
        if (valid) {
          r.config = c;
          return r;
        }
        if (!invalidMatch) invalidMatch = c;
      } else if (s.trimmedData && valid) {
        if (!trimmed) trimmed = c, trimmedSim = s;
      } else if (valid && (!best || s.matched > bestSim.matched)) {
        best = c;
        bestSim = s;
      }
    }
  }
  if (trimmed) {
    const TransposeConfig &c = *trimmed;
    err("Trim keeps the first out_rows = " + dec(c.outRows) + " of the in_cols = " + dec(c.inCols()) +
        " transposed rows, but row " + dec(trimmedSim.trimmedRow) + " holds data of Packet " + in.packet->str() +
        " (Trim removes padded rows only; OutTime " + out.time->str() + " has " + dec(Tout) + " = n " + dec(c.n) +
        " × out_rows " + dec(c.outRows) + " steps)" + suggestion(in, c, t));
    return r;
  }
  if (invalidMatch) {
    const TransposeConfig &c = *invalidMatch;
    if (c.inRows > L.maxInRows)
      err("this transpose needs in_rows = " + dec(c.inRows) + " (OutPacket " + out.packet->str() + "), more than the " +
          dec(L.maxInRows) + " rows the Transpose Engine takes for " + width + " types (Constraints: Max in_rows)");
    else
      err("this transpose needs in_cols = " + dec(c.inCols()) + " (packets_per_col " + dec(c.packetsPerCol) +
          " × elements_per_packet " + dec(c.elementsPerPacket) + "), but in_cols must be " + listText(L.validInCols) +
          " for " + width + " types (Constraints: Valid in_cols)");
    return r;
  }
  if (best) {
    const TransposeConfig &c = *best;
    std::string at = bestSim.badSource >= 0
                         ? indexAt(in.time, in.packet, uint64_t(bestSim.badSource) / c.inLanes, uint64_t(bestSim.badSource) % c.inLanes)
                         : "padding";
    err("the Transpose Engine cannot produce OutTime " + out.time->str() + ", OutPacket " + out.packet->str() +
        " from Time " + in.time->str() + ", Packet " + in.packet->str() + ": it swaps the innermost in_rows × packets_per_col "
        "Time steps with the first elements_per_packet elements of each packet, and the closest configuration (in_rows = " +
        dec(c.inRows) + ", in_cols = " + dec(c.inCols()) + ", out_rows = " + dec(c.outRows) + ") puts " + at +
        " at OutTime position " + dec(bestSim.badTime) + ", OutPacket position " + dec(bestSim.badLane) +
        ", where the output type has " + indexAt(out.time, out.packet, bestSim.badTime, bestSim.badLane) + suggestion(in, c, t));
    return r;
  }
  if (outExtent > L.maxInRows)
    err("OutPacket " + out.packet->str() + " holds " + dec(outExtent) + " rows of in_rows, more than the " +
        dec(L.maxInRows) + " the Transpose Engine takes for " + width + " types (Constraints: Max in_rows)");
  else
    err("no Transpose Engine configuration fits Time " + in.time->str() + " (" + dec(Tin) + " steps) and OutTime " +
        out.time->str() + " (" + dec(Tout) + " steps): Time::SIZE = n × in_rows × packets_per_col and OutTime::SIZE = n × "
        "out_rows, with in_rows at least " + dec(std::max<uint64_t>(outExtent, 1)) + " (the data of OutPacket " +
        out.packet->str() + ") and at most " + dec(L.maxInRows) + ", in_cols = packets_per_col × " + dec(L.elementsPerPacket) +
        " of " + listText(L.validInCols) + " and out_rows <= in_cols (Constraints)");
  return r;
}

}  // namespace tcp
