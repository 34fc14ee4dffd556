// The streamed placements, subgraph and stream (Subway, docs/SUBWAY.md),
// against the CPU engine and the verifiers: every algorithm of the registry
// x variant (subgraph with GPU or CPU gather, subgraph streaming every
// iteration, PT, PT-Opt, --async) x vertex id width, on the support shapes
// (directed with its CSC and undirected), each with a budget so small that
// SubCSRs are cut into many pieces, hub lists are split and the graph into
// many partitions, and with the default budget (one piece). The shapes give
// empty frontiers (a source without out-edges), one vertex, and every vertex
// (cc). Device allocations are poisoned (gpu_checks.h). Where no GPU is
// usable every test is skipped.
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "algorithms/cc.h"
#include "core/error.h"
#include "formats/load_graph.h"
#include "graph/builder.h"
#include "gpu/gpu_checks.h"

namespace tg::test::gpu {
namespace {

struct Variant {
  std::string name;
  Placement placement;
  bool async = false;
  StreamMode stream_mode = StreamMode::kPtOpt;
  double threshold = 0.8;
  GatherWay gather = GatherWay::kAuto;
  bool default_budget_too = false;  // also run with the default (large) budget
};

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {
      {"subgraph_gpu", Placement::kSubgraph, false, StreamMode::kPtOpt, 0.8, GatherWay::kGpu, true},
      {"subgraph_cpu", Placement::kSubgraph, false, StreamMode::kPtOpt, 0.8, GatherWay::kCpu, false},
      {"subgraph_always_stream", Placement::kSubgraph, false, StreamMode::kPtOpt, 0.0, GatherWay::kAuto, false},
      {"subgraph_async", Placement::kSubgraph, true, StreamMode::kPtOpt, 0.8, GatherWay::kCpu, true},
      {"stream_pt", Placement::kStream, false, StreamMode::kPt, 0.8, GatherWay::kAuto, false},
      {"stream_pt_opt", Placement::kStream, false, StreamMode::kPtOpt, 0.8, GatherWay::kAuto, true},
      {"stream_async", Placement::kStream, true, StreamMode::kPtOpt, 0.8, GatherWay::kAuto, false},
  };
  return v;
}

GpuOptions options_of(const Variant& v, uint64_t budget) {
  GpuOptions o;
  o.placement = v.placement;
  o.async = v.async;
  o.stream_mode = v.stream_mode;
  o.stream_threshold = v.threshold;
  o.gather = v.gather;
  o.memory_budget = budget;
  return o;
}

// The edge-buffer budget that cuts these graphs finely: an eighth of the edge
// array, at least the PT-Opt minimum (8 slots of 64 edges of 12 bytes).
uint64_t tiny_budget(const AnyGraph& g) { return std::max<uint64_t>(8192, num_edges(g) * 12 / 8); }

// A knob of the environment set for one test, and unset after it.
struct EnvSet {
  EnvSet(const char* name, const char* value) : name(name) { setenv(name, value, 1); }
  ~EnvSet() { unsetenv(name); }
  const char* name;
};

// A light round of SSSP's split over light lists (its reason says so).
bool light_round(const subgraph::IterationRecord& rec) { return rec.choice.reason.rfind("a light band", 0) == 0; }

// A push of each list's first entries (CC's sample; its reason says so:
// StreamedSource::pushes_heads): read in place over zero-copy, or with
// TG_HEADS_GATHER=1 on the subgraph placement gathered by the CPU into a SubCSR.
bool pushes_heads(const subgraph::IterationRecord& rec) {
  const bool heads = rec.choice.reason.rfind("the first ", 0) == 0;
  if (heads)
    EXPECT_TRUE(rec.choice.transfer == subgraph::Transfer::kZeroCopy ||
                rec.choice.transfer == subgraph::Transfer::kSubgraphCpuGather) << rec.choice.reason;
  return heads;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

void check(const AnyGraph& graph, const std::vector<RunRequest>& requests, const Variant& v, uint64_t budget,
           const std::string& what) {
  if (requests.empty()) return;
  const std::string where = what + ", budget " + std::to_string(budget);
  std::vector<RunOutput> gpu = run_batch_on_gpu(graph, requests, options_of(v, budget));
  SCOPED_TRACE("budget " + std::to_string(budget));
  expect_as_on_cpu(graph, requests, gpu, what);
  for (size_t i = 0; i < gpu.size(); ++i) {
    SCOPED_TRACE(where + ", " + requests[i].algorithm->name());
    EXPECT_EQ(gpu[i].placement, v.placement);
    const RunStats& st = gpu[i].stats;
    // Every entry a kernel read was copied (or gathered) into device memory
    // first; --async reads loaded lists again without copying them. PT-Opt
    // keeps its first partitions resident (copied once, read often). A
    // gather (pagerank without --async) streams the in-edges on both
    // placements: PT for stream pt, otherwise PT-Opt.
    AlgorithmOptions forms = requests[i].options;
    forms.accumulative = forms.accumulative || v.async;
    const EdgeReads reads = requests[i].algorithm->reads(forms);
    const bool gather = reads.out_edges == Need::kNo;
    const bool pt = v.placement == Placement::kStream && v.stream_mode == StreamMode::kPt;
    const bool resident = (v.placement == Placement::kStream && v.stream_mode == StreamMode::kPtOpt) || (gather && !pt);
    ASSERT_TRUE(st.stream.has_value());
    const StreamStats& s = *st.stream;
    // Packed in-lists (graph/packed_lists.h) move fewer bytes than the lists
    // they hold: PT copies them whole every iteration.
    const bool packed = s.gather_lists == "packed";
    EXPECT_EQ(packed, gather && st.gpu->packed_lists.has_value() && vertex_id_bytes(graph) == 4) << s.gather_lists;
    const uint64_t whole = packed ? st.gpu->packed_lists->bytes : std::max<uint64_t>(1, num_edges(graph));
    // Subgraph pushes over packed out-lists move fewer bytes than they read.
    const bool packed_push = s.packed_pieces > 0;
    if (packed_push)
      EXPECT_TRUE(!gather && v.placement == Placement::kSubgraph && st.gpu->packed_lists.has_value() &&
                  vertex_id_bytes(graph) == 4 &&
                  std::any_of(s.iterations.begin(), s.iterations.end(), [](const auto& r) {
                    return r.choice.transfer == subgraph::Transfer::kSubgraphGpuGather;
                  }));
    // SSSP's light rounds push the light lists where they lie in GPU memory
    // (copied once when placed), so their entries cross no link at all.
    const bool light_in_place = std::any_of(s.iterations.begin(), s.iterations.end(), [](const auto& r) {
      return r.choice.transfer == subgraph::Transfer::kResident;
    });
    if (light_in_place) EXPECT_TRUE(st.gpu->light_lists.has_value() && st.gpu->light_lists->resident);
    // CC's sample pushes the first entries of each list (a step of its own,
    // not streamed), from the heads cache in GPU memory where the placement
    // holds one: a batch of CC's sample alone (batch_reads) on an undirected
    // graph, not --async, whose heads fit half the budget (always the
    // default's, where the graph has edges).
    const std::optional<EdgeCacheStats>& cache = st.gpu->edge_cache;
    const bool directed = std::visit([](const auto& g) { return g.directed; }, graph);
    const bool cc_pushes_heads = !directed && !v.async && std::all_of(requests.begin(), requests.end(), [](const auto& r) {
      return r.algorithm->reads(r.options).pushed_heads > 0;
    });
    if (cache) {
      EXPECT_TRUE(cc_pushes_heads);
      EXPECT_EQ(cache->heads, kCcSampleHeads);
      EXPECT_EQ(cache->lists, 0u);
      EXPECT_EQ(cache->bytes % (num_vertices(graph) * kCcSampleHeads), 0u);
    }
    if (cc_pushes_heads && budget == 0 && num_edges(graph) > 0) EXPECT_TRUE(cache.has_value());
    const bool heads_cached = cache && cache->heads > 0;
    if (!v.async && !resident && !packed && !packed_push && !light_in_place &&
        !(heads_cached && requests[i].algorithm->name() == "cc"))
      EXPECT_GE(st.bytes_moved, st.bytes_needed);
    uint64_t copied = 0, inner = 0, units = 0, streamed = 0, streamed_bytes = 0, heads = 0;
    for (const subgraph::IterationRecord& r : s.iterations) {
      copied += r.bytes_copied;
      inner += r.inner_iterations;
      units += r.units;
      streamed += r.choice.transfer == subgraph::Transfer::kStream;
      if (r.choice.transfer == subgraph::Transfer::kStream) streamed_bytes += r.bytes_copied;
      const bool of_heads = pushes_heads(r);
      heads += of_heads;
      if (of_heads) EXPECT_EQ(requests[i].algorithm->name(), "cc");
      if (of_heads && (std::getenv("TG_HEADS_GATHER") == nullptr || heads_cached))
        EXPECT_EQ(r.choice.transfer, subgraph::Transfer::kZeroCopy) << v.name;
      if (of_heads && heads_cached) EXPECT_EQ(r.bytes_copied, 0u) << "the heads come from the cache: " << r.choice.reason;
      // Pushes and load waits are parts of the round, timed inside it; a
      // streamed round times neither.
      EXPECT_LE(r.push_s + r.load_wait_s, r.compute_s * 1.001 + 1e-6);
      if (r.choice.transfer == subgraph::Transfer::kStream) EXPECT_EQ(r.push_s + r.load_wait_s, 0.0);
      if (r.units > 0 && r.choice.transfer != subgraph::Transfer::kStream && !v.async) EXPECT_GT(r.push_s, 0.0);
    }
    const uint64_t steps = gather ? st.iterations : st.push_steps;
    EXPECT_EQ(copied, st.bytes_moved);
    EXPECT_EQ(s.iterations.size(), steps);
    EXPECT_GE(inner, units);
    EXPECT_EQ(st.pull_steps, 0u);
    if (v.placement == Placement::kStream || gather) EXPECT_EQ(streamed + heads, steps);
    // PT copies the whole edge array every streamed iteration.
    if (pt && steps > 0) EXPECT_EQ(streamed_bytes % std::max<uint64_t>(1, whole), 0u);
  }
}

using Param = std::tuple<size_t, bool, std::string>;
class SubwayMatrix : public ::testing::TestWithParam<Param> {};

TEST_P(SubwayMatrix, MatchesCpuOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const auto& [vi, ids64, name] = GetParam();
  const Variant& v = variants()[vi];
  const AlgorithmInfo& a = algorithm(name);
  uint64_t seed = 1;
  for (const std::string& shape : gpu_shapes())
    for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
      AnyGraph graph = gpu_graph(shape, a, o, ids64);
      ASSERT_EQ(vertex_id_bytes(graph), ids64 ? 8 : 4);
      const std::vector<RunRequest> requests = gpu_requests(graph, a, seed++);
      const std::string what = shape + ", " + orientation_name(o);
      check(graph, requests, v, tiny_budget(graph), what);
      if (v.default_budget_too) check(graph, requests, v, 0, what);
    }
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  return std::get<2>(info.param) + "_" + variants()[std::get<0>(info.param)].name +
         (std::get<1>(info.param) ? "_v64" : "_v32");
}

INSTANTIATE_TEST_SUITE_P(Subway, SubwayMatrix,
                         ::testing::Combine(::testing::Range<size_t>(0, 7), ::testing::Bool(),
                                            ::testing::ValuesIn(algorithm_names())),
                         param_name);

// cc's Shiloach-Vishkin rounds (the matrix runs the default form, which on
// these push-only placements links every edge once).
TEST(SubwayCc, ShiloachVishkinOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& cc = algorithm("cc");
  AlgorithmOptions sv;
  sv.cc_method = CcMethod::kShiloachVishkin;
  for (const Variant& v : variants())
    for (const std::string& shape : gpu_shapes()) {
      AnyGraph graph = gpu_graph(shape, cc, Orientation::kUndirected, false);
      check(graph, gpu_requests(graph, cc, 1, sv), v, tiny_budget(graph), shape + ", sv " + v.name);
    }
}

TEST(SubwayKron, AllVariantsOnKron14) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  LoadOptions lo;
  lo.build.random_weights = WeightRange{1, 255};
  lo.build.in_edges = true;
  AnyGraph graph = load_graph("kron:14", lo);
  std::vector<RunRequest> requests;
  for (const AlgorithmInfo* a : all_algorithms())
    for (const RunRequest& r : gpu_requests(graph, *a, 3)) requests.push_back(r);
  // One algorithm at a time, as bench does (a streamed source is set up for
  // what its run reads), with a quarter of the edge bytes.
  for (const Variant& v : variants())
    for (const RunRequest& r : requests) {
      SCOPED_TRACE(v.name);
      check(graph, {r}, v, num_edges(graph) * 8 / 4, "kron:14");
    }
}

