// Sequencer.h — sequencer configurations derived term by term from Buf, Time and Packet mappings.
#pragma once

#include "Mapping.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tcp {

// One loop level of a sequencer configuration (the manual's `size : stride`).
struct SeqEntry {
  uint64_t size = 1;
  int64_t stride = 0;   // in elements, as the manual prints
  std::string term;     // the stream term it iterates: "A % 4 = 3", "C # 16", merged "W % 16"
  bool packet = false;  // iterates inside one stream packet (a Packet term, or merged into one)
};

// `[size_0 : stride_0, ...] : packet_size`, entry 0 outermost.
struct SeqConfig {
  std::vector<SeqEntry> entries;
  uint64_t packetSize = 1;  // elements the sequencer moves per step: the innermost packet entry
  int64_t baseOffset = 0;   // elements, relative to the buffer's first position (`@ base_addr = -2`)

  // "[8 : 1, 8 : 8, 3 : 64, 4 : 192] : 1", plus " @ base_addr = -2" for a non-zero base offset.
  std::string str() const;
  // "[B -> 8 : 32, A -> 8 : 256, C # 16 -> 16 : 1] : 16" (the --emit=config comment form).
  std::string verbose() const;
  // Product of the sizes of the packet entries (the elements one stream packet spans in memory).
  uint64_t packetSpan() const;
};

// Which engine runs the configuration; it decides how the packet is checked.
//   Raw     the sequencer alone (DMA): the packet must be 1, 2, 4, 8, 16 or 32 bytes.
//   Fetch   the Fetch Adapter batches fetch_size reads into the packet (SequencerMetrics checks
//           fetch_size); the packet may be larger than 32 bytes and padding reads beyond the data.
//   Commit  the Commit Adapter truncates the packet (commit_in_size): the major Packet term is cut
//           to what the buffer holds, padding is not written; SequencerMetrics checks commit sizes.
enum class SeqUse { Raw, Fetch, Commit };

struct SeqOptions {
  SeqUse use = SeqUse::Raw;
  bool keepUnitTerms = false;  // a size-1 Time term keeps an entry `1 : 0` (masking indexes entries)
  size_t maxEntries = 8;
  uint64_t maxEntrySize = 65536;
  // false: the caller cuts its own packets from the contiguous run and checks that they are whole bytes
  // (the DMA Engine's stride0), so a stream of single sub-byte elements is not refused here
  bool wholeBytePackets = true;
};

struct SeqResult {
  std::optional<SeqConfig> config;       // set iff diagnostics is empty
  std::vector<std::string> diagnostics;  // lowercase messages naming the term, axis and sizes
  std::vector<SeqEntry> initial;         // the term-by-term entries, before merging
  uint64_t timeSize = 1;                 // Time::SIZE
  uint64_t packetElems = 1;              // Packet::SIZE (Commit: after truncation)
  bool truncated = false;                // Commit: the packet was cut to what the buffer holds
  bool ok() const { return config.has_value(); }
};

// Derives the configuration that moves `buf` as the stream (time, packet), elements of elemBits
// bits: each Time then Packet term becomes an entry (several when it spans several buffer terms),
// axes absent from Buf broadcast with stride 0, adjacent contiguous entries merge when more than
// maxEntries exist, and the hardware limits are checked (see checkLimits).
SeqResult derive(const MappingRef &buf, const MappingRef &time, const MappingRef &packet, unsigned elemBits,
                 const SeqOptions &options = {});

// Merges every adjacent pair (n1 : s1), (n2 : s2) with s1 == n2 * s2 into (n1 * n2 : s2); a merge
// into a packet entry makes a packet entry (the packet grows). Merges that would exceed
// maxEntrySize are skipped.
std::vector<SeqEntry> mergeContiguous(std::vector<SeqEntry> entries, uint64_t maxEntrySize = 65536);

// The packet size of a list of entries: the innermost entry's size when it is a packet entry with
// stride 0 or 1, else 1 (single-element packets).
uint64_t packetSizeOf(const std::vector<SeqEntry> &entries);

// The sequencer limits: at most maxEntries entries, size <= maxEntrySize, the packet a whole number
// of bytes (Raw: 1, 2, 4, 8, 16 or 32 bytes), and the innermost entry (n : s) contiguous
// ((s == 0 || s == 1) && n % packet_size == 0) unless packet_size == 1. One message per violation.
std::vector<std::string> checkLimits(const SeqConfig &config, unsigned elemBits, const SeqOptions &options = {});

}  // namespace tcp
