// tiergraph::NeighborSampler as an embedding program uses it: consecutive
// calls draw anew, a second sampler with the same seed draws the same
// sequence, an explicit seed gives exactly sample_neighbors' hops, and bad
// options are refused at construction with the right kind. On a machine
// with a GPU the sampler runs there (where="auto"), with the same draws.
#include <tiergraph/tiergraph.h>

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace {

bool same(const std::vector<tiergraph::SampledHop>& a, const std::vector<tiergraph::SampledHop>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (a[k].dst_nodes != b[k].dst_nodes || a[k].src_nodes != b[k].src_nodes || a[k].edge_src != b[k].edge_src ||
        a[k].edge_dst != b[k].edge_dst)
      return false;
  return true;
}

tiergraph::SamplerOptions options(std::string where = "auto") {
  tiergraph::SamplerOptions o;
  o.fanouts = {5, 3};
  o.seed = 42;
  o.where = std::move(where);
  return o;
}

TEST(ApiSampler, SequencesAndSeeds) {
  tiergraph::LoadOptions lo;
  const tiergraph::Graph g = tiergraph::load("kron:10", lo);
  const std::vector<uint64_t> seeds = {3, 99, 500, 1023};
  for (const char* where : {"auto", "cpu"}) {
    tiergraph::NeighborSampler first(g, options(where)), again(g, options(where));
    const auto a1 = first.sample(seeds.data(), seeds.size()), a2 = first.sample(seeds.data(), seeds.size());
    EXPECT_TRUE(same(a1, again.sample(seeds.data(), seeds.size()))) << where;
    EXPECT_TRUE(same(a2, again.sample(seeds.data(), seeds.size()))) << where;
    EXPECT_FALSE(same(a1, a2)) << where;
    tiergraph::SampleOptions direct{{5, 3}, false, 7};
    EXPECT_TRUE(same(first.sample(seeds.data(), seeds.size(), 7),
                     tiergraph::sample_neighbors(g, seeds.data(), seeds.size(), direct)))
        << where;
  }
  // The in-edges in three pieces (on one GPU where there is one; the CPU
  // sampler ignores the split): the same draws.
  tiergraph::SamplerOptions split = options();
  split.edge_devices = {0, 0, 0};
  tiergraph::NeighborSampler pieces(g, split), whole(g, options("cpu"));
  EXPECT_TRUE(same(pieces.sample(seeds.data(), seeds.size()), whole.sample(seeds.data(), seeds.size())));
  EXPECT_TRUE(same(pieces.sample(seeds.data(), seeds.size(), 11), whole.sample(seeds.data(), seeds.size(), 11)));
  std::string why;
  EXPECT_EQ(tiergraph::NeighborSampler(g, options()).on_gpu(), tiergraph::gpu_available(&why));
  EXPECT_FALSE(tiergraph::NeighborSampler(g, options("cpu")).on_gpu());
}

TEST(ApiSampler, Refusals) {
  tiergraph::LoadOptions lo;
  const tiergraph::Graph g = tiergraph::load("kron:8", lo);
  auto kind = [&](tiergraph::SamplerOptions o) {
    try {
      tiergraph::NeighborSampler s(g, o);
    } catch (const tiergraph::Error& e) {
      return e.kind();
    }
    ADD_FAILURE() << "accepted";
    return tiergraph::ErrorKind::kOther;
  };
  auto o = options();
  o.fanouts = {};
  EXPECT_EQ(kind(o), tiergraph::ErrorKind::kUsage);
  o = options("somewhere");
  EXPECT_EQ(kind(o), tiergraph::ErrorKind::kUsage);
  o = options();
  o.device = -1;
  EXPECT_EQ(kind(o), tiergraph::ErrorKind::kUsage);
  // edge_devices are checked wherever the sampler runs: a negative GPU, more
  // than eight pieces, the split beside zero_copy.
  for (const char* where : {"auto", "cpu"}) {
    o = options(where);
    o.edge_devices = {0, -1};
    EXPECT_EQ(kind(o), tiergraph::ErrorKind::kUsage) << where;
    o.edge_devices = std::vector<int>(9, 0);
    EXPECT_EQ(kind(o), tiergraph::ErrorKind::kUsage) << where;
    o.edge_devices = {0};
    o.zero_copy = true;
    EXPECT_EQ(kind(o), tiergraph::ErrorKind::kUsage) << where;
  }
  tiergraph::NeighborSampler s(g, options("cpu"));
  const uint64_t bad = 1u << 20;
  EXPECT_THROW(s.sample(&bad, 1), tiergraph::Error);
  // A moved-from sampler holds nothing: every use is a usage error (each dereferenced null).
  tiergraph::NeighborSampler kept = std::move(s);
  const uint64_t seed = 0;
  EXPECT_EQ(kept.sample(&seed, 1).size(), options().fanouts.size());
  for (const std::function<void()>& use : std::vector<std::function<void()>>{
           [&] { s.sample(&seed, 1); }, [&] { s.sample(&seed, 1, 7); }, [&] { s.on_gpu(); }, [&] { s.options(); }}) {
    try {
      use();
      ADD_FAILURE() << "a moved-from sampler was used";
    } catch (const tiergraph::Error& e) {
      EXPECT_EQ(e.kind(), tiergraph::ErrorKind::kUsage);
      EXPECT_NE(std::string(e.what()).find("moved from"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
