// tiergraph: graph analytics on GPUs for graphs larger than GPU memory.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/gpu_ranks_wait_policy.h"
#include "core/error.h"
#include "formats/pending_files.h"
#include "tiergraph/version.h"

namespace {

// The one place where a failure becomes an exit code; README.md and the
// --help footer list the same table.
int exit_code_of(tg::ErrorKind kind) {
  switch (kind) {
    case tg::ErrorKind::kUsage: return 2;
    case tg::ErrorKind::kInput: return 3;
    case tg::ErrorKind::kVerification: return 4;
    case tg::ErrorKind::kOutOfMemory:  // as the footer says: "out of memory" is 1
    case tg::ErrorKind::kOther: return 1;
  }
  return 1;
}

// Several GPUs driven from this process want OpenMP's workers passive
// (cli/gpu_ranks_wait_policy.h); libgomp read the policy when it loaded, so
// the program starts again with it set, once (the new image finds it set).
// Where exec fails, it goes on as it is.
void start_again_for_several_gpus(int argc, char** argv) {
  const std::string policy =
      tg::cli::wait_policy_to_set(std::vector<std::string>(argv, argv + argc), std::getenv("OMP_WAIT_POLICY"));
  if (policy.empty()) return;
  setenv("OMP_WAIT_POLICY", policy.c_str(), 1);
  execv("/proc/self/exe", argv);
}

// An empty argument ("--tolerance ''", "--output=", or an empty file name)
// is never what was meant: CLI11 would read it as 0 or as not given.
void refuse_empty_arguments(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (arg.empty())
      throw tg::usage_error(i > 1 ? std::string("an empty value after ") + argv[i - 1] : "an empty subcommand");
    if (arg.starts_with("--") && eq == arg.size() - 1) throw tg::usage_error("an empty value in " + arg);
  }
}

// A first argument that names no subcommand, where CLI11 says only that
// one is required.
void refuse_unknown_subcommand(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return;
  std::string names;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name() == argv[1]) return;
    names += (names.empty() ? "" : ", ") + sub->get_name();
  }
  throw tg::usage_error(std::string("unknown subcommand '") + argv[1] + "' (one of: " + names + ")");
}

// What the command printed (a --json record, a table) is its result: a
// standard output that cannot take it (a full disk) is a failure.
void flush_standard_output() {
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    throw tg::Error(std::string("standard output: cannot write: ") + std::strerror(errno));
}

}  // namespace

int main(int argc, char** argv) {
  start_again_for_several_gpus(argc, argv);
  tg::formats::remove_pending_files_on_signals();  // Ctrl-C leaves no PATH.tmp behind
  CLI::App app{"tiergraph: graph analytics (BFS, SSSP, CC, PageRank, SSWP, SSNSP, BC) on GPUs and CPUs,\n"
               "for graphs larger than GPU memory. Run 'tiergraph SUBCOMMAND --help' for details."};
  app.require_subcommand(1);
  app.footer("Exit codes: 0 success; 1 any other failure (no usable GPU, CUDA error, out of memory, writing output);\n"
             "2 usage (a bad or missing option or value, or a malformed TG_* environment variable); 3 bad input data\n"
             "(a malformed or unfit graph, results or profile file); 4 verification failed (run --verify, verify, bench).\n"
             "Environment: TG_PROFILE (the planner's machine profile), TG_CPU_TRACE=1 / TG_GPU_TRACE=1 /\n"
             "TG_HYBRID_TRACE=1 (a line a step on stderr); the rest in docs/ENVIRONMENT.md.");
  app.set_version_flag("--version", std::string("tiergraph ") + tg::kVersion);
  tg::cli::add_run_command(app);
  tg::cli::add_convert_command(app);
  tg::cli::add_generate_command(app);
  tg::cli::add_info_command(app);
  tg::cli::add_verify_command(app);
  tg::cli::add_bench_command(app);
  tg::cli::add_plan_command(app);
  tg::cli::add_calibrate_command(app);
  try {
    refuse_empty_arguments(argc, argv);
    refuse_unknown_subcommand(app, argc, argv);
    app.parse(argc, argv);
    flush_standard_output();
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "tiergraph: error: %s (see tiergraph --help)\n", e.what());
    return exit_code_of(tg::ErrorKind::kUsage);
  } catch (const tg::Error& e) {
    std::fprintf(stderr, "tiergraph: error: %s\n", e.what());
    return exit_code_of(e.kind());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "tiergraph: error: out of host memory\n");
    return exit_code_of(tg::ErrorKind::kOther);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tiergraph: error: %s\n", e.what());
    return exit_code_of(tg::ErrorKind::kOther);
  }
  return 0;
}
