// HostCheckMethods.cpp — host method calls: the receiver's type names its methods (HostApi.h); unknown ones are errors.
#include "HostCheckInternal.h"

namespace tcp {

namespace {
HostType elementOf(num::DType d) { return HostType::of(num::isFloat(d) ? HostType::Float : HostType::Int); }

// Every method name of the host API (for receivers whose type is not known).
std::vector<std::string> allMethodNames() {
  std::vector<std::string> out;
  for (const HostApiEntry &e : hostApi())
    if (e.kind == HostApiEntry::Method && e.supported() && std::find(out.begin(), out.end(), e.name) == out.end())
      out.push_back(e.name);
  return out;
}
}  // namespace

HostType HostChecker::methodCall(const ast::Expr &e, const ast::Type *hint) {
  HostType recv = expr(*e.operands[0]);
  const std::string method = e.path.segments.empty() ? "" : e.path.segments[0].name;
  size_t argc = e.operands.size() - 1;
  using K = HostApiEntry::Kind;
  llvm::SMRange site = e.path.segments.empty() ? e.range : e.path.segments[0].range;
  if (!site.isValid()) site = e.range;
  if (!recv.known() || recv.kind == HostType::Never) {
    // The receiver's type is not known statically: the method must exist on some host value, and
    // tcpi checks the receiver when it runs the call.
    std::vector<HostType> args = argTypes(e, 1);
    std::vector<std::string> names = allMethodNames();
    if (std::find(names.begin(), names.end(), method) == names.end()) {
      for (const HostApiEntry &api : hostApi())
        if (api.kind == K::Method && api.name == method && !api.supported()) {
          error(site, api.unsupported);
          return HostType();
        }
      error(site, "no host value has a method `" + method + "`" + HostChecker::hint(method, names, false));
      return HostType();
    }
    if (method == "len" || method == "address" || method == "next_u32") return HostType::of(HostType::Int);
    if (method == "is_some" || method == "is_none") return HostType::of(HostType::Bool);
    return HostType();
  }
  std::string owner = recv.apiOwner();
  const HostApiEntry *api = findHostApi(K::Method, owner, method);
  if (!api) {
    argTypes(e, 1);
    std::vector<std::string> names = hostApiNames(K::Method, owner);
    error(site, "`" + recv.str() + "` has no method `" + method + "`" + HostChecker::hint(method, names));
    return HostType();
  }
  if (!api->supported()) {
    argTypes(e, 1);
    error(site, api->unsupported);
    return HostType();
  }
  if (!e.path.segments.empty() && !e.path.segments[0].generics.empty() && method != "to_host" && method != "to_hbm" &&
      method != "tile")
    error(e.path.segments[0].range.isValid() ? e.path.segments[0].range : e.range,
          "`." + method + "()` takes no type arguments");
  if (method == "clone") {
    argTypes(e, 1);
    arity(*api, argc, e.range);
    HostType out = recv;
    if (out.kind == HostType::HbmTensor) out.source = recv.source;
    return out;
  }
  switch (recv.kind) {
    case HostType::HostTensor: return hostTensorMethod(e, method, recv, hint);
    case HostType::HbmTensor:
    case HostType::HbmView:
      if (method == "to_host") return toHost(e, recv, hint);
      if (method == "view" || method == "tile") return hbmViewMethod(e, method, recv, hint);
      argTypes(e, 1);
      arity(*api, argc, e.range);
      return HostType::of(HostType::Int);  // address()
    case HostType::Table: {
      std::vector<HostType> args = argTypes(e, 1);
      if (!arity(*api, argc, e.range)) return HostType();
      HostType out = recv.tableKnown ? elementOf(recv.table.out) : HostType();
      if (method == "len") return HostType::of(HostType::Int);
      if (method == "into_vec" || method == "to_vec") return HostType::vec(out, recv.tableKnown ? std::optional<uint64_t>(tableEntries(recv.table.in)) : std::nullopt);
      // get(x): an In value.
      const HostType &x = args[0];
      bool ok = !x.known() || x.kind == HostType::Never || x.kind == HostType::Int ||
                (x.kind == HostType::Float && (!recv.tableKnown || num::isFloat(recv.table.in)));
      if (!ok)
        error(e.operands[1]->range, "`" + recv.str() + "::get` takes " +
                                        (recv.tableKnown ? std::string("an ") + num::dtypeName(recv.table.in) + " value"
                                                         : std::string("a number")) + ", found " + x.str());
      return out;
    }
    case HostType::Option: {
      argTypes(e, 1);
      arity(*api, argc, e.range);
      if (method == "unwrap") return recv.elems.empty() ? HostType() : recv.elems[0];
      return HostType::of(HostType::Bool);
    }
    case HostType::Index: {
      if (!arity(*api, argc, e.range)) return HostType::of(HostType::Int);
      const ast::Expr &a = *e.operands[1];
      if (a.kind != ast::Expr::PathE || a.path.qualifiedSelf || a.path.segments.size() != 1) {
        expr(a);
        error(a.range, "`ix.get(A)` takes an axis name");
      } else if (!syms_.axes.find(a.path.segments[0].name)) {
        std::vector<std::string> axes;
        for (const AxisInfo &x : syms_.axes.all()) axes.push_back(x.name);
        error(a.range, "`" + a.path.segments[0].name + "` is not an axis" + HostChecker::hint(a.path.segments[0].name, axes));
      }
      return HostType::of(HostType::Int);
    }
    default:
      // len() of Vec and String, next_u32() of SmallRng.
      argTypes(e, 1);
      arity(*api, argc, e.range);
      return HostType::of(HostType::Int);
  }
}

}  // namespace tcp
