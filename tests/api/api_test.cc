// The library API as an embedding program uses it: only <tiergraph/...>
// headers and libtiergraph.so. Loads datasets and generated graphs, runs
// every algorithm on the CPU engine with the verifier, and checks that
// failures come back as tiergraph::Error of the right kind.
#include <tiergraph/tiergraph.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "../support/datasets.h"  // header-only, nothing of src/

namespace {

using tg::test::dataset;

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + "/tg_api_" + name;
  std::ofstream(path) << text;
  return path;
}

tiergraph::RunOptions cpu(std::vector<uint64_t> sources = {}) {
  tiergraph::RunOptions o;
  o.engine = "cpu";
  o.sources = std::move(sources);
  o.verify = true;
  return o;
}

// The kind of the tiergraph::Error that `f` throws (also a std::runtime_error).
tiergraph::ErrorKind error_kind(const std::function<void()>& f, std::string* message = nullptr) {
  try {
    f();
  } catch (const tiergraph::Error& e) {
    if (message) *message = e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();  // one line
    return e.kind();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a tiergraph::Error: " << e.what();
    throw;
  }
  ADD_FAILURE() << "nothing was thrown";
  return tiergraph::ErrorKind::kOther;
}

TEST(Api, VersionAndAlgorithms) {
  EXPECT_STREQ(tiergraph::version(), TIERGRAPH_VERSION);
  std::vector<std::string> names = tiergraph::algorithms();
  for (const char* a : {"bfs", "sssp", "cc", "pagerank", "sswp", "ssnsp", "bc"})
    EXPECT_NE(std::find(names.begin(), names.end(), a), names.end()) << a;
  std::string why;
  if (!tiergraph::gpu_available(&why)) EXPECT_FALSE(why.empty());
}

TEST(Api, LoadsAFileInItsOwnNumbering) {
  TG_NEED_DATASET("karate.mtx");
  tiergraph::Graph g = tiergraph::load(dataset("karate.mtx"));
  EXPECT_EQ(g.num_vertices(), 34u);
  EXPECT_EQ(g.num_edges(), 156u);  // 78 undirected edges, both directions
  EXPECT_FALSE(g.directed());
  EXPECT_FALSE(g.weighted());
  EXPECT_EQ(g.id_base(), 1);
  EXPECT_EQ(g.vertex_id_bytes(), 4);
  EXPECT_NE(g.name().find("karate.mtx"), std::string::npos);

  tiergraph::Result r = tiergraph::run("bfs", g, cpu({1}));
  EXPECT_EQ(r.algorithm, "bfs");
  EXPECT_EQ(r.engine, "cpu");
  EXPECT_EQ(r.placement, "host");
  ASSERT_EQ(r.sources, std::vector<uint64_t>{1});
  const auto& depth = std::get<std::vector<int32_t>>(r.values);
  ASSERT_EQ(depth.size(), 34u);
  EXPECT_EQ(depth[0], 0);  // vertex 1 is internal id 0
  EXPECT_EQ(*std::max_element(depth.begin(), depth.end()), 3);  // karate's eccentricity of vertex 1
  ASSERT_TRUE(r.verified.has_value());
  EXPECT_TRUE(*r.verified) << r.verification;
  EXPECT_GT(r.iterations, 0u);
  EXPECT_GT(r.edges_traversed, 0u);
  EXPECT_GE(r.seconds("compute"), 0.0);
  ASSERT_GE(r.time_s.size(), 2u);
  EXPECT_EQ(r.time_s[r.time_s.size() - 2].first, "verify");
  EXPECT_EQ(r.time_s.back().first, "copy out");  // the result into the std::vector handed out
  EXPECT_FALSE(r.summary.empty());

  // The record of `tiergraph run --json`.
  nlohmann::json j = nlohmann::json::parse(r.json);
  EXPECT_EQ(j["tool"], "tiergraph");
  EXPECT_EQ(j["version"], tiergraph::version());
  EXPECT_EQ(j["algorithm"], "bfs");
  EXPECT_EQ(j["engine"], "cpu");
  EXPECT_EQ(j["source"], 1);
  EXPECT_EQ(j["graph"]["vertices"], 34);
  EXPECT_EQ(j["iterations"], r.iterations);
  EXPECT_EQ(j["result"], r.summary);
  EXPECT_TRUE(j["verification"]["ok"].get<bool>());
  EXPECT_TRUE(j["time_s"].contains("compute"));
  EXPECT_FALSE(j["time_s"].contains("load"));
}

