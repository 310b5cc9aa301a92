// SourceRead.cpp — bounded reads of source files for the driver and the module loader.
#include "SourceRead.h"

#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>

namespace tcp {

std::string readSourceBounded(const std::string &path, std::string &text) {
  llvm::sys::fs::file_t fd = llvm::sys::fs::getStdinHandle();
  if (path != "-") {
    llvm::Expected<llvm::sys::fs::file_t> opened = llvm::sys::fs::openNativeFileForRead(path);
    if (!opened) return "cannot read '" + path + "': " + llvm::toString(opened.takeError());
    fd = *opened;
  }
  text.clear();
  std::string error;
  while (text.size() <= kMaxSourceBytes) {
    size_t at = text.size();
    text.resize(at + (1u << 16));
    llvm::Expected<size_t> got = llvm::sys::fs::readNativeFile(fd, llvm::MutableArrayRef<char>(&text[at], 1u << 16));
    if (!got) {
      error = "cannot read '" + path + "': " + llvm::toString(got.takeError());
      text.resize(at);
      break;
    }
    text.resize(at + *got);
    if (*got == 0) break;
  }
  if (path != "-") llvm::sys::fs::closeFile(fd);
  if (error.empty() && text.size() > kMaxSourceBytes) error = "'" + path + "' is larger than 64 MiB, the limit of a source file";
  return error;
}

}  // namespace tcp
