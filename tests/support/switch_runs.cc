#include "support/switch_runs.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run_program.h"
#include "support/scoped_env.h"

namespace tg::test {

const std::string& switch_graph() {
  static const std::string path = [] {
    const std::string p = temp_path("switches_kron12.tgb");
    const ProgramResult g = run_tiergraph("generate kron:12 " + p + " --weights 1:255 -q");
    EXPECT_EQ(g.exit_code, 0) << g.err;
    return p;
  }();
  return path;
}

namespace {

uint64_t switch_graph_edges() {
  static const uint64_t edges = [] {
    const ProgramResult info = run_tiergraph("info " + switch_graph() + " --json");
    EXPECT_EQ(info.exit_code, 0) << info.err;
    return info.exit_code == 0 ? nlohmann::json::parse(info.out)["edges"].get<uint64_t>() : 0;
  }();
  return edges;
}

}  // namespace

void expect_run_with_switch(const SwitchCase& c) {
  std::string args = c.run;
  // A quarter of the id array's bytes, as the planner records take it: the streamed placements stream.
  if (const size_t at = args.find("QUARTER"); at != std::string::npos)
    args.replace(at, 7, "--gpu-mem " + std::to_string(switch_graph_edges()));
  const std::string algorithm = args.substr(0, args.find(' '));
  args = algorithm + " --graph " + switch_graph() + args.substr(algorithm.size()) + " --threads 2 --verify -q";
  SCOPED_TRACE(std::string(c.name) + "=" + c.value + " tiergraph run " + args);
  const ScopedEnv set(c.name, c.value);
  const ProgramResult r = run_tiergraph("run " + args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
  if (!c.printed.empty()) EXPECT_NE(r.err.find(c.printed), std::string::npos) << r.err.substr(0, 2000);
}

}  // namespace tg::test