// PageRank over packed in-lists (graph/packed_lists.h) on both streamed
// placements, PT and PT-Opt, at a quarter and at the whole budget: the CPU's
// ranks, the packed path taken (lists of every pass: a thread's, a warp's,
// chunks of hubs), fewer bytes moved than with the plain lists, and with
// --packed-lists off the plain path.
TEST(SubwayPacked, PageRankOverPackedListsMovesFewerBytes) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& pr = algorithm("pagerank");
  for (const std::string spec : {"kron:14", "urand:13"}) {
    LoadOptions lo;
    lo.build.in_edges = true;
    AnyGraph graph = load_graph(spec, lo);
    const RunRequest r = prepare_request(graph, make_request(pr));
    for (size_t vi : {1, 4, 5})
      for (uint64_t budget : {num_edges(graph) * 4 / 4, uint64_t{0}}) {
        const Variant& v = variants()[vi];
        SCOPED_TRACE(spec + ", " + v.name + ", budget " + std::to_string(budget));
        check(graph, {r}, v, budget, spec);
        const RunOutput on = run_on_gpu(graph, r, options_of(v, budget));
        GpuOptions off_options = options_of(v, budget);
        off_options.packed_lists = PackedListsMode::kOff;
        const RunOutput off = run_on_gpu(graph, r, off_options);
        ASSERT_TRUE(on.stats.gpu->packed_lists.has_value());
        EXPECT_EQ(on.stats.stream->gather_lists, "packed");
        EXPECT_GT(on.stats.gpu->packed_lists->ratio(), 1.2);
        EXPECT_FALSE(off.stats.gpu->packed_lists.has_value());
        EXPECT_EQ(off.stats.stream->gather_lists, "plain");
        EXPECT_EQ(on.stats.iterations, off.stats.iterations);
        if (budget > 0 || v.stream_mode == StreamMode::kPt) EXPECT_LT(on.stats.bytes_moved, off.stats.bytes_moved);
        expect_as_on_cpu(graph, {r}, std::vector<RunOutput>{off}, spec + " off");
      }
  }
}

