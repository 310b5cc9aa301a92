// Device.cpp — the Device facade: PCIe DMA between host tensors and HBM, and kernel launch (ops in program order).
#include "DeviceImpl.h"
#include "DmaLowering.h"
#include "MappingEval.h"
#include "PhaseTimer.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace tcp::interp {

Device::Device(unsigned chips) : impl_(std::make_unique<DeviceImpl>(chips)) {
  if (chips == 0) throw DeviceError{"a device needs at least one chip"};
}
Device::~Device() = default;

unsigned Device::chips() const { return impl_->chips; }

const std::vector<HbmWrite> &Device::lastLaunchHbmWrites() const { return impl_->hbmWrites; }

uint64_t Device::bytesPerChip() { return sizeof(Hbm) + sizeof(std::unique_ptr<SliceMemory[]>); }

namespace {
// The chips a launch of `kernel` runs on: its `#[device(chip = N)]`, else (a bare `#[device]`) the device's.
unsigned launchChips(const TypedFunction &kernel, const DeviceImpl &d) { return kernel.chips ? kernel.chips : d.chips; }
}  // namespace

uint64_t Device::launchBytes(const TypedFunction &kernel) const {
  unsigned need = std::min(launchChips(kernel, *impl_), impl_->chips), have = impl_->slices.chipsReserved();
  return need > have ? uint64_t(need - have) * SliceMemories::kBytesPerChip : 0;
}

namespace {

// Keys of every HBM position (chip major, element minor) in `space`.
std::vector<int64_t> hbmKeys(const TensorType &t, const AxisSpace &space) {
  return combineKeys(keyTable(t.chip, space), keyTable(t.element, space), space);
}

void checkHbm(const DeviceImpl &d, const TensorType &t, uint64_t address) {
  if (t.tier != Tier::Hbm) throw DeviceError{"expected an HBM tensor type, got " + t.str()};
  if (t.chip->size() > d.chips)
    throw DeviceError{t.str() + ": the Chip mapping needs " + std::to_string(t.chip->size()) + " chips, the device has " +
                      std::to_string(d.chips)};
  checkRange(t.str(), "HBM", address, num::storageBytes(t.dtype, t.element->size()), kHbmBytes);
  // "Tensor Memory" > HBM: the starting address is a multiple of size_of::<D>() (the checker's rule
  // for addresses in kernels; a host places arguments at run time).
  uint64_t align = num::naturalAlignment(t.dtype);
  if (address % align)
    throw DeviceError{t.str() + " at HBM address " + std::to_string(address) + ": the address is not a multiple of " +
                      std::to_string(align) + " (the size of " + num::dtypeName(t.dtype) +
                      "); HBM tensors are naturally aligned"};
}

}  // namespace

namespace {

constexpr uint64_t kKeyChunk = uint64_t(1) << 16;  // positions keyed at a time

// The keys of m in `space`, position by position in chunks: fn(first position, keys, count). Without a
// MappingEval the whole table is built once.
template <class Fn>
void forEachKeyChunk(const MappingRef &m, const AxisSpace &space, Fn fn) {
  if (std::optional<MappingEval> ev = MappingEval::of(m)) {
    std::vector<int64_t> w = ev->weights([&](const std::string &axis) { return space.strideOf(axis); });
    std::vector<int64_t> keys(kKeyChunk);
    for (uint64_t i = 0; i < m->size(); i += kKeyChunk) {
      uint64_t n = std::min(kKeyChunk, m->size() - i);
      ev->linearRange(w, i, i + n, keys.data());
      fn(i, keys.data(), n);
    }
    return;
  }
  std::vector<int64_t> keys = keyTable(m, space);
  fn(uint64_t(0), keys.data(), uint64_t(keys.size()));
}

// True when position i of m holds key i for every i (a row-major tensor over the space): the key is
// then the position, and no key index is needed.
bool rowMajor(const MappingRef &m, const AxisSpace &space) {
  if (!MappingEval::of(m)) return false;
  bool ok = true;
  forEachKeyChunk(m, space, [&](uint64_t first, const int64_t *keys, uint64_t n) {
    for (uint64_t j = 0; j < n && ok; ++j) ok = keys[j] == int64_t(first + j);
  });
  return ok;
}

// The one chip of a single-chip tensor at key 0 (its Chip mapping adds nothing to the keys).
bool singleChipAtZero(const TensorType &t, const AxisSpace &space) {
  if (t.chip->size() != 1) return false;
  std::vector<int64_t> k = keyTable(t.chip, space);
  return k[0] == 0;
}

}  // namespace

