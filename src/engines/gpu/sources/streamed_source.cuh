// The streamed edge source (edge_source.h): the placements subgraph and
// stream (Subway, docs/SUBWAY.md). The edges stay in pinned host memory; a
// push step loads the part the frontier needs into device buffers, as SubCSR
// pieces (subgraph, below the stream threshold) or as the partitions that
// hold active vertices (stream, and subgraph above the threshold), and runs
// the device-memory push kernel on each loaded unit. A gather streams every
// in-edge partition and keeps partial sums until a vertex's parts are all in.
//
// --async (Subway's asynchronous mode, algorithm 4): within each loaded unit
// the push repeats until none of the unit's own vertices changes; the
// operators are then the accumulative forms (AlgorithmOptions::accumulative).
//
// Configured from what the run reads (EdgeReads): out-edges for push steps,
// in-edges for gathers, and the weights with the edges where it reads them.
// Pull steps need the in-edges in device memory, so this source never pulls.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/env_count.h"
#include "core/error.h"
#include "engines/engine.h"
#include "engines/gpu/cuda_util.h"
#include "engines/gpu/frontier.cuh"
#include "engines/gpu/kernels/step_args.h"
#include "engines/gpu/placed_graph.h"
#include "engines/gpu/sources/edge_source.h"
#include "engines/gpu/subgraph/partition_streamer.cuh"
#include "engines/gpu/subgraph/subcsr_builder.cuh"
#include "engines/gpu/subgraph/transfer_choice.h"
#include "engines/gpu/vertex_kernels.cuh"

