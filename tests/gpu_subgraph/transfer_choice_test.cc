// The per-iteration transfer choice, rate meters and records (transfer_choice.h).
#include "engines/gpu/subgraph/transfer_choice.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace tg::subgraph {
namespace {

IterationShape shape(uint64_t active_edges, uint64_t total_edges = 1000, uint64_t active_vertices = 10) {
  IterationShape s;
  s.vertices = 100;
  s.total_edges = total_edges;
  s.active_vertices = active_vertices;
  s.active_edges = active_edges;
  return s;
}

TEST(TransferChoice, ThresholdIsStrict) {
  ChoiceParams p;  // Subway's 80%
  EXPECT_EQ(choose_transfer(shape(800), TransferRates{}, p).transfer == Transfer::kStream, false);
  EXPECT_EQ(choose_transfer(shape(801), TransferRates{}, p).transfer, Transfer::kStream);
  EXPECT_EQ(choose_transfer(shape(1000), TransferRates{}, p).transfer, Transfer::kStream);
  EXPECT_NE(choose_transfer(shape(0), TransferRates{}, p).transfer, Transfer::kStream);
  TransferChoice c = choose_transfer(shape(801), TransferRates{}, p);
  EXPECT_DOUBLE_EQ(c.active_edge_fraction, 0.801);
  EXPECT_NE(c.reason.find("80.1%"), std::string::npos) << c.reason;
}

// Where the GPU way reads packed lists, the threshold weighs their bytes:
// 90% of the edges active at 0.42 of the bytes is 37.8%, under 80%; the CPU
// way copies them plain and streams.
TEST(TransferChoice, ThresholdWeighsPackedBytesOnTheGpuWay) {
  ChoiceParams p;
  IterationShape s = shape(900);
  s.packed_fraction = 0.42;
  p.gather = GatherWay::kGpu;
  TransferChoice c = choose_transfer(s, TransferRates{}, p);
  EXPECT_EQ(c.transfer, Transfer::kSubgraphGpuGather);
  EXPECT_NE(c.reason.find("37.8%"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("packed"), std::string::npos) << c.reason;
  EXPECT_EQ(choose_transfer(shape(900), TransferRates{}, p).transfer, Transfer::kStream);
  p.gather = GatherWay::kCpu;
  EXPECT_EQ(choose_transfer(s, TransferRates{}, p).transfer, Transfer::kStream);
  // The GPU way's estimate counts the packed bytes.
  IterationShape big = shape(100000000, 1000000000, 10);
  const double plain = estimate_transfer(big, TransferRates{}).subgraph_gpu_s;
  big.packed_fraction = 0.5;
  EXPECT_LT(estimate_transfer(big, TransferRates{}).subgraph_gpu_s, 0.6 * plain);
}

TEST(TransferChoice, ThresholdIsAParameter) {
  ChoiceParams p;
  p.stream_threshold = 0.25;
  EXPECT_EQ(choose_transfer(shape(251), TransferRates{}, p).transfer, Transfer::kStream);
  EXPECT_NE(choose_transfer(shape(250), TransferRates{}, p).transfer, Transfer::kStream);
  p.stream_threshold = 1.0;  // never stream
  EXPECT_NE(choose_transfer(shape(1000), TransferRates{}, p).transfer, Transfer::kStream);
  p.stream_threshold = 0.0;  // stream whenever anything is active
  EXPECT_EQ(choose_transfer(shape(1), TransferRates{}, p).transfer, Transfer::kStream);
  EXPECT_NE(choose_transfer(shape(0), TransferRates{}, p).transfer, Transfer::kStream);
}

TEST(TransferChoice, StreamCanBeDisallowed) {
  ChoiceParams p;
  p.allow_stream = false;
  EXPECT_NE(choose_transfer(shape(1000), TransferRates{}, p).transfer, Transfer::kStream);
  p.rule = ChoiceRule::kCostModel;
  EXPECT_NE(choose_transfer(shape(1000), TransferRates{}, p).transfer, Transfer::kStream);
}

TEST(TransferChoice, GraphWithoutEdges) {
  TransferChoice c = choose_transfer(shape(0, 0, 0), TransferRates{}, ChoiceParams{});
  EXPECT_EQ(c.active_edge_fraction, 0.0);
  EXPECT_NE(c.transfer, Transfer::kStream);
}

TEST(TransferChoice, BadInputsAreClearErrors) {
  ChoiceParams p;
  p.stream_threshold = 1.5;
  EXPECT_THROW(choose_transfer(shape(1), TransferRates{}, p), Error);
  p.stream_threshold = -0.1;
  EXPECT_THROW(choose_transfer(shape(1), TransferRates{}, p), Error);
  EXPECT_THROW(choose_transfer(shape(1001), TransferRates{}, ChoiceParams{}), Error);
  EXPECT_THROW(choose_transfer(shape(10, 1000, 101), TransferRates{}, ChoiceParams{}), Error);
}

TEST(TransferChoice, GatherPreference) {
  ChoiceParams p;
  TransferRates slow_cpu;
  slow_cpu.cpu_gather = 1e9;
  TransferRates slow_gpu;
  slow_gpu.gpu_gather = 1e9;
  slow_gpu.gpu_gather_lists = 1e3;
  IterationShape s = shape(100000000, 1000000000, 10000);
  s.vertices = 1 << 20;
  EXPECT_EQ(choose_transfer(s, slow_cpu, p).transfer, Transfer::kSubgraphGpuGather);
  EXPECT_EQ(choose_transfer(s, slow_gpu, p).transfer, Transfer::kSubgraphCpuGather);
  p.gather = GatherWay::kCpu;
  EXPECT_EQ(choose_transfer(s, slow_cpu, p).transfer, Transfer::kSubgraphCpuGather);
  p.gather = GatherWay::kGpu;
  EXPECT_EQ(choose_transfer(s, slow_gpu, p).transfer, Transfer::kSubgraphGpuGather);
}

TEST(TransferChoice, CostModelPicksTheCheapest) {
  ChoiceParams p;
  p.rule = ChoiceRule::kCostModel;
  TransferRates r;
  r.cpu_gather = 5e9;   // a slow host gather
  r.gpu_gather = 10e9;  // and a slow zero-copy gather
  // Nearly everything active: copying whole partitions at link speed wins.
  IterationShape dense = shape(0, uint64_t{1} << 30, 1 << 20);
  dense.vertices = 1 << 22;
  dense.active_edges = (uint64_t{1} << 30) - 1000;
  EXPECT_EQ(choose_transfer(dense, r, p).transfer, Transfer::kStream);
  // A thin frontier: the subgraph wins by far.
  IterationShape thin = dense;
  thin.active_vertices = 100;
  thin.active_edges = 5000;
  EXPECT_NE(choose_transfer(thin, r, p).transfer, Transfer::kStream);
  EXPECT_NE(choose_transfer(thin, r, p).reason.find("cost model"), std::string::npos);
  // Zero-copy only when allowed.
  EXPECT_NE(choose_transfer(thin, r, p).transfer, Transfer::kZeroCopy);
  p.allow_zero_copy = true;
  EXPECT_EQ(choose_transfer(thin, r, p).transfer, Transfer::kZeroCopy);
}

TEST(EstimateTransfer, BytesAndMonotonicity) {
  TransferRates r;
  IterationShape s = shape(100, 1000, 10);
  s.weights = true;
  TransferEstimate e = estimate_transfer(s, r);
  EXPECT_EQ(e.stream_bytes, 1000u * 8);
  EXPECT_EQ(e.subgraph_bytes, 100u * 8 + 10u * 12);
  s.stream_edges = 300;  // PT-Opt copies only active, non-resident partitions
  EXPECT_EQ(estimate_transfer(s, r).stream_bytes, 300u * 8);
  // Large enough that bytes, not the per-list floor, decide.
  IterationShape big = shape(1000000, 1000000000, 10);
  IterationShape more = big;
  more.active_edges = 900000000;
  EXPECT_GT(estimate_transfer(more, r).subgraph_cpu_s, estimate_transfer(big, r).subgraph_cpu_s);
  EXPECT_GT(estimate_transfer(more, r).subgraph_gpu_s, estimate_transfer(big, r).subgraph_gpu_s);
  // Many short lists: the per-list floor of the zero-copy gather decides.
  IterationShape scattered = shape(1000, 1000000000, 90);
  scattered.vertices = 1000;
  IterationShape fewer = scattered;
  fewer.active_vertices = 10;
  EXPECT_GT(estimate_transfer(scattered, r).subgraph_gpu_s, estimate_transfer(fewer, r).subgraph_gpu_s);
}

TEST(RateMeter, PriorUntilMeasuredThenTheWindow) {
  RateMeter m(100, 2);
  EXPECT_EQ(m.rate(7.0), 7.0);
  m.add(50, 1.0);  // too small to count
  EXPECT_EQ(m.samples(), 0u);
  m.add(1000, 0);  // no time: ignored
  EXPECT_EQ(m.rate(7.0), 7.0);
  m.add(1000, 1.0);
  EXPECT_DOUBLE_EQ(m.rate(7.0), 1000.0);
  m.add(3000, 1.0);
  EXPECT_DOUBLE_EQ(m.rate(7.0), 2000.0);
  m.add(5000, 1.0);  // the first sample leaves the window
  EXPECT_DOUBLE_EQ(m.rate(7.0), 4000.0);
  EXPECT_EQ(m.samples(), 3u);
}

TEST(TransferMeters, MeasuredRatesReplacePriors) {
  TransferMeters meters;
  meters.cpu_gather.add(double(1 << 30), 0.1);
  TransferRates prior;
  TransferRates r = meters.rates(prior);
  EXPECT_DOUBLE_EQ(r.cpu_gather, double(1 << 30) / 0.1);
  EXPECT_EQ(r.link, prior.link);
  EXPECT_EQ(r.gpu_gather, prior.gpu_gather);
}

TEST(IterationRecords, Summary) {
  std::vector<IterationRecord> records(3);
  records[0].choice.transfer = Transfer::kStream;
  records[0].bytes_copied = 100;
  records[0].inner_iterations = 3;
  records[1].choice.transfer = Transfer::kSubgraphCpuGather;
  records[1].bytes_copied = 10;
  records[1].generate_s = 0.5;
  records[2].choice.transfer = Transfer::kSubgraphCpuGather;
  records[2].bytes_copied = 1;
  records[1].push_s = 0.25;
  records[2].push_s = 0.5;
  records[2].load_wait_s = 0.125;
  nlohmann::json j = summarize(records);
  EXPECT_EQ(j["outer_iterations"], 3);
  EXPECT_EQ(j["inner_iterations"], 5);
  EXPECT_EQ(j["bytes_copied"], 111);
  EXPECT_DOUBLE_EQ(j["generate_s"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["push_s"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(j["load_wait_s"].get<double>(), 0.125);
  EXPECT_DOUBLE_EQ(j["iterations"][2]["load_wait_s"].get<double>(), 0.125);
  EXPECT_EQ(j["iterations_by_transfer"]["stream"], 1);
  EXPECT_EQ(j["iterations_by_transfer"]["subgraph-cpu"], 2);
  EXPECT_EQ(j["iterations"].size(), 3u);
  EXPECT_EQ(j["iterations"][0]["transfer"], "stream");
}

TEST(TransferNames, AllDistinct) {
  EXPECT_STREQ(transfer_name(Transfer::kSubgraphCpuGather), "subgraph-cpu");
  EXPECT_STREQ(transfer_name(Transfer::kSubgraphGpuGather), "subgraph-gpu");
  EXPECT_STREQ(transfer_name(Transfer::kStream), "stream");
  EXPECT_STREQ(transfer_name(Transfer::kZeroCopy), "zerocopy");
}

}  // namespace
}  // namespace tg::subgraph
