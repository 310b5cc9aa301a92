// StdlibDir.cpp — resolves the stdlib directory relative to the running executable (installed) or the source tree.
#include "StdlibDir.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cstdlib>

namespace tcp {

namespace {
std::string normalized(llvm::StringRef path) {
  llvm::SmallString<256> p(path);
  llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return std::string(p.str());
}
int anchor;  // an address inside this executable, for getMainExecutable
}  // namespace

std::string stdlibDir(const char *argv0) {
  if (const char *env = std::getenv("TCP_STDLIB"); env && *env) return normalized(env);
  std::string exe = llvm::sys::fs::getMainExecutable(argv0, &anchor);
  if (!exe.empty()) {
    llvm::SmallString<256> installed(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(installed, TCP_STDLIB_FROM_BIN);
    if (llvm::sys::fs::is_directory(installed)) return normalized(installed);
  }
  return normalized(TCP_SOURCE_STDLIB);
}

}  // namespace tcp
