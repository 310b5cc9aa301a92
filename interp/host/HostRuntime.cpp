// HostRuntime.cpp — host API calls: Context::acquire, SmallRng, HostTensor constructors, launch, contraction.
#include "HostRuntime.h"

#include "ArgumentOverwrites.h"
#include "HostLimits.h"
#include "HostTensorOps.h"
#include "MappingNormalForm.h"
#include "Npy.h"
#include "PhaseTimer.h"

namespace tcp::interp {

namespace {
const ast::Expr &stripWrappers(const ast::Expr &e) {
  const ast::Expr *x = &e;
  while ((x->kind == ast::Expr::Await || x->kind == ast::Expr::Paren || x->kind == ast::Expr::Try) &&
         !x->operands.empty() && x->operands[0])
    x = x->operands[0].get();
  return *x;
}
}  // namespace

std::vector<Value> HostRuntime::args(const ast::Expr &e, size_t first) {
  std::vector<Value> out;
  for (size_t k = first; k < e.operands.size(); ++k) out.push_back(ev_.eval(*e.operands[k]));
  return out;
}

Value HostRuntime::wrap(HostData d) {
  auto t = std::make_shared<HostTensorObj>();
  t->data = std::move(d);
  return Value::object(t);
}

std::shared_ptr<HostTensorObj> HostRuntime::expectTensor(const Value &v, const ast::Expr &site, const std::string &what) {
  auto t = objectAs<HostTensorObj>(v);
  if (!t) fail(site.range, what + " must be a HostTensor, found " + v.kindName() + " `" + v.debug() + "`");
  return t;
}

std::shared_ptr<ContextObj> HostRuntime::expectPdma(const Value &v, const ast::Expr &site) {
  if (auto d = objectAs<DmaObj>(v)) {
    if (d->name != "pdma") fail(site.range, "host transfers use the PCIe DMA `ctx.pdma`, not `ctx." + d->name + "`");
    return d->ctx;
  }
  if (auto c = objectAs<ContextObj>(v)) return c;
  fail(site.range, std::string("expected `&mut ctx.pdma`, found ") + v.kindName() + " `" + v.debug() + "`");
}

Value HostRuntime::callClosure(const Value &f, std::vector<Value> a, const ast::Expr &site) {
  return ev_.callClosure(f, std::move(a), site.range);
}

std::optional<HostRuntime::HostType> HostRuntime::hostTypeOfGenerics(const ast::PathSegment &seg, llvm::SMRange range) {
  std::vector<const ast::GenericArg *> gs;
  for (const auto &g : seg.generics)
    if (g.kind != ast::GenericArg::Lifetime) gs.push_back(&g);
  if (gs.empty()) return std::nullopt;
  if (gs.size() != 2 || !gs[0]->type || !gs[1]->type)
    fail(range, "`" + seg.name + "::<D, M>` takes an element type and a mapping");
  const ast::Type &d = *gs[0]->type;
  std::optional<num::DType> dt;
  if (d.kind == ast::Type::PathT && d.path.segments.size() == 1) dt = num::parseDType(d.path.segments[0].name);
  if (!dt) fail(gs[0]->range, "expected an element type (i4, i8, i16, i32, f8e4m3, f8e5m2, bf16, f16, f32)");
  unsigned before = comp_.diags().errorCount();
  MappingRef m = ev_.resolver().mappingOfType(*gs[1]->type);
  if (!m)
    fail(gs[1]->range, comp_.diags().errorCount() != before ? "invalid mapping (see the error above)"
                                                            : "expected a mapping `m![...]` or a mapping alias here");
  return HostType{*dt, m};
}

std::optional<HostRuntime::HostType> HostRuntime::hintedHostType(const ast::Expr &e) {
  const ast::Type *t = ev_.expectedType(e);
  if (!t) return std::nullopt;
  auto tt = types_.tensorTypeOf(*t, false);
  if (!tt || tt->tier != Tier::Host) return std::nullopt;
  return HostType{tt->dtype, tt->element};
}

std::optional<TensorType> HostRuntime::hintedHbmType(const ast::Expr &e) {
  const ast::Type *t = ev_.expectedType(e);
  if (!t) return std::nullopt;
  auto tt = types_.tensorTypeOf(*t, false);
  if (!tt || tt->tier != Tier::Hbm) return std::nullopt;
  return tt;
}

std::optional<Value> HostRuntime::callImpl(const ast::Expr &e) {
  const ast::Expr &callee = *e.operands[0];
  if (callee.kind != ast::Expr::PathE || callee.path.qualifiedSelf) return std::nullopt;
  const ast::Path &p = callee.path;
  size_t n = p.segments.size();
  const std::string &last = p.segments.back().name;
  if (n == 1 && comp_.symbols().fns.count(last) && last != "launch") return std::nullopt;  // user functions win
  if (n == 1 && last == "launch") return launch(e);
  if (n == 1 && last == "contraction") return contractionCall(e, p.segments[0]);
  if (n < 2) return std::nullopt;
  const std::string &type = p.segments[n - 2].name;
  if (type == "Context" && last == "acquire") return acquire(e);
  if (type == "SmallRng" && last == "seed_from_u64") {
    auto a = args(e, 1);
    if (a.size() != 1 || a[0].kind != Value::Int) fail(e.range, "`SmallRng::seed_from_u64` takes one integer seed");
    auto r = std::make_shared<RngObj>();
    r->rng = SmallRng::seedFromU64(static_cast<uint64_t>(a[0].i));
    return Value::object(r);
  }
  if (type == "HostTensor") return hostTensorCall(e, last, p);
  if (type == "HbmTensor" && last == "from_addr") return hbmFromAddr(e, p);
  if (type == "LookupTable") return lookupTableCall(e, last, p);
  return std::nullopt;
}

Value HostRuntime::acquire(const ast::Expr &e) {
  if (e.operands.size() != 1) fail(e.range, "`Context::acquire()` takes no arguments");
  unsigned chips = 1;
  for (const TypedFunction &f : comp_.typed().functions)
    if (f.isDevice) chips = std::max(chips, f.chips);
  auto c = std::make_shared<ContextObj>();
  c->chips = chips;
  try {
    chargeMemory(uint64_t(chips) * Device::bytesPerChip(), "a device of " + std::to_string(chips) + " chips");
    c->device = std::make_unique<Device>(chips);
  } catch (const DeviceError &err) {
    fail(e.range, err.message);
  } catch (const HostError &err) {
    fail(e.range, err.message);
  }
  return Value::object(c);
}

Value HostRuntime::hostTensorCall(const ast::Expr &e, const std::string &fn, const ast::Path &p) {
  // The type: `HostTensor::<D, M>::fn` or the let annotation.
  std::optional<HostType> ty;
  for (const auto &seg : p.segments)
    if (seg.name == "HostTensor" && !seg.generics.empty()) ty = hostTypeOfGenerics(seg, e.range);
  if (!ty) ty = hintedHostType(e);
  if (!ty)
    fail(e.range, "cannot infer the tensor type of `HostTensor::" + fn + "`: write `HostTensor::<i32, m![A]>::" + fn +
                      "(...)` or annotate the `let` with `HostTensor<D, M>`");
  auto a = args(e, 1);
  auto argc = [&](size_t want, const char *usage) {
    if (a.size() != want) fail(e.range, std::string("`HostTensor::") + usage + "` takes " + std::to_string(want) +
                                            " argument" + (want == 1 ? "" : "s") + ", found " + std::to_string(a.size()));
  };
  try {
    HostData h = zeroHost(ty->dtype, ty->mapping);
    if (fn == "rand") {
      argc(1, "rand(&mut rng)");
      auto r = objectAs<RngObj>(a[0]);
      if (!r) fail(e.operands[1]->range, std::string("expected `&mut rng` (a SmallRng), found ") + a[0].kindName());
      std::vector<uint8_t> held = elementMask(h.mapping);
      for (uint64_t k = 0; k < h.bits.size(); ++k)
        if (held[k]) h.bits[k] = randElement(r->rng, h.dtype);
      return wrap(std::move(h));
    }
    if (fn == "zeros") {
      argc(0, "zeros()");
      return wrap(std::move(h));
    }
    if (fn == "from_vec") {
      argc(1, "from_vec(vec![...])");
      if (a[0].kind != Value::Array) fail(e.operands[1]->range, std::string("expected a vec![...], found ") + a[0].kindName());
      if (a[0].elems.size() != h.bits.size())
        fail(e.operands[1]->range, "`" + hostTypeStr(h) + "` has " + std::to_string(h.bits.size()) + " positions but the vector has " +
                                       std::to_string(a[0].elems.size()) + " values");
      std::vector<uint8_t> held = elementMask(h.mapping);
      for (uint64_t k = 0; k < h.bits.size(); ++k) {
        if (!held[k]) continue;  // padding stays 0
        try {
          h.bits[k] = elementBits(h.dtype, a[0].elems[k]);
        } catch (const HostError &err) {
          fail(e.operands[1]->range, "element " + std::to_string(k) + ": " + err.message);
        }
      }
      return wrap(std::move(h));
    }
    if (fn == "from_fn") {
      argc(1, "from_fn(|index| ...)");
      for (uint64_t k = 0; k < h.bits.size(); ++k) {
        auto ix = h.mapping->map(k);
        if (!ix) continue;
        ix->sortBy(comp_.symbols().axes);
        Value v = callClosure(a[0], {Value::ofIndex(*ix)}, *e.operands[1]);
        try {
          h.bits[k] = elementBits(h.dtype, v);
        } catch (const HostError &err) {
          fail(e.operands[1]->range, "at " + indexText(*ix, h.mapping) + ": " + err.message);
        }
      }
      return wrap(std::move(h));
    }
    if (fn == "load_npy") {
      argc(1, "load_npy(path)");
      if (a[0].kind != Value::Str) fail(e.operands[1]->range, "`load_npy` takes a path string");
      return wrap(loadNpy(a[0].s, ty->dtype, ty->mapping));
    }
  } catch (const HostError &err) {
    fail(e.range, err.message);
  }
  fail(e.range, "`HostTensor::" + fn + "` is not part of tcpi's host API (rand, zeros, from_vec, from_fn, load_npy)");
}

Value HostRuntime::contractionCall(const ast::Expr &e, const ast::PathSegment &seg) {
  std::optional<HostType> ty = seg.generics.empty() ? hintedHostType(e) : hostTypeOfGenerics(seg, e.range);
  if (!ty)
    fail(e.range, "cannot infer the output type of `contraction`: write `contraction::<D, m![...]>(&a, &b)` or annotate "
                  "the `let` with `HostTensor<D, M>`");
  if (e.operands.size() != 3) fail(e.range, "`contraction` takes two host tensors");
  auto a = args(e, 1);
  auto l = expectTensor(a[0], *e.operands[1], "the first operand of `contraction`");
  auto r = expectTensor(a[1], *e.operands[2], "the second operand of `contraction`");
  try {
    PhaseTimer timer(Phase::AnswerKey);
    return wrap(contraction(l->data, r->data, ty->dtype, ty->mapping));
  } catch (const HostError &err) {
    fail(e.range, err.message);
  }
}

Value HostRuntime::launch(const ast::Expr &e) {
  if (e.operands.size() < 3) fail(e.range, "`launch(kernel, (&mut ctx, &a, ...))` needs a kernel and its arguments");
  const ast::Expr &k = *e.operands[1];
  if (k.kind != ast::Expr::PathE || k.path.segments.size() != 1) fail(k.range, "the first argument of `launch` names a kernel");
  const std::string &name = k.path.segments[0].name;
  const TypedFunction *kernel = nullptr;
  for (const TypedFunction &f : comp_.typed().functions)
    if (f.name == name) kernel = &f;
  const FunctionConfig *config = nullptr;
  for (const FunctionConfig &f : comp_.lowered().functions)
    if (f.name == name) config = &f;
  auto fn = comp_.symbols().fns.find(name);
  if (fn == comp_.symbols().fns.end()) fail(k.range, "unknown kernel `" + name + "`");
  if (!fn->second.isDevice || !kernel || !kernel->isDevice) fail(k.range, "`" + name + "` is not a #[device] kernel");
  if (!config) fail(k.range, "kernel `" + name + "` has no configuration (it did not pass the config phase)");
  std::vector<Value> a = args(e, 2);
  std::vector<const ast::Expr *> sites;
  if (a.size() == 1 && a[0].kind == Value::Tuple) {
    const ast::Expr &tup = stripWrappers(*e.operands[2]);
    Value t = std::move(a[0]);
    a = std::move(t.elems);
    for (size_t j = 0; j < a.size(); ++j)
      sites.push_back(tup.kind == ast::Expr::Tuple && j < tup.operands.size() ? tup.operands[j].get() : e.operands[2].get());
  } else {
    for (size_t j = 2; j < e.operands.size(); ++j) sites.push_back(e.operands[j].get());
  }
  if (a.empty()) fail(e.range, "`launch` needs `&mut ctx` as the first kernel argument");
  auto ctx = objectAs<ContextObj>(a[0]);
  if (!ctx) fail(sites[0]->range, std::string("the first kernel argument must be `&mut ctx`, found ") + a[0].kindName());
  size_t nTables = kernel->tables.size();
  if (a.size() - 1 != kernel->params.size() + nTables)
    fail(e.range, "kernel `" + name + "` takes " + std::to_string(kernel->params.size()) + " tensor argument" +
                      (kernel->params.size() == 1 ? "" : "s") +
                      (nTables ? " and " + std::to_string(nTables) + " lookup table" + (nTables == 1 ? "" : "s") : "") +
                      " after `&mut ctx`, found " + std::to_string(a.size() - 1));
  std::vector<uint64_t> addrs;
  std::vector<LookupTableData> tables;
  std::vector<std::shared_ptr<HbmTensorObj>> passed;  // the HBM arguments (stale afterwards if the kernel writes over them)
  // Each handle passed and the parameter that took it first: one HBM tensor holds one layout.
  std::map<const HbmTensorObj *, std::pair<std::string, TensorType>> taken;
  try {
    for (size_t j = 1, tensor = 0; j < a.size(); ++j) {
      // A `&LookupTable<In, Out>` parameter takes a host table: its entries travel with the launch.
      if (tables.size() < nTables && kernel->tables[tables.size()].argIndex == j - 1) {
        const TypedTable &want = kernel->tables[tables.size()];
        auto t = objectAs<LookupTableObj>(a[j]);
        if (!t) fail(sites[j]->range, "argument `" + want.name + "` of `" + name + "` must be a " + want.type.str() +
                                          ", found " + a[j].kindName());
        if (t->data.type.in != want.type.in || t->data.type.out != want.type.out)
          fail(sites[j]->range, "kernel parameter `" + want.name + "` is " + want.type.str() + ", the argument " +
                                    t->data.type.str());
        tables.push_back(t->data);
        continue;
      }
      const auto &[pname, ptype] = kernel->params[tensor++];
      auto h = objectAs<HbmTensorObj>(a[j]);
      if (!h) fail(sites[j]->range, "argument `" + pname + "` of `" + name + "` must be an HbmTensor, found " + a[j].kindName());
      if (ptype.tier != Tier::Hbm)
        fail(sites[j]->range, "kernel parameter `" + pname + "` is a " + ptype.str() + "; the host passes HBM tensors only");
      bindContext(*h, ctx, *sites[j]);
      if (h->ctx != ctx) fail(sites[j]->range, "`" + pname + "` lives in another context's HBM");
      if (std::string w = staleArgumentWarning(*h); !w.empty()) comp_.diags().warning(sites[j]->range, w);
      passed.push_back(h);
      if (h->type.dtype != ptype.dtype)
        fail(sites[j]->range, "kernel parameter `" + pname + "` is " + ptype.str() + ", the argument " + h->type.str());
      // The same layout (equivalent mappings, as the checker decides) needs no re-placing.
      bool sameLayout = h->type.chip && h->type.element && equivalent(h->type.chip, ptype.chip) &&
                        equivalent(h->type.element, ptype.element);
      if (auto first = taken.find(h.get()); first != taken.end()) {
        const TensorType &had = first->second.second;
        if (!(equivalent(had.chip, ptype.chip) && equivalent(had.element, ptype.element)))
          fail(sites[j]->range, "this handle is also passed to `" + first->second.first + "` as " + had.str() + ", but `" +
                                    pname + "` is " + ptype.str() +
                                    ": one HBM tensor holds one layout (write the host tensor to HBM once per layout)");
      }
      taken.emplace(h.get(), std::make_pair(pname, ptype));
      if (h->type.str() != ptype.str() && !sameLayout) {
        // Placed without a type annotation: write it again with the kernel's layout.
        if (!h->source)
          fail(sites[j]->range, "kernel parameter `" + pname + "` is " + ptype.str() + ", the argument " + h->type.str());
        // A larger layout (padding) writes past what `.to_hbm` wrote: say which bytes it takes.
        uint64_t had = num::storageBytes(h->type.dtype, h->type.element->size()),
                 now = num::storageBytes(ptype.dtype, ptype.element->size());
        if (now > had)
          comp_.diags().warning(sites[j]->range,
                                "`" + pname + "` is written again in the kernel's layout " + ptype.element->str() + ": " +
                                    std::to_string(now) + " bytes at HBM address " + std::to_string(h->address) +
                                    " where `.to_hbm` wrote " + std::to_string(had) + ", so HBM [" +
                                    std::to_string(h->address + had) + ", " + std::to_string(h->address + now) +
                                    ") is overwritten (place other tensors outside it, or `.to_hbm` in the kernel's layout)");
        ctx->device->toHbm(*h->source, ptype, h->address);
        h->type = ptype;
      }
      addrs.push_back(h->address);
    }
    std::vector<uint64_t> members;
    if (uint64_t bytes = ctx->device->launchBytes(*kernel))
      chargeMemory(bytes, "the CPU model of the slices `" + name + "` runs on");
    std::optional<uint64_t> out;
    const unsigned line = comp_.diags().sourceMgr().getLineAndColumn(e.range.Start).first;
    try {
      out = ctx->device->launch(*kernel, *config, addrs, tables, &members);
    } catch (...) {
      markOverwrittenArguments(passed, ctx->device->lastLaunchHbmWrites(), name, line);
      throw;
    }
    markOverwrittenArguments(passed, ctx->device->lastLaunchHbmWrites(), name, line);
    if (!kernel->tupleResults.empty()) {  // `(a, b)`: one HBM tensor per member
      if (members.size() != kernel->tupleResults.size()) fail(e.range, "kernel `" + name + "` returned no tuple of HBM tensors");
      Value t;
      t.kind = Value::Tuple;
      for (size_t k = 0; k < members.size(); ++k) {
        auto r = std::make_shared<HbmTensorObj>();
        r->type = kernel->tupleResults[k];
        r->address = members[k];
        r->ctx = ctx;
        t.elems.push_back(Value::object(r));
      }
      return t;
    }
    if (!kernel->result) return Value::unit();
    if (!out) fail(e.range, "kernel `" + name + "` returned no HBM tensor");
    auto r = std::make_shared<HbmTensorObj>();
    r->type = *kernel->result;
    r->address = *out;
    r->ctx = ctx;
    return Value::object(r);
  } catch (const DeviceError &err) {
    fail(e.range, err.message);
  }
}

}  // namespace tcp::interp
