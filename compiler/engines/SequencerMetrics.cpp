// SequencerMetrics.cpp — fetch_size, commit_size, cycles and write offsets from sequencer configurations.
#include "SequencerMetrics.h"

#include <cassert>
#include <cstdlib>
#include <numeric>

namespace tcp {

namespace {

std::string num(uint64_t v) { return std::to_string(v); }

// Bytes of n elements of `bits` bits; false when they are not a whole number of bytes.
bool wholeBytes(uint64_t elems, unsigned bits, uint64_t &bytes) {
  if ((elems * bits) % 8 != 0) return false;
  bytes = elems * bits / 8;
  return true;
}

}  // namespace

uint64_t contiguousSramAccessElems(const SeqConfig &c) {
  if (c.entries.empty()) return 1;
  const SeqEntry &in = c.entries.back();
  if (in.stride != 0 && in.stride != 1) return 1;
  uint64_t total = in.size;
  for (size_t k = c.entries.size() - 1; k-- > 0;) {
    const SeqEntry &outer = c.entries[k], &inner = c.entries[k + 1];
    if (outer.stride != static_cast<int64_t>(inner.size) * inner.stride) break;
    total *= outer.size;
  }
  return total;
}

uint64_t contiguousSramAccessBytes(const SeqConfig &c, unsigned elemBits) {
  return contiguousSramAccessElems(c) * elemBits / 8;
}

SizeResult fetchSize(uint64_t packetBytes, uint64_t contiguousBytes, Context context, bool castFromI4toI32,
                     uint64_t maxFetchBytes) {
  SizeResult r;
  if (packetBytes == 0 || contiguousBytes == 0) {
    r.error = "fetch_size: a fetch reads whole bytes, but the " +
              std::string(packetBytes == 0 ? "packet" : "contiguous sram access") + " is less than a byte";
    return r;
  }
  uint64_t g = std::gcd(packetBytes, contiguousBytes);
  std::string why = "gcd(packet_size " + num(packetBytes) + ", contiguous_sram_access_size " + num(contiguousBytes) +
                    ") = " + num(g) + " bytes";
  if (context == Context::Sub) {
    uint64_t need = castFromI4toI32 ? 4 : 8;
    if (g % need != 0)
      r.error = "fetch_size: the sub-context fetches " + num(need) + " bytes" +
                (castFromI4toI32 ? " when casting i4 to i32" : "") + ", which does not divide " + why;
    else
      r.bytes = need;
    return r;
  }
  for (uint64_t d : {32, 16, 8, 4, 2, 1})
    if (d <= maxFetchBytes && g % d == 0) {
      r.bytes = d;
      return r;
    }
  r.error = "fetch_size: no main-context fetch size (1, 2, 4, 8, 16 or 32 bytes, at most " + num(maxFetchBytes) +
            ") divides " + why;
  return r;
}

uint64_t fetchesPerPacket(uint64_t packetBytes, uint64_t fetchSize) {
  assert(fetchSize > 0);
  return (packetBytes + fetchSize - 1) / fetchSize;
}

uint64_t fetchCycles(uint64_t timeSize, uint64_t packetBytes, uint64_t fetchSize) {
  return timeSize * fetchesPerPacket(packetBytes, fetchSize);
}

uint64_t maxFetchBytesForCast(unsigned inBits, unsigned outBits) {
  assert(inBits > 0 && outBits > 0);
  if (outBits <= inBits) return 32;
  return 32 * inBits / outBits;
}

std::string checkFetchCast(uint64_t fetchBytes, unsigned inBits, unsigned outBits) {
  uint64_t out = fetchBytes * outBits / inBits;
  if (out <= 32) return "";
  return "fetch cast output: a fetch of " + num(fetchBytes) + " bytes casts " + num(inBits) + "-bit to " + num(outBits) +
         "-bit elements and produces " + num(out) + " bytes; a single fetch may produce at most 32 bytes";
}

std::string checkFetchAlignment(uint64_t packetBytes) {
  if (packetBytes % 8 == 0) return "";
  return "fetch output packet must be 8-byte aligned, got " + num(packetBytes) + " bytes";
}

SizeResult commitInSize(uint64_t packetBytes) {
  SizeResult r;
  if (packetBytes == 8 || packetBytes == 16 || packetBytes == 24 || packetBytes == 32) {
    r.bytes = packetBytes;
  } else if (packetBytes > 32) {
    r.error = "commit_in_size: the commit input is one 32-byte flit, but the packet keeps " + num(packetBytes) + " bytes";
  } else {
    r.error = "commit_in_size: the commit adapter truncates packets to 8, 16, 24 or 32 bytes, but the packet keeps " +
              num(packetBytes) + " bytes";
  }
  return r;
}

SizeResult commitSize(uint64_t contiguousBytes, uint64_t commitInBytes, Context context) {
  SizeResult r;
  uint64_t g = std::gcd(contiguousBytes, commitInBytes);
  std::string why = "gcd(contiguous_sram_access_size " + num(contiguousBytes) + ", commit_in_size " +
                    num(commitInBytes) + ") = " + num(g) + " bytes";
  if (context == Context::Sub) {
    if (g % 8 == 0)
      r.bytes = 8;
    else
      r.error = "commit_size: the sub-context writes 8 bytes, which does not divide " + why;
    return r;
  }
  if (g == 8 || g == 16 || g == 24 || g == 32)
    r.bytes = g;
  else
    r.error = "commit_size: the main context writes 8, 16, 24 or 32 bytes, but " + why;
  return r;
}

std::vector<uint64_t> commitWriteOffsets(const SeqConfig &c, unsigned elemBits, uint64_t commitSizeBytes,
                                         uint64_t commitInBytes) {
  assert(commitSizeBytes > 0 && commitInBytes % commitSizeBytes == 0);
  std::vector<const SeqEntry *> packet;  // minor first
  for (size_t k = c.entries.size(); k-- > 0 && c.entries[k].packet;) packet.push_back(&c.entries[k]);
  std::vector<uint64_t> out;
  for (uint64_t j = 0; j < commitInBytes / commitSizeBytes; ++j) {
    uint64_t e = j * commitSizeBytes * 8 / elemBits;
    int64_t at = 0;
    for (const SeqEntry *p : packet) {
      at += static_cast<int64_t>(e % p->size) * p->stride;
      e /= p->size;
    }
    at += static_cast<int64_t>(e) * static_cast<int64_t>(c.packetSpan());  // past the packet entries
    out.push_back(static_cast<uint64_t>(at) * elemBits / 8);
  }
  return out;
}

std::vector<std::string> checkCommitStrides(const SeqConfig &c, unsigned elemBits, uint64_t commitSizeBytes) {
  std::vector<std::string> d;
  uint64_t chunk = commitSizeBytes * 8 / elemBits, inside = 1;
  bool in = true;
  for (size_t k = c.entries.size(); k-- > 0;) {
    const SeqEntry &e = c.entries[k];
    if (in && e.stride == static_cast<int64_t>(inside) && inside * e.size <= chunk) {
      inside *= e.size;
      continue;
    }
    int64_t step = e.stride;
    if (in && inside < chunk && e.stride == static_cast<int64_t>(inside) && chunk % inside == 0)
      step = e.stride * static_cast<int64_t>(chunk / inside);  // straddles writes: steps one write
    in = false;
    uint64_t bits = static_cast<uint64_t>(std::llabs(step)) * elemBits;
    if (bits % 64 != 0)
      d.push_back("commit stride: " + ("`" + e.term + "`") + " steps " + std::to_string(step) + " elements (" +
                  (bits % 8 ? num(bits) + " bits" : num(bits / 8) + " bytes") +
                  "); commit sequencer strides must be multiples of 8 bytes");
  }
  return d;
}

FetchPlan planFetch(const SeqResult &derived, unsigned elemBits, Context context, unsigned outBits) {
  FetchPlan p;
  if (!derived.ok()) {
    p.diagnostics = derived.diagnostics;
    return p;
  }
  const SeqConfig &c = *derived.config;
  if (!wholeBytes(derived.packetElems, elemBits, p.packetBytes)) {
    p.diagnostics.push_back("fetch packet: " + num(derived.packetElems) + " elements of " + num(elemBits) +
                            " bits are not a whole number of bytes");
    return p;
  }
  p.contiguousBytes = contiguousSramAccessBytes(c, elemBits);
  bool i4toI32 = elemBits == 4 && outBits == 32;
  uint64_t maxFetch = outBits ? maxFetchBytesForCast(elemBits, outBits) : 32;
  SizeResult f = fetchSize(p.packetBytes, p.contiguousBytes, context, i4toI32, maxFetch);
  if (!f.ok()) {
    p.diagnostics.push_back(f.error);
    return p;
  }
  p.fetchSize = f.bytes;
  if (outBits) {
    std::string cast = checkFetchCast(p.fetchSize, elemBits, outBits);
    if (!cast.empty()) p.diagnostics.push_back(cast);
  }
  p.fetchesPerPacket = fetchesPerPacket(p.packetBytes, p.fetchSize);
  p.cycles = fetchCycles(derived.timeSize, p.packetBytes, p.fetchSize);
  return p;
}

CommitPlan planCommit(const SeqResult &derived, unsigned elemBits, Context context) {
  CommitPlan p;
  if (!derived.ok()) {
    p.diagnostics = derived.diagnostics;
    return p;
  }
  const SeqConfig &c = *derived.config;
  if (!wholeBytes(derived.packetElems, elemBits, p.packetBytes)) {
    p.diagnostics.push_back("commit packet: " + num(derived.packetElems) + " elements of " + num(elemBits) +
                            " bits are not a whole number of bytes");
    return p;
  }
  p.contiguousBytes = contiguousSramAccessBytes(c, elemBits);
  SizeResult in = commitInSize(p.packetBytes);
  if (!in.ok()) {
    p.diagnostics.push_back(in.error);
    return p;
  }
  p.commitInSize = in.bytes;
  SizeResult cs = commitSize(p.contiguousBytes, p.commitInSize, context);
  if (!cs.ok()) {
    p.diagnostics.push_back(cs.error);
    return p;
  }
  p.commitSize = cs.bytes;
  p.writesPerPacket = p.commitInSize / p.commitSize;
  p.writeOffsets = commitWriteOffsets(c, elemBits, p.commitSize, p.commitInSize);
  for (std::string &m : checkCommitStrides(c, elemBits, p.commitSize)) p.diagnostics.push_back(std::move(m));
  return p;
}

}  // namespace tcp
