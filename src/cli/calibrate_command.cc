// tiergraph calibrate [-o PROFILE] [--quick]: measures the machine's rates
// for the planner (planner/calibrate.h) and writes them as a profile.
#include <cstdio>
#include <memory>

#include "cli/commands.h"
#include "cli/output_path.h"
#include "engines/run.h"
#include "planner/calibrate.h"

namespace tg::cli {

namespace {

struct CalibrateCommandOptions {
  std::string output;
  int device = 0;
  bool quick = false;
  bool json = false;
};

void calibrate(const CalibrateCommandOptions& o) {
  // Checked before the measurements, which a bad path would otherwise throw away. The default
  // folder (~/.config/tiergraph) is made when missing; a folder named by -o must exist.
  if (!o.output.empty()) check_output_path(o.output, "-o", "the profile's file name");
  planner::MachineProfile profile = planner::builtin_profile();
  planner::CalibrateOptions options;
  options.device = o.device;
  options.quick = o.quick;
  options.progress = [](const std::string& line) { std::fprintf(stderr, "calibrate: %s\n", line.c_str()); };
  planner::calibrate_cpu(profile, options);
  std::string reason;
  if (gpu_available(&reason)) {
    planner::calibrate_gpu(profile, options);
    profile.source = "measured by tiergraph calibrate";
  } else {
    std::fprintf(stderr, "calibrate: no usable GPU (%s): the GPU rates stay the built-in ones\n", reason.c_str());
    profile.gpu.clear();
    profile.source = "calibrate without a GPU: CPU measured, GPU rates built-in";
  }
  const std::string path = o.output.empty() ? planner::default_profile_path() : o.output;
  planner::write_profile(profile, path);
  if (o.json) std::printf("%s\n", planner::to_json(profile).dump().c_str());
  else std::printf("wrote %s\n", path.c_str());
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
  auto o = std::make_shared<CalibrateCommandOptions>();
  CLI::App* cmd = app.add_subcommand("calibrate",
                                     "Measure this machine's link, zero-copy, GPU-memory, forest-link (CC) and "
                                     "CPU-gather rates into a profile for the planner");
  cmd->add_option("-o,--output", o->output, "Profile to write (default: ~/.config/tiergraph/profile.json)");
  cmd->add_option("--device", o->device, "GPU: device index")->capture_default_str()->check(CLI::Range(0, 1024));
  cmd->add_flag("--quick", o->quick, "256 MiB buffers instead of 1 GiB, no 4 GiB footprint (a few seconds)");
  cmd->add_flag("--json", o->json, "Print the profile as JSON");
  cmd->callback([o]() { calibrate(*o); });
}

}  // namespace tg::cli
