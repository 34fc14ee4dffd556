#include "engines/paged/resident_edges.h"

namespace tg::paged {

ResidentEdges::ResidentEdges(const std::vector<EdgeArray>& arrays, eid_t edges) : edges_(edges) {
  if (edges == 0) return;
  for (const EdgeArray& a : arrays) {
    const uint64_t bytes = page_ceil(edges * a.bytes_per_edge);
    regions_.push_back({a, page_memory(bytes), std::vector<bool>(bytes / kPageBytes, false)});
  }
}

uint64_t ResidentEdges::edge_bytes() const {
  uint64_t bytes = 0;
  for (const Region& r : regions_) bytes += edges_ * r.array.bytes_per_edge;
  return bytes;
}

uint64_t ResidentEdges::memory_bytes() const {
  uint64_t bytes = 0;
  for (const Region& r : regions_) bytes += r.read.size() * kPageBytes;
  return bytes;
}

const ResidentEdges::Region* ResidentEdges::find(int section) const {
  for (const Region& r : regions_)
    if (r.array.section == section) return &r;
  return nullptr;
}

char* ResidentEdges::data(int section) {
  Region* r = find(section);
  return r != nullptr ? r->bytes.get() : nullptr;
}

}  // namespace tg::paged