// Two sources that reach edges: the vertex of the longest out-list, and the
// source of an edge drawn at random.
std::vector<uint64_t> sources_with_edges(const AnyGraph& graph, uint64_t seed) {
  return std::visit(
      [&](const auto& g) {
        uint64_t hub = 0;
        for (uint64_t v = 0; v < g.num_vertices; ++v)
          if (g.out.degree(v) > g.out.degree(hub)) hub = v;
        const eid_t e = std::mt19937_64(seed)() % g.num_edges();
        const eid_t* o = g.out.offsets.data();
        const uint64_t other = std::upper_bound(o, o + g.num_vertices + 1, e) - o - 1;
        return std::vector<uint64_t>{hub, other};
      },
      graph);
}

// The subgraph placement's pushes over packed out-lists (the GPU way reads
// them packed, ids as gaps and weights as bytes, and decodes them into the
// piece's buffers): the same answers as the CPU's and as the plain lists',
// in fewer bytes over the link; weights past 255 keep the weighted runs
// plain. (Iterations may differ: a push step sees the updates of the lists
// pushed before it in the same step, whose order the packing changes.)
TEST(SubwayPacked, PushesOverPackedListsMoveFewerBytes) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  for (const std::string spec : {"kron:14", "urand:13"})
    for (bool whole_weights : {true, false}) {
      LoadOptions lo;
      lo.build.random_weights = whole_weights ? WeightRange{1, 255} : WeightRange{200, 400};
      AnyGraph graph = load_graph(spec, lo);
      for (const std::string name : {"bfs", "sssp", "sswp", "ssnsp"}) {
        const AlgorithmInfo& a = algorithm(name);
        const bool weighted = name == "sssp" || name == "sswp";
        for (uint64_t source : sources_with_edges(graph, 5))
          for (uint64_t budget : {num_edges(graph) * 8 / 4, num_edges(graph) * 8 / 40}) {
            const RunRequest r = prepare_request(graph, make_request(a, {source}));
            const std::string what = spec + (whole_weights ? ", weights 1..255" : ", weights 200..400");
            SCOPED_TRACE(what + ", " + name + " from " + std::to_string(source) + ", budget " + std::to_string(budget));
            GpuOptions on_options = options_of(variants()[0], budget);  // subgraph, the GPU way
            on_options.stream_threshold = 1.0;  // every step a SubCSR: packed lists against plain ones
            GpuOptions off_options = on_options;
            off_options.packed_lists = PackedListsMode::kOff;
            const RunOutput on = run_on_gpu(graph, r, on_options);
            const RunOutput off = run_on_gpu(graph, r, off_options);
            expect_as_on_cpu(graph, {r}, std::vector<RunOutput>{on}, what);
            expect_as_on_cpu(graph, {r}, std::vector<RunOutput>{off}, what);
            EXPECT_EQ(off.stats.stream->packed_pieces, 0u);
            EXPECT_GT(off.stats.stream->plain_pieces, 0u);
            if (weighted && !whole_weights) {
              EXPECT_EQ(on.stats.stream->packed_pieces, 0u);
              continue;
            }
            ASSERT_TRUE(on.stats.gpu->packed_lists.has_value());
            EXPECT_EQ(on.stats.gpu->packed_lists->weights, weighted);
            EXPECT_GT(on.stats.gpu->packed_lists->ratio(), weighted ? 1.8 : 1.2);
            EXPECT_GT(on.stats.stream->packed_pieces, 0u);
            EXPECT_LT(on.stats.bytes_moved, off.stats.bytes_moved);
          }
      }
    }
}

