// Every algorithm on the real graphs of ../shared/datasets (social, web-like
// and road graphs, Matrix Market and DIMACS files): the CPU engine's result
// must equal the sequential reference and pass the verifier. Graphs without
// weights get seeded random integer weights 8..72 (as the papers use) for
// SSSP and SSWP. Skipped where the datasets folder is absent.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <tuple>

#include "engines/run.h"
#include "formats/load_graph.h"
#include "graph/builder.h"
#include "support/algorithm_checks.h"
#include "support/datasets.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

struct Dataset {
  const char* file;
  bool undirected;  // build with --undirected (road networks list each edge once)
  bool weighted;    // the file has weights; the others get random ones for SSSP/SSWP
  int sources;      // how many test sources (0, the hub, a sink, then random)
};

const Dataset kDatasets[] = {
    {"karate.mtx", false, false, 4},              // symmetric: undirected by the format
    {"rome99.gr", false, true, 4},                // directed, weighted
    {"wiki-Vote.el.gz", false, false, 3},         // directed, many vertices without edges
    {"soc-Slashdot0902.el.gz", false, false, 2},  // directed, self loops
    {"road-NY.el.gz", true, false, 1},            // long diameter: thousands of SSSP buckets
};

using Param = std::tuple<Dataset, std::string>;  // dataset, algorithm

class DatasetTest : public ::testing::TestWithParam<Param> {};

TEST_P(DatasetTest, MatchesReferenceAndVerifier) {
  const auto& [dataset, name] = GetParam();
  const AlgorithmInfo& a = algorithm(name);
  const std::string path = test::dataset(dataset.file);
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is missing";
  LoadOptions options;  // the program's own loading path: format by extension
  options.build.undirected = dataset.undirected;
  options.build.in_edges = true;
  if (a.needs_weights() && !dataset.weighted) options.build.random_weights = WeightRange{8, 72};
  AnyGraph graph = load_graph(path, options);
  if (!a.needs_source()) {
    EXPECT_TRUE(runs_correctly(run_on_cpu, a, graph, {}));
    return;
  }
  std::vector<uint64_t> sources = test_sources(graph, 2, 12345);
  sources.resize(std::min<size_t>(sources.size(), dataset.sources));
  for (uint64_t source : sources) EXPECT_TRUE(runs_correctly(run_on_cpu, a, graph, {source}));
}

INSTANTIATE_TEST_SUITE_P(Datasets, DatasetTest,
                         ::testing::Combine(::testing::ValuesIn(kDatasets), ::testing::ValuesIn(algorithm_names())),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           std::string name = std::get<0>(info.param).file;
                           name = name.substr(0, name.find('.'));
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name + "_" + std::get<1>(info.param);
                         });

}  // namespace
}  // namespace tg::test
