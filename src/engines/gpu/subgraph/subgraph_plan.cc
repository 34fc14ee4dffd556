// Budget sizing, SubCSR pieces and CSR partitions (see subgraph_plan.h).
#include "engines/gpu/subgraph/subgraph_plan.h"

#include <cstdio>

#include "core/error.h"

namespace tg::subgraph {

std::string format_bytes(uint64_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  char buf[48];
  if (bytes < 1024) {
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    return buf;
  }
  double x = static_cast<double>(bytes);
  int u = 0;
  while (x >= 1024 && u < 4) {
    x /= 1024;
    ++u;
  }
  std::snprintf(buf, sizeof buf, "%.2f %s", x, units[u]);
  return buf;
}

BufferSizing size_buffers(uint64_t budget_bytes, EdgeEntry entry, uint64_t buffers, const std::string& what) {
  if (buffers == 0) throw Error("subgraph buffers: asked for 0 edge buffers from " + what);
  if (entry.id_bytes != 4 && entry.id_bytes != 8)
    throw Error("subgraph buffers: vertex ids of " + std::to_string(entry.id_bytes) + " bytes (expected 4 or 8)");
  BufferSizing s;
  s.buffers = buffers;
  s.entry = entry;
  const uint64_t per_buffer = budget_bytes / buffers;
  s.capacity_edges = per_buffer / entry.bytes() / kBufferGranule * kBufferGranule;
  if (s.capacity_edges < kBufferGranule) {
    const uint64_t minimum = buffers * kBufferGranule * entry.bytes();
    throw Error("the edge-buffer budget of " + format_bytes(budget_bytes) + " (" + what + ") is below the minimum of " +
                format_bytes(minimum) + ": " + std::to_string(buffers) + " buffer(s) of at least " +
                std::to_string(kBufferGranule) + " edges of " + std::to_string(entry.bytes()) + " bytes");
  }
  return s;
}

std::vector<EdgeRange> plan_ranges(std::span<const eid_t> prefix, uint64_t capacity_edges) {
  if (capacity_edges == 0) throw Error("subgraph plan: a buffer of 0 edges holds nothing");
  if (prefix.empty()) throw Error("subgraph plan: the offsets are empty (expected count + 1 entries)");
  if (prefix[0] != 0) throw Error("subgraph plan: the offsets do not start at 0");
  const uint64_t count = prefix.size() - 1;
  std::vector<EdgeRange> out;
  if (count == 0) return out;
  for (uint64_t i = 0; i < count; ++i)
    if (prefix[i + 1] < prefix[i])
      throw Error("subgraph plan: offsets decrease at entry " + std::to_string(i + 1));

  uint64_t i = 0;
  while (i < count) {
    const eid_t begin = prefix[i];
    const eid_t degree = prefix[i + 1] - begin;
    if (degree > capacity_edges) {
      // A list larger than a buffer: cut by edge range, capacity at a time.
      for (eid_t e = begin; e < prefix[i + 1]; e += capacity_edges) {
        eid_t end = prefix[i + 1] - e > capacity_edges ? e + capacity_edges : prefix[i + 1];
        out.push_back(EdgeRange{i, i + 1, e, end, true});
      }
      ++i;
      continue;
    }
    // The last item j - 1 such that prefix[j] - begin <= capacity: j is one
    // past the last entry of prefix[i + 1 .. count] that is <= begin + capacity.
    // (Never overflows: begin + capacity > prefix[count] only when all fits.)
    const eid_t limit = prefix[count] - begin <= capacity_edges ? prefix[count] : begin + capacity_edges;
    auto it = std::upper_bound(prefix.begin() + static_cast<std::ptrdiff_t>(i) + 1, prefix.end(), limit);
    uint64_t j = static_cast<uint64_t>(it - prefix.begin()) - 1;  // prefix[j] <= limit, j >= i + 1
    out.push_back(EdgeRange{i, j, begin, prefix[j], false});
    i = j;
  }
  return out;
}

}  // namespace tg::subgraph
