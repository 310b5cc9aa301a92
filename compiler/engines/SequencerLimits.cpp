// SequencerLimits.cpp — a configuration's spelling (`[n : s, ...] : packet_size`) and the sequencer's hardware limits.
#include "SequencerDetail.h"

namespace tcp {

using namespace seqdetail;

namespace {
bool supportedPacketBytes(uint64_t b) { return b == 1 || b == 2 || b == 4 || b == 8 || b == 16 || b == 32; }
}  // namespace

std::string SeqConfig::str() const {
  std::string s = "[";
  for (size_t i = 0; i < entries.size(); ++i)
    s += (i ? ", " : "") + num(entries[i].size) + " : " + std::to_string(entries[i].stride);
  s += "] : " + num(packetSize);
  if (baseOffset != 0) s += " @ base_addr = " + std::to_string(baseOffset);
  return s;
}

std::string SeqConfig::verbose() const {
  std::string s = "[";
  for (size_t i = 0; i < entries.size(); ++i)
    s += (i ? ", " : "") + entries[i].term + " -> " + num(entries[i].size) + " : " + std::to_string(entries[i].stride);
  s += "] : " + num(packetSize);
  if (baseOffset != 0) s += " @ base_addr = " + std::to_string(baseOffset);
  return s;
}

uint64_t SeqConfig::packetSpan() const {
  uint64_t n = 1;
  for (const SeqEntry &e : entries)
    if (e.packet) n *= e.size;
  return n;
}

std::vector<std::string> checkLimits(const SeqConfig &c, unsigned elemBits, const SeqOptions &opt) {
  std::vector<std::string> d;
  if (c.entries.size() > opt.maxEntries) {
    std::string terms;
    for (const SeqEntry &e : c.entries) terms += (terms.empty() ? "" : ", ") + q(e.term);
    d.push_back("too many entries: the configuration needs " + num(c.entries.size()) + " entries after merging (" +
                terms + "), the sequencer has " + num(opt.maxEntries));
  }
  for (const SeqEntry &e : c.entries)
    if (e.size > opt.maxEntrySize)
      d.push_back("entry too large: " + q(e.term) + " iterates " + num(e.size) + " times, the limit is " +
                  (opt.maxEntrySize == 65536 ? std::string("65,536") : num(opt.maxEntrySize)) + " per entry");
  uint64_t bits = c.packetSize * elemBits;
  if (bits % 8 != 0) {
    if (opt.wholeBytePackets)
      d.push_back("bad packet: a packet of " + num(c.packetSize) + (c.packetSize == 1 ? " element" : " elements") +
                  " of " + num(elemBits) + " bits is not a whole number of bytes");
  } else if (opt.use == SeqUse::Raw && !supportedPacketBytes(bits / 8)) {
    d.push_back("bad packet: a packet of " + num(c.packetSize) + " elements is " + num(bits / 8) +
                " bytes; sequencer packets are 1, 2, 4, 8, 16 or 32 bytes");
  }
  if (c.packetSize != 1) {
    if (c.entries.empty()) {
      d.push_back("bad packet: packet_size " + num(c.packetSize) + " but the configuration has no entry");
    } else {
      const SeqEntry &in = c.entries.back();
      if (!((in.stride == 0 || in.stride == 1) && in.size % c.packetSize == 0))
        d.push_back("bad packet: the innermost entry " + q(in.term) + " (" + num(in.size) + " : " +
                    std::to_string(in.stride) + ") is not contiguous: it needs stride 0 or 1 and a size that is a "
                    "multiple of packet_size " + num(c.packetSize) + ", or packet_size 1");
    }
  }
  return d;
}

}  // namespace tcp
