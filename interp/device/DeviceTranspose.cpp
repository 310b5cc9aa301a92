// DeviceTranspose.cpp — the Transpose Engine on the CPU model: unpack, transpose, trim and align as a gather of stream positions.
#include "DeviceChain.h"

#include "TransposeEngine.h"

namespace tcp::interp {

// The engine works on positions, not on tensor indices: output packet `p` of output time step `t`
// takes element `col % elements_per_packet` of the input packet at time
// `iter × in_rows × packets_per_col + p × packets_per_col + col / elements_per_packet`
// (`iter = t / out_rows`, `col = t % out_rows`); lanes past in_rows are alignment padding (zero).
// The configuration comes from the op's types exactly as the checker derives it, so a stream whose
// values do not land where OutTime × OutPacket say would fail the device tests' answer keys.
void ChainBuilder::transpose(const TypedOp &op) {
  TransposeCheck chk = checkTranspose(op.in, op.out);
  if (!chk.config)
    throw DeviceError{where(op) + ": " + (chk.errors.empty() ? std::string("no Transpose Engine configuration") : chk.errors[0])};
  const TransposeConfig c = *chk.config;
  relayout(op.in);  // the stream as the engine receives it: Time × Packet of the op's input
  size_t times = op.out.time->size(), lanes = op.out.packet->size();
  std::vector<int64_t> src(times * lanes);
  for (size_t t = 0; t < times; ++t)
    for (size_t p = 0; p < lanes; ++p) src[t * lanes + p] = c.source(t, p);
  steps.push_back([src = std::move(src)](SliceRun &s) {
    std::vector<uint32_t> out(src.size(), 0);
    for (size_t i = 0; i < src.size(); ++i)
      if (src[i] >= 0) out[i] = s.cur[size_t(src[i])];
    s.cur = std::move(out);
  });
  stream_ = layoutOf(op.out, false);
}

}  // namespace tcp::interp
