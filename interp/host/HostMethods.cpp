// HostMethods.cpp — host API methods (to_hbm, to_host, map, zip_with, into_vec, save_npy, ...), ctx.pdma, assert_close!.
#include "HostRuntime.h"

#include "ArgumentOverwrites.h"

#include "HostTensorOps.h"
#include "Npy.h"

namespace tcp::interp {

std::optional<Value> HostRuntime::field(const ast::Expr &e, const Value &base) {
  auto c = objectAs<ContextObj>(base);
  if (!c) return std::nullopt;
  if (e.text != "pdma" && e.text != "tdma") fail(e.range, "no field `" + e.text + "` on Context (host code uses `ctx.pdma`)");
  auto d = std::make_shared<DmaObj>();
  d->ctx = c;
  d->name = e.text;
  return Value::object(d);
}

std::optional<Value> HostRuntime::methodCallImpl(const ast::Expr &e, const Value &recv) {
  if (recv.kind != Value::Object) return std::nullopt;
  const std::string method = e.path.segments.empty() ? "" : e.path.segments[0].name;
  if (auto t = objectAs<HostTensorObj>(recv)) return hostTensorMethod(e, method, t);
  if (auto t = objectAs<LookupTableObj>(recv)) return lookupTableMethod(e, method, t);
  if (auto h = objectAs<HbmTensorObj>(recv)) {
    if (method == "to_host") return toHost(e, h);
    if (method == "address" && e.operands.size() == 1) return Value::integer(static_cast<int64_t>(h->address));
    if (method == "clone") return recv;
    if (method == "view" || (method == "tile" && h->view)) return hbmViewMethod(e, method, h);
    fail(e.range, std::string("no method `") + method + "` on " + h->kindName() + " in tcpi's host API (to_host, address, view" +
                      (h->view ? ", tile)" : ")"));
  }
  if (auto r = objectAs<RngObj>(recv)) {
    if (method == "next_u32" && e.operands.size() == 1) return Value::integer(r->rng.nextU32());
    if (method == "clone") {
      auto c = std::make_shared<RngObj>(*r);
      return Value::object(c);
    }
    fail(e.range, "no method `" + method + "` on SmallRng in tcpi's host API (next_u32, clone)");
  }
  return std::nullopt;
}

Value HostRuntime::hostTensorMethod(const ast::Expr &e, const std::string &method, const std::shared_ptr<HostTensorObj> &t) {
  size_t argc = e.operands.size() - 1;
  auto want = [&](size_t n, const char *usage) {
    if (argc != n) fail(e.range, std::string("`.") + usage + "` takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s"));
  };
  const HostData &d = t->data;
  if (method == "to_hbm") return toHbm(e, t);
  if (method == "clone") return Value::object(t);
  if (method == "len") {
    want(0, "len()");
    return Value::integer(static_cast<int64_t>(d.bits.size()));
  }
  if (method == "into_vec" || method == "to_vec") {
    want(0, "into_vec()");
    Value v;
    v.kind = Value::Array;
    for (uint32_t b : d.bits) v.elems.push_back(elementValue(d.dtype, b));
    return v;
  }
  if (method == "get") {
    want(1, "get(i![...])");
    Value ix = ev_.eval(*e.operands[1]);
    if (ix.kind != Value::IndexV) fail(e.operands[1]->range, "`.get` takes a tensor index `i![...]`");
    if (auto p = t->positionOf(ix.index)) return elementValue(d.dtype, d.bits[*p]);
    fail(e.operands[1]->range, ix.index.str() + " is not an element of " + t->typeStr());
  }
  if (method == "map" || method == "zip_with") {
    bool zip = method == "zip_with";
    want(zip ? 2 : 1, zip ? "zip_with(&other, |x, y| ...)" : "map(|x| ...)");
    std::vector<Value> a = args(e, 1);
    std::shared_ptr<HostTensorObj> other;
    if (zip) {
      other = expectTensor(a[0], *e.operands[1], "the first argument of `.zip_with`");
      if (other->data.mapping->str() != d.mapping->str())
        fail(e.operands[1]->range, "`.zip_with` needs tensors of the same mapping: " + t->typeStr() + " and " + other->typeStr());
    }
    const Value &f = a.back();
    const ast::Expr &fsite = *e.operands.back();
    num::DType out = d.dtype;
    if (auto hint = hintedHostType(e)) {
      if (hint->mapping->str() != d.mapping->str())
        fail(e.range, "`." + method + "` keeps the mapping " + d.mapping->str() + ", the annotation has " + hint->mapping->str());
      out = hint->dtype;
    }
    HostData r = zeroHost(out, d.mapping);
    for (uint64_t p = 0; p < d.bits.size(); ++p) {
      if (!d.mapping->map(p)) continue;
      std::vector<Value> xs{elementValue(d.dtype, d.bits[p])};
      if (zip) xs.push_back(elementValue(other->data.dtype, other->data.bits[p]));
      Value v = callClosure(f, std::move(xs), fsite);
      try {
        r.bits[p] = elementBits(out, v);
      } catch (const HostError &err) {
        fail(fsite.range, "at " + indexText(indexAt(d.mapping, p).value_or(Index()), d.mapping) + ": " + err.message);
      }
    }
    return wrap(std::move(r));
  }
  if (method == "save_npy") {
    want(1, "save_npy(path)");
    Value path = ev_.eval(*e.operands[1]);
    if (path.kind != Value::Str) fail(e.operands[1]->range, "`.save_npy` takes a path string");
    try {
      saveNpy(d, path.s);
    } catch (const HostError &err) {
      fail(e.range, err.message);
    }
    return Value::unit();
  }
  fail(e.range, "no method `" + method + "` on HostTensor in tcpi's host API (to_hbm, into_vec, map, zip_with, get, len, "
                "save_npy)");
}