TEST(Api, EveryAlgorithmOnTheCpuEngine) {
  tiergraph::LoadOptions load;
  load.random_weights = "8:72";
  tiergraph::Graph g = tiergraph::load("kron:9", load);
  EXPECT_EQ(g.num_vertices(), 512u);
  EXPECT_TRUE(g.weighted());
  EXPECT_EQ(g.name(), "kron:9");
  for (const std::string& algorithm : tiergraph::algorithms()) {
    SCOPED_TRACE(algorithm);
    tiergraph::Result r = tiergraph::run(algorithm, g, cpu());
    EXPECT_EQ(r.algorithm, algorithm);
    EXPECT_EQ(std::visit([](const auto& v) { return v.size(); }, r.values), g.num_vertices());
    ASSERT_TRUE(r.verified.has_value());
    EXPECT_TRUE(*r.verified) << r.verification;
    EXPECT_TRUE(nlohmann::json::accept(r.json));
  }
}

TEST(Api, ResultsHoldEachAlgorithmsValues) {
  TG_NEED_DATASET("rome99.gr");
  tiergraph::Graph roads = tiergraph::load(dataset("rome99.gr"));
  EXPECT_TRUE(roads.directed());
  EXPECT_TRUE(roads.weighted());
  tiergraph::Result sssp = tiergraph::run("sssp", roads, cpu({1}));
  const auto& dist = std::get<std::vector<double>>(sssp.values);
  EXPECT_EQ(dist[0], 0.0);
  EXPECT_TRUE(*sssp.verified) << sssp.verification;

  tiergraph::Result cc = tiergraph::run("cc", roads, cpu());
  EXPECT_TRUE(cc.sources.empty());
  EXPECT_TRUE(std::holds_alternative<std::vector<uint64_t>>(cc.values));

  // pagerank pulls: the directed graph gets its in-edges on this first need.
  tiergraph::RunOptions pr = cpu();
  pr.tolerance = 1e-9;
  pr.threads = 1;
  tiergraph::Result rank = tiergraph::run("pr", roads, pr);  // an alias
  EXPECT_EQ(rank.algorithm, "pagerank");
  const auto& score = std::get<std::vector<double>>(rank.values);
  double sum = 0;
  for (double s : score) sum += s;
  EXPECT_NEAR(sum, 1.0, 1e-6);
  EXPECT_TRUE(*rank.verified) << rank.verification;
  EXPECT_EQ(nlohmann::json::parse(rank.json)["details"]["threads"], 1);

  tiergraph::Result widest = tiergraph::run("sswp", roads, cpu({1}));
  EXPECT_TRUE(std::isinf(std::get<std::vector<float>>(widest.values)[0]));
}

TEST(Api, DefaultSourceIsTheFirstVertexWithOutEdges) {
  // Vertex 0 has no edges; 2 is the first with out-edges.
  tiergraph::Graph g = tiergraph::load(write_temp("default_source.el", "2 3\n3 4\n1 1\n"));
  tiergraph::Result r = tiergraph::run("bfs", g, cpu());
  // 1 has a self loop: the first vertex with an out-edge.
  ASSERT_EQ(r.sources, std::vector<uint64_t>{1});
  tiergraph::LoadOptions simple;
  simple.simplify = true;
  tiergraph::Graph h = tiergraph::load(write_temp("default_source.el", "2 3\n3 4\n1 1\n"), simple);
  EXPECT_EQ(tiergraph::run("bfs", h, cpu()).sources, std::vector<uint64_t>{2});
  tiergraph::Result r2 = tiergraph::run("bfs", h, cpu());
  EXPECT_EQ(std::get<std::vector<int32_t>>(r2.values), (std::vector<int32_t>{-1, -1, 0, 1, 2}));
}

