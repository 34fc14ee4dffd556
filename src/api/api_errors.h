// Internal errors become tiergraph::Error at the API's edge: every public
// function wraps its body as
//   try { ... } catch (...) { rethrow_as_api_error(); }
#pragma once

#include "tiergraph/error.h"

namespace tiergraph {

// Rethrows the exception being handled: a tg::Error as a tiergraph::Error of
// the same kind and message, std::bad_alloc as it is, any other
// std::exception as a tiergraph::Error of kind kOther.
[[noreturn]] void rethrow_as_api_error();

}  // namespace tiergraph
