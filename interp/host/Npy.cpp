// Npy.cpp — .npy v1.0 writer and reader for host tensors.
#include "Npy.h"

#include "HostTensorOps.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>

namespace tcp::interp {

namespace {
std::string shapeText(const std::vector<uint64_t> &shape) {  // numpy's spelling: (2048,), (2, 3), ()
  std::string out = "(";
  for (size_t k = 0; k < shape.size(); ++k) {
    if (k) out += ", ";
    out += std::to_string(shape[k]);
  }
  if (shape.size() == 1) out += ",";
  return out + ")";
}

template <class T> void put(std::string &buf, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));  // little-endian hosts only (x86-64, aarch64)
  buf.append(b, sizeof(T));
}

// The value of `key` in the header dict: the text up to the matching delimiter.
std::string headerField(const std::string &h, const std::string &key) {
  size_t k = h.find("'" + key + "'");
  if (k == std::string::npos) return "";
  k = h.find(':', k);
  if (k == std::string::npos) return "";
  ++k;
  while (k < h.size() && h[k] == ' ') ++k;
  if (k >= h.size()) return "";
  if (h[k] == '\'') {
    size_t e = h.find('\'', k + 1);
    return e == std::string::npos ? "" : h.substr(k + 1, e - k - 1);
  }
  if (h[k] == '(') {
    size_t e = h.find(')', k);
    return e == std::string::npos ? "" : h.substr(k, e - k + 1);
  }
  size_t e = h.find_first_of(",}", k);
  return h.substr(k, e == std::string::npos ? std::string::npos : e - k);
}
}  // namespace

void saveNpy(const HostData &h, const std::string &path) {
  DenseView d = denseView(h);
  std::string descr;
  switch (h.dtype) {
    case num::DType::i4:
    case num::DType::i5:
    case num::DType::i8: descr = "|i1"; break;
    case num::DType::i9:
    case num::DType::i16: descr = "<i2"; break;
    case num::DType::i32: descr = "<i4"; break;
    case num::DType::f16: descr = "<f2"; break;
    default: descr = "<f4"; break;
  }
  std::vector<uint64_t> shape;
  for (const AxisInfo &a : d.axes) shape.push_back(a.size);
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shapeText(shape) + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string buf = "\x93NUMPY";
  buf += '\x01';
  buf += '\x00';
  put<uint16_t>(buf, static_cast<uint16_t>(header.size()));
  buf += header;
  for (double v : d.values) {
    if (descr == "|i1") put<int8_t>(buf, static_cast<int8_t>(v));
    else if (descr == "<i2") put<int16_t>(buf, static_cast<int16_t>(v));
    else if (descr == "<i4") put<int32_t>(buf, static_cast<int32_t>(v));
    else if (descr == "<f2") put<uint16_t>(buf, num::f32ToF16(static_cast<float>(v)));
    else put<float>(buf, static_cast<float>(v));
  }
  std::ofstream f(path, std::ios::binary);
  if (!f) throw HostError{"cannot write `" + path + "`: " + std::strerror(errno)};
  f.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  if (!f) throw HostError{"cannot write `" + path + "`"};
}

namespace {
// A .npy header is at most this long (numpy writes a few hundred bytes; v1 caps it at 64 KiB).
constexpr size_t kMaxNpyHeader = 1u << 20;

// Reads up to `n` bytes at the stream's position into `out`; false if fewer were there.
bool readExactly(std::istream &f, size_t n, std::string &out) {
  out.resize(n);
  f.read(out.data(), static_cast<std::streamsize>(n));
  return static_cast<size_t>(f.gcount()) == n;
}

// The shape tuple's numbers, each checked for overflow (a huge shape is an error, not an exception).
std::vector<uint64_t> parseShape(const std::string &shapeStr, const std::function<HostError(const std::string &)> &bad) {
  std::vector<uint64_t> shape;
  for (size_t k = 0; k < shapeStr.size();) {
    if (!std::isdigit(static_cast<unsigned char>(shapeStr[k]))) {
      ++k;
      continue;
    }
    uint64_t v = 0;
    for (; k < shapeStr.size() && std::isdigit(static_cast<unsigned char>(shapeStr[k])); ++k) {
      unsigned d = static_cast<unsigned>(shapeStr[k] - '0');
      if (v > (UINT64_MAX - d) / 10) throw bad("shape " + shapeStr + " has a dimension beyond 2^64");
      v = v * 10 + d;
    }
    shape.push_back(v);
  }
  return shape;
}
}  // namespace

