#include "engines/paged/resident_edges.h"

namespace tg::paged {

ResidentEdges::ResidentEdges(const std::vector<EdgeArray>& arrays, eid_t first, eid_t edges)
    : first_(first), edges_(edges) {
  if (edges == 0) return;
  for (const EdgeArray& a : arrays) {
    const uint64_t base = page_floor(first * a.bytes_per_edge);
    const uint64_t bytes = page_ceil((first + edges) * a.bytes_per_edge) - base;
    regions_.push_back({a, base, page_memory(bytes), std::vector<bool>(bytes / kPageBytes, false)});
  }
}

bool ResidentEdges::holds(const std::vector<EdgeArray>& arrays, eid_t first, eid_t edges) const {
  if (edges == 0 || edges != edges_ || first != first_ || arrays.size() != regions_.size()) return false;
  for (size_t i = 0; i < arrays.size(); ++i)
    if (arrays[i].section != regions_[i].array.section || arrays[i].bytes_per_edge != regions_[i].array.bytes_per_edge)
      return false;
  return true;
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

std::vector<std::pair<void*, uint64_t>> ResidentEdges::memory() {
  std::vector<std::pair<void*, uint64_t>> out;
  for (Region& r : regions_) out.emplace_back(r.bytes.get(), r.read.size() * kPageBytes);
  return out;
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

uint64_t ResidentEdges::base(int section) const {
  const Region* r = find(section);
  return r != nullptr ? r->base : 0;
}

}  // namespace tg::paged
