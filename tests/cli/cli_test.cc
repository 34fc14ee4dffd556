// End-to-end tests of the tiergraph program, as a user runs it: exit codes,
// one-line errors, summaries, JSON records and result files.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "engines/run.h"
#include "support/datasets.h"
#include "support/run_program.h"

namespace {

using Result = tg::test::ProgramResult;
using tg::test::count_lines;

std::string read_file(const std::string& path) { return tg::test::read_text_file(path); }
Result tiergraph(const std::string& args) { return tg::test::run_tiergraph(args); }
std::string write_temp(const std::string& name, const std::string& text) { return tg::test::write_temp_file(name, text); }

// A failing command prints exactly one line on stderr and exits non-zero.
void expect_one_line_error(const Result& r, const std::string& fragment) {
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << "stderr: " << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// As expect_one_line_error, with the exit code that tells the kind of failure.
void expect_exit(const Result& r, int code, const std::string& fragment) {
  EXPECT_EQ(r.exit_code, code) << "stderr: " << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << "stderr: " << r.err;
}

// --lists-by-weight (graph/weight_order.h): SSSP on a graph loaded with it,
// or on a .tgb converted with it, verifies; without weights, or over a
// mapped file (--host-mem), a one-line usage error.
TEST(Cli, ListsByWeight) {
  const Result loaded = tiergraph("run sssp --graph kron:8 --weights 1:255 --lists-by-weight --engine cpu --verify -q");
  EXPECT_EQ(loaded.exit_code, 0) << loaded.err;
  expect_exit(tiergraph("run sssp --graph kron:8 --lists-by-weight -q"), 2, "--lists-by-weight needs edge weights");
  const std::string file = tg::test::temp_path("kron8_by_weight.tgb");
  const Result converted = tiergraph("generate kron:8 " + file + " --weights 1:255 --lists-by-weight -q");
  ASSERT_EQ(converted.exit_code, 0) << converted.err;
  const Result run = tiergraph("run sssp --graph " + file + " --engine cpu --verify -q");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  expect_exit(tiergraph("run sssp --graph " + file + " --lists-by-weight --engine cpu --host-mem 1M -q"), 2,
              "cannot reorder a mapped file");
}

// A weighted graph that --simplify leaves without edges (only self loops)
// holds no weights: --lists-by-weight has no lists to order and runs as
// without it, and it converts to an edgeless .wsg. Both were refused as
// unweighted although the file or --weights gave weights.
TEST(Cli, AWeightedGraphSimplifiedToNoEdgesRunsAndConverts) {
  const std::string loop = tg::test::write_temp_file("one_loop.el", "0 0\n");
  const Result r =
      tiergraph("run sswp --graph " + loop + " --simplify --weights 1:9 --lists-by-weight --source 0 --verify -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string weighted_loop = tg::test::write_temp_file("one_loop.wel", "0 0 5\n");
  const std::string wsg = tg::test::temp_path("one_loop.wsg");
  const Result converted = tiergraph("convert " + weighted_loop + " " + wsg + " --simplify -q");
  ASSERT_EQ(converted.exit_code, 0) << converted.err;
  const Result run = tiergraph("run sssp --graph " + wsg + " --verify -q");
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

// PageRank stopped by --max-iters before its tolerance says so, in the
// summary (with the float contributions' hint) and as "converged" in the JSON.
TEST(Cli, PageRankSaysWhenItDidNotConverge) {
  const Result cut = tiergraph("run pagerank --graph kron:8 --engine cpu --tolerance 1e-10 --max-iters 3 "
                               "--pr-contributions float -q");
  ASSERT_EQ(cut.exit_code, 0) << cut.err;
  EXPECT_NE(cut.out.find("not converged: stopped after 3 iterations (--max-iters)"), std::string::npos) << cut.out;
  EXPECT_NE(cut.out.find("--pr-contributions double"), std::string::npos) << cut.out;
  const Result json = tiergraph("run pagerank --graph kron:8 --engine cpu --tolerance 1e-10 --max-iters 3 --json -q");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out)["details"]["converged"], false);
  const Result met = tiergraph("run pagerank --graph kron:8 --engine cpu --json -q");
  ASSERT_EQ(met.exit_code, 0) << met.err;
  EXPECT_EQ(nlohmann::json::parse(met.out)["details"]["converged"], true);
  EXPECT_EQ(tiergraph("run pagerank --graph kron:8 --engine cpu -q").out.find("not converged"), std::string::npos);
}

// --vertex-order degree (engines/vertex_order.h): run writes the same result
// file as the run on the graph's own ids, in its 1-based ids too (a DIMACS
// file), and reports the renumbering's time; bench's rows name the same
// sources; convert stores the order's graph and writes the old ids;
// what cannot renumber is refused in one line.
// GAP's .sg / .wsg written by generate and convert run to the same results as
// the .tgb (ids from 0), renumbered too; what GAP cannot hold is refused.
TEST(Cli, WritesGapFiles) {
  const std::string tgb = tg::test::temp_path("cli_gap.tgb"), sg = tg::test::temp_path("cli_gap.sg"),
                    wsg = tg::test::temp_path("cli_gap.wsg"), hubs = tg::test::temp_path("cli_gap_hubs.wsg");
  ASSERT_EQ(tiergraph("generate kron:9 " + tgb + " --weights 1:255 -q").exit_code, 0);
  const Result w = tiergraph("generate kron:9 " + wsg + " --weights 1:255 -q");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_NE(w.out.find("4-byte ids"), std::string::npos) << w.out;
  ASSERT_EQ(tiergraph("convert " + tgb + " " + sg + " -q").exit_code, 0);
  for (const char* algo : {"sssp", "bfs", "cc"}) {
    const std::string a = ::testing::TempDir() + "/cli_gap_a.txt", b = ::testing::TempDir() + "/cli_gap_b.txt";
    const std::string file = std::string(algo) == "sssp" ? wsg : sg;
    ASSERT_EQ(tiergraph(std::string("run ") + algo + " --graph " + tgb + " --engine cpu -o " + a).exit_code, 0);
    const Result r = tiergraph(std::string("run ") + algo + " --graph " + file + " --engine cpu --verify -o " + b);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(b), read_file(a)) << algo;
  }
  const Result renumbered = tiergraph("convert " + tgb + " " + hubs + " --vertex-order degree -q");
  ASSERT_EQ(renumbered.exit_code, 0) << renumbered.err;
  EXPECT_EQ(tiergraph("run sssp --graph " + hubs + " --source 0 --engine cpu --verify -q").exit_code, 0);
  const std::string plain = tg::test::temp_path("cli_gap_plain.tgb");
  ASSERT_EQ(tiergraph("generate kron:6 " + plain + " -q").exit_code, 0);
  expect_exit(tiergraph("convert " + plain + " " + tg::test::temp_path("cli_gap_x.wsg")), 2, "the graph has none");
  expect_exit(tiergraph("generate kron:6 " + tg::test::temp_path("cli_gap_x.el")), 2, "FILE.sg");
  expect_exit(tiergraph("generate kron:6 " + tg::test::temp_path("cli_gap_x.unknown")), 2, "FILE.sg");  // no reader's name either
  const std::string frac = write_temp("cli_gap_frac.wel", "0 1 1.5\n1 2 2\n");
  expect_exit(tiergraph("convert " + frac + " " + tg::test::temp_path("cli_gap_frac.wsg")), 2, "integer weights");
}

TEST(Cli, VertexOrderKeepsTheFilesIds) {
  const std::string g = write_temp("cli_order.gr", "p sp 5 5\na 1 2 5\na 2 3 7\na 3 4 1\na 5 3 2\na 5 1 4\n");
  for (const char* algo : {"sssp --source 5", "cc", "bfs --source 5", "pagerank"}) {
    const std::string plain = ::testing::TempDir() + "/cli_order_plain.txt";
    const std::string renumbered = ::testing::TempDir() + "/cli_order_renumbered.txt";
    ASSERT_EQ(tiergraph(std::string("run ") + algo + " --graph " + g + " --engine cpu -o " + plain).exit_code, 0);
    const Result r = tiergraph(std::string("run ") + algo + " --graph " + g + " --engine cpu --verify --json " +
                               "--vertex-order degree -o " + renumbered);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(nlohmann::json::parse(r.out)["time_s"].contains("renumber")) << r.out;
    EXPECT_EQ(read_file(renumbered), read_file(plain)) << algo;
  }
  const std::string bench = ::testing::TempDir() + "/cli_order_bench";
  const Result b = tiergraph("bench kron:10 -a sssp -p cpu -n 3 --no-chart --vertex-order degree -o " + bench);
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const Result b0 = tiergraph("bench kron:10 -a sssp -p cpu -n 3 --no-chart -o " + bench + "0");
  ASSERT_EQ(b0.exit_code, 0) << b0.err;
  auto sources = [](const std::string& err) {  // "bench: kron:10 sssp cpu from S: ..."
    std::string out;
    for (size_t at = err.find(" from "); at != std::string::npos; at = err.find(" from ", at + 1))
      out += err.substr(at, err.find(':', at) - at);
    return out;
  };
  EXPECT_FALSE(sources(b.err).empty()) << b.err;
  EXPECT_EQ(sources(b.err), sources(b0.err));
  EXPECT_NE(b.err.find("renumbered (degree)"), std::string::npos) << b.err;

  const std::string file = tg::test::temp_path("cli_order.tgb"), old_ids = tg::test::temp_path("cli_order.ids");
  const Result c = tiergraph("convert " + g + " " + file + " --vertex-order degree --order-out " + old_ids + " -q");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(read_file(old_ids), "5\n1\n2\n3\n4\n");  // vertex 5 (two out-edges) first, the rest one each

  expect_exit(tiergraph("run bfs --graph " + g + " --vertex-order shuffled"), 2, "--vertex-order");
  expect_exit(tiergraph("run bfs --graph " + file + " --engine cpu --host-mem 1K --vertex-order degree"), 2,
              "--host-mem reads the file's lists in place");
  expect_exit(tiergraph("run bfs --graph " + g + " --vertex-order degree --checkpoint " + ::testing::TempDir()), 2,
              "checkpoints of renumbered runs");
  expect_exit(tiergraph("convert " + g + " " + file + " --order-out " + old_ids), 2, "--order-out needs --vertex-order");
  const Result stored = tiergraph("run sssp --graph " + file + " --source 0 --engine cpu --verify -q");  // new id 0: vertex 5
  EXPECT_EQ(stored.exit_code, 0) << stored.err;
}

TEST(Cli, HelpExitsZero) {
  Result r = tiergraph("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("run"), std::string::npos);
  const Result run = tiergraph("run --help");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.out.find("--edge-cache"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("--source-blocks"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("--packed-lists"), std::string::npos) << run.out;
  EXPECT_NE(r.out.find("Exit codes"), std::string::npos) << r.out;
}

TEST(Cli, NoSubcommandIsAnError) { EXPECT_NE(tiergraph("").exit_code, 0); }

TEST(Cli, BadFlagsGiveOneLineErrors) {
  expect_one_line_error(tiergraph("run bfs --graph kron:8 --bogus"), "bogus");
  expect_one_line_error(tiergraph("run dijkstra --graph kron:8"), "dijkstra");
  expect_one_line_error(tiergraph("run bfs"), "--graph");
  expect_one_line_error(tiergraph("run bfs --graph kron:8 --engine tpu"), "tpu");
  expect_one_line_error(tiergraph("run bfs --graph kron:8 --placement floppy"), "floppy");
  expect_one_line_error(tiergraph("run bfs --graph kron:8 --edge-cache on"), "--edge-cache");
  expect_one_line_error(tiergraph("run bfs --graph kron:8 --threads 0"), "threads");
  // A choice is a name: the enum's number was taken too ("--placement 7" ran
  // stream) until session 55; the message lists the names.
  expect_exit(tiergraph("run bfs --graph kron:8 --placement 7"), 2,
              "--placement: '7' is not one of auto, device, uvm, zerocopy-naive, zerocopy-merged, zerocopy-aligned, "
              "subgraph, stream");
  expect_exit(tiergraph("run bfs --graph kron:8 --engine 1"), 2, "--engine: '1' is not one of cpu, gpu, hybrid, auto");
  expect_exit(tiergraph("bench kron:8 -a bfs -p cpu --verify 0"), 2, "--verify: '0' is not one of all, first, none");
}

TEST(Cli, BadGraphsGiveOneLineErrors) {
  expect_one_line_error(tiergraph("run bfs --graph /nonexistent/graph.el"), "/nonexistent/graph.el");
  expect_one_line_error(tiergraph("run bfs --graph graph.unknownext"), "graph.unknownext");
  expect_one_line_error(tiergraph("run bfs --graph kron:abc"), "kron:abc");
  std::string bad = write_temp("cli_bad.el", "0 1\n1 x\n");
  expect_one_line_error(tiergraph("run bfs --graph " + bad), "cli_bad.el:2");
}

TEST(Cli, AGraphLargerThanMemoryIsRefusedUpFront) {
  // One stray id makes |V| = 2^44: 140 TB of offsets. A clear error, not an OOM kill.
  std::string g = write_temp("cli_huge_id.el", "0 1\n0 17592186044415\n");
  expect_one_line_error(tiergraph("run bfs --graph " + g), "RAM");
}

TEST(Cli, SourceOutOfRangeIsAnError) {
  std::string g = write_temp("cli_small.el", "0 1\n1 2\n");
  expect_one_line_error(tiergraph("run bfs --graph " + g + " --source 3"), "--source 3");
  expect_one_line_error(tiergraph("run bfs --graph " + g + " --source -1"), "--source");
  expect_one_line_error(tiergraph("run bfs --graph " + g + " --source abc"), "--source");
}

TEST(Cli, WeightedAlgorithmsNeedWeights) {
  std::string g = write_temp("cli_unweighted.el", "0 1\n1 2\n");
  expect_one_line_error(tiergraph("run sssp --graph " + g), "--weights");
  std::string neg = write_temp("cli_negative.wel", "0 1 -3\n1 2 1\n");
  expect_one_line_error(tiergraph("run sssp --graph " + neg), "non-negative");
}

TEST(Cli, GpuWhereThereIsNoneIsAnErrorButAutoFallsBack) {
  std::string why;
  if (tg::gpu_available(&why)) GTEST_SKIP() << "a GPU is present";
  expect_one_line_error(tiergraph("run bfs --graph kron:8 --engine gpu"), "GPU");
  expect_one_line_error(tiergraph("run bfs --graph kron:8 --placement device"), "GPU");
  Result r = tiergraph("run bfs --graph kron:8 --engine auto --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["engine"], "cpu");
  EXPECT_NE(j["engine_note"].get<std::string>().find("GPU"), std::string::npos);
}

// --push-only: a BFS of top-down steps only, verified; without it the same
// run pulls (kron is undirected here: every level may pull).
TEST(Cli, PushOnlyBfsTakesNoBottomUpStep) {
  Result r = tiergraph("run bfs --graph kron:12 -u --engine cpu --push-only --verify --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pull_steps"], 0) << r.out;
  EXPECT_GT(j["push_steps"].get<int>(), 0) << r.out;
  Result d = tiergraph("run bfs --graph kron:12 -u --engine cpu --json");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_GT(nlohmann::json::parse(d.out)["pull_steps"].get<int>(), 0) << d.out;
}

TEST(Cli, RunWritesResultsWithTheFilesOwnIds) {
  // DIMACS is 1-based: results must be too.
  std::string g = write_temp("cli_path.gr", "p sp 4 3\na 1 2 5\na 2 3 7\na 3 4 1\n");
  std::string out = ::testing::TempDir() + "/cli_path_sssp.txt";
  Result r = tiergraph("run sssp --graph " + g + " --source 1 --output " + out + " --verify");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(out), "1 0\n2 5\n3 12\n4 13\n");
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;

  std::string bfs_out = ::testing::TempDir() + "/cli_path_bfs.txt";
  ASSERT_EQ(tiergraph("run bfs --graph " + g + " --source 2 --output " + bfs_out).exit_code, 0);
  EXPECT_EQ(read_file(bfs_out), "1 -1\n2 0\n3 1\n4 2\n");
}

TEST(Cli, OutputToADirectoryOrMissingFolderIsAnError) {
  std::string g = write_temp("cli_out.el", "0 1\n");
  std::string dir = ::testing::TempDir() + "/cli_out_dir";
  std::filesystem::create_directories(dir);
  expect_one_line_error(tiergraph("run bfs --graph " + g + " --output " + dir), "is a directory");
  EXPECT_FALSE(std::filesystem::exists(dir + ".tmp"));
  expect_one_line_error(tiergraph("run bfs --graph " + g + " --output /nonexistent/folder/out.txt"), "/nonexistent/folder/out.txt");
}

TEST(Cli, ResultFormatsOfEveryAlgorithm) {
  std::string g = write_temp("cli_tri.wel", "0 1 2\n1 2 3\n0 2 9\n3 3 1\n");
  auto run = [&](const std::string& algo, const std::string& extra = "") {
    std::string out = ::testing::TempDir() + "/cli_tri_" + algo + ".txt";
    Result r = tiergraph("run " + algo + " --graph " + g + " --output " + out + " --verify " + extra);
    EXPECT_EQ(r.exit_code, 0) << algo << ": " << r.err;
    return read_file(out);
  };
  EXPECT_EQ(run("sssp"), "0 0\n1 2\n2 5\n3 inf\n");
  EXPECT_EQ(run("sswp"), "0 inf\n1 2\n2 9\n3 0\n");
  EXPECT_EQ(run("ssnsp"), "0 1\n1 1\n2 1\n3 0\n");
  EXPECT_EQ(run("cc"), "0 0\n1 0\n2 0\n3 3\n");
  std::string pr = run("pagerank");
  EXPECT_EQ(count_lines(pr), 4);
}

TEST(Cli, JsonRecordHasTheFieldsAUserNeeds) {
  Result r = tiergraph("run bfs --graph kron:10 --engine cpu --threads 2 --json --verify");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"algorithm", "graph", "engine", "placement", "time_s", "iterations", "edges_traversed", "gteps",
                          "bytes_moved", "io_amplification", "verification", "source"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["algorithm"], "bfs");
  EXPECT_EQ(j["graph"]["vertices"], 1024);
  EXPECT_FALSE(j["graph"]["directed"].get<bool>());
  EXPECT_TRUE(j["verification"]["ok"].get<bool>());
  EXPECT_GT(j["iterations"].get<int>(), 0);
  EXPECT_TRUE(j["time_s"].contains("load"));
  EXPECT_TRUE(j["time_s"].contains("compute"));
}

TEST(Cli, ConvertRoundTripGivesTheSameResults) {
  TG_NEED_DATASET("wiki-Vote.el.gz");
  std::string tgb = ::testing::TempDir() + "/cli_wiki.tgb";
  std::string wiki = tg::test::dataset("wiki-Vote.el.gz");
  Result c = tiergraph("convert " + wiki + " " + tgb);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  std::string a = ::testing::TempDir() + "/cli_wiki_a.txt", b = ::testing::TempDir() + "/cli_wiki_b.txt";
  ASSERT_EQ(tiergraph("run pagerank --graph " + wiki + " --output " + a).exit_code, 0);
  ASSERT_EQ(tiergraph("run pagerank --graph " + tgb + " --output " + b).exit_code, 0);
  EXPECT_EQ(read_file(a), read_file(b));
  expect_one_line_error(tiergraph("convert " + wiki + " /tmp/out.el"), ".tgb");
}

TEST(Cli, VerifyCommandAcceptsGoodAndRejectsBadResults) {
  std::string g = write_temp("cli_verify.el", "0 1\n1 2\n2 0\n3 4\n");
  std::string good = write_temp("cli_verify_good.txt", "0 0\n1 1\n2 2\n3 -1\n4 -1\n");
  std::string bad = write_temp("cli_verify_bad.txt", "0 0\n1 1\n2 1\n3 -1\n4 -1\n");
  Result ok = tiergraph("verify bfs --graph " + g + " --results " + good + " --source 0");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  Result fail = tiergraph("verify bfs --graph " + g + " --results " + bad + " --source 0");
  EXPECT_NE(fail.exit_code, 0);
  std::string truncated = write_temp("cli_verify_short.txt", "0 0\n1 1\n");
  expect_one_line_error(tiergraph("verify bfs --graph " + g + " --results " + truncated), "cli_verify_short.txt");
  // A depth is an integer: 2.5 was read as 2 (and passed), 1e30 past int32's range as its smallest value.
  for (const char* depth : {"2.5", "1e30", "3000000000", "nan", "two"}) {
    std::string odd = write_temp("cli_verify_odd.txt", std::string("0 0\n1 1\n2 ") + depth + "\n3 -1\n4 -1\n");
    expect_exit(tiergraph("verify bfs --graph " + g + " --results " + odd + " --source 0"), 3,
                std::string("cli_verify_odd.txt:3: expected an integer from -2147483648 to 2147483647, found '") + depth + "'");
  }
}

TEST(Cli, InfoDescribesTheGraph) {
  TG_NEED_DATASET("karate.mtx");
  Result r = tiergraph("info " + tg::test::dataset("karate.mtx") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["vertices"], 34);
  EXPECT_EQ(j["edges"], 156);  // 78 symmetric entries, stored both ways
  EXPECT_FALSE(j["directed"].get<bool>());
}

// --ids64 (64-bit vertex ids where 32 bits suffice) through every
// subcommand that builds a graph: generate and convert write 8-byte ids, info
// reports them, run computes and verifies over them, as bench does.
TEST(Cli, Ids64ThroughEverySubcommand) {
  const std::string generated = tg::test::temp_path("ids64_generated.tgb");
  const std::string converted = tg::test::temp_path("ids64_converted.tgb");
  const std::string edges = write_temp("ids64.el", "0 1\n1 2\n2 0\n2 3\n5 4\n");
  for (const std::string& command :
       {"generate kron:10 " + generated + " --ids64 -q", "convert " + edges + " " + converted + " --ids64 -q"}) {
    const Result r = tiergraph(command);
    ASSERT_EQ(r.exit_code, 0) << command << ": " << r.err;
  }
  for (const std::string& file : {generated, converted}) {
    const Result info = tiergraph("info " + file + " --json");
    ASSERT_EQ(info.exit_code, 0) << info.err;
    EXPECT_EQ(nlohmann::json::parse(info.out)["vertex_id_bytes"], 8) << file;
    for (const std::string algorithm : {"bfs", "cc", "pagerank"}) {
      const Result run = tiergraph("run " + algorithm + " --graph " + file + " -e cpu --verify --json");
      ASSERT_EQ(run.exit_code, 0) << run.err;
      const auto j = nlohmann::json::parse(run.out);
      EXPECT_EQ(j["graph"]["vertex_id_bytes"], 8) << algorithm;
      EXPECT_TRUE(j["verification"]["ok"].get<bool>()) << run.out;
    }
  }
  // From a generator or a text file, --ids64 widens what is built.
  for (const std::string& graph : {std::string("kron:10"), edges}) {
    const Result run = tiergraph("run bfs --graph " + graph + " --ids64 -e cpu --verify --json");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(nlohmann::json::parse(run.out)["graph"]["vertex_id_bytes"], 8) << graph;
  }
  const std::string out = tg::test::temp_path("ids64_bench");
  const Result bench = tiergraph("bench kron:10 -a bfs,sssp -p cpu -n 2 --ids64 --no-chart -q -o " + out);
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  for (const auto& run : nlohmann::json::parse(read_file(out + ".json"))["runs"]) EXPECT_EQ(run["verified"], "ok");
}

TEST(Cli, GpuMemNeedsASize) {
  expect_one_line_error(tiergraph("run bfs --graph kron:8 --engine gpu --gpu-mem lots"), "--gpu-mem");
}

// ---- exit codes: 0 success, 1 other, 2 usage, 3 bad input data, 4 verification failed ----

// More GPUs than there are (none in CI, one on the H100 machine): one line, no fallback to the CPU.
TEST(Cli, SeveralGpusWhereThereAreFewerIsAnError) {
  std::string g = write_temp("cli_gpus.el", "0 1\n1 2\n");
  const Result r = tiergraph("run bfs --graph " + g + " --gpus 64");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--gpus 64"), std::string::npos) << r.err;
}

TEST(CliExitCodes, UsageIs2) {
  std::string g = write_temp("cli_exit_small.el", "0 1\n1 2\n");
  std::string w = write_temp("cli_exit_small.wel", "0 1 1\n1 2 2\n");
  expect_exit(tiergraph("run bfs --graph " + g + " --bogus"), 2, "bogus");
  expect_exit(tiergraph("run bfs"), 2, "--graph");
  expect_exit(tiergraph("run bfs --graph " + g + " --placement nowhere"), 2, "nowhere");
  expect_exit(tiergraph("run bfs --graph " + g + " --edge-cache sometimes"), 2, "sometimes");
  expect_exit(tiergraph("run pagerank --graph " + g + " --packed-lists on"), 2, "--packed-lists");
  expect_exit(tiergraph("bench " + g + " -a pagerank --packed-lists tight"), 2, "--packed-lists");
  expect_exit(tiergraph("run pagerank --graph " + g + " --source-blocks 33"), 2, "--source-blocks");
  expect_exit(tiergraph("bench " + g + " -a pagerank --source-blocks -1"), 2, "--source-blocks");
  expect_exit(tiergraph("run pagerank --graph " + g + " --source-blocks many"), 2, "--source-blocks");
  expect_exit(tiergraph("run bfs --graph " + g + " --engine cpu --placement device"), 2, "--placement device");
  expect_exit(tiergraph("run bfs --graph " + g + " --source 3"), 2, "--source 3");
  expect_exit(tiergraph("run bfs --graph " + g + " --source abc"), 2, "--source");
  expect_exit(tiergraph("run bfs --graph " + g + " --gpu-mem 0"), 2, "--gpu-mem");
  expect_exit(tiergraph("run bfs --graph " + g + " --gpu-mem lots"), 2, "--gpu-mem");
  expect_exit(tiergraph("run bfs --graph " + g + " --engine cpu --gpus 2"), 2, "--gpus needs --engine gpu");
  expect_exit(tiergraph("run bfs --graph " + g + " --gpus 0"), 2, "--gpus");
  // What several GPUs cannot do is a usage error, GPU or none.
  expect_exit(tiergraph("run bfs --graph " + g + " --gpus 2 --placement subgraph"), 2, "--placement subgraph");
  expect_exit(tiergraph("run sswp --graph " + g + " --weights 1:9 --gpus 2"), 2, "sswp does not run on several GPUs");
  expect_exit(tiergraph("run bfs --graph " + g + " --delegate-threshold 4"), 2, "--gpus");
  expect_exit(tiergraph("bench " + g + " -a bfs --delegate-threshold 4"), 2, "--gpus");
  expect_exit(tiergraph("plan bfs --graph " + g + " --delegate-threshold 4"), 2, "--gpus");
  expect_exit(tiergraph("run bfs --graph " + g + " --engine cpu --distributed"), 2, "--distributed needs --engine gpu");
  const std::string bench_out = " --no-chart -o " + ::testing::TempDir() + "/cli_exit_bench_distributed";
  expect_exit(tiergraph("bench " + g + " -a bfs -p cpu --distributed" + bench_out), 2, "placement cpu is not a GPU placement");
  expect_exit(tiergraph("bench " + g + " -a bfs -p device --distributed --gpus 2" + bench_out), 2, "--distributed");
  expect_exit(tiergraph("bench " + g + " -a bfs -p device --distributed --device 1" + bench_out), 2, "drop --device");
  expect_exit(tiergraph("run bfs --graph kron:abc"), 2, "kron:abc");
  expect_exit(tiergraph("run bfs --graph kron:8 --weights 9"), 2, "--weights");
  expect_exit(tiergraph("run sssp --graph " + w + " --delta -1"), 2, "--delta");
  expect_exit(tiergraph("run pagerank --graph " + g + " --damping 2"), 2, "--damping");
  expect_exit(tiergraph("convert " + g + " " + ::testing::TempDir() + "/cli_exit.el"), 2, ".tgb");
  expect_exit(tiergraph("bench " + g + " -a bfs -p nowhere -o " + ::testing::TempDir() + "/cli_exit_bench"), 2, "nowhere");
  expect_exit(tiergraph("verify bfs --graph " + g + " --results " + g + " --source 7"), 2, "--source 7");
}

TEST(CliExitCodes, BadInputDataIs3) {
  expect_exit(tiergraph("run bfs --graph /nonexistent/graph.el"), 3, "/nonexistent/graph.el");
  std::string bad = write_temp("cli_exit_bad.el", "0 1\n1 x\n");
  expect_exit(tiergraph("info " + bad), 3, "cli_exit_bad.el:2:");
  std::string nan = write_temp("cli_exit_nan.wel", "0 1 2\n1 2 nan\n");
  expect_exit(tiergraph("run sssp --graph " + nan), 3, "cli_exit_nan.wel:2:");
  std::string gr = write_temp("cli_exit_range.gr", "p sp 3 1\na 1 4 2\n");
  expect_exit(tiergraph("run sssp --graph " + gr), 3, "cli_exit_range.gr:2:");
  std::string unweighted = write_temp("cli_exit_unweighted.el", "0 1\n");
  expect_exit(tiergraph("run sswp --graph " + unweighted), 3, "no edge weights");
  std::string negative = write_temp("cli_exit_negative.wel", "0 1 -3\n");
  expect_exit(tiergraph("run sssp --graph " + negative), 3, "non-negative");
  std::string magic = write_temp("cli_exit_magic.tgb", "not a graph at all, just some text\n");
  expect_exit(tiergraph("info " + magic), 3, "bad magic");
  // A real .tgb cut short.
  std::string tgb = ::testing::TempDir() + "/cli_exit_cut.tgb";
  ASSERT_EQ(tiergraph("generate kron:6 " + tgb).exit_code, 0);
  std::filesystem::resize_file(tgb, std::filesystem::file_size(tgb) - 100);
  expect_exit(tiergraph("run bfs --graph " + tgb), 3, "truncated");
  std::string results = write_temp("cli_exit_results.txt", "0 0\n1 one\n");
  std::string g = write_temp("cli_exit_pair.el", "0 1\n");
  expect_exit(tiergraph("verify bfs --graph " + g + " --results " + results), 3, "cli_exit_results.txt:2:");
}

TEST(CliExitCodes, VerificationFailedIs4) {
  std::string g = write_temp("cli_exit_verify.el", "0 1\n1 2\n");
  std::string wrong = write_temp("cli_exit_wrong.txt", "0 0\n1 1\n2 1\n");
  Result r = tiergraph("verify bfs --graph " + g + " --results " + wrong + " --source 0");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.out.find("FAIL"), std::string::npos) << r.out;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("verification failed"), std::string::npos) << r.err;
}

