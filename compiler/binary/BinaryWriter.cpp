// BinaryWriter.cpp — little-endian, length-prefixed encoding of functions → TUs → typed engine records.
#include "BinaryWriter.h"

#include "BinaryFormat.h"
#include "EngineRecord.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

namespace tcp {

namespace {

using namespace binio;

uint8_t ctxCode(Ctx c) {
  switch (c) {
    case Ctx::Main: return 0;
    case Ctx::Sub: return 1;
    case Ctx::Unknown: return 2;
  }
  return 2;
}

void writeTu(Out &o, const TuConfig &tu) {
  o.i32(tu.chain);
  o.u8(ctxCode(tu.ctx));
  o.u8(tu.stage ? 1 : 0);
  o.u32(tu.line);
  o.u32(uint32_t(tu.engines.size()));
  for (const EngineConfig &e : tu.engines) writeEngineRecord(o, e);
}

void writeProgram(Out &o, const LoweredProgram &p) {
  o.u32(uint32_t(p.functions.size()));
  for (const FunctionConfig &f : p.functions) {
    o.str(f.name);
    o.u8(f.isDevice ? 1 : 0);
    o.u32(uint32_t(f.tus.size()));
    for (const TuConfig &tu : f.tus) writeTu(o, tu);
  }
}

void section(Out &o, uint32_t tag, const std::string &body) {
  o.u32(tag);
  o.u32(uint32_t(body.size()));
  o.bytes += body;
}

}  // namespace

std::string encodeBinary(const LoweredProgram &program) {
  Out meta;
  meta.str(std::string("tcpc ") + TCP_VERSION);
  Out prog;
  writeProgram(prog, program);

  Out o;
  o.bytes.append(binfmt::kMagic, 4);
  o.u32(binfmt::kVersion);
  o.u32(0);  // total size, patched below
  o.u32(0);  // checksum, patched below
  o.u32(2);  // section count
  o.u32(0);  // reserved
  section(o, binfmt::kTagMeta, meta.bytes);
  section(o, binfmt::kTagProg, prog.bytes);
  o.patch32(binfmt::kTotalSizeOffset, uint32_t(o.bytes.size()));
  const auto *data = reinterpret_cast<const uint8_t *>(o.bytes.data());
  o.patch32(binfmt::kChecksumOffset,
            binfmt::crc32(data + binfmt::kChecksummedFrom, o.bytes.size() - binfmt::kChecksummedFrom));
  return o.bytes;
}

bool writeFileAtomically(const std::string &path, llvm::StringRef bytes, std::string &error) {
  auto fail = [&](const std::string &why) {
    error = "cannot write '" + path + "': " + why;
    return false;
  };
  if (path == "-") {
    llvm::outs() << bytes;
    llvm::outs().flush();
    return true;
  }
  // A temporary file next to the target, renamed over it once complete: a kill or a full disk
  // leaves the previous file in place, never half of a new one.
  int fd = -1;
  llvm::SmallString<256> tmp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(path + "-%%%%%%.tmp", fd, tmp)) return fail(ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
    os.close();
    if (os.has_error()) {
      std::string why = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(tmp);
      return fail(why);
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path)) {
    llvm::sys::fs::remove(tmp);
    return fail(ec.message());
  }
  return true;
}

bool writeBinaryFile(const LoweredProgram &program, const std::string &path, std::string &error) {
  std::string bytes = encodeBinary(program);
  if (bytes.size() > binfmt::kMaxFileSize) {
    error = "the program needs " + std::to_string(bytes.size()) + " bytes, more than the format's limit of " +
            std::to_string(binfmt::kMaxFileSize);
    return false;
  }
  return writeFileAtomically(path, bytes, error);
  return true;
}

}  // namespace tcp
