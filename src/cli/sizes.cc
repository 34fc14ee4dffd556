#include "cli/sizes.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "core/error.h"

namespace tg::cli {

uint64_t parse_size(const std::string& text, const std::string& option) {
  const Error bad = usage_error(option + ": '" + text + "' is not a size (examples: 4G, 512M, 1.5GiB, 1000000)");
  if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.')) throw bad;
  char* end = nullptr;
  double number = std::strtod(text.c_str(), &end);
  std::string unit(end);
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  double scale = 1;
  if (unit.empty() || unit == "B") scale = 1;
  else if (unit == "K" || unit == "KB" || unit == "KIB") scale = 1024.0;
  else if (unit == "M" || unit == "MB" || unit == "MIB") scale = 1024.0 * 1024;
  else if (unit == "G" || unit == "GB" || unit == "GIB") scale = 1024.0 * 1024 * 1024;
  else if (unit == "T" || unit == "TB" || unit == "TIB") scale = 1024.0 * 1024 * 1024 * 1024;
  else throw bad;
  const double bytes = std::round(number * scale);
  if (!std::isfinite(bytes) || bytes >= 18446744073709551616.0)  // 2^64; llround overflowed past 2^63
    throw usage_error(option + ": '" + text + "' is too large (at most 16 EiB)");
  return static_cast<uint64_t>(bytes);
}

}  // namespace tg::cli