// SSSP on the subgraph placement keeps each list's light entries apart
// (EdgeReads::light_below, DeviceGraph::light) where they fit half the
// budget in GPU memory, and splits each bucket over them: the light rounds
// push the resident light lists where they lie. At the picked width (a
// quarter of the mean weight) and a given one; with a budget too small for
// them, no split, unless TG_LIGHT_LISTS=2 (light SubCSRs over the link, cut
// into pieces); weights that do not fit a byte pack nothing and split
// nothing; a checkpointed run does not split (covered by the checkpoint
// tests) and neither does the stream placement, nor a run with
// TG_LIGHT_LISTS=0.
TEST(SubwayPacked, SsspSplitsOverLightLists) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  uint64_t resident_runs = 0, linked_runs = 0;  // both kinds of light lists met
  for (const std::string spec : {"kron:14", "urand:13"})
    for (bool whole_weights : {true, false}) {
      LoadOptions lo;
      lo.build.random_weights = whole_weights ? WeightRange{1, 255} : WeightRange{200, 400};
      AnyGraph graph = load_graph(spec, lo);
      for (double delta : {0.0, 40.0})
        for (uint64_t source : sources_with_edges(graph, 4))
          for (uint64_t budget : {num_edges(graph) * 8 / 4, num_edges(graph) * 8 / 40}) {
            AlgorithmOptions ao;
            ao.delta = delta;
            const RunRequest r = prepare_request(graph, make_request(algorithm("sssp"), {source}, ao));
            const std::string what = spec + (whole_weights ? ", weights 1..255" : ", weights 200..400") + ", delta " +
                                     std::to_string(delta) + ", budget " + std::to_string(budget);
            SCOPED_TRACE(what + ", from " + std::to_string(source));
            GpuOptions o = options_of(variants()[0], budget);  // subgraph, the GPU way
            const RunOutput out = run_on_gpu(graph, r, o);
            expect_as_on_cpu(graph, {r}, std::vector<RunOutput>{out}, what);
            if (!whole_weights) {
              EXPECT_FALSE(out.stats.gpu->light_lists.has_value());
              for (const subgraph::IterationRecord& rec : out.stats.stream->iterations)
                EXPECT_FALSE(light_round(rec)) << rec.choice.reason;
              continue;
            }
            // Kept where they are resident (kLightListsBudgetPercent of the edge buffers' budget at
            // most); past that, only with TG_LIGHT_LISTS=2.
            RunOutput kept;
            if (out.stats.gpu->light_lists.has_value()) {
              EXPECT_TRUE(out.stats.gpu->light_lists->resident);
              EXPECT_EQ(out.stats.gpu->light_lists_left, 0u);
              resident_runs++;
            } else {
              EXPECT_GT(out.stats.gpu->light_lists_left, budget / 2);
              for (const subgraph::IterationRecord& rec : out.stats.stream->iterations)
                EXPECT_FALSE(light_round(rec)) << rec.choice.reason;
              const EnvSet always("TG_LIGHT_LISTS", "2");
              kept = run_on_gpu(graph, r, o);
              expect_as_on_cpu(graph, {r}, std::vector<RunOutput>{kept}, what + ", TG_LIGHT_LISTS=2");
              ASSERT_TRUE(kept.stats.gpu->light_lists.has_value());
              EXPECT_FALSE(kept.stats.gpu->light_lists->resident);
              linked_runs++;
            }
            const RunOutput& split = out.stats.gpu->light_lists.has_value() ? out : kept;
            const bool resident = split.stats.gpu->light_lists->resident;
            // Light rounds push resident light lists where they lie (nothing over the link), and
            // build a SubCSR of them where they are not resident.
            uint64_t light_rounds = 0;
            for (const subgraph::IterationRecord& rec : split.stats.stream->iterations) {
              if (!light_round(rec)) continue;
              light_rounds++;
              if (resident) {
                EXPECT_EQ(rec.choice.transfer, subgraph::Transfer::kResident) << rec.choice.reason;
                EXPECT_EQ(rec.bytes_copied, 0u);
              } else {
                EXPECT_EQ(rec.choice.transfer, subgraph::Transfer::kSubgraphGpuGather) << rec.choice.reason;
              }
            }
            EXPECT_GT(light_rounds, 0u);
            if (resident) {
              // And through a SubCSR of light lists when told not to: the same results.
              const EnvSet built("TG_LIGHT_IN_PLACE", "0");
              const RunOutput via_subcsr = run_on_gpu(graph, r, o);
              expect_as_on_cpu(graph, {r}, std::vector<RunOutput>{via_subcsr}, what + ", TG_LIGHT_IN_PLACE=0");
              uint64_t built_rounds = 0;
              for (const subgraph::IterationRecord& rec : via_subcsr.stats.stream->iterations) {
                EXPECT_NE(rec.choice.transfer, subgraph::Transfer::kResident);
                built_rounds += light_round(rec);
              }
              EXPECT_GT(built_rounds, 0u);
            }
            const double below = delta > 0 ? delta : r.options.delta / 4;
            EXPECT_EQ(split.stats.gpu->light_below, static_cast<weight_t>(below));
            // Weights 1..255 under `below`: about below / 255 of the entries.
            const double share = double(split.stats.gpu->light_lists->entries) / double(num_edges(graph));
            EXPECT_NEAR(share, (below - 1) / 255, 0.03);
            // The stream placement keeps none.
            GpuOptions stream = options_of(variants()[5], budget);
            const RunOutput streamed = run_on_gpu(graph, r, stream);
            expect_as_on_cpu(graph, {r}, std::vector<RunOutput>{streamed}, what + ", stream");
            EXPECT_FALSE(streamed.stats.gpu->light_lists.has_value());
            // Nor a run told not to.
            const EnvSet off("TG_LIGHT_LISTS", "0");
            const RunOutput unsplit = run_on_gpu(graph, r, o);
            expect_as_on_cpu(graph, {r}, std::vector<RunOutput>{unsplit}, what + ", TG_LIGHT_LISTS=0");
            EXPECT_FALSE(unsplit.stats.gpu->light_lists.has_value());
          }
    }
  EXPECT_GT(resident_runs, 0u);
  EXPECT_GT(linked_runs, 0u);
}

