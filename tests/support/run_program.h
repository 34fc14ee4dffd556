// Running the tiergraph program as a user does, for the end-to-end tests of
// tests/cli: exit code, stdout and stderr.
#pragma once

#include <string>

namespace tg::test {

struct ProgramResult {
  int exit_code;
  std::string out;  // stdout
  std::string err;  // stderr
};

// `args` are passed through the shell; stdin is /dev/null.
ProgramResult run_tiergraph(const std::string& args);

std::string read_text_file(const std::string& path);
// A path for `name` in this process's own temporary folder (TempDir()/tg_test_PID),
// which is removed with everything in it when the process exits.
std::string temp_path(const std::string& name);
// Writes `text` to temp_path(name); returns that path.
std::string write_temp_file(const std::string& name, const std::string& text);
int count_lines(const std::string& text);

}  // namespace tg::test
