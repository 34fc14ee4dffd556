// The renumbering on the GPU (engines/gpu_relabel.h) makes the CPU's arrays
// (graph/relabel.h), entry for entry, weights bit for bit: on every GPU shape
// in each orientation, unweighted, with integer weights, with inf weights,
// lists by id and by weight; and on kron:16. 8-byte ids are left to the CPU.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <variant>

#include "engines/gpu_relabel.h"
#include "formats/load_graph.h"
#include "graph/relabel.h"
#include "graph/weight_order.h"
#include "gpu/gpu_checks.h"

namespace tg::test::gpu {
namespace {

void expect_same_csr(const Csr<uint32_t>& want, const Csr<uint32_t>& got, const std::string& what) {
  ASSERT_EQ(got.offsets.size(), want.offsets.size()) << what;
  ASSERT_EQ(got.neighbors.size(), want.neighbors.size()) << what;
  ASSERT_EQ(got.weights.size(), want.weights.size()) << what;
  for (size_t i = 0; i < want.offsets.size(); ++i) ASSERT_EQ(got.offsets[i], want.offsets[i]) << what << ", offset " << i;
  for (size_t k = 0; k < want.neighbors.size(); ++k) ASSERT_EQ(got.neighbors[k], want.neighbors[k]) << what << ", entry " << k;
  if (!want.weights.empty())
    EXPECT_EQ(std::memcmp(got.weights.data(), want.weights.data(), want.weights.size() * sizeof(weight_t)), 0) << what;
}

void expect_same_relabel(const AnyGraph& graph, const std::string& what) {
  const std::vector<uint64_t> order = degree_order(graph);
  std::string why;
  const std::optional<AnyGraph> got = relabel_on_gpu(graph, order, lists_ordered_by_weight(graph), 0, &why);
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
      for (int weights : {0, 1, 2})
        for (bool by_weight : {false, true}) {
          if (weights == 0 && by_weight) continue;
          EdgeList e = find_shape(shape).edges;
          if (weights > 0) e = with_weights(std::move(e), weights == 1 ? WeightKind::kInteger : WeightKind::kWithInf, 5);
          AnyGraph graph = build_variant(e, o, false);
          if (by_weight) order_lists_by_weight(graph);
          expect_same_relabel(graph, shape + ", " + orientation_name(o) + ", weights " + std::to_string(weights) +
                                         (by_weight ? ", by weight" : ""));
        }
  for (bool by_weight : {false, true}) {
    LoadOptions lo;
    lo.build.random_weights = WeightRange{1, 255};
    lo.lists_by_weight = by_weight;
    expect_same_relabel(load_graph("kron:16", lo), by_weight ? "kron:16 by weight" : "kron:16");
  }
  expect_same_relabel(load_graph("kron:16", {}), "kron:16 unweighted");
}

TEST(GpuRelabel, EightByteIdsAreLeftToTheCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AnyGraph graph = build_variant(find_shape("kron_large").edges, Orientation::kUndirected, true);
  std::string why;
  EXPECT_FALSE(relabel_on_gpu(graph, degree_order(graph), false, 0, &why));
  EXPECT_NE(why.find("8-byte"), std::string::npos) << why;
}

}  // namespace
}  // namespace tg::test::gpu
