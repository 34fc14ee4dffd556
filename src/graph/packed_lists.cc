#include "graph/packed_lists.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>

#include "core/error.h"
#include "core/seconds_since.h"

namespace tg {

namespace {

// A thread's room for the lists that need sorting.
struct Scratch {
  std::vector<uint32_t> ids, order;
  std::vector<weight_t> weights;
};

// v's list sorted, with its weights in the same order where `with_weights`:
// the CSR's own arrays where the list is sorted, else sorted copies in `s`.
struct SortedList {
  const uint32_t* ids;
  const weight_t* weights;
};
SortedList sorted_list(const Csr<uint32_t>& csr, uint64_t v, bool with_weights, Scratch& s) {
  const eid_t b = csr.offsets[v], e = csr.offsets[v + 1];
  const uint32_t* ids = csr.neighbors.data() + b;
  const weight_t* w = with_weights ? csr.weights.data() + b : nullptr;
  if (std::is_sorted(ids, ids + (e - b))) return {ids, w};
  if (!with_weights) {
    s.ids.assign(ids, ids + (e - b));
    std::sort(s.ids.begin(), s.ids.end());
    return {s.ids.data(), nullptr};
  }
  s.order.resize(e - b);
  for (uint32_t i = 0; i < e - b; ++i) s.order[i] = i;
  std::stable_sort(s.order.begin(), s.order.end(), [&](uint32_t x, uint32_t y) { return ids[x] < ids[y]; });
  s.ids.resize(e - b);
  s.weights.resize(e - b);
  for (uint64_t i = 0; i < e - b; ++i) {
    s.ids[i] = ids[s.order[i]];
    s.weights[i] = w[s.order[i]];
  }
  return {s.ids.data(), s.weights.data()};
}

// The bits of a block's largest gap: the bit width of all its gaps or-ed
// together, which the compiler turns into vector instructions for full blocks.
uint32_t block_width(const uint32_t* block, uint32_t entries) {
  uint32_t any = 0;
  if (entries == kPackedBlock) {
    for (uint32_t i = 1; i < kPackedBlock; ++i) any |= block[i] - block[i - 1];
  } else {
    for (uint32_t i = 1; i < entries; ++i) any |= block[i] - block[i - 1];
  }
  return static_cast<uint32_t>(std::bit_width(any));
}

// Words of a whole sorted list.
uint64_t list_words(const uint32_t* list, uint64_t degree) {
  const uint64_t blocks = packed_blocks(degree);
  uint64_t words = packed_chunk_words(degree) + blocks;
  for (uint64_t j = 0; j < blocks; ++j) {
    const uint32_t entries = packed_block_entries(degree, j);
    words += packed_gap_words(entries, block_width(list + j * kPackedBlock, entries));
  }
  return words;
}

// The list's ids at `out`, and where `weights`, its byte weights in its last
// words (of `words` in all).
void pack_list(const uint32_t* list, const weight_t* weights, uint64_t degree, uint32_t* out, uint64_t words) {
  const uint64_t blocks = packed_blocks(degree);
  const uint64_t chunk_words = packed_chunk_words(degree);
  uint32_t* headers = out + chunk_words;
  uint32_t* gaps = headers + blocks;
  uint32_t at = 0;  // words into the gap region
  for (uint64_t j = 0; j < blocks; ++j) {
    if (chunk_words > 0 && j % (kPackedChunk / kPackedBlock) == 0) out[j / (kPackedChunk / kPackedBlock)] = at;
    const uint32_t* block = list + j * kPackedBlock;
    const uint32_t entries = packed_block_entries(degree, j);
    const uint32_t width = block_width(block, entries);
    headers[j] = packed_header(block[0], width);
    // The gaps through a 64-bit accumulator, each word written once, in order.
    uint32_t* word = gaps + at;
    uint64_t acc = 0;
    uint32_t bits = 0;
    for (uint32_t i = 1; i < entries && width > 0; ++i) {
      acc |= static_cast<uint64_t>(block[i] - block[i - 1]) << bits;
      bits += width;
      if (bits >= 32) {
        *word++ = static_cast<uint32_t>(acc);
        acc >>= 32;
        bits -= 32;
      }
    }
    if (bits > 0) *word = static_cast<uint32_t>(acc);
    at += packed_gap_words(entries, width);
  }
  if (weights != nullptr) {
    uint32_t* w = out + words - packed_weight_words(degree);
    for (uint64_t i = 0; i < degree; i += 4) {
      uint32_t x = 0;
      for (uint64_t k = i; k < i + 4 && k < degree; ++k) x |= static_cast<uint32_t>(weights[k]) << (8 * (k - i));
      w[i / 4] = x;
    }
  }
}

// Runs body(begin, end, scratch) over ranges of vertices that together cover
// 0 .. n - 1, in parallel, a range at a time: 64 ranges a thread, each of
// about equal entries plus vertices. Not chunks of vertices: hubs first, one
// chunk held the hubs and one thread packed them (1.75 s on kron:25, 16
// threads); small dynamic chunks contend on the schedule's counter and write
// beside each other.
template <typename Body>
void for_vertex_ranges(const Csr<uint32_t>& csr, uint64_t n, Body&& body) {
  const uint64_t parts = std::max<uint64_t>(1, std::min<uint64_t>(n, 64 * static_cast<uint64_t>(omp_get_max_threads())));
  auto weight = [&](uint64_t v) { return (csr.built() ? csr.offsets[v] : 0) + v; };  // non-decreasing in v
  const uint64_t total = weight(n);
  std::vector<uint64_t> cuts(parts + 1, n);
  cuts[0] = 0;
  for (uint64_t p = 1; p < parts; ++p) {
    const uint64_t target = total / parts * p;
    uint64_t lo = cuts[p - 1], hi = n;  // the first v with weight(v) >= target
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      if (weight(mid) < target) lo = mid + 1;
      else hi = mid;
    }
    cuts[p] = lo;
  }
#pragma omp parallel
  {
    Scratch scratch;
#pragma omp for schedule(dynamic, 1)
    for (int64_t p = 0; p < static_cast<int64_t>(parts); ++p) body(cuts[p], cuts[p + 1], scratch);
  }
}

}  // namespace

