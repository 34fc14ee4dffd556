// load_graph: format by extension, files and generator specs, options applied
// to stored binary graphs only when they ask for a different graph.
#include "formats/load_graph.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "format_test_util.h"
#include "formats/readers.h"
#include "support/datasets.h"

namespace tg {
namespace {

using test::expect_error;
using test::ScratchDir;
using test::write_bytes;

TEST(FormatFromPath, ByExtensionAfterCompression) {
  EXPECT_EQ(format_from_path("a/b.el"), FileFormat::kEdgeList);
  EXPECT_EQ(format_from_path("b.txt"), FileFormat::kEdgeList);
  EXPECT_EQ(format_from_path("b.txt.gz"), FileFormat::kEdgeList);
  EXPECT_EQ(format_from_path("b.EL.ZST"), FileFormat::kEdgeList);
  EXPECT_EQ(format_from_path("b.wel.xz"), FileFormat::kWeightedEdgeList);
  EXPECT_EQ(format_from_path("b.mtx"), FileFormat::kMatrixMarket);
  EXPECT_EQ(format_from_path("b.mtx.gz"), FileFormat::kMatrixMarket);
  EXPECT_EQ(format_from_path("b.gr"), FileFormat::kDimacs);
  EXPECT_EQ(format_from_path("b.sg"), FileFormat::kGapSg);
  EXPECT_EQ(format_from_path("b.wsg"), FileFormat::kGapWsg);
  EXPECT_EQ(format_from_path("x.y/b.tgb"), FileFormat::kBinary);
  expect_error([] { format_from_path("graph.csv"); }, {"graph.csv", "'.csv'", ".el", ".tgb"});
  expect_error([] { format_from_path("dir.el/graph"); }, {"dir.el/graph", "no file extension"});
  expect_error([] { format_from_path("g.tgb.gz"); }, {"g.tgb.gz", "compressed .tgb"});
  expect_error([] { format_from_path(".gz"); }, {".gz"});
}

TEST(LoadGraph, Datasets) {
  TG_NEED_DATASET("wiki-Vote.el.gz");
  TG_NEED_DATASET("karate.mtx");
  TG_NEED_DATASET("rome99.gr");
  LoadOptions options;
  AnyGraph wiki = load_graph(test::dataset("wiki-Vote.el.gz"), options);
  EXPECT_EQ(num_vertices(wiki), 8298u);
  EXPECT_EQ(num_edges(wiki), 103689u);
  EXPECT_EQ(vertex_id_bytes(wiki), 4);

  AnyGraph karate = load_graph(test::dataset("karate.mtx"), options);
  const auto& k = std::get<Graph<vid32_t>>(karate);
  EXPECT_FALSE(k.directed);
  EXPECT_EQ(k.num_vertices, 34u);
  EXPECT_EQ(k.num_edges(), 156u);
  EXPECT_EQ(k.id_base, 1);
  EXPECT_EQ(k.name, "karate.mtx");

  AnyGraph rome = load_graph(test::dataset("rome99.gr"), options);
  const auto& r = std::get<Graph<vid32_t>>(rome);
  EXPECT_TRUE(r.directed);
  EXPECT_TRUE(r.weighted());
  EXPECT_EQ(r.num_vertices, 3353u);
  EXPECT_EQ(r.num_edges(), 8870u);
  EXPECT_EQ(r.id_base, 1);
}

TEST(LoadGraph, BuildOptionsApplyToTextFormats) {
  ScratchDir dir;
  write_bytes(dir.path("g.el"), "0 1\n0 1\n1 1\n2 0\n");
  LoadOptions options;
  options.build.simplify = true;
  options.build.undirected = true;
  options.build.force_64bit_ids = true;
  AnyGraph g = load_graph(dir.path("g.el"), options);
  ASSERT_EQ(vertex_id_bytes(g), 8);
  const auto& x = std::get<Graph<vid64_t>>(g);
  EXPECT_FALSE(x.directed);
  EXPECT_EQ(x.num_edges(), 4u);  // {0,1} and {0,2}, both directions
}

TEST(LoadGraph, GeneratorSpecsAreSimplified) {
  LoadOptions options;
  AnyGraph g = load_graph("kron:8", options);
  EXPECT_EQ(num_vertices(g), 256u);
  DegreeStats stats = degree_stats(g);
  EXPECT_EQ(stats.self_loops, 0u);
  EXPECT_EQ(stats.duplicate_edges, 0u);
}

TEST(LoadGraph, FileErrors) {
  ScratchDir dir;
  LoadOptions options;
  expect_error([&] { load_graph(dir.path("missing.el"), options); }, {"missing.el", "no such file"});
  expect_error([&] { load_graph(dir.path("missing.tgb"), options); }, {"missing.tgb", "no such file"});
  expect_error([&] { load_graph(dir.path("missing.sg"), options); }, {"missing.sg", "no such file"});
  ::mkdir(dir.path("d.el").c_str(), 0755);
  expect_error([&] { load_graph(dir.path("d.el"), options); }, {"d.el", "is a directory"});
  write_bytes(dir.path("bad.el"), "0 1\n1 x\n");
  expect_error([&] { load_graph(dir.path("bad.el"), options); }, {"bad.el:2:"});
}

TEST(LoadGraph, BinaryGraphsAreReturnedAsStoredUnlessOptionsChangeThem) {
  ScratchDir dir;
  write_bytes(dir.path("g.el"), "0 1\n0 1\n1 1\n2 0\n3 2\n");
  LoadOptions plain;
  AnyGraph built = load_graph(dir.path("g.el"), plain);
  write_binary_graph(built, dir.path("g.tgb"));

  AnyGraph same = load_graph(dir.path("g.tgb"), plain);
  const auto& s = std::get<Graph<vid32_t>>(same);
  EXPECT_EQ(s.num_edges(), 5u);  // duplicates and the self loop kept
  EXPECT_FALSE(s.in.built());

  LoadOptions with_in = plain;
  with_in.build.in_edges = true;
  AnyGraph in = load_graph(dir.path("g.tgb"), with_in);
  EXPECT_TRUE(std::get<Graph<vid32_t>>(in).in.built());

  LoadOptions simplify = plain;
  simplify.build.simplify = true;
  AnyGraph simple = load_graph(dir.path("g.tgb"), simplify);
  EXPECT_EQ(num_edges(simple), 3u);

  LoadOptions wide = plain;
  wide.build.force_64bit_ids = true;
  EXPECT_EQ(vertex_id_bytes(load_graph(dir.path("g.tgb"), wide)), 8);

  LoadOptions undirected = plain;
  undirected.build.undirected = true;
  AnyGraph u = load_graph(dir.path("g.tgb"), undirected);
  EXPECT_FALSE(std::get<Graph<vid32_t>>(u).directed);
  EXPECT_EQ(std::get<Graph<vid32_t>>(u).name, "g.el");
}

}  // namespace
}  // namespace tg

namespace tg {
namespace {

TEST(LoadGraph, HugeIdInASmallFileIsAnError) {
  ScratchDir dir;
  write_bytes(dir.path("huge.el"), "0 9000000000000000000\n");
  LoadOptions options;
  expect_error([&] { load_graph(dir.path("huge.el"), options); }, {"huge.el"});
}

}  // namespace
}  // namespace tg
