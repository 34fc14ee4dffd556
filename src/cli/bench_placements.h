// The placements `tiergraph bench` can run side by side: the CPU engine, every
// GPU placement of engines/placement.h, and the variants that fix one of its
// settings (subgraph-cpu, stream-pt, stream-async, ...). One table, built from
// placement.h's name tables, serves the CLI11 check, --help and the run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engines/run.h"

namespace tg::cli {

struct BenchPlacement {
  std::string name;  // on the command line, in the rows and the charts
  EngineKind engine = EngineKind::kGpu;
  // What the variant sets in the GPU options (GPU engine only); what it leaves
  // unset comes from the command line.
  Placement placement = Placement::kAuto;
  std::optional<GatherWay> gather;
  std::optional<StreamMode> stream_mode;
  bool async = false;
  std::string help;

  GpuOptions gpu_options(GpuOptions base) const;
  // subgraph and stream (the GPU engine's, or the hybrid's GPU side): each
  // algorithm gets its own placement of the graph.
  bool streamed() const { return engine != EngineKind::kCpu && is_streamed(placement); }
  // Reads its edges from a .tgb file under --host-mem: the CPU engine, or one
  // GPU's stream placement (the GPU engine's, or the hybrid's accelerator).
  bool reads_file() const { return engine == EngineKind::kCpu || (placement == Placement::kStream && !async); }
};

const std::vector<BenchPlacement>& bench_placements();
// nullptr for a name not in the table.
const BenchPlacement* find_bench_placement(const std::string& name);
std::vector<std::string> bench_placement_names();
// The default matrix: the GPU placements that keep the edges where they
// start (device, uvm, the zero-copy ones), as EMOGI compared them.
std::vector<std::string> default_bench_placements();

}  // namespace tg::cli
