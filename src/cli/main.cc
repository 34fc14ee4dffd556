// tiergraph: graph analytics on GPUs for graphs larger than GPU memory.
#include <cstdio>
#include <exception>
#include <new>

#include "cli/commands.h"
#include "core/error.h"
#include "tiergraph/version.h"

int main(int argc, char** argv) {
  CLI::App app{"tiergraph: graph analytics (BFS, SSSP, CC, PageRank, SSWP, SSNSP, BC) on GPUs and CPUs,\n"
               "for graphs larger than GPU memory. Run 'tiergraph SUBCOMMAND --help' for details."};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("tiergraph ") + tg::kVersion);
  tg::cli::add_run_command(app);
  tg::cli::add_convert_command(app);
  tg::cli::add_generate_command(app);
  tg::cli::add_info_command(app);
  tg::cli::add_verify_command(app);
  tg::cli::add_bench_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "tiergraph: error: %s (see tiergraph --help)\n", e.what());
    return 2;
  } catch (const tg::Error& e) {
    std::fprintf(stderr, "tiergraph: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "tiergraph: error: out of host memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tiergraph: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
