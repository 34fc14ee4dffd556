// The resident edges of --host-mem (docs/HOST-MEM.md): where the budget
// leaves room beyond the offsets and the page buffers, edge ids [0, R) of
// every edge array the run reads stay in host memory once read, and only the
// rest is read from the file on each pass.
//
// What is resident: a prefix of each array, the same R for all of them.
//  - A prefix is one boundary per array: the window plans cut there
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
  // Room for edge ids [0, edges) of each of `arrays`, none read yet.
  ResidentEdges(const std::vector<EdgeArray>& arrays, eid_t edges);

  uint64_t edge_bytes() const;    // the edges held, in the file's bytes
  uint64_t memory_bytes() const;  // whole pages of them

  // R where `section` is held, 0 where it is not (or -1).
  eid_t held(int section) const { return find(section) != nullptr ? edges_ : 0; }
  // The held prefix of `section`: edge e at byte e * bytes_per_edge, from the
  // file's bytes of the section, in whole pages. Null where not held.
  char* data(int section);

  // Calls read(begin, end) for each run of pages of the section's bytes
  // [begin, end) (page-aligned, within the prefix) not read yet, and counts
  // them read: read() fills data(section)'s bytes [begin, end) from the file.
  template <typename Read>
  void read_missing(int section, uint64_t begin, uint64_t end, Read read);

 private:
  struct Region {
    EdgeArray array;
    PageMemory bytes{nullptr, nullptr};
    std::vector<bool> read;  // by page
  };
  const Region* find(int section) const;
  Region* find(int section) { return const_cast<Region*>(std::as_const(*this).find(section)); }

  eid_t edges_ = 0;
  std::vector<Region> regions_;
};

template <typename Read>
void ResidentEdges::read_missing(int section, uint64_t begin, uint64_t end, Read read) {
  std::vector<bool>& done = find(section)->read;
  uint64_t p = begin / kPageBytes;
  const uint64_t last = end / kPageBytes;
  while (p < last) {
    for (; p < last && done[p]; ++p) {
    }
    const uint64_t first = p;
    for (; p < last && !done[p]; ++p) {
    }
    if (p == first) continue;
    read(first * kPageBytes, p * kPageBytes);
    std::fill(done.begin() + first, done.begin() + p, true);
  }
}

}  // namespace tg::paged
