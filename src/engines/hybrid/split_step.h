// One split step of the hybrid engine (hybrid_engine.h): the accelerator's
// share and the CPU's run at once, each timed, the accelerator's on a thread
// of its own; an error on either side is rethrown once both are done.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <thread>
#include <tuple>

#include "engines/hybrid/page_queue.h"
#include "engines/hybrid/split_model.h"

namespace tg::hybrid {

template <typename F>
double timed_seconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Split {
  uint64_t met = 0;  // the accelerator had pages [0, met), the CPU [met, P)
  double gpu_s = 0, cpu_s = 0;
};

// One split step over the model's pages: on_acc(begin, end), on a thread of
// its own (which calls enter_thread() first), and on_cpu(begin, end), on
// the caller's, each run their side's share of a vertex range. With `fixed`
// (a fixed CPU share, or the model has measured both sides), the
// accelerator takes pages [0, k) and the CPU the rest, in one call each
// (each extra call costs the GPU a launch and, on a streamed placement, a
// pipeline to refill and the partitions across the cut streamed twice: a
// PageRank iteration on kron:25 lost 10% to them on the H100, and the
// H200's first gather over subgraph took 62.6 ms for 90% of the pages
// handed out in shrinking bites, against 34 ms for all of them in one).
// While the CPU's rate is still its starting estimate (the probe), pages
// are handed out as each side frees up (page_queue.h): the accelerator
// takes the k pages the model gives it in one call, then, if the CPU has
// not finished, half of its predicted share of what is left, again and
// again, while the CPU threads take a few pages at a time from the back;
// so a CPU faster than its estimate takes more, and one slower leaves its
// pages to the accelerator.
template <typename EnterThread, typename OnAcc, typename OnCpu>
Split run_split(const SplitModel& model, uint64_t k, bool fixed, EnterThread enter_thread, OnAcc on_acc,
                OnCpu on_cpu) {
  const uint64_t p = model.pages();
  PageQueue queue(p);
  const double acc_share = std::clamp(static_cast<double>(k) / static_cast<double>(std::max<uint64_t>(p, 1)), 0.0, 1.0);
  Split split;
  std::exception_ptr acc_error;
  std::thread acc_side;
  if (k > 0)
    acc_side = std::thread([&] {
      try {
        enter_thread();
        split.gpu_s = timed_seconds([&] {
          uint64_t want = k;
          while (true) {
            const auto [first, last] = queue.take_front(want);
            if (first >= last) break;
            on_acc(model.vertex_at(first), model.vertex_at(last));
            if (fixed) break;
            want = static_cast<uint64_t>(static_cast<double>(queue.left()) * acc_share / 2);
          }
        });
      } catch (...) {
        acc_error = std::current_exception();
      }
    });
  std::exception_ptr cpu_error;
  split.cpu_s = timed_seconds([&] {
    try {
      if (fixed) {
        on_cpu(model.vertex_at(k), model.vertex_at(p));
      } else {
        const uint64_t bite = std::max<uint64_t>(1, p / 64);
        for (auto [b, e] = queue.take_back(bite); b < e; std::tie(b, e) = queue.take_back(bite))
          on_cpu(model.vertex_at(b), model.vertex_at(e));
      }
    } catch (...) {
      cpu_error = std::current_exception();
    }
  });
  if (acc_side.joinable()) acc_side.join();
  if (acc_error) std::rethrow_exception(acc_error);
  if (cpu_error) std::rethrow_exception(cpu_error);
  split.met = fixed ? k : queue.met();
  return split;
}

}  // namespace tg::hybrid
