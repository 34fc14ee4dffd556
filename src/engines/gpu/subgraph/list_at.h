// Which list of a SubCSR holds a position, walking forward, and the run of
// lists to copy from there: the rules the gather (subgraph_kernels.cuh
// gather_lists) and the decoder (decode_packed.cuh decode_long_lists) step
// their warps by. TG_HD so that the host tests check them (list_at_test.cc).
//
// A warp's window of positions may start after, or span, a run of empty
// lists (equal sub-offsets). In the rounds of SSSP's light lists most active
// lists are empty (kron:25 below 16: 6% of the entries), and a warp stepping
// over them one sub-offset load at a time took 40-48 ms a round for 300-600 K
// lists (docs/PERF.md, session 30); galloping then bisecting takes about
// 2 log2(k) loads for a run of k, and one load where the next list is not
// empty (the common case elsewhere).
#pragma once

#include <cstdint>

#include "core/types.h"

namespace tg::subgraph {

// The last index j in [i, last) with sub[j] <= pos: the list holding
// position pos. Needs sub non-decreasing, sub[i] <= pos < sub[last].
template <typename Offset>
TG_HD uint64_t list_at(const Offset* sub, uint64_t i, uint64_t last, Offset pos) {
  if (sub[i + 1] > pos) return i;
  uint64_t lo = i + 1, step = 1;  // sub[lo] <= pos
  while (lo + step < last && sub[lo + step] <= pos) {
    lo += step;
    step *= 2;
  }
  uint64_t hi = lo + step < last ? lo + step : last;  // sub[hi] > pos
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (sub[mid] <= pos) lo = mid;
    else hi = mid;
  }
  return lo;
}

// A run of the SubCSR to copy as one: positions [pos, end) hold source
// entries [src, src + end - pos), through list `list` (the last one in it).
template <typename Offset>
struct ListRun {
  uint64_t list = 0;
  Offset end = 0;
  Offset src = 0;
};

// The run from position pos (sub[i] <= pos < hi <= sub[last]): the list
// holding pos, and after it the next lists with entries while each starts
// in the source right where the run ends (consecutive ids, or only empty
// lists between), up to hi. Short lists would otherwise each take a 128-byte
// line of their own over the link, and a line they share twice.
// offsets: the source CSR's (entries or packed words), active: the SubCSR's
// vertices, sub: its offsets in the same unit.
template <typename V, typename Offset>
TG_HD ListRun<Offset> run_at(const Offset* sub, const V* active, const Offset* offsets, uint64_t i, uint64_t last,
                             Offset pos, Offset hi) {
  i = list_at(sub, i, last, pos);
  Offset end = sub[i + 1] < hi ? sub[i + 1] : hi;
  const Offset src = offsets[active[i]] + (pos - sub[i]);
  while (end == sub[i + 1] && end < hi && i + 1 < last) {
    const uint64_t next = list_at(sub, i + 1, last, end);
    if (offsets[active[next]] != src + (end - pos)) break;
    i = next;
    end = sub[i + 1] < hi ? sub[i + 1] : hi;
  }
  return {i, end, src};
}

}  // namespace tg::subgraph
