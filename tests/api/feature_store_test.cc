// tiergraph::FeatureStore as an embedding program meets it (only
// <tiergraph/...> and libtiergraph.so): gathers equal a plain loop, the tiers
// are counted, refusals are tiergraph::Error kUsage. On the CPU path here
// (use_gpu "cpu"), wherever the tests run, but where a test says otherwise.
#include <tiergraph/tiergraph.h>

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>
#include <vector>

namespace {

tiergraph::FeatureStoreOptions on_cpu(double fraction = 0.0, const std::string& score = "degree") {
  tiergraph::FeatureStoreOptions o;
  o.gpu_fraction = fraction;
  o.score = score;
  o.where = "cpu";
  return o;
}

TEST(ApiFeatureStore, GathersTheRowsAPlainLoopGathers) {
  const uint64_t rows = 100, row_bytes = 37 * 4;
  std::vector<uint8_t> table(rows * row_bytes);
  std::mt19937_64 rng(1);
  for (uint8_t& b : table) b = static_cast<uint8_t>(rng());
  tiergraph::FeatureStore store(table.data(), rows, row_bytes, nullptr, on_cpu(0.2));
  EXPECT_FALSE(store.on_gpu());
  EXPECT_EQ(store.device(), -1);
  const std::vector<int64_t> ids = {0, 99, 19, 20, 20, 5};
  std::vector<uint8_t> out(ids.size() * row_bytes, 0xA5), expected;
  store.gather(ids.data(), ids.size(), out.data());
  for (int64_t id : ids)
    expected.insert(expected.end(), table.begin() + id * row_bytes, table.begin() + (id + 1) * row_bytes);
  EXPECT_EQ(out, expected);
  const tiergraph::FeatureStoreStats s = store.stats();
  EXPECT_EQ(s.gpu_rows, 20u);  // no graph: the first rows are hot
  EXPECT_EQ(s.host_rows, 80u);
  EXPECT_EQ(s.gpu_hits, 3u);  // 0, 19, 5
  EXPECT_EQ(s.host_hits, 3u);
  EXPECT_EQ(s.gpu_bytes, 3 * row_bytes);
  EXPECT_EQ(s.gathers, 1u);
  EXPECT_THROW(store.gather_to_device(ids.data(), ids.size()), tiergraph::Error);
  EXPECT_THROW(store.gather_into_device(ids.data(), ids.size(), out.data(), 0), tiergraph::Error);
}

TEST(ApiFeatureStore, HotRowsFollowTheGraphsDegrees) {
  // Vertex 3 has the most out-edges, then 1.
  const std::vector<uint64_t> src = {3, 3, 3, 1, 1, 0}, dst = {0, 1, 2, 0, 2, 1};
  tiergraph::Graph g = tiergraph::from_edges(src.data(), dst.data(), src.size(), nullptr, 4);
  std::vector<float> features(4 * 2, 1.0f);
  tiergraph::FeatureStore store(features.data(), 4, 8, &g, on_cpu(0.5));
  const std::vector<int64_t> ids = {3, 1, 0, 2};
  std::vector<float> out(8);
  store.gather(ids.data(), ids.size(), out.data());
  EXPECT_EQ(store.stats().gpu_hits, 2u);
  store.reset_stats();
  EXPECT_EQ(store.stats().gpu_hits, 0u);
  EXPECT_EQ(store.stats().gpu_rows, 2u);
}

// A CPU store plans the peers it is given and counts against them, so the
// peer tier's hit ratio can be studied on a machine without those GPUs.
TEST(ApiFeatureStore, CountsThePeerTierAgainstThePeersGiven) {
  const uint64_t rows = 100, row_bytes = 12;
  std::vector<uint8_t> table(rows * row_bytes);
  for (size_t i = 0; i < table.size(); ++i) table[i] = static_cast<uint8_t>(i * 7);
  tiergraph::FeatureStoreOptions o = on_cpu(0.1);
  o.peer_fraction = 0.3;
  o.peers = std::vector<int>{2, 1};
  tiergraph::FeatureStore store(table.data(), rows, row_bytes, nullptr, o);
  EXPECT_EQ(store.peers(), (std::vector<int>{2, 1}));
  // No graph: rows 0-9 this GPU's, 10-39 the peers' (10 -> device 2, 11 -> device 1, ...), the rest host.
  const std::vector<int64_t> ids = {0, 9, 10, 11, 39, 40, 99, 39};
  std::vector<uint8_t> out(ids.size() * row_bytes), expected;
  store.gather(ids.data(), ids.size(), out.data());
  for (int64_t id : ids)
    expected.insert(expected.end(), table.begin() + id * row_bytes, table.begin() + (id + 1) * row_bytes);
  EXPECT_EQ(out, expected);
  const tiergraph::FeatureStoreStats s = store.stats();
  EXPECT_EQ(s.gpu_rows, 10u);
  EXPECT_EQ(s.peer_rows, 30u);
  EXPECT_EQ(s.host_rows, 60u);
  EXPECT_EQ(s.gpu_hits, 2u);
  EXPECT_EQ(s.peer_hits, 4u);
  EXPECT_EQ(s.host_hits, 2u);
  EXPECT_EQ(s.peer_bytes, 4 * row_bytes);
  EXPECT_NE(store.description().find("30 interleaved over peer GPUs 2, 1"), std::string::npos)
      << store.description();
  store.reset_stats();
  EXPECT_EQ(store.stats().peer_hits, 0u);
}

// The matrix is read in place (a GPU store registers it; a CPU store indexes
// it), and the store says so: a write after construction is seen.
TEST(ApiFeatureStore, ReadsTheMatrixInPlaceAndSaysSo) {
  const uint64_t rows = 1 << 14, row_bytes = 64;  // 1 MiB, a mapping of its own
  std::vector<uint8_t> table(rows * row_bytes, 1);
  tiergraph::FeatureStoreOptions o;  // where "auto": on the GPU where there is one
  tiergraph::FeatureStore store(table.data(), rows, row_bytes, nullptr, o);
  EXPECT_TRUE(store.host_rows_in_place()) << store.description();
  EXPECT_EQ(store.description().find("read in place") != std::string::npos, store.on_gpu()) << store.description();
  table[7 * row_bytes] = 9;
  const int64_t id = 7;
  std::vector<uint8_t> out(row_bytes);
  store.gather(&id, 1, out.data());
  EXPECT_EQ(out[0], 9);
}

// Unset peers on a CPU store: none, and the description says where the
// peer fraction's rows went; not an error.
TEST(ApiFeatureStore, APeerFractionWithoutPeersLeavesItsRowsInHostMemory) {
  std::vector<float> features(10 * 3);
  tiergraph::FeatureStoreOptions o = on_cpu(0.2);
  o.peer_fraction = 0.5;
  tiergraph::FeatureStore store(features.data(), 10, 12, nullptr, o);
  EXPECT_TRUE(store.peers().empty());
  EXPECT_EQ(store.stats().peer_rows, 0u);
  EXPECT_EQ(store.stats().host_rows, 8u);
  const std::string d = store.description();
  EXPECT_NE(d.find("peer_fraction 0.5 has no peer GPU"), std::string::npos) << d;
  EXPECT_EQ(d.find('\n'), std::string::npos) << d;
  o.peers = std::vector<int>{};
  EXPECT_NE(tiergraph::FeatureStore(features.data(), 10, 12, nullptr, o).description().find("peers=[] given"),
            std::string::npos);
}

tiergraph::ErrorKind kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const tiergraph::Error& e) {
    return e.kind();
  }
  ADD_FAILURE() << "no error";
  return tiergraph::ErrorKind::kOther;
}

