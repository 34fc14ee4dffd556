// The verifiers must fail: each case takes a correct result (from the
// sequential reference), checks that the verifier accepts it, corrupts it in
// one way a buggy engine might, and checks that the verifier now refuses it
// with a message. A verifier that cannot fail is worthless.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <tuple>

#include "algorithms/verifier.h"
#include "engines/run.h"
#include "support/algorithm_checks.h"
#include "support/reference.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

const double kInf = std::numeric_limits<double>::infinity();

template <typename T>
ResultVector<T>& as(VertexValues& values) {
  return std::get<ResultVector<T>>(values);
}

AnyGraph shape_graph(const std::string& name, Orientation o = Orientation::kDirected) {
  return build_variant(find_shape(name).edges, o, false);
}

AnyGraph weighted_shape_graph(const std::string& name, Orientation o = Orientation::kDirected) {
  return build_variant(with_weights(find_shape(name).edges, WeightKind::kInteger, 5), o, false);
}

// A directed weighted graph from (u, v, w) triples.
AnyGraph graph_of(uint64_t n, const std::vector<std::tuple<uint64_t, uint64_t, float>>& edges) {
  EdgeList e;
  e.num_vertices = n;
  for (auto [u, v, w] : edges) {
    e.src.push_back(u);
    e.dst.push_back(v);
    e.weights.push_back(w);
  }
  return build_variant(e, Orientation::kDirected, false);
}

// Two unreachable vertices 2 and 3 joined both ways; 0 -> 1 reachable.
AnyGraph unreachable_cycle(float w) { return graph_of(4, {{0, 1, 3}, {2, 3, w}, {3, 2, w}}); }

struct Corruption {
  std::string name;
  std::string algorithm;
  std::function<AnyGraph()> graph;
  uint64_t source;
  std::function<void(VertexValues&, const AnyGraph&)> corrupt;
};