namespace tg::gpu {

template <typename V>
class StreamedSource {
 public:
  // Allocates the edge buffers within the budget (no larger than the graph
  // needs) and the pinned host arrays, outside the timed run. Throws a
  // one-line tg::Error for what these placements cannot run.
  StreamedSource(const DeviceGraph<V>& g, const EdgeReads& reads, Frontiers<V>& frontiers)
      : g_(g), opt_(g.streamed), frontiers_(frontiers), n_(g.n), words_((g.n + 31) / 32) {
    const std::string where = opt_.stream ? "placement stream" : "placement subgraph";
    const bool push = reads.out_edges != Need::kNo;
    const bool gather = reads.in_edges == Need::kYes;
    if (g_.out.host_offsets == nullptr && n_ > 0) throw Error(where + ": no host offsets");
    if (push && g_.m > 0 && g_.out.host_neighbors == nullptr && g_.out.file_neighbors < 0)
      throw Error(where + ": the graph's out-edges were not placed");
    if (gather && (!g_.in.placed || (g_.in.host_offsets == nullptr && n_ > 0)))
      throw Error(where + ": gathering needs the graph's in-edges, which were not placed");
    // --host-mem: a CSR's arrays from the file, where placed so.
    auto file_of = [&](const PlacedCsr<V>& csr, bool with_weights,
                       const std::shared_ptr<subgraph::KeptSpan>& kept) -> std::optional<subgraph::FileArrays> {
      if (!g_.edge_file || csr.file_neighbors < 0) return std::nullopt;
      return subgraph::FileArrays{g_.edge_file, csr.file_neighbors, with_weights ? csr.file_weights : -1, n_, kept};
    };
    weights_ = reads.weights && (g_.out.host_weights != nullptr || g_.out.file_weights >= 0);
    const bool in_weights = reads.weights && (g_.in.host_weights != nullptr || g_.in.file_weights >= 0);
    // Buffers no larger than the graph needs, whatever the budget; a run that
    // both pushes and gathers splits the budget between the two.
    auto round64 = [](uint64_t x) { return (x + 63) / 64 * 64 + 64; };
    const uint64_t m = g_.m;
    const bool pt = opt_.stream && opt_.mode == StreamMode::kPt;
    auto stream_cap = [&](const subgraph::EdgeEntry& e) {
      return pt ? round64(m) * e.bytes() : subgraph::kDefaultStreamSlots * round64((m + 5) / 6) * e.bytes();
    };
    const uint64_t budget = push && gather ? opt_.budget / 2 : opt_.budget;
    auto config_for = [&](const subgraph::EdgeEntry& e, uint64_t bytes) {
      return subgraph::stream_config(bytes, e, pt ? StreamMode::kPt : StreamMode::kPtOpt, "--gpu-mem");
    };
    auto make_streamer = [&](const subgraph::StreamSource<V>& source, const subgraph::EdgeEntry& e, uint64_t bytes) {
      return std::make_unique<subgraph::PartitionStreamer<V>>(source, config_for(e, bytes));
    };
    const subgraph::EdgeEntry gather_entry{static_cast<uint32_t>(sizeof(V)), in_weights};
    const subgraph::EdgeEntry push_entry{static_cast<uint32_t>(sizeof(V)), weights_};
    const uint64_t gather_bytes = std::min(budget, stream_cap(gather_entry));
    const uint64_t push_bytes = std::min(budget, opt_.stream ? stream_cap(push_entry) : 2 * round64(m) * push_entry.bytes());
    // --host-mem: the batch's earlier runs' resident partitions that this
    // run's streamers will not take over are freed before either allocates,
    // so that GPU memory holds the budget.
    auto free_unless = [&](const std::shared_ptr<subgraph::ResidentPartitions<V>>& carried, bool streams,
                           const subgraph::EdgeEntry& e, uint64_t bytes) {
      if (carried && !(streams && carried->serves(config_for(e, bytes)))) carried->release();
    };
    free_unless(g_.gather_resident, gather, gather_entry, gather_bytes);
    free_unless(g_.push_resident, push && opt_.stream, push_entry, push_bytes);
    if (gather) {
      // A gather reads every in-list every iteration: both placements stream
      // the in-edges, PT or PT-Opt (subgraph: PT-Opt, since a SubCSR of every
      // vertex is the whole CSR); packed where the placement packed them
      // (4-byte words for 4-byte entries, so the same buffers hold them).
      const subgraph::EdgeEntry& entry = gather_entry;
      const uint64_t bytes = gather_bytes;
      stats_.budget_bytes += bytes;
      packed_ = sizeof(V) == sizeof(uint32_t) && g_.in.packed_words != nullptr && !reads.weights;
      if (packed_) {
        gather_streamer_ = make_streamer(subgraph::StreamSource<V>{n_, g_.in.packed_offsets, g_.in.packed_host_offsets,
                                                                   reinterpret_cast<const V*>(g_.in.packed_words),
                                                                   nullptr, std::nullopt},
                                         entry, bytes);
        // A packed list longer than a partition would be cut mid-block: plain lists then.
        for (const subgraph::EdgeRange& p : gather_streamer_->schedule().partitions())
          if (p.split) packed_ = false;
        stats_.gather_lists = packed_ ? "packed" : "plain: a packed in-list is longer than a partition";
      }
      if (!packed_) {
        gather_streamer_.reset();
        gather_streamer_ = make_streamer(subgraph::StreamSource<V>{n_, g_.in.view.offsets, g_.in.host_offsets,
                                                                   g_.in.host_neighbors,
                                                                   in_weights ? g_.in.host_weights : nullptr,
                                                                   file_of(g_.in, in_weights, g_.gather_kept),
                                                                   g_.gather_resident},
                                         entry, bytes);
        if (stats_.gather_lists.empty()) stats_.gather_lists = "plain";
      } else {
        warp_queue_ = DeviceArray<V>::allocate(std::max<uint64_t>(n_, 1));
      }
      stats_.mode = pt ? StreamMode::kPt : StreamMode::kPtOpt;
    }
    if (push) {
      const subgraph::EdgeEntry& entry = push_entry;
      const uint64_t bytes = push_bytes;
      stats_.budget_bytes += bytes;
      subgraph::StreamSource<V> out{n_,
                                    g_.out.view.offsets,
                                    g_.out.host_offsets,
                                    g_.out.host_neighbors,
                                    weights_ ? g_.out.host_weights : nullptr,
                                    file_of(g_.out, weights_, g_.push_kept),
                                    g_.push_resident};
      if (opt_.stream) {
        streamer_ = make_streamer(out, entry, bytes);
        stats_.mode = pt ? StreamMode::kPt : StreamMode::kPtOpt;
      } else {
        make_builder(out, entry, bytes);
      }
    }
    if (opt_.async) {
      inner_bits_ = DeviceArray<uint32_t>::allocate(words_);
      active_bits_ = DeviceArray<uint32_t>::allocate(words_);
      if (words_ > 0) {
        TG_CUDA(cudaMemset(inner_bits_.data(), 0, words_ * sizeof(uint32_t)));
        TG_CUDA(cudaMemset(active_bits_.data(), 0, words_ * sizeof(uint32_t)));
      }
      inner_queue_ = DeviceArray<V>::allocate(std::max<uint64_t>(n_, 1));
      next_queue_ = DeviceArray<V>::allocate(std::max<uint64_t>(n_, 1));
      inner_counters_ = DeviceArray<StepCounters>::allocate(1);
    }
    counters_ = DeviceArray<StepCounters>::allocate(1);
    residual_ = DeviceArray<double>::allocate(1);
    scalar_ = DeviceArray<unsigned long long>::allocate(1);
    big_ = DeviceArray<V>::allocate(n_);
    const subgraph::PartitionStreamer<V>* shown = streamer_ ? streamer_.get() : gather_streamer_.get();
    if (shown != nullptr) {
      stats_.partitions = shown->schedule().partitions().size();
      stats_.resident_partitions = shown->schedule().resident_count();
      stats_.resident_carried = shown->resident_carried();
    }
    stats_.buffer_edges = builder_ ? builder_->sizing().capacity_edges
                          : shown  ? shown->schedule().config().partition_edges
                                   : 0;
    stats_.async = opt_.async;
    if (g_.edge_file) check_host_mem(gather);
  }

  bool can_pull() const { return false; }
  uint64_t host_mem_bytes() const { return stats_.host_buffer_bytes + stats_.host_cache_bytes; }
  weight_t light_lists_below() const { return light_below_; }
  const eid_t* out_offsets() const { return g_.out.view.offsets; }

  template <typename Op>
  StepOutcome pull(const PullInput<V>&, const Op&) {
    throw Error("GPU engine: placements subgraph and stream run push steps only, and a pull step was asked for");
  }

