// The planner (src/planner/): profiles read and refused, the footprint
// interpolation, the choices on graphs of the sizes the issue names, and the
// `plan` and `calibrate` commands as a user meets them (no GPU needed).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "algorithms/registry.h"
#include "planner/machine_profile.h"
#include "planner/planner.h"
#include "support/run_program.h"

namespace tg::planner {
namespace {

using test::run_tiergraph;

using test::temp_path;

void expect_error_with(const std::string& path, const std::string& part) {
  try {
    read_profile(path);
    FAIL() << "no error for " << path;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_EQ(e.kind(), ErrorKind::kInput) << e.what();  // exit code 3, as a bad graph file
  }
}

TEST(Profile, WrittenAndReadBack) {
  MachineProfile p = builtin_profile();
  p.link_copy = 33.3e9;
  p.zero_copy_random.points = {{1e6, 5e8}, {1e9, 1e8}};
  const std::string path = temp_path("profile.json");
  write_profile(p, path);
  const MachineProfile q = read_profile(path);
  EXPECT_EQ(q.link_copy, 33.3e9);
  EXPECT_EQ(q.zero_copy_random.points, p.zero_copy_random.points);
  EXPECT_EQ(q.device_random.points, p.device_random.points);
  EXPECT_EQ(q.gpu, p.gpu);
  EXPECT_EQ(q.source, path);
  EXPECT_EQ(q.gpu_uuid, "");  // the built-in profile names no UUID, and its file none
  EXPECT_FALSE(to_json(p).contains("gpu_uuid"));
  p.gpu_uuid = "GPU-68209a72-223a-f111-8746-e4d6c9be2a9c";
  write_profile(p, path);
  EXPECT_EQ(read_profile(path).gpu_uuid, p.gpu_uuid);
  // The forest links' rates, measured by later calibrates, go with the
  // profile where there; a profile without them reads with none.
  EXPECT_TRUE(q.device_links.points.empty());
  p.device_links.points = {{16.8e6, 9e9}, {1.07e9, 3e9}};
  write_profile(p, path);
  EXPECT_EQ(read_profile(path).device_links.points, p.device_links.points);
  // So do the random lines over memory pinned in place (calibrate without --quick, from 2026-12-06).
  EXPECT_TRUE(read_profile(path).zero_copy_random_in_place.points.empty());
  p.zero_copy_random_in_place.points = {{1.07e9, 1.1e8}, {4.29e9, 4.8e7}};
  write_profile(p, path);
  EXPECT_EQ(read_profile(path).zero_copy_random_in_place.points, p.zero_copy_random_in_place.points);
}

TEST(Profile, BadFilesAreRefusedNamingTheField) {
  expect_error_with(temp_path("absent.json"), "cannot open");
  const std::string path = temp_path("bad.json");
  auto write = [&](const std::string& text) { std::ofstream(path) << text; };
  write("not json");
  expect_error_with(path, "not a JSON profile");
  write(R"({"format": "other"})");
  expect_error_with(path, "\"format\"");
  // The built-in profile with one field changed (null: removed), and what the error names.
  const std::vector<std::tuple<std::string, nlohmann::json, std::string>> cases = {
      {"link_copy", nullptr, "\"link_copy\" is missing"},
      {"device_read", -1, "\"device_read\" must be a positive number"},
      {"cpu_gather", "fast", "\"cpu_gather\" is not a number"},
      {"zero_copy_random_lines", {{1e9, 1e8}, {1e6, 5e8}}, "zero_copy_random_lines[1]\": footprints must increase"},
      {"device_forest_links", {{1e6, 0}}, "device_forest_links[0]\" must hold positive numbers"},
      {"zero_copy_random_lines_in_place", {{4e9, 1e8}, {1e9, 5e8}},
       "zero_copy_random_lines_in_place[1]\": footprints must increase"},
      // The descriptive fields may be absent, but not of another type or sign.
      {"gpu", 5, "\"gpu\" is not a string"},
      {"gpu_uuid", false, "\"gpu_uuid\" is not a string"},
      {"gpu_memory_bytes", -5, "\"gpu_memory_bytes\" must be a whole number from 0 to"},
      {"cpu_threads", 1e12, "\"cpu_threads\" must be a whole number from 0 to 4096, not 1000000000000.0"},
  };
  for (const auto& [field, value, error] : cases) {
    nlohmann::json j = to_json(builtin_profile());
    if (value.is_null()) j.erase(field);
    else j[field] = value;
    write(j.dump());
    expect_error_with(path, error);
  }
  nlohmann::json j = to_json(builtin_profile());
  j.erase("gpu");
  j.erase("cpu_threads");
  write(j.dump());
  EXPECT_EQ(read_profile(path).cpu_threads, 0);
}

// A profile measured on another GPU is named in a note that says where to
// calibrate; the same GPU, one that cannot be told apart (no UUID recorded,
// no GPU seen) and the built-in figures say nothing.
TEST(Profile, ANoteWhereTheRunsGpuIsNotTheProfiles) {
  MachineProfile p = builtin_profile();
  p.source = "/tmp/p.json";
  p.gpu = "NVIDIA H100 80GB HBM3";
  p.gpu_uuid = "GPU-aaaaaaaa-0000-0000-0000-000000000000";
  const GpuIdentity same{p.gpu, p.gpu_uuid};
  const GpuIdentity other_card{p.gpu, "GPU-bbbbbbbb-0000-0000-0000-000000000000"};
  const GpuIdentity other_model{"NVIDIA H200", "GPU-cccccccc-0000-0000-0000-000000000000"};
  EXPECT_EQ(profile_note(p, same), "");
  EXPECT_EQ(profile_note(p, GpuIdentity{}), "");  // no GPU seen
  const std::string card = profile_note(p, other_card);
  for (const std::string part : {std::string("/tmp/p.json"), p.gpu_uuid, other_card.uuid, std::string("tiergraph calibrate")})
    EXPECT_NE(card.find(part), std::string::npos) << part << " in " << card;
  const std::string model = profile_note(p, other_model);
  EXPECT_NE(model.find("NVIDIA H200"), std::string::npos) << model;
  EXPECT_NE(model.find(p.gpu), std::string::npos) << model;
  MachineProfile old = p;  // before calibrate recorded the UUID: only the model can differ
  old.gpu_uuid.clear();
  EXPECT_EQ(profile_note(old, other_card), "");
  EXPECT_NE(profile_note(old, other_model), "");
  EXPECT_EQ(profile_note(builtin_profile(), other_model), "");  // the built-in figures say so themselves
  // The plan carries the note into its JSON and its text; without one, neither names it.
  Plan plan;
  EXPECT_FALSE(to_json(plan).contains("profile_note"));
  EXPECT_EQ(describe(plan).find("note"), std::string::npos);
  plan.profile_note = card;
  EXPECT_EQ(to_json(plan)["profile_note"], card);
  EXPECT_NE(describe(plan).find("note       " + card), std::string::npos);
}

TEST(Profile, FootprintRatesInterpolateInLogSpaceAndHoldAtTheEnds) {
  FootprintRates r;
  r.points = {{1e6, 400}, {1e8, 100}};
  EXPECT_DOUBLE_EQ(r.at(1e3), 400);
  EXPECT_DOUBLE_EQ(r.at(1e9), 100);
  EXPECT_NEAR(r.at(1e7), 200, 1e-9);  // halfway in log footprint: the geometric mean
}

// GAP's kron-25 as the planner sees it: 33.5 M vertices, 1.047 G stored edges.
GraphFacts kron25() {
  GraphFacts g;
  g.vertices = uint64_t{1} << 25;
  g.edges = 1047218294;
  g.vertices_with_edges = 17'000'000;
  return g;
}

RunRequest request_for(const char* name) {
  RunRequest r = make_request(*find_algorithm(name));
  if (r.algorithm->needs_source()) r.sources = {0};
  return r;
}

TEST(Plan, DeviceWhereTheEdgesFit) {
  const MachineProfile p = builtin_profile();
  for (const char* algo : {"bfs", "cc", "pagerank"}) {
    const Plan plan = make_plan(kron25(), request_for(algo), uint64_t{70} << 30, uint64_t{70} << 30, p);
    EXPECT_EQ(plan.choice, Placement::kDevice) << algo;
    EXPECT_EQ(plan.edge_bytes, 1047218294ull * 4) << algo;
    EXPECT_EQ(plan.candidates.size(), 4u);
  }
}

TEST(Plan, AQuarterBudget) {
  const MachineProfile p = builtin_profile();
  const uint64_t quarter = 1047218294;
  // BFS: few bytes, scattered: read in place. PageRank: every edge every
  // iteration: copies of the partitions that do not stay resident.
  const Plan bfs = make_plan(kron25(), request_for("bfs"), quarter, uint64_t{70} << 30, p);
  EXPECT_EQ(bfs.choice, Placement::kZeroCopyAligned);
  EXPECT_FALSE(bfs.candidates.front().fits);
  EXPECT_NE(bfs.candidates.front().why_not.find("budget"), std::string::npos);
  const Plan pr = make_plan(kron25(), request_for("pagerank"), quarter, uint64_t{70} << 30, p);
  EXPECT_EQ(pr.choice, Placement::kSubgraph);
  // Every prediction is a time, and the chosen one the least of those that fit.
  for (const Plan* plan : {&bfs, &pr})
    for (const Candidate& c : plan->candidates) {
      EXPECT_GT(c.compute_s, 0);
      EXPECT_TRUE(std::isfinite(c.compute_s));
      if (c.fits) EXPECT_LE(plan->chosen()->compute_s, c.compute_s);
    }
  const nlohmann::json j = to_json(pr);
  EXPECT_EQ(j["choice"], "subgraph");
  EXPECT_EQ(j["candidates"].size(), 4u);
  EXPECT_TRUE(j["candidates"][0].contains("predicted_per_iteration_s"));
}

// A gather's in-lists cross the link packed where they pack
// (graph/packed_lists.h): the streamed placements copy the packed bytes'
// non-resident share each iteration; the placements that read in place, and
// runs that push (BFS), see the plain lists.
TEST(Plan, PackedInListsCrossTheLinkInTheirPackedBytes) {
  const MachineProfile p = builtin_profile();
  const uint64_t quarter = 1047218294;
  GraphFacts packed = kron25();
  packed.packed_in_bytes = quarter * 4 * 10 / 17;  // 1.7x, as kron:25's
  auto link_bytes = [&](const GraphFacts& g, const char* algo, Placement placement) {
    for (const Candidate& c : make_plan(g, request_for(algo), quarter, uint64_t{70} << 30, p).candidates)
      if (c.placement == placement) return c.link_bytes;
    return -1.0;
  };
  for (Placement s : {Placement::kStream, Placement::kSubgraph}) {
    const double plain = link_bytes(kron25(), "pagerank", s), fewer = link_bytes(packed, "pagerank", s);
    // Per pass: the lists less the resident half of the budget.
    EXPECT_NEAR(fewer / plain, (packed.packed_in_bytes - quarter / 2.0) / (quarter * 4 - quarter / 2.0), 1e-9);
    EXPECT_EQ(link_bytes(packed, "bfs", s), link_bytes(kron25(), "bfs", s));
  }
  EXPECT_EQ(link_bytes(packed, "pagerank", Placement::kZeroCopyAligned),
            link_bytes(kron25(), "pagerank", Placement::kZeroCopyAligned));
  // SSSP pushes its lists with their weights: plain.
  GraphFacts weighted = kron25();
  weighted.weighted = true;
  GraphFacts weighted_packed = weighted;
  weighted_packed.packed_in_bytes = packed.packed_in_bytes;
  EXPECT_EQ(link_bytes(weighted_packed, "sssp", Placement::kStream), link_bytes(weighted, "sssp", Placement::kStream));
  // The records' graphs name the packed bytes, and plan again with them; the streamed placements' basis says so.
  const Plan pr = make_plan(packed, request_for("pagerank"), quarter, uint64_t{70} << 30, p);
  for (const Candidate& c : pr.candidates)
    EXPECT_EQ(c.basis.find("the in-lists packed") != std::string::npos, is_streamed(c.placement)) << c.basis;
  EXPECT_EQ(graph_facts_from_json(to_json(pr)).packed_in_bytes, packed.packed_in_bytes);
}

TEST(Plan, WeightsCountWhereTheAlgorithmReadsThem) {
  GraphFacts g = kron25();
  g.weighted = true;
  EXPECT_EQ(make_plan(g, request_for("sssp"), 1, 1, builtin_profile()).edge_bytes, 1047218294ull * 8);
  EXPECT_EQ(make_plan(g, request_for("bfs"), 1, 1, builtin_profile()).edge_bytes, 1047218294ull * 4);
}

// The zero-copy prediction with the resident edge cache the engine would
// build: what the cache holds leaves the link, and probes that end within the
// heads (CC's sample reads two entries) never cross it.
TEST(Plan, TheEdgeCacheServesZeroCopyReads) {
  const MachineProfile p = builtin_profile();
  const uint64_t quarter = 1047218294, room = uint64_t{70} << 30;
  EdgeCachePlan cache;
  cache.heads = 2;
  cache.total_entries = 1047218294;
  cache.lists.push_back(CachedLists{.count = 100, .entries = 104721829});  // a tenth in whole lists
  cache.cached_entries = 2 * 17'000'000 + 104721829;
  cache.bytes = cache.cached_entries * 4;
  auto zero_copy = [](const Plan& plan) { return plan.candidates[1]; };
  for (const char* algo : {"bfs", "cc", "pagerank", "sssp"}) {
    const Candidate without = zero_copy(make_plan(kron25(), request_for(algo), quarter, room, p));
    const Candidate with = zero_copy(make_plan(kron25(), request_for(algo), quarter, room, p, &cache));
    ASSERT_EQ(with.placement, Placement::kZeroCopyAligned);
    EXPECT_LT(with.link_bytes, without.link_bytes) << algo;
    EXPECT_GT(with.hbm_bytes, 0) << algo;
    EXPECT_LE(with.compute_s, without.compute_s) << algo;
    EXPECT_NE(with.basis.find("edge cache"), std::string::npos) << with.basis;
  }
  EXPECT_EQ(zero_copy(make_plan(kron25(), request_for("cc"), quarter, room, p, &cache)).link_bytes, 0);
  // PageRank reads every entry once an iteration: the cache's share of them leaves the link.
  const Work pr = make_plan(kron25(), request_for("pagerank"), quarter, room, p).work;
  const Candidate pr_cached = zero_copy(make_plan(kron25(), request_for("pagerank"), quarter, room, p, &cache));
  EXPECT_NEAR(pr_cached.hbm_bytes, pr.entries * cache.cached_fraction() * 4, 1e-6 * pr.entries);
  // One head entry serves only half of CC's two-entry probes.
  cache.heads = 1;
  EXPECT_GT(zero_copy(make_plan(kron25(), request_for("cc"), quarter, room, p, &cache)).link_bytes, 0);
}

// CC's links at the profile's measured link rate where it has one: linking
// every edge (stream, which cannot pull, on a directed graph) at a slow rate
// costs the edges over that rate, and without a rate ten random reads a
// link, as before. A symmetric graph samples on stream too, by pushes.
TEST(Plan, CcLinksTakeTheProfilesLinkRate) {
  const uint64_t quarter = 1047218294, room = uint64_t{70} << 30;
  GraphFacts directed = kron25();
  directed.directed = true;  // no sampled form where the placement cannot pull
  auto stream_of = [&](const GraphFacts& g, const MachineProfile& p) {
    const Plan plan = make_plan(g, request_for("cc"), quarter, room, p);
    for (const Candidate& c : plan.candidates)
      if (c.placement == Placement::kStream) return c;
    ADD_FAILURE() << "no stream candidate";
    return Candidate{};
  };
  MachineProfile p = builtin_profile();
  const double as_reads = stream_of(directed, p).compute_s;
  EXPECT_NE(stream_of(directed, p).basis.find("no link rate"), std::string::npos) << stream_of(directed, p).basis;
  p.device_links.points = {{1e6, 1e8}, {1e10, 1e8}};  // 10 s for kron:25's edges
  const double slow = stream_of(directed, p).compute_s;
  p.device_links.points = {{1e6, 2e8}, {1e10, 2e8}};
  const double faster = stream_of(directed, p).compute_s;
  EXPECT_NEAR(slow - faster, 1047218294 / (2e8 * kGraphLinksOverCalibrated), 0.05)
      << "half the rate, the edges' links at it";
  EXPECT_GT(slow, 10 / kGraphLinksOverCalibrated);
  EXPECT_LT(as_reads, 2) << "ten random reads a link at the built-in H100's rates";
  EXPECT_EQ(stream_of(directed, p).basis.find("no link rate"), std::string::npos);
  EXPECT_EQ(make_plan(directed, request_for("cc"), quarter, room, p).work.forest_links, 1047218294);
  // Symmetric: the sample's heads and the lists outside the largest component, no link of every edge.
  const Candidate sampled = stream_of(kron25(), p);
  EXPECT_NE(sampled.basis.find("sampled by pushes"), std::string::npos) << sampled.basis;
  EXPECT_LT(sampled.compute_s * 10, faster);
}

// CC sampled by pushes on a symmetric graph (pushed_sample_candidate): both
// streamed placements read a line's time for each list with edges; stream
// adds a pass over its partitions that are not resident where some vertices
// have no edges (small components likely, their lists in every partition),
// and none where every vertex has edges; subgraph reads those lists in place.
TEST(Plan, CcSampledByPushesStreamsAPassWhereSmallComponentsMayLie) {
  const uint64_t quarter = 1047218294, room = uint64_t{70} << 30;
  const MachineProfile p = builtin_profile();
  auto candidate = [&](const GraphFacts& g, Placement placement) {
    const Plan plan = make_plan(g, request_for("cc"), quarter, room, p);
    for (const Candidate& c : plan.candidates)
      if (c.placement == placement) return c;
    ADD_FAILURE() << "no candidate " << name_of(placement);
    return Candidate{};
  };
  const GraphFacts with_isolated = kron25();  // 17 M of 33.5 M vertices with edges
  GraphFacts every_vertex = kron25();
  every_vertex.vertices_with_edges = every_vertex.vertices;
  const double edge_bytes = 4.0 * 1047218294, resident = quarter / 2.0;
  const Candidate stream_pass = candidate(with_isolated, Placement::kStream);
  const Candidate stream_none = candidate(every_vertex, Placement::kStream);
  const Candidate sub_isolated = candidate(with_isolated, Placement::kSubgraph);
  EXPECT_NE(stream_pass.basis.find("a pass over the partitions"), std::string::npos) << stream_pass.basis;
  EXPECT_EQ(stream_none.basis.find("a pass over the partitions"), std::string::npos) << stream_none.basis;
  EXPECT_EQ(sub_isolated.basis.find("a pass over the partitions"), std::string::npos) << sub_isolated.basis;
  EXPECT_NEAR(stream_pass.link_bytes - sub_isolated.link_bytes, edge_bytes - resident, 1.0);
  EXPECT_NEAR(stream_pass.compute_s - sub_isolated.compute_s, (edge_bytes - resident) / p.link_copy, 1e-9);
  // The heads' requests follow the lists with edges, and so do their link bytes.
  EXPECT_NEAR(stream_none.link_bytes / sub_isolated.link_bytes, double(every_vertex.vertices) / 17'000'000, 1e-9);
  EXPECT_TRUE(stream_pass.fits && sub_isolated.fits);
}

// With the streamed placements' heads cache (engines/gpu_footprint.h) the
// sample reads its heads from GPU memory: nothing over the link for them,
// the cache filled once at placement (a request a list, in the setup), and
// stream's pass over the partitions with the cache's bytes less resident.
TEST(Plan, CcSampledByPushesFromTheHeadsCache) {
  const uint64_t quarter = 1047218294, room = uint64_t{70} << 30;
  const MachineProfile p = builtin_profile();
  const GraphFacts g = kron25();
  const RunRequest cc = request_for("cc");
  EXPECT_EQ(streamed_heads_cache(g, cc, quarter, room, EdgeCacheMode::kAuto), 2);
  EXPECT_EQ(streamed_heads_cache(g, cc, quarter, room, EdgeCacheMode::kOff), 0);
  EXPECT_EQ(streamed_heads_cache(g, request_for("bfs"), quarter, room, EdgeCacheMode::kAuto), 0);
  EXPECT_EQ(streamed_heads_cache(g, cc, quarter / 4, room, EdgeCacheMode::kAuto), 0);  // 268 MB over half of 262
  const Plan without = make_plan(g, cc, quarter, room, p);
  const Plan with = make_plan(g, cc, quarter, room, p, nullptr, 2);
  EXPECT_EQ(to_json(with).at("streamed_heads"), 2);
  EXPECT_EQ(streamed_heads_from_json(to_json(with)), 2);
  EXPECT_EQ(streamed_heads_from_json(to_json(without)), 0);
  auto of = [](const Plan& plan, Placement placement) {
    for (const Candidate& c : plan.candidates)
      if (c.placement == placement) return c;
    ADD_FAILURE() << "no candidate " << name_of(placement);
    return Candidate{};
  };
  const double cache = double(g.vertices) * 2 * 4, edge_bytes = 4.0 * 1047218294;
  const Candidate sub = of(with, Placement::kSubgraph), sub_link = of(without, Placement::kSubgraph);
  EXPECT_EQ(sub.link_bytes, 0);
  EXPECT_EQ(sub.hbm_bytes, cache + with.work.vertex_pass_bytes);  // and the passes over every vertex
  EXPECT_GT(with.work.vertex_pass_bytes, 0);
  EXPECT_NE(sub.basis.find("heads cache"), std::string::npos) << sub.basis;
  EXPECT_LT(sub.compute_s, sub_link.compute_s);
  EXPECT_GT(sub.setup_s, sub_link.setup_s);  // the cache's fill
  // Stream: the pass copies what is not resident in the budget left beside the cache.
  const Candidate stream = of(with, Placement::kStream);
  EXPECT_NEAR(stream.link_bytes, edge_bytes - (quarter - cache) / 2, 1.0);
  EXPECT_TRUE(sub.fits && stream.fits);
  // Zero-copy reads the sample from its own cache (as the H100's records
  // hold it: four heads a list and the longest lists in the quarter budget):
  // the two predictions within kChoiceMargin of each other, the simpler
  // placement is chosen.
  EdgeCachePlan zero_copy_cache;
  zero_copy_cache.heads = 4;
  zero_copy_cache.total_entries = 1047218294;
  zero_copy_cache.lists.push_back(CachedLists{.count = 2000, .entries = 40'000'000});
  zero_copy_cache.cached_entries = 4 * 17'000'000 + 40'000'000;
  zero_copy_cache.bytes = quarter;
  const Plan both = make_plan(g, cc, quarter, room, p, &zero_copy_cache, 2);
  const Candidate zc = of(both, Placement::kZeroCopyAligned);
  ASSERT_EQ(of(both, Placement::kSubgraph).compute_s, sub.compute_s);
  std::printf("kron:25 cc, quarter budget: zero-copy %.2f ms, subgraph from the heads cache %.2f\n", 1e3 * zc.compute_s,
              1e3 * sub.compute_s);
  EXPECT_NEAR(sub.compute_s / zc.compute_s, 1.0, 0.05);
  EXPECT_EQ(both.choice, Placement::kZeroCopyAligned) << both.reason;
}

// A graph of 2^scale vertices, all of degree 32, as its facts.
GraphFacts uniform_degrees(int scale) {
  GraphFacts g;
  g.vertices = g.vertices_with_edges = uint64_t{1} << scale;
  g.edges = 32 * g.vertices;
  for (uint64_t k = 1; k <= g.vertices; k *= 2) g.top_degree_shares.emplace_back(double(k), double(k) / double(g.vertices));
  return g;
}

// SSSP's rounds follow the graph's typical hop distance: about 46 on
// urand-like degrees at 2^24 vertices (the H200 ran 45-49), fewer where a few
// hubs hold most entries (kron: 21); a streamed run copies the partitions
// that are not resident in about 0.7 of them.
TEST(Plan, SsspRoundsFollowTheTypicalHops) {
  const GraphFacts urand = uniform_degrees(24);
  GraphFacts hubs = urand;  // a thousand vertices hold half of the entries
  hubs.top_degree_shares = {{1024, 0.5}, {double(hubs.vertices), 1.0}};
  const RunRequest r = request_for("sssp");
  const Work a = estimate_work(r, urand, true), b = estimate_work(r, hubs, true);
  EXPECT_GT(a.rounds, 40);
  EXPECT_LT(a.rounds, 52);
  EXPECT_LT(b.rounds, a.rounds / 2);
  EXPECT_DOUBLE_EQ(a.streamed_share, 0.7);
}

// The expected levels of BFS on urand-like degrees follow the engines' own
// direction rule: at 2^24 vertices the fourth level (about 1 M vertices)
// passes Ligra's threshold, where the unvisited would probe about 0.4 of all
// entries (180-246 M of 537 M traced on the H200 before the probes' rule,
// docs/gpu-check/2026-12-02c); in GPU memory the probes' rule and over a link
// the bytes' rule push it, and the pulls after it read a few percent; at 2^25
// the same frontier is below |E| / 20 and pushes either way.
TEST(Plan, ExpectedBfsLevelsTakeTheEnginesDirections) {
  auto probed = [](const std::vector<BfsLevel>& levels) {
    double entries = 0;
    for (const BfsLevel& l : levels) entries += l.pull ? l.entries : 0;
    return entries;
  };
  const GraphFacts small = uniform_degrees(24), large = uniform_degrees(25);
  for (bool over_link : {false, true}) {
    const std::vector<BfsLevel> a = expected_bfs_levels(small, over_link), b = expected_bfs_levels(large, over_link);
    EXPECT_GE(a.size(), 6u);
    EXPECT_LE(a.size(), 8u);
    ASSERT_GE(a.size(), 6u);
    EXPECT_GT(a[4].frontier, 0.5e6);
    EXPECT_LT(a[4].frontier, 2e6);
    EXPECT_GT(a[4].frontier * 32, double(small.edges) / 20) << "past Ligra's threshold";
    EXPECT_FALSE(a[4].pull) << over_link;
    EXPECT_TRUE(a[5].pull) << over_link;
    EXPECT_LT(probed(a) / double(small.edges), 0.1) << over_link;
    ASSERT_GE(b.size(), 6u);
    EXPECT_FALSE(b[4].pull);
    EXPECT_TRUE(b[5].pull);
    EXPECT_LT(probed(b) / double(large.edges), 0.1);
  }
  // Without the degrees there is nothing to expect from.
  EXPECT_TRUE(expected_bfs_levels(GraphFacts{}, false).empty());
}

// A skewed graph as its facts: 2^scale vertices, half of the entries in the
// lists of the 1,024 of highest degree, the rest at degree 16.
GraphFacts hub_degrees(int scale) {
  GraphFacts g = uniform_degrees(scale);
  g.edges = 32 * g.vertices;
  g.top_degree_shares = {{1024, 0.5}, {double(g.vertices), 1.0}};
  return g;
}

// Runs from drawn sources: one a source, each from a single vertex, the same
// every time (the plan must not change between calls); a small graph's
// levels draw their far ends, so the runs differ from one another.
TEST(Plan, DrawnBfsSourcesAreFixedAndSingle) {
  const GraphFacts g = hub_degrees(16);
  const auto a = drawn_bfs_levels(g, true, 2, 0, 64), b = drawn_bfs_levels(g, true, 2, 0, 64);
  ASSERT_EQ(a.size(), 64u);
  size_t differ = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_FALSE(a[i].empty());
    EXPECT_DOUBLE_EQ(a[i].front().frontier, 1);
    ASSERT_EQ(a[i].size(), b[i].size());
    for (size_t l = 0; l < a[i].size(); ++l) EXPECT_DOUBLE_EQ(a[i][l].entries, b[i][l].entries);
    differ += a[i].size() != a[0].size() || a[i][1].frontier != a[0][1].frontier;
  }
  EXPECT_GT(differ, 0u);
  EXPECT_TRUE(drawn_bfs_levels(GraphFacts{}, true, 2, 0, 8).empty());
}

// Lists a cache holds whole are read from it: with every list held whole
// nothing is read past the heads; with the hubs' lists held, less.
TEST(Plan, BfsLevelsLeaveTheListsCachedWholeOutOfThePastHeads) {
  const GraphFacts g = hub_degrees(20);
  auto past_heads = [&](double whole_lists) {
    double entries = 0;
    for (const BfsLevel& l : expected_bfs_levels(g, true, 2, whole_lists)) entries += l.entries_past_heads;
    return entries;
  };
  EXPECT_GT(past_heads(0), 0);
  EXPECT_LT(past_heads(1024), past_heads(0));
  EXPECT_DOUBLE_EQ(past_heads(double(g.vertices)), 0);
}

// Over a link, BFS's work is the mean of drawn sources' runs, and each list
// it reads past a cache's heads moves a sector: the zero-copy candidate's
// link bytes are its entries past the heads and a sector a list.
TEST(Plan, ZeroCopyBfsReadsASectorAListPastTheHeads) {
  const GraphFacts g = hub_degrees(20);
  const RunRequest r = request_for("bfs");
  const Work w = estimate_work(r, g, true, true, 2, 0);
  EXPECT_TRUE(w.sector_a_list);
  EXPECT_NE(w.basis.find("drawn sources"), std::string::npos) << w.basis;
  EXPECT_GT(w.entries_past_heads, 0);
  EdgeCachePlan cache;
  cache.heads = 2;
  cache.total_entries = g.edges;
  cache.cached_entries = 2 * g.vertices;
  cache.lists.push_back(CachedLists{});
  const Plan plan = make_plan(g, r, g.edges, uint64_t{70} << 30, builtin_profile(), &cache);
  const Candidate& zc = plan.candidates[1];
  ASSERT_EQ(zc.placement, Placement::kZeroCopyAligned);
  const Work over = estimate_work(r, g, true, true, 2, 0);
  EXPECT_NEAR(zc.link_bytes, over.entries_past_heads * 4 + over.lists_past_heads * 32, 1e-6 * zc.link_bytes);
  // In GPU memory drawn sources too, and a level's fixed cost is smaller
  // there (kStepsPerBfsLevelInMemory against the link's).
  const Work in_memory = estimate_work(r, g, true);
  EXPECT_NE(in_memory.basis.find("drawn sources"), std::string::npos) << in_memory.basis;
  EXPECT_LT(in_memory.steps / in_memory.rounds, over.steps / over.rounds);
  // Its pulls pass over every vertex in GPU memory (counted there only).
  EXPECT_GT(in_memory.vertex_pass_bytes, 0);
  EXPECT_EQ(over.vertex_pass_bytes, 0);
}

// A sorted list read until a frontier neighbour: all of it where none is in
// the frontier, its first entry where the hubs' class is, and fewer entries
// than in random order where the frontier holds the hubs rather than the rest.
TEST(Plan, SortedProbesReadUntilTheFirstFrontierClass) {
  const std::vector<double> ends = {40, 60};  // the hubs' edge ends, then the rest's (m = 100)
  EXPECT_NEAR(sorted_probes(10, ends, {0, 0}, 100), 10, 1e-9);
  EXPECT_NEAR(sorted_probes(10, ends, {1, 0}, 100), 1, 1e-9);
  EXPECT_NEAR(sorted_probes(10, ends, {0, 1}, 100), 4 + 1, 1e-9);  // past the 4 hub entries, one more
  const double q = 0.4 * 0.5 + 0.6 * 0.05;                         // the frontier's share of edge ends
  const double random_order = (1 - std::pow(1 - q, 10)) / q;
  EXPECT_LT(sorted_probes(10, ends, {0.5, 0.05}, 100), 0.8 * random_order);
  EXPECT_GT(sorted_probes(10, ends, {0.05, 0.5}, 100), random_order);
}

// Lists sorted hubs first: a pull meets the frontier's hubs among a list's
// first entries, so it reads fewer than in lists in random order (GAP's
// numbering), on the same degrees and levels.
TEST(Plan, BfsPullsReadFewerEntriesWhereIdsRunHubsFirst) {
  GraphFacts g = hub_degrees(20);
  const RunRequest r = request_for("bfs");
  const Work random_order = estimate_work(r, g, true);
  g.numbered_by_degree = true;
  const Work hubs_first = estimate_work(r, g, true);
  EXPECT_EQ(hubs_first.rounds, random_order.rounds);
  EXPECT_GT(hubs_first.probe_entries, 0);
  EXPECT_LT(hubs_first.probe_entries, 0.9 * random_order.probe_entries);
}

// Hubs first, SSSP's relaxations read at the smallest footprint's rate, so
// the same work is predicted faster than in GAP's numbering in GPU memory;
// the reads and entries themselves are the same.
TEST(Plan, SsspHubsFirstReadsAtTheCacheRate) {
  GraphFacts g = hub_degrees(22);
  const RunRequest r = request_for("sssp");
  const Plan random_order = make_plan(g, r, uint64_t{70} << 30, uint64_t{70} << 30, builtin_profile());
  g.numbered_by_degree = true;
  const Plan hubs_first = make_plan(g, r, uint64_t{70} << 30, uint64_t{70} << 30, builtin_profile());
  EXPECT_LT(random_order.cached_vertex_reads, 1.0);
  EXPECT_EQ(hubs_first.cached_vertex_reads, 1.0);
  EXPECT_EQ(hubs_first.work.vertex_reads, random_order.work.vertex_reads);
  // A relaxation's atomic, on the sector its read brought in, at the cache's rate in both.
  EXPECT_GT(random_order.work.cache_reads, 0);
  EXPECT_EQ(hubs_first.work.cache_reads, random_order.work.cache_reads);
  EXPECT_EQ(hubs_first.work.entries, random_order.work.entries);
  ASSERT_EQ(hubs_first.choice, Placement::kDevice);
  EXPECT_LT(hubs_first.chosen()->compute_s, random_order.chosen()->compute_s);
}

// A zero-copy cache that holds every list: BFS reads nothing over the link.
TEST(Plan, ZeroCopyBfsWithEveryListCachedReadsNothingOverTheLink) {
  const GraphFacts g = hub_degrees(20);
  EdgeCachePlan cache;
  cache.total_entries = cache.cached_entries = g.edges;
  CachedLists all;
  all.all = true;
  all.count = g.vertices_with_edges;
  all.entries = g.edges;
  cache.lists.push_back(all);
  const Plan plan = make_plan(g, request_for("bfs"), g.edges, uint64_t{70} << 30, builtin_profile(), &cache);
  const Candidate& zc = plan.candidates[1];
  ASSERT_EQ(zc.placement, Placement::kZeroCopyAligned);
  EXPECT_DOUBLE_EQ(zc.link_bytes, 0);
  EXPECT_GT(zc.hbm_bytes, 0);
}

TEST(PlanCommand, TheEdgeCacheChangesTheZeroCopyPrediction) {
  auto zero_copy_link = [](const std::string& mode) {
    const test::ProgramResult r = run_tiergraph("plan cc --graph kron:12 --gpu-mem 64K --json --edge-cache " + mode);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    for (const auto& c : j["candidates"])
      if (c["placement"] == "zerocopy-aligned") return c["link_bytes"].get<double>();
    return -1.0;
  };
  const double off = zero_copy_link("off"), cached = zero_copy_link("auto");
  EXPECT_GT(off, 0);
  EXPECT_GE(cached, 0);
  EXPECT_LT(cached, off);
}

TEST(PlanCommand, PrintsTheChoiceWithoutAGpu) {
  const test::ProgramResult r = run_tiergraph("plan bfs --graph kron:10 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["choice"], "device");
  const test::ProgramResult small = run_tiergraph("plan pagerank --graph kron:10 --gpu-mem 4K");
  ASSERT_EQ(small.exit_code, 0) << small.err;
  EXPECT_NE(small.out.find("does not fit"), std::string::npos) << small.out;
  EXPECT_EQ(small.out.find("plan       pagerank: device"), std::string::npos) << small.out;
}

TEST(PlanCommand, ABadProfileIsOneLine) {
  const std::string path = temp_path("broken.json");
  std::ofstream(path) << "{";
  const test::ProgramResult r = run_tiergraph("plan bfs --graph kron:8 --profile " + path);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
}

TEST(CalibrateCommand, WithoutAGpuMeasuresTheCpuAndPlanReadsIt) {
  const std::string path = temp_path("calibrated.json");
  const test::ProgramResult r = run_tiergraph("calibrate --quick -o " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const MachineProfile p = read_profile(path);
  EXPECT_GT(p.cpu_gather, 0);
  EXPECT_NE(p.cpu_gather, builtin_profile().cpu_gather);
  const test::ProgramResult plan = run_tiergraph("plan cc --graph kron:8 --json --profile " + path);
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_EQ(nlohmann::json::parse(plan.out)["profile"], path);
}

}  // namespace
}  // namespace tg::planner
