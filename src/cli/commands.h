// The subcommands of the tiergraph program. Each add_* registers one
// subcommand with its options and the callback that runs it.
#pragma once

#include <CLI/CLI.hpp>

namespace tg::cli {

void add_run_command(CLI::App& app);
void add_convert_command(CLI::App& app);
void add_generate_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_verify_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_plan_command(CLI::App& app);
void add_calibrate_command(CLI::App& app);

}  // namespace tg::cli