TEST(ApiFeatureStore, RefusesBadArguments) {
  std::vector<float> features(10 * 3);
  const auto make = [&](const tiergraph::FeatureStoreOptions& o, const tiergraph::Graph* g = nullptr) {
    return [&features, o, g] { tiergraph::FeatureStore(features.data(), 10, 12, g, o); };
  };
  EXPECT_EQ(kind_of(make(on_cpu(-0.5))), tiergraph::ErrorKind::kUsage);
  EXPECT_EQ(kind_of(make(on_cpu(1.5))), tiergraph::ErrorKind::kUsage);
  EXPECT_EQ(kind_of(make(on_cpu(0.5, "pagerank"))), tiergraph::ErrorKind::kUsage);
  tiergraph::FeatureStoreOptions where = on_cpu();
  where.where = "tpu";
  EXPECT_EQ(kind_of(make(where)), tiergraph::ErrorKind::kUsage);
  const std::vector<uint64_t> src = {0}, dst = {1};
  tiergraph::Graph small = tiergraph::from_edges(src.data(), dst.data(), 1, nullptr, 2);
  EXPECT_EQ(kind_of(make(on_cpu(0.5), &small)), tiergraph::ErrorKind::kUsage);
  tiergraph::FeatureStoreOptions peers = on_cpu(0.5);
  peers.peer_fraction = 0.6;  // 1.1 together
  EXPECT_EQ(kind_of(make(peers)), tiergraph::ErrorKind::kUsage);
  peers.peer_fraction = -0.1;
  EXPECT_EQ(kind_of(make(peers)), tiergraph::ErrorKind::kUsage);
  peers.peer_fraction = 0.2;
  for (const std::vector<int>& bad : {std::vector<int>{-1}, {1, 1}, {0}}) {  // 0 is the store's own device
    peers.peers = bad;
    EXPECT_EQ(kind_of(make(peers)), tiergraph::ErrorKind::kUsage);
  }
  tiergraph::FeatureStore store(features.data(), 10, 12, nullptr, on_cpu());
  std::vector<float> out(3);
  const int64_t too_big = 10, negative = -2;
  EXPECT_EQ(kind_of([&] { store.gather(&too_big, 1, out.data()); }), tiergraph::ErrorKind::kUsage);
  EXPECT_EQ(kind_of([&] { store.gather(&negative, 1, out.data()); }), tiergraph::ErrorKind::kUsage);
  EXPECT_EQ(store.stats().gathers, 0u);
  // A CPU store has no GPU side to gather into: usage, as a CPU sampler's sample_into (was kOther).
  const int64_t one = 1;
  EXPECT_EQ(kind_of([&] { store.gather_to_device(&one, 1); }), tiergraph::ErrorKind::kUsage);
  // A matrix whose size wraps past 2^64 (2^62 rows of 4 bytes: 0 bytes), train ids without a graph or past
  // the rows.
  EXPECT_EQ(kind_of([&] { tiergraph::FeatureStore(features.data(), uint64_t{1} << 62, 4, nullptr, on_cpu()); }),
            tiergraph::ErrorKind::kUsage);
  tiergraph::FeatureStoreOptions train = on_cpu();
  train.train_ids = {3};
  EXPECT_EQ(kind_of(make(train)), tiergraph::ErrorKind::kUsage);
  const std::vector<uint64_t> ring_src = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, ring_dst = {1, 2, 3, 4, 5, 6, 7, 8, 9, 0};
  tiergraph::Graph ring = tiergraph::from_edges(ring_src.data(), ring_dst.data(), 10, nullptr, 10);
  train.train_ids = {10};
  EXPECT_EQ(kind_of(make(train, &ring)), tiergraph::ErrorKind::kUsage);
}