TEST(CliExitCodes, OtherFailuresAre1) {
  std::string g = write_temp("cli_exit_other.el", "0 1\n");
  std::string dir = ::testing::TempDir() + "/cli_exit_dir";
  std::filesystem::create_directories(dir);
  expect_exit(tiergraph("run bfs --graph " + g + " --output " + dir), 1, "is a directory");
  expect_exit(tiergraph("run bfs --graph " + g + " --output /nonexistent/folder/out.txt"), 1, "cannot write");
  std::string huge = write_temp("cli_exit_huge.el", "0 1\n0 17592186044415\n");
  expect_exit(tiergraph("run bfs --graph " + huge), 1, "RAM");
  std::string why;
  if (tg::gpu_available(&why)) return;  // the GPU case below needs a machine without one
  expect_exit(tiergraph("run bfs --graph " + g + " --engine gpu"), 1, "GPU");
}

TEST(CliExitCodes, SuccessIs0WithInfWeights) {
  // 0 -inf-> 1 is never taken; 1 is reached over 2 at distance 5; 3 only over an inf edge.
  std::string g = write_temp("cli_exit_inf.wel", "0 1 inf\n0 2 2\n2 1 3\n1 3 +Infinity\n");
  std::string out = ::testing::TempDir() + "/cli_exit_inf_sssp.txt";
  Result r = tiergraph("run sssp --graph " + g + " --source 0 --verify --output " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(out), "0 0\n1 5\n2 2\n3 inf\n");
  std::string wide = ::testing::TempDir() + "/cli_exit_inf_sswp.txt";
  r = tiergraph("run sswp --graph " + g + " --source 0 --verify --output " + wide);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(wide), "0 inf\n1 inf\n2 2\n3 inf\n");
  Result v = tiergraph("verify sssp --graph " + g + " --results " + out + " --source 0");
  EXPECT_EQ(v.exit_code, 0) << v.err;
}

