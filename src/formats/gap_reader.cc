// GAP's serialized graphs (.sg, .wsg), as written by GAP's WriterBase::
// WriteSerializedGraph (sbeamer/gapbs src/writer.h; docs/FORMATS.md says
// which commit). Native byte order (little-endian), no padding:
//
//   bool    directed                      1 byte
//   int64   num_edges                     entries in each neighbor array
//                                         (an undirected graph stores both
//                                         directions, so 2|E|)
//   int64   num_nodes
//   int64   offsets[num_nodes + 1]        out-neighborhood starts
//   DestID  neighbors[num_edges]          int32 id, or for .wsg the pair
//                                         (int32 id, int32 weight)
//   directed graphs only, the same two arrays again for the in-edges.
//
// The arrays are not aligned in the file, so they are read (pread) rather
// than mapped.
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"
#include "formats/input_file.h"
#include "formats/readers.h"

namespace tg {
namespace {

constexpr uint64_t kGapHeaderBytes = 1 + 8 + 8;

unsigned __int128 gap_file_bytes(uint64_t n, uint64_t m, bool directed, bool weighted) {
  unsigned __int128 arrays = (static_cast<unsigned __int128>(n) + 1) * 8 + static_cast<unsigned __int128>(m) * (weighted ? 8 : 4);
  return kGapHeaderBytes + arrays * (directed ? 2 : 1);
}

void read_csr(int fd, const std::string& path, uint64_t& pos, uint64_t n, uint64_t m, bool weighted, const char* which,
              Csr<vid32_t>& csr) {
  csr.offsets = Array<eid_t>::allocate(n + 1);
  formats::read_exact(fd, path, csr.offsets.data(), (n + 1) * 8, pos);
  pos += (n + 1) * 8;
  const eid_t* off = csr.offsets.data();
  if (off[0] != 0) throw input_error(path, std::string(which) + " offsets[0] is " + std::to_string(off[0]) + ", expected 0");
  if (off[n] != m)
    throw input_error(path, std::string(which) + " offsets[" + std::to_string(n) + "] is " + std::to_string(off[n]) +
                                ", expected the edge count " + std::to_string(m));
  uint64_t bad = UINT64_MAX;
#pragma omp parallel for reduction(min : bad)
  for (uint64_t v = 1; v <= n; ++v)
    if (off[v] < off[v - 1]) bad = std::min(bad, v);
  if (bad != UINT64_MAX)
    throw input_error(path, std::string(which) + " offsets decrease at vertex " + std::to_string(bad - 1));

  csr.neighbors = Array<vid32_t>::allocate(m);
  if (!weighted) {
    formats::read_exact(fd, path, csr.neighbors.data(), m * 4, pos);
    pos += m * 4;
  } else {
    csr.weights = Array<weight_t>::allocate(m);
    // (id, weight) pairs, split into the two arrays a batch at a time.
    constexpr uint64_t kBatch = uint64_t{1} << 21;
    std::vector<int32_t> pairs(2 * std::min(m, kBatch));
    for (uint64_t done = 0; done < m;) {
      uint64_t count = std::min(kBatch, m - done);
      formats::read_exact(fd, path, pairs.data(), count * 8, pos);
      pos += count * 8;
#pragma omp parallel for schedule(static) if (count > 65536)
      for (uint64_t i = 0; i < count; ++i) {
        csr.neighbors[done + i] = static_cast<vid32_t>(pairs[2 * i]);
        csr.weights[done + i] = static_cast<weight_t>(pairs[2 * i + 1]);
      }
      done += count;
    }
  }
  // Negative int32 ids became >= 2^31 > n, so one comparison catches both.
  const vid32_t* ids = csr.neighbors.data();
  bad = UINT64_MAX;
#pragma omp parallel for reduction(min : bad)
  for (uint64_t i = 0; i < m; ++i)
    if (ids[i] >= n) bad = std::min(bad, i);
  if (bad != UINT64_MAX)
    throw input_error(path, std::string(which) + " neighbor " + std::to_string(bad) + " is " +
                                std::to_string(static_cast<int32_t>(ids[bad])) + ", not a vertex id in 0.." + std::to_string(n - 1));
}

}  // namespace

AnyGraph read_gap_graph(const std::string& path, bool weighted) {
  uint64_t size = 0;
  const int fd = formats::open_input_file(path, &size);
  const formats::ScopedFd closer(fd);
  const char* kind = weighted ? "GAP .wsg" : "GAP .sg";
  if (size == 0) throw input_error(path, "empty file");
  if (size < kGapHeaderBytes)
    throw input_error(path, std::string("truncated: a ") + kind + " header needs 17 bytes, the file has " + std::to_string(size));
  unsigned char header[kGapHeaderBytes];
  formats::read_exact(fd, path, header, sizeof header, 0);
  int64_t num_edges = 0, num_nodes = 0;
  std::memcpy(&num_edges, header + 1, 8);
  std::memcpy(&num_nodes, header + 9, 8);
  if (header[0] > 1)
    throw input_error(path, std::string("not a ") + kind + " graph: the first byte (directed flag) is " +
                                std::to_string(header[0]) + ", expected 0 or 1");
  const bool directed = header[0] == 1;
  if (num_nodes < 0 || num_edges < 0)
    throw input_error(path, std::string("not a ") + kind + " graph: negative sizes in the header (" +
                                std::to_string(num_nodes) + " nodes, " + std::to_string(num_edges) + " edges)");
  const uint64_t n = static_cast<uint64_t>(num_nodes), m = static_cast<uint64_t>(num_edges);
  if (n >= kVid32Limit)
    throw input_error(path, std::string("not a ") + kind + " graph: " + std::to_string(n) +
                                " nodes do not fit GAP's 32-bit node ids");
  unsigned __int128 expected = gap_file_bytes(n, m, directed, weighted);
  if (expected != size) {
    std::string what = std::string(kind) + " with " + std::to_string(n) + " nodes, " + std::to_string(m) + " edges, " +
                       (directed ? "directed" : "undirected");
    std::string hint;
    if (gap_file_bytes(n, m, directed, !weighted) == size)
      hint = weighted ? " (the size fits an unweighted .sg file)" : " (the size fits a weighted .wsg file)";
    if (expected > size)
      throw input_error(path, "truncated: a " + what + " needs " +
                                  (expected >> 64 ? std::string("more than 2^64") : std::to_string(static_cast<uint64_t>(expected))) +
                                  " bytes, the file has " + std::to_string(size) + hint);
    throw input_error(path, "the file has " + std::to_string(size) + " bytes, a " + what + " has " +
                                std::to_string(static_cast<uint64_t>(expected)) + " (trailing data)" + hint);
  }

  Graph<vid32_t> g;
  g.num_vertices = n;
  g.directed = directed;
  g.id_base = 0;
  g.name = formats::base_name(path);
  uint64_t pos = kGapHeaderBytes;
  read_csr(fd, path, pos, n, m, weighted, "out-edge", g.out);
  if (directed) read_csr(fd, path, pos, n, m, weighted, "in-edge", g.in);
  return g;
}

}  // namespace tg
