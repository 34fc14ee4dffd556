// docs/ENVIRONMENT.md against the code: every TG_* variable that src/ reads
// (getenv, env_count, env_number, env_switch) has its row there, and every
// row names a variable something still reads, so the list cannot drift from
// the code either way.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace tg::test {
namespace {

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::set<std::string> matches(const std::string& text, const std::regex& pattern) {
  std::set<std::string> names;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern); it != std::sregex_iterator(); ++it)
    names.insert((*it)[1].str());
  return names;
}

// The variables the sources read, by name.
std::set<std::string> read_in_sources() {
  const std::regex call(R"((?:getenv|env_count|env_number|env_switch)\(\s*"(TG_[A-Z0-9_]+)\")");
  std::set<std::string> names;
  const std::filesystem::path src = std::filesystem::path(TG_TESTS_DIR) / ".." / "src";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(src)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".h" && ext != ".cc" && ext != ".cpp" && ext != ".cu" && ext != ".cuh") continue;
    for (const std::string& name : matches(read_all(entry.path()), call)) names.insert(name);
  }
  return names;
}

// The variables of the document's tables: rows that start with `TG_...`.
std::set<std::string> documented() {
  const std::string doc = read_all(std::filesystem::path(TG_TESTS_DIR) / ".." / "docs" / "ENVIRONMENT.md");
  return matches(doc, std::regex(R"((?:^|\n)\| `(TG_[A-Z0-9_]+)`)"));
}

TEST(EnvironmentDoc, ListsEveryVariableTheSourcesRead) {
  const std::set<std::string> read = read_in_sources();
  ASSERT_GT(read.size(), 10u) << "the sources' variables were not found: is src/ beside tests/?";
  const std::set<std::string> doc = documented();
  for (const std::string& name : read) EXPECT_TRUE(doc.count(name)) << name << " is read in src/ but not in docs/ENVIRONMENT.md";
}

TEST(EnvironmentDoc, NamesOnlyVariablesStillRead) {
  const std::set<std::string> read = read_in_sources();
  const std::string cmake = read_all(std::filesystem::path(TG_TESTS_DIR) / "CMakeLists.txt");
  for (const std::string& name : documented()) {
    const bool configure_time = cmake.find("ENV{" + name + "}") != std::string::npos;  // TG_DATASETS_DIR
    EXPECT_TRUE(read.count(name) || configure_time) << name << " is in docs/ENVIRONMENT.md but nothing reads it";
  }
}

}  // namespace
}  // namespace tg::test
