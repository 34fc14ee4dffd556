#include "engines/shard_plan.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"

namespace tg {

int shard_replication(uint64_t edges, uint64_t vertices) {
  if (vertices == 0 || edges <= vertices) return 1;
  const long step = std::lround(std::log2(static_cast<double>(edges) / static_cast<double>(vertices)));
  return 1 << std::clamp<long>(step, 0, 5);
}

ShardPlan plan_shards(const eid_t* offsets, uint64_t n, uint64_t slots, uint64_t max_edges, int fixed_replication) {
  if (slots < 32 || slots > 65536)
    throw Error("shards: " + std::to_string(slots) + " accumulators a block; need 32 to 65536");
  if (max_edges == 0) throw Error("shards: a shard's edge limit must be at least 1");
  if (fixed_replication < 0 || fixed_replication > 32 || (fixed_replication & (fixed_replication - 1)) != 0)
    throw Error("shards: a fixed replication of " + std::to_string(fixed_replication) + "; need 1, 2, 4, 8, 16 or 32");
  const auto replication = [&](uint64_t edges, uint64_t vertices) {
    return fixed_replication > 0 ? fixed_replication : shard_replication(edges, vertices);
  };
  ShardPlan p;
  p.slots = slots;
  p.max_edges = max_edges;
  p.starts.push_back(0);
  uint64_t v = 0;
  while (v < n) {
    if (offsets[v + 1] - offsets[v] > max_edges) {
      p.replicas.push_back(0);
      p.long_lists.push_back(v);
      p.starts.push_back(++v);
      continue;
    }
    // The most vertices from v whose lists hold at most max_edges entries
    // (so no long list among them) and which fit with one copy each.
    const uint64_t hi = std::min(n, v + slots);
    const eid_t* past = std::upper_bound(offsets + v + 1, offsets + hi + 1, offsets[v] + max_edges);
    uint64_t count = static_cast<uint64_t>(past - offsets) - 1 - v;
    int r = replication(offsets[v + count] - offsets[v], count);
    // Fewer vertices where their copies do not fit; the fewer may be denser
    // (a higher R), so again until they fit.
    while (count * r > slots) {
      count = slots / r;
      const int denser = replication(offsets[v + count] - offsets[v], count);
      if (denser <= r) {
        r = denser;
        break;
      }
      r = denser;
    }
    p.replicas.push_back(static_cast<uint8_t>(r));
    p.starts.push_back(v += count);
  }
  return p;
}

}  // namespace tg