  // One push step over the loaded units (SubCSR pieces or partitions): the
  // device-memory push kernel on each, the output the union over units.
  template <typename Op>
  StepOutcome push(const PushInput<V>& in, const Op& op) {
    if (!streamer_) throw Error("GPU engine: the streamed source was not set up to push (no out-edges read)");
    const bool every = in.frontier == nullptr;
    const bool async = opt_.async && in.want_output;
    const auto t0 = std::chrono::steady_clock::now();
    PushArgs<V> a;
    a.want_output = in.want_output;
    a.out_bits = in.out_bits;
    a.out_queue = in.out_queue;
    a.big_queue = big_.data();
    a.counters = counters_.data();
    a.sms = g_.sms;
    a.pool = &frontiers_.pool();

    subgraph::IterationRecord rec;
    rec.iteration = stats_.iterations.size();
    rec.inner_iterations = 0;
    rec.shape.vertices = n_;
    rec.shape.total_edges = g_.m;
    rec.shape.active_vertices = in.count;
    rec.shape.active_edges = in.frontier_edges;
    rec.shape.id_bytes = sizeof(V);
    rec.shape.weights = weights_;
    // The packed pieces' measured bytes over the link (128-byte lines) over their plain bytes, once
    // there are enough of them: short lists cost whole lines, packed or not.
    rec.shape.packed_fraction = packed_plain_ >= (uint64_t{64} << 20) ? double(packed_link_) / double(packed_plain_)
                                                                      : packed_fraction_;
    // A band from 0 to at most light_below_ (SSSP's light rounds): the SubCSR
    // of the frontier's light lists, whatever its size.
    bool light = false;
    if constexpr (HasWeightBand<Op>)
      light = light_below_ > 0 && !every && op.band().from <= 0 && op.band().below <= light_below_;
    bool stream_it = true;
    eid_t heads = subgraph::SubcsrBuilder<V>::kWholeList;  // a SubCSR of each list's first entries
    if (pushes_heads(op)) {
      // From the heads cache in GPU memory where the placement holds them
      // (engines/gpu_footprint.h: streamed_heads_cache), else over the link
      // in place, or gathered into a SubCSR by the CPU (TG_HEADS_GATHER=1).
      heads = list_limit(op);
      const bool cached = g_.out.view.cache.heads >= heads;
      const bool gathered = !cached && gathers_heads();
      rec.choice.transfer = gathered ? subgraph::Transfer::kSubgraphCpuGather : subgraph::Transfer::kZeroCopy;
      rec.choice.reason = "the first " + std::to_string(heads) + " entries of each list: " +
                          (cached ? "read from the heads cache in GPU memory" : gathered ? "gathered by the CPU" : "read in place");
      stream_it = false;
    } else if (light && reads_light_in_place<Op>()) {
      rec.choice.transfer = subgraph::Transfer::kResident;
      rec.choice.reason = "a light band: the light lists, read where they lie in GPU memory";
      stream_it = false;
    } else if (light) {
      rec.choice.transfer = subgraph::Transfer::kSubgraphGpuGather;
      rec.choice.reason = "a light band: the light lists";
      stream_it = false;
    } else if (builder_) {
      rec.choice = subgraph::choose_transfer(rec.shape, meters_.rates(subgraph::TransferRates{}), params_);
      if (every) {
        rec.choice.transfer = subgraph::Transfer::kStream;
        rec.choice.reason = "every vertex is active";
      } else if (reads_in_place(in)) {
        rec.choice.transfer = subgraph::Transfer::kZeroCopy;
        rec.choice.reason = "a small round: " + std::to_string(in.frontier_edges) + " active edges < " +
                            std::to_string(zero_copy_below_) + ": read in place";
      }
      stream_it = rec.choice.transfer == subgraph::Transfer::kStream;
    } else {
      rec.choice.transfer = subgraph::Transfer::kStream;
      rec.choice.active_edge_fraction = g_.m ? double(in.frontier_edges) / double(g_.m) : 0;
      rec.choice.reason = "placement stream";
    }

    uint64_t out_count = 0, edges = 0, cache_bytes = 0;
    // Runs the kernel on one loaded unit (and, with --async, to local convergence).
    auto run_unit = [&](const CsrView<V>& csr, const V* frontier, uint64_t count, subgraph::UnitMembers members) {
      rec.units++;
      if (async) {
        run_unit_async(a, op, csr, frontier, count, members, out_count, edges, rec);
        return;
      }
      a.csr = csr;
      a.frontier = frontier;
      a.count = count;
      StepCounters carry{};
      carry.out_count = out_count;  // queue appends continue; big_count restarts
      TG_CUDA(cudaMemcpy(counters_.data(), &carry, sizeof carry, cudaMemcpyHostToDevice));
      StepCounters c = push_step<Access::kDevice>(a, whole_lists(op));
      edges += c.edges;
      out_count = c.out_count;
      rec.inner_iterations++;
    };

    if (rec.choice.transfer == subgraph::Transfer::kZeroCopy) push_in_place(in, a, op, rec, out_count, edges, cache_bytes);
    else if (rec.choice.transfer == subgraph::Transfer::kResident) push_light_in_place(in, a, op, rec, out_count, edges);
    else if (stream_it) stream_units(in, every, rec, run_unit);
    else subgraph_units(in, async, rec, run_unit, light, heads);
    rec.compute_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    StepOutcome o;
    o.out_count = in.want_output ? out_count : 0;
    o.edges = edges;
    o.bytes_moved = rec.bytes_copied;
    o.cache_bytes = cache_bytes;
    stats_.iterations.push_back(std::move(rec));
    return o;
  }

