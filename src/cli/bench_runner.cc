#include "cli/bench_runner.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <set>

#include "algorithms/describe.h"
#include "algorithms/verifier.h"
#include "cli/distributed_run.h"
#include "cli/host_mem_option.h"
#include "cli/report.h"
#include "core/error.h"
#include "engines/paged/host_mem.h"
#include "generators/generators.h"
#include "planner/calibrate.h"
#include "planner/planner.h"

namespace tg::cli {

const std::vector<NamedChoice<VerifyMode>>& verify_mode_choices() {
  static const std::vector<NamedChoice<VerifyMode>> all = {
      {VerifyMode::kAll, "all", "every run"},
      {VerifyMode::kFirst, "first", "the first run of each algorithm on each placement"},
      {VerifyMode::kNone, "none", "no run"},
  };
  return all;
}

std::string BenchRow::verified() const {
  if (!verification) return "-";
  return verification->ok ? "ok" : "FAIL: " + verification->message;
}

namespace {

// Internal ids of sources given in the file's numbering.
Sources fixed_sources(const AnyGraph& graph, const std::string& spec, const std::vector<uint64_t>& ids) {
  const uint64_t base = describe::file_id(graph, 0), n = num_vertices(graph);
  Sources out;
  for (uint64_t id : ids) {
    if (n == 0 || id < base || id - base >= n)
      throw usage_error("--sources " + std::to_string(id) + " is out of range: vertex ids of " + spec + " are " +
                        (n == 0 ? std::string("none") : std::to_string(base) + ".." + std::to_string(base + n - 1)));
    out.push_back(id - base);
  }
  return out;
}

BenchRow row_of(const std::string& spec, const BenchPlacement* placement, const RunRequest& r, const AnyGraph& graph) {
  BenchRow row;
  row.graph = spec;
  row.algorithm = r.algorithm;
  row.placement = placement;
  if (r.algorithm->needs_source()) row.source = describe::file_id(graph, r.source());
  return row;
}

BenchRow failed_row(const std::string& spec, const BenchPlacement* placement, const RunRequest& r,
                    const AnyGraph& graph, const std::string& error) {
  BenchRow row = row_of(spec, placement, r, graph);
  row.error = error;
  return row;
}

BenchRow measured_row(const std::string& spec, const BenchPlacement* placement, const RunRequest& r,
                      const AnyGraph& graph, const RunOutput& out) {
  BenchRow row = row_of(spec, placement, r, graph);
  row.gpu_placement = out.placement;
  const RunStats& s = out.stats;
  row.compute_s = s.phase("compute");
  row.transfer_s = s.phase("transfer");
  row.copy_back_s = s.phase("copy back");
  row.iterations = s.iterations;
  row.edges_traversed = s.edges_traversed;
  row.bytes_moved = s.bytes_moved;
  row.bytes_needed = s.bytes_needed;
  row.details = details_json(s);
  // Graph500's rule where reach is known; edges read otherwise.
  uint64_t edges = row.edges_traversed;
  if (r.algorithm->needs_source() && r.algorithm->traits.unreached_marks_reach) {
    row.input_edges = traversed_input_edges(graph, *r.algorithm, out.values);
    edges = row.input_edges;
  }
  row.gteps = row.compute_s > 0 ? edges / row.compute_s / 1e9 : 0;
  return row;
}

// What each placement runs: each algorithm's requests one after the other,
// the first `warmup` of them marked as warm-ups (run and logged, but no row).
struct BenchRuns {
  std::vector<RunRequest> requests;
  std::vector<bool> warmup;  // beside requests
};

// One run per source (bc too: each source is a run, as for bfs); one run for
// the algorithms without a source. A request the graph cannot serve (no
// weights) is one row for the algorithm, on no placement.
BenchRuns runs_for(const BenchPlan& plan, const std::string& spec, const AnyGraph& graph, const Sources& sources,
                   std::vector<BenchRow>& rows, std::FILE* log) {
  BenchRuns out;
  for (const AlgorithmInfo* a : plan.algorithms) {
    std::vector<Sources> runs;
    if (a->needs_source())
      for (uint64_t s : sources) runs.push_back({s});
    else
      runs.push_back({});
    std::optional<RunRequest> first;  // prepared once: the other sources take its options
    for (const Sources& run : runs) {
      try {
        const RunRequest asked = make_request(*a, run, plan.algorithm_options);
        const RunRequest r = first ? prepare_request_like(graph, asked, *first) : prepare_request(graph, asked);
        const int warmups = first ? 0 : plan.warmup;  // the first source's, before its trials
        if (!first) first = r;
        for (int t = 0; t < warmups + plan.trials; ++t) {
          out.requests.push_back(r);
          out.warmup.push_back(t < warmups);
        }
      } catch (const Error& e) {
        // Options no run can take (--tolerance nan): the command's error, before any cell ran.
        if (e.kind() == ErrorKind::kUsage) throw;
        BenchRow row;
        row.graph = spec;
        row.algorithm = a;
        row.error = e.what();
        rows.push_back(row);
        std::fprintf(log, "bench: %s %s: %s\n", spec.c_str(), a->name().c_str(), e.what());
        break;
      }
    }
  }
  return out;
}

// The requests one algorithm at a time (its consecutive runs), each group
// through run_group(first, group, done): group is runs.requests from index
// first on, and run_group counts in `done` the runs it has consumed. A refusal
// (an Error: a budget under what this algorithm needs) fails that group's
// timed runs not yet done, and the other algorithms go on.
template <typename RunGroup>
void by_algorithm(const std::string& spec, const AnyGraph& graph, const BenchPlacement& placement,
                  const BenchRuns& runs, std::vector<BenchRow>& rows, std::FILE* log, RunGroup run_group) {
  const std::vector<RunRequest>& requests = runs.requests;
  for (size_t i = 0; i < requests.size();) {
    size_t j = i;
    while (j < requests.size() && requests[j].algorithm == requests[i].algorithm) ++j;
    const std::vector<RunRequest> group(requests.begin() + i, requests.begin() + j);
    size_t done = 0;
    try {
      run_group(i, group, done);
    } catch (const Error& e) {
      for (size_t k = done; k < group.size(); ++k)
        if (!runs.warmup[i + k]) rows.push_back(failed_row(spec, &placement, group[k], graph, e.what()));
      std::fprintf(log, "bench: %s %s on %s: %s\n", spec.c_str(), group[0].algorithm->name().c_str(),
                   placement.name.c_str(), e.what());
    }
    i = j;
  }
}

// The runs of one placement, in the order of runs.requests; each output goes
// to consume(index, output) as soon as it is there and is dropped after (a
// bench of many sources and trials holds one result at a time: on the CPU a
// result kept per trial is fresh memory to fault in every trial, 1-2 ms of a
// 25 ms BFS on urand:20). Requests refused become rows.
template <typename Consume>
void run_on_placement(const BenchPlan& plan, const std::string& spec, const AnyGraph& graph,
                      const BenchPlacement& placement, const BenchRuns& runs, std::vector<BenchRow>& rows,
                      std::FILE* log, Consume consume) {
  const std::vector<RunRequest>& requests = runs.requests;
  if (placement.engine == EngineKind::kCpu) {
    // --host-mem: a budget one algorithm's arrays pass (weights beside the
    // edges) refused that algorithm only; it wiped the others' finished rows.
    // An algorithm's runs are one paged batch: its resident edges are read
    // from the file once, as an in-memory graph is loaded once.
    auto run_group = [&](size_t first, const std::vector<RunRequest>& group, size_t& done) {
      auto take = [&](size_t, RunOutput&& out) {
        consume(first + done, out);
        ++done;
      };
      if (plan.host_mem) paged::run_batch_on_cpu_with_host_mem(graph, group, spec, *plan.host_mem, take);
      else
        for (const RunRequest& r : group) take(0, run_on_cpu(graph, r));
    };
    by_algorithm(spec, graph, placement, runs, rows, log, run_group);
    return;
  }
  std::string reason;
  if (!gpu_available(&reason)) throw Error("no usable GPU: " + reason);
  GpuOptions options = placement.gpu_options(plan.gpu);
  if (plan.host_mem) {  // the stream placement's partitions from the file (bench_command checked the placements)
    options.edge_file = spec;
    options.host_mem_budget = *plan.host_mem;
  }
  if (plan.distributed) {
    run_distributed_batch(graph, requests, options, [&](size_t i, RunOutput&& out) { consume(i, out); });
    return;
  }
  const bool hybrid = placement.engine == EngineKind::kHybrid;
  const bool planned = !hybrid && placement.placement == Placement::kAuto;
  auto run_batch = [&](const std::vector<RunRequest>& batch, const GpuOptions& o, const OutputSink& sink) {
    if (hybrid) run_batch_on_hybrid(graph, batch, o, HybridOptions{}, sink);
    else run_batch_on_gpu(graph, batch, o, sink);
  };
  if (!placement.streamed() && !planned) {
    run_batch(requests, options, [&](size_t i, RunOutput&& out) { consume(i, out); });
    return;
  }
  // subgraph / stream, the GPU engine's or the hybrid's GPU side: one
  // algorithm at a time (its sources share the placement), so that a refusal
  // (a budget under the minimum for weighted edges, say) is that algorithm's
  // rows alone, and what the placement keeps in GPU memory is that
  // algorithm's (CC's heads cache, which a batch keeps only where every run
  // pushes heads: algorithms/algorithm.h, batch_reads). auto: the planner
  // chooses per algorithm (planner/planner.h), and each row records its plan.
  const planner::MachineProfile profile = planned ? planner::find_profile(options.profile) : planner::MachineProfile{};
  const planner::GpuIdentity gpu = planned ? planner::gpu_identity(options.device) : planner::GpuIdentity{};
  bool noted_profile = false;  // once a graph
  auto run_group = [&](size_t first, const std::vector<RunRequest>& group, size_t& done) {
    auto plan = std::make_shared<planner::Plan>();
    run_batch(group, planned ? planner::with_planner(graph, group[0], options, profile, gpu, plan) : options,
              [&](size_t k, RunOutput&& out) {
                if (planned && !plan->profile_note.empty() && log && !noted_profile) {
                  std::fprintf(log, "bench: note: %s\n", plan->profile_note.c_str());
                  noted_profile = true;
                }
                if (planned && !plan->candidates.empty()) out.stats.plan = planner::to_json(*plan);
                consume(first + k, out);
                done = k + 1;
              });
  };
  by_algorithm(spec, graph, placement, runs, rows, log, run_group);
}

}  // namespace

BenchResult run_bench(const BenchPlan& plan, std::FILE* log, const BenchProgress& progress) {
  const bool any_weights = std::any_of(plan.algorithms.begin(), plan.algorithms.end(),
                                       [](const AlgorithmInfo* a) { return a->needs_weights(); });
  const bool any_in = std::any_of(plan.algorithms.begin(), plan.algorithms.end(), [&](const AlgorithmInfo* a) {
    return a->reads(plan.algorithm_options).in_edges >= Need::kIfPresent;
  });

  BenchResult result;
  for (const std::string& spec : plan.graphs) {
    // --host-mem: in-edges only as the file stores them.
    bool load_in = any_in;
    if (plan.host_mem) {
      load_in = false;
      for (const AlgorithmInfo* a : plan.algorithms)
        load_in = host_mem_in_edges(spec, *a, a->reads(plan.algorithm_options).in_edges) || load_in;
    }
    LoadOptions lo = plan.graph.load_options(load_in);
    // The paged engine reads the edges from the file itself; a --distributed
    // rank maps a .tgb as `run` does (run_command.cc says why).
    lo.map_tgb = plan.host_mem.has_value() || plan.distributed;
    // Generated graphs get the papers' random weights when an algorithm needs weights.
    if (any_weights && plan.graph.weights.empty() && is_generator_spec(spec))
      lo.build.random_weights = WeightRange{8, 72};
    auto t0 = std::chrono::steady_clock::now();
    AnyGraph graph = load_graph(spec, lo);
    double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // Checked before anything is printed, so that a bad --sources is the one line of a usage error.
    const Sources sources = plan.sources.fixed.empty() ? pick_sources(graph, plan.sources.random, plan.sources.seed)
                                                       : fixed_sources(graph, spec, plan.sources.fixed);
    std::fprintf(log, "bench: %s: %llu vertices, %llu edges, loaded in %.2f s\n", spec.c_str(),
                 static_cast<unsigned long long>(num_vertices(graph)),
                 static_cast<unsigned long long>(num_edges(graph)), load_s);
    const BenchRuns runs = runs_for(plan, spec, graph, sources, result.rows, log);
    // --vertex-order: every placement runs the renumbered copy; rows and
    // verifiers see the outputs back in the graph's ids (engines/vertex_order.h).
    std::optional<Renumbering> renumbered;
    BenchRuns renumbered_runs;
    if (plan.vertex_order != VertexOrder::kAsLoaded) {
      renumbered = renumber(graph, plan.vertex_order);
      for (const RunRequest& r : runs.requests) renumbered_runs.requests.push_back(to_new_ids(r, *renumbered));
      renumbered_runs.warmup = runs.warmup;
      std::fprintf(log, "bench: %s: renumbered (%s) in %.2f s\n", spec.c_str(),
                   std::string(choice_name(vertex_order_choices(), plan.vertex_order)).c_str(), renumbered->seconds);
    }

    for (const BenchPlacement* placement : plan.placements) {
      std::set<const AlgorithmInfo*> checked;
      auto consume = [&](size_t i, RunOutput& out) {
        if (runs.warmup[i]) {
          std::fprintf(log, "bench: %s %s %s: warm-up, %.3f ms\n", spec.c_str(),
                       runs.requests[i].algorithm->name().c_str(), placement->name.c_str(),
                       out.stats.phase("compute") * 1e3);
          return;
        }
        const RunRequest& r = runs.requests[i];
        if (renumbered) to_old_ids(out, *r.algorithm, *renumbered);
        BenchRow row = measured_row(spec, placement, r, graph, out);
        if (result.gpu.empty() && out.stats.gpu) result.gpu = out.stats.gpu->gpu;
        const bool first = checked.insert(r.algorithm).second;
        if (plan.verify == VerifyMode::kAll || (plan.verify == VerifyMode::kFirst && first))
          row.verification = verify(*r.algorithm, graph, r.sources, out.values, r.options);
        // Parts in host memory: the links' rate here too, so that a bench cut
        // short before its JSON still says it (run_stats.h's host_read).
        std::string link;
        if (const auto& d = out.stats.distributed; d && d->host_read_gb_per_s() > 0) {
          char rate[96];
          std::snprintf(rate, sizeof rate, ", host reads >= %.1f GB/s", d->host_read_gb_per_s());
          link = rate;
        }
        std::fprintf(log, "bench: %s %s %s%s: %.3f ms, %.2f GTEPS%s, %s\n", spec.c_str(), row.algorithm->name().c_str(),
                     placement->name.c_str(), row.source ? (" from " + std::to_string(*row.source)).c_str() : "",
                     row.compute_s * 1e3, row.gteps, link.c_str(), row.verified().c_str());
        result.rows.push_back(std::move(row));
      };
      const size_t rows_before = result.rows.size();
      try {
        run_on_placement(plan, spec, renumbered ? renumbered->graph : graph, *placement,
                         renumbered ? renumbered_runs : runs, result.rows, log, consume);
        // Rows of requests refused there name their sources in the renumbered ids.
        for (size_t i = rows_before; renumbered && i < result.rows.size(); ++i)
          if (BenchRow& row = result.rows[i]; row.failed() && row.source)
            row.source = describe::file_id(graph, renumbered->old_of[*row.source - describe::file_id(graph, 0)]);
      } catch (const Error& e) {
        // Nothing ran (no usable GPU, a graph the placement cannot hold): a
        // failed row per request, in place of any rows of this placement.
        result.rows.resize(rows_before);
        std::fprintf(log, "bench: %s on %s: %s\n", spec.c_str(), placement->name.c_str(), e.what());
        for (size_t i = 0; i < runs.requests.size(); ++i)
          if (!runs.warmup[i]) result.rows.push_back(failed_row(spec, placement, runs.requests[i], graph, e.what()));
      }
      if (progress) progress(result);
    }
  }
  return result;
}

}  // namespace tg::cli
