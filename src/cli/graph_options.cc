#include "cli/graph_options.h"

#include <unistd.h>

#include "cli/choices.h"

namespace tg::cli {

void GraphOptions::add_to(CLI::App& command, GraphFlag flag) {
  if (flag != GraphFlag::kNone) {
    auto* g = command.add_option("-g,--graph", graph, "Graph file (.el .txt .wel .mtx .gr .sg .wsg .tgb, also .gz .zst .xz) or generator: kron:SCALE, urand:SCALE");
    if (flag == GraphFlag::kRequired) g->required();
  }
  command.add_flag("-u,--undirected", undirected, "Treat every edge as undirected (add the reverse edges)");
  command.add_flag("--simplify", simplify, "Drop self loops and duplicate edges");
  command.add_option("--weights", weights, "Give every edge a random integer weight in LOW:HIGH (papers: 8:72)");
  command.add_option("--weight-seed", weight_seed, "Seed for --weights")->capture_default_str()->check(WholeNumberValidator());
  command.add_flag("--ids64", ids64, "Use 64-bit vertex ids even when 32 bits suffice");
  command.add_flag("--lists-by-weight", lists_by_weight,
                   "Order every neighbour list by weight (SSSP on the GPU then reads a list's light edges apart from "
                   "its heavy ones); convert or generate with it to store the order in the .tgb");
  command.add_option("--edge-factor", edge_factor, "Generators: edges per vertex")->capture_default_str()->check(CLI::Range(1, 1 << 20));
  command.add_option("--seed", seed, "Generators: random seed")->capture_default_str()->check(WholeNumberValidator());
  command.add_flag("-q,--quiet", quiet, "No progress lines on stderr");
}

LoadOptions GraphOptions::load_options(bool in_edges) const {
  LoadOptions o;
  o.build.undirected = undirected;
  o.build.simplify = simplify;
  o.build.in_edges = in_edges;
  o.build.force_64bit_ids = ids64;
  o.lists_by_weight = lists_by_weight;
  if (!weights.empty()) o.build.random_weights = parse_weight_range(weights);
  o.build.weight_seed = weight_seed;
  o.edge_factor = edge_factor;
  o.seed = seed;
  o.progress = show_progress(quiet);
  return o;
}

bool show_progress(bool quiet) { return !quiet && isatty(2); }

}  // namespace tg::cli
