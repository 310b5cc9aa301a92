// BinaryReader.cpp — bounds-checked decoding of the .tcpb header, sections and function table (engine records: EngineRecord.cpp).
#include "BinaryReader.h"

#include "BinaryFormat.h"
#include "EngineRecord.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace tcp {

namespace {

using namespace binio;

std::string quoted(const std::string &s) { return "'" + s + "'"; }

// The state of a decode: where engine records start in the file and, optionally, the field layout.
struct ReadContext {
  const uint8_t *fileStart = nullptr;
  std::vector<FieldLocation> *layout = nullptr;
  size_t engines = 0;  // engine records read so far
};

bool readTu(Cursor &c, TuConfig &tu, const std::string &where, ReadContext &rc) {
  uint8_t ctx;
  if (!c.i32(tu.chain, where) || !c.u8(ctx, "the context of " + where)) return false;
  if (ctx > 2) return c.corrupt("the context of " + where + " is " + std::to_string(ctx) + " (expected 0, 1 or 2)");
  tu.ctx = ctx == 0 ? Ctx::Main : ctx == 1 ? Ctx::Sub : Ctx::Unknown;
  if (!c.flag(tu.stage, "the stage flag of " + where)) return false;
  uint32_t n;
  if (!c.u32(tu.line, where) || !c.count(n, binfmt::kMinEngine, "the engine table of " + where)) return false;
  tu.engines.resize(n);
  for (uint32_t k = 0; k < n; ++k)
    if (!readEngineRecord(c, tu.engines[k], k, where, tu.ctx, tu.stage, rc.layout,
                          rc.fileStart, rc.engines++))
      return false;
  return true;
}

bool readProgram(Cursor &c, LoweredProgram &p, ReadContext &rc) {
  uint32_t n;
  if (!c.count(n, binfmt::kMinFunction, "the function table")) return false;
  p.functions.resize(n);
  for (uint32_t k = 0; k < n; ++k) {
    FunctionConfig &f = p.functions[k];
    if (!c.str(f.name, "the name of function " + std::to_string(k))) return false;
    std::string where = "function " + quoted(f.name);
    uint32_t tus;
    if (!c.flag(f.isDevice, "the kernel flag of " + where) || !c.count(tus, binfmt::kMinTu, "the tu table of " + where))
      return false;
    f.tus.resize(tus);
    for (uint32_t t = 0; t < tus; ++t)
      if (!readTu(c, f.tus[t], "tu " + std::to_string(t) + " of " + where, rc)) return false;
  }
  if (c.left() != 0) return c.corrupt(unexpected(c.left()) + " after the function table");
  return true;
}

// Header checks in the order that gives the most useful message: magic, version, size, checksum.
bool readHeader(Cursor &c, std::string_view bytes, const std::string &name, uint32_t &sections) {
  const auto *b = reinterpret_cast<const uint8_t *>(bytes.data());
  size_t prefix = std::min<size_t>(bytes.size(), 4);
  if (std::string_view(bytes.data(), prefix) != std::string_view(binfmt::kMagic, prefix))
    return c.fail("'" + name + "' is not a tcpc binary: bad magic (expected \"TCPB\")");
  if (!c.need(binfmt::kHeaderSize, "the header")) return false;
  uint32_t version = load32(b + 4);
  if (version != binfmt::kVersion)
    return c.fail("'" + name + "' has unsupported format version " + std::to_string(version) +
                  " (this tcpc reads version " + std::to_string(binfmt::kVersion) + ")");
  uint32_t total = load32(b + binfmt::kTotalSizeOffset);
  if (total < binfmt::kHeaderSize)
    return c.corrupt("the header gives a total size of " + std::to_string(total) + " bytes, less than the header itself");
  if (total > bytes.size())
    return c.fail("'" + name + "' is truncated: its header gives " + bytesWord(total) + " but the file has " +
                  std::to_string(bytes.size()));
  if (total < bytes.size())
    return c.corrupt(unexpected(bytes.size() - total) + " after the " + bytesWord(total) + " its header gives");
  uint32_t stored = load32(b + binfmt::kChecksumOffset);
  uint32_t computed = binfmt::crc32(b + binfmt::kChecksummedFrom, total - binfmt::kChecksummedFrom);
  if (stored != computed)
    return c.corrupt("checksum mismatch (stored " + hex32(stored) + ", computed " + hex32(computed) + ")");
  sections = load32(b + 16);
  if (load32(b + 20) != 0) return c.corrupt("the reserved header word is " + hex32(load32(b + 20)) + " (expected 0)");
  return c.skip(binfmt::kHeaderSize, "the header");
}

}  // namespace

