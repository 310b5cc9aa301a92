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
constexpr long kOdd[] = {1'000, 2};  // an odd number of digit separators before a "}"
constexpr wchar_t kOpen = L'{';        // a character literal holding a brace
struct Placement {
  bool decided = false;
  std::optional<int> missing;
};
}  // namespace tcp