// Rounds of few active edges read in place over zero-copy (off unless
// TG_SUBGRAPH_IN_PLACE_BELOW; docs/SUBWAY.md), mixed with SubCSR rounds in
// one run: the results as on the CPU, the in-place rounds' sectors counted
// as bytes moved, and none with --async or where no round is small enough.
TEST(SubwayInPlace, SmallRoundsReadInPlace) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const EnvSet asked("TG_SUBGRAPH_IN_PLACE_BELOW", "2000");
  for (const std::string spec : {"kron:13", "urand:12"}) {
    LoadOptions lo;
    lo.build.random_weights = WeightRange{1, 255};
    AnyGraph graph = load_graph(spec, lo);
    for (const char* name : {"bfs", "sssp", "sswp"})
      for (uint64_t source : sources_with_edges(graph, 2))
        for (size_t variant : {size_t{0}, size_t{1}, size_t{3}}) {  // subgraph: GPU way, CPU way, --async
          const Variant& v = variants()[variant];
          const RunRequest r = prepare_request(graph, make_request(algorithm(name), {source}, {}));
          const std::string what = spec + ", " + name + ", " + v.name;
          SCOPED_TRACE(what + ", from " + std::to_string(source));
          const RunOutput out = run_on_gpu(graph, r, options_of(v, tiny_budget(graph)));
          expect_as_on_cpu(graph, {r}, std::vector<RunOutput>{out}, what);
          const StreamStats& s = *out.stats.stream;
          uint64_t in_place = 0, small = 0, moved = 0;
          for (const subgraph::IterationRecord& rec : s.iterations) {
            moved += rec.bytes_copied;
            const bool read_in_place = rec.choice.transfer == subgraph::Transfer::kZeroCopy;
            in_place += read_in_place;
            // Light rounds (SSSP's split) read the light lists their own way.
            small += rec.shape.active_edges < 2000 && rec.shape.active_vertices < rec.shape.vertices &&
                     !light_round(rec);
            if (read_in_place) {
              EXPECT_LT(rec.shape.active_edges, 2000u);
              EXPECT_EQ(rec.units, 1u);
              EXPECT_GT(rec.push_s, 0.0);
              EXPECT_GE(rec.bytes_copied, rec.shape.active_edges > 0 ? 32u : 0u);
            }
          }
          EXPECT_EQ(moved, out.stats.bytes_moved);
          EXPECT_EQ(in_place, subgraph::summarize(s.iterations)["iterations_by_transfer"].value("zerocopy", uint64_t{0}));
          if (v.async) EXPECT_EQ(in_place, 0u);
          else EXPECT_EQ(in_place, small) << "every small round but an every-vertex one reads in place";
          if (!v.async) EXPECT_GT(in_place, 0u);
        }
  }
}

