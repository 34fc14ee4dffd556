#include "support/run_program.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/datasets.h"

namespace tg::test {

std::string read_text_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ProgramResult run_tiergraph(const std::string& args) {
  static int counter = 0;
  std::string base = ::testing::TempDir() + "/tg_cli_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
  std::string cmd = tiergraph_binary() + " " + args + " >" + base + ".out 2>" + base + ".err </dev/null";
  int status = std::system(cmd.c_str());
  ProgramResult r{WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), read_text_file(base + ".out"),
                  read_text_file(base + ".err")};
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

// A folder per process: ctest runs each test in its own process, in parallel,
// and two tests writing one name would read each other's halves. Removed at
// exit, by the process that made it only (a death test's child exits too,
// while its parent still reads the folder). The name is never destroyed, so
// the exit handler can still read it after the statics are gone.
std::string temp_path(const std::string& name) {
  static const pid_t owner = ::getpid();
  static const std::string* folder = [] {
    auto* path = new std::string(::testing::TempDir() + "/tg_test_" + std::to_string(owner));
    std::filesystem::create_directories(*path);
    std::atexit([] {
      if (::getpid() != owner) return;
      std::error_code ignored;
      std::filesystem::remove_all(*folder, ignored);
    });
    return path;
  }();
  return *folder + "/" + name;
}

std::string write_temp_file(const std::string& name, const std::string& text) {
  std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

int count_lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

}  // namespace tg::test