TEST(CliVerifyJson, PassAndFailRecords) {
  std::string g = write_temp("cli_vjson.gr", "p sp 3 2\na 1 2 4\na 2 3 inf\n");
  std::string good = write_temp("cli_vjson_good.txt", "1 0\n2 4\n3 inf\n");
  Result ok = tiergraph("verify sssp --graph " + g + " --results " + good + " --source 1 --json");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  auto j = nlohmann::json::parse(ok.out);
  EXPECT_TRUE(j["ok"].get<bool>());
  EXPECT_EQ(j["tool"], "tiergraph");
  EXPECT_EQ(j["algorithm"], "sssp");
  EXPECT_EQ(j["source"], 1);  // the file's numbering
  EXPECT_EQ(j["graph"]["vertices"], 3);
  EXPECT_EQ(j["graph"]["edges"], 2);
  EXPECT_EQ(j["results"], good);
  for (const char* key : {"version", "message", "time_s"}) EXPECT_TRUE(j.contains(key)) << key;

  // 3 at distance 9 could only be explained by the inf edge.
  std::string wrong = write_temp("cli_vjson_wrong.txt", "1 0\n2 4\n3 9\n");
  Result fail = tiergraph("verify sssp --graph " + g + " --results " + wrong + " --source 1 --json");
  EXPECT_EQ(fail.exit_code, 4) << fail.err;
  auto f = nlohmann::json::parse(fail.out);
  EXPECT_FALSE(f["ok"].get<bool>());
  EXPECT_NE(f["message"].get<std::string>().find("vertex 3"), std::string::npos) << f["message"];
  EXPECT_EQ(count_lines(fail.err), 1) << fail.err;

  Result cc = tiergraph("verify cc --graph " + g + " --results " + write_temp("cli_vjson_cc.txt", "1 1\n2 1\n3 1\n") + " --json");
  ASSERT_EQ(cc.exit_code, 0) << cc.err;
  EXPECT_TRUE(nlohmann::json::parse(cc.out)["source"].is_null());
}

// plan --gpus: the partition and where each rank's part would go, no GPU needed.
TEST(CliPlan, SeveralGpus) {
  const Result r = tiergraph("plan pagerank --graph kron:12 --gpus 3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("degree separation over 3 ranks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  gpu"), std::string::npos) << r.out;
  const Result tight = tiergraph("plan sssp --graph kron:12 --weights 1:9 --gpus 2 --gpu-mem 400K --json");
  EXPECT_EQ(tight.exit_code, 0) << tight.err;
  EXPECT_NE(tight.out.find("\"part\":\"host (zero-copy)\""), std::string::npos) << tight.out;
  const Result none = tiergraph("plan sssp --graph kron:12 --weights 1:9 --gpus 2 --gpu-mem 10K");
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("does not fit"), std::string::npos) << none.out;
  expect_exit(tiergraph("plan sswp --graph kron:8 --weights 1:9 --gpus 2"), 2, "sswp does not run on several GPUs");
  expect_exit(tiergraph("plan bfs --graph kron:8 --delegate-threshold 3"), 2, "--gpus");
}

}  // namespace
