// TileLayout.h — the layout proof of a tile `tile::<Dim, SIZE, Tile>(start)` ("Mapping Tensors" > Resize), shared by kernels, the host checker and tcpi.
#pragma once

#include "Mapping.h"

#include <cstdint>
#include <string>

namespace tcp {

// What a tile of a tensor laid out as `element` is, or why it is not one.
struct TileLayout {
  std::string error;     // empty when the tile is valid (the message names the rule: "Mapping Tensors" > Resize)
  uint64_t offset = 0;   // the tile's first position within the tensor (elements)
  uint64_t dataEnd = 0;  // one past the tile's last position holding an element
  bool ok() const { return error.empty(); }
};

// The tile covers the `size` consecutive positions of `dim` from `start`; its mapping `tile` must lay
// out those elements exactly where the tensor holds them, shifted by one offset (tiling is "pure
// metadata": no data moves), and hold exactly the tensor's elements of those positions. `perWhat`
// names the unit of the tensor ("slice" or "chip") in the size limit's message.
TileLayout tileLayout(const MappingRef &element, const MappingRef &dim, uint64_t size, const MappingRef &tile,
                      uint64_t start, const std::string &tensorText, const char *perWhat);

}  // namespace tcp
