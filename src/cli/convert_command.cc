// tiergraph convert IN OUT and tiergraph generate SPEC OUT: load (or generate)
// a graph, transform it, and write it in tiergraph's binary format, which
// loads at the speed of the disk.
#include <chrono>
#include <cstdio>
#include <memory>

#include "cli/commands.h"
#include "cli/graph_options.h"
#include "core/error.h"
#include "formats/readers.h"

namespace tg::cli {

namespace {

struct ConvertOptions {
  GraphOptions graph;
  std::string output;
  bool in_edges = false;
};

void convert(const ConvertOptions& o) {
  if (format_from_path(o.output) != FileFormat::kBinary)
    throw usage_error(o.output + ": can only write tiergraph's binary format; name the output FILE.tgb");
  auto t0 = std::chrono::steady_clock::now();
  AnyGraph graph = load_graph(o.graph.graph, o.graph.load_options(o.in_edges));
  auto t1 = std::chrono::steady_clock::now();
  write_binary_graph(graph, o.output, show_progress(o.graph.quiet));
  auto t2 = std::chrono::steady_clock::now();
  std::printf("wrote %s: %llu vertices, %llu edges, %s, %d-byte ids (load %.2f s, write %.2f s)\n", o.output.c_str(),
              static_cast<unsigned long long>(num_vertices(graph)), static_cast<unsigned long long>(num_edges(graph)),
              std::visit([](const auto& g) { return g.directed; }, graph) ? "directed" : "undirected",
              vertex_id_bytes(graph), std::chrono::duration<double>(t1 - t0).count(),
              std::chrono::duration<double>(t2 - t1).count());
}

void add_common(CLI::App* cmd, const std::shared_ptr<ConvertOptions>& o) {
  o->graph.add_to(*cmd, false);
  cmd->add_flag("--in-edges", o->in_edges, "Also store the in-edges (CSC) of a directed graph");
  cmd->callback([o]() { convert(*o); });
}

}  // namespace

void add_convert_command(CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  CLI::App* cmd = app.add_subcommand("convert", "Convert a graph file to tiergraph's binary format (.tgb)");
  cmd->add_option("input", o->graph.graph, "Input graph file (any supported format) or generator spec")->required();
  cmd->add_option("output", o->output, "Output file, FILE.tgb")->required();
  add_common(cmd, o);
}

void add_generate_command(CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  CLI::App* cmd = app.add_subcommand("generate", "Generate a graph (kron:SCALE, urand:SCALE) and write it as .tgb");
  cmd->add_option("spec", o->graph.graph, "kron:SCALE (Graph500 Kronecker) or urand:SCALE (uniform random)")->required();
  cmd->add_option("output", o->output, "Output file, FILE.tgb")->required();
  add_common(cmd, o);
}

}  // namespace tg::cli
