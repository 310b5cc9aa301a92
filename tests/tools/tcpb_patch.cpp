// tcpb_patch.cpp — test tool: overwrites one field of an engine record in a .tcpb file and reseals its checksum.
//
//   tcpb_patch FILE ENGINE FIELD VALUE
//
// ENGINE names an engine kind (`fetch`, `switch`, ...): the first record of that kind in the file.
// FIELD is the field's name as docs/binary-format.md lists it, with list indices (`packet_bytes`,
// `topology`, `snoop[3].width`, `sequencer.entries[0].size`). VALUE is written little-endian over the
// field's bytes (it must fit them); the total size stays, the CRC-32 is recomputed, so only the
// reader's field checks can refuse the file. The goldens tests/golden/binary/fail_field_*.tcp use it.
#include "BinaryFormat.h"
#include "BinaryReader.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char **argv) {
  if (argc != 5) {
    std::cerr << "usage: tcpb_patch FILE ENGINE FIELD VALUE\n";
    return 2;
  }
  std::string path = argv[1], engine = argv[2], field = argv[3];
  uint64_t value = std::strtoull(argv[4], nullptr, 0);
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string bytes = ss.str();
  std::vector<tcp::FieldLocation> layout;
  tcp::BinaryReadResult r = tcp::decodeBinary(bytes, path, &layout);
  if (!r.ok()) {
    std::cerr << "tcpb_patch: " << r.error << "\n";
    return 1;
  }
  const tcp::FieldLocation *at = nullptr;
  for (const tcp::FieldLocation &l : layout)
    if (!at && engine == tcp::engineName(l.kind) && field == l.field) at = &l;
  if (!at) {
    std::cerr << "tcpb_patch: no field `" << field << "` in a " << engine << " engine of '" << path << "'\n";
    return 1;
  }
  if (at->width < 8 && value >> (8 * at->width)) {
    std::cerr << "tcpb_patch: " << value << " does not fit the " << at->width << " bytes of `" << field << "`\n";
    return 1;
  }
  for (unsigned k = 0; k < at->width; ++k) bytes[at->offset + k] = char(value >> (8 * k));
  uint32_t crc = tcp::binfmt::crc32(reinterpret_cast<const uint8_t *>(bytes.data()) + tcp::binfmt::kChecksummedFrom,
                                    bytes.size() - tcp::binfmt::kChecksummedFrom);
  for (unsigned k = 0; k < 4; ++k) bytes[tcp::binfmt::kChecksumOffset + k] = char(crc >> (8 * k));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  return out ? 0 : 1;
}
