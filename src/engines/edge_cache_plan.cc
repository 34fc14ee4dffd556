#include "engines/edge_cache_plan.h"

#include <algorithm>
#include <map>

namespace tg {

uint64_t cache_lookup_bytes(uint64_t vertices, uint64_t lists) { return (vertices + 31) / 32 * 8 + (lists + 1) * 8; }

uint64_t EdgeCachePlan::lists_cached() const {
  uint64_t k = 0;
  for (const CachedLists& l : lists) k += l.count;
  return k;
}

namespace {

// A lookup word counts the cached lists before it in 32 bits.
constexpr uint64_t kMaxListsPerCsr = UINT32_MAX;

uint64_t vertices_of(std::span<const eid_t> offsets) { return offsets.empty() ? 0 : offsets.size() - 1; }
uint64_t entries_of(std::span<const eid_t> offsets) { return offsets.empty() ? 0 : offsets.back() - offsets.front(); }

// Lists per degree over every CSR: a table for the short ones and a map for
// the few long ones (a table up to the longest could take gigabytes for one
// hub of a billion entries).
class DegreeCounts {
 public:
  uint64_t& operator[](uint64_t d) { return d < kTable ? table_[d] : long_[d]; }
  // f(degree, count&) for every degree present but 0, the longest first.
  template <typename F>
  void longest_first(F&& f) {
    for (auto it = long_.rbegin(); it != long_.rend(); ++it) f(it->first, it->second);
    for (uint64_t d = kTable - 1; d > 0; --d)
      if (table_[d] > 0) f(d, table_[d]);
  }

 private:
  static constexpr uint64_t kTable = uint64_t{1} << 16;
  std::vector<uint64_t> table_ = std::vector<uint64_t>(kTable, 0);
  std::map<uint64_t, uint64_t> long_;
};

struct CsrDegrees {
  uint64_t lists = 0;  // non-empty
  uint64_t shortest = 0, longest = 0;
};

}  // namespace

EdgeCachePlan plan_edge_cache(const EdgeCacheRequest& r) {
  EdgeCachePlan plan;
  const size_t csrs = r.csrs.size();
  plan.lists.resize(csrs);
  for (const std::span<const eid_t> o : r.csrs) plan.total_entries += entries_of(o);
  if (r.budget == 0 || plan.total_entries == 0) return plan;
  std::vector<CsrDegrees> degrees(csrs);
  DegreeCounts counts;
  for (size_t c = 0; c < csrs; ++c) {
    const std::span<const eid_t> o = r.csrs[c];
    for (uint64_t v = 0; v < vertices_of(o); ++v) {
      const uint64_t d = o[v + 1] - o[v];
      if (d == 0) continue;
      counts[d]++;
      CsrDegrees& g = degrees[c];
      g.shortest = g.lists++ == 0 ? d : std::min(g.shortest, d);
      g.longest = std::max(g.longest, d);
    }
  }

  // Everything fits: a copy of every list, no heads, no lookup.
  if (r.whole_lists && plan.total_entries * r.entry_bytes <= r.budget) {
    for (size_t c = 0; c < csrs; ++c) {
      CachedLists& l = plan.lists[c];
      l.all = degrees[c].lists > 0;
      l.count = degrees[c].lists;
      l.entries = entries_of(r.csrs[c]);
      l.min_degree = degrees[c].shortest;
      l.bytes = l.entries * r.entry_bytes;
    }
    plan.cached_entries = plan.total_entries;
    plan.bytes = plan.total_entries * r.entry_bytes;
    return plan;
  }

  // 1. Heads: as many first entries of every in-list as fit, at most
  //    max_heads (4) and at most the longest in-list. Heads alone
  //    (!whole_lists) are the entries a run pushes, max_heads, whatever the
  //    longest list: the pushes then find every entry they read among them.
  uint64_t left = r.budget;
  if (r.heads_of >= 0) {
    const uint64_t plane = vertices_of(r.csrs[r.heads_of]) * r.entry_bytes;
    const uint64_t longest = r.whole_lists ? degrees[r.heads_of].longest : kMaxCachedHeads;
    plan.heads = static_cast<int>(std::min<uint64_t>(
        {static_cast<uint64_t>(std::clamp(r.max_heads, 0, kMaxCachedHeads)), longest, plane > 0 ? left / plane : 0}));
    plan.head_bytes = plan.heads * plane;
    left -= plan.head_bytes;
  }

  // 2. Whole lists, longest first: each costs its entries and its start; the
  //    lookup words of every CSR with lists are paid first. A list that does
  //    not fit is passed over for shorter ones.
  uint64_t lookups = 0;
  for (size_t c = 0; c < csrs; ++c)
    if (degrees[c].lists > 0) lookups += cache_lookup_bytes(vertices_of(r.csrs[c]), 0);
  const bool any_lists = r.whole_lists && left > lookups;
  if (any_lists) {
    left -= lookups;
    counts.longest_first([&](uint64_t d, uint64_t& count) {
      const uint64_t cost = d * r.entry_bytes + 8;
      const uint64_t k = std::min(count, left / cost);
      count = k;  // from here on: how many lists of degree d to take
      left -= k * cost;
    });
  }
  // Which lists those are: the first of each degree in CSR order, then by id.
  for (size_t c = 0; c < csrs; ++c) {
    const std::span<const eid_t> o = r.csrs[c];
    CachedLists& l = plan.lists[c];
    const bool heads_here = static_cast<int>(c) == r.heads_of;
    for (uint64_t v = 0; v < vertices_of(o); ++v) {
      const uint64_t d = o[v + 1] - o[v];
      if (d == 0) continue;
      uint64_t* take = any_lists && l.vertices.size() < kMaxListsPerCsr ? &counts[d] : nullptr;
      if (take != nullptr && *take > 0) {
        --*take;
        l.vertices.push_back(v);
        l.entries += d;
        l.min_degree = l.min_degree == 0 ? d : std::min(l.min_degree, d);
      } else if (heads_here) {
        plan.cached_entries += std::min<uint64_t>(plan.heads, d);
      }
    }
    l.count = l.vertices.size();
    if (l.count == 0) continue;  // no lookup is built: its words are not spent
    if (l.count == degrees[c].lists) {
      // Every list after all: a copy without a lookup, and heads would repeat it.
      l.all = true;
      l.vertices = {};
      l.bytes = l.entries * r.entry_bytes;
      if (heads_here) plan.heads = 0, plan.head_bytes = 0;
    } else {
      l.bytes = l.entries * r.entry_bytes + cache_lookup_bytes(vertices_of(o), l.count);
    }
    plan.cached_entries += l.entries;
  }
  plan.bytes = plan.head_bytes;
  for (const CachedLists& l : plan.lists) plan.bytes += l.bytes;
  return plan;
}

}  // namespace tg
