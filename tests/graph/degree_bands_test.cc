// graph/degree_bands.h: degrees counted in bands of powers of two, and the
// probes of a bottom-up step estimated from them.
#include <gtest/gtest.h>

#include "graph/builder.h"
#include "graph/degree_bands.h"

namespace tg {
namespace {

// A star of 9 leaves (the centre of degree 9, the leaves of 1), undirected,
// and 3 vertices without edges.
TEST(DegreeBands, CountsVerticesAndEntriesByPowerOfTwo) {
  EdgeList el;
  el.num_vertices = 13;
  for (uint64_t leaf = 1; leaf <= 9; ++leaf) {
    el.src.push_back(0);
    el.dst.push_back(leaf);
  }
  el.directed = false;
  const AnyGraph any = build_graph(std::move(el), {});
  const auto& g = std::get<Graph<vid32_t>>(any);
  const DegreeBands bands = degree_bands(g.out, g.num_vertices);
  EXPECT_EQ(bands.vertices[0], 9u);  // degree 1
  EXPECT_EQ(bands.entries[0], 9u);
  EXPECT_EQ(bands.vertices[3], 1u);  // degree 9 in [8, 16)
  EXPECT_EQ(bands.entries[3], 9u);
  uint64_t vertices = 0;
  for (uint64_t c : bands.vertices) vertices += c;
  EXPECT_EQ(vertices, 10u);  // the 3 without edges left out
  // Each leaf probes its 1 entry; the centre min(9, cap).
  EXPECT_EQ(bands.probes_up_to(100), 18u);
  EXPECT_EQ(bands.probes_up_to(4), 13u);
  EXPECT_EQ(bands.probes_up_to(1), 10u);
  // A CSR of another size is not read.
  EXPECT_EQ(degree_bands(g.out, 5).probes_up_to(100), 0u);
}

}  // namespace
}  // namespace tg
