// The GPU engine's frontiers: a vertex queue (sparse), a bitmap (dense, what
// a pull step produces) or "every vertex", and the operations on them that
// need device scratch: conversions, selection by a predicate (or a split by
// two), union, the out-degree sum the direction policy weighs, and the
// output set of a push step. A push step's output is a set: a per-vertex
// bit of the dedupe bitmap is set with atomicOr and only the thread that set
// it appends the vertex; large outputs skip the queue and are read back from
// the bitmap in vertex order (sorted frontiers keep zero-copy reads in
// address order, see docs/GPU.md).
#pragma once

#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <cstdint>
#include <memory>
#include <utility>

#include "engines/gpu/cuda_util.h"
#include "engines/gpu/vertex_kernels.cuh"

namespace tg::gpu {

template <typename V>
class GpuFrontier {
 public:
  enum class Kind { kSparse, kDense, kAll };
  Kind kind = Kind::kSparse;
  uint64_t count = 0;
  std::shared_ptr<void> queue;  // kSparse: V[count]
  std::shared_ptr<void> bits;   // kDense: one bit per vertex, padding bits zero
  const V* list() const { return static_cast<const V*>(queue.get()); }
  const uint32_t* words() const { return static_cast<const uint32_t*>(bits.get()); }
};

template <typename V>
class Frontiers {
 public:
  using Frontier = GpuFrontier<V>;

  Frontiers(uint64_t n, int sms) : n_(n), words_((n + 31) / 32), sms_(sms) {
    scalar_ = DeviceArray<unsigned long long>::allocate(1);
    split_counts_ = DeviceArray<unsigned long long>::allocate(2);
    dedupe_ = DeviceArray<uint32_t>::allocate(words_);
    if (words_ > 0) TG_CUDA(cudaMemset(dedupe_.data(), 0, words_ * sizeof(uint32_t)));
  }

  ScratchPool& pool() { return pool_; }
  uint64_t words() const { return words_; }
  // A device counter for kernels that append (its value is the caller's to set).
  unsigned long long* scalar() { return scalar_.data(); }

  Frontier single(V v) {
    Frontier f;
    f.queue = pool_.get_n<V>(1);
    TG_CUDA(cudaMemcpy(f.queue.get(), &v, sizeof(V), cudaMemcpyHostToDevice));
    f.count = 1;
    return f;
  }
  Frontier all() const {
    Frontier f;
    f.kind = Frontier::Kind::kAll;
    f.count = n_;
    return f;
  }

  // The items of [in, in + n) that satisfy pred, as a new sparse frontier of
  // at most `capacity` vertices.
  template <typename It, typename Pred>
  Frontier select_from(It in, uint64_t n, Pred pred, uint64_t capacity) {
    Frontier out;
    out.queue = pool_.get_n<V>(capacity);
    V* list = static_cast<V*>(out.queue.get());
    unsigned long long* selected = scalar_.data();
    run_cub(pool_, [&](void* tmp, size_t& bytes) {
      return cub::DeviceSelect::If(tmp, bytes, in, list, selected, static_cast<int64_t>(n), pred);
    });
    unsigned long long count = 0;
    TG_CUDA(cudaMemcpy(&count, selected, sizeof count, cudaMemcpyDeviceToHost));
    out.count = count;
    return out;
  }

  template <typename Pred>
  Frontier filter(const Frontier& f, Pred pred) {
    if (f.count == 0) return Frontier{};
    if (f.kind == Frontier::Kind::kSparse)
      return select_from(f.list(), f.count, vertex_kernels::MemberAnd<V, Pred>{nullptr, pred}, f.count);
    const uint32_t* bits = f.kind == Frontier::Kind::kDense ? f.words() : nullptr;
    return select_from(thrust::counting_iterator<V>(0), n_, vertex_kernels::MemberAnd<V, Pred>{bits, pred}, f.count);
  }

