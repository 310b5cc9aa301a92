// BinaryFormat.h — constants of the .tcpb encoding of a LoweredProgram (see docs/binary-format.md).
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/CRC.h>

#include <cstddef>
#include <cstdint>

namespace tcp::binfmt {

// Header: magic[4] "TCPB", u32 version, u32 total size, u32 CRC-32 of bytes [16, total),
// u32 section count, u32 reserved (0). Then `section count` sections {u32 tag, u32 size, body}.
constexpr char kMagic[4] = {'T', 'C', 'P', 'B'};
constexpr uint32_t kVersion = 5;  // 5: the Vector Engine program with every stage and a DMA's chip_writes as routes with their source chip; 3: typed engine records (2: key/value text)
constexpr size_t kHeaderSize = 24;
constexpr size_t kTotalSizeOffset = 8;
constexpr size_t kChecksumOffset = 12;   // the CRC field; the checksum covers everything after it
constexpr size_t kChecksummedFrom = 16;
constexpr size_t kSectionHeaderSize = 8;
constexpr uint32_t kMaxFileSize = 256u << 20;  // 256 MiB: larger files are refused before reading

// Section tags, four ASCII bytes read as a little-endian u32.
constexpr uint32_t tag(char a, char b, char c, char d) {
  return uint32_t(uint8_t(a)) | uint32_t(uint8_t(b)) << 8 | uint32_t(uint8_t(c)) << 16 | uint32_t(uint8_t(d)) << 24;
}
constexpr uint32_t kTagMeta = tag('M', 'E', 'T', 'A');  // producer string (informational)
constexpr uint32_t kTagProg = tag('P', 'R', 'O', 'G');  // the function table

// Minimum encoded sizes of one table element (its fixed fields plus empty strings / tables);
// the reader checks `count * minimum <= remaining` before reading or reserving anything.
constexpr size_t kMinFunction = 4 + 1 + 4;          // name, is_device, tu count
constexpr size_t kMinTu = 4 + 1 + 1 + 4 + 4;        // chain, ctx, stage, line, engine count
constexpr size_t kMinEngine = 1 + 4;                // kind, size (EngineRecord.h)

// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, init and final xor 0xFFFFFFFF): LLVM's (zlib's).
inline uint32_t crc32(const uint8_t *data, size_t size) { return llvm::crc32(llvm::ArrayRef<uint8_t>(data, size)); }

}  // namespace tcp::binfmt
