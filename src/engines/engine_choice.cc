#include "engines/engine_choice.h"

#include "core/error.h"

namespace tg {

const std::vector<NamedChoice<EngineChoice>>& engine_choices() {
  static const std::vector<NamedChoice<EngineChoice>> all = {
      {EngineChoice::kCpu, "cpu", "OpenMP threads over the graph in host memory"},
      {EngineChoice::kGpu, "gpu", "the GPU engine; an error where no GPU is usable"},
      {EngineChoice::kHybrid, "hybrid",
       "the GPU and the CPU threads together: gathers split in pages between them (docs/HYBRID.md)"},
      {EngineChoice::kAuto, "auto", "the GPU when one is usable, else the CPU"}};
  return all;
}

std::string_view name_of(EngineChoice e) { return choice_name(engine_choices(), e); }

std::optional<EngineChoice> parse_engine_choice(std::string_view name) {
  return choice_value(engine_choices(), name);
}

ChosenEngine choose_engine(EngineChoice engine, const GpuOptions& gpu) {
  ChosenEngine choice;
  if (engine == EngineChoice::kCpu) {
    if (gpu.placement != Placement::kAuto)
      throw usage_error("--placement " + std::string(name_of(gpu.placement)) + " needs --engine gpu");
    if (gpu.memory_budget != 0) throw usage_error("--gpu-mem needs --engine gpu");
    if (gpu.async) throw usage_error("--async needs --engine gpu and --placement subgraph or stream");
    if (gpu.gpus != 0) throw usage_error("--gpus needs --engine gpu (or auto)");
    if (gpu.device != 0) throw usage_error("--device " + std::to_string(gpu.device) + " needs --engine gpu (or auto)");
    return choice;
  }
  std::string reason;
  bool usable = gpu_available(&reason);
  if (engine == EngineChoice::kGpu && !usable) throw Error("--engine gpu: no usable GPU: " + reason);
  if (engine == EngineChoice::kHybrid) {
    if (!usable) throw Error("--engine hybrid: no usable GPU: " + reason);
    if (gpu.gpus != 0) throw usage_error("--engine hybrid runs on one GPU; --gpus needs --engine gpu");
    if (gpu.async) throw usage_error("--async needs --engine gpu and --placement subgraph or stream");
    choice.gpu = choice.hybrid = true;
    return choice;
  }
  if (!usable) {
    if (gpu.gpus != 0) throw Error("--gpus " + std::to_string(gpu.gpus) + ": no usable GPU: " + reason);
    if (gpu.placement != Placement::kAuto)
      throw Error("--placement " + std::string(name_of(gpu.placement)) + ": no usable GPU: " + reason);
    choice.note = "no usable GPU (" + reason + "), ran on the CPU";
    return choice;
  }
  choice.gpu = true;
  return choice;
}

}  // namespace tg