std::vector<Corruption> corruptions() {
  auto no_csc = [](const char* name) { return [=] { return shape_graph(name, Orientation::kDirectedNoCsc); }; };
  auto directed = [](const char* name) { return [=] { return shape_graph(name); }; };
  auto undirected = [](const char* name) { return [=] { return shape_graph(name, Orientation::kUndirected); }; };
  auto weighted = [](const char* name) { return [=] { return weighted_shape_graph(name); }; };
  return {
      // ---- BFS (path: depths 0..7) ----
      {"bfs_depth_too_large", "bfs", directed("path"), 0, [](auto& x, auto&) { as<int32_t>(x)[5] = 6; }},
      {"bfs_depth_too_small", "bfs", directed("path"), 0, [](auto& x, auto&) { as<int32_t>(x)[5] = 4; }},
      {"bfs_last_depth_too_small", "bfs", no_csc("path"), 0, [](auto& x, auto&) { as<int32_t>(x)[7] = 6; }},
      {"bfs_reached_marked_unreached", "bfs", directed("path"), 0, [](auto& x, auto&) { as<int32_t>(x)[7] = -1; }},
      {"bfs_unreachable_marked_reached", "bfs", directed("pieces"), 3,
       [](auto& x, auto&) { as<int32_t>(x)[1] = 2; }},
      {"bfs_source_not_zero", "bfs", directed("path"), 0, [](auto& x, auto&) { as<int32_t>(x)[0] = 1; }},
      {"bfs_depth_below_minus_one", "bfs", directed("path"), 0, [](auto& x, auto&) { as<int32_t>(x)[3] = -2; }},
      {"bfs_swapped_depths", "bfs", undirected("grid"), 0,
       [](auto& x, auto&) { std::swap(as<int32_t>(x)[1], as<int32_t>(x)[19]); }},
      {"bfs_all_zero", "bfs", undirected("grid"), 0,
       [](auto& x, auto&) { std::fill(as<int32_t>(x).begin(), as<int32_t>(x).end(), 0); }},
      {"bfs_too_few_values", "bfs", directed("path"), 0, [](auto& x, auto&) { as<int32_t>(x).pop_back(); }},
      {"bfs_wrong_value_type", "bfs", directed("path"), 0,
       [](auto& x, auto&) { x = ResultVector<double>(as<int32_t>(x).begin(), as<int32_t>(x).end()); }},
      // ---- SSSP (grid, integer weights, all reachable from 0) ----
      {"sssp_plus_one", "sssp", weighted("grid"), 0, [](auto& x, auto&) { as<double>(x)[19] += 1; }},
      {"sssp_minus_one", "sssp", weighted("grid"), 0, [](auto& x, auto&) { as<double>(x)[7] -= 1; }},
      {"sssp_relative_error_1e-6", "sssp", weighted("grid"), 0,
       [](auto& x, auto&) { as<double>(x)[19] *= 1 + 1e-6; }},
      {"sssp_finite_made_inf", "sssp", weighted("grid"), 0, [](auto& x, auto&) { as<double>(x)[12] = kInf; }},
      {"sssp_nan", "sssp", weighted("grid"), 0, [](auto& x, auto&) { as<double>(x)[3] = std::nan(""); }},
      {"sssp_negative", "sssp", weighted("grid"), 0, [](auto& x, auto&) { as<double>(x)[3] = -1; }},
      {"sssp_source_not_zero", "sssp", weighted("grid"), 0, [](auto& x, auto&) { as<double>(x)[0] = 0.5; }},
      {"sssp_zero_weight_cycle_made_finite", "sssp", [] { return unreachable_cycle(0); }, 0,
       [](auto& x, auto&) { as<double>(x)[2] = as<double>(x)[3] = 5; }},
      // ---- CC (pieces: {0} {1,5,9} {2,10} {3,7,11} {4,6,8}) ----
      {"cc_merged_components", "cc", undirected("pieces"), 0,
       [](auto& x, auto&) { as<uint64_t>(x)[2] = as<uint64_t>(x)[10] = 1; }},
      {"cc_merged_with_isolated", "cc", directed("pieces"), 0,
       [](auto& x, auto&) { as<uint64_t>(x)[3] = as<uint64_t>(x)[7] = as<uint64_t>(x)[11] = 0; }},
      {"cc_split_component", "cc", undirected("pieces"), 0, [](auto& x, auto&) { as<uint64_t>(x)[11] = 11; }},
      {"cc_label_not_smallest", "cc", undirected("pieces"), 0,
       [](auto& x, auto&) { as<uint64_t>(x)[1] = as<uint64_t>(x)[5] = as<uint64_t>(x)[9] = 5; }},
      {"cc_label_not_own_label", "cc", undirected("pieces"), 0, [](auto& x, auto&) { as<uint64_t>(x)[9] = 5; }},
      {"cc_label_out_of_range", "cc", undirected("pieces"), 0, [](auto& x, auto&) { as<uint64_t>(x)[0] = 12; }},
      {"cc_all_zero", "cc", undirected("pieces"), 0,
       [](auto& x, auto&) { std::fill(as<uint64_t>(x).begin(), as<uint64_t>(x).end(), 0); }},
      // ---- PageRank ----
      {"pagerank_unnormalized", "pagerank", directed("random_1"), 0,
       [](auto& x, auto&) {
         for (double& s : as<double>(x)) s *= 2;
       }},
      {"pagerank_mass_moved", "pagerank", directed("random_1"), 0,
       [](auto& x, auto&) {
         auto& s = as<double>(x);
         size_t top = std::max_element(s.begin(), s.end()) - s.begin();
         s[top] -= 0.001;
         s[(top + 1) % s.size()] += 0.001;
       }},
      {"pagerank_mass_moved_no_csc", "pagerank", no_csc("random_2"), 0,
       [](auto& x, auto&) {
         auto& s = as<double>(x);
         size_t top = std::max_element(s.begin(), s.end()) - s.begin();
         s[top] -= 0.001;
         s[(top + 1) % s.size()] += 0.001;
       }},
      {"pagerank_uniform", "pagerank", directed("star_out"), 0,
       [](auto& x, auto&) {
         auto& s = as<double>(x);
         std::fill(s.begin(), s.end(), 1.0 / s.size());
       }},
      {"pagerank_dangling_mass_dropped", "pagerank", directed("star_out"), 0,
       [](auto& x, auto& g) {
         // The scores without the dangling mass spread, renormalized.
         auto& s = as<double>(x);
         const double n = s.size(), d = 0.85;
         std::vector<double> next(s.size(), (1 - d) / n);
         for (size_t v = 1; v < s.size(); ++v) next[v] += d * s[0] / (n - 1);
         double total = 0;
         for (double t : next) total += t;
         for (size_t v = 0; v < s.size(); ++v) s[v] = next[v] / total;
         (void)g;
       }},
      {"pagerank_negative", "pagerank", directed("random_1"), 0, [](auto& x, auto&) { as<double>(x)[4] *= -1; }},
      {"pagerank_nan", "pagerank", directed("random_1"), 0, [](auto& x, auto&) { as<double>(x)[4] = std::nan(""); }},
      {"pagerank_three_iterations", "pagerank", directed("kron_1"), 0,
       [](auto& x, auto& g) {
         RunRequest r = make_request(algorithm("pagerank"));
         r.options.max_iters = 3;
         x = run_on_cpu(g, prepare_request(g, r)).values;
       }},
      // ---- SSWP (grid, integer weights 1..9, all reachable from 0) ----
      {"sswp_too_wide", "sswp", weighted("grid"), 0, [](auto& x, auto&) { as<float>(x)[19] += 1; }},
      {"sswp_too_narrow", "sswp", weighted("grid"), 0, [](auto& x, auto&) { as<float>(x)[7] -= 0.5f; }},
      {"sswp_reachable_made_zero", "sswp", weighted("grid"), 0, [](auto& x, auto&) { as<float>(x)[12] = 0; }},
      {"sswp_source_not_inf", "sswp", weighted("grid"), 0, [](auto& x, auto&) { as<float>(x)[0] = 9; }},
      {"sswp_negative", "sswp", weighted("grid"), 0, [](auto& x, auto&) { as<float>(x)[5] = -1; }},
      {"sswp_unreachable_cycle_made_wide", "sswp", [] { return unreachable_cycle(5); }, 0,
       [](auto& x, auto&) { as<float>(x)[2] = as<float>(x)[3] = 5; }},
      // ---- SSNSP ----
      {"ssnsp_plus_one", "ssnsp", directed("tied_layers"), 0, [](auto& x, auto&) { as<double>(x)[90] += 1; }},
      {"ssnsp_plus_one_no_csc", "ssnsp", no_csc("tied_layers"), 0, [](auto& x, auto&) { as<double>(x)[50] += 1; }},
      {"ssnsp_unreached_counted", "ssnsp", directed("pieces"), 3, [](auto& x, auto&) { as<double>(x)[1] = 1; }},
      {"ssnsp_source_two", "ssnsp", directed("path"), 0, [](auto& x, auto&) { as<double>(x)[0] = 2; }},
      {"ssnsp_duplicates_ignored", "ssnsp", directed("loops_and_duplicates"), 0,
       [](auto& x, auto&) {
         EdgeList e = find_shape("loops_and_duplicates").edges;
         BuildOptions simple;
         simple.simplify = true;
         x = to_result_vector(reference_ssnsp(build_graph(std::move(e), simple), 0));
       }},
      {"ssnsp_self_loop_counted", "ssnsp", directed("loops_and_duplicates"), 0,
       [](auto& x, auto&) { as<double>(x)[1] *= 2; }},
      {"ssnsp_beyond_2_53_off_by_1e-6", "ssnsp", directed("diamonds"), 0,
       [](auto& x, auto&) { as<double>(x).back() *= 1 + 1e-6; }},
  };
}

