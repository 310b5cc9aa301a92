// TileLayout.cpp — the layout proof of a tile: positions of the tile mapping against the tensor's, one offset, the held count.
#include "TileLayout.h"

#include "MappingEval.h"
#include "MappingNormalForm.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace tcp {

namespace {
constexpr uint64_t kMaxTilePositions = uint64_t(1) << 22;  // positions the rule walks to prove the layout
}  // namespace

TileLayout tileLayout(const MappingRef &element, const MappingRef &dim, uint64_t size, const MappingRef &tile,
                      uint64_t start, const std::string &tensorText, const char *perWhat) {
  TileLayout out;
  auto fail = [&](std::string message) {
    out.error = std::move(message);
    return out;
  };
  uint64_t extent = dim->size();
  if (dim->axes().empty() || start > extent || size > extent - start)  // (no overflow for any start the host computes)
    return fail("`.tile()`: the tile " + std::to_string(start) + ".." +
                (size > UINT64_MAX - start ? std::string("(past 2^64)") : std::to_string(start + size)) + " of `" +
                 dim->body() + "` (" + std::to_string(extent) + " positions) " +
                 (dim->axes().empty() ? "names no axis" : "runs past its end") + " (\"Mapping Tensors\" > Resize)");
  // The index step of one position of Dim, e.g. `B / 32` steps B by 32.
  std::optional<Index> i0 = dim->map(0), i1 = extent > 1 ? dim->map(1) : std::nullopt;
  if (!i0)
    return fail("`.tile()`: `" + dim->body() + "` starts with padding; tile an axis term");
  auto shifted = [&](Index idx, uint64_t by) {  // idx + by * (i1 - i0)
    if (!i1) return idx;
    for (const auto &[axis, v] : i1->entries()) idx.add(axis, int64_t(by) * v);
    for (const auto &[axis, v] : i0->entries()) idx.add(axis, -int64_t(by) * v);
    return idx;
  };
  if (element->size() > kMaxTilePositions || tile->size() > kMaxTilePositions)
    return fail("`.tile()` of a tensor of more than 4M positions per " + std::string(perWhat) +
                 " is not supported yet");
  // The tile's positions against the tensor's.
  IndexPositions parent(element);
  std::optional<int64_t> offset;
  uint64_t held = 0, dataEnd = 0;  // dataEnd: one past the tile's last data position (its padding is not read)
  // Integer path: the tile's coordinates by digits (MappingEval), shifted and keyed without Index
  // objects; a position it cannot place takes the Index path below, which words the error.
  std::optional<MappingEval> tev = MappingEval::of(tile);
  std::vector<std::string> names;
  std::vector<int64_t> shift;  // per name: start * (i1 - i0)
  if (tev) {
    for (const AxisInfo &a : tev->axes()) names.push_back(a.name);
    Index zero;
    const Index moved = shifted(zero, start);
    for (const auto &[axis, v] : moved.entries())
      if (std::find(names.begin(), names.end(), axis) == names.end()) names.push_back(axis);
    for (const std::string &n : names) shift.push_back(moved.get(n));
  }
  std::optional<std::vector<std::pair<uint64_t, uint64_t>>> weights = tev ? parent.keyWeights(names) : std::nullopt;
  std::vector<int64_t> c(names.size(), 0);
  auto fastOffset = [&](uint64_t p, bool &element) -> std::optional<int64_t> {
    element = tev->coords(p, c.data());
    if (!element) return std::nullopt;
    uint64_t key = 0;
    for (size_t k = 0; k < names.size(); ++k) {
      const int64_t v = (k < tev->axes().size() ? c[k] : 0) + shift[k];
      if (v == 0) continue;
      if (v < 0 || uint64_t(v) >= (*weights)[k].first) return std::nullopt;
      key += uint64_t(v) * (*weights)[k].second;
    }
    std::optional<uint64_t> q = parent.findKey(key);
    if (!q) return std::nullopt;
    return int64_t(*q) - int64_t(p);
  };
  for (uint64_t p = 0; p < tile->size(); ++p) {
    if (weights) {
      bool element = false;
      std::optional<int64_t> d = fastOffset(p, element);
      if (!element) continue;
      if (d && (!offset || *offset == *d) && *d >= 0) {
        offset = *d;
        ++held;
        dataEnd = p + 1;
        continue;
      }
    }
    std::optional<Index> idx = tile->map(p);
    if (!idx) continue;
    ++held;
    dataEnd = p + 1;
    // The tile's Dim coordinate must stay within the tile: index of Dim < SIZE.
    std::optional<uint64_t> q = parent.find(shifted(*idx, start));
    if (!q)
      return fail("`.tile()`: the tile mapping `" + tile->body() + "` holds " + idx->str() + ", which tile " + std::to_string(start) +
                " of `" + dim->body() + "` does not reach in " + tensorText + " (\"Mapping Tensors\" > Resize)");
    int64_t d = int64_t(*q) - int64_t(p);
    if (!offset) offset = d;
    if (*offset != d || *offset < 0)
      return fail("`.tile()`: the tile mapping `" + tile->body() + "` places " + idx->str() + " at position " + std::to_string(p) +
                   " but the tensor's layout `" + element->body() + "` holds it " +
                   (offset && *offset >= 0 ? "at " + std::to_string(*q) + ", not at the tile's offset " + std::to_string(*offset) + " + " + std::to_string(p)
                                           : "before the tile's start") +
                   " (a tile keeps the tensor's layout: pad the resized term to its footprint, e.g. `B = 2 # 512`; \"Mapping Tensors\" > Resize)");
  }
  // The tile holds exactly the SIZE positions of Dim from start (of every other coordinate).
  const uint64_t total = parent.held();
  uint64_t want = total / extent * size;
  if (held != want && i0 && i1) {
    // Positions of Dim need not hold equal counts (`Live # 24 / 8` with Live = 21 holds 8, 8 and 5
    // rows): count the tensor's elements whose Dim position is in the tile, when Dim steps one axis.
    std::optional<std::pair<std::string, int64_t>> stepAxis;
    bool single = true;
    for (const auto &[axis, v] : i1->entries())
      if (int64_t d = v - i0->get(axis); d != 0) {
        single = single && !stepAxis && d > 0;
        stepAxis = {axis, d};
      }
    for (const auto &[axis, v] : i0->entries())
      if (i1->get(axis) != v && !stepAxis) single = false;
    if (single && stepAxis) {
      const auto &[axis, step] = *stepAxis;
      const int64_t base = i0->get(axis);
      uint64_t count = 0;
      for (uint64_t p = 0; p < element->size(); ++p)
        if (std::optional<Index> idx = element->map(p)) {
          int64_t a = idx->get(axis) - base;
          if (a < 0) continue;
          uint64_t q = uint64_t(a / step) % extent;
          count += q >= start && q < start + size;
        }
      want = count;
    }
  }
  if (held != want)
    return fail("`.tile()`: the tile mapping `" + tile->body() + "` holds " + std::to_string(held) + " elements; " +
                 std::to_string(size) + " of the " + std::to_string(extent) + " positions of `" + dim->body() + "` hold " +
                 std::to_string(want) + " (\"Mapping Tensors\" > Resize)");
  out.offset = uint64_t(offset.value_or(0));
  out.dataEnd = dataEnd;
  return out;
}

}  // namespace tcp
