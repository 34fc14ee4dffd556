#include "cli/host_mem_option.h"

#include "cli/sizes.h"
#include "core/error.h"
#include "engines/paged/edge_file.h"
#include "formats/load_graph.h"
#include "generators/generators.h"

namespace tg::cli {

uint64_t host_mem_budget(const std::string& text, const std::string& graph_spec, const GraphOptions& graph,
                         bool on_gpu, bool gpu_stream) {
  const uint64_t budget = parse_size(text, "--host-mem");
  if (on_gpu && !gpu_stream)
    throw usage_error("--host-mem: the CPU engine and one GPU's --placement stream read edges from the file (run: "
                      "--engine cpu, or --engine gpu|hybrid --placement stream; bench: --placements cpu,stream,"
                      "stream-pt,stream-pt-opt,hybrid-stream)");
  if (is_generator_spec(graph_spec) || format_from_path(graph_spec) != FileFormat::kBinary)
    throw usage_error("--host-mem reads the edges from a .tgb file: convert " + graph_spec + " first (tiergraph convert " +
                      graph_spec + " OUT.tgb)");
  if (graph.undirected || graph.simplify || !graph.weights.empty() || graph.ids64)
    throw usage_error("--host-mem reads the edges as the .tgb file stores them: --undirected, --simplify, --weights "
                      "and --ids64 would rebuild the graph in memory (convert it with them instead)");
  return budget;
}

bool host_mem_in_edges(const std::string& graph_spec, const AlgorithmInfo& algorithm, Need in_edges) {
  if (in_edges == Need::kNo || !paged::tgb_lacks_in_edges(graph_spec)) return in_edges != Need::kNo;
  if (in_edges == Need::kYes)
    throw usage_error("--host-mem: " + graph_spec + " stores no in-edges, which " + algorithm.name() +
                      " reads; convert it with --in-edges");
  return false;
}

}  // namespace tg::cli