// A moved-from store holds nothing: every use is a usage error (each dereferenced null).
TEST(ApiFeatureStore, AMovedFromStoreIsRefused) {
  std::vector<float> features(10 * 3, 1.0f);
  tiergraph::FeatureStore store(features.data(), 10, 12, nullptr, on_cpu());
  tiergraph::FeatureStore moved = std::move(store);
  EXPECT_EQ(moved.num_rows(), 10u);
  std::vector<float> out(3);
  const int64_t id = 1;
  EXPECT_EQ(kind_of([&] { store.gather(&id, 1, out.data()); }), tiergraph::ErrorKind::kUsage);
  EXPECT_EQ(kind_of([&] { store.stats(); }), tiergraph::ErrorKind::kUsage);
  EXPECT_EQ(kind_of([&] { store.reset_stats(); }), tiergraph::ErrorKind::kUsage);
  EXPECT_EQ(kind_of([&] { store.num_rows(); }), tiergraph::ErrorKind::kUsage);
  EXPECT_EQ(kind_of([&] { store.description(); }), tiergraph::ErrorKind::kUsage);
  EXPECT_EQ(kind_of([&] { store.gather_to_device(&id, 1); }), tiergraph::ErrorKind::kUsage);
  store = std::move(moved);  // and back: it works again
  store.gather(&id, 1, out.data());
  EXPECT_EQ(out[0], 1.0f);
}

}  // namespace
