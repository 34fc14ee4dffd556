#include "formats/load_graph.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "core/error.h"
#include "formats/input_file.h"
#include "formats/progress.h"
#include "formats/readers.h"
#include "generators/generators.h"
#include "graph/builder.h"
#include "graph/weight_order.h"

namespace tg {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

constexpr const char* kKnownExtensions =
    ".el .txt .wel .mtx .gr (optionally compressed: .gz .zst .xz), .sg .wsg .tgb";

bool is_binary(FileFormat f) { return f == FileFormat::kGapSg || f == FileFormat::kGapWsg || f == FileFormat::kBinary; }

// True when the options ask for a graph other than the one stored.
bool needs_rebuild(const AnyGraph& g, const BuildOptions& b) {
  bool directed = std::visit([](const auto& x) { return x.directed; }, g);
  return b.simplify || b.random_weights.has_value() || (b.undirected && directed) ||
         (b.force_64bit_ids && vertex_id_bytes(g) == 4);
}

}  // namespace

FileFormat format_from_path(const std::string& path) {
  std::string name = lower(formats::base_name(path));
  bool compressed = false;
  for (const char* c : {".gz", ".zst", ".xz"}) {
    if (ends_with(name, c) && name.size() > std::strlen(c)) {
      name.resize(name.size() - std::strlen(c));
      compressed = true;
      break;
    }
  }
  size_t dot = name.find_last_of('.');
  std::string ext = dot == std::string::npos ? "" : name.substr(dot);
  FileFormat f;
  if (ext == ".el" || ext == ".txt") f = FileFormat::kEdgeList;
  else if (ext == ".wel") f = FileFormat::kWeightedEdgeList;
  else if (ext == ".mtx") f = FileFormat::kMatrixMarket;
  else if (ext == ".gr") f = FileFormat::kDimacs;
  else if (ext == ".sg") f = FileFormat::kGapSg;
  else if (ext == ".wsg") f = FileFormat::kGapWsg;
  else if (ext == ".tgb") f = FileFormat::kBinary;
  else if (ext.empty())
    throw input_error(path, std::string("no file extension to tell the format by (known: ") + kKnownExtensions + ")");
  else
    throw input_error(path, "unknown graph file extension '" + ext + "' (known: " + kKnownExtensions + ")");
  if (compressed && is_binary(f))
    throw input_error(path, "compressed " + ext + " files are not supported (decompress it first)");
  return f;
}

namespace {

AnyGraph load(const std::string& spec, const LoadOptions& options);

}  // namespace

AnyGraph load_graph(const std::string& spec, const LoadOptions& options) {
  try {
    AnyGraph graph = load(spec, options);
    if (options.lists_by_weight) {
      if (options.map_tgb)
        throw usage_error(spec + ": --lists-by-weight cannot reorder a mapped file (--host-mem); order it once with "
                                 "`tiergraph convert IN OUT.tgb --lists-by-weight`");
      order_lists_by_weight(graph, spec);
    }
    return graph;
  } catch (const std::bad_alloc&) {
    // Typically one huge id in a small file: |V| is the largest id + 1.
    throw Error(spec + ": out of memory while loading the graph (is a vertex id far larger than the vertex count?)");
  }
}

namespace {

AnyGraph load(const std::string& spec, const LoadOptions& options) {
  if (is_generator_spec(spec)) {
    GeneratorSpec g = parse_generator_spec(spec, options.edge_factor, options.seed);
    BuildOptions build = options.build;
    build.simplify = true;  // as GAP's generated graphs
    EdgeBlocks blocks = generated_edges(g);
    // The builder draws every block twice (count, then place): progress over
    // both, 16 bytes an edge drawn (its two ids), from the first thread only
    // (the meter is not shared).
    auto meter = std::make_shared<formats::ProgressMeter>(options.progress, "generating " + spec + " (two passes)",
                                                          2 * blocks.num_edges * 16, "edges drawn");
    if (meter->enabled()) {
      auto drawn = std::make_shared<std::atomic<uint64_t>>(0);
      blocks.fill = [fill = blocks.fill, meter, drawn](uint64_t b, uint64_t* src, uint64_t* dst) {
        const uint64_t count = fill(b, src, dst);
        const uint64_t total = drawn->fetch_add(count, std::memory_order_relaxed) + count;
        if (omp_get_thread_num() == 0) meter->update(total * 16, total);
        return count;
      };
    }
    AnyGraph graph = build_graph(blocks, build);
    meter->finish();
    return graph;
  }
  const FileFormat format = format_from_path(spec);
  if (is_binary(format)) {
    AnyGraph g = format == FileFormat::kBinary ? read_binary_graph(spec, options.map_tgb ? TgbLoad::kMap : TgbLoad::kRead) : read_gap_graph(spec, format == FileFormat::kGapWsg);
    if (!needs_rebuild(g, options.build)) {
      if (options.build.in_edges) ensure_in_edges(g);
      return g;
    }
    EdgeList edges = to_edge_list(g);
    g = AnyGraph{};  // release the stored graph before building the new one
    return build_graph(std::move(edges), options.build);
  }
  EdgeList edges;
  switch (format) {
    case FileFormat::kEdgeList: edges = read_edge_list(spec, false, options.progress); break;
    case FileFormat::kWeightedEdgeList: edges = read_edge_list(spec, true, options.progress); break;
    case FileFormat::kMatrixMarket: edges = read_matrix_market(spec, options.progress); break;
    case FileFormat::kDimacs: edges = read_dimacs(spec, options.progress); break;
    default: break;
  }
  return build_graph(std::move(edges), options.build);
}

}  // namespace
}  // namespace tg
