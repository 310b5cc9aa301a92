// DeviceTable.cpp — the lookup tables a launch loads into the Fetch Adapters ("Table Indexing").
#include "DeviceImpl.h"

namespace tcp::interp {

void checkLaunchTables(const TypedFunction &kernel, const std::vector<LookupTableData> &tables) {
  if (tables.size() != kernel.tables.size())
    throw DeviceError{"kernel `" + kernel.name + "` takes " + std::to_string(kernel.tables.size()) + " lookup table" +
                      (kernel.tables.size() == 1 ? "" : "s") + ", got " + std::to_string(tables.size())};
  for (size_t k = 0; k < tables.size(); ++k) {
    const TypedTable &want = kernel.tables[k];
    const LookupTableData &got = tables[k];
    if (got.type.in != want.type.in || got.type.out != want.type.out)
      throw DeviceError{"kernel parameter `" + want.name + "` is " + want.type.str() + ", the argument " + got.type.str()};
    if (got.entries.size() != tableEntries(got.type.in))
      throw DeviceError{"lookup table `" + want.name + "` has " + std::to_string(got.entries.size()) + " entries; a " +
                        got.type.str() + " has " + std::to_string(tableEntries(got.type.in))};
  }
}

const LookupTableData &launchTable(const DeviceImpl &device, const TypedOp &fetch) {
  std::string where = "line " + std::to_string(fetch.line) + ": fetch_with_table";
  if (!device.tables || fetch.table < 0 || size_t(fetch.table) >= device.tables->size())
    throw DeviceError{where + ": no lookup table is loaded for it (tables reach the device as launch arguments)"};
  return (*device.tables)[fetch.table];
}

}  // namespace tcp::interp