TEST(Api, RunsShareAGraphAcrossThreads) {
  TG_NEED_DATASET("wiki-Vote.el.gz");
  tiergraph::Graph g = tiergraph::load(dataset("wiki-Vote.el.gz"));
  tiergraph::Graph copy = g;  // one graph, two handles
  std::vector<std::string> failures(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      try {
        tiergraph::RunOptions o = cpu();
        o.threads = 1;
        tiergraph::Result r = tiergraph::run(i % 2 ? "pagerank" : "bfs", i % 2 ? copy : g, o);
        if (!r.verified.value_or(false)) failures[i] = r.verification;
      } catch (const std::exception& e) {
        failures[i] = e.what();
      }
    });
  for (auto& t : threads) t.join();
  for (const std::string& f : failures) EXPECT_EQ(f, "");
}

TEST(Api, ErrorsComeBackWithTheirKind) {
  using tiergraph::ErrorKind;
  // As karate.mtx: 34 vertices numbered from 1, no weights.
  tiergraph::Graph g = tiergraph::load(
      write_temp("errors.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n34 34 3\n2 1\n3 1\n34 33\n"));
  std::string message;

  EXPECT_EQ(error_kind([&] { tiergraph::run("dijkstra", g, cpu()); }, &message), ErrorKind::kUsage);
  EXPECT_NE(message.find("dijkstra"), std::string::npos) << message;
  EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", g, cpu({35})); }, &message), ErrorKind::kUsage);
  EXPECT_NE(message.find("out of range"), std::string::npos) << message;
  EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", g, cpu({0})); }), ErrorKind::kUsage);  // ids start at 1
  EXPECT_EQ(error_kind([&] { tiergraph::run("cc", g, cpu({1})); }), ErrorKind::kUsage);
  EXPECT_EQ(error_kind([&] { tiergraph::run("sssp", g, cpu({1})); }, &message), ErrorKind::kInput);
  EXPECT_NE(message.find("weights"), std::string::npos) << message;
  EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", tiergraph::Graph(), cpu()); }), ErrorKind::kUsage);

  tiergraph::RunOptions o = cpu();
  o.engine = "tpu";
  EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", g, o); }), ErrorKind::kUsage);
  o = cpu();
  o.placement = "device";
  EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", g, o); }), ErrorKind::kUsage);
  o = cpu();
  o.placement = "nowhere";
  EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", g, o); }), ErrorKind::kUsage);
  o = cpu();
  o.async = true;
  EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", g, o); }), ErrorKind::kUsage);
  o = cpu();
  o.threads = -1;
  EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", g, o); }), ErrorKind::kUsage);
  o.threads = 100000;  // once a crash making OpenMP's team
  EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", g, o); }), ErrorKind::kUsage);
  o = cpu();
  o.gpus = 2;  // several GPUs need the GPU engine
  EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", g, o); }), ErrorKind::kUsage);
  o = cpu();
  o.gpus = -1;
  EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", g, o); }), ErrorKind::kUsage);
  o = cpu();
  o.device = 1;  // was ignored on the CPU, where the other GPU options are refused
  EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", g, o); }, &message), ErrorKind::kUsage);
  EXPECT_NE(message.find("--device 1 needs --engine gpu"), std::string::npos) << message;
  // A source given twice counted twice in bc's sum.
  EXPECT_EQ(error_kind([&] { tiergraph::run("bc", g, cpu({2, 3, 2})); }, &message), ErrorKind::kUsage);
  EXPECT_NE(message.find("vertex 2 is given twice"), std::string::npos) << message;
  // NaN has no rank (the sort's output was no order); damping 0 is refused by both reverse PageRanks alike.
  EXPECT_EQ(error_kind([&] { tiergraph::order_by_score({1.0, NAN, 3.0}); }, &message), ErrorKind::kUsage);
  EXPECT_NE(message.find("scores[1] is NaN"), std::string::npos) << message;
  for (const char* score : {"reverse-pagerank", "weighted-reverse-pagerank"})
    EXPECT_EQ(error_kind([&] { tiergraph::tier_scores(g, score, {}, 5, 0.0); }), ErrorKind::kUsage) << score;
  // A count past any array wrapped the pointer arithmetic (2^61 edges built a graph of none).
  const uint64_t one = 1;
  EXPECT_EQ(error_kind([&] { tiergraph::from_edges(&one, &one, size_t{1} << 61); }), ErrorKind::kUsage);
  if (!tiergraph::gpu_available()) {
    o = cpu();
    o.engine = "gpu";
    EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", g, o); }), ErrorKind::kOther);
    o.engine = "auto";
    tiergraph::Result r = tiergraph::run("bfs", g, o);
    EXPECT_EQ(r.engine, "cpu");
    EXPECT_NE(r.engine_note.find("no usable GPU"), std::string::npos) << r.engine_note;
  }

  EXPECT_EQ(error_kind([&] { tiergraph::load(dataset("no-such-graph.el")); }, &message), ErrorKind::kInput);
  EXPECT_NE(message.find("no-such-graph.el"), std::string::npos) << message;
  EXPECT_EQ(error_kind([&] { tiergraph::load(write_temp("bad.el", "0 1\n1 x\n")); }, &message), ErrorKind::kInput);
  EXPECT_NE(message.find(":2:"), std::string::npos) << message;  // FILE:LINE
  EXPECT_EQ(error_kind([&] { tiergraph::load(write_temp("graph.unknown", "0 1\n")); }), ErrorKind::kInput);
  EXPECT_EQ(error_kind([&] { tiergraph::load("kron:abc"); }), ErrorKind::kUsage);
  tiergraph::LoadOptions bad_weights;
  bad_weights.random_weights = "72";
  EXPECT_EQ(error_kind([&] { tiergraph::load("kron:4", bad_weights); }), ErrorKind::kUsage);
}

