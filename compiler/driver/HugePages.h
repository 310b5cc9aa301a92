// HugePages.h — the tool mains ask glibc's malloc for transparent huge pages, re-executing once with its tunable set.
#pragma once

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>

namespace tcp::cli {

// Where the kernel gives transparent huge pages only on request ("[madvise]", Debian's default),
// glibc's malloc asks for them only with the tunable glibc.malloc.hugetlb=1 (glibc 2.35), read at
// start-up: the process re-executes itself once with it added to GLIBC_TUNABLES. A fresh 4 KiB page
// costs a fault, and on a virtual machine each first touch is expensive: tcpi's 1024³ GEMM launch
// took 0.20 s with 4 KiB pages and 0.13 s with huge ones, `tcpc --check` of it 69 and 33 ms.
// TCP_HUGE_PAGES=0 turns it off; a tunable already naming hugetlb is kept as it is; if the re-exec
// fails the tool goes on as it was.
inline void preferHugePages(char **argv) {
  const char *off = std::getenv("TCP_HUGE_PAGES");
  if (off && std::strcmp(off, "0") == 0) return;
  const char *tunables = std::getenv("GLIBC_TUNABLES");
  std::string current = tunables ? tunables : "";
  if (current.find("glibc.malloc.hugetlb") != std::string::npos) return;
  std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(thp, mode);
  if (mode.find("[madvise]") == std::string::npos) return;  // [always]: already huge; [never]: none to get
  std::string next = current.empty() ? "glibc.malloc.hugetlb=1" : current + ":glibc.malloc.hugetlb=1";
  if (setenv("GLIBC_TUNABLES", next.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Not re-executed: go on with 4 KiB pages, and leave the environment as it was for child processes.
  if (tunables) setenv("GLIBC_TUNABLES", current.c_str(), 1);
  else unsetenv("GLIBC_TUNABLES");
}

}  // namespace tcp::cli