BinaryReadResult decodeBinary(std::string_view bytes, const std::string &name, std::vector<FieldLocation> *layout) {
  BinaryReadResult r;
  Cursor c(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(), name, r.error);
  if (bytes.size() > binfmt::kMaxFileSize) {
    c.corrupt("the file has " + std::to_string(bytes.size()) + " bytes, more than the format's limit");
    return r;
  }
  uint32_t sections = 0;
  if (!readHeader(c, bytes, name, sections)) return r;
  if (!c.need(uint64_t(sections) * binfmt::kSectionHeaderSize, "the section table")) return r;
  LoweredProgram program;
  bool haveProg = false;
  for (uint32_t k = 0; k < sections; ++k) {
    std::string what = "section " + std::to_string(k);
    uint32_t tag, size;
    if (!c.u32(tag, "the header of " + what) || !c.u32(size, "the header of " + what)) return r;
    what += " (" + tagName(tag) + ")";
    if (!c.need(size, what)) return r;
    Cursor body(c.pos(), size, name, r.error);
    if (tag == binfmt::kTagProg) {
      if (haveProg) {
        c.corrupt("a second PROG section (" + what + ")");
        return r;
      }
      haveProg = true;
      ReadContext rc{reinterpret_cast<const uint8_t *>(bytes.data()), layout, 0};
      if (!readProgram(body, program, rc)) return r;
    } else if (tag == binfmt::kTagMeta) {
      if (!body.str(r.producer, "the producer in " + what)) return r;
      if (body.left() != 0) {
        body.corrupt(unexpected(body.left()) + " after the producer in " + what);
        return r;
      }
    }  // other tags: optional sections of a later writer of this version; skipped (docs/binary-format.md)
    c.skip(size, what);
  }
  if (c.left() != 0) {
    c.corrupt(unexpected(c.left()) + " after the last section");
    return r;
  }
  if (!haveProg) {
    c.corrupt("no PROG section (the function table)");
    return r;
  }
  r.program = std::move(program);
  return r;
}

BinaryReadResult readBinaryFile(const std::string &path) {
  BinaryReadResult r;
  std::string tooLarge = " is too large for a tcpc binary (the limit is " + std::to_string(binfmt::kMaxFileSize) + " bytes)";
  if (path == "-") {  // stdin: read in chunks, stop at the limit
    std::string data;
    char chunk[1 << 16];
    while (data.size() <= binfmt::kMaxFileSize) {
      ssize_t n = ::read(0, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        r.error = "cannot read <stdin>: " + std::string(std::strerror(errno));
        return r;
      }
      if (n == 0) return decodeBinary(data, "<stdin>");
      data.append(chunk, size_t(n));
    }
    r.error = "<stdin>" + tooLarge;
    return r;
  }
  llvm::sys::fs::file_status st;
  if (std::error_code ec = llvm::sys::fs::status(path, st)) {
    r.error = "cannot read '" + path + "': " + ec.message();
    return r;
  }
  if (st.type() == llvm::sys::fs::file_type::directory_file) {
    r.error = "cannot read '" + path + "': it is a directory";
    return r;
  }
  if (st.type() != llvm::sys::fs::file_type::regular_file) {
    r.error = "cannot read '" + path + "': not a regular file";
    return r;
  }
  if (st.getSize() > binfmt::kMaxFileSize) {
    r.error = "'" + path + "'" + tooLarge;
    return r;
  }
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buf) {
    r.error = "cannot read '" + path + "': " + buf.getError().message();
    return r;
  }
  llvm::StringRef data = (*buf)->getBuffer();
  return decodeBinary(std::string_view(data.data(), data.size()), path);
}

}  // namespace tcp
