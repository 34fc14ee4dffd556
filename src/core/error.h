// The one exception type of tiergraph. Its message is a single line that names
// the file, line or field at fault; the CLI prints it and exits non-zero.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tg {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// "FILE:LINE: MESSAGE", the form compilers use, so editors can jump to it.
inline Error input_error(const std::string& file, uint64_t line, const std::string& message) {
  return Error(file + ":" + std::to_string(line) + ": " + message);
}

inline Error input_error(const std::string& file, const std::string& message) {
  return Error(file + ": " + message);
}

}  // namespace tg