// A list longer than a partition, packed, would be cut mid-block: such a
// run gathers the plain lists, and says why.
TEST(SubwayPacked, AHubLongerThanAPartitionGathersPlainLists) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  EdgeList el;
  el.num_vertices = 60000;
  for (uint64_t leaf = 1; leaf < el.num_vertices; ++leaf) {
    el.src.push_back(0);
    el.dst.push_back(leaf);
    el.src.push_back(leaf);
    el.dst.push_back((leaf * 7919) % el.num_vertices);
  }
  el.directed = false;
  AnyGraph graph = build_graph(std::move(el), {});
  const RunRequest r = prepare_request(graph, make_request(algorithm("pagerank")));
  const RunOutput out = run_on_gpu(graph, r, options_of(variants()[5], 8192));
  EXPECT_NE(out.stats.stream->gather_lists.find("plain: a packed in-list is longer than a partition"),
            std::string::npos)
      << out.stats.stream->gather_lists;
  expect_as_on_cpu(graph, {r}, std::vector<RunOutput>{out}, "star");
}

TEST(SubwayErrors, OneLineRefusals) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false);
  const RunRequest bfs = prepare_request(g, make_request(algorithm("bfs"), {0}));
  // --async elsewhere than subgraph / stream
  GpuOptions o;
  o.placement = Placement::kDevice;
  o.async = true;
  std::string e = error_of([&] { run_on_gpu(g, bfs, o); });
  EXPECT_NE(e.find("--async needs --placement subgraph or stream"), std::string::npos) << e;
  // a budget under the minimum names the option
  for (Placement p : {Placement::kSubgraph, Placement::kStream}) {
    o = GpuOptions{};
    o.placement = p;
    o.memory_budget = 100;
    e = error_of([&] { run_on_gpu(g, bfs, o); });
    EXPECT_NE(e.find("--gpu-mem"), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(SubwayAccounting, SubgraphMovesLessThanPtOnSparseFrontiers) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = load_graph("kron:14", LoadOptions{});
  const RunRequest bfs = prepare_request(g, make_request(algorithm("bfs"), {0}));
  const uint64_t budget = num_edges(g) * 4 / 4;
  auto moved = [&](const Variant& v) { return run_on_gpu(g, bfs, options_of(v, budget)).stats.bytes_moved; };
  const uint64_t pt = moved(variants()[4]);
  const uint64_t opt = moved(variants()[5]);
  const uint64_t sub = moved(variants()[1]);  // cpu gather: exactly the active lists
  EXPECT_GT(pt, 0u);
  EXPECT_LE(opt, pt);
  EXPECT_LT(sub, pt);
}

// CC's sample by pushes on the streamed placements reads each list's first
// two entries from the heads cache in GPU memory where two planes fit half
// the budget (engines/gpu_footprint.h: streamed_heads_cache): no bytes over
// the link for that step, the CPU's labels; with --edge-cache off, or a
// budget they do not fit half of, over the link in place as before.
TEST(SubwayHeadsCache, CcSampleReadsTheHeadsFromGpuMemory) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = load_graph("kron:14", LoadOptions{});
  ASSERT_FALSE(std::visit([](const auto& x) { return x.directed; }, g));
  const RunRequest cc = prepare_request(g, make_request(algorithm("cc"), {}));
  const uint64_t n = num_vertices(g), heads_bytes = n * 2 * 4;
  const uint64_t quarter = num_edges(g) * 4 / 4;
  ASSERT_LE(heads_bytes, quarter / 2);
  for (size_t variant : {size_t{0}, size_t{1}, size_t{5}}) {  // subgraph GPU and CPU way, stream PT-Opt
    const Variant& v = variants()[variant];
    for (const auto& [budget, cache, cached] : {std::tuple{quarter, EdgeCacheMode::kAuto, true},
                                                std::tuple{quarter, EdgeCacheMode::kOff, false},
                                                std::tuple{2 * heads_bytes - 64, EdgeCacheMode::kAuto, false}}) {
      SCOPED_TRACE(v.name + ", budget " + std::to_string(budget) + (cached ? ", cached" : ", not cached"));
      GpuOptions o = options_of(v, budget);
      o.edge_cache = cache;
      const RunOutput out = run_on_gpu(g, cc, o);
      expect_as_on_cpu(g, {cc}, std::vector<RunOutput>{out}, "kron:14 cc");
      const std::optional<EdgeCacheStats>& c = out.stats.gpu->edge_cache;
      ASSERT_EQ(c.has_value(), cached);
      if (cached) {
        EXPECT_EQ(c->heads, 2);
        EXPECT_EQ(c->bytes, heads_bytes);
        EXPECT_EQ(c->lists, 0u);
        EXPECT_GT(out.stats.cache_bytes_read, 0u);
      }
      int heads_steps = 0;
      for (const subgraph::IterationRecord& r : out.stats.stream->iterations) {
        if (!pushes_heads(r)) continue;
        heads_steps++;
        EXPECT_EQ(r.choice.reason.find("heads cache") != std::string::npos, cached) << r.choice.reason;
        if (cached) EXPECT_EQ(r.bytes_copied, 0u);
        else EXPECT_GT(r.bytes_copied, 0u);
      }
      EXPECT_EQ(heads_steps, 1);
    }
  }
}

