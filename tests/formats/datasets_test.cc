// The readers on the real graphs of ../shared/datasets (counts from its README).
#include <gtest/gtest.h>

#include <algorithm>

#include "formats/readers.h"
#include "support/datasets.h"

namespace tg {
namespace {

struct ElCase {
  const char* file;
  uint64_t edges;
  uint64_t vertices;  // largest id + 1
};

TEST(Datasets, CompressedEdgeLists) {
  const ElCase cases[] = {
      {"wiki-Vote.el.gz", 103689, 8298},
      {"soc-Slashdot0902.el.gz", 948464, 82168},
      {"road-NY.el.gz", 365050, 264346},
      {"cnr-2000.el.gz", 3216152, 325557},
      {"uk-2007-05-100000.el.gz", 3050615, 100000},
  };
  for (const ElCase& c : cases) TG_NEED_DATASET(c.file);
  for (const ElCase& c : cases) {
    EdgeList el = read_edge_list(test::dataset(c.file), false);
    EXPECT_EQ(el.num_edges(), c.edges) << c.file;
    EXPECT_EQ(el.num_vertices, c.vertices) << c.file;
    EXPECT_EQ(el.name, c.file);
    EXPECT_TRUE(el.directed);
    EXPECT_EQ(el.id_base, 0);
  }
}

TEST(Datasets, WikiVoteFirstEdges) {
  TG_NEED_DATASET("wiki-Vote.el.gz");
  EdgeList el = read_edge_list(test::dataset("wiki-Vote.el.gz"), false);
  ASSERT_GE(el.num_edges(), 2u);
  EXPECT_EQ(el.src[0], 30u);
  EXPECT_EQ(el.dst[0], 1412u);
  EXPECT_EQ(el.src[1], 30u);
  EXPECT_EQ(el.dst[1], 3352u);
}

TEST(Datasets, SlashdotHasSelfLoops) {
  TG_NEED_DATASET("soc-Slashdot0902.el.gz");
  EdgeList el = read_edge_list(test::dataset("soc-Slashdot0902.el.gz"), false);
  uint64_t loops = 0;
  for (uint64_t i = 0; i < el.num_edges(); ++i) loops += el.src[i] == el.dst[i];
  EXPECT_GT(loops, 0u);
  EXPECT_EQ(el.src[0], 0u);
  EXPECT_EQ(el.dst[0], 0u);
}

TEST(Datasets, KarateMatrixMarket) {
  TG_NEED_DATASET("karate.mtx");
  EdgeList el = read_matrix_market(test::dataset("karate.mtx"));
  EXPECT_EQ(el.num_edges(), 78u);
  EXPECT_EQ(el.num_vertices, 34u);
  EXPECT_FALSE(el.directed);
  EXPECT_EQ(el.id_base, 1);
  EXPECT_FALSE(el.weighted());
  EXPECT_EQ(el.src[0], 1u);  // "2 1"
  EXPECT_EQ(el.dst[0], 0u);
}

TEST(Datasets, Rome99Dimacs) {
  TG_NEED_DATASET("rome99.gr");
  EdgeList el = read_dimacs(test::dataset("rome99.gr"));
  EXPECT_EQ(el.num_edges(), 8870u);
  EXPECT_EQ(el.num_vertices, 3353u);
  EXPECT_TRUE(el.directed);
  EXPECT_EQ(el.id_base, 1);
  ASSERT_TRUE(el.weighted());
  EXPECT_EQ(*std::min_element(el.weights.begin(), el.weights.end()), 1.0f);
  EXPECT_EQ(*std::max_element(el.weights.begin(), el.weights.end()), 12711.0f);
  EXPECT_EQ(el.src[0], 2957u);  // "a 2958 2959 535"
  EXPECT_EQ(el.dst[0], 2958u);
  EXPECT_EQ(el.weights[0], 535.0f);
}

}  // namespace
}  // namespace tg