  // Every in-edge partition streamed through the device buffers (PT or
  // PT-Opt), each vertex's sum kept as a partial until all its parts are in,
  // then one apply over every vertex. Over vertices [begin, end) only (the
  // hybrid engine's GPU share), PT-Opt streams only the partitions that
  // hold them.
  template <typename G>
  StepOutcome gather(const G& op, double* residual, uint64_t begin, uint64_t end) {
    if (!gather_streamer_) throw Error("GPU engine: the streamed source was not set up to gather (no in-edges read)");
    using acc_t = typename G::acc_t;
    const auto t0 = std::chrono::steady_clock::now();
    if (!partial_) partial_ = frontiers_.pool().template get_n<acc_t>(std::max<uint64_t>(n_, 1));
    acc_t* partial = static_cast<acc_t*>(partial_.get());
    if (end > begin) {
      vertex_kernels::fill<<<grid_for(end - begin, kBlock, g_.sms), kBlock>>>(partial + begin, end - begin, op.zero());
      TG_CUDA_CHECK_LAUNCH();
    }
    const bool whole = begin == 0 && end == n_;
    subgraph::IterationRecord rec;
    rec.iteration = stats_.iterations.size();
    rec.shape.vertices = rec.shape.active_vertices = n_;
    rec.shape.total_edges = rec.shape.active_edges = g_.m;
    rec.shape.id_bytes = sizeof(V);
    rec.choice.transfer = subgraph::Transfer::kStream;
    rec.choice.active_edge_fraction = 1;
    rec.choice.reason = "gather: every in-list is read";
    const auto& parts = gather_streamer_->schedule().partitions();
    uint64_t edges = 0;
    const V* active = whole ? nullptr : gather_streamer_->identity() + begin;
    subgraph::StreamTraffic t = gather_streamer_->run(active, end - begin, [&](const subgraph::StreamUnit<V>& u) {
      const subgraph::EdgeRange& p = parts[u.partition];
      GatherArgs<V> a;
      a.csr = u.csr;
      // A partition across the range's ends: only its vertices inside.
      a.first = u.unit.split ? u.unit.split_vertex : std::max<uint64_t>(p.first, begin);
      a.n = u.unit.split ? 1 : std::min<uint64_t>(p.last, end) - a.first;
      a.partial = partial;
      a.counters = counters_.data();
      a.residual = residual_.data();
      a.big_queue = big_.data();
      a.sms = g_.sms;
      a.pool = &frontiers_.pool();
      TG_CUDA(cudaMemset(counters_.data(), 0, sizeof(StepCounters)));
      double unused = 0;
      edges += packed_ ? gather_packed_unit(a, u, op) : gather_step<Access::kDevice>(a, op, &unused).edges;
      rec.units++;
    }, end, begin);
    TG_CUDA(cudaMemset(residual_.data(), 0, sizeof(double)));
    if (end > begin) {
      vertex_kernels::apply_partials<V, G>
          <<<grid_for(end - begin, kBlock, g_.sms), kBlock>>>(begin, end - begin, op, partial, residual_.data());
      TG_CUDA_CHECK_LAUNCH();
    }
    double r = 0;
    TG_CUDA(cudaMemcpy(&r, residual_.data(), sizeof r, cudaMemcpyDeviceToHost));
    *residual += r;
    rec.inner_iterations = rec.units;  // one gather per loaded partition
    rec.bytes_copied = t.bytes_to_device;
    rec.copy_s = t.seconds;
    rec.compute_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    add_traffic(t);
    stats_.iterations.push_back(std::move(rec));
    StepOutcome o;
    o.edges = edges;
    o.bytes_moved = t.bytes_to_device;
    return o;
  }

  // One loaded partition of packed in-lists (graph/packed_lists.h): the
  // unit's words in place of its neighbours, the plain offsets for degrees.
  template <typename G>
  uint64_t gather_packed_unit(const GatherArgs<V>& plain, const subgraph::StreamUnit<V>& u, const G& op) {
    if constexpr (sizeof(V) == sizeof(uint32_t) && !G::needs_weights) {
      PackedGatherArgs<V> a;
      static_cast<GatherArgs<V>&>(a) = plain;
      a.csr.offsets = g_.in.view.offsets;
      a.csr.neighbors = nullptr;
      a.word_offsets = g_.in.packed_offsets;
      a.words = reinterpret_cast<const uint32_t*>(u.csr.neighbors);
      a.warp_queue = warp_queue_.data();
      double unused = 0;
      return gather_packed_step(a, op, &unused).edges;
    } else {
      throw Error("GPU engine: packed in-lists hold 4-byte ids without weights");
    }
  }

  void report(RunStats& stats) const {
    stats.stream = stats_;
    if (g_.edge_file) {
      stats.stream->disk_bytes = (streamer_ ? streamer_->file_bytes_read() : 0) +
                                 (gather_streamer_ ? gather_streamer_->file_bytes_read() : 0);
    }
  }

