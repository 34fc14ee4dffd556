// Which engine runs a request: the CPU, the GPU, or "auto" (the GPU when one
// is usable, else the CPU with a note saying why). The program's run and bench
// subcommands and the library API (src/api) choose the same way, with the same
// messages, which name the command-line options because most readers meet
// them there.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engines/placement.h"
#include "engines/run.h"

namespace tg {

enum class EngineChoice { kAuto, kCpu, kGpu, kHybrid };

const std::vector<NamedChoice<EngineChoice>>& engine_choices();
std::string_view name_of(EngineChoice e);
std::optional<EngineChoice> parse_engine_choice(std::string_view name);

struct ChosenEngine {
  bool gpu = false;
  std::string note;     // why, when auto fell back to the CPU
  bool hybrid = false;  // the GPU and the CPU threads together (gpu is true too)
};

// Checks that `gpu` asks nothing of a CPU run (a placement, a budget, async);
// gpu where none is usable is an error, auto falls back to the CPU.
ChosenEngine choose_engine(EngineChoice engine, const GpuOptions& gpu);
RunOutput run_on_engine(const AnyGraph& graph, const RunRequest& request, const ChosenEngine& choice,
                        const GpuOptions& gpu, const HybridOptions& hybrid = {});

}  // namespace tg
