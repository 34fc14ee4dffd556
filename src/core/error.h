// The one exception type of tiergraph. Its message is a single line that names
// the file, line or field at fault; the CLI prints it and exits non-zero.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tg {

// What went wrong, for the caller that must tell failures apart without
// parsing messages: the CLI turns it into its exit code (src/cli/main.cc).
enum class ErrorKind {
  kOther,         // no GPU, CUDA, out of memory, writing output, internal
  kUsage,         // a bad or missing option or option value
  kInput,         // input data that is malformed or unfit: graph files, result files
  kVerification,  // a result the verifier refused
  kOutOfMemory,   // memory a request needs is not there (GPU memory for a tier, a sampler): the numbers named
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, ErrorKind kind = ErrorKind::kOther)
      : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

inline Error usage_error(const std::string& message) { return Error(message, ErrorKind::kUsage); }

// "FILE:LINE: MESSAGE", the form compilers use, so editors can jump to it.
inline Error input_error(const std::string& file, uint64_t line, const std::string& message) {
  return Error(file + ":" + std::to_string(line) + ": " + message, ErrorKind::kInput);
}

inline Error input_error(const std::string& file, const std::string& message) {
  return Error(file + ": " + message, ErrorKind::kInput);
}

// Unfit input found past the reader, where no one file is at fault (a graph
// without the weights an algorithm needs, say).
inline Error input_error(const std::string& message) { return Error(message, ErrorKind::kInput); }

inline Error out_of_memory_error(const std::string& message) { return Error(message, ErrorKind::kOutOfMemory); }

inline Error verification_error(const std::string& message) { return Error(message, ErrorKind::kVerification); }

}  // namespace tg
