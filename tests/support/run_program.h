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
// Writes `text` to a file of that name in the test's temporary folder; returns its path.
std::string write_temp_file(const std::string& name, const std::string& text);
int count_lines(const std::string& text);

}  // namespace tg::test
