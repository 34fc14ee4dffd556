// The renumbering on the GPU (engines/gpu_relabel.h) makes the CPU's arrays
// (graph/relabel.h), entry for entry: on every GPU shape in each orientation
// and on kron:16. Weighted graphs and 8-byte ids are left to the CPU.
#include <gtest/gtest.h>

#include <utility>
#include <string>
#include <variant>

#include "engines/gpu_relabel.h"
#include "formats/load_graph.h"
#include "graph/relabel.h"
#include "gpu/gpu_checks.h"

namespace tg::test::gpu {
namespace {

void expect_same_csr(const Csr<uint32_t>& want, const Csr<uint32_t>& got, const std::string& what) {
  ASSERT_EQ(got.offsets.size(), want.offsets.size()) << what;
  ASSERT_EQ(got.neighbors.size(), want.neighbors.size()) << what;
  for (size_t i = 0; i < want.offsets.size(); ++i) ASSERT_EQ(got.offsets[i], want.offsets[i]) << what << ", offset " << i;
  for (size_t k = 0; k < want.neighbors.size(); ++k) ASSERT_EQ(got.neighbors[k], want.neighbors[k]) << what << ", entry " << k;
  EXPECT_TRUE(got.weights.empty()) << what;
}

void expect_same_relabel(const AnyGraph& graph, const std::string& what) {
  const std::vector<uint64_t> order = degree_order(graph);
  std::string why;
  const std::optional<AnyGraph> got = relabel_on_gpu(graph, order, 0, &why);
  ASSERT_TRUE(got) << what << ": " << why;
  const AnyGraph want = relabel(graph, order);
  const auto& w = std::get<Graph<uint32_t>>(want);
  const auto& g = std::get<Graph<uint32_t>>(*got);
  EXPECT_EQ(g.num_vertices, w.num_vertices) << what;
  expect_same_csr(w.out, g.out, what + ", out");
  if (w.directed && w.in.built()) expect_same_csr(w.in, g.in, what + ", in");
}

TEST(GpuRelabel, MakesTheCpusArrays) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  for (const std::string& shape : gpu_shapes())
    for (Orientation o : all_orientations())
      expect_same_relabel(build_variant(find_shape(shape).edges, o, false), shape + ", " + orientation_name(o));
  expect_same_relabel(load_graph("kron:16", {}), "kron:16");
}

TEST(GpuRelabel, WeightedGraphsAndEightByteIdsAreLeftToTheCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const EdgeList& e = find_shape("kron_large").edges;
  for (const auto& [graph, words] : {std::pair{build_variant(e, Orientation::kUndirected, true), "8-byte"},
                                     std::pair{build_variant(with_weights(e, WeightKind::kInteger, 3),
                                                             Orientation::kUndirected, false),
                                               "weighted"}}) {
    std::string why;
    EXPECT_FALSE(relabel_on_gpu(graph, degree_order(graph), 0, &why));
    EXPECT_NE(why.find(words), std::string::npos) << why;
  }
}

}  // namespace
}  // namespace tg::test::gpu
