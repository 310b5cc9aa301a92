// EngineConfig.h — the typed configuration of every engine of a Tensor Unit operation and of a DMA transfer.
//
// One struct per engine holds the parameters the manual names for it, as typed fields (integers are
// 64-bit in memory, so a derived value never wraps before its range is checked); the legal range
// of each field, and so its width in the binary, is declared in EngineFields.h (the binary format encodes exactly
// those fields, docs/binary-format.md). The lowering fills these structs, `--emit=config` prints them
// (EnginePrint.cpp), the cycle model reads them, and checkEngineConfig validates a decoded one.
// Quantities the manual derives from the parameters (cycles, flits, padding, ...) are member
// functions, so a configuration cannot disagree with itself. Strings are annotations for the reader
// of the printed form (stream terms, mapping spellings, parameter names), not hardware parameters.
#pragma once

#include "DmaPlan.h"
#include "LookupTable.h"
#include "Numerics.h"
#include "Sequencer.h"
#include "SwitchTopology.h"
#include "TensorType.h"
#include "TransposeEngine.h"
#include "VectorEngine.h"

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tcp {

constexpr uint64_t kDmBytesPerSlice = 512 * 1024;   // "Memory": DM is 512 KB per slice
constexpr uint64_t kVrfBytesPerSlice = 8 * 1024;    // VRF is 8 KB per slice
constexpr uint64_t kTrfBytesPerRow = 8 * 1024;      // TRF is 8 KB per Row (a half region: 4 KB)
constexpr uint64_t kSlicesPerCluster = 256;
constexpr uint64_t kHbmBytesPerChip = 48ull << 30;  // "HBM": 48 GB per chip
constexpr uint64_t kPacketFlitBytes = 32;           // "Collect Engine": 32-byte flits
using SliceBitmap = std::bitset<kSlicesPerCluster>; // one bit per slice of a cluster, slice 0 the lowest

// ---- Fetch Engine ("Fetch Engine": the Fetch Sequencer and the Fetch Adapter's stages)

// "Interleaving Tensors": the Time axis `axis` alternates lhs (0) and rhs (1).
struct FetchInterleave {
  std::string axis;
  std::optional<uint64_t> lhs;  // DM address of lhs; none: a kernel parameter's (known at launch)
  std::optional<uint64_t> rhs;  // DM address of rhs; set only when both addresses are known
};

// "Fetch Adapter" > Masking Configuration: padding lanes are forced to pad_value 0.
struct FetchMasking {
  bool perIndex = false;        // padding case 3: one valid count per index of entry countDim
  uint64_t countDim = 0;         // perIndex: last_dim_rightmost_valid_count_dim (entry index)
  uint64_t lastDim = 0;          // last_dim (entry index, 0 = outermost)
  uint64_t leftPad = 0;         // left_pad (single count only)
  std::vector<uint64_t> validCounts;  // last_dim_rightmost_valid_count[0] (single) or [0..n] (perIndex)
};

// "Table Indexing": every fetched `index` value is replaced by its entry, a `value`.
struct FetchTable {
  LookupTableType type;         // LookupTable<In, Out>
  std::string param;            // the kernel parameter holding the table (its entries come with the launch)
};

// "Zero-Point Subtraction": one zero point, or one per interleaved tensor.
struct FetchZeroPoints {
  bool perTensor = false;       // fetch_with_zero_points (printed `zero_points`)
  std::vector<int64_t> values;  // empty: given at run time
};

struct FetchConfig {
  std::optional<uint64_t> dmAddress;  // the tensor `begin` streams; none in a stage function
  SeqConfig sequencer;
  uint64_t timeSize = 1;              // Time::SIZE: packets the sequencer delivers
  num::DType inType = num::DType::i8;   // the element type read from DM
  num::DType outType = num::DType::i8;  // the element type the adapter produces
  std::optional<FetchInterleave> interleave;
  std::optional<FetchMasking> masking;
  std::optional<FetchTable> table;
  std::optional<FetchZeroPoints> zeroPoints;
  uint64_t packetBytes = 0;           // the fetch output packet (8-byte aligned)
  uint64_t contiguousBytes = 0;       // contiguous_sram_access_size
  uint64_t fetchSize = 1;              // bytes per sequencer read: 1..32 (main), 4 or 8 (sub)

  // "Batching": ceil(packet bytes / fetch_size); #cycles = Time::SIZE × fetches_per_packet.
  uint64_t fetchesPerPacket() const;
  uint64_t cycles() const;
};

// ---- Switch Engine ("Switch Engine": a topology, its parameters and the slices' snoop bitmaps)
struct SwitchEngineConfig {
  SwitchTopology topology = SwitchTopology::Forwarding;
  // The topology's parameters (switchParamNames); 0 where the topology has no such parameter.
  uint64_t slice2 = 0, slice1 = 0, slice0 = 0;
  uint64_t time2 = 0, time1 = 0, time0 = 0;
  uint64_t ringSize = 1;             // slices per ring (a power of two); CustomBroadcast's ring_size
  uint64_t inputTime = 1;            // InTime::SIZE
  uint64_t inputPacketBytes = 0;
  std::vector<SliceBitmap> snoop;    // per output slice: the source slices it accepts (256)

  uint64_t param(const std::string &name) const;  // by the manual's name ("slice1"), 0 if absent
  uint64_t cyclesPerPacket() const;  // packet bytes / 32, rounded up (at least 1)
  uint64_t cycles() const;           // ring_size × input_time × cycles_per_packet ("Performance")
};
// The parameters a topology is written with and prints, in the manual's order.
const std::vector<const char *> &switchParamNames(SwitchTopology t);

// ---- Collect Engine: pads each packet to whole 32-byte flits.
struct CollectConfig {
  uint64_t inputPacketBytes = 0;
  uint64_t flitsPerPacket() const;  // ceil(bytes / 32)
  uint64_t paddingBytes() const;    // flits × 32 − bytes
};

// ---- TRF load (`to_trf`): a stream written into the TRF region's rows.
enum class TrfRegion : uint8_t { Full, FirstHalf, SecondHalf };  // TrfAddress::*
struct TrfLoadConfig {
  TrfRegion region = TrfRegion::Full;
  uint64_t rows = 1;                  // Rows of the TRF tensor: 1, 2, 4 or 8
  num::DType dtype = num::DType::bf16;  // selects reg_types
  uint64_t elements = 0;             // Element::SIZE per Row
  int regType() const;               // the manual's reg_types (0 i4, 1 i8, 2 f8, 3 bf16)
  uint64_t capacity() const;         // elements a Row of the region holds
  uint64_t bytesPerRow() const;
};

// ---- VRF load (`to_vrf`).
struct VrfLoadConfig {
  uint64_t vrfAddress = 0;
  uint64_t bytes = 0;
};

// ---- Aligner ("Aligner": the Stream Adapter and the TRF Sequencer)
struct AlignerShift {                // shift-reuse of the flit buffer (convolutions)
  uint64_t count = 0;                 // shift_count
  uint64_t stride = 0;                // shift_stride (lanes)
  std::string axes;                  // the OutTime terms that step the shift
};
struct AlignerConfig {
  uint64_t collectFlits = 1;          // 1, 2 or 3
  std::optional<AlignerShift> shift;
  uint64_t rows = 1;                  // Rows of the TRF operand
  std::vector<std::string> timeBroadcast;  // tiling terms (repeated activations)
  // The TRF Sequencer: entries in bytes (stride 0: temporal broadcast), packet = reg_read_size.
  std::optional<SeqConfig> trf;
  uint64_t regReadSize() const;      // bytes read per cycle (0 without a TRF sequencer)
  uint64_t packetBroadcast() const;  // mac_width (64) / reg_read_size
};

// ---- Reducer ("Reducer": spatial reduction tree and temporal accumulation)
enum class ReduceOp : uint8_t { Add };  // every configuration the manual prints has reduce_op = Add
enum class ReducerResize : uint8_t { None, Truncate32, PaddingSliced };
enum class AccumulationKind : uint8_t { Interleaved, Sequential };
struct ReducerConfig {
  num::DType input = num::DType::bf16, output = num::DType::f32;
  ReduceOp op = ReduceOp::Add;
  uint64_t spatialDepth = 0;          // spatial reduction by 2^depth
  uint64_t inLanes = 1, outLanes = 1;
  ReducerResize resize = ReducerResize::None;
  uint64_t rows = 1;
  std::optional<AccumulationKind> mode;  // `.accumulate()`
  unsigned treeDepth() const;        // 5, 6 or 7 by the input type
};

// ---- Vector Engine: the typed program (VectorEngine.h).

// ---- Cast Engine ("Cast Engine" > Packet Transformation): one flit in, one flit out per time step.
struct CastConfig {
  num::DType from = num::DType::f32, to = num::DType::bf16;
  std::string inputPacket;           // Packet, e.g. m![A # 8]
  std::string outputPacket;          // [P # (32 / sizeof(to))]
  uint64_t elements = 1;              // P::SIZE
  uint64_t timeSize = 1;             // Time::SIZE
  uint64_t inputBytes() const { return kPacketFlitBytes; }
  uint64_t outputDataBytes() const;
  uint64_t outputPaddingBytes() const;
  uint64_t cycles() const { return timeSize; }
};

// ---- Transpose Engine: TransposeConfig (TransposeEngine.h), the engine's own model.

// ---- Commit Engine ("Commit Engine": the adapter's truncation and the commit sequencer)
struct CommitConfig {
  uint64_t dmAddress = 0;
  SeqConfig sequencer;
  num::DType dtype = num::DType::i8;  // the element type written
  uint64_t commitInSize = 32;          // bytes of the (truncated) packet: 8, 16, 24 or 32
  uint64_t contiguousBytes = 0;       // contiguous_sram_access_size
  uint64_t commitSize = 32;            // bytes per DM write: 8, 16, 24 or 32 (sub context: 8)
  std::vector<uint64_t> writeOffsets; // DM byte offset of each write of a packet
  std::optional<SliceBitmap> sliceBitmap;  // "Slice Bitmap": present when some slice gets no data
  uint64_t writesPerPacket() const { return writeOffsets.size(); }
};

// ---- DMA Engine ("DMA Engine": the compact DmaSequencer of every engine, DmaPlan.h's model)
struct DmaChipWrite {                // a cross-chip transfer's route: one row of the destination table
  bool used = false;                 // the row is active
  uint64_t chip = 0;                 // the source chip running the commands
  int64_t writeBase = 0;             // bytes added to its writes (global space: chip * chip_stride)
  uint64_t pcieBytes = 0;            // bytes it sends to other chips
  std::vector<uint64_t> toChips;     // destination chips it writes (`HBM(k)`)
};
struct DmaConfig {
  DmaMedia src = DmaMedia::Hbm, dst = DmaMedia::Dm;
  uint64_t elemBits = 8;
  uint64_t chips = 1;                // chips running the same engines
  DmaCommand shared;                 // the compact DmaSequencer (bases of engine 0)
  std::optional<std::string> srcParam;  // the source is this kernel parameter (address known at launch)
  std::vector<DmaEngineWork> engines;   // the active engines of one chip and their commands
  std::vector<DmaChipWrite> chipWrites; // across chips: one per route, source chip by source chip (empty: within each chip)
  uint64_t commandsPerChip() const;
  bool crossChip() const { return !chipWrites.empty(); }
};
// The configuration of a planned transfer (DmaConfigOf.cpp): its DmaSequencers and, across chips,
// each source chip's writes; `srcParam` names a kernel parameter source.
DmaConfig dmaConfigOf(const DmaPlan &plan, std::optional<std::string> srcParam = std::nullopt);

// ---- every engine
enum class EngineKind : uint8_t { Fetch, Switch, Collect, TrfLoad, VrfLoad, Aligner, Reducer, Vector, Cast, Transpose, Commit, Dma };
constexpr unsigned kEngineKinds = 12;
// In EngineKind order.
using EngineConfig = std::variant<FetchConfig, SwitchEngineConfig, CollectConfig, TrfLoadConfig, VrfLoadConfig,
                                  AlignerConfig, ReducerConfig, VectorConfig, CastConfig, TransposeConfig, CommitConfig,
                                  DmaConfig>;

inline EngineKind engineKind(const EngineConfig &e) { return EngineKind(e.index()); }
const char *engineName(EngineKind k);  // "fetch", "switch", ..., "dma"

// A field of a configuration outside its legal range, or inconsistent with another field.
struct FieldError {
  std::string field;    // "fetch_size", "masking.last_dim", "snoop[3]"
  std::string problem;  // "is 3 (expected 1, 2, 4, 8, 16 or 32)"
};
// Checks every field's range (EngineFields.h) and the rules that tie fields together; `ctx` is the
// context of the operation (the sub context allows fewer fetch and commit sizes).
// `stage`: the configuration of a stage function, which may start and end anywhere in the pipeline
// (its Vector Engine program may lack init, branch or final).
std::optional<FieldError> checkEngineConfig(const EngineConfig &e, Ctx ctx, bool stage = false);

}  // namespace tcp
