// Label-correcting algorithms that settle vertices in order of a priority
// (sssp: nearest first; sswp: widest first): delta-stepping's loop [Meyer and
// Sanders, J. Algorithms 2003] over the engine's buckets (engines/buckets.h),
// and the bucket width picked from the edge weights when none is given.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <variant>

#include "algorithms/algorithm.h"
#include "checkpoint/vertex_state.h"
#include "core/error.h"
#include "engines/buckets.h"
#include "engines/engine.h"

namespace tg {

// One step of the loops below: relax out of `from`; what changed and stays
// in bucket b is returned (the next round's near), what moved beyond waits
// in the buckets.
template <typename Engine, typename Key, typename Relax, typename Buckets>
typename Engine::Frontier relax_within(Engine& engine, const typename Engine::Frontier& from, const Relax& relax, Key key,
                                       double b, Buckets& buckets) {
  auto changed = engine.edge_map(from, relax, EdgeMapOptions{Direction::kPush, true});
  engine.stats().iterations++;
  auto [beyond, near] = split(engine, changed, KeyAbove<Key>{key, b}, KeyIs<Key>{key, b});
  buckets.insert(beyond);
  return near;
}

// The members of the bucket being settled, stamped as they join it (a byte
// a vertex, the bucket's stamp): the heavy pass finds them by a filter of
// the bytes (33.5 MB on kron:25) where a filter of the keys reads every
// distance (268 MB). Every member joins by the pop or by a round's near:
// a vertex whose key is b either waited in bucket b or was lowered into it
// by a relaxation within b, and keys never fall below b while b settles.
struct StampAs {
  uint8_t* stamps;
  uint8_t stamp;
  template <typename V>
  TG_HD void operator()(V v) const {
    stamps[v] = stamp;
  }
};
struct StampIs {
  const uint8_t* stamps;
  uint8_t stamp;
  template <typename V>
  TG_HD bool operator()(V v) const {
    return stamps[v] == stamp;
  }
};

// Relaxes `relax` out of the start frontier, one bucket at a time, lowest key
// first: a bucket is relaxed until none of its vertices changes; what moved to
// a later bucket waits there. `key` must never put a changed vertex below the
// bucket being settled (a relaxation only worsens the priority along an edge).
//
// An engine may bring its own (CpuEngine::settle_in_order: per-thread bins
// that improved vertices drop into straight from the edge loop, and bucket
// fusion, as GAP runs delta-stepping); every other engine runs this one, of
// the contract's operations.
template <typename Engine, typename Key, typename Relax>
void settle_in_order(Engine& engine, typename Engine::Frontier start, Key key, Relax relax) {
  if constexpr (requires { engine.settle_in_order(start, key, relax); }) {
    engine.settle_in_order(start, key, relax);
  } else {
    auto buckets = make_buckets(engine, key);
    buckets.insert(start);
    while (true) {
      auto [b, near] = buckets.pop();
      if (engine.size(near) == 0) break;
      while (engine.size(near) > 0) near = relax_within(engine, near, relax, key, b, buckets);
    }
  }
}

// The loop above with Meyer and Sanders' split of a bucket's edges, for an
// engine that reads a weight band of ordered lists alone (WalksWeightBands,
// engines/engine.h): a bucket's rounds relax only its light edges (weight
// below the width), the only ones that can land in the bucket itself; once
// it settles, each of its vertices relaxes its heavy edges once, with its
// final value. The generic loop relaxes a vertex's whole list each time it
// changes within its bucket (docs/PERF.md, "SSSP: lists ordered by
// weight"). `relax.with_band(b)` is the relax with the hint that it needs
// only band b (the engine may relax more: every
// relaxation is safe; a list read whole by the light band is skipped by the
// heavy one, which is right because every vertex meets the light band after
// its last change). A heavy edge from bucket b lands beyond it (value at
// least b * width, weight at least width), and should rounding land one in
// b, the rounds go on with it.
//
// Final targets turned away: before a heavy pass, the bucket's vertices
// whose value no heavy edge out of the bucket can lower (relax.mark_final:
// at or below the candidate of the bucket's floor and the band's least
// weight, as rounded) are marked, and the heavy passes turn marked targets
// away unread (the operator's cond, given the marks by relax.with_final).
// No later relaxation could lower a marked vertex: a vertex of a later
// bucket has a larger value (keys grow with values), and one the heavy
// pass lands in b a value at or above the mark's bound. On kron:25 the
// first bucket holds the hubs, so most heavy edges point to marked
// vertices: 61.9-62.3 -> 57.5-58.2 ms on the H100. The light rounds do not
// read the marks: most of their targets are unmarked (the bucket's own),
// and the mark's load before the distance's made them slower (63.3-66.9 ms
// with them; docs/PERF.md, "SSSP: final targets turned away"). The Relax
// provides with_band, with_final and mark_final (SsspRelax).
template <typename Engine, typename Key, typename Relax>
void settle_in_order_by_band(Engine& engine, typename Engine::Frontier start, Key key, Relax relax, double width) {
  const auto light_below = static_cast<weight_t>(width);
  const WeightBand light_band{weight_t{0}, light_below, true};
  const WeightBand heavy_band{light_below, std::numeric_limits<weight_t>::infinity(), true};
  auto final_marks = engine.template make_array<uint8_t>(uint8_t{0});
  uint8_t* marks = engine.data(final_marks);
  const Relax light = relax.with_band(light_band);
  const Relax heavy = relax.with_final(marks).with_band(heavy_band);
  auto member_stamps = engine.template make_array<uint8_t>(uint8_t{0});
  uint8_t* stamps = engine.data(member_stamps);
  uint8_t stamp = 0;
  auto buckets = make_buckets(engine, key);
  buckets.insert(start);
  while (true) {
    auto [b, near] = buckets.pop();
    if (engine.size(near) == 0) break;
    if (++stamp == 0) {  // 255 buckets stamped: clear the bytes and start again
      engine.vertex_map(engine.all(), StampAs{stamps, 0});
      stamp = 1;
    }
    const StampAs joins{stamps, stamp};
    engine.vertex_map(near, joins);
    while (engine.size(near) > 0) {
      while (engine.size(near) > 0) {
        near = relax_within(engine, near, light, key, b, buckets);
        engine.vertex_map(near, joins);
      }
      const auto members = engine.filter(engine.all(), StampIs{stamps, stamp});
      engine.vertex_map(members, relax.mark_final(marks, bucket_floor(b, width), light_below));
      near = relax_within(engine, members, heavy, key, b, buckets);
      engine.vertex_map(near, joins);
    }
  }
}

// The vertices waiting after bucket b, from the values alone: changed at
// least once (no longer at their start value) and keyed above b.
template <typename Key, typename T>
struct WaitingAfter {
  Key key;
  double b;
  const T* values;
  T start;
  template <typename V>
  TG_HD bool operator()(V v) const {
    const double k = key(v);
    return values[v] != start && k > b && k < kNoBucket;
  }
};

// The loop above with checkpoints (checkpoint/vertex_state.h); an iteration
// is a bucket settled. An engine with its own loop (the CPU engine's) runs it
// up to each checkpoint (`stop_after`), else the contract's loop runs. After
// bucket b the values are the whole state: a vertex waits exactly when it
// changed at least once and its key is above b (it entered the waiting
// frontier when it last changed, and none below b is left), so a resumed run
// refilters that frontier from the values. An uninterrupted run refilters it
// at each checkpoint too, so both go on from the same frontier in the same
// order (the order a step reads its vertices in can change which vertices it
// improves, never the values it ends with). `values` is the array relax and
// key read, `start` the value of a vertex never reached; the scalars are b,
// the run's step count and the bucket width.
template <typename Engine, typename Key, typename Relax, typename T>
void settle_in_order_checkpointed(Engine& engine, typename Engine::Frontier start, Key key, Relax relax, T* values,
                                  T unreached, const AlgorithmOptions& options, const char* algorithm) {
  std::optional<FrontierBuckets<Engine, Key>> buckets;
  auto waiting_after = [&](double b) {
    return engine.filter(engine.all(), WaitingAfter<Key, T>{key, b, values, unreached});
  };
  auto wait_after = [&](double b) {
    buckets.emplace(engine, key);
    buckets->insert(waiting_after(b));
  };
  int settled = 0;
  std::optional<double> resumed_after;  // the bucket the saved state ends after
  if (const std::optional<SavedState> saved = resume_vertex_data(engine, options, values, 3, algorithm)) {
    settled = saved->iteration;
    engine.stats().iterations = static_cast<uint64_t>(saved->scalars[1]);
    // A bucket index means what the saving run's width made it: an engine
    // or placement that runs another width (sssp_width) resumes with every
    // reached vertex waiting; the settled ones are final and relax nothing new.
    const bool same_width = saved->scalars[2] == key.delta;
    resumed_after = same_width ? saved->scalars[0] : -std::numeric_limits<double>::infinity();
  }
  auto save_after = [&](double b) {
    save_vertex_data(engine, options, settled, {b, static_cast<double>(engine.stats().iterations), key.delta}, values);
  };
  if constexpr (requires { engine.settle_in_order(start, key, relax, uint64_t{1}); }) {
    typename Engine::Frontier from = resumed_after ? waiting_after(*resumed_after) : start;
    const auto every = static_cast<uint64_t>(options.checkpoint->every());
    while (true) {
      const OrderedStop stop = engine.settle_in_order(from, key, relax, every - static_cast<uint64_t>(settled) % every);
      settled += static_cast<int>(stop.buckets);
      if (!stop.stopped) return;
      save_after(stop.last_bucket);
      from = waiting_after(stop.last_bucket);
    }
  }
  if (resumed_after) {
    wait_after(*resumed_after);
  } else {
    buckets.emplace(engine, key);
    buckets->insert(start);
  }
  while (true) {
    auto [b, near] = buckets->pop();
    if (engine.size(near) == 0) break;
    while (engine.size(near) > 0) near = relax_within(engine, near, relax, key, b, *buckets);
    if (checkpoint_due(options, ++settled)) {
      wait_after(b);
      save_after(b);
    }
  }
}

// settle_in_order, or with a checkpointer its checkpointed form where the
// engine can read its arrays (checkpoint/vertex_state.h; elsewhere refused).
template <typename Engine, typename Key, typename Relax, typename T>
void settle_in_order(Engine& engine, typename Engine::Frontier start, Key key, Relax relax, T* values, T unreached,
                     const AlgorithmOptions& options, const char* algorithm) {
  if constexpr (Checkpointable<Engine>) {
    if (options.checkpoint != nullptr)
      return settle_in_order_checkpointed(engine, start, key, relax, values, unreached, options, algorithm);
  } else {
    refuse_checkpoint(options);
  }
  settle_in_order(engine, start, key, relax);
}

// The checkpoint key's options of sssp and sswp: the source and the bucket
// widths (the width an engine runs with picks what a bucket holds).
inline std::string settle_in_order_key(const AlgorithmOptions& options, const Sources& sources) {
  char text[160];
  std::snprintf(text, sizeof text, "source %llu, delta %.17g, narrow delta %.17g",
                sources.empty() ? 0ULL : static_cast<unsigned long long>(sources[0]), options.delta,
                options.delta_narrow);
  return text;
}

// The finite edge weights in brief, for picking a bucket width (one inf
// edge would make every bucket infinitely wide).
struct WeightSummary {
  double mean = 1, low = 0, high = 0;
  double average_degree = 1;
  bool integral = false;  // every finite weight is a whole number (and there are weights)
};
inline WeightSummary summarize_weights(const AnyGraph& any) {
  WeightSummary s;
  std::visit(
      [&](const auto& graph) {
        const weight_t* w = graph.out.weights.data();
        const eid_t m = w != nullptr ? graph.num_edges() : 0;
        double sum = 0, low = kNoBucket, high = -kNoBucket;
        eid_t finite = 0, fractional = 0;
#pragma omp parallel for reduction(+ : sum, finite, fractional) reduction(min : low) reduction(max : high)
        for (eid_t e = 0; e < m; ++e)
          if (std::isfinite(w[e])) {
            sum += w[e];
            ++finite;
            fractional += std::floor(w[e]) != w[e];
            low = std::min<double>(low, w[e]);
            high = std::max<double>(high, w[e]);
          }
        s.integral = m > 0 && fractional == 0;
        const double mean = finite > 0 ? sum / static_cast<double>(finite) : 1.0;
        if (std::isfinite(mean) && mean > 0) s.mean = mean;
        if (finite > 0 && std::isfinite(high - low)) s.low = low, s.high = high;
        if (graph.num_vertices > 0 && graph.num_edges() > graph.num_vertices)
          s.average_degree = double(graph.num_edges()) / double(graph.num_vertices);
      },
      any);
  return s;
}

// --delta: a width the user gives is used by every engine (delta_narrow
// stays 0); a bad one is a usage error. True when the caller is to pick.
inline bool bucket_width_automatic(const AlgorithmOptions& options) {
  if (options.delta < 0 || std::isnan(options.delta)) throw usage_error("--delta must be positive");
  return options.delta == 0;
}

// The width an engine runs with: the narrow one unless it prefers few steps
// (or the user gave --delta, which leaves delta_narrow 0).
template <typename Engine>
double bucket_width(const AlgorithmOptions& options) {
  if (options.delta_narrow > 0 && !PrefersFewSteps<Engine>) return options.delta_narrow;
  return options.delta;
}

}  // namespace tg