 private:
  // A placed CSR as the SubCSR builder reads it: offsets both sides, the
  // pinned lists with their mappings, and their packed form where placed.
  subgraph::SubcsrSource<V> subcsr_source(const PlacedCsr<V>& csr, bool weights) const {
    subgraph::SubcsrSource<V> src;
    src.n = n_;
    src.offsets_device = csr.view.offsets;
    src.offsets_host = csr.host_offsets;
    src.neighbors_host = csr.host_neighbors;
    src.weights_host = weights ? csr.host_weights : nullptr;
    src.neighbors_mapped = csr.view.neighbors;
    src.weights_mapped = weights ? csr.view.weights : nullptr;
    src.packed_words_mapped = csr.packed_words_mapped;
    src.packed_words_resident = csr.packed_words_resident;
    src.packed_offsets_device = csr.packed_offsets;
    src.packed_weights = csr.packed_weights;
    src.packed_words = csr.packed_host_offsets != nullptr ? csr.packed_host_offsets[n_] : 0;
    return src;
  }

  // subgraph: the SubCSR builder, and the streamer that runs the iterations
  // above the threshold through the builder's two slots (PT-Opt skipping, no
  // residents): one budget for both.
  void make_builder(const subgraph::StreamSource<V>& out, const subgraph::EdgeEntry& entry, uint64_t bytes) {
    // the placement's choice of packing (GpuOptions::packed_lists)
    const subgraph::SubcsrSource<V> src = subcsr_source(g_.out, weights_);
    subgraph::SubcsrConfig sc;
    sc.budget_bytes = bytes;
    sc.slots = 2;
    sc.weights = weights_;
    builder_ = std::make_unique<subgraph::SubcsrBuilder<V>>(src, sc);
    if (g_.light_below > 0 && weights_ && !opt_.async && opt_.gather != GatherWay::kCpu) {
      builder_->set_light_lists(subcsr_source(g_.light, true));
      if (builder_->light_lists()) light_below_ = g_.light_below;
    }
    if (builder_->packed() && g_.m > 0)
      packed_fraction_ = double(g_.out.packed_host_offsets[n_]) * sizeof(uint32_t) / (double(g_.m) * entry.bytes());
    // Pinned host arrays outside the timed run.
    if (opt_.gather != GatherWay::kGpu) builder_->prepare_cpu_gather();
    subgraph::StreamConfig cfg;
    cfg.mode = StreamMode::kPtOpt;
    cfg.entry = entry;
    cfg.staging_buffers = 2;
    cfg.partition_edges = builder_->sizing().capacity_edges;
    cfg.resident_edges = 0;
    std::vector<typename subgraph::PartitionStreamer<V>::Borrowed> lent;
    for (uint32_t k = 0; k < 2; ++k) lent.push_back({builder_->slot_neighbors(k), builder_->slot_weights(k)});
    streamer_ = std::make_unique<subgraph::PartitionStreamer<V>>(out, cfg, lent);
    params_.stream_threshold = opt_.stream_threshold;
    params_.gather = opt_.gather;
  }

  // A round of few active edges read in place over zero-copy (the
  // zerocopy-aligned placement's kernel, over the same mapped lists the GPU
  // gather reads): a SubCSR's fixed cost (sort, scans, a load's syncs) can
  // exceed the time its few lines take over the link. Off unless
  // TG_SUBGRAPH_IN_PLACE_BELOW=EDGES (being measured: docs/SUBWAY.md); not
  // with --async, whose units converge locally.
  bool reads_in_place(const PushInput<V>& in) const {
    return zero_copy_below_ > 0 && !opt_.async && in.frontier_edges < zero_copy_below_ &&
           g_.out.view.neighbors != nullptr && (!weights_ || g_.out.view.weights != nullptr);
  }

  // A push that reads only the first few entries of each list (the
  // list_limit hint of CC's sampling, engines/engine.h): a partition, or a
  // SubCSR of whole lists, would copy whole lists across the link to use
  // their heads. Both placements read them in place over zero-copy, a
  // sector or two a list (the H100: kron:25's 30 M heads in 56 ms, urand:25's
  // 67 M in 126, at 10-11 GB/s). With TG_HEADS_GATHER=1 the subgraph
  // placement's CPU threads gather them into a SubCSR instead, which crosses
  // the link whole: slower on the H100 (session 55: kron:25's CC at a quarter
  // budget 372 ms against 123 in place; the CPU's gather of a few entries a
  // list costs more than the lines it saves).
  static constexpr eid_t kHeadsOnly = 32;
  template <typename Op>
  bool pushes_heads(const Op& op) const {
    return list_limit(op) <= kHeadsOnly && !opt_.async && g_.out.view.neighbors != nullptr &&
           (!weights_ || g_.out.view.weights != nullptr);
  }
  // Whatever way gathers the placement's whole lists (the GPU's, by default,
  // reads them in place too): the CPU's staging is allocated at its first use.
  bool gathers_heads() const { return builder_ && heads_gather_; }

  template <typename Op>
  void push_in_place(const PushInput<V>& in, PushArgs<V> a, const Op& op, subgraph::IterationRecord& rec,
                     uint64_t& out_count, uint64_t& edges, uint64_t& cache_bytes) {
    const auto pushed = std::chrono::steady_clock::now();
    a.csr = g_.out.view;
    a.frontier = in.frontier;
    a.count = in.count;
    TG_CUDA(cudaMemset(counters_.data(), 0, sizeof(StepCounters)));
    const StepCounters c = push_step<Access::kAligned>(a, whole_lists(op));
    edges += c.edges;
    out_count = c.out_count;
    cache_bytes += c.cache_bytes;  // the heads cache's, where the placement holds one
    rec.units = 1;
    rec.inner_iterations = 1;
    rec.bytes_copied = c.sectors * 32;  // the 32-byte sectors its loads asked for over the link
    rec.push_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - pushed).count();
  }

