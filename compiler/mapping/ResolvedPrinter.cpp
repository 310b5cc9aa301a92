// ResolvedPrinter.cpp — --emit=resolved: the axes, mapping aliases (with normal form) and functions.
#include "Resolver.h"
#include "MappingNormalForm.h"

namespace tcp {

void printResolved(const Symbols &symbols, llvm::raw_ostream &os) {
  os << "axes:\n";
  for (const AxisInfo &a : symbols.axes.all()) {
    os << "  " << a.name << " = " << a.size;
    if (!a.skewBase.empty()) os << "  (" << a.name << " = " << a.skewBase << " - " << a.skewBy << ")";
    if (!a.padBase.empty()) {
      os << "  (" << a.name << " = ";
      if (a.padLeft) os << "# " << a.padLeft << " + ";
      os << a.padBase;
      if (a.padRight) os << " + # " << a.padRight;
      os << ")";
    }
    os << "\n";
  }
  os << "aliases:\n";
  for (const std::string &name : symbols.aliasOrder) {
    const AliasInfo &info = symbols.aliases.at(name);
    os << "  " << name;
    if (info.mapping) {
      MappingRef nf = normalize(info.mapping);
      os << " = " << info.mapping->str() << "  size " << info.mapping->size();
      if (nf->str() != info.mapping->str()) os << "  normal form " << nf->str();
    } else {
      os << " (not a mapping)";
    }
    os << "\n";
  }
  os << "functions:\n";
  for (const std::string &name : symbols.fnOrder) {
    const FnInfo &f = symbols.fns.at(name);
    os << "  " << name << ": ";
    if (f.isDevice)
      os << "device kernel, chip = " << f.chips;
    else if (f.isTest)
      os << "test";
    else if (name == "main")
      os << "host entry point";
    else
      os << "function";
    os << "\n";
  }
}

}  // namespace tcp
