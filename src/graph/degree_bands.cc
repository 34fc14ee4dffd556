#include "graph/degree_bands.h"

#include <algorithm>
#include <bit>

namespace tg {

uint64_t DegreeBands::probes_up_to(uint64_t cap) const {
  double probes = 0;
  for (size_t b = 0; b < vertices.size(); ++b)
    if (vertices[b] > 0)
      probes += double(vertices[b]) * std::min(double(entries[b]) / double(vertices[b]), double(cap));
  return uint64_t(probes);
}

std::vector<DegreeClass> DegreeBands::classes() const {
  std::vector<DegreeClass> out;
  for (size_t b = 0; b < vertices.size(); ++b)
    if (vertices[b] > 0) out.push_back({double(vertices[b]), double(entries[b]) / double(vertices[b])});
  return out;
}

template <typename V>
DegreeBands degree_bands(const Csr<V>& csr, uint64_t n) {
  DegreeBands bands;
  if (csr.offsets.size() != n + 1) return bands;
#pragma omp parallel
  {
    DegreeBands mine;
#pragma omp for schedule(static) nowait
    for (uint64_t v = 0; v < n; ++v) {
      const uint64_t degree = csr.degree(v);
      if (degree == 0) continue;
      const int band = std::bit_width(degree) - 1;
      ++mine.vertices[band];
      mine.entries[band] += degree;
    }
#pragma omp critical
    for (size_t b = 0; b < bands.vertices.size(); ++b) {
      bands.vertices[b] += mine.vertices[b];
      bands.entries[b] += mine.entries[b];
    }
  }
  return bands;
}

template DegreeBands degree_bands(const Csr<vid32_t>&, uint64_t);
template DegreeBands degree_bands(const Csr<vid64_t>&, uint64_t);

}  // namespace tg
