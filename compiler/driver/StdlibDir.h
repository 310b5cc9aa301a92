// StdlibDir.h — where the tools find the kernel library (stdlib/): next to the installed executable, else in the source tree.
#pragma once

#include <string>

namespace tcp {

// The stdlib directory, in order: $TCP_STDLIB when set; `<dir of the running executable>/` followed
// by the install layout's relative path (`../share/tcp/stdlib`) when that directory exists (an
// installed tree, wherever it was moved); the source tree's `stdlib/` (a build tree). `argv0` helps
// find the executable where /proc is missing. The path is absolute and normalized.
std::string stdlibDir(const char *argv0);

}  // namespace tcp