// RunOptions::profile is the command line's --profile: read where
// placement "auto" plans a GPU run (a profile that cannot be read is bad
// input naming the file), and a CPU run plans nothing and reads none.
TEST(Api, TheProfileIsReadWhereAutoPlansAGpuRun) {
  const tiergraph::Graph g = tiergraph::load("kron:8");
  tiergraph::RunOptions o;
  o.profile = ::testing::TempDir() + "/api-no-such-profile.json";
  if (!tiergraph::gpu_available()) {
    EXPECT_EQ(tiergraph::run("bfs", g, o).engine, "cpu");
    return;
  }
  std::string message;
  EXPECT_EQ(error_kind([&] { tiergraph::run("bfs", g, o); }, &message), tiergraph::ErrorKind::kInput);
  EXPECT_NE(message.find(o.profile), std::string::npos) << message;
  o.placement = "device";  // a fixed placement plans nothing
  EXPECT_EQ(tiergraph::run("bfs", g, o).placement, "device");
}

TEST(Api, OptionsByDesignatedInitializers) {
  tiergraph::Graph g = tiergraph::load("kron:6");
  tiergraph::Result r = tiergraph::run("bfs", g, {.engine = "cpu", .sources = {1}, .verify = true});
  EXPECT_EQ(r.sources, std::vector<uint64_t>{1});
  EXPECT_TRUE(r.verified.value_or(false)) << r.verification;
}

// RunOptions::push_only: the same depths by top-down steps alone.
TEST(Api, PushOnlyBfs) {
  tiergraph::Graph g = tiergraph::load("kron:11");
  tiergraph::Result push = tiergraph::run("bfs", g, {.engine = "cpu", .sources = {1}, .push_only = true, .verify = true});
  tiergraph::Result auto_ = tiergraph::run("bfs", g, {.engine = "cpu", .sources = {1}});
  EXPECT_TRUE(push.verified.value_or(false)) << push.verification;
  EXPECT_EQ(nlohmann::json::parse(push.json)["pull_steps"], 0) << push.json;
  EXPECT_GT(nlohmann::json::parse(auto_.json)["pull_steps"].get<int>(), 0) << auto_.json;
  EXPECT_EQ(push.values, auto_.values);
}

