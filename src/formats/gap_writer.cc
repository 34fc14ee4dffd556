// GAP's serialized graphs written (.sg, .wsg), in the layout gap_reader.cc
// reads and GAP's own WriterBase::WriteSerializedGraph writes, so that GAP
// (sbeamer/gapbs) can run on exactly the graph tiergraph runs on: one
// generated here, or renumbered by `convert --vertex-order degree`.
//
// GAP's ids are int32 (NodeID) and its weights int32 (WeightT): a graph of
// 2^31 or more vertices, or a weight that is not an integer in int32's range,
// is refused rather than written wrong. The ids written are tiergraph's
// internal ones, from 0 (a 1-based file's vertex 1 is GAP's 0).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "formats/output_file.h"
#include "formats/readers.h"
#include "graph/builder.h"

namespace tg {
namespace {

constexpr uint64_t kBatch = uint64_t{1} << 20;  // entries converted at a time

// The first entry whose weight GAP's int32 cannot hold exactly, or m.
uint64_t first_inexact_weight(const Array<weight_t>& weights) {
  const uint64_t m = weights.size();
  uint64_t bad = m;
#pragma omp parallel for reduction(min : bad)
  for (uint64_t i = 0; i < m; ++i) {
    const double w = weights[i];
    if (!(w >= std::numeric_limits<int32_t>::min() && w <= std::numeric_limits<int32_t>::max()) || w != std::floor(w))
      bad = std::min(bad, i);
  }
  return bad;
}

template <typename V>
void check_weights(const Csr<V>& csr, const char* which, const std::string& path) {
  const uint64_t bad = first_inexact_weight(csr.weights);
  if (bad == csr.weights.size()) return;
  const auto* off = csr.offsets.data();
  const uint64_t vertex = static_cast<uint64_t>(std::upper_bound(off, off + csr.offsets.size(), bad) - off - 1);
  throw usage_error("cannot write " + path + ": " + which + " entry " + std::to_string(bad) + " (of vertex " +
                    std::to_string(vertex) + ") has weight " +
                    std::to_string(csr.weights[bad]) + ", and a GAP .wsg file holds integer weights (int32)");
}

template <typename V>
void write_gap(const Graph<V>& g, const std::string& path, bool weighted, bool progress) {
  const uint64_t n = g.num_vertices, m = g.num_edges();
  if (n > static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))
    throw usage_error("cannot write " + path + ": " + std::to_string(n) +
                      " vertices do not fit GAP's int32 node ids (at most 2147483647)");
  if (weighted && !g.weighted() && m > 0)  // without edges there are no weights to hold (a weighted file --simplify emptied)
    throw usage_error("cannot write " + path + ": a .wsg file holds weights and the graph has none (.sg is GAP's "
                      "unweighted form; generators take --weights LO:HI)");
  if (g.directed && !g.in.built())
    throw Error("cannot write " + path + ": a directed graph's in-edges are needed (internal: not built)");
  const bool both = g.directed;
  if (weighted) {
    check_weights(g.out, "out-edge", path);
    if (both) check_weights(g.in, "in-edge", path);
  }
  const uint64_t entry = weighted ? 8 : 4;
  const uint64_t csr_bytes = (n + 1) * 8 + m * entry;
  const uint64_t file_bytes = 1 + 8 + 8 + csr_bytes * (both ? 2 : 1);

  formats::OutputFile file(path, file_bytes, progress);
  unsigned char header[17];
  header[0] = both ? 1 : 0;
  const int64_t edges = static_cast<int64_t>(m), nodes = static_cast<int64_t>(n);
  std::memcpy(header + 1, &edges, 8);
  std::memcpy(header + 9, &nodes, 8);
  file.put(header, sizeof header, 0);
  uint64_t pos = sizeof header;
  std::vector<int32_t> buffer;
  auto put_csr = [&](const Csr<V>& c) {
    static_assert(sizeof(eid_t) == 8);  // GAP's offsets are int64, ours uint64 below 2^63
    file.put(c.offsets.data(), (n + 1) * 8, pos);
    pos += (n + 1) * 8;
    if (!weighted && sizeof(V) == 4) {
      file.put(c.neighbors.data(), m * 4, pos);
      pos += m * 4;
      return;
    }
    const uint64_t width = weighted ? 2 : 1;
    buffer.resize(width * std::min(m, kBatch));
    for (uint64_t done = 0; done < m;) {
      const uint64_t count = std::min(kBatch, m - done);
#pragma omp parallel for schedule(static) if (count > 65536)
      for (uint64_t i = 0; i < count; ++i) {
        buffer[width * i] = static_cast<int32_t>(c.neighbors[done + i]);
        if (weighted) buffer[width * i + 1] = static_cast<int32_t>(c.weights[done + i]);
      }
      file.put(buffer.data(), count * width * 4, pos);
      pos += count * width * 4;
      done += count;
    }
  };
  put_csr(g.out);
  if (both) put_csr(g.in);
  file.commit(file_bytes);
}

}  // namespace

void write_gap_graph(AnyGraph& graph, const std::string& path, bool weighted, bool progress) {
  ensure_in_edges(graph);
  std::visit([&](const auto& g) { write_gap(g, path, weighted, progress); }, graph);
}

}  // namespace tg
