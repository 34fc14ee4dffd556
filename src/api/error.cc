#include <new>

#include "api/api_errors.h"
#include "core/error.h"

namespace tiergraph {

Error::Error(const std::string& message, ErrorKind kind) : std::runtime_error(message), kind_(kind) {}

Error::~Error() = default;

namespace {

ErrorKind kind_of(tg::ErrorKind kind) {
  switch (kind) {
    case tg::ErrorKind::kUsage: return ErrorKind::kUsage;
    case tg::ErrorKind::kInput: return ErrorKind::kInput;
    case tg::ErrorKind::kVerification: return ErrorKind::kVerification;
    case tg::ErrorKind::kOutOfMemory: return ErrorKind::kOutOfMemory;
    case tg::ErrorKind::kOther: return ErrorKind::kOther;
  }
  return ErrorKind::kOther;
}

}  // namespace

void rethrow_as_api_error() {
  try {
    throw;
  } catch (const Error&) {
    throw;
  } catch (const tg::Error& e) {
    throw Error(e.what(), kind_of(e.kind()));
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(e.what(), ErrorKind::kOther);
  }
}

}  // namespace tiergraph