// vertex_order "degree": a run on a copy renumbered hubs first gives the
// as-loaded run's values, in the graph's own (1-based) numbering, and times
// its renumbering; an unknown order is a usage error.
TEST(Api, VertexOrderKeepsTheGraphsNumbering) {
  const std::string path = ::testing::TempDir() + "/api_order.gr";
  std::ofstream(path) << "p sp 5 5\na 1 2 5\na 2 3 7\na 3 4 1\na 5 3 2\na 5 1 4\n";
  const tiergraph::Graph g = tiergraph::load(path);
  for (const char* algorithm : {"bfs", "sssp", "cc", "pagerank", "bc"}) {
    tiergraph::RunOptions o;
    o.engine = "cpu";
    o.verify = true;
    if (std::string(algorithm) != "cc" && std::string(algorithm) != "pagerank") o.sources = {5};
    const tiergraph::Result plain = tiergraph::run(algorithm, g, o);
    o.vertex_order = "degree";
    const tiergraph::Result renumbered = tiergraph::run(algorithm, g, o);
    EXPECT_TRUE(renumbered.verified.value_or(false)) << algorithm << ": " << renumbered.verification;
    EXPECT_EQ(renumbered.sources, plain.sources) << algorithm;
    EXPECT_EQ(renumbered.time_s.front().first, "renumber") << algorithm;
    if (std::string(algorithm) == "pagerank") {
      const auto& a = std::get<std::vector<double>>(renumbered.values);
      const auto& b = std::get<std::vector<double>>(plain.values);
      ASSERT_EQ(a.size(), b.size());
      for (size_t v = 0; v < a.size(); ++v) EXPECT_NEAR(a[v], b[v], 1e-9) << v;
    } else {
      EXPECT_EQ(renumbered.values, plain.values) << algorithm;
    }
  }
  tiergraph::RunOptions bad;
  bad.vertex_order = "random";
  try {
    tiergraph::run("cc", g, bad);
    ADD_FAILURE() << "an unknown vertex_order was accepted";
  } catch (const tiergraph::Error& e) {
    EXPECT_EQ(e.kind(), tiergraph::ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("vertex_order 'random'"), std::string::npos) << e.what();
  }
}

