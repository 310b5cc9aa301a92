// StreamAdapter.cpp — collect_flits, Rows broadcast and Time broadcast of the Aligner's data path.
#include "StreamAdapter.h"

#include "MappingNormalForm.h"
#include "TensorCoverage.h"

#include <set>

namespace tcp {

StreamAdapterPlan planStreamAdapter(const TensorType &in, const MappingRef &outTime, const MappingRef &outPacket) {
  StreamAdapterPlan plan;
  if (!in.time || !in.packet || !outTime || !outPacket) return plan;
  std::string err;
  const uint64_t flit = num::elementsPerFlit(in.dtype);
  // Axes the stream carries; OutTime terms of other axes are tiling (Time broadcast).
  std::set<std::string> streamAxes;
  for (const MappingRef &m : {in.time, in.packet})
    for (const AxisInfo &a : m->axes()) streamAxes.insert(a.name);
  std::vector<FactorTerm> terms = factorize(outTime);
  size_t firstTiling = terms.size();
  for (size_t k = terms.size(); k-- > 0;) {
    if (terms[k].kind == FactorTerm::Axis && !streamAxes.count(terms[k].axis.name)) firstTiling = k;
    else break;
  }
  for (size_t k = 0; k < firstTiling; ++k)
    if (terms[k].kind == FactorTerm::Axis && !streamAxes.count(terms[k].axis.name)) {
      plan.problem = "the Stream Adapter repeats activations along tiling axes at the innermost positions of OutTime, "
                     "but `" + terms[k].str() + "` (absent from the stream) is outside " + terms.back().str() +
                     " in OutTime " + outTime->str() + " (\"Stream Adapter\": Time Broadcast)";
      return plan;
    }
  for (size_t k = firstTiling; k < terms.size(); ++k) {
    plan.tiling.push_back(terms[k]);
    plan.tilingSize *= terms[k].count;
  }
  MappingRef kept = plan.tilingSize > 1 ? Mapping::stride(outTime, plan.tilingSize, &err) : outTime;
  if (!kept) {
    plan.problem = "OutTime " + outTime->str() + " does not end with its tiling axes";
    return plan;
  }
  MappingRef have = Mapping::pair(kept, outPacket);
  // collect_flits = 1: the flit zero-padded to mac_width.
  MappingRef padded = Mapping::pad(in.packet, flit * 2, &err);
  if (padded && equivalent(Mapping::pair(in.time, padded), have) && equivalent(padded, outPacket)) {
    plan.collectFlits = 1;
    return plan;
  }
  // collect_flits = 2: the innermost two flits of Time join the packet.
  if (in.time->size() % 2 == 0 && in.packet->size() == flit) {
    MappingRef outer = Mapping::stride(in.time, 2, &err), inner = Mapping::modulo(in.time, 2, &err);
    MappingRef pkt = inner ? Mapping::pair(inner, in.packet) : nullptr;
    if (outer && pkt && equivalent(Mapping::pair(in.time, in.packet), have) && equivalent(pkt, outPacket)) {
      plan.collectFlits = 2;
      return plan;
    }
    if (outer && pkt) {
      std::string tiling;
      for (const FactorTerm &t : plan.tiling) tiling += ", " + t.str();
      plan.problem = "the Stream Adapter collects 1 flit (zero-padded to 64 bytes) or the 2 flits of the innermost Time "
                     "axis into the packet and keeps Time's order: from Time " + in.time->str() + " and Packet " +
                     in.packet->str() + " it produces OutTime = " + normalize(outer)->str() +
                     (tiling.empty() ? "" : " followed by the tiling axes" + tiling.substr(1)) + " and OutPacket = " +
                     normalize(pkt)->str() + " (or OutPacket = " + (padded ? normalize(padded)->str() : "?") +
                     " with one flit), not OutTime = " + outTime->str() + ", OutPacket = " + outPacket->str() +
                     " (\"Stream Adapter\": Flit Buffer)";
      return plan;
    }
  }
  plan.problem = "the Stream Adapter collects 1 flit (zero-padded to 64 bytes) or the 2 flits of the innermost Time axis "
                 "into the packet and keeps Time's order; OutTime " + outTime->str() + " and OutPacket " +
                 outPacket->str() + " cannot be produced from Time " + in.time->str() + " and Packet " +
                 in.packet->str() + " (\"Stream Adapter\": Flit Buffer)";
  return plan;
}

}  // namespace tcp
