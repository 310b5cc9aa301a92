// sequencer_replay_test.cpp — the derived fetch/commit address streams move the bytes the interpreter's index tables move.
#include "DeviceIndex.h"
#include "MappingTestUtil.h"
#include "SequencerReplay.h"
#include "StreamTables.h"

#include <gtest/gtest.h>

#include <set>

namespace tcp::testing {
namespace {

struct Layout {
  const char *buf, *time, *packet;
  unsigned bits = 8;
};

SeqOptions use(SeqUse u, bool keepUnitTerms = false) {
  SeqOptions o;
  o.use = u;
  o.keepUnitTerms = keepUnitTerms;
  return o;
}

// Replays the fetch sequencer and checks every lane against the gather table: a lane holding an
// element is read from exactly that element's position. A padding lane may read anything (the
// splitting example's `C # 32` reads 24 elements of the next `B` step): the Fetch Adapter masks it
// to 0, as the gather table (-1) does.
void checkFetch(const Axes &ax, const Layout &l, const std::map<std::string, MappingRef> *aliases = nullptr,
                bool keepUnit = false, bool whole = true) {
  SCOPED_TRACE(std::string("fetch ") + l.buf + " as (" + l.time + "), (" + l.packet + ")");
  MappingRef buf = M(ax, l.buf, aliases), time = M(ax, l.time, aliases), packet = M(ax, l.packet, aliases);
  SeqResult r = derive(buf, time, packet, l.bits, use(SeqUse::Fetch, keepUnit));
  ASSERT_TRUE(r.ok()) << r.diagnostics[0];
  std::vector<int64_t> addr = replayAddresses(*r.config);
  std::vector<int64_t> gather = interp::fetchGatherTable(buf, time, packet);
  ASSERT_EQ(addr.size(), gather.size()) << r.config->verbose();
  interp::AxisSpace space = interp::AxisSpace::of({buf});
  std::vector<int64_t> bufKeys = interp::keyTable(buf, space);
  size_t held = 0;
  for (size_t k = 0; k < addr.size(); ++k) {
    if (gather[k] >= 0) {
      ASSERT_EQ(addr[k], gather[k]) << "lane " << k << " of " << r.config->verbose();
      ++held;
    }
  }
  // Every element of the buffer is read (broadcast axes read it more than once), unless the stream
  // slices on purpose.
  std::set<int64_t> read(gather.begin(), gather.end());
  read.erase(-1);
  size_t elements = 0;
  for (int64_t key : bufKeys) elements += key >= 0;
  if (whole) {
    EXPECT_EQ(read.size(), elements) << r.config->verbose();
  }
  EXPECT_GT(held, 0u);
}

// Replays the commit sequencer: every step writes the lane it carries to the scatter table's position,
// every lane the table writes is written by one step, and a step carrying a lane the destination does
// not hold writes only padding of the destination.
void checkCommit(const Axes &ax, const Layout &l) {
  SCOPED_TRACE(std::string("commit (") + l.time + "), (" + l.packet + ") into " + l.buf);
  MappingRef element = M(ax, l.buf), time = M(ax, l.time), packet = M(ax, l.packet);
  SeqResult r = derive(element, time, packet, l.bits, use(SeqUse::Commit));
  ASSERT_TRUE(r.ok()) << r.diagnostics[0];
  std::vector<int64_t> addr = replayAddresses(*r.config);
  std::vector<int64_t> scatter = interp::commitScatterTable(element, time, packet);
  uint64_t lanes = packet->size(), kept = r.packetElems;
  ASSERT_EQ(addr.size(), r.timeSize * kept) << r.config->verbose();
  ASSERT_EQ(scatter.size(), r.timeSize * lanes);
  interp::AxisSpace space = interp::AxisSpace::of({element});
  std::vector<int64_t> dstKeys = interp::keyTable(element, space);
  std::set<uint64_t> written;
  for (size_t k = 0; k < addr.size(); ++k) {
    uint64_t lane = laneOfStep(k, kept, lanes);
    written.insert(lane);
    ASSERT_GE(addr[k], 0);
    ASSERT_LT(addr[k], int64_t(dstKeys.size())) << "step " << k << " writes past the tensor";
    if (scatter[lane] >= 0) {
      ASSERT_EQ(addr[k], scatter[lane]) << "lane " << lane << " of " << r.config->verbose();
    } else {
      ASSERT_LT(dstKeys[addr[k]], 0) << "lane " << lane << " (not held) overwrites element " << addr[k];
    }
  }
  for (size_t lane = 0; lane < scatter.size(); ++lane)
    if (scatter[lane] >= 0) {
      ASSERT_TRUE(written.count(lane)) << "lane " << lane << " is never written";
    }
}

TEST(SequencerReplay, ManualSequencerExamples) {
  checkFetch({{"N", 4}, {"C", 3}, {"H", 8}, {"W", 8}}, {"N, C, H, W", "W, H, C, N", "1", 16});
  checkFetch({{"A", 8}, {"B", 8}, {"C", 8}}, {"A, B, C # 32", "B, A", "C # 16"});
  checkFetch({{"A", 8}, {"B", 8}, {"C", 4}}, {"A, B, C # 8", "A % 2, B % 4, A / 2, B / 4", "C # 32"});
  checkFetch({{"A", 16}, {"B", 8}, {"C", 8}}, {"A, B, C", "A / 4, A % 4 = 3, B / 4, B % 4 = 2", "C"}, nullptr, false,
             /*whole=*/false);
  checkFetch({{"A", 16}, {"T", 4}, {"P", 4}}, {"A", "T, A", "P"});
  checkFetch({{"N", 8}, {"C", 8}, {"H", 8}, {"W", 32}},
             {"N, C, H, W", "W / 16, H % 2, H / 2, C / 2, C % 2, N / 2, N % 2, W / 8 % 2", "W % 8"});
  // The interface examples: strided, axis reordering, tiling.
  checkFetch({{"A", 8}, {"B", 512}}, {"A, B", "A, B / 32", "B % 32", 16});
  checkFetch({{"A", 8}, {"B", 512}, {"C", 3}}, {"A, B, C # 8", "A % 2, B % 4, A / 2, B / 4", "C # 32"});
}

TEST(SequencerReplay, ManualFetchEngineExamples) {
  Axes nchw{{"N", 4}, {"C", 3}, {"H", 4}, {"W", 8}};
  checkFetch(nchw, {"N, C, H, W", "N, C, H", "W"});
  checkFetch(nchw, {"N, C, H, W", "C", "N, H, W"});
  checkFetch(nchw, {"N, C, H, W", "1", "N, H, C, W"});
  checkFetch(nchw, {"N, C, H, W", "N, C, H / 2", "H % 2, W", 4});
  checkFetch(nchw, {"N, C, H, W", "N", "C, H, W", 4});
  Axes abc{{"A", 3}, {"B", 5}, {"C", 2}};
  checkFetch(abc, {"A, B, C", "A, B", "C"});
  checkFetch(abc, {"A, B, C", "A", "[B, C] # 16"});
  checkFetch(abc, {"A, B, C", "1", "[A, B, C] # 32"});
  checkFetch({{"A", 63}}, {"A", "1", "A # 64"});
  checkFetch({{"A", 512}, {"B", 32}}, {"A, B", "A", "B"});
}

TEST(SequencerReplay, ManualMaskingCases) {
  // Case 3 pads on the right only (B + # 31), with the explicit size-1 Time term.
  Axes ax3{{"A", 32}, {"B", 97}};
  std::map<std::string, MappingRef> a3{{"B'", M(ax3, "B + # 31")}};
  checkFetch(ax3, {"A, B # 128", "A, {B'} / 16, 1", "{B'} % 16", 32}, &a3, true);
}

TEST(SequencerReplay, ManualCommitExamples) {
  Axes ax{{"M", 4}, {"K", 2}, {"W", 8}, {"N", 16}, {"J", 64}};
  checkCommit(ax, {"M, K, W", "M, K", "W # 32", 8});
  checkCommit(ax, {"M, K, W = 4", "M, K", "W", 32});
  checkCommit(ax, {"K, M, N = 8", "M, K", "N", 16});
  checkCommit(ax, {"K, M, J", "M, K", "J", 4});
  checkCommit(ax, {"K, M, W", "M, K", "W", 32});
  checkCommit(ax, {"K, M, W # 16", "K", "M, W", 8});
  checkCommit({{"P", 256}, {"M", 16}, {"N", 8}}, {"M, N # 16", "M", "N # 16", 16});
}

TEST(SequencerReplay, OtherLayouts) {
  Axes ax{{"A", 4}, {"B", 6}, {"C", 8}, {"D", 2}};
  checkFetch(ax, {"A, B, C", "B, A", "C"});              // reordered time
  checkFetch(ax, {"C, A, B", "A, B", "C"});              // strided packet: single-element packets
  checkFetch(ax, {"A, B, C", "D, A, B", "C"});           // temporal broadcast
  checkFetch(ax, {"A, B # 8, C", "A, B", "C # 16"});     // padded buffer, padded packet
  checkFetch(ax, {"A, B, C", "A, B / 2", "B % 2, C"});   // packet spans two buffer terms
  checkFetch(ax, {"A, B, C", "A / 2, B, A % 2", "C"});   // split, interleaved
  checkCommit(ax, {"B, A, C", "A, B", "C # 32", 8});
  checkCommit(ax, {"A, B, C # 16", "A, B", "C # 16", 16});
  checkCommit(ax, {"A, B, C = 4", "A, B", "C", 32});
}

TEST(SequencerReplay, ReplayAddresses) {
  SeqConfig c;
  c.entries = {{2, 16, "W / 16", false}, {3, 0, "T", false}, {2, 1, "W % 2", true}};
  c.baseOffset = -2;
  EXPECT_EQ(replayAddresses(c), (std::vector<int64_t>{-2, -1, -2, -1, -2, -1, 14, 15, 14, 15, 14, 15}));
  EXPECT_TRUE(replayAddresses(c, 11).empty());  // over the limit
  EXPECT_EQ(laneOfStep(5, 4, 32), 33u);
}

}  // namespace
}  // namespace tcp::testing
