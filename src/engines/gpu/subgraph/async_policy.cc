// Which algorithms asynchronous subgraph processing may run (see async_policy.h).
#include "engines/gpu/subgraph/async_policy.h"

#include "core/error.h"

namespace tg::subgraph {

std::string async_refusal(Algorithm a) {
  const std::string name = algorithm_name(a);
  switch (a) {
    case Algorithm::kSssp:
    case Algorithm::kSswp:
    case Algorithm::kCc:
      return "";
    case Algorithm::kBfs:
    case Algorithm::kSsnsp:
      return "--async cannot run " + name +
             ": its operator stamps the level of the synchronous step, which inner iterations would give to vertices "
             "further away (it needs a relaxation-form operator); run it without --async";
    case Algorithm::kPageRank:
      return "--async cannot run " + name +
             ": it is written in gather (pull) form, not the accumulative form whose result is independent of "
             "evaluation order; run it without --async";
  }
  return "--async: unknown algorithm";
}

void check_async(Algorithm a) {
  std::string why = async_refusal(a);
  if (!why.empty()) throw Error(why);
}

}  // namespace tg::subgraph