// The command line's --cc-method, --pr-contributions and --edge-cache, by
// name: both CC methods give the same labels, both contribution types verify
// and agree within the tolerance, and an unknown name is a usage error
// naming it.
TEST(Api, CcMethodAndPageRankContributionsByName) {
  const std::string path = ::testing::TempDir() + "/api_methods.gr";
  std::ofstream(path) << "p sp 6 5\na 1 2 5\na 2 3 7\na 3 1 1\na 4 5 2\na 6 6 4\n";
  const tiergraph::Graph g = tiergraph::load(path);
  tiergraph::RunOptions o;
  o.engine = "cpu";
  o.verify = true;
  const tiergraph::Result sampled = tiergraph::run("cc", g, o);
  o.cc_method = "sv";
  const tiergraph::Result sv = tiergraph::run("cc", g, o);
  EXPECT_TRUE(sv.verified.value_or(false)) << sv.verification;
  EXPECT_EQ(sv.values, sampled.values);
  o.cc_method = "sampled";
  std::vector<double> scores[2];
  int i = 0;
  for (const char* type : {"float", "double"}) {
    o.pagerank_contributions = type;
    const tiergraph::Result r = tiergraph::run("pagerank", g, o);
    EXPECT_TRUE(r.verified.value_or(false)) << type << ": " << r.verification;
    scores[i++] = std::get<std::vector<double>>(r.values);
  }
  ASSERT_EQ(scores[0].size(), scores[1].size());
  for (size_t v = 0; v < scores[0].size(); ++v) EXPECT_NEAR(scores[0][v], scores[1][v], 1e-5) << v;
  // The GPU's edge cache by name too (the CPU engine has none: the same labels).
  o.edge_cache = "off";
  EXPECT_EQ(tiergraph::run("cc", g, o).values, sampled.values);
  o.edge_cache = "auto";
  for (const auto& [field, value] : {std::pair<std::string, std::string>{"cc_method", "union-find"},
                                     std::pair<std::string, std::string>{"pagerank_contributions", "half"},
                                     std::pair<std::string, std::string>{"edge_cache", "sometimes"}}) {
    tiergraph::RunOptions bad;
    bad.engine = "cpu";
    (field == "cc_method" ? bad.cc_method : field == "edge_cache" ? bad.edge_cache : bad.pagerank_contributions) = value;
    try {
      tiergraph::run(field == "cc_method" ? "cc" : "pagerank", g, bad);
      ADD_FAILURE() << "an unknown " << field << " was accepted";
    } catch (const tiergraph::Error& e) {
      EXPECT_EQ(e.kind(), tiergraph::ErrorKind::kUsage);
      EXPECT_NE(std::string(e.what()).find(field + " '" + value + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(Api, GraphFromEdgesInMemory) {
  // 0 -> 1 -> 2 and 0 -> 2 weighted, plus vertex 3 with no edges.
  const std::vector<uint64_t> src{0, 1, 0}, dst{1, 2, 2};
  const std::vector<float> w{1.5f, 1.0f, 3.0f};
  tiergraph::Graph g = tiergraph::from_edges(src.data(), dst.data(), src.size(), w.data(), 4);
  EXPECT_EQ(g.num_vertices(), 4u);
  EXPECT_EQ(g.num_edges(), 3u);
  EXPECT_TRUE(g.directed());
  EXPECT_TRUE(g.weighted());
  tiergraph::Result r = tiergraph::run("sssp", g, cpu({0}));
  EXPECT_EQ(std::get<std::vector<double>>(r.values),
            (std::vector<double>{0, 1.5, 2.5, std::numeric_limits<double>::infinity()}));
  EXPECT_TRUE(*r.verified);
  // The largest id + 1 when no count is given; undirected as load's option.
  tiergraph::LoadOptions both_ways;
  both_ways.undirected = true;
  tiergraph::Graph u = tiergraph::from_edges(dst.data(), src.data(), src.size(), nullptr, 0, both_ways);
  EXPECT_EQ(u.num_vertices(), 3u);
  EXPECT_EQ(std::get<std::vector<int32_t>>(tiergraph::run("bfs", u, cpu({2})).values), (std::vector<int32_t>{1, 1, 0}));

  const uint64_t far[] = {7};
  EXPECT_EQ(error_kind([&] { tiergraph::from_edges(src.data(), far, 1, nullptr, 4); }), tiergraph::ErrorKind::kInput);
  tiergraph::LoadOptions random;
  random.random_weights = "1:5";
  EXPECT_EQ(error_kind([&] { tiergraph::from_edges(src.data(), dst.data(), 3, w.data(), 0, random); }),
            tiergraph::ErrorKind::kUsage);
  EXPECT_EQ(error_kind([&] { tiergraph::from_edges(nullptr, dst.data(), 3); }), tiergraph::ErrorKind::kUsage);
}

// LoadOptions::lists_by_weight: the same sssp distances as lists in id
// order, verified; without weights a usage error (load and from_edges).
TEST(Api, ListsByWeight) {
  tiergraph::LoadOptions by_id{.random_weights = "1:255"}, by_weight{.random_weights = "1:255", .lists_by_weight = true};
  tiergraph::Graph plain = tiergraph::load("kron:10", by_id), ordered = tiergraph::load("kron:10", by_weight);
  tiergraph::Result a = tiergraph::run("sssp", plain, cpu({3})), b = tiergraph::run("sssp", ordered, cpu({3}));
  EXPECT_TRUE(b.verified.value_or(false)) << b.verification;
  EXPECT_EQ(a.values, b.values);
  EXPECT_EQ(error_kind([] { tiergraph::load("kron:8", {.lists_by_weight = true}); }), tiergraph::ErrorKind::kUsage);
  const std::vector<uint64_t> src{0, 0}, dst{1, 2};
  const std::vector<float> w{2.0f, 1.0f};
  tiergraph::Graph edges = tiergraph::from_edges(src.data(), dst.data(), 2, w.data(), 3, {.lists_by_weight = true});
  EXPECT_EQ(std::get<std::vector<double>>(tiergraph::run("sssp", edges, cpu({0})).values), (std::vector<double>{0, 2, 1}));
  EXPECT_EQ(error_kind([&] { tiergraph::from_edges(src.data(), dst.data(), 2, nullptr, 3, {.lists_by_weight = true}); }),
            tiergraph::ErrorKind::kUsage);
}

TEST(Api, EmptyGraphHandle) {
  tiergraph::Graph g;
  EXPECT_TRUE(g.empty());
  EXPECT_EQ(g.num_vertices(), 0u);
  EXPECT_EQ(g.name(), "");
}

}  // namespace
