// The operator types the GPU kernels are compiled for. The GPU engine keeps
// its traversal kernels in one translation unit per placement and instantiates
// them explicitly, once per operator listed here and per vertex id width, so
// that the CUDA build stays small. An algorithm whose operators are not listed
// here still compiles on the CPU engine; on the GPU it fails to link, naming
// the missing instantiation: add its operators below.
#pragma once

#include "algorithms/bfs.h"
#include "algorithms/cc.h"
#include "algorithms/pagerank.h"
#include "algorithms/ssnsp.h"
#include "algorithms/sssp.h"
#include "algorithms/sswp.h"

// X(V, OP) for every edge-map operator (Ligra's edgeMap functors).
#define TG_FOR_EACH_EDGE_OPERATOR(X, V) \
  X(V, ::tg::BfsStep<V>)                \
  X(V, ::tg::SsspRelax<V>)              \
  X(V, ::tg::CcHook<V>)                 \
  X(V, ::tg::SswpRelax<V>)              \
  X(V, ::tg::SsnspStep<V>)              \
  X(V, ::tg::SsnspCount<V>)             \
  X(V, ::tg::PageRankPush<V>)

// X(V, OP) for every gather operator (gather/sum/apply over in-edges).
#define TG_FOR_EACH_GATHER_OPERATOR(X, V) X(V, ::tg::PageRankGather<V>)
