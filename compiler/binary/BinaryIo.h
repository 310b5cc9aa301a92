// BinaryIo.h — the byte level of the .tcpb encoding: a little-endian writer and a bounds-checked reader cursor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace tcp::binio {

inline std::string hex(uint32_t v, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*x", digits, v);
  return buf;
}
inline std::string hex32(uint32_t v) { return hex(v, 8); }
inline std::string bytesWord(uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }
inline std::string unexpected(uint64_t n) { return std::to_string(n) + (n == 1 ? " unexpected byte" : " unexpected bytes"); }

inline uint32_t load32(const uint8_t *p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

inline std::string tagName(uint32_t tag) {
  std::string s;
  for (int k = 0; k < 4; ++k) {
    char c = char(tag >> (8 * k));
    s += (c >= 0x20 && c < 0x7f) ? std::string(1, c) : "?";
  }
  return s;
}

// A cursor over one region of the file. The first failure records the message; later reads fail.
class Cursor {
 public:
  Cursor(const uint8_t *p, size_t size, const std::string &name, std::string &error)
      : p_(p), left_(size), name_(name), error_(error) {}

  size_t left() const { return left_; }
  const std::string &name() const { return name_; }
  const uint8_t *pos() const { return p_; }

  bool truncated(uint64_t need, const std::string &what) {
    return fail("'" + name_ + "' is truncated: " + what + " needs " + bytesWord(need) + " but " + std::to_string(left_) +
                (left_ == 1 ? " remains" : " remain"));
  }
  bool corrupt(const std::string &what) { return fail("'" + name_ + "' is corrupt: " + what); }
  bool fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    left_ = 0;  // nothing more is read after the first failure
    return false;
  }

  bool need(uint64_t n, const std::string &what) { return n <= left_ || truncated(n, what); }
  bool skip(size_t n, const std::string &what) {
    if (!need(n, what)) return false;
    p_ += n;
    left_ -= n;
    return true;
  }
  bool u8(uint8_t &v, const std::string &what) {
    if (!need(1, what)) return false;
    v = *p_;
    return skip(1, what);
  }
  // An unsigned integer of `width` bytes (1, 2, 4 or 8), little-endian.
  bool uint(unsigned width, uint64_t &v, const std::string &what) {
    if (!need(width, what)) return false;
    v = 0;
    for (unsigned k = width; k-- > 0;) v = v << 8 | p_[k];
    return skip(width, what);
  }
  // The same, naming the field only when the read fails (`what()` builds the name): the engine
  // records read thousands of fields, and building each one's name cost most of a decode.
  template <class What> bool uintNamed(unsigned width, uint64_t &v, const What &what) {
    if (width > left_) return truncated(width, what());
    v = 0;
    for (unsigned k = width; k-- > 0;) v = v << 8 | p_[k];
    p_ += width;
    left_ -= width;
    return true;
  }
  bool u32(uint32_t &v, const std::string &what) {
    if (!need(4, what)) return false;
    v = load32(p_);
    return skip(4, what);
  }
  bool u64(uint64_t &v, const std::string &what) {
    if (!need(8, what)) return false;
    v = uint64_t(load32(p_)) | uint64_t(load32(p_ + 4)) << 32;
    return skip(8, what);
  }
  bool i32(int32_t &v, const std::string &what) {
    uint32_t u;
    if (!u32(u, what)) return false;
    v = int32_t(u);
    return true;
  }
  bool i64(int64_t &v, const std::string &what) {
    uint64_t u;
    if (!u64(u, what)) return false;
    v = int64_t(u);
    return true;
  }
  bool flag(bool &v, const std::string &what) {
    uint8_t b;
    if (!u8(b, what)) return false;
    if (b > 1) return corrupt(what + " is " + std::to_string(b) + " (expected 0 or 1)");
    v = b == 1;
    return true;
  }
  // u32 length, then that many bytes; control bytes (which would break the printed form) are corrupt.
  bool str(std::string &s, const std::string &what) {
    uint32_t n;
    if (!u32(n, "the length of " + what)) return false;
    if (!need(n, what)) return false;
    for (uint32_t k = 0; k < n; ++k)
      if (p_[k] < 0x20 || p_[k] == 0x7f)
        return corrupt(what + " contains the control byte " + hex(p_[k], 2) + " at offset " +
                       std::to_string(k));
    s.assign(reinterpret_cast<const char *>(p_), n);
    return skip(n, what);
  }
  // A u32 element count, checked against the remaining bytes before anything is reserved.
  bool count(uint32_t &n, size_t minEach, const std::string &table) {
    if (!u32(n, "the size of " + table)) return false;
    return need(uint64_t(n) * minEach, table);
  }

 private:
  const uint8_t *p_;
  size_t left_;
  const std::string &name_;
  std::string &error_;
};

class Out {
 public:
  std::string bytes;
  void u8(uint8_t v) { bytes.push_back(char(v)); }
  void u32(uint32_t v) { fixed(v, 4); }
  void uint(unsigned width, uint64_t v) { fixed(v, int(width)); }
  void u64(uint64_t v) { fixed(v, 8); }
  void i32(int32_t v) { fixed(uint32_t(v), 4); }
  void i64(int64_t v) { fixed(uint64_t(v), 8); }
  void str(const std::string &s) {
    u32(uint32_t(s.size()));
    bytes += s;
  }
  void patch32(size_t at, uint32_t v) {
    for (int k = 0; k < 4; ++k) bytes[at + k] = char(v >> (8 * k));
  }

 private:
  void fixed(uint64_t v, int n) {
    for (int k = 0; k < n; ++k) bytes.push_back(char(v >> (8 * k)));
  }
};

}  // namespace tcp::binio
