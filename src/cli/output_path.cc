#include "cli/output_path.h"

#include <filesystem>

#include "core/error.h"

namespace tg::cli {

void check_output_path(const std::string& path, const std::string& option, const std::string& what) {
  const std::filesystem::path p(path);
  if (p.filename().empty() || std::filesystem::is_directory(p))
    throw usage_error(option + " " + path + ": a folder; give " + what);
  const std::filesystem::path folder = p.has_parent_path() ? p.parent_path() : ".";
  if (!std::filesystem::is_directory(folder))
    throw usage_error(option + " " + path + ": no folder " + folder.string() + " to write into");
}

}  // namespace tg::cli