  // A light round over light lists resident in GPU memory: pushed where
  // they lie, packed (kernels/push_packed.cuh), with no SubCSR built, loaded
  // or decoded first. On unless TG_LIGHT_IN_PLACE=0 (to measure against the
  // SubCSR of light lists).
  // The operators push_packed_step is compiled for (kernels/push_packed.cu), with 4-byte ids.
  template <typename Op>
  static constexpr bool kPushesPacked = sizeof(V) == sizeof(uint32_t) && Op::needs_weights && HasWeightBand<Op>;

  template <typename Op>
  bool reads_light_in_place() const {
    return kPushesPacked<Op> && light_in_place_ && g_.light.packed_words_resident && g_.light.packed_weights &&
           g_.light.packed_offsets != nullptr;
  }

  template <typename Op>
  void push_light_in_place(const PushInput<V>& in, const PushArgs<V>& a, const Op& op, subgraph::IterationRecord& rec,
                           uint64_t& out_count, uint64_t& edges) {
    if constexpr (kPushesPacked<Op>) {
      const auto pushed = std::chrono::steady_clock::now();
      PackedPushArgs<V> p;
      static_cast<PushArgs<V>&>(p) = a;
      p.csr = CsrView<V>{};
      p.csr.offsets = g_.light.view.offsets;  // entries, for the degrees
      p.word_offsets = g_.light.packed_offsets;
      p.words = g_.light.packed_words_mapped;
      p.frontier = in.frontier;
      p.count = in.count;
      TG_CUDA(cudaMemset(counters_.data(), 0, sizeof(StepCounters)));
      const StepCounters c = push_packed_step(p, whole_lists(op));
      edges += c.edges;
      out_count = c.out_count;
      rec.units = 1;
      rec.inner_iterations = 1;
      rec.bytes_copied = 0;  // nothing crosses the link
      rec.push_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - pushed).count();
    } else {
      throw Error("GPU engine: light lists are pushed in place with 4-byte ids and a weighted, banded operator only");
    }
  }

  // The partitions that hold active vertices (all of them for PT).
  template <typename RunUnit>
  void stream_units(const PushInput<V>& in, bool every, subgraph::IterationRecord& rec, RunUnit& run_unit) {
    const V* active = every ? nullptr : streamer_->sorted(in.frontier, in.count);
    const auto& parts = streamer_->schedule().partitions();
    subgraph::StreamTraffic t = streamer_->run(active, every ? 0 : in.count, [&](const subgraph::StreamUnit<V>& u) {
      const subgraph::EdgeRange& p = parts[u.partition];
      // A split hub list is pushed in parts, one unit each: re-running it
      // inside one part would push the rest of its list a different value.
      run_unit(u.csr, u.frontier, u.count,
               p.split ? subgraph::UnitMembers{nullptr, 0, 0} : subgraph::UnitMembers{nullptr, p.first, p.last});
    });
    rec.bytes_copied = t.bytes_to_device;
    rec.copy_s = t.seconds;
    if (t.bytes_to_device > 0) meters_.link.add(double(t.bytes_to_device), t.seconds);
    add_traffic(t);
  }

  // The lists loaded here are in id order (packed lists are, whatever the
  // graph's order), and a light list holds only its band: the push reads
  // every entry, and an ordered band's hint would skip some wrongly.
  template <typename Op>
  static Op whole_lists(const Op& op) {
    if constexpr (requires { op.with_band(WeightBand{}); }) return op.with_band(WeightBand{});
    else return op;
  }

  // The SubCSR of the active lists (or of their light lists), piece by piece.
  template <typename RunUnit>
  void subgraph_units(const PushInput<V>& in, bool async, subgraph::IterationRecord& rec, RunUnit& run_unit,
                      bool light, eid_t heads = subgraph::SubcsrBuilder<V>::kWholeList) {
    subgraph::SubcsrShape shape = builder_->build_from_list(in.frontier, in.count, false, light, heads);
    rec.generate_s = shape.generate_s;
    // A graph without edges has no mapped edge array: the CPU way (which copies nothing).
    const GatherWay way =
        rec.choice.transfer == subgraph::Transfer::kSubgraphGpuGather && g_.out.view.neighbors != nullptr
            ? GatherWay::kGpu
            : GatherWay::kCpu;
    if (way == GatherWay::kCpu) rec.choice.transfer = subgraph::Transfer::kSubgraphCpuGather;
    if (async && shape.active_vertices > 0) {
      vertex_kernels::set_bits<<<grid_for(shape.active_vertices, kBlock, g_.sms), kBlock>>>(
          builder_->active(), shape.active_vertices, active_bits_.data());
      TG_CUDA_CHECK_LAUNCH();
    }
    const auto& pieces = builder_->pieces();
    uint64_t sub_bytes = 0;
    // Piece k + 1 is begun before piece k is pushed: the GPU way's gather
    // (and decode) into the other slot then runs beside the push.
    if (!pieces.empty()) builder_->begin_load(0, 0, way);
    using clock = std::chrono::steady_clock;
    for (uint64_t k = 0; k < pieces.size(); ++k) {
      const auto waited = clock::now();
      subgraph::LoadedPiece<V> p = builder_->end_load();
      rec.load_wait_s += std::chrono::duration<double>(clock::now() - waited).count();
      if (k + 1 < pieces.size()) builder_->begin_load(k + 1, static_cast<uint32_t>((k + 1) % 2), way);
      const uint64_t moved = way == GatherWay::kGpu ? p.link_bytes : p.bytes_to_device;
      rec.bytes_copied += moved;
      sub_bytes += p.bytes_to_device;
      rec.gather_s += p.gather_s;
      rec.copy_s += p.copy_s;
      stats_.d2h_bytes += p.bytes_to_host;
      ++(p.packed ? stats_.packed_pieces : stats_.plain_pieces);
      // The GPU way's rate in the bytes its estimate counts: plain bytes, or packed ones over the link.
      // Light rounds and heads apart: their short lists (resident, or a request a list) say nothing of a whole
      // list's cost.
      if (!light && heads == subgraph::SubcsrBuilder<V>::kWholeList) {
        if (way == GatherWay::kGpu) meters_.gpu_gather.add(double(p.packed ? p.link_bytes : p.bytes_to_device), p.gather_s);
        else meters_.cpu_gather.add(double(p.bytes_to_device), p.gather_s);
        if (p.packed) {
          packed_link_ += p.link_bytes;
          packed_plain_ += p.bytes_to_device;
        }
      }
      subgraph::UnitMembers members{active_bits_.data(), 0, 0};
      if (async && p.count > 0 && !p.unit.split) {  // split lists: see stream_units
        V ends[2];
        TG_CUDA(cudaMemcpy(&ends[0], p.frontier, sizeof(V), cudaMemcpyDeviceToHost));
        TG_CUDA(cudaMemcpy(&ends[1], p.frontier + p.count - 1, sizeof(V), cudaMemcpyDeviceToHost));
        members.lo = ends[0];
        members.hi = static_cast<uint64_t>(ends[1]) + 1;
      }
      if (p.count > 0) {
        const auto pushed = clock::now();
        run_unit(p.csr, p.frontier, p.count, members);
        rec.push_s += std::chrono::duration<double>(clock::now() - pushed).count();
      }
    }
    if (async && shape.active_vertices > 0) {
      vertex_kernels::clear_bits<<<grid_for(shape.active_vertices, kBlock, g_.sms), kBlock>>>(
          builder_->active(), shape.active_vertices, active_bits_.data());
      TG_CUDA_CHECK_LAUNCH();
    }
    stats_.subcsr_max_edges = std::max<uint64_t>(stats_.subcsr_max_edges, shape.active_edges);
    stats_.subcsr_max_pieces = std::max<uint64_t>(stats_.subcsr_max_pieces, shape.pieces);
    stats_.subcsr_bytes += sub_bytes;
  }

  // Subway algorithm 4: push within the unit until no member changes. Each
  // push writes the unit's own output set (inner_bits_, queue qa); it is
  // merged into the step's output, and its members (qb) are the next inner
  // frontier.
  template <typename Op>
  void run_unit_async(const PushArgs<V>& step, const Op& op, const CsrView<V>& csr, const V* frontier, uint64_t count,
                      subgraph::UnitMembers members, uint64_t& out_count, uint64_t& edges,
                      subgraph::IterationRecord& rec) {
    PushArgs<V> b = step;
    b.csr = csr;
    b.out_bits = inner_bits_.data();
    b.counters = inner_counters_.data();
    V* qa = inner_queue_.data();
    V* qb = next_queue_.data();
    const V* in = frontier;
    uint64_t in_count = count;
    while (in_count > 0) {
      b.frontier = in;
      b.count = in_count;
      b.out_queue = qa;
      TG_CUDA(cudaMemset(inner_counters_.data(), 0, sizeof(StepCounters)));
      StepCounters c = push_step<Access::kDevice>(b, whole_lists(op));
      edges += c.edges;
      rec.inner_iterations++;
      const uint64_t produced = c.out_count;
      if (produced == 0) break;
      unsigned long long total = out_count;
      TG_CUDA(cudaMemcpy(scalar_.data(), &total, sizeof total, cudaMemcpyHostToDevice));
      vertex_kernels::append_new<<<grid_for(produced, kBlock, g_.sms), kBlock>>>(qa, produced, step.out_bits,
                                                                                 step.out_queue, scalar_.data());
      TG_CUDA_CHECK_LAUNCH();
      TG_CUDA(cudaMemcpy(&total, scalar_.data(), sizeof total, cudaMemcpyDeviceToHost));
      out_count = total;
      unsigned long long next = 0;
      TG_CUDA(cudaMemcpy(scalar_.data(), &next, sizeof next, cudaMemcpyHostToDevice));
      vertex_kernels::select_members<<<grid_for(produced, kBlock, g_.sms), kBlock>>>(qa, produced, members, qb,
                                                                                     scalar_.data());
      TG_CUDA_CHECK_LAUNCH();
      TG_CUDA(cudaMemcpy(&next, scalar_.data(), sizeof next, cudaMemcpyDeviceToHost));
      vertex_kernels::clear_bits<<<grid_for(produced, kBlock, g_.sms), kBlock>>>(qa, produced, inner_bits_.data());
      TG_CUDA_CHECK_LAUNCH();
      in = qb;  // the next push reads qb and writes qa
      in_count = next;
      if constexpr (HasBegin<Op, V>) {
        if (next > 0) {
          vertex_kernels::map_list<V><<<grid_for(next, kBlock, g_.sms), kBlock>>>(qb, next,
                                                                                  vertex_kernels::BeginOf<V, Op>{op});
          TG_CUDA_CHECK_LAUNCH();
        }
      }
    }
  }

  // --host-mem: what stays in host memory, the offsets (of each CSR placed)
  // and the streamers' chunk buffers, within the budget; refused in one line.
  // The rest, but for what the engine leaves others (DeviceGraph::
  // host_cache_leaves: the hybrid's CPU side's page buffers), keeps edges the
  // iterations copy again in host memory (each streamer's share by the bytes
  // it streams), for the batch's later runs too.
  void check_host_mem(bool gather) {
    const bool in_offsets = gather && g_.in.host_offsets != nullptr && g_.in.host_offsets != g_.out.host_offsets;
    const uint64_t offsets = (n_ + 1) * sizeof(eid_t) * (in_offsets ? 2 : 1);
    const uint64_t buffers = (streamer_ ? streamer_->file_buffer_bytes() : 0) +
                             (gather_streamer_ ? gather_streamer_->file_buffer_bytes() : 0);
    stats_.host_buffer_bytes = buffers;
    if (offsets + buffers > g_.host_mem_budget)
      throw usage_error("--host-mem " + std::to_string(g_.host_mem_budget) + " bytes is too small for the stream placement: " +
                        "its offsets (" + std::to_string(offsets) + " bytes) and page buffers (" + std::to_string(buffers) +
                        " bytes: two chunks of up to 64 MiB of ids for each streamed array, no larger than a partition; " +
                        "--gpu-mem sets the partitions' size) need " + std::to_string(offsets + buffers));
    const uint64_t unused = g_.host_mem_budget - offsets - buffers;
    uint64_t to_push = 0, to_pull = 0;  // each streamer's cache
    if (g_.host_edge_cache && unused > g_.host_cache_leaves) {
      const uint64_t rest = unused - g_.host_cache_leaves;
      const uint64_t push = streamer_ ? streamer_->streamed_file_bytes() : 0;
      const uint64_t pull = gather_streamer_ ? gather_streamer_->streamed_file_bytes() : 0;
      if (push + pull > 0) {  // else all resident in GPU memory: read once
        to_push = static_cast<uint64_t>(static_cast<long double>(rest) * push / (push + pull));
        to_pull = rest - to_push;
      }
    }
    // The batch's earlier runs' spans (DeviceGraph::push_kept, gather_kept):
    // each one this run does not take over is released before any is kept,
    // so that the budget holds.
    if (streamer_) streamer_->release_stale_host_cache(to_push);
    else if (g_.push_kept) g_.push_kept->edges.reset();
    if (gather_streamer_) gather_streamer_->release_stale_host_cache(to_pull);
    else if (g_.gather_kept) g_.gather_kept->edges.reset();
    if (streamer_) stats_.host_cache_bytes += streamer_->keep_in_host(to_push);
    if (gather_streamer_) stats_.host_cache_bytes += gather_streamer_->keep_in_host(to_pull);
  }

  void add_traffic(const subgraph::StreamTraffic& t) {
    stats_.copies += t.copies;
    stats_.skipped += t.skipped;
    stats_.resident_hits += t.resident_hits;
  }

  DeviceGraph<V> g_;
  StreamedOptions opt_;
  Frontiers<V>& frontiers_;
  uint64_t n_;
  uint64_t words_;
  bool weights_ = false;
  std::unique_ptr<subgraph::SubcsrBuilder<V>> builder_;             // subgraph
  std::unique_ptr<subgraph::PartitionStreamer<V>> streamer_;        // stream, or subgraph's fallback
  std::unique_ptr<subgraph::PartitionStreamer<V>> gather_streamer_; // in-edges, for gathers
  std::shared_ptr<void> partial_;  // gather: an acc_t per vertex
  bool packed_ = false;            // gathers read packed in-lists
  double packed_fraction_ = 1.0;   // subgraph pushes over packed out-lists: their bytes over the plain ones
  weight_t light_below_ = 0;       // the builder takes the light lists for a band below this (0: none)
  uint64_t zero_copy_below_ = env_count("TG_SUBGRAPH_IN_PLACE_BELOW");  // reads_in_place
  bool light_in_place_ = env_count("TG_LIGHT_IN_PLACE", 1) != 0;       // reads_light_in_place
  bool heads_gather_ = env_count("TG_HEADS_GATHER", 0) != 0;          // gathers_heads
  uint64_t packed_link_ = 0, packed_plain_ = 0;  // the packed pieces so far: lines over the link, plain bytes
  DeviceArray<V> warp_queue_;      // packed gathers: the lists longer than a thread's
  subgraph::ChoiceParams params_;
  subgraph::TransferMeters meters_;
  StreamStats stats_;
  DeviceArray<StepCounters> counters_;
  DeviceArray<double> residual_;
  DeviceArray<unsigned long long> scalar_;
  DeviceArray<V> big_;
  // --async: a unit's own output set, the next inner frontier, the build's active set
  DeviceArray<uint32_t> inner_bits_, active_bits_;
  DeviceArray<V> inner_queue_, next_queue_;
  DeviceArray<StepCounters> inner_counters_;
};

}  // namespace tg::gpu