HostData loadNpy(const std::string &path, num::DType dtype, const MappingRef &mapping) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw HostError{"cannot read `" + path + "`: it is a directory"};
  std::ifstream f(path, std::ios::binary);
  if (!f) throw HostError{"cannot read `" + path + "`: " + std::strerror(errno)};
  auto bad = [&](const std::string &why) { return HostError{"`" + path + "` is not a .npy file this runtime reads: " + why}; };
  // Every read is bounded before it happens: the fixed preamble, the header its length names (at
  // most kMaxNpyHeader), then exactly the data the tensor needs.
  std::string pre;
  if (!readExactly(f, 10, pre) || pre.compare(0, 6, "\x93NUMPY") != 0) throw bad("missing the \\x93NUMPY magic");
  unsigned major = static_cast<unsigned char>(pre[6]);
  size_t hlen = 0;
  if (major == 1) {
    hlen = static_cast<unsigned char>(pre[8]) | (static_cast<unsigned char>(pre[9]) << 8);
  } else if (major == 2 || major == 3) {
    std::string more;
    if (!readExactly(f, 2, more)) throw bad("truncated header");
    uint32_t l = static_cast<unsigned char>(pre[8]) | (static_cast<unsigned char>(pre[9]) << 8) |
                 (static_cast<uint32_t>(static_cast<unsigned char>(more[0])) << 16) |
                 (static_cast<uint32_t>(static_cast<unsigned char>(more[1])) << 24);
    hlen = l;
  } else {
    throw bad("format version " + std::to_string(major));
  }
  if (hlen > kMaxNpyHeader)
    throw bad("a header of " + std::to_string(hlen) + " bytes (at most " + std::to_string(kMaxNpyHeader) + ")");
  std::string header;
  if (!readExactly(f, hlen, header)) throw bad("truncated header");
  std::string descr = headerField(header, "descr");
  std::string fortran = headerField(header, "fortran_order");
  std::string shapeStr = headerField(header, "shape");
  if (fortran.find("False") == std::string::npos) throw bad("Fortran order is not supported");
  std::vector<uint64_t> shape = parseShape(shapeStr, bad);
  if (descr.size() < 3 || (descr[0] != '<' && descr[0] != '|' && descr[0] != '='))
    throw bad("element type '" + descr + "' (only little-endian types are read)");
  char kind = descr[1];
  unsigned width = static_cast<unsigned>(std::atoi(descr.c_str() + 2));
  bool known = (kind == 'i' && (width == 1 || width == 2 || width == 4 || width == 8)) ||
               (kind == 'u' && (width == 1 || width == 2 || width == 4)) ||
               (kind == 'f' && (width == 2 || width == 4 || width == 8)) || (kind == 'b' && width == 1);
  if (!known) throw bad("element type '" + descr + "'");
  std::vector<AxisInfo> axes = logicalAxes(mapping);
  std::vector<uint64_t> want;
  for (const AxisInfo &a : axes) want.push_back(a.size);
  if (shape != want)
    throw HostError{"`" + path + "` has shape " + shapeText(shape) + " but " + std::string(num::dtypeName(dtype)) +
                    " tensor " + mapping->str() + " needs " + shapeText(want)};
  // The shape equals the tensor's, so its element count is the (already allocated) tensor's.
  uint64_t count = 1;
  for (uint64_t s : shape) count *= s;
  std::string buf;
  if (!readExactly(f, count * width, buf)) throw bad("truncated data");
  if (f.bad()) throw HostError{"cannot read `" + path + "`: " + std::strerror(errno)};
  const size_t data = 0;
  std::vector<uint64_t> strides(axes.size(), 1);
  for (size_t k = axes.size(); k-- > 1;) strides[k - 1] = strides[k] * axes[k].size;
  HostData h = zeroHost(dtype, mapping);
  for (uint64_t p = 0; p < h.bits.size(); ++p) {
    auto ix = mapping->map(p);
    if (!ix) continue;
    uint64_t off = 0;
    for (const auto &[axis, v] : ix->entries())
      for (size_t k = 0; k < axes.size(); ++k)
        if (axes[k].name == axis) off += static_cast<uint64_t>(v) * strides[k];
    const char *at = buf.data() + data + off * width;
    Value v;
    if (kind == 'f') {
      double x;
      if (width == 2) { uint16_t u; std::memcpy(&u, at, 2); x = num::f16ToF32(u); }
      else if (width == 4) { float y; std::memcpy(&y, at, 4); x = y; }
      else std::memcpy(&x, at, 8);
      if (num::isInteger(dtype)) {
        if (x != std::floor(x) || !std::isfinite(x))
          throw HostError{"`" + path + "`: " + Value::floating(x).debug() + " at " + indexText(*ix, mapping) + " is not an integer (" +
                          num::dtypeName(dtype) + " tensor)"};
        v = Value::integer(static_cast<int64_t>(x));
      } else {
        h.bits[p] = elementFromDouble(dtype, x);
        continue;
      }
    } else {
      int64_t x = 0;
      if (kind == 'i') {
        if (width == 1) { int8_t y; std::memcpy(&y, at, 1); x = y; }
        else if (width == 2) { int16_t y; std::memcpy(&y, at, 2); x = y; }
        else if (width == 4) { int32_t y; std::memcpy(&y, at, 4); x = y; }
        else std::memcpy(&x, at, 8);
      } else {
        if (width == 1) { uint8_t y; std::memcpy(&y, at, 1); x = y; }
        else if (width == 2) { uint16_t y; std::memcpy(&y, at, 2); x = y; }
        else { uint32_t y; std::memcpy(&y, at, 4); x = y; }
      }
      v = Value::integer(x);
    }
    try {
      h.bits[p] = elementBits(dtype, v);
    } catch (const HostError &e) {
      throw HostError{"`" + path + "` at " + indexText(*ix, mapping) + ": " + e.message};
    }
  }
  return h;
}

}  // namespace tcp::interp