Value HostRuntime::toHbm(const ast::Expr &e, const std::shared_ptr<HostTensorObj> &t) {
  if (e.operands.size() != 3) fail(e.range, "`.to_hbm(&mut ctx.pdma, address)` takes two arguments");
  std::vector<Value> a = args(e, 1);
  auto ctx = expectPdma(a[0], *e.operands[1]);
  if (a[1].kind != Value::Int || a[1].i < 0) fail(e.operands[2]->range, "the HBM address must be a non-negative integer");
  TensorType type;
  const ast::PathSegment &seg = e.path.segments[0];
  if (seg.generics.size() == 2) {  // `.to_hbm::<Chip, Element>(...)` (the checker checked the arguments)
    type.tier = Tier::Hbm;
    type.dtype = t->data.dtype;
    type.chip = seg.generics[0].type ? ev_.resolver().mappingOfType(*seg.generics[0].type) : nullptr;
    type.element = seg.generics[1].type ? ev_.resolver().mappingOfType(*seg.generics[1].type) : nullptr;
    if (!type.chip || !type.element) fail(e.range, "`.to_hbm::<Chip, Element>` takes two mappings");
  } else if (auto hint = hintedHbmType(e)) {
    type = *hint;
    if (type.dtype != t->data.dtype)
      fail(e.range, "`" + type.str() + "` cannot hold " + t->typeStr() + " (element types differ)");
  } else {
    // Until a kernel says otherwise: chip 0, elements laid out as the host mapping.
    type.tier = Tier::Hbm;
    type.dtype = t->data.dtype;
    std::string err;
    type.chip = ctx->chips == 1 ? Mapping::identity() : Mapping::pad(Mapping::identity(), ctx->chips, &err);
    type.element = t->data.mapping;
  }
  auto h = std::make_shared<HbmTensorObj>();
  h->type = type;
  h->address = static_cast<uint64_t>(a[1].i);
  h->ctx = ctx;
  h->source = t->data;
  try {
    ctx->device->toHbm(t->data, type, h->address);
  } catch (const DeviceError &err) {
    fail(e.range, err.message);
  }
  return Value::object(h);
}

// `HbmTensor::<D, Chip, Element>::from_addr(address)`: a handle on HBM bytes, nothing written (bytes
// never written read as 0). It belongs to no context until its first use names one (its placement
// is checked then; the checker checks a constant address where it is written).
Value HostRuntime::hbmFromAddr(const ast::Expr &e, const ast::Path &p) {
  std::optional<TensorType> type;
  for (const auto &seg : p.segments)
    if (seg.name == "HbmTensor" && !seg.generics.empty()) type = types_.tensorTypeOfSegment(seg, e.range, false);
  if (!type) type = hintedHbmType(e);
  if (!type || type->tier != Tier::Hbm)
    fail(e.range, "cannot infer the tensor type of `HbmTensor::from_addr`: write `HbmTensor::<bf16, m![1], m![A]>::"
                  "from_addr(address)` or annotate the `let` with `HbmTensor<D, Chip, Element>`");
  if (e.operands.size() != 2) fail(e.range, "`HbmTensor::from_addr(address)` takes one argument");
  Value a = ev_.eval(*e.operands[1]);
  if (a.kind != Value::Int || a.i < 0) fail(e.operands[1]->range, "the HBM address must be a non-negative integer");
  auto h = std::make_shared<HbmTensorObj>();
  h->type = *type;
  h->address = uint64_t(a.i);
  return Value::object(h);
}

// The handle's placement is the device's rule for any HBM tensor (chips, capacity, alignment),
// checked where it first meets a device.
void HostRuntime::bindContext(HbmTensorObj &h, const std::shared_ptr<ContextObj> &ctx, const ast::Expr &site) {
  if (h.ctx) return;
  try {
    ctx->device->checkHbmTensor(h.type, h.address);
  } catch (const DeviceError &err) {
    fail(site.range, err.message);
  }
  h.ctx = ctx;
}

