// Second.h — odr_check fixture: the second class `tcp::Placement`, smaller than a/First.h's.
#pragma once
#include <optional>

namespace tcp::detail {
struct Scratch {};  // tcp::detail::Scratch: another name
}  // namespace tcp::detail

namespace tcp {
namespace {
struct Scratch {};
}  // namespace
class Outer {
  struct Placement {};  // a member class: tcp::Outer::Placement
};
void f() {
  struct Placement {};  // a local class
}
struct Placement {
  bool decided = false;
  std::optional<int> missing;
};
}  // namespace tcp
