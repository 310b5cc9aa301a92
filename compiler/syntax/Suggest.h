// Suggest.h — "did you mean" hints: the closest known name to a misspelled one.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace tcp {

// The candidate closest to `name` by edit distance (case-sensitive), if it is close enough to be a
// plausible typo: at most `maxDistance` edits and at most half of `name`'s length. "" otherwise.
// Ties go to the earlier candidate.
std::string nearestName(llvm::StringRef name, const std::vector<std::string> &candidates, unsigned maxDistance = 2);

// "; did you mean `x`?" for the nearest candidate, or "" when none is close.
std::string didYouMean(llvm::StringRef name, const std::vector<std::string> &candidates, unsigned maxDistance = 2);

}  // namespace tcp
