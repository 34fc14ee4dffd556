// The resident edges of --host-mem (docs/HOST-MEM.md): where the budget
// leaves room beyond the offsets and the page buffers, edge ids [F, F + R) of
// every edge array the run reads stay in host memory once read, and only the
// rest is read from the file on each pass.
//
// What is resident: one span of each array, the same for all of them; a
// prefix (F = 0) for the CPU engine, a suffix for the hybrid engine's CPU
// side, whose share of a gather is the last vertices.
//  - A span is two boundaries per array: the window plans cut there
//    (window_plan.h), so a window is served either from here or from a
//    buffer, and the resident part costs no lookup in the loops.
//  - Which edges matter more is not known ahead: PageRank and CC read every
//    edge every pass, where any choice saves the same bytes; a sparse
//    frontier's lists are not known before it comes.
//  - The same R for each array read (out- and in-neighbours, their weights)
//    splits the room in proportion to the arrays' sizes: a step reads one CSR
//    (its neighbours, and its weights where the operator reads them), and a
//    run's steps over the two CSRs are not known ahead either.
//
// Filled lazily: a page is read from the file the first time a window needs
// it (on the reader thread, page_stream.cc), then kept. A run that reads
// every edge reads the prefix once, in its first pass, as a read up front
// would; a run that reads a few lists (a BFS's sparse steps) reads no more
// than without resident edges; and nothing is read outside the timed run.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/types.h"
#include "engines/paged/edge_file.h"
#include "engines/paged/window_plan.h"

namespace tg::paged {

// An edge array of the .tgb file: its section (formats/binary_format.h) and
// its bytes per edge.
struct EdgeArray {
  int section;
  uint32_t bytes_per_edge;
};

class ResidentEdges {
 public:
  ResidentEdges() = default;  // holds nothing
  // Room for edge ids [first, first + edges) of each of `arrays`, none read yet.
  ResidentEdges(const std::vector<EdgeArray>& arrays, eid_t first, eid_t edges);

  // Whether this holds exactly edge ids [first, first + edges) of exactly `arrays`.
  bool holds(const std::vector<EdgeArray>& arrays, eid_t first, eid_t edges) const;

  uint64_t edge_bytes() const;    // the edges held, in the file's bytes
  uint64_t memory_bytes() const;  // whole pages of them
  // Each held section's pages: where they start and how many bytes.
  std::vector<std::pair<void*, uint64_t>> memory();

  // The edge ids held of `section`: empty where it is not held (or -1).
  ResidentRange held(int section) const {
    return find(section) != nullptr ? ResidentRange{first_, first_ + edges_} : ResidentRange{};
  }
  // The held span of `section`, in whole pages of the file's bytes of the
  // section, from byte base(section): edge e at byte e * bytes_per_edge -
  // base(section). Null where not held.
  char* data(int section);
  uint64_t base(int section) const;

  // Calls read(begin, end) for each run of pages of the section's bytes
  // [begin, end) (page-aligned, within the held pages) not read yet, and
  // counts them read: read() fills the section's bytes [begin, end) from the
  // file, at data(section) + begin - base(section).
  template <typename Read>
  void read_missing(int section, uint64_t begin, uint64_t end, Read read);

 private:
  struct Region {
    EdgeArray array;
    uint64_t base = 0;  // the section's byte at bytes[0]
    PageMemory bytes{nullptr, nullptr};
    std::vector<bool> read;  // by page
  };
  const Region* find(int section) const;
  Region* find(int section) { return const_cast<Region*>(std::as_const(*this).find(section)); }

  eid_t first_ = 0, edges_ = 0;
  std::vector<Region> regions_;
};

template <typename Read>
void ResidentEdges::read_missing(int section, uint64_t begin, uint64_t end, Read read) {
  Region& region = *find(section);
  std::vector<bool>& done = region.read;
  uint64_t p = (begin - region.base) / kPageBytes;
  const uint64_t last = (end - region.base) / kPageBytes;
  while (p < last) {
    for (; p < last && done[p]; ++p) {
    }
    const uint64_t first = p;
    for (; p < last && !done[p]; ++p) {
    }
    if (p == first) continue;
    read(region.base + first * kPageBytes, region.base + p * kPageBytes);
    std::fill(done.begin() + first, done.begin() + p, true);
  }
}

}  // namespace tg::paged
