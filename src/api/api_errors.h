// Internal errors become tiergraph::Error at the API's edge: every public
// function wraps its body as
//   try { ... } catch (...) { rethrow_as_api_error(); }
#pragma once

#include <memory>
#include <string>

#include "tiergraph/error.h"

namespace tiergraph {

// Rethrows the exception being handled: a tg::Error as a tiergraph::Error of
// the same kind and message, std::bad_alloc as it is, any other
// std::exception as a tiergraph::Error of kind kOther.
[[noreturn]] void rethrow_as_api_error();

// A moved-from NeighborSampler or FeatureStore holds no Impl: every use of
// one is a usage error, where it dereferenced null.
template <typename Impl>
Impl& live(const std::unique_ptr<Impl>& impl, const char* what) {
  if (!impl) throw Error(std::string(what) + ": this object was moved from (it holds nothing)", ErrorKind::kUsage);
  return *impl;
}

}  // namespace tiergraph
