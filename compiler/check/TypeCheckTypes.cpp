// TypeCheckTypes.cpp — predicates on declared (AST) types shared by the body walk, the expression rules and inlining.
#include "TypeCheckInternal.h"

#include <algorithm>
#include <iterator>

namespace tcp {

const ast::Type &stripRefs(const ast::Type &t0) {
  const ast::Type *t = &t0;
  while (t->kind == ast::Type::Ref && !t->elems.empty() && t->elems[0]) t = t->elems[0].get();
  return *t;
}

bool namesType(const ast::Type &t0, const char *name) {
  const ast::Type &t = stripRefs(t0);
  return t.kind == ast::Type::PathT && !t.path.segments.empty() && t.path.segments.back().name == name;
}

bool isIntegerType(const ast::Type &t) {
  static const char *const kInts[] = {"i8", "i16", "i32", "i64", "i128", "isize",
                                      "u8", "u16", "u32", "u64", "u128", "usize"};
  if (t.kind != ast::Type::PathT || t.path.segments.size() != 1) return false;
  return std::any_of(std::begin(kInts), std::end(kInts), [&](const char *n) { return t.path.segments[0].name == n; });
}

bool isIntegerOrIntegerArrayType(const ast::Type &t) {
  return isIntegerType(t) ||
         (t.kind == ast::Type::Array && !t.elems.empty() && t.elems[0] && isIntegerType(*t.elems[0]));
}

}  // namespace tcp
