// First.h — odr_check fixture: one of two classes `tcp::Placement` (the other is b/Second.h's).
#pragma once
#include <string>
#include <vector>

namespace tcp {
namespace {
struct Scratch {  // anonymous: every file may have its own
  int n = 0;
};
}  // namespace
template <int K>
struct Tree {};
template <>
struct Tree<0> {};  // a specialization names no new class
struct Placement {
  enum Status { Located, Broadcast } status = Located;
  std::vector<int> pieces;
  std::string message;
};
}  // namespace tcp
