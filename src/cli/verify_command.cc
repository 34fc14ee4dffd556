// tiergraph verify ALGO --graph G --results FILE: checks per-vertex results,
// ours or another tool's, with the algorithm's independent verifier.
#include <cstdio>
#include <memory>

#include "algorithms/verifier.h"
#include "cli/choices.h"
#include "cli/commands.h"
#include "cli/graph_options.h"
#include "cli/result_file.h"
#include "cli/run_setup.h"
#include "cli/verify_report.h"
#include "core/error.h"

namespace tg::cli {

namespace {

struct VerifyOptions {
  std::string algorithm;
  GraphOptions graph;
  std::string results;
  SourceOptions sources;
  AlgorithmOptions algo;
  bool json = false;
};

void verify_file(const VerifyOptions& o) {
  const AlgorithmInfo& algorithm = algorithm_named(o.algorithm);
  VerifyReport r{&algorithm, {}, o.results, {}, {}};
  auto t = std::chrono::steady_clock::now();
  AnyGraph graph = load_graph(o.graph.graph, o.graph.load_options(false));
  r.phases_s.emplace_back("load", lap(t));
  const int id_base = std::visit([](const auto& g) { return g.id_base; }, graph);
  r.sources = o.sources.resolve(graph, algorithm);
  VertexValues values = read_results(o.results, algorithm, num_vertices(graph), id_base);
  r.phases_s.emplace_back("read", lap(t));
  Verification v = r.verification = tg::verify(algorithm, graph, r.sources, values, o.algo);
  r.phases_s.emplace_back("verify", lap(t));
  if (o.json) std::printf("%s\n", to_json(graph, r).dump().c_str());
  else std::printf("verify %s: %s: %s\n", algorithm.name().c_str(), v.ok ? "PASS" : "FAIL", v.message.c_str());
  std::fflush(stdout);
  if (!v.ok) throw verification_error("verification failed: " + v.message);
}

}  // namespace

void add_verify_command(CLI::App& app) {
  auto o = std::make_shared<VerifyOptions>();
  CLI::App* cmd = app.add_subcommand("verify", "Check a result file with the algorithm's independent verifier");
  add_algorithm_argument(*cmd, o->algorithm);
  o->graph.add_to(*cmd);
  cmd->add_option("-r,--results", o->results, "Result file: one '<id> <value>' line per vertex")->required();
  o->sources.add_to(*cmd, true);
  cmd->add_option("--tolerance", o->algo.tolerance, "PageRank: the tolerance the run used")->capture_default_str();
  cmd->add_option("--damping", o->algo.damping, "PageRank damping factor")->capture_default_str();
  cmd->add_flag("--json", o->json, "Print one JSON record (ok, message, ...) instead of the PASS/FAIL line");
  cmd->callback([o]() { verify_file(*o); });
}

}  // namespace tg::cli