  // The members that satisfy `first` and those that satisfy `second` (not
  // both), in one pass: CUB's three-way partition reads each member (and
  // the predicates its key) once, drops the rest unwritten, and leaves both
  // counts for one copy back.
  template <typename First, typename Second>
  std::pair<Frontier, Frontier> split(const Frontier& f, First first, Second second) {
    if (f.count == 0) return {};
    Frontier a, b;
    a.queue = pool_.get_n<V>(f.count);
    b.queue = pool_.get_n<V>(f.count);
    V* a_list = static_cast<V*>(a.queue.get());
    V* b_list = static_cast<V*>(b.queue.get());
    unsigned long long* counts = split_counts_.data();
    auto partition = [&](auto in, uint64_t n, const uint32_t* bits) {
      run_cub(pool_, [&](void* tmp, size_t& bytes) {
        return cub::DevicePartition::If(tmp, bytes, in, a_list, b_list, thrust::make_discard_iterator(), counts,
                                        static_cast<int64_t>(n), vertex_kernels::MemberAnd<V, First>{bits, first},
                                        vertex_kernels::MemberAnd<V, Second>{bits, second});
      });
    };
    if (f.kind == Frontier::Kind::kSparse) partition(f.list(), f.count, nullptr);
    else partition(thrust::counting_iterator<V>(0), n_, f.kind == Frontier::Kind::kDense ? f.words() : nullptr);
    unsigned long long count[2] = {0, 0};
    TG_CUDA(cudaMemcpy(count, counts, sizeof count, cudaMemcpyDeviceToHost));
    a.count = count[0];
    b.count = count[1];
    return {a.count > 0 ? a : Frontier{}, b.count > 0 ? b : Frontier{}};
  }

  Frontier to_sparse(const Frontier& f) {
    if (f.kind == Frontier::Kind::kSparse) return f;
    return filter(f, vertex_kernels::Always{});
  }

  Frontier to_dense(const Frontier& f) {
    if (f.kind == Frontier::Kind::kDense) return f;
    Frontier d;
    d.kind = Frontier::Kind::kDense;
    d.count = f.count;
    d.bits = pool_.get_n<uint32_t>(words_);
    uint32_t* words = static_cast<uint32_t*>(d.bits.get());
    if (f.kind == Frontier::Kind::kAll) {
      TG_CUDA(cudaMemset(words, 0xff, words_ * sizeof(uint32_t)));
      if (n_ % 32 != 0) {
        uint32_t last = (1u << (n_ % 32)) - 1;
        TG_CUDA(cudaMemcpy(words + words_ - 1, &last, sizeof last, cudaMemcpyHostToDevice));
      }
    } else {
      TG_CUDA(cudaMemset(words, 0, words_ * sizeof(uint32_t)));
      if (f.count > 0) {
        vertex_kernels::set_bits<<<grid_for(f.count, kBlock, sms_), kBlock>>>(f.list(), f.count, words);
        TG_CUDA_CHECK_LAUNCH();
      }
    }
    return d;
  }

  Frontier merge(const Frontier& a, const Frontier& b) {
    if (a.count == 0) return b;
    if (b.count == 0) return a;
    if (a.kind == Frontier::Kind::kAll || b.kind == Frontier::Kind::kAll) return all();
    Frontier sa = to_sparse(a), sb = to_sparse(b);
    Frontier out;
    out.queue = pool_.get_n<V>(sa.count + sb.count);
    V* list = static_cast<V*>(out.queue.get());
    TG_CUDA(cudaMemcpy(list, sa.list(), sa.count * sizeof(V), cudaMemcpyDeviceToDevice));
    vertex_kernels::set_bits<<<grid_for(sa.count, kBlock, sms_), kBlock>>>(sa.list(), sa.count, dedupe_.data());
    TG_CUDA_CHECK_LAUNCH();
    unsigned long long count = sa.count;
    TG_CUDA(cudaMemcpy(scalar_.data(), &count, sizeof count, cudaMemcpyHostToDevice));
    vertex_kernels::append_new<<<grid_for(sb.count, kBlock, sms_), kBlock>>>(sb.list(), sb.count, dedupe_.data(), list,
                                                                             scalar_.data());
    TG_CUDA_CHECK_LAUNCH();
    TG_CUDA(cudaMemcpy(&count, scalar_.data(), sizeof count, cudaMemcpyDeviceToHost));
    out.count = count;
    clear_dedupe(list, count);
    return out;
  }

