// Value.cpp — equality and printing of tcpi runtime values.
#include "Value.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace tcp::interp {

namespace {
// Rust's float formatting: the shortest digits that read back as the same value (as f32 when the
// value is one, as host tensors' elements are), written out in full by `{}` ("1", "0.0000001") and
// by `{:?}` with at least one decimal ("1.0"), or in exponent form when |x| < 1e-4 or >= 1e16 ("1e-7").
std::string floatText(double f, bool debug) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  char buf[64];
  float g = static_cast<float>(f);
  std::to_chars_result r = static_cast<double>(g) == f ? std::to_chars(buf, buf + sizeof buf, g, std::chars_format::scientific)
                                                        : std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
  std::string sci(buf, r.ptr);  // "-1.2345e-07"
  bool neg = sci[0] == '-';
  if (neg) sci.erase(0, 1);
  size_t e = sci.find('e');
  std::string digits = sci.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  int exp10 = std::stoi(sci.substr(e + 1));
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out = neg ? "-" : "";
  double a = std::fabs(f);
  if (debug && a != 0 && (a < 1e-4 || a >= 1e16)) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    return out + "e" + std::to_string(exp10);
  }
  int point = exp10 + 1;  // digits before the decimal point
  std::string intPart, frac;
  if (point <= 0) {
    intPart = "0";
    frac = std::string(size_t(-point), '0') + digits;
  } else if (size_t(point) >= digits.size()) {
    intPart = digits + std::string(size_t(point) - digits.size(), '0');
  } else {
    intPart = digits.substr(0, size_t(point));
    frac = digits.substr(size_t(point));
  }
  if (a == 0) intPart = "0", frac.clear();
  out += intPart;
  if (!frac.empty()) out += "." + frac;
  else if (debug) out += ".0";
  return out;
}

std::string join(const std::vector<Value> &xs, bool debug) {
  std::string out;
  for (size_t k = 0; k < xs.size(); ++k) {
    if (k) out += ", ";
    out += debug ? xs[k].debug() : xs[k].display();
  }
  return out;
}
}  // namespace

const char *Value::kindName() const {
  switch (kind) {
    case Unit: return "()";
    case Int: return "integer";
    case Float: return "float";
    case Bool: return "bool";
    case Str: return "string";
    case IndexV: return "index";
    case OptionV: return "Option";
    case Tuple: return "tuple";
    case Array: return "array";
    case MappingV: return "mapping";
    case Object: return obj ? obj->kindName() : "object";
  }
  return "value";
}

std::string Value::debug() const {
  switch (kind) {
    case Unit: return "()";
    case Int: return std::to_string(i);
    case Float: return floatText(f, true);
    case Bool: return b ? "true" : "false";
    case Str: {
      std::string out = "\"";
      for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') { out += "\\n"; continue; }
        out += c;
      }
      return out + "\"";
    }
    case IndexV: return index.str();
    case OptionV: return elems.empty() ? "None" : "Some(" + elems[0].debug() + ")";
    case Tuple: return "(" + join(elems, true) + (elems.size() == 1 ? ",)" : ")");
    case Array: return "[" + join(elems, true) + "]";
    case MappingV: return mapping ? mapping->str() : "m![?]";
    case Object: return obj ? obj->debug() : "<object>";
  }
  return "?";
}

std::string Value::display() const {
  if (kind == Float) return floatText(f, false);
  return kind == Str ? s : debug();
}

bool Value::operator==(const Value &o) const {
  if (kind == Int && o.kind == Float) return static_cast<double>(i) == o.f;
  if (kind == Float && o.kind == Int) return f == static_cast<double>(o.i);
  if (kind != o.kind) return false;
  switch (kind) {
    case Unit: return true;
    case Int: return i == o.i;
    case Float: return f == o.f;
    case Bool: return b == o.b;
    case Str: return s == o.s;
    case IndexV: return index == o.index;
    case OptionV:
    case Tuple:
    case Array: return elems == o.elems;
    case MappingV: return mapping && o.mapping && mapping->str() == o.mapping->str();
    case Object: return obj && o.obj && obj->equals(*o.obj);
  }
  return false;
}

}  // namespace tcp::interp
