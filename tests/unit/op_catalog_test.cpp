// op_catalog_test.cpp — the op catalog is consistent and answers "which methods follow this stage".
#include "OpAccounting.h"
#include "OpCatalog.h"
#include "Suggest.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace tcp;

bool has(const std::vector<std::string> &v, const std::string &x) { return std::find(v.begin(), v.end(), x) != v.end(); }

TEST(OpCatalog, NamesAreUniqueAndEveryReceiverIsAnEngineType) {
  std::set<std::string> names;
  for (const catalog::Method &m : catalog::methods()) {
    EXPECT_TRUE(names.insert(m.name).second) << m.name;
    EXPECT_FALSE(m.receivers.empty()) << m.name;
    for (const char *r : m.receivers) EXPECT_NE(catalog::findType(r), nullptr) << m.name << " on " << r;
    if (m.supported) {
      for (const catalog::ArgSpec &a : m.args) {
        if (a.form == catalog::ArgForm::Variant) {
          EXPECT_NE(catalog::findEnum(a.enumName), nullptr) << m.name;
        }
      }
      EXPECT_EQ(typedOpName(m.name).empty(), !m.emitsOp) << m.name;
    } else {
      // A method tcp refuses names what it is and where the manual describes it.
      EXPECT_NE(m.limitation.feature, nullptr) << m.name;
      EXPECT_NE(m.limitation.section, nullptr) << m.name;
      EXPECT_EQ(typedOpName(m.name), "") << m.name;
    }
  }
  std::set<std::string> enums;
  for (const catalog::Enum &e : catalog::enums()) {
    EXPECT_TRUE(enums.insert(e.name).second) << e.name;
    EXPECT_FALSE(e.variants.empty()) << e.name;
    std::set<std::string> variants;
    for (const catalog::Variant &v : e.variants) {
      EXPECT_TRUE(variants.insert(v.name).second) << e.name << "::" << v.name;
      if (!v.supported) {
        EXPECT_NE(v.limitation.feature, nullptr) << e.name << "::" << v.name;
      }
      if (v.shape != catalog::Variant::Unit) {
        EXPECT_FALSE(v.fields.empty()) << e.name << "::" << v.name;
      }
    }
  }
}

TEST(OpCatalog, MethodsForAStageAreWhatMayFollowIt) {
  // "Vector Engine" > Quick Reference: after vector_init, the three blocks' entries.
  auto init = catalog::methodsFor("VectorInitTensor");
  for (const char *m : {"vector_intra_slice_branch", "vector_intra_slice_unzip", "vector_inter_slice_reduce"})
    EXPECT_TRUE(has(init, m)) << m;
  EXPECT_FALSE(has(init, "vector_fxp"));
  // The Float cluster needs Way4: after Narrow, not after Branch.
  EXPECT_TRUE(has(catalog::methodsFor("VectorNarrowTensor"), "vector_fp_unary"));
  EXPECT_FALSE(has(catalog::methodsFor("VectorBranchTensor"), "vector_fp_unary"));
  // Inter-slice reduction is reachable from Way8 stages only.
  EXPECT_TRUE(has(catalog::methodsFor("VectorClipTensor"), "vector_inter_slice_reduce"));
  EXPECT_FALSE(has(catalog::methodsFor("VectorFpTensor"), "vector_inter_slice_reduce"));
  // A collected stream: the register-file loads, the contraction's align, the Vector Engine, cast,
  // transpose and commit.
  auto collect = catalog::methodsFor("CollectTensor");
  for (const char *m : {"to_trf", "to_vrf", "align", "vector_init", "cast", "transpose", "commit", "commit_view"})
    EXPECT_TRUE(has(collect, m)) << m;
  EXPECT_FALSE(has(collect, "fetch"));
  EXPECT_EQ(catalog::methodsFor("TuContext"), (std::vector<std::string>{"begin", "begin_interleaved"}));
  EXPECT_TRUE(catalog::methodsFor("NoSuchTensor").empty());
}

