// tiergraph convert IN OUT and tiergraph generate SPEC OUT: load (or generate)
// a graph, transform it, and write it in tiergraph's binary format, which
// loads at the speed of the disk.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "cli/choices.h"
#include "cli/commands.h"
#include "cli/graph_options.h"
#include "core/error.h"
#include "engines/vertex_order.h"
#include "formats/readers.h"
#include "formats/text_output.h"
#include "graph/relabel.h"

namespace tg::cli {

namespace {

struct ConvertOptions {
  GraphOptions graph;
  std::string output;
  bool in_edges = false;
  VertexOrder vertex_order = VertexOrder::kAsLoaded;
  std::string order_out;  // where to write the old id of each new id
};

// Renumbers the graph as --vertex-order asks (graph/relabel.h: lists by new
// id, or by weight where they were), and writes the old id of every new id,
// as the input numbers it, one a line, to --order-out. The new ids start at 0.
void apply_vertex_order(AnyGraph& graph, const ConvertOptions& o) {
  if (o.vertex_order == VertexOrder::kAsLoaded) {
    if (!o.order_out.empty()) throw usage_error("--order-out needs --vertex-order degree");
    return;
  }
  const std::vector<uint64_t> order = degree_order(graph);
  const uint64_t base = static_cast<uint64_t>(std::visit([](const auto& g) { return g.id_base; }, graph));
  graph = relabel(graph, order);
  if (o.order_out.empty()) return;
  formats::TextOutput out(o.order_out);  // buffered: a line at a time
  for (uint64_t old_id : order) {
    out.write(std::to_string(old_id + base));
    out.write("\n");
  }
  out.commit();
}

// The output's format by its name: tiergraph's .tgb, or GAP's .sg / .wsg (to
// run GAP's kernels on the same graph, gap_writer.cc).
// A name no reader knows (out.unknown) is refused here too, as usage: it is
// the name asked for, not a file read.
FileFormat output_format(const std::string& path) {
  std::optional<FileFormat> f;
  try {
    f = format_from_path(path);
  } catch (const Error&) {
  }
  if (f == FileFormat::kBinary || f == FileFormat::kGapSg || f == FileFormat::kGapWsg) return *f;
  throw usage_error(path + ": can write tiergraph's binary format (FILE.tgb) or GAP's serialized graph (FILE.sg, "
                    "FILE.wsg with weights); name the output so");
}

void convert(const ConvertOptions& o) {
  const FileFormat format = output_format(o.output);
  auto t0 = std::chrono::steady_clock::now();
  AnyGraph graph = load_graph(o.graph.graph, o.graph.load_options(o.in_edges));
  auto t1 = std::chrono::steady_clock::now();
  apply_vertex_order(graph, o);
  auto t2 = std::chrono::steady_clock::now();
  if (format == FileFormat::kBinary) write_binary_graph(graph, o.output, show_progress(o.graph.quiet));
  else write_gap_graph(graph, o.output, format == FileFormat::kGapWsg, show_progress(o.graph.quiet));
  auto t3 = std::chrono::steady_clock::now();
  char renumbered[48] = "";
  if (o.vertex_order != VertexOrder::kAsLoaded)
    std::snprintf(renumbered, sizeof renumbered, "renumber %.2f s, ", std::chrono::duration<double>(t2 - t1).count());
  const int id_bytes = format == FileFormat::kBinary ? vertex_id_bytes(graph) : 4;
  // GAP's .sg of a weighted graph is its unweighted copy (for GAP's BFS or CC): said, as it is not a full copy.
  if (format == FileFormat::kGapSg && std::visit([](const auto& g) { return g.weighted(); }, graph))
    std::fprintf(stderr, "note: %s holds no weights: the graph's are left out (FILE.wsg keeps them)\n",
                 o.output.c_str());
  std::printf("wrote %s: %llu vertices, %llu edges, %s, %d-byte ids (load %.2f s, %swrite %.2f s)\n", o.output.c_str(),
              static_cast<unsigned long long>(num_vertices(graph)), static_cast<unsigned long long>(num_edges(graph)),
              std::visit([](const auto& g) { return g.directed; }, graph) ? "directed" : "undirected",
              id_bytes, std::chrono::duration<double>(t1 - t0).count(),
              renumbered,
              std::chrono::duration<double>(t3 - t2).count());
}

constexpr const char* kOutputHelp =
    "Output file: FILE.tgb (tiergraph's), or GAP's FILE.sg / FILE.wsg (weights as int32; ids from 0)";

void add_common(CLI::App* cmd, const std::shared_ptr<ConvertOptions>& o) {
  o->graph.add_to(*cmd, GraphOptions::GraphFlag::kNone);
  cmd->add_flag("--in-edges", o->in_edges, "Also store the in-edges (CSC) of a directed graph");
  add_choice(*cmd, "--vertex-order", o->vertex_order, vertex_order_choices(),
             "Store the graph renumbered this way (new ids from 0; the per-vertex arrays' hot entries then share "
             "cache lines)");
  cmd->add_option("--order-out", o->order_out,
                  "With --vertex-order degree: write the input's id of each new id, one a line (line i is new id "
                  "i - 1)");
  cmd->callback([o]() { convert(*o); });
}

}  // namespace

void add_convert_command(CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  CLI::App* cmd =
      app.add_subcommand("convert", "Convert a graph file to tiergraph's binary format (.tgb) or GAP's (.sg, .wsg)");
  cmd->add_option("input", o->graph.graph, "Input graph file (any supported format) or generator spec")->required();
  cmd->add_option("output", o->output, kOutputHelp)->required();
  add_common(cmd, o);
}

void add_generate_command(CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  CLI::App* cmd = app.add_subcommand(
      "generate", "Generate a graph (kron:SCALE, urand:SCALE) and write it as .tgb (or GAP's .sg, .wsg)");
  cmd->add_option("spec", o->graph.graph, "kron:SCALE (Graph500 Kronecker) or urand:SCALE (uniform random)")->required();
  cmd->add_option("output", o->output, kOutputHelp)->required();
  add_common(cmd, o);
}

}  // namespace tg::cli
