// HostCheckClassify.cpp — which functions are host code, which are stage functions (checked with the kernels), and which are neither.
#include "HostCheck.h"

namespace tcp {

namespace {
// Whether a type names a tensor of the device side (anything `...Tensor` but HostTensor), even one
// tcp does not model (the manual's library documentation: `BufTensor`, `VectorBranchTensor<...>`).
bool namesDeviceTensor(const ast::Type &t) {
  if (t.kind == ast::Type::PathT && !t.path.segments.empty()) {
    llvm::StringRef n = t.path.segments.back().name;
    if ((n.endswith("Tensor") || n.endswith("TensorView")) && n != "HostTensor") return true;
    for (const auto &seg : t.path.segments)
      for (const auto &g : seg.generics)
        if (g.type && namesDeviceTensor(*g.type)) return true;
  }
  for (const auto &e : t.elems)
    if (e && namesDeviceTensor(*e)) return true;
  return t.ret && namesDeviceTensor(*t.ret);
}
bool namesHostTensor(const ast::Type &t) {
  if (t.kind == ast::Type::PathT && !t.path.segments.empty() && t.path.segments.back().name == "HostTensor") return true;
  for (const auto &e : t.elems)
    if (e && namesHostTensor(*e)) return true;
  return false;
}

// Host memory is out of a kernel's reach: a signature with a HostTensor is host code.
bool takesHostTensor(const ast::Item &fn) {
  if (fn.ret && namesHostTensor(*fn.ret)) return true;
  for (const ast::Param &p : fn.params)
    if (p.type && namesHostTensor(*p.type)) return true;
  return false;
}
}  // namespace

bool isStageFunction(const std::string &name, const FnInfo &info, TypeChecker &types) {
  return types.isStageFunction(name, info);
}

bool isHostFunction(const std::string &name, const FnInfo &info, TypeChecker &types) {
  if (info.isDevice) return false;
  if (info.isTest || name == "main" || takesHostTensor(*info.item)) return true;
  if (isStageFunction(name, info, types)) return false;
  const ast::Item &fn = *info.item;
  if (fn.ret && namesDeviceTensor(*fn.ret)) return false;
  for (const ast::Param &p : fn.params)
    if (p.type && namesDeviceTensor(*p.type)) return false;
  return true;
}

}  // namespace tcp