TEST(OpCatalog, SupportStatus) {
  for (const char *m : {"vector_init", "vector_intra_slice_branch", "vector_fxp", "vector_final", "fetch", "commit",
                        "tile", "vector_logic", "vector_clip", "vector_trim_way4", "vector_intra_slice_reduce",
                        "vector_inter_slice_reduce", "vector_stash", "vector_intra_slice_unzip", "vector_clip_zip"})
    EXPECT_TRUE(catalog::findMethod(m)->supported) << m;
  EXPECT_FALSE(catalog::findMethod("vector_filter")->supported);
  const catalog::Enum *branch = catalog::findEnum("BranchMode");
  ASSERT_NE(branch, nullptr);
  EXPECT_TRUE(catalog::findVariant(*branch, "Unconditional")->supported);
  EXPECT_FALSE(catalog::findVariant(*branch, "ValidCount")->supported);
  EXPECT_EQ(catalog::findVariant(*branch, "NoSuchMode"), nullptr);
  // Compared as strings: two equal literals need not share an address (clang does not merge them across files).
  const auto &fields = catalog::findVariant(*catalog::findEnum("SwitchConfig"), "Broadcast01")->fields;
  EXPECT_EQ(std::vector<std::string>(fields.begin(), fields.end()),
            (std::vector<std::string>{"slice1", "slice0", "time0"}));
  EXPECT_FALSE(catalog::findVariant(*catalog::findEnum("FpBinaryOp"), "MaskMulF")->supported);
  EXPECT_EQ(catalog::notSupported("`.vector_filter()`", catalog::findMethod("vector_filter")->limitation),
            "`.vector_filter()` is not supported yet (the Vector Engine's Filter stage (the manual does not define the "
            "type of its `mode` argument), \"Vector Engine\" > Stage Details)");
}

TEST(OpCatalog, DidYouMeanUsesTheReceiversMethods) {
  EXPECT_EQ(nearestName("comit", catalog::methodsFor("CollectTensor")), "commit");
  EXPECT_EQ(nearestName("fetchh", catalog::methodsFor("BeginTensor")), "fetch");
  EXPECT_EQ(nearestName("vector_totally_made_up", catalog::methodNames()), "");
  EXPECT_EQ(typedOpName("fetch_with_table"), "fetch");
  EXPECT_EQ(typedOpName("begin_interleaved"), "begin");
  EXPECT_EQ(typedOpName("commit_view"), "commit");
  EXPECT_EQ(typedOpName("view"), "");
}

// The README's "Not yet" names every construct the catalog refuses as not supported yet.
TEST(OpCatalog, ReadmeNotYetListsEveryUnsupportedConstruct) {
  std::ifstream in(std::string(TCP_SOURCE_DIR) + "/README.md");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string readme = ss.str();
  size_t start = readme.find("## Not yet"), end = readme.find("\n## ", start + 1);
  ASSERT_NE(start, std::string::npos);
  std::string section = readme.substr(start, end - start);
  auto listed = [&](const std::string &name) { return section.find("`" + name) != std::string::npos; };
  std::vector<std::string> refused;
  for (const catalog::Method &m : catalog::methods())
    if (!m.supported) refused.push_back(m.name);
  for (const catalog::Enum &e : catalog::enums())
    for (const catalog::Variant &v : e.variants)
      if (!v.supported) refused.push_back(std::string(e.name) + "::" + v.name);
  for (const catalog::EngineType &t : catalog::types())
    if (!t.supported) refused.push_back(t.name);
  for (const catalog::Function &f : catalog::functions())
    if (!f.supported) refused.push_back(f.path);
  for (const std::string &name : refused) EXPECT_TRUE(listed(name) || listed("." + name)) << name;
}

TEST(OpCatalog, Counts) {
  catalog::Counts c = catalog::counts();
  EXPECT_EQ(c.methods, catalog::methods().size());
  EXPECT_GT(c.methods, c.supportedMethods);
  EXPECT_GE(c.enums, 20u);
  std::cout << c.methods << " methods (" << c.supportedMethods << " supported), " << c.enums << " enums with "
            << c.variants << " variants (" << c.supportedVariants << " supported), " << c.types << " engine types ("
            << c.supportedTypes << " supported)\n";
}

}  // namespace
