#include "cli/bench_chart.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <system_error>

namespace tg::cli {

namespace {

namespace fs = std::filesystem;

const char* const kScript = "scripts/bench-chart.py";

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The script of the checkout the program was built in or copied into: the
// program lives a few folders below the root (build/src/tiergraph,
// .data/bin/tiergraph).
std::optional<fs::path> find_script() {
  std::error_code ec;
  fs::path dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  if (ec) return std::nullopt;
  for (int up = 0; up < 4 && !dir.empty(); ++up, dir = dir.parent_path()) {
    fs::path script = dir / kScript;
    if (fs::is_regular_file(script, ec)) return script;
    if (dir == dir.parent_path()) break;
  }
  return std::nullopt;
}

// Debian's python3 first: the one python3-matplotlib installs into; a python3
// on the PATH (a virtual environment, pyenv) may lack it.
std::optional<std::string> find_python() {
  for (const char* python : {"/usr/bin/python3", "python3"}) {
    std::string probe = shell_quote(python) + " -c 'import matplotlib' >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return python;
  }
  return std::nullopt;
}

}  // namespace

std::string draw_bench_charts(const std::string& json_path, const std::string& prefix) {
  const std::string by_hand = " (draw them with " + std::string(kScript) + " " + json_path + ")";
  std::optional<fs::path> script = find_script();
  if (!script) return "no charts: " + std::string(kScript) + " is not beside the program" + by_hand;
  std::optional<std::string> python = find_python();
  if (!python) return "no charts: no python3 with matplotlib (Debian: python3-matplotlib)" + by_hand;
  std::string command = shell_quote(*python) + " " + shell_quote(script->string()) + " " + shell_quote(json_path) +
                        " -o " + shell_quote(prefix) + " 2>&1";
  std::FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "no charts: cannot start " + *python + by_hand;
  std::string output;
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe)) output += buf;
  int status = pclose(pipe);
  // The script's last line says what it wrote, or why it failed.
  while (!output.empty() && output.back() == '\n') output.pop_back();
  const std::string last = output.substr(output.rfind('\n') + 1);  // npos + 1 is 0: the whole of one line
  if (status != 0) return "no charts: " + (last.empty() ? *python + " " + script->string() + " failed" : last);
  return "charts: " + prefix + ".png, " + prefix + ".svg";
}

}  // namespace tg::cli