void Device::checkHbmTensor(const TensorType &hbmType, uint64_t address) const { checkHbm(*impl_, hbmType, address); }

void Device::toHbm(const HostData &host, const TensorType &hbmType, uint64_t address) {
  PhaseTimer timer(Phase::ToHbm);
  checkHbm(*impl_, hbmType, address);
  if (host.dtype != hbmType.dtype)
    throw DeviceError{std::string("host tensor of ") + num::dtypeName(host.dtype) + " cannot be written as " + hbmType.str()};
  if (host.bits.size() != host.mapping->size())
    throw DeviceError{"host tensor holds " + std::to_string(host.bits.size()) + " values for a mapping of size " +
                      std::to_string(host.mapping->size())};
  AxisSpace space = AxisSpace::of({host.mapping, hbmType.chip, hbmType.element});
  // A key's host position: the key itself for a row-major host tensor, else found in a key index.
  const bool direct = rowMajor(host.mapping, space);
  std::vector<int64_t> hostKeys;
  std::optional<KeyIndex> hostIndex;
  if (!direct) {
    hostKeys = keyTable(host.mapping, space);
    hostIndex.emplace(hostKeys);
  }
  const int64_t hostSize = int64_t(host.bits.size());
  auto hostPos = [&](int64_t key) -> int64_t {
    if (key < 0) return -1;
    return direct ? (key < hostSize ? key : -1) : hostIndex->find(key);
  };
  std::vector<int64_t> chipKeys = keyTable(hbmType.chip, space);
  std::vector<bool> placed(host.bits.size(), false);
  uint64_t E = hbmType.element->size(), bytes = num::storageBytes(hbmType.dtype, E);
  // Each chip's tensor bytes are assembled in one buffer (positions no host element fills keep
  // what HBM holds) and written back in page-sized bursts.
  std::vector<uint8_t> buf(bytes);
  ElemCodec codec(hbmType.dtype);
  for (size_t c = 0; c < chipKeys.size(); ++c) {
    if (chipKeys[c] < 0) continue;
    bool any = false;
    impl_->hbm[c].read(address, buf.data(), bytes);
    forEachKeyChunk(hbmType.element, space, [&](uint64_t first, const int64_t *keys, uint64_t n) {
      for (uint64_t j = 0; j < n; ++j) {
        int64_t h = hostPos(chipKeys[c] == 0 ? keys[j] : space.add(chipKeys[c], keys[j]));
        if (h < 0) continue;
        codec.store(buf.data(), first + j, host.bits[size_t(h)]);
        placed[size_t(h)] = any = true;
      }
    });
    if (!any) continue;
    impl_->unaliasHbm(unsigned(c), address, address + bytes);  // (DM ranges read in place from these bytes)
    impl_->hbm[c].write(address, buf.data(), bytes);
  }
  for (size_t h = 0; h < placed.size(); ++h)
    if (!placed[h] && (direct || hostKeys[h] >= 0)) {
      auto idx = host.mapping->map(h);
      throw DeviceError{"host element " + (idx ? idx->str() : std::string("?")) + " has no place in " + hbmType.str()};
    }
}

HostData Device::toHost(const TensorType &hbmType, uint64_t address, const MappingRef &hostMapping) {
  PhaseTimer timer(Phase::ToHost);
  checkHbm(*impl_, hbmType, address);
  AxisSpace space = AxisSpace::of({hostMapping, hbmType.chip, hbmType.element});
  uint64_t E = hbmType.element->size(), bytes = num::storageBytes(hbmType.dtype, E);
  // A key's HBM position: the key itself for one chip holding a row-major tensor, else a key index.
  const bool direct = singleChipAtZero(hbmType, space) && rowMajor(hbmType.element, space);
  std::optional<KeyIndex> hbmIndex;
  if (!direct) hbmIndex.emplace(hbmKeys(hbmType, space));
  HostData out;
  out.dtype = hbmType.dtype;
  out.mapping = hostMapping;
  out.bits.assign(hostMapping->size(), 0);
  std::vector<std::vector<uint8_t>> chipBytes(hbmType.chip->size());  // each chip's tensor, read on first use
  ElemCodec codec(hbmType.dtype);
  forEachKeyChunk(hostMapping, space, [&](uint64_t first, const int64_t *keys, uint64_t n) {
    for (uint64_t j = 0; j < n; ++j) {
      int64_t i = keys[j] < 0 ? -1 : direct ? (uint64_t(keys[j]) < E ? keys[j] : -1) : hbmIndex->find(keys[j]);
      if (i < 0) continue;
      std::vector<uint8_t> &b = chipBytes[size_t(i) / E];
      if (b.empty()) {
        b.resize(bytes);
        impl_->hbm[size_t(i) / E].read(address, b.data(), bytes);
      }
      out.bits[first + j] = codec.load(b.data(), uint64_t(i) % E);
    }
  });
  return out;
}

