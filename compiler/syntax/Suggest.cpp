// Suggest.cpp — "did you mean" hints by edit distance (llvm::StringRef::edit_distance).
#include "Suggest.h"

namespace tcp {

std::string nearestName(llvm::StringRef name, const std::vector<std::string> &candidates, unsigned maxDistance) {
  std::string best;
  unsigned bestDist = maxDistance + 1;
  for (const std::string &c : candidates) {
    unsigned d = llvm::StringRef(c).edit_distance(name, /*AllowReplacements=*/true, bestDist);
    if (d < bestDist && 2 * d <= name.size()) {
      bestDist = d;
      best = c;
    }
  }
  return best;
}

std::string didYouMean(llvm::StringRef name, const std::vector<std::string> &candidates, unsigned maxDistance) {
  std::string near = nearestName(name, candidates, maxDistance);
  return near.empty() ? std::string() : "; did you mean `" + near + "`?";
}

}  // namespace tcp
