// tiergraph info GRAPH: sizes, id width and the degree distribution.
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/graph_options.h"

namespace tg::cli {

namespace {

struct InfoOptions {
  GraphOptions graph;
  bool json = false;
};

void info(const InfoOptions& o) {
  AnyGraph graph = load_graph(o.graph.graph, o.graph.load_options(false));
  DegreeStats s = degree_stats(graph);
  const bool directed = std::visit([](const auto& g) { return g.directed; }, graph);
  const bool weighted = std::visit([](const auto& g) { return g.weighted(); }, graph);
  const std::string name = std::visit([](const auto& g) { return g.name; }, graph);
  if (o.json) {
    nlohmann::json j = {{"graph", name},
                        {"vertices", s.num_vertices},
                        {"edges", s.num_edges},
                        {"directed", directed},
                        {"weighted", weighted},
                        {"vertex_id_bytes", vertex_id_bytes(graph)},
                        {"isolated_vertices", s.isolated},
                        {"zero_out_degree", s.zero_out_degree},
                        {"max_out_degree", s.max_out_degree},
                        {"mean_out_degree", s.mean_out_degree},
                        {"median_out_degree", s.median_out_degree},
                        {"self_loops", s.self_loops},
                        {"duplicate_edges", s.duplicate_edges},
                        {"out_degree_log2_histogram", s.log2_histogram}};
    std::printf("%s\n", j.dump().c_str());
    return;
  }
  std::printf("%s\n", name.c_str());
  std::printf("  vertices          %llu (%d-byte ids)\n", static_cast<unsigned long long>(s.num_vertices), vertex_id_bytes(graph));
  std::printf("  edges             %llu stored (%s, %s)\n", static_cast<unsigned long long>(s.num_edges),
              directed ? "directed" : "undirected: each edge stored in both directions", weighted ? "weighted" : "unweighted");
  std::printf("  out-degree        mean %.2f, median %llu, max %llu\n", s.mean_out_degree,
              static_cast<unsigned long long>(s.median_out_degree), static_cast<unsigned long long>(s.max_out_degree));
  std::printf("  isolated          %llu vertices; %llu without out-edges\n", static_cast<unsigned long long>(s.isolated),
              static_cast<unsigned long long>(s.zero_out_degree));
  std::printf("  self loops        %llu; duplicate edges %llu\n", static_cast<unsigned long long>(s.self_loops),
              static_cast<unsigned long long>(s.duplicate_edges));
  std::printf("  out-degree histogram (log2 buckets):\n");
  for (size_t k = 0; k < s.log2_histogram.size(); ++k)
    if (s.log2_histogram[k])
      std::printf("    [%llu, %llu)  %llu\n", k == 0 ? 1ull : 1ull << k, 1ull << (k + 1),
                  static_cast<unsigned long long>(s.log2_histogram[k]));
}

}  // namespace

void add_info_command(CLI::App& app) {
  auto o = std::make_shared<InfoOptions>();
  CLI::App* cmd = app.add_subcommand("info", "Show a graph's size, id width and degree distribution");
  cmd->add_option("input", o->graph.graph, "Graph file or generator spec")->required();
  o->graph.add_to(*cmd, GraphOptions::GraphFlag::kNone);
  cmd->add_flag("--json", o->json, "Print one JSON record");
  cmd->callback([o]() { info(*o); });
}

}  // namespace tg::cli
