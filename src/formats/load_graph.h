// Loading a graph from a file (format chosen by extension, compressed text
// read directly) or from a generator spec, then building it.
#pragma once

#include <string>

#include "graph/builder.h"
#include "graph/graph.h"

namespace tg {

enum class FileFormat { kEdgeList, kWeightedEdgeList, kMatrixMarket, kDimacs, kGapSg, kGapWsg, kBinary };

// By extension, after removing .gz/.zst/.xz: .el .txt .wel .mtx .gr .sg .wsg .tgb.
// Throws tg::Error for an unknown extension, listing the known ones.
FileFormat format_from_path(const std::string& path);

struct LoadOptions {
  BuildOptions build;
  int edge_factor = 16;         // for generator specs
  uint64_t seed = 27491095;     // for generator specs
  bool progress = false;        // progress lines on stderr
  bool map_tgb = false;         // map a .tgb instead of reading it (--host-mem: readers.h, TgbLoad)
  bool lists_by_weight = false; // order every list by weight once loaded (graph/weight_order.h)
};

// PATH, or kron:S / urand:S. Generated graphs are simplified (no self loops,
// no duplicate edges) like GAP's. Throws tg::Error with a one-line message.
AnyGraph load_graph(const std::string& spec, const LoadOptions& options);

}  // namespace tg
