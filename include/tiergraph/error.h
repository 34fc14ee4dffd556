// tiergraph's one exception, and the macro that marks what libtiergraph.so
// exports (every other symbol of the library is local to it).
#pragma once

#include <stdexcept>
#include <string>

#if defined(_WIN32)
#define TIERGRAPH_API
#else
#define TIERGRAPH_API __attribute__((visibility("default")))
#endif

namespace tiergraph {

// What went wrong, for callers that must tell failures apart without parsing
// messages; the same kinds as the tiergraph program's exit codes (README).
enum class ErrorKind {
  kOther,         // no usable GPU, a CUDA error, anything else
  kUsage,         // a bad option or argument: unknown algorithm or placement, source out of range
  kInput,         // input data that is malformed or unfit: a missing or corrupt file, no weights for sssp
  kVerification,  // a result the verifier refused
  kOutOfMemory,   // the memory a request needs is not there (GPU memory for a feature tier or a sampler)
};

// Every function of the API throws this (or std::bad_alloc); the message is
// one line naming the file, line, option or value at fault.
class TIERGRAPH_API Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, ErrorKind kind = ErrorKind::kOther);
  // Defined in the library, so that the type has one typeinfo, which a
  // catch in the caller's code must match.
  ~Error() override;
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

}  // namespace tiergraph
