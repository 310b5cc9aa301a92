// Device.cpp — the Device facade: PCIe DMA between host tensors and HBM, and kernel launch (ops in program order).
#include "DeviceImpl.h"
#include "DmaLowering.h"

#include <cctype>
#include <map>

namespace tcp::interp {

Device::Device(unsigned chips) : impl_(std::make_unique<DeviceImpl>(chips)) {
  if (chips == 0) throw DeviceError{"a device needs at least one chip"};
}
Device::~Device() = default;

unsigned Device::chips() const { return impl_->chips; }

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
}

}  // namespace

void Device::toHbm(const HostData &host, const TensorType &hbmType, uint64_t address) {
  checkHbm(*impl_, hbmType, address);
  if (host.dtype != hbmType.dtype)
    throw DeviceError{std::string("host tensor of ") + num::dtypeName(host.dtype) + " cannot be written as " + hbmType.str()};
  if (host.bits.size() != host.mapping->size())
    throw DeviceError{"host tensor holds " + std::to_string(host.bits.size()) + " values for a mapping of size " +
                      std::to_string(host.mapping->size())};
  AxisSpace space = AxisSpace::of({host.mapping, hbmType.chip, hbmType.element});
  std::vector<int64_t> hostKeys = keyTable(host.mapping, space);
  KeyIndex hostIndex(hostKeys);
  std::vector<int64_t> keys = hbmKeys(hbmType, space);
  std::vector<bool> placed(hostKeys.size(), false);
  uint64_t E = hbmType.element->size();
  for (size_t i = 0; i < keys.size(); ++i) {
    int64_t h = hostIndex.find(keys[i]);
    if (h < 0) continue;
    impl_->hbm[i / E].store(address, hbmType.dtype, i % E, host.bits[h]);
    placed[h] = true;
  }
  for (size_t h = 0; h < hostKeys.size(); ++h)
    if (hostKeys[h] >= 0 && !placed[h]) {
      auto idx = host.mapping->map(h);
      throw DeviceError{"host element " + (idx ? idx->str() : std::string("?")) + " has no place in " + hbmType.str()};
    }
}

HostData Device::toHost(const TensorType &hbmType, uint64_t address, const MappingRef &hostMapping) {
  checkHbm(*impl_, hbmType, address);
  AxisSpace space = AxisSpace::of({hostMapping, hbmType.chip, hbmType.element});
  KeyIndex hbmIndex(hbmKeys(hbmType, space));
  std::vector<int64_t> hostKeys = keyTable(hostMapping, space);
  HostData out;
  out.dtype = hbmType.dtype;
  out.mapping = hostMapping;
  out.bits.assign(hostKeys.size(), 0);
  uint64_t E = hbmType.element->size();
  for (size_t h = 0; h < hostKeys.size(); ++h) {
    int64_t i = hbmIndex.find(hostKeys[h]);
    if (i >= 0) out.bits[h] = impl_->hbm[i / E].load(address, hbmType.dtype, i % E);
  }
  return out;
}

void Device::setReplayDma(bool on) { impl_->replayDma = on; }

std::optional<uint64_t> Device::launch(const TypedFunction &kernel, const FunctionConfig &,
                                       const std::vector<uint64_t> &args, const std::vector<LookupTableData> &tables,
                                       std::vector<uint64_t> *tuple) {
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
      impl_->runChain(chain, placed);
      i = j;
      continue;
    }
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
      if (op.name != "dma" && (!plan->ok() || !plan->byteExact)) plan.reset();
    }
    if (plan) {
      impl_->dmaReplay(*plan, op.in, op.out);
      bool toHbm = op.out.tier == Tier::Hbm;
      placed.add(toHbm ? placed.hbm : placed.dm, op.result, op.out, *op.address);
      if (toHbm && kernel.result && op.out.str() == kernel.result->str()) lastResult = *op.address;
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
      impl_->dmaToHbm(op.in, *src, op.out, *op.address);
      placed.add(placed.hbm, op.result, op.out, *op.address);
      if (kernel.result && op.out.str() == kernel.result->str()) lastResult = *op.address;
    } else {
      throw DeviceError{"line " + std::to_string(op.line) + ": `" + op.name + "` is not supported by the CPU model"};
    }
    ++i;
  }
  if (kernel.result && !lastResult) throw DeviceError{"kernel `" + kernel.name + "` returned no HBM tensor"};
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
