#include "cli/bench_placements.h"

namespace tg::cli {

GpuOptions BenchPlacement::gpu_options(GpuOptions base) const {
  base.placement = placement;
  if (gather) base.gather = *gather;
  if (stream_mode) base.stream_mode = *stream_mode;
  if (async) base.async = true;
  return base;
}

namespace {

std::vector<BenchPlacement> build_table() {
  std::vector<BenchPlacement> all;
  all.push_back({.name = "cpu", .engine = EngineKind::kCpu, .help = "the CPU engine (OpenMP), edges in host memory"});
  const std::string async_help = "iterate each loaded piece to local convergence (Subway's asynchronous mode)";
  const NamedChoice<Placement>* automatic = nullptr;
  for (const auto& p : placement_choices()) {
    if (p.value == Placement::kAuto) {
      automatic = &p;  // listed last: it becomes one of the others, per graph
      continue;
    }
    const std::string name(p.name);
    all.push_back({.name = name, .placement = p.value, .help = std::string(p.help)});
    if (p.value == Placement::kSubgraph) {
      for (const auto& g : gather_way_choices())
        all.push_back({.name = name + "-" + std::string(g.name), .placement = p.value, .gather = g.value,
                       .help = name + ", gather fixed: " + std::string(g.help)});
    }
    if (p.value == Placement::kStream) {
      for (const auto& m : stream_mode_choices())
        all.push_back({.name = name + "-" + std::string(m.name), .placement = p.value, .stream_mode = m.value,
                       .help = name + ", " + std::string(m.help)});
    }
    if (is_streamed(p.value))
      all.push_back({.name = name + "-async", .placement = p.value, .async = true, .help = name + ", " + async_help});
  }
  all.push_back({.name = "hybrid", .engine = EngineKind::kHybrid,
                 .help = "the GPU (device when the edges fit the budget, else zero-copy) and the CPU threads together"});
  all.push_back({.name = "hybrid-zerocopy", .engine = EngineKind::kHybrid, .placement = Placement::kZeroCopyAligned,
                 .help = "hybrid, the GPU reading the edges from host memory (zerocopy-aligned)"});
  all.push_back({.name = "hybrid-subgraph", .engine = EngineKind::kHybrid, .placement = Placement::kSubgraph,
                 .help = "hybrid, the GPU streaming its pages' in-edges (resident partitions first)"});
  all.push_back({.name = "hybrid-stream", .engine = EngineKind::kHybrid, .placement = Placement::kStream,
                 .help = "hybrid, the GPU streaming partitions (with --host-mem: from the file, beside a paged CPU side)"});
  if (automatic)
    all.push_back(
        {.name = std::string(automatic->name), .placement = automatic->value, .help = std::string(automatic->help)});
  return all;
}

}  // namespace

const std::vector<BenchPlacement>& bench_placements() {
  static const std::vector<BenchPlacement> all = build_table();
  return all;
}

const BenchPlacement* find_bench_placement(const std::string& name) {
  for (const BenchPlacement& p : bench_placements())
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<std::string> bench_placement_names() {
  std::vector<std::string> names;
  for (const BenchPlacement& p : bench_placements()) names.push_back(p.name);
  return names;
}

std::vector<std::string> default_bench_placements() {
  std::vector<std::string> names;
  for (const BenchPlacement& p : bench_placements())
    if (p.engine == EngineKind::kGpu && p.placement != Placement::kAuto && !p.streamed()) names.push_back(p.name);
  return names;
}

}  // namespace tg::cli
