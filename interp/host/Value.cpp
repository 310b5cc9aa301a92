// Value.cpp — equality and printing of tcpi runtime values.
#include "Value.h"

#include <cmath>
#include <sstream>

namespace tcp::interp {

namespace {
std::string floatText(double f) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  std::ostringstream os;
  os.precision(9);
  os << f;
  std::string s = os.str();
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
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
    case Float: return floatText(f);
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

std::string Value::display() const { return kind == Str ? s : debug(); }

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
