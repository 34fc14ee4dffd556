// `tiergraph run ... --distributed` under mpirun: one process per GPU
// (docs/DISTRIBUTED.md). Built with MPI where CMake found it; elsewhere a
// one-line refusal.
#pragma once

#include "engines/run.h"

namespace tg::cli {

struct DistributedRun {
  int rank = 0;  // only rank 0 reports
  RunOutput output;
};

// Initialises MPI, picks this process's GPU (its rank among the processes of
// its host) and runs the request as one rank of all of them.
DistributedRun run_distributed(const AnyGraph& graph, const RunRequest& request, const GpuOptions& gpu);
// Ends MPI after a run that succeeded; a process that fails exits without it,
// so mpirun stops the others instead of leaving them in a collective.
void finish_distributed();

}  // namespace tg::cli
