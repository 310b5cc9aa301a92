// SequencerMetrics.h — fetch/commit quantities of a sequencer configuration: fetch_size, commit_size, cycles.
#pragma once

#include "Sequencer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcp {

enum class Context { Main, Sub };

// A derived size in bytes, or the rule it violates (a lowercase message naming the limit).
struct SizeResult {
  uint64_t bytes = 0;
  std::string error;
  bool ok() const { return error.empty(); }
};

// Product of the sizes of consecutive physically contiguous entries from the innermost outwards:
// the innermost entry counts when its stride is 0 or 1 (else one element), and an outer (n1 : s1)
// joins an inner (n2 : s2) when s1 == n2 * s2.
uint64_t contiguousSramAccessElems(const SeqConfig &config);
uint64_t contiguousSramAccessBytes(const SeqConfig &config, unsigned elemBits);  // 0: under a byte

// fetch_size: the largest supported divisor of gcd(packet bytes, contiguous bytes). Main context:
// 1, 2, 4, 8, 16 or 32 bytes (at most maxFetchBytes, see maxFetchBytesForCast); sub-context: 4 bytes
// when casting i4 to i32, else 8, which must divide the gcd.
SizeResult fetchSize(uint64_t packetBytes, uint64_t contiguousBytes, Context context, bool castFromI4toI32 = false,
                     uint64_t maxFetchBytes = 32);
// ceil(packet bytes / fetch_size): the reads the Fetch Adapter batches into one packet.
uint64_t fetchesPerPacket(uint64_t packetBytes, uint64_t fetchSize);
// #cycles = Time::SIZE × ceil(packet bytes / fetch_size).
uint64_t fetchCycles(uint64_t timeSize, uint64_t packetBytes, uint64_t fetchSize);
// The largest fetch whose cast output stays within 32 bytes (32 × inBits / outBits, at most 32).
uint64_t maxFetchBytesForCast(unsigned inBits, unsigned outBits);
// "" when one fetch of fetchBytes casts to at most 32 bytes, else the violated rule.
std::string checkFetchCast(uint64_t fetchBytes, unsigned inBits, unsigned outBits);
// "" when the fetch output packet is 8-byte aligned (`FETCH_ALIGN_BYTES`), else the message.
std::string checkFetchAlignment(uint64_t packetBytes);

// commit_in_size: the bytes of the (truncated) packet written to DM: 8, 16, 24 or 32.
SizeResult commitInSize(uint64_t packetBytes);
// commit_size = gcd(contiguous bytes, commit_in_size): 8, 16, 24 or 32 bytes (main), 8 (sub).
SizeResult commitSize(uint64_t contiguousBytes, uint64_t commitInBytes, Context context);
// The DM byte offset (relative to the packet's first element) of each commit_size write a packet
// splits into, walking the configuration's packet entries: [0, 16, 32, 48] for 4 × 8-byte writes.
std::vector<uint64_t> commitWriteOffsets(const SeqConfig &config, unsigned elemBits, uint64_t commitSizeBytes,
                                         uint64_t commitInBytes);
// Commit strides must be multiples of 8 bytes (the entries inside one write excepted).
std::vector<std::string> checkCommitStrides(const SeqConfig &config, unsigned elemBits, uint64_t commitSizeBytes);

// Everything the lowering prints for a fetch (outBits == 0: no cast).
struct FetchPlan {
  uint64_t packetBytes = 0, contiguousBytes = 0, fetchSize = 0, fetchesPerPacket = 0, cycles = 0;
  std::vector<std::string> diagnostics;
  bool ok() const { return diagnostics.empty(); }
};
FetchPlan planFetch(const SeqResult &derived, unsigned elemBits, Context context, unsigned outBits = 0);

// Everything the lowering prints for a commit.
struct CommitPlan {
  uint64_t packetBytes = 0, contiguousBytes = 0, commitInSize = 0, commitSize = 0, writesPerPacket = 0;
  std::vector<uint64_t> writeOffsets;  // bytes, one per write
  std::vector<std::string> diagnostics;
  bool ok() const { return diagnostics.empty(); }
};
CommitPlan planCommit(const SeqResult &derived, unsigned elemBits, Context context);

}  // namespace tcp
