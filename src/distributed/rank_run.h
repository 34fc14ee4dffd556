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

}  // namespace tg::dist