void Device::setReplayDma(bool on) { impl_->replayDma = on; }

std::optional<uint64_t> Device::launch(const TypedFunction &kernel, const FunctionConfig &,
                                       const std::vector<uint64_t> &args, const std::vector<LookupTableData> &tables,
                                       std::vector<uint64_t> *tuple) {
  PhaseTimer timer(Phase::Launch);
  impl_->hbmWrites.clear();
  if (args.size() != kernel.params.size())
    throw DeviceError{"kernel `" + kernel.name + "` takes " + std::to_string(kernel.params.size()) + " tensors, got " +
                      std::to_string(args.size())};
  checkLaunchTables(kernel, tables);
  struct Loaded {  // the tables stay loaded for this launch only
    DeviceImpl &d;
    ~Loaded() { d.tables = nullptr; }
  } loaded{*impl_};
  impl_->tables = &tables;
  if (kernel.chips > impl_->chips)
    throw DeviceError{"kernel `" + kernel.name + "` needs " + std::to_string(kernel.chips) + " chips, the device has " +
                      std::to_string(impl_->chips)};
  for (size_t i = 0; i < args.size(); ++i) checkHbm(*impl_, kernel.params[i].second, args[i]);
  checkParameterOverwrites(kernel, args);
  impl_->slices.reserveChips(launchChips(kernel, *impl_));  // every slice id a launch forms is below
  // The DM bytes per slice the kernel's placed tensors span, reserved at once (growing the DMs part way
  // through would copy what the earlier ops wrote); each op reserves its own range again.
  uint64_t dmBytes = 0;
  auto spans = [&](const TensorType &t, std::optional<uint64_t> address) {
    if (t.tier != Tier::Dm || !address) return;
    const uint64_t end = *address + t.elementBytes();
    if (end >= *address && end <= kDmBytes) dmBytes = std::max(dmBytes, end);  // (past DM: the op reports it)
  };
  for (const TypedTensor &t : kernel.tensors) spans(t.type, t.address);
  for (const TypedOp &op : kernel.ops) spans(op.out, op.address);
  impl_->slices.reserveDm(dmBytes);

  Placements placed;
  // Tile views name bytes of tensors at fixed addresses: known before anything runs.
  for (size_t k = 0; k < kernel.tensors.size(); ++k)
    if (kernel.tensors[k].aliasOf >= 0 && kernel.tensors[k].address) placed.byId[int(k)] = *kernel.tensors[k].address;
  std::optional<uint64_t> lastResult;
  const auto &ops = kernel.ops;
  for (size_t i = 0; i < ops.size();) {
    const TypedOp &op = ops[i];
    auto isDma = [](const TypedOp &o) { return isDmaOp(o); };
    if (!isDma(op)) {
      std::vector<const TypedOp *> chain;
      size_t j = i;
      for (; j < ops.size() && !isDma(ops[j]) && ops[j].chain == op.chain && (j == i || ops[j].name != "begin"); ++j)
        chain.push_back(&ops[j]);
      PhaseTimer chainTimer(Phase::KernelChains);
      impl_->runChain(chain, placed);
      i = j;
      continue;
    }
    PhaseTimer dmaTimer(Phase::KernelDma);
    // The address of the tensor a DMA reads: a kernel parameter (its argument) or one placed earlier.
    auto sourceAddress = [&]() -> std::optional<uint64_t> {
      if (op.source >= 0 && op.source < static_cast<int>(kernel.tensors.size()) && kernel.tensors[op.source].param >= 0)
        return args[kernel.tensors[op.source].param];
      return placed.find(op.source, op.in.tier == Tier::Dm ? placed.dm : placed.hbm, op.in);
    };
    // `.dma()` and (by default) `to_dm` / `to_hbm` replay the derived sequencers; a plan whose steps
    // are sub-byte elements (an i4 transfer the compiler accepts for to_dm / to_hbm) moves by index.
    std::optional<DmaPlan> plan;
    if (op.name == "dma" || impl_->replayDma) {
      std::optional<uint64_t> src = sourceAddress();
      if (!src || !op.address) throw DeviceError{"line " + std::to_string(op.line) + ": cannot locate the tensors of the DMA"};
      plan = dmaPlanOf(kernel, op, *src);
      // The checker derived this DMA with the parameter at address 0; its argument's address may break
      // the DMA Engine's alignment ("DMA Engine" > Alignment Constraints), which no replay may skip.
      for (const std::string &d : plan->diagnostics)
        if (d.find("Alignment Constraints") != std::string::npos)
          throw DeviceError{"line " + std::to_string(op.line) + ": `" + op.name + "` reads its HBM tensor at address " +
                            std::to_string(*src) + ": " + d};
      if (op.name != "dma" && (!plan->ok() || !plan->byteExact)) plan.reset();
    }
    if (plan) {
      bool toHbm = op.out.tier == Tier::Hbm;
      if (toHbm) impl_->hbmWrites.push_back({op.out, *op.address, op.line, op.name});  // before: a failure part way counts
      impl_->dmaReplay(*plan, op.in, op.out);
      placed.add(toHbm ? placed.hbm : placed.dm, op.result, op.out, *op.address);
    } else if (op.name == "to_dm") {
      // The HBM tensor it reads: a kernel parameter (bound to its argument) or one placed earlier.
      std::optional<uint64_t> src;
      if (op.source >= 0 && op.source < static_cast<int>(kernel.tensors.size()) && kernel.tensors[op.source].param >= 0)
        src = args[kernel.tensors[op.source].param];
      else
        src = placed.find(op.source, placed.hbm, op.in);
      if (!src || !op.address) throw DeviceError{"line " + std::to_string(op.line) + ": cannot locate the HBM tensor of to_dm"};
      impl_->dmaToDm(op.in, *src, op.out, *op.address);
      placed.add(placed.dm, op.result, op.out, *op.address);
    } else if (op.name == "to_hbm") {
      std::optional<uint64_t> src = placed.find(op.source, placed.dm, op.in);
      if (!src || !op.address) throw DeviceError{"line " + std::to_string(op.line) + ": cannot locate the DM tensor of to_hbm"};
      impl_->hbmWrites.push_back({op.out, *op.address, op.line, op.name});
      impl_->dmaToHbm(op.in, *src, op.out, *op.address);
      placed.add(placed.hbm, op.result, op.out, *op.address);
    } else {
      throw DeviceError{"line " + std::to_string(op.line) + ": `" + op.name + "` is not supported by the CPU model"};
    }
    ++i;
  }
  uint64_t held = 0;  // what the device's memories hold now (tcpi --time)
  for (const Hbm &h : impl_->hbm) held += h.residentBytes();
  for (size_t i = 0; i < impl_->slices.size(); ++i) {
    const SliceMemory &m = impl_->slices[i];
    held += residentBytes(m.trf) + residentBytes(m.vrf);
  }
  held += impl_->slices.dmResidentBytes();
  uint64_t shared = 0;  // what the slices that read a broadcast range held once would hold besides
  for (const DmAlias &a : impl_->dmAliases)
    for (uint32_t s = 0; s < a.owner.size(); ++s) shared += a.owner[s] != s || a.inHbm(s) ? (a.hi - a.lo) * a.chips.size() : 0;
  for (const TrfAlias &a : impl_->trfAliases)
    for (size_t s = 0; s < a.owner.size(); ++s) shared += a.owner[s] != s ? (a.region.hi - a.region.lo) * a.region.rows : 0;
  noteDeviceBytes(held, shared);
  // The result: the tensor the body returns (by identity, not by type: a kernel may write several HBM
  // tensors of the result's type, and spell the result type differently from its value's).
  if (kernel.result) {
    const int id = kernel.resultTensor;
    if (id >= 0 && size_t(id) < kernel.tensors.size() && kernel.tensors[id].param >= 0 &&
        size_t(kernel.tensors[id].param) < args.size())
      lastResult = args[kernel.tensors[id].param];
    else if (auto it = placed.byId.find(id); id >= 0 && it != placed.byId.end())
      lastResult = it->second;
    if (!lastResult) throw DeviceError{"kernel `" + kernel.name + "` returned no HBM tensor"};
  }
  // A tuple result: the HBM tensors the body's tuple names, where their DMAs placed them.
  for (size_t k = 0; k < kernel.tupleTensors.size(); ++k) {
    int id = kernel.tupleTensors[k];
    auto it = placed.byId.find(id);
    if (it == placed.byId.end())
      throw DeviceError{"kernel `" + kernel.name + "`: member " + std::to_string(k) + " of its tuple result was not written to HBM"};
    if (tuple) tuple->push_back(it->second);
  }
  return kernel.result ? lastResult : std::nullopt;
}

}  // namespace tcp::interp