Value HostRuntime::toHost(const ast::Expr &e, const std::shared_ptr<HbmTensorObj> &h) {
  if (e.operands.size() != 2) fail(e.range, "`.to_host::<M>(&mut ctx.pdma)` takes one argument");
  Value dma = ev_.eval(*e.operands[1]);
  auto ctx = expectPdma(dma, *e.operands[1]);
  bindContext(*h, ctx, e);
  if (ctx != h->ctx) fail(e.range, "the HbmTensor lives in another context's HBM");
  if (std::string w = staleArgumentWarning(*h); !w.empty()) comp_.diags().warning(e.range, w);
  MappingRef m = h->type.element;
  const ast::PathSegment &seg = e.path.segments[0];
  if (!seg.generics.empty()) {
    if (seg.generics.size() != 1 || !seg.generics[0].type) fail(e.range, "`.to_host::<M>` takes one mapping");
    unsigned before = comp_.diags().errorCount();
    m = ev_.resolver().mappingOfType(*seg.generics[0].type);
    if (!m) fail(seg.generics[0].range, comp_.diags().errorCount() != before ? "invalid mapping (see the error above)"
                                                                             : "expected a mapping `m![...]` here");
  } else if (auto hint = hintedHostType(e)) {
    if (hint->dtype != h->type.dtype)
      fail(e.range, std::string("`to_host` keeps the element type ") + num::dtypeName(h->type.dtype) + ", the annotation has " +
                        num::dtypeName(hint->dtype));
    m = hint->mapping;
  }
  // The host layout may read a part of the tensor, but only along the HBM tensor's own axes.
  std::vector<AxisInfo> have = logicalAxes(h->type.element);
  for (const AxisInfo &a : logicalAxes(h->type.chip)) have.push_back(a);
  for (const AxisInfo &a : logicalAxes(m)) {
    bool found = false;
    for (const AxisInfo &b : have) found = found || b.name == a.name;
    if (!found) fail(e.range, "`" + m->str() + "` is not a layout of " + h->type.str() + ": it has no axis `" + a.name + "`");
  }
  try {
    HostData d = ctx->device->toHost(h->type, h->address, m);
    return wrap(std::move(d));
  } catch (const DeviceError &err) {
    fail(e.range, err.message);
  }
}

std::optional<std::string> HostRuntime::tensorMismatch(const Value &l, const Value &r, llvm::SMRange range) {
  auto a = objectAs<HostTensorObj>(l), b = objectAs<HostTensorObj>(r);
  if (!a || !b) return std::nullopt;
  try {
    return compareExact(a->data, b->data).value_or("");
  } catch (const HostError &err) {
    fail(range, err.message);
  }
}

std::optional<Value> HostRuntime::macroImpl(const ast::Expr &e) {
  if (e.macro->name == "assert_close") return assertClose(e);
  return std::nullopt;
}

Value HostRuntime::assertClose(const ast::Expr &e) {
  const auto &as = e.macro->args;
  if (!e.macro->argsParsed || (as.size() != 2 && as.size() != 4))
    fail(e.range, "`assert_close!(left, right)` or `assert_close!(left, right, rtol, atol)`");
  Value l = ev_.eval(*as[0]), r = ev_.eval(*as[1]);
  auto a = expectTensor(l, *as[0], "the left operand of `assert_close!`");
  auto b = expectTensor(r, *as[1], "the right operand of `assert_close!`");
  double rtol, atol;
  // Defaults: the coarser element type's tolerance.
  double r1, a1, r2, a2;
  defaultTolerance(a->data.dtype, &r1, &a1);
  defaultTolerance(b->data.dtype, &r2, &a2);
  rtol = std::max(r1, r2);
  atol = std::max(a1, a2);
  if (as.size() == 4) {
    auto num = [&](const ast::Expr &x) {
      Value v = ev_.eval(x);
      double t = v.kind == Value::Float ? v.f : v.kind == Value::Int ? static_cast<double>(v.i) : -1.0;
      if (v.kind != Value::Float && v.kind != Value::Int)
        fail(x.range, std::string("a tolerance must be a number, found ") + v.kindName());
      if (!(t >= 0)) fail(x.range, "a tolerance must be a non-negative number, found " + v.debug());
      return t;
    };
    rtol = num(*as[2]);
    atol = num(*as[3]);
  }
  std::optional<std::string> diff;
  try {
    diff = compareClose(a->data, b->data, rtol, atol);
  } catch (const HostError &err) {
    fail(e.range, err.message);
  }
  if (diff) fail(e.range, "assert_close!(" + std::string("left, right") + ") failed: " + *diff + "\n  left: " + a->typeStr() +
                              "\n right: " + b->typeStr());
  return Value::unit();
}

}  // namespace tcp::interp
