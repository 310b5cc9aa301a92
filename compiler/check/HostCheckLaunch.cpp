// HostCheckLaunch.cpp — `launch(kernel, (&mut ctx, args...))` against the typed kernel: arguments, tiers, element types, mappings, chips.
#include "HostCheckInternal.h"

#include "HostPlacement.h"
#include "MappingNormalForm.h"

namespace tcp {

namespace {
bool sameLayout(const MappingRef &a, const MappingRef &b) { return a->str() == b->str() || equivalent(a, b); }
}  // namespace

HostType HostChecker::launch(const ast::Expr &e) {
  if (e.operands.size() < 3) {
    argTypes(e, 1);
    error(e.range, "`launch(kernel, (&mut ctx, &a, ...))` needs a kernel and its arguments");
    return HostType();
  }
  const ast::Expr &k = *e.operands[1];
  // The arguments: a tuple `(&mut ctx, &a, ...)` (or a tuple value), or listed after the kernel.
  std::vector<HostType> args;
  std::vector<const ast::Expr *> sites;
  const ast::Expr &packed = stripAwait(*e.operands[2]);
  if (e.operands.size() == 3 && packed.kind == ast::Expr::Tuple) {
    for (const auto &o : packed.operands) {
      args.push_back(expr(*o));
      sites.push_back(o.get());
    }
  } else {
    std::vector<HostType> given = argTypes(e, 2);
    if (given.size() == 1 && given[0].kind == HostType::Tuple) {
      args = given[0].elems;
      sites.assign(args.size(), e.operands[2].get());
    } else {
      args = given;
      for (size_t j = 2; j < e.operands.size(); ++j) sites.push_back(e.operands[j].get());
    }
  }
  if (k.kind != ast::Expr::PathE || k.path.qualifiedSelf || k.path.segments.size() != 1) {
    error(k.range, "the first argument of `launch` names a kernel");
    return HostType();
  }
  const std::string &name = k.path.segments[0].name;
  std::vector<std::string> kernels;
  for (const TypedFunction &f : typed_.functions)
    if (f.isDevice) kernels.push_back(f.name);
  auto fn = syms_.fns.find(name);
  if (fn == syms_.fns.end()) {
    error(k.range, "unknown kernel `" + name + "`" + hint(name, kernels));
    return HostType();
  }
  if (!fn->second.isDevice) {
    error(k.range, "`" + name + "` is not a #[device] kernel" + hint(name, kernels, false));
    return HostType();
  }
  const TypedFunction *kernel = typedFunction(name);
  if (!kernel || !kernel->isDevice) {
    error(k.range, fn->second.item->body ? "kernel `" + name + "` was not checked: tcpi launches the kernels of the file it "
                                           "checked (kernels defined in the REPL are not typed)"
                                         : "kernel `" + name + "` has no body");
    return HostType();
  }
  HostType result = kernel->result ? HostType::hbmTensor(kernel->result->dtype, kernel->result->chip, kernel->result->element)
                                   : HostType::of(HostType::Unit);
  if (!kernel->tupleResults.empty()) {  // `-> (HbmTensor<..>, HbmTensor<..>)`: the host destructures it
    result = HostType::of(HostType::Tuple);
    for (const TensorType &t : kernel->tupleResults) result.elems.push_back(HostType::hbmTensor(t.dtype, t.chip, t.element));
  }
  // The kernel's parameters after the context: tensors and lookup tables are what launch passes.
  for (const ast::Param &p : fn->second.item->params) {
    if (!p.type) continue;
    const ast::Type *t = p.type.get();
    while (t->kind == ast::Type::Ref && !t->elems.empty() && t->elems[0]) t = t->elems[0].get();
    std::string last = t->kind == ast::Type::PathT && !t->path.segments.empty() ? t->path.segments.back().name : "";
    std::string err;
    if (last == "Context" || types_.tensorTypeOf(*p.type, false) || lookupTableTypeOf(*p.type, &err)) continue;
    if (llvm::StringRef(last).endswith("Tensor") || llvm::StringRef(last).endswith("TensorView") || last == "LookupTable")
      return result;  // a malformed parameter type: reported with the kernel
    std::string pname = p.pattern && p.pattern->kind == ast::Pattern::Ident ? p.pattern->name : "_";
    error(k.range, "kernel `" + name + "` takes `" + pname + "`, which `launch` cannot pass: tcpi passes `&mut ctx`, HBM "
                   "tensors and lookup tables");
    return result;
  }
  if (args.empty()) {
    error(e.range, "`launch` needs `&mut ctx` as the first kernel argument");
    return result;
  }
  if (args[0].known() && args[0].kind != HostType::Context && args[0].kind != HostType::Never)
    error(sites[0]->range, "the first kernel argument must be `&mut ctx`, found " + args[0].str());
  size_t nTensors = kernel->params.size(), nTables = kernel->tables.size();
  if (args.size() - 1 != nTensors + nTables) {
    error(e.range, "kernel `" + name + "` takes " + countText(nTensors, "tensor argument") +
                       (nTables ? " and " + countText(nTables, "lookup table") : "") + " after `&mut ctx`, found " +
                       std::to_string(args.size() - 1));
    return result;
  }
  size_t tables = 0, tensor = 0;
  for (size_t j = 1; j < args.size(); ++j) {
    const HostType &a = args[j];
    const ast::Expr &site = *sites[j];
    bool unknown = !a.known() || a.kind == HostType::Never;
    if (tables < nTables && kernel->tables[tables].argIndex == j - 1) {
      const TypedTable &want = kernel->tables[tables++];
      if (unknown) continue;
      if (a.kind != HostType::Table)
        error(site.range, "argument `" + want.name + "` of `" + name + "` must be a " + want.type.str() + ", found " + a.str());
      else if (a.tableKnown && (a.table.in != want.type.in || a.table.out != want.type.out))
        error(site.range, "kernel parameter `" + want.name + "` is " + want.type.str() + ", the argument " + a.table.str());
      continue;
    }
    const auto &[pname, ptype] = kernel->params[tensor++];
    if (ptype.tier != Tier::Hbm) {
      error(site.range, "kernel parameter `" + pname + "` is a " + ptype.str() + "; the host passes HBM tensors only");
      continue;
    }
    if (unknown) continue;
    // A view passes its address and tile mapping: the parameter must have that exact layout (a view
    // has no host data to write again in another one).
    if (a.kind != HostType::HbmTensor && a.kind != HostType::HbmView) {
      error(site.range, "argument `" + pname + "` of `" + name + "` must be an HbmTensor (" + ptype.str() + "), found " +
                            a.str() + (a.kind == HostType::HostTensor ? ": write it to HBM first with "
                                                                        "`.to_hbm(&mut ctx.pdma, address)`" : ""));
      continue;
    }
    if (!a.tensorKnown()) continue;
    if (a.dtype != ptype.dtype) {
      error(site.range, "kernel parameter `" + pname + "` is " + ptype.str() + ", the argument " + a.str() +
                            " (element types differ)");
      continue;
    }
    if (sameLayout(a.chip, ptype.chip) && sameLayout(a.element, ptype.element)) continue;
    if (!a.source) {
      std::string why = a.chip->size() != ptype.chip->size()
                            ? "; the kernel runs on " + std::to_string(ptype.chip->size()) + " chip(s), the argument lives on " +
                                  std::to_string(a.chip->size())
                            : a.kind == HostType::HbmView
                                  ? " (the mappings differ; a view passes its tile mapping as it is)"
                                  : " (the mappings differ; a handle without host data, a kernel's result or `from_addr`, "
                                    "keeps its layout)";
      error(site.range, "kernel parameter `" + pname + "` is " + ptype.str() + ", the argument " + a.str() + why);
      continue;
    }
    // Written by `to_hbm`: launch writes its host data again in the parameter's layout.
    HostPlacement pl = placeHost(a.source, ptype.chip, ptype.element);
    if (pl.missing) {
      error(site.range, "kernel parameter `" + pname + "` is " + ptype.str() + "; the argument was written from a host "
                        "tensor laid out as " + a.source->str() + ", whose element " + pl.missing->str() +
                            " has no place in it");
      continue;
    }
    // tcpi re-places the handle: from here on it has the parameter's type.
    const ast::Expr &v = site.kind == ast::Expr::Unary ? stripAwait(*site.operands[0]) : site;
    if (v.kind == ast::Expr::PathE && !v.path.qualifiedSelf && v.path.segments.size() == 1)
      if (HostType *slot = lookup(v.path.segments[0].name); slot && slot->kind == HostType::HbmTensor) {
        MappingRef source = slot->source;
        *slot = HostType::hbmTensor(ptype.dtype, ptype.chip, ptype.element);
        slot->source = source;
      }
  }
  return result;
}

}  // namespace tcp