// Test names show the case, not its bytes.
void PrintTo(const Corruption& c, std::ostream* os) { *os << c.name; }

class VerifierRejects : public ::testing::TestWithParam<Corruption> {};

TEST_P(VerifierRejects, Corruption) {
  const Corruption& c = GetParam();
  const AlgorithmInfo& a = algorithm(c.algorithm);
  AnyGraph graph = c.graph();
  AlgorithmOptions options;
  const Sources sources = a.needs_source() ? Sources{c.source} : Sources{};
  VertexValues values = reference(a, graph, sources, options);
  ASSERT_TRUE(passes_verifier(a, graph, sources, values, options)) << "the correct result must pass";
  c.corrupt(values, graph);
  Verification v = verify(a, graph, sources, values, options);
  EXPECT_FALSE(v.ok) << "the verifier accepted a corrupted result: " << v.message;
  EXPECT_FALSE(v.message.empty());
  EXPECT_EQ(v.message.find('\n'), std::string::npos) << "one line: " << v.message;
  RecordProperty("message", v.message);
}

INSTANTIATE_TEST_SUITE_P(Verifiers, VerifierRejects, ::testing::ValuesIn(corruptions()),
                         [](const ::testing::TestParamInfo<Corruption>& info) {
                           std::string name = info.param.name;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

// ---- what the verifiers must accept ----

TEST(VerifierAccepts, RoundingWithinTolerance) {
  AnyGraph graph = weighted_shape_graph("grid");
  AlgorithmOptions options;
  VertexValues dist = to_result_vector(reference_sssp(graph, 0));
  as<double>(dist)[19] *= 1 + 1e-12;
  EXPECT_TRUE(passes_verifier(algorithm("sssp"), graph, {0}, dist, options));

  AnyGraph diamonds = shape_graph("diamonds");
  VertexValues paths = to_result_vector(reference_ssnsp(diamonds, 0));
  EXPECT_EQ(as<double>(paths).back(), std::ldexp(1.0, 64));
  as<double>(paths).back() *= 1 + 1e-12;  // beyond 2^53 counts compare relatively
  EXPECT_TRUE(passes_verifier(algorithm("ssnsp"), diamonds, {0}, paths, options));
}

TEST(VerifierAccepts, ZeroWeightCycleReachable) {
  // 0 -> 1 -> 2 -> 1 with 0-weight edges between 1 and 2: ties everywhere.
  AnyGraph graph = graph_of(3, {{0, 1, 2}, {1, 2, 0}, {2, 1, 0}});
  EXPECT_TRUE(passes_verifier(algorithm("sssp"), graph, {0}, ResultVector<double>{0, 2, 2}, {}));
  EXPECT_TRUE(passes_verifier(algorithm("sswp"), graph, {0}, ResultVector<float>{kInfWidth, 2, 0}, {}));
}

TEST(VerifierAccepts, PageRankStoppedByTolerance) {
  // The engine's own result at the default tolerance passes: the residual bound is not too tight.
  for (const char* name : {"kron_1", "random_1", "star_out", "star_in", "cycle", "isolated"}) {
    AnyGraph graph = shape_graph(name);
    RunRequest r = make_request(algorithm("pagerank"));
    r.options.tolerance = 1e-4;  // loose, so the bound is tested and not the limit
    RunOutput out = run_on_cpu(graph, prepare_request(graph, r));
    EXPECT_TRUE(passes_verifier(algorithm("pagerank"), graph, {}, out.values, r.options)) << name;
  }
}

TEST(VerifierAccepts, EmptyGraph) {
  AnyGraph graph = shape_graph("empty");
  EXPECT_TRUE(passes_verifier(algorithm("cc"), graph, {}, ResultVector<uint64_t>{}, {}));
  EXPECT_TRUE(passes_verifier(algorithm("pagerank"), graph, {}, ResultVector<double>{}, {}));
  Verification v = verify(algorithm("bfs"), graph, {0}, ResultVector<int32_t>{}, {});
  EXPECT_FALSE(v.ok) << "no vertex can be the source";
}

TEST(VerifierMessages, NameFileIdsAndValues) {
  // With id_base 1 (as for .mtx and .gr) the message uses the file's ids.
  EdgeList e = find_shape("path").edges;
  e.id_base = 1;
  AnyGraph graph = build_variant(e, Orientation::kDirected, false);
  VertexValues depth = to_result_vector(reference_bfs(graph, 0));
  as<int32_t>(depth)[7] = 3;
  Verification v = verify(algorithm("bfs"), graph, {0}, depth, {});
  ASSERT_FALSE(v.ok);
  EXPECT_NE(v.message.find("vertex 8"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("depth 3"), std::string::npos) << v.message;

  VertexValues good = to_result_vector(reference_bfs(graph, 0));
  Verification ok = verify(algorithm("bfs"), graph, {0}, good, {});
  EXPECT_TRUE(ok.ok);
  EXPECT_EQ(ok.message, "checked 8 vertices, 7 edges");
}

}  // namespace
}  // namespace tg::test
