// BinaryReader.cpp — bounds-checked decoding of the .tcpb header, sections and function table.
#include "BinaryReader.h"

#include "BinaryFormat.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace tcp {

namespace {

std::string hex(uint32_t v, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*x", digits, v);
  return buf;
}
std::string hex32(uint32_t v) { return hex(v, 8); }
std::string bytesWord(uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }
std::string unexpected(uint64_t n) { return std::to_string(n) + (n == 1 ? " unexpected byte" : " unexpected bytes"); }

uint32_t load32(const uint8_t *p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

std::string tagName(uint32_t tag) {
  std::string s;
  for (int k = 0; k < 4; ++k) {
    char c = char(tag >> (8 * k));
    s += (c >= 0x20 && c < 0x7f) ? std::string(1, c) : "?";
  }
  return s;
}

// A cursor over one region of the file. The first failure records the message; later reads fail.
class Cursor {
 public:
  Cursor(const uint8_t *p, size_t size, const std::string &name, std::string &error)
      : p_(p), left_(size), name_(name), error_(error) {}

  size_t left() const { return left_; }
  const uint8_t *pos() const { return p_; }

  bool truncated(uint64_t need, const std::string &what) {
    return fail("'" + name_ + "' is truncated: " + what + " needs " + bytesWord(need) + " but " + std::to_string(left_) +
                (left_ == 1 ? " remains" : " remain"));
  }
  bool corrupt(const std::string &what) { return fail("'" + name_ + "' is corrupt: " + what); }
  bool fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    left_ = 0;  // nothing more is read after the first failure
    return false;
  }

  bool need(uint64_t n, const std::string &what) { return n <= left_ || truncated(n, what); }
  bool skip(size_t n, const std::string &what) {
    if (!need(n, what)) return false;
    p_ += n;
    left_ -= n;
    return true;
  }
  bool u8(uint8_t &v, const std::string &what) {
    if (!need(1, what)) return false;
    v = *p_;
    return skip(1, what);
  }
  bool u32(uint32_t &v, const std::string &what) {
    if (!need(4, what)) return false;
    v = load32(p_);
    return skip(4, what);
  }
  bool u64(uint64_t &v, const std::string &what) {
    if (!need(8, what)) return false;
    v = uint64_t(load32(p_)) | uint64_t(load32(p_ + 4)) << 32;
    return skip(8, what);
  }
  bool i32(int32_t &v, const std::string &what) {
    uint32_t u;
    if (!u32(u, what)) return false;
    v = int32_t(u);
    return true;
  }
  bool i64(int64_t &v, const std::string &what) {
    uint64_t u;
    if (!u64(u, what)) return false;
    v = int64_t(u);
    return true;
  }
  bool flag(bool &v, const std::string &what) {
    uint8_t b;
    if (!u8(b, what)) return false;
    if (b > 1) return corrupt(what + " is " + std::to_string(b) + " (expected 0 or 1)");
    v = b == 1;
    return true;
  }
  // u32 length, then that many bytes; control bytes (which would break the printed form) are corrupt.
  bool str(std::string &s, const std::string &what) {
    uint32_t n;
    if (!u32(n, "the length of " + what)) return false;
    if (!need(n, what)) return false;
    for (uint32_t k = 0; k < n; ++k)
      if (p_[k] < 0x20 || p_[k] == 0x7f)
        return corrupt(what + " contains the control byte " + hex(p_[k], 2) + " at offset " +
                       std::to_string(k));
    s.assign(reinterpret_cast<const char *>(p_), n);
    return skip(n, what);
  }
  // A u32 element count, checked against the remaining bytes before anything is reserved.
  bool count(uint32_t &n, size_t minEach, const std::string &table) {
    if (!u32(n, "the size of " + table)) return false;
    return need(uint64_t(n) * minEach, table);
  }

 private:
  const uint8_t *p_;
  size_t left_;
  const std::string &name_;
  std::string &error_;
};

std::string quoted(const std::string &s) { return "'" + s + "'"; }

bool readSequencer(Cursor &c, SeqConfig &s, const std::string &where) {
  std::string what = "the sequencer of " + where;
  uint32_t n;
  if (!c.u64(s.packetSize, what) || !c.i64(s.baseOffset, what) || !c.count(n, binfmt::kMinEntry, "the entry table of " + what))
    return false;
  s.entries.resize(n);
  for (uint32_t k = 0; k < n; ++k) {
    SeqEntry &e = s.entries[k];
    std::string entry = "entry " + std::to_string(k) + " of " + what;
    if (!c.u64(e.size, entry) || !c.i64(e.stride, entry) || !c.flag(e.packet, "the packet flag of " + entry) ||
        !c.str(e.term, "the term of " + entry))
      return false;
  }
  return true;
}

bool readEngine(Cursor &c, EngineConfig &e, const std::string &where) {
  bool hasSeq;
  if (!c.str(e.engine, "the name of " + where)) return false;
  std::string named = where + " (" + quoted(e.engine) + ")";
  if (!c.flag(hasSeq, "the sequencer flag of " + named)) return false;
  if (hasSeq) {
    e.sequencer.emplace();
    if (!c.need(binfmt::kMinSequencer, "the sequencer of " + named) || !readSequencer(c, *e.sequencer, named))
      return false;
  }
  uint32_t n;
  if (!c.count(n, binfmt::kMinField, "the field table of " + named)) return false;
  e.fields.resize(n);
  for (uint32_t k = 0; k < n; ++k) {
    std::string field = "field " + std::to_string(k) + " of " + named;
    if (!c.str(e.fields[k].first, "the key of " + field) || !c.str(e.fields[k].second, "the value of " + field))
      return false;
  }
  return true;
}

bool readTu(Cursor &c, TuConfig &tu, const std::string &where) {
  uint8_t ctx;
  if (!c.i32(tu.chain, where) || !c.u8(ctx, "the context of " + where)) return false;
  if (ctx > 2) return c.corrupt("the context of " + where + " is " + std::to_string(ctx) + " (expected 0, 1 or 2)");
  tu.ctx = ctx == 0 ? Ctx::Main : ctx == 1 ? Ctx::Sub : Ctx::Unknown;
  if (!c.flag(tu.stage, "the stage flag of " + where)) return false;
  uint32_t n;
  if (!c.u32(tu.line, where) || !c.u64(tu.timeSize, where) || !c.count(n, binfmt::kMinEngine, "the engine table of " + where))
    return false;
  tu.engines.resize(n);
  for (uint32_t k = 0; k < n; ++k)
    if (!readEngine(c, tu.engines[k], "engine " + std::to_string(k) + " of " + where)) return false;
  return true;
}

bool readProgram(Cursor &c, LoweredProgram &p) {
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
      if (!readTu(c, f.tus[t], "tu " + std::to_string(t) + " of " + where)) return false;
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

BinaryReadResult decodeBinary(std::string_view bytes, const std::string &name) {
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
      if (!readProgram(body, program)) return r;
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
