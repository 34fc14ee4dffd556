// One rank of `mpirun -np N tiergraph run ... --distributed`: this process
// drives one GPU (options.device: its rank among the processes of its host)
// and talks to the other processes through `host` (an MpiCommunicator) for
// NCCL's id and the gathered results; the GPUs exchange through NCCL. Each
// process builds only its own part of the partition (partition_rank). Every
// rank returns the whole result; the caller reports on rank 0.
#pragma once

#include <vector>

#include "distributed/communicator.h"
#include "engines/run.h"

namespace tg::dist {

std::vector<RunOutput> run_batch_as_rank(const AnyGraph& graph, const std::vector<RunRequest>& requests,
                                         const GpuOptions& options, Communicator& host);
// The same, each output handed to sink(request index, output) as soon as it
// is there and dropped after (a bench of 64 roots at kron:27 would otherwise
// hold 64 results of 537 MB).
void run_batch_as_rank(const AnyGraph& graph, const std::vector<RunRequest>& requests, const GpuOptions& options,
                       Communicator& host, const OutputSink& sink);

}  // namespace tg::dist