  // The sum of the out-degrees of f's members.
  uint64_t out_degree_sum(const Frontier& f, const eid_t* offsets, uint64_t all_edges) {
    if (f.kind == Frontier::Kind::kAll) return all_edges;
    if (f.count == 0) return 0;
    unsigned long long* out = scalar_.data();
    if (f.kind == Frontier::Kind::kSparse) {
      run_cub(pool_, [&](void* tmp, size_t& bytes) {
        return cub::DeviceReduce::TransformReduce(tmp, bytes, f.list(), out, f.count, vertex_kernels::Sum{},
                                                  vertex_kernels::OutDegree<V>{offsets, nullptr}, 0ull);
      });
    } else {
      run_cub(pool_, [&](void* tmp, size_t& bytes) {
        return cub::DeviceReduce::TransformReduce(tmp, bytes, thrust::counting_iterator<V>(0), out, n_,
                                                  vertex_kernels::Sum{},
                                                  vertex_kernels::OutDegree<V>{offsets, f.words()}, 0ull);
      });
    }
    unsigned long long x = 0;
    TG_CUDA(cudaMemcpy(&x, out, sizeof x, cudaMemcpyDeviceToHost));
    return x;
  }

  // ---- the output set of a push step ----

  // All zero between steps; a push step sets the bits of its output.
  uint32_t* dedupe() { return dedupe_.data(); }
  // Whether a push step with this many frontier edges appends its output to
  // a queue (small outputs) or leaves it in the bitmap only.
  bool output_in_queue(uint64_t frontier_edges) const { return frontier_edges <= n_ / 64; }
  // A queue for a push step's output (n entries, from the pool).
  std::shared_ptr<void> output_queue() { return pool_.get_n<V>(n_); }
  // The step's output (count vertices): the queue the step filled, or with
  // no queue the members of the bitmap in vertex order. Leaves the dedupe
  // bitmap all zero again.
  Frontier push_output(std::shared_ptr<void> queue, uint64_t count) {
    Frontier out;
    if (count == 0) return out;  // no bit was set
    if (queue != nullptr) {
      out.queue = std::move(queue);
      out.count = count;
      clear_dedupe(out.list(), out.count);
      return out;
    }
    out = select_from(thrust::counting_iterator<V>(0), n_, vertex_kernels::InBits<V>{dedupe_.data()}, count);
    TG_CUDA(cudaMemset(dedupe_.data(), 0, words_ * sizeof(uint32_t)));
    return out;
  }

 private:
  // Zeroes the dedupe bitmap again after a step that set the bits of `list`.
  void clear_dedupe(const V* list, uint64_t count) {
    if (count == 0) return;
    if (count > words_ / 8) {
      TG_CUDA(cudaMemset(dedupe_.data(), 0, words_ * sizeof(uint32_t)));
    } else {
      vertex_kernels::clear_bits<<<grid_for(count, kBlock, sms_), kBlock>>>(list, count, dedupe_.data());
      TG_CUDA_CHECK_LAUNCH();
    }
  }

  uint64_t n_;
  uint64_t words_;
  int sms_;
  ScratchPool pool_;
  DeviceArray<unsigned long long> scalar_;
  DeviceArray<unsigned long long> split_counts_;
  DeviceArray<uint32_t> dedupe_;
};

}  // namespace tg::gpu
