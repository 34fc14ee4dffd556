// Parsing sizes given on the command line: "4G", "512MiB", "1.5GB", "1000000".
#pragma once

#include <cstdint>
#include <string>

namespace tg::cli {

// Powers of 1024 for K/M/G/T with or without "iB"/"B"; plain numbers are bytes.
// Throws a usage error (tg::ErrorKind::kUsage) naming `option` when the text
// is not a size.
uint64_t parse_size(const std::string& text, const std::string& option);

}  // namespace tg::cli
