// EngineRecord.h — one engine's record in a .tcpb file: its kind, size and typed fields (docs/binary-format.md).
//
// engine := u8 kind, u32 size, body[size]; the body holds the engine's fields in the order and the
// wire widths EngineFields.h declares. The reader checks every field's range as it reads it, then
// the rules between fields (checkEngineConfig), and names the engine and the field at fault.
#pragma once

#include "BinaryIo.h"
#include "EngineConfig.h"

#include <string>
#include <vector>

namespace tcp {

constexpr size_t kMinEngineRecord = 1 + 4;  // kind, size

// Where a field of an engine record lies in the file (tools that patch a binary use it).
struct FieldLocation {
  size_t engine = 0;   // the engine's index among all engine records of the file, in file order
  EngineKind kind = EngineKind::Fetch;
  std::string field;   // "packet_bytes", "sequencer.entries[0].size", "snoop[3].width"
  size_t offset = 0;   // from the start of the file
  unsigned width = 0;  // bytes
};

void writeEngineRecord(binio::Out &o, const EngineConfig &e);

// Reads engine `index` of a TU into `e`; `tu` names the TU in messages ("tu 0 of function 'k'").
// `ctx` is the operation's context (some sizes depend on it). With `layout`, appends the location of
// every scalar field read (offsets from `fileStart`).
bool readEngineRecord(binio::Cursor &c, EngineConfig &e, size_t index, const std::string &tu, Ctx ctx, bool stage,
                      std::vector<FieldLocation> *layout = nullptr, const uint8_t *fileStart = nullptr,
                      size_t engineIndex = 0);

// The record layout of an engine kind as the Markdown table docs/binary-format.md shows.
std::string engineLayoutTable(EngineKind k);

}  // namespace tcp
