// Buckets of vertices by a key, for algorithms that settle vertices in order
// of a priority (delta-stepping's distance buckets): Julienne's bucketing
// [Dhulipala, Blelloch, Shun, SPAA 2017] as GBBS offers it beside edgeMap.
//
//   auto buckets = make_buckets(engine, key);  // key(v): a whole number as double, or inf
//   buckets.insert(frontier);                  // each member waits in bucket key(v)
//   auto [b, near] = buckets.pop();            // the lowest non-empty bucket and its members
//
// pop() returns each vertex whose key is b once, whichever inserts put it
// there; entries a later insert moved to a lower bucket are dropped (their
// key no longer matches), and so are entries whose key fell to the last
// bucket popped (the caller settled them with it). A vertex with an infinite
// key is never held. Keys must not fall below the last bucket popped
// (delta-stepping's never do).
//
// FrontierBuckets, built from the contract's own operations, serves every
// engine that runs the generic ordered loop (algorithms/settle_in_order.h:
// the GPU's). The CPU engine brings its whole loop instead
// (engines/cpu/cpu_ordered.h: per-thread bins filled from the edge loop).
#pragma once

#include <cmath>
#include <limits>
#include <utility>

#include "engines/engine.h"

namespace tg {

constexpr double kNoBucket = std::numeric_limits<double>::infinity();

// floor(value / width), held within +-1e300 so that a tiny width (or a value
// of -inf: sswp's source) still gives a finite key (the vertices beyond share
// one bucket, which stays correct: delta-stepping relaxes a bucket until
// nothing in it changes). +inf and nan have no bucket.
TG_HD double bucket_of(double value, double width) {
  if (!(value < kNoBucket)) return kNoBucket;
  if (value == -kNoBucket) return -1e300;  // also for width inf, where -inf / inf is nan
  const double b = floor(value / width);
  return b < 1e300 ? (b > -1e300 ? b : -1e300) : 1e300;
}

// A value no member of bucket b lies below (b * width, less a margin for
// bucket_of's rounded division: a value whose key is b is at least
// b * width * (1 - 2^-52)).
TG_HD double bucket_floor(double b, double width) {
  const double low = b * width;
  return low > 0 ? low * (1 - 1e-12) : low * (1 + 1e-12);
}

// Predicates on a vertex's bucket, for filters (at namespace scope: CUDA
// kernels take them as template arguments).
template <typename Key>
struct KeyIs {
  Key key;
  double b;
  template <typename V>
  TG_HD bool operator()(V v) const {
    return key(v) == b;
  }
};
template <typename Key>
struct KeyAbove {  // above b, and held (finite)
  Key key;
  double b;
  template <typename V>
  TG_HD bool operator()(V v) const {
    const double k = key(v);
    return k > b && k < kNoBucket;
  }
};

// A vertex's key where it lies above `last`, else none (kNoBucket): the
// smallest key past the bucket last popped.
template <typename Key>
struct KeyPast {
  Key key;
  double last;
  template <typename V>
  TG_HD double operator()(V v) const {
    const double k = key(v);
    return k > last ? k : kNoBucket;
  }
};

// The waiting vertices as one frontier: insert merges into it; pop finds the
// smallest key with min_over and splits the frontier in two (engine.h's
// split).
template <typename Engine, typename Key>
class FrontierBuckets {
 public:
  using Frontier = typename Engine::Frontier;

  FrontierBuckets(Engine& engine, Key key) : engine_(engine), key_(key) {}

  void insert(const Frontier& f) { waiting_ = engine_.merge(waiting_, f); }

  // The lowest bucket above the last one popped and its members; an empty
  // frontier when none waits. A vertex inserted while its key was above the
  // bucket being settled may since have fallen into that very bucket (and
  // been settled with it): such entries are dropped, where popping that
  // bucket again relaxed them again, and in delta-stepping's by-band loop
  // (settle_in_order_by_band) every heavy edge of the bucket a second time:
  // on kron:16, 2.0 edges relaxed an edge instead of about 1.
  // The split below drops those entries with the bucket's members (their
  // keys lie below b).
  std::pair<double, Frontier> pop() {
    if (engine_.size(waiting_) == 0) return {kNoBucket, Frontier{}};
    const double b = engine_.min_over(waiting_, KeyPast<Key>{key_, last_});
    if (!(b < kNoBucket)) return {kNoBucket, Frontier{}};
    auto [members, above] = split(engine_, waiting_, KeyIs<Key>{key_, b}, KeyAbove<Key>{key_, b});
    waiting_ = std::move(above);
    last_ = b;
    return {b, std::move(members)};
  }

 private:
  Engine& engine_;
  Key key_;
  Frontier waiting_;
  double last_ = -kNoBucket;  // the bucket last popped (none yet)
};

template <typename Engine, typename Key>
FrontierBuckets<Engine, Key> make_buckets(Engine& engine, Key key) {
  return FrontierBuckets<Engine, Key>(engine, key);
}

}  // namespace tg