// TG_HEADS_GATHER=1 without a heads cache: CC's sample, a push over every
// vertex (a null frontier), gathered into a SubCSR of each list's first two
// entries by the CPU. The builder read the null frontier as a list to sort
// and the run died of an illegal address (session 55, on the H100): no test
// set the variable.
TEST(SubwayHeadsCache, CcSampleGatheredByTheCpuWithoutTheCache) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const EnvSet gathered("TG_HEADS_GATHER", "1");
  const AlgorithmInfo& cc = algorithm("cc");
  for (bool ids64 : {false, true})
    for (const std::string& shape : gpu_shapes()) {
      const AnyGraph graph = gpu_graph(shape, cc, Orientation::kUndirected, ids64);
      const RunRequest r = prepare_request(graph, make_request(cc, {}));
      for (size_t variant : {size_t{0}, size_t{1}})  // subgraph, GPU and CPU way
        for (uint64_t budget : {tiny_budget(graph), uint64_t{0}}) {
          const Variant& v = variants()[variant];
          SCOPED_TRACE(shape + (ids64 ? " v64, " : " v32, ") + v.name + ", budget " + std::to_string(budget));
          GpuOptions o = options_of(v, budget);
          o.edge_cache = EdgeCacheMode::kOff;
          const RunOutput out = run_on_gpu(graph, r, o);
          expect_as_on_cpu(graph, {r}, std::vector<RunOutput>{out}, shape);
          int heads_steps = 0;
          for (const subgraph::IterationRecord& rec : out.stats.stream->iterations) {
            if (!pushes_heads(rec)) continue;
            heads_steps++;
            EXPECT_EQ(rec.choice.transfer, subgraph::Transfer::kSubgraphCpuGather) << rec.choice.reason;
          }
          if (num_edges(graph) > 0) EXPECT_EQ(heads_steps, 1);
        }
    }
}

}  // namespace
}  // namespace tg::test::gpu
