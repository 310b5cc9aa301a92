// HostCheckTensors.cpp — host tensors and tables: constructors, methods, to_hbm/to_host placement, contraction and assert_close!.
#include "HostCheckInternal.h"

#include "EngineConfig.h"
#include "HostPlacement.h"

namespace tcp {

namespace {
constexpr uint64_t kMaxDense = uint64_t(1) << 28;  // tcpi's largest host tensor / dense logical view
constexpr uint64_t kMaxWork = uint64_t(1) << 34;   // multiply-adds of one contraction

HostType elementOf(num::DType d) { return HostType::of(num::isFloat(d) ? HostType::Float : HostType::Int); }

std::string axesText(const std::vector<std::string> &names) {
  std::string s = "{";
  for (size_t k = 0; k < names.size(); ++k) s += (k ? ", " : "") + names[k];
  return s + "}";
}

// The size of the logical (dense) view of a mapping: the product of its base axes' sizes.
uint64_t denseSize(const MappingRef &m, bool *overflow) {
  uint64_t n = 1;
  std::vector<std::string> seen;
  for (const AxisInfo &a : m->axes()) {
    if (std::find(seen.begin(), seen.end(), a.baseName()) != seen.end()) continue;
    seen.push_back(a.baseName());
    if (a.baseSize() && n > kMaxDense / a.baseSize()) *overflow = true;
    n *= std::max<uint64_t>(a.baseSize(), 1);
  }
  return n;
}

std::string indexText(const Index &ix) { return ix.str(); }
}  // namespace

std::optional<HostType> HostChecker::hintedTensor(const ast::Type *hint, HostType::Kind kind) {
  if (!hint) return std::nullopt;
  auto tt = types_.tensorTypeOf(*hint, false);
  if (!tt) return std::nullopt;
  if (kind == HostType::HostTensor && tt->tier == Tier::Host) return HostType::hostTensor(tt->dtype, tt->element);
  if (kind == HostType::HbmTensor && tt->tier == Tier::Hbm) return HostType::hbmTensor(tt->dtype, tt->chip, tt->element);
  return std::nullopt;
}

std::optional<HostType> HostChecker::hostTensorGenerics(const ast::PathSegment &seg, llvm::SMRange range, bool *given) {
  std::vector<const ast::GenericArg *> gs;
  for (const auto &g : seg.generics)
    if (g.kind != ast::GenericArg::Lifetime) gs.push_back(&g);
  *given = !gs.empty();
  if (gs.empty()) return std::nullopt;
  if (gs.size() != 2 || !gs[0]->type || !gs[1]->type) {
    error(range, "`" + seg.name + "::<D, M>` takes an element type and a mapping");
    return std::nullopt;
  }
  const ast::Type &d = *gs[0]->type;
  std::optional<num::DType> dt;
  if (d.kind == ast::Type::PathT && d.path.segments.size() == 1) dt = num::parseDType(d.path.segments[0].name);
  if (!dt) {
    error(gs[0]->range, "expected an element type (i4, i8, i16, i32, f8e4m3, f8e5m2, bf16, f16, f32)");
    return std::nullopt;
  }
  const ast::Type &mt = *gs[1]->type;
  MappingRef m;
  if (mt.kind == ast::Type::PathT && !mt.path.qualifiedSelf && mt.path.segments.size() == 1 &&
      mt.path.segments[0].generics.empty() && syms_.aliases.count(mt.path.segments[0].name)) {
    bool reported = false;
    m = mappingPrefix(mt.path, 1, mt.range, &reported);
    if (!m) return std::nullopt;
  } else {
    m = resolver_.mappingOfType(mt);
    if (!m) {
      error(gs[1]->range, "expected a mapping `m![...]` or a mapping alias here");
      return std::nullopt;
    }
  }
  return HostType::hostTensor(*dt, m);
}

namespace {
// A value stored as an element of type d (a closure's result, a vec! element).
std::string elementProblem(const HostType &v, num::DType d) {
  if (!v.known() || v.kind == HostType::Never || v.kind == HostType::Int) return "";
  if (v.kind == HostType::Float) return num::isFloat(d) ? "" : std::string("a float cannot be an element of an ") + num::dtypeName(d) + " tensor (convert it with `as i32`)";
  return std::string("an ") + num::dtypeName(d) + " element must be a number, found " + v.str();
}

// The element expressions of a `vec![a, b, ...]` or `[a, b, ...]` argument (empty for other forms).
std::vector<const ast::Expr *> literalElements(const ast::Expr &arg) {
  const ast::Expr &e = stripAwait(arg.kind == ast::Expr::Unary && !arg.operands.empty() ? *arg.operands[0] : arg);
  std::vector<const ast::Expr *> out;
  if (e.kind == ast::Expr::Array)
    for (const auto &o : e.operands) out.push_back(o.get());
  if (e.kind == ast::Expr::Macro && e.macro->name == "vec" && e.macro->argsParsed)
    for (size_t k = 0; k < e.macro->args.size() && (!e.macro->repeat || k == 0); ++k) out.push_back(e.macro->args[k].get());
  return out;
}
}  // namespace

void HostChecker::checkElements(const ast::Expr &arg, const HostType &v, num::DType d) {
  std::string bad = v.kind == HostType::Vec && !v.elems.empty() ? elementProblem(v.elems[0], d) : "";
  if (!bad.empty()) {
    error(arg.range, bad);
    return;
  }
  // Mixed element types join to an unknown element: look at each element of a literal.
  for (const ast::Expr *x : literalElements(arg)) {
    std::string why = elementProblem(expr(*x), d);
    if (!why.empty()) {
      error(x->range, why);
      return;
    }
  }
}

HostType HostChecker::hostTensorCtor(const ast::Expr &e, const std::string &fn, const ast::Path &p, const ast::Type *hint) {
  const HostApiEntry &api = *findHostApi(HostApiEntry::AssocFn, "HostTensor", fn);
  std::optional<HostType> ty;
  bool given = false, malformed = false;
  for (const auto &seg : p.segments)
    if (seg.name == "HostTensor" && !seg.generics.empty()) {
      ty = hostTensorGenerics(seg, e.range, &given);
      malformed = given && !ty;
    }
  if (!ty && !given) ty = hintedTensor(hint, HostType::HostTensor);
  std::vector<HostType> args = argTypes(e, 1);
  if (!ty) {
    if (!malformed)
      error(e.range, "cannot infer the tensor type of `HostTensor::" + fn + "`: write `HostTensor::<i32, m![A]>::" + fn +
                         "(...)` or annotate the `let` with `HostTensor<D, M>`");
    return HostType::of(HostType::HostTensor);
  }
  if (!arity(api, args.size(), e.range)) return *ty;
  const MappingRef &m = ty->element;
  if (m->size() > kMaxDense) error(e.range, "host tensor " + m->str() + " has more than 2^28 elements");
  std::string tyText = ty->str();
  if (fn == "rand") {
    if (args[0].known() && args[0].kind != HostType::Rng && args[0].kind != HostType::Never)
      error(e.operands[1]->range, "expected `&mut rng` (a SmallRng), found " + args[0].str());
  } else if (fn == "from_vec") {
    const HostType &v = args[0];
    if (v.known() && v.kind != HostType::Vec && v.kind != HostType::Never) {
      error(e.operands[1]->range, "expected a vec![...], found " + v.str());
    } else if (v.kind == HostType::Vec) {
      if (v.length && *v.length != m->size())
        error(e.operands[1]->range, "`" + tyText + "` has " + std::to_string(m->size()) + " positions but the vector has " +
                                        std::to_string(*v.length) + " values");
      checkElements(*e.operands[1], v, ty->dtype);
    }
  } else if (fn == "from_fn") {
    if (args[0].kind == HostType::Closure) {
      HostType r = callClosure(args[0], {HostType::of(HostType::Index)}, e.operands[1]->range);
      std::string bad = elementProblem(r, ty->dtype);
      if (!bad.empty()) error(e.operands[1]->range, "the closure's result: " + bad);
    } else if (args[0].known() && args[0].kind != HostType::Never) {
      error(e.operands[1]->range, "expected a closure `|ix| ...`, found " + args[0].str());
    }
  } else if (fn == "load_npy") {
    if (args[0].known() && args[0].kind != HostType::Str && args[0].kind != HostType::Never)
      error(e.operands[1]->range, "`load_npy` takes a path string, found " + args[0].str());
  }
  return *ty;
}

HostType HostChecker::lookupTableCtor(const ast::Expr &e, const std::string &fn, const ast::Path &p, const ast::Type *hint) {
  const HostApiEntry &api = *findHostApi(HostApiEntry::AssocFn, "LookupTable", fn);
  std::optional<LookupTableType> ty;
  bool failed = false;
  std::string err;
  for (const auto &seg : p.segments)
    if (seg.name == "LookupTable" && !seg.generics.empty()) {
      ty = lookupTableTypeOfGenerics(seg, &err);
      if (!ty) {
        error(e.range, err);
        failed = true;
      }
    }
  if (!ty && !failed && hint) {
    ty = lookupTableTypeOf(*hint, &err);
    if (!ty && !err.empty()) {
      error(hint->range, err);
      failed = true;
    }
  }
  std::vector<HostType> args = argTypes(e, 1);
  HostType out = HostType::of(HostType::Table);
  if (!ty) {
    if (!failed)
      error(e.range, "cannot infer the table type of `LookupTable::" + fn + "`: write `LookupTable::<i8, i8>::" + fn +
                         "(...)` or annotate the `let` with `LookupTable<In, Out>`");
    return out;
  }
  out.table = *ty;
  out.tableKnown = true;
  if (!arity(api, args.size(), e.range)) return out;
  uint64_t n = tableEntries(ty->in);
  if (fn == "from_fn") {
    if (args[0].kind == HostType::Closure) {
      HostType r = callClosure(args[0], {elementOf(ty->in)}, e.operands[1]->range);
      std::string bad = elementProblem(r, ty->out);
      if (!bad.empty()) error(e.operands[1]->range, "the closure's result: " + bad);
    } else if (args[0].known() && args[0].kind != HostType::Never) {
      error(e.operands[1]->range, "expected a closure `|x| ...`, found " + args[0].str());
    }
  } else {  // from_vec
    const HostType &v = args[0];
    if (v.known() && v.kind != HostType::Vec && v.kind != HostType::Never) {
      error(e.operands[1]->range, "expected a vec![...], found " + v.str());
    } else if (v.kind == HostType::Vec) {
      if (v.length && *v.length != n) {
        std::string order = num::isInteger(ty->in)
                                ? "in bit-pattern order: 0.." + std::to_string(n / 2 - 1) + " then -" + std::to_string(n / 2) + "..-1"
                                : std::string("in bit-pattern order of ") + num::dtypeName(ty->in);
        error(e.operands[1]->range, "a " + ty->str() + " has " + std::to_string(n) + " entries, one per " +
                                        num::dtypeName(ty->in) + " value " + order + "; the vector has " +
                                        std::to_string(*v.length) + " values");
      }
      checkElements(*e.operands[1], v, ty->out);
    }
  }
  return out;
}

void HostChecker::expectPdma(const ast::Expr &arg, const HostType &t, const std::string &call) {
  if (t.kind == HostType::Dma && t.name == "tdma") {
    error(arg.range, "host transfers use the PCIe DMA `ctx.pdma`, not `ctx.tdma`");
    return;
  }
  if (!t.known() || t.kind == HostType::Never || t.kind == HostType::Dma || t.kind == HostType::Context) return;
  error(arg.range, "`" + call + "` takes `&mut ctx.pdma`, found " + t.str());
}

HostType HostChecker::hostTensorMethod(const ast::Expr &e, const std::string &method, const HostType &recv, const ast::Type *hint) {
  const HostApiEntry &api = *findHostApi(HostApiEntry::Method, "HostTensor", method);
  if (method == "to_hbm") return toHbm(e, recv, hint);
  std::vector<HostType> args = argTypes(e, 1);
  if (!arity(api, args.size(), e.range)) return HostType();
  bool known = recv.tensorKnown();
  HostType elem = known ? elementOf(recv.dtype) : HostType();
  if (method == "len") return HostType::of(HostType::Int);
  if (method == "into_vec" || method == "to_vec")
    return HostType::vec(elem, known ? std::optional<uint64_t>(recv.element->size()) : std::nullopt);
  if (method == "get") {
    if (args[0].known() && args[0].kind != HostType::Index && args[0].kind != HostType::Never)
      error(e.operands[1]->range, "`.get` takes a tensor index `i![...]`, found " + args[0].str());
    return elem;
  }
  if (method == "save_npy") {
    if (args[0].known() && args[0].kind != HostType::Str && args[0].kind != HostType::Never)
      error(e.operands[1]->range, "`.save_npy` takes a path string, found " + args[0].str());
    return HostType::of(HostType::Unit);
  }
  // map(|x| ...), zip_with(&other, |x, y| ...): same mapping; the element type may change through
  // the `let` annotation.
  bool zip = method == "zip_with";
  HostType other;
  if (zip) {
    other = args[0];
    if (other.known() && other.kind != HostType::HostTensor && other.kind != HostType::Never)
      error(e.operands[1]->range, "the first argument of `.zip_with` must be a HostTensor, found " + other.str());
    else if (known && other.tensorKnown() && other.element->str() != recv.element->str())
      error(e.operands[1]->range, "`.zip_with` needs tensors of the same mapping: " + recv.str() + " and " + other.str());
  }
  HostType out = recv;
  if (auto h = hintedTensor(hint, HostType::HostTensor)) {
    if (known && h->element->str() != recv.element->str())
      error(e.range, "`." + method + "` keeps the mapping " + recv.element->str() + ", the annotation has " + h->element->str());
    out.dtype = h->dtype;
    out.element = h->element;  // (after an error, one message is enough)
  }
  const HostType &f = args.back();
  if (f.kind == HostType::Closure) {
    std::vector<HostType> xs{elem};
    if (zip) xs.push_back(other.tensorKnown() ? elementOf(other.dtype) : HostType());
    HostType r = callClosure(f, xs, e.operands.back()->range);
    if (out.tensorKnown()) {
      std::string bad = elementProblem(r, out.dtype);
      if (!bad.empty()) error(e.operands.back()->range, "the closure's result: " + bad);
    }
  } else if (f.known() && f.kind != HostType::Never) {
    error(e.operands.back()->range, "`." + method + "` takes a closure, found " + f.str());
  }
  return out;
}

// An address written as integer arithmetic (`3`, `1 << 20`, `48 * (1 << 30)`): its value, or nothing
// when it depends on anything else (a variable, a call) or overflows. Reports nothing.
std::optional<uint64_t> literalAddress(const ast::Expr &e) {
  using K = ast::Expr::Kind;
  if (e.kind == K::IntLit) return e.intOverflow ? std::nullopt : std::optional<uint64_t>(e.intValue);
  if (e.kind == K::Paren) return literalAddress(*e.operands[0]);
  if (e.kind != K::Binary) return std::nullopt;
  auto l = literalAddress(*e.operands[0]), r = literalAddress(*e.operands[1]);
  if (!l || !r) return std::nullopt;
  uint64_t out = 0;
  if (e.text == "+") return __builtin_add_overflow(*l, *r, &out) ? std::nullopt : std::optional<uint64_t>(out);
  if (e.text == "*") return __builtin_mul_overflow(*l, *r, &out) ? std::nullopt : std::optional<uint64_t>(out);
  if (e.text == "-") return *r > *l ? std::nullopt : std::optional<uint64_t>(*l - *r);
  if (e.text == "<<") return *r >= 64 || (*l >> (63 - *r)) > 1 ? std::nullopt : std::optional<uint64_t>(*l << *r);
  return std::nullopt;
}

HostType HostChecker::toHbm(const ast::Expr &e, const HostType &recv, const ast::Type *hint) {
  const HostApiEntry &api = *findHostApi(HostApiEntry::Method, "HostTensor", "to_hbm");
  std::vector<HostType> args = argTypes(e, 1);
  HostType out = HostType::of(HostType::HbmTensor);
  if (!arity(api, args.size(), e.range)) return out;
  expectPdma(*e.operands[1], args[0], ".to_hbm");
  const ast::Expr &addr = *e.operands[2];
  if ((args[1].known() && args[1].kind != HostType::Int && args[1].kind != HostType::Never) ||
      (addr.kind == ast::Expr::Unary && addr.text == "-"))
    error(addr.range, "the HBM address must be a non-negative integer");
  // `.to_hbm::<Chip, Element>(...)` names the layout as an annotation `HbmTensor<D, Chip, Element>` does.
  std::optional<HostType> given;
  const ast::PathSegment &seg = e.path.segments[0];
  if (!seg.generics.empty()) {
    if (seg.generics.size() != 2) {
      error(seg.range.isValid() ? seg.range : e.range, "`.to_hbm::<Chip, Element>` takes two mappings, found " +
                                                           std::to_string(seg.generics.size()));
      return out;
    }
    MappingRef chip = mappingArg(seg.generics[0]), elem = mappingArg(seg.generics[1]);
    if (!chip || !elem) return out;
    if (!recv.tensorKnown()) return out;
    given = HostType::hbmTensor(recv.dtype, chip, elem);  // an annotation that differs is the `let`'s error
  }
  if (auto h = given ? given : hintedTensor(hint, HostType::HbmTensor)) {
    out = *h;
    if (recv.tensorKnown()) {
      if (h->dtype != recv.dtype) {
        error(e.range, "`" + h->str() + "` cannot hold " + recv.str() + " (element types differ)");
      } else {
        if (h->chip->size() > chips_)
          error(e.range, h->str() + ": the Chip mapping needs " + std::to_string(h->chip->size()) +
                             " chips, the device has " + std::to_string(chips_) + " (the largest `#[device(chip = N)]`)");
        HostPlacement pl = placeHost(recv.element, h->chip, h->element);
        if (pl.missing)
          error(e.range, "host element " + indexText(*pl.missing) + " of " + recv.str() + " has no place in " + h->str());
      }
    }
  } else if (recv.tensorKnown()) {
    // Until a kernel says otherwise: chip 0, elements laid out as the host mapping.
    std::string err;
    MappingRef chip = chips_ == 1 ? Mapping::identity() : Mapping::pad(Mapping::identity(), chips_, &err);
    out = HostType::hbmTensor(recv.dtype, chip, recv.element);
  }
  if (recv.tensorKnown()) out.source = recv.element;
  if (recv.tensorKnown() && out.element) checkHbmAddress(addr, recv.dtype, out.element);
  return out;
}

// A constant address is checked here as a kernel's is ("Tensor Memory" > HBM): naturally aligned,
// and the tensor inside the chip's 48 GB.
void HostChecker::checkHbmAddress(const ast::Expr &addr, num::DType dtype, const MappingRef &element) {
  std::optional<uint64_t> at = literalAddress(addr);
  if (!at) return;
  uint64_t align = num::naturalAlignment(dtype);
  uint64_t bytes = num::storageBytes(dtype, element->size());
  if (*at % align)
    error(addr.range, "HBM address " + std::to_string(*at) + " is not a multiple of " + std::to_string(align) +
                          " (the size of " + num::dtypeName(dtype) + "); the Element dimension must be naturally aligned");
  else if (*at > kHbmBytesPerChip || bytes > kHbmBytesPerChip - *at)
    error(addr.range, "the HBM tensor at address " + std::to_string(*at) + " with " + std::to_string(bytes) +
                          " bytes ends past the 50331648 KB (48 GB) of HBM per chip");
}

// `HbmTensor::<D, Chip, Element>::from_addr(address)` (the manual's `unsafe` constructor, "Mapping
// Tensors"): a handle on the HBM bytes at `address`, nothing written. Its type comes from the
// turbofish or the `let` annotation; having no host source, a launch needs its exact layout.
HostType HostChecker::hbmFromAddr(const ast::Expr &e, const ast::Path &p, const ast::Type *hint) {
  const HostApiEntry &api = *findHostApi(HostApiEntry::AssocFn, "HbmTensor", "from_addr");
  std::optional<HostType> ty;
  bool given = false;
  for (const auto &seg : p.segments)
    if (seg.name == "HbmTensor" && !seg.generics.empty()) {
      given = true;
      if (auto tt = types_.tensorTypeOfSegment(seg, seg.range.isValid() ? seg.range : e.range, true))
        ty = HostType::hbmTensor(tt->dtype, tt->chip, tt->element);
    }
  if (!given) ty = hintedTensor(hint, HostType::HbmTensor);
  std::vector<HostType> args = argTypes(e, 1);
  if (!ty) {
    if (!given)
      error(e.range, "cannot infer the tensor type of `HbmTensor::from_addr`: write `HbmTensor::<bf16, m![1], m![A]>::"
                     "from_addr(address)` or annotate the `let` with `HbmTensor<D, Chip, Element>`");
    return HostType::of(HostType::HbmTensor);
  }
  if (!arity(api, args.size(), e.range)) return *ty;
  const ast::Expr &addr = *e.operands[1];
  if ((args[0].known() && args[0].kind != HostType::Int && args[0].kind != HostType::Never) ||
      (addr.kind == ast::Expr::Unary && addr.text == "-"))
    error(addr.range, "the HBM address must be a non-negative integer");
  if (ty->chip->size() > chips_)
    error(e.range, ty->str() + ": the Chip mapping needs " + std::to_string(ty->chip->size()) + " chips, the device has " +
                       std::to_string(chips_) + " (the largest `#[device(chip = N)]`)");
  checkHbmAddress(addr, ty->dtype, ty->element);
  return *ty;
}

MappingRef HostChecker::mappingArg(const ast::GenericArg &g) {
  if (!g.type) {
    error(g.range, "expected a mapping `m![...]` here");
    return nullptr;
  }
  const ast::Type &mt = *g.type;
  bool reported = false;
  MappingRef m;
  if (mt.kind == ast::Type::PathT && !mt.path.qualifiedSelf && mt.path.segments.size() == 1 &&
      mt.path.segments[0].generics.empty() && syms_.aliases.count(mt.path.segments[0].name))
    m = mappingPrefix(mt.path, 1, mt.range, &reported);
  else
    m = resolver_.mappingOfType(mt);
  if (!m && !reported) error(g.range, "expected a mapping `m![...]` here");
  return m;
}

HostType HostChecker::toHost(const ast::Expr &e, const HostType &recv, const ast::Type *hint) {
  const HostApiEntry &api = *findHostApi(HostApiEntry::Method, "HbmTensor", "to_host");
  std::vector<HostType> args = argTypes(e, 1);
  HostType out = HostType::of(HostType::HostTensor);
  if (!arity(api, args.size(), e.range)) return out;
  expectPdma(*e.operands[1], args[0], ".to_host");
  MappingRef m = recv.element;
  const ast::PathSegment &seg = e.path.segments[0];
  if (!seg.generics.empty()) {
    if (seg.generics.size() != 1 || !seg.generics[0].type) {
      error(e.range, "`.to_host::<M>` takes one mapping");
      return out;
    }
    m = mappingArg(seg.generics[0]);
    if (!m) return out;
  } else if (auto h = hintedTensor(hint, HostType::HostTensor)) {
    if (recv.tensorKnown() && h->dtype != recv.dtype)
      error(e.range, std::string("`to_host` keeps the element type ") + num::dtypeName(recv.dtype) + ", the annotation has " +
                         num::dtypeName(h->dtype));
    m = h->element;
  }
  if (!recv.tensorKnown()) {
    if (m && !seg.generics.empty()) out.element = nullptr;
    return out;
  }
  out = HostType::hostTensor(recv.dtype, m);
  // The host layout may read a part of the tensor, but only elements the HBM tensor holds.
  std::vector<std::string> have = baseAxisNames(recv.element);
  for (const std::string &a : baseAxisNames(recv.chip)) have.push_back(a);
  for (const std::string &a : baseAxisNames(m))
    if (std::find(have.begin(), have.end(), a) == have.end()) {
      error(e.range, "`" + m->str() + "` is not a layout of " + recv.str() + ": it has no axis `" + a + "`");
      return out;
    }
  HostPlacement pl = placeHost(m, recv.chip, recv.element);
  if (pl.missing)
    error(e.range, "`" + m->str() + "` reads " + indexText(*pl.missing) + ", which is not an element of " + recv.str() +
                       " (every element of the host layout must have a place in the HBM tensor)");
  return out;
}

HostType HostChecker::contraction(const ast::Expr &e, const ast::PathSegment &seg, const ast::Type *hint) {
  std::optional<HostType> ty;
  bool given = false;
  if (!seg.generics.empty()) ty = hostTensorGenerics(seg, e.range, &given);
  else ty = hintedTensor(hint, HostType::HostTensor);
  std::vector<HostType> args = argTypes(e, 1);
  if (!ty && !given)
    error(e.range, "cannot infer the output type of `contraction`: write `contraction::<D, m![...]>(&a, &b)` or annotate "
                   "the `let` with `HostTensor<D, M>`");
  if (args.size() != 2) {
    error(e.range, "`contraction::<D, M>(&a, &b)` takes two host tensors, found " + countText(args.size(), "argument"));
    return ty ? *ty : HostType::of(HostType::HostTensor);
  }
  const char *which[] = {"first", "second"};
  bool known = ty.has_value();
  for (size_t k = 0; k < 2; ++k) {
    if (args[k].known() && args[k].kind != HostType::HostTensor && args[k].kind != HostType::Never) {
      error(e.operands[k + 1]->range, std::string("the ") + which[k] + " operand of `contraction` must be a HostTensor, found " +
                                          args[k].str());
      known = false;
    }
    known = known && args[k].tensorKnown();
  }
  if (!known) return ty ? *ty : HostType::of(HostType::HostTensor);
  // The answer key's limits: dense operands of at most 2^28 elements, at most 2^34 multiply-adds.
  std::vector<std::string> outAxes = baseAxisNames(ty->element);
  uint64_t sumSize = 1;
  bool over = false;
  std::vector<std::string> summed;
  for (size_t k = 0; k < 2; ++k) {
    bool big = false;
    denseSize(args[k].element, &big);
    if (big)
      error(e.operands[k + 1]->range, "the logical tensor " + axesText(baseAxisNames(args[k].element)) +
                                          " has more than 2^28 elements");
    for (const AxisInfo &a : args[k].element->axes())
      if (std::find(outAxes.begin(), outAxes.end(), a.baseName()) == outAxes.end() &&
          std::find(summed.begin(), summed.end(), a.baseName()) == summed.end()) {
        summed.push_back(a.baseName());
        if (a.baseSize() && sumSize > kMaxDense / a.baseSize()) over = true;
        sumSize *= std::max<uint64_t>(a.baseSize(), 1);
      }
  }
  if (over) error(e.range, "too many summed elements in the contraction (more than 2^28)");
  else if (sumSize && ty->element->size() > kMaxWork / sumSize) error(e.range, "the contraction needs more than 2^34 multiply-adds");
  // Every output axis comes from an operand.
  std::vector<std::string> in = baseAxisNames(args[0].element);
  for (const std::string &a : baseAxisNames(args[1].element)) in.push_back(a);
  for (const std::string &a : outAxes)
    if (std::find(in.begin(), in.end(), a) == in.end())
      error(e.range, "the output " + ty->element->str() + " of `contraction` has axis `" + a + "`, which neither operand has (" +
                         args[0].str() + ", " + args[1].str() + ")");
  return *ty;
}

void HostChecker::assertClose(const ast::Expr &e) {
  const auto &as = e.macro->args;
  if (as.size() != 2 && as.size() != 4) {
    for (const auto &a : as) expr(*a);
    error(e.range, "`assert_close!(left, right)` or `assert_close!(left, right, rtol, atol)`");
    return;
  }
  HostType l = expr(*as[0]), r = expr(*as[1]);
  const char *side[] = {"left", "right"};
  bool tensors = true;
  for (size_t k = 0; k < 2; ++k) {
    const HostType &t = k ? r : l;
    if (t.known() && t.kind != HostType::HostTensor && t.kind != HostType::Never) {
      error(as[k]->range, std::string("the ") + side[k] + " operand of `assert_close!` must be a HostTensor, found " + t.str());
      tensors = false;
    }
  }
  if (tensors) checkComparable(l, r, e.range, "`assert_close!`", /*sameDtype=*/false);
  for (size_t k = 2; k < as.size(); ++k) {
    HostType t = expr(*as[k]);
    if (t.known() && t.kind != HostType::Int && t.kind != HostType::Float && t.kind != HostType::Never)
      error(as[k]->range, "a tolerance must be a number, found " + t.str());
  }
}

}  // namespace tcp