bool weights_fit_bytes(const Csr<uint32_t>& csr) {
  const int64_t m = static_cast<int64_t>(csr.weights.size());
  if (m == 0 || m != static_cast<int64_t>(csr.num_edges())) return false;
  const weight_t* w = csr.weights.data();
  int64_t bad = 0;
#pragma omp parallel for reduction(+ : bad)
  for (int64_t i = 0; i < m; ++i) bad += !(w[i] >= 0 && w[i] <= 255 && w[i] == static_cast<weight_t>(static_cast<int>(w[i])));
  return bad == 0;
}

std::vector<eid_t> packed_offsets(const Csr<uint32_t>& csr, uint64_t n, bool with_weights) {
  if (n > kPackedMaxVertices)
    throw Error("packed lists: " + std::to_string(n) + " vertices, over the 2^27 a block header's id holds");
  if (with_weights && csr.built() && !weights_fit_bytes(csr))
    throw Error("packed lists: byte weights asked for, but a weight is not a whole number from 0 to 255");
  std::vector<eid_t> offsets(n + 1, 0);
  if (!csr.built()) return offsets;
  for_vertex_ranges(csr, n, [&](uint64_t begin, uint64_t end, Scratch& scratch) {
    for (uint64_t v = begin; v < end; ++v) {
      const uint64_t degree = csr.degree(v);
      offsets[v + 1] = degree ? list_words(sorted_list(csr, v, false, scratch).ids, degree) +
                                    (with_weights ? packed_weight_words(degree) : 0)
                              : 0;
    }
  });
  for (uint64_t v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
  return offsets;
}

void pack_lists(const Csr<uint32_t>& csr, uint64_t n, const std::vector<eid_t>& offsets, uint32_t* words,
                bool with_weights) {
  if (offsets.size() != n + 1) throw Error("packed lists: offsets for another graph");
  if (!csr.built()) return;
  if (with_weights && csr.weights.size() != csr.num_edges()) throw Error("packed lists: byte weights of a graph without weights");
  for_vertex_ranges(csr, n, [&](uint64_t begin, uint64_t end, Scratch& scratch) {
    for (uint64_t v = begin; v < end; ++v) {
      const uint64_t degree = csr.degree(v);
      if (degree == 0) continue;
      const SortedList l = sorted_list(csr, v, with_weights, scratch);
      pack_list(l.ids, l.weights, degree, words + offsets[v], offsets[v + 1] - offsets[v]);
    }
  });
}

uint64_t estimate_packed_words(const Csr<uint32_t>& csr, uint64_t n, uint64_t stride) {
  if (n > kPackedMaxVertices || !csr.built() || csr.num_edges() == 0) return 0;
  stride = std::max<uint64_t>(stride, 1);
  std::atomic<uint64_t> words{0}, entries{0};
  for_vertex_ranges(csr, n, [&](uint64_t begin, uint64_t end, Scratch& scratch) {
    uint64_t w = 0, e = 0;
    for (uint64_t v = (begin + stride - 1) / stride * stride; v < end; v += stride) {
      const uint64_t degree = csr.degree(v);
      if (degree == 0) continue;
      w += list_words(sorted_list(csr, v, false, scratch).ids, degree);
      e += degree;
    }
    words += w;
    entries += e;
  });
  if (entries == 0) return csr.num_edges();
  return static_cast<uint64_t>(double(csr.num_edges()) * double(words) / double(entries) + 0.5);
}

std::vector<uint32_t> unpack_list(const uint32_t* list, uint64_t degree) {
  std::vector<uint32_t> out;
  out.reserve(degree);
  const uint64_t blocks = packed_blocks(degree);
  const uint32_t* headers = list + packed_chunk_words(degree);
  const uint32_t* gaps = headers + blocks;
  for (uint64_t j = 0; j < blocks; ++j) {
    const uint32_t entries = packed_block_entries(degree, j);
    const uint32_t width = packed_width(headers[j]);
    uint32_t id = packed_first(headers[j]);
    out.push_back(id);
    for (uint32_t k = 0; k + 1 < entries; ++k) out.push_back(id += packed_gap(gaps, k, width));
    gaps += packed_gap_words(entries, width);
  }
  return out;
}

std::vector<uint32_t> unpack_weights(const uint32_t* list, uint64_t list_words, uint64_t degree) {
  std::vector<uint32_t> out(degree);
  for (uint64_t i = 0; i < degree; ++i) out[i] = packed_weight(list, list_words, degree, i);
  return out;
}

PackedCsr pack_csr(const Csr<uint32_t>& csr, uint64_t n, bool with_weights) {
  const auto t0 = std::chrono::steady_clock::now();
  PackedCsr p;
  p.offsets = packed_offsets(csr, n, with_weights);
  p.words = Array<uint32_t>::allocate(p.offsets[n]);
  pack_lists(csr, n, p.offsets, p.words.data(), with_weights);
  p.build_s = seconds_since(t0);
  return p;
}

}  // namespace tg
