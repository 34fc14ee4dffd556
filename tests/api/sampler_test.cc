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
  const tiergraph::HostAllocator nowhere = [](uint64_t) -> void* { return nullptr; };
  for (const std::function<void()>& use : std::vector<std::function<void()>>{
           [&] { s.sample(&seed, 1); }, [&] { s.sample(&seed, 1, 7); }, [&] { s.sample_to_host(&seed, 1, nowhere); },
           [&] { s.on_gpu(); }, [&] { s.options(); }}) {
    try {
      use();
      ADD_FAILURE() << "a moved-from sampler was used";
    } catch (const tiergraph::Error& e) {
      EXPECT_EQ(e.kind(), tiergraph::ErrorKind::kUsage);
      EXPECT_NE(std::string(e.what()).find("moved from"), std::string::npos) << e.what();
    }
  }
}

// sample_to_host: sample()'s hops in the caller's host memory, asked for in
// sample_into's order (the seeds, then each hop's edges and sources), each
// hop's destinations the previous hop's sources; on the GPU where there is
// one and on the CPU. Refused: no allocator (kUsage), an allocator that gives
// nothing for words asked (kOther), and whatever it throws passes through.
TEST(ApiSampler, ToHostMemory) {
  tiergraph::LoadOptions lo;
  const tiergraph::Graph g = tiergraph::load("kron:10", lo);
  const std::vector<uint64_t> seeds = {3, 99, 500, 1023};
  for (const char* where : {"auto", "cpu"}) {
    tiergraph::NeighborSampler s(g, options(where));
    std::vector<std::vector<uint64_t>> owned;
    const tiergraph::HostAllocator allocate = [&](uint64_t bytes) -> void* {
      return owned.emplace_back(bytes / sizeof(uint64_t), ~uint64_t{0}).data();  // poisoned
    };
    const std::vector<tiergraph::HopArrays> arrays = s.sample_to_host(seeds.data(), seeds.size(), allocate, 7);
    const std::vector<tiergraph::SampledHop> hops = s.sample(seeds.data(), seeds.size(), 7);
    ASSERT_EQ(arrays.size(), hops.size()) << where;
    ASSERT_EQ(owned.size(), 1 + 2 * hops.size()) << where;
    for (size_t k = 0; k < hops.size(); ++k) {
      const tiergraph::HopArrays& a = arrays[k];
      const tiergraph::SampledHop& h = hops[k];
      EXPECT_EQ(a.dst_nodes, owned[k == 0 ? 0 : 2 * k].data()) << where << " hop " << k;
      EXPECT_EQ(a.edge_index, owned[2 * k + 1].data()) << where << " hop " << k;
      EXPECT_EQ(a.src_nodes, owned[2 * k + 2].data()) << where << " hop " << k;
      EXPECT_EQ(std::vector<uint64_t>(a.dst_nodes, a.dst_nodes + a.num_dst), h.dst_nodes) << where << " hop " << k;
      EXPECT_EQ(std::vector<uint64_t>(a.src_nodes, a.src_nodes + a.num_src), h.src_nodes) << where << " hop " << k;
      ASSERT_EQ(a.num_edges, h.edge_src.size()) << where << " hop " << k;
      EXPECT_EQ(std::vector<uint64_t>(a.edge_index, a.edge_index + a.num_edges), h.edge_src) << where << " hop " << k;
      EXPECT_EQ(std::vector<uint64_t>(a.edge_index + a.num_edges, a.edge_index + 2 * a.num_edges), h.edge_dst)
          << where << " hop " << k;
    }
    // Without a seed: the next of the sequence, as sample().
    tiergraph::NeighborSampler again(g, options(where));
    owned.clear();
    const std::vector<tiergraph::HopArrays> next = s.sample_to_host(seeds.data(), seeds.size(), allocate);
    const std::vector<tiergraph::SampledHop> expected = again.sample(seeds.data(), seeds.size());
    EXPECT_EQ(std::vector<uint64_t>(next[1].src_nodes, next[1].src_nodes + next[1].num_src), expected[1].src_nodes)
        << where;
    const auto kind = [&](const tiergraph::HostAllocator& a) {
      try {
        s.sample_to_host(seeds.data(), seeds.size(), a);
      } catch (const tiergraph::Error& e) {
        return e.kind();
      }
      ADD_FAILURE() << where << ": accepted";
      return tiergraph::ErrorKind::kOther;
    };
    EXPECT_EQ(kind(nullptr), tiergraph::ErrorKind::kUsage) << where;
    EXPECT_EQ(kind([](uint64_t) -> void* { return nullptr; }), tiergraph::ErrorKind::kOther) << where;
    EXPECT_EQ(kind([](uint64_t) -> void* { throw tiergraph::Error("full", tiergraph::ErrorKind::kOutOfMemory); }),
              tiergraph::ErrorKind::kOutOfMemory)
        << where;
  }
}

}  // namespace
