// `tiergraph run ... --distributed` under mpirun: one process per GPU
// (docs/DISTRIBUTED.md). Built with MPI where CMake found it; elsewhere a
// one-line refusal.
#pragma once

#include <string>
#include <vector>

#include "engines/run.h"

namespace tg::cli {

struct DistributedRun {
  int rank = 0;  // only rank 0 reports
  RunOutput output;
};

// Initialises MPI, picks this process's GPU (its rank among the processes of
// its host) and runs the request as one rank of all of them.
DistributedRun run_distributed(const AnyGraph& graph, const RunRequest& request, const GpuOptions& gpu);
// The same for a batch (`bench --distributed`): rank 0's sink gets each
// output as it is there; returns this process's rank (only rank 0 reports).
int run_distributed_batch(const AnyGraph& graph, const std::vector<RunRequest>& requests, const GpuOptions& gpu,
                          const OutputSink& sink);
// --device and --gpus have no meaning under mpirun: a usage error naming them.
void check_distributed_options(const GpuOptions& gpu);
// This process's rank: MPI's once it started, else as the launcher set it
// (Open MPI, MPICH, PMIx; a bench that refused every placement never starts
// MPI), 0 outside one. Only rank 0 reports.
int distributed_rank();
// Ends MPI after a run that succeeded; a process that fails exits without it,
// so mpirun stops the others instead of leaving them in a collective.
void finish_distributed();

// mpirun binds each process to one core by default when it starts two or
// fewer (Open MPI), and OpenMP then runs the load, the partition and the
// verification on one thread: kron:27 on 2 H100 took over 160 s where
// `--gpus 2` takes 20. The line to print where a process may use one CPU of
// several, else "" (cpus_allowed from its affinity mask).
std::string narrow_binding_warning(int cpus_allowed, long cpus_online);

// The OpenMP threads of one of `local_ranks` processes on a host whose
// affinity allows `cpus_allowed` CPUs: a share each, at least one. With every
// process taking all of them (`--bind-to none`), 2 ranks on 32 cores ran 64
// threads through the load, the partition and the verification.
int rank_threads(int cpus_allowed, int local_ranks);
// Before a --distributed process loads its graph: the warning on stderr
// where it may use one CPU (once per host: its first rank), and, unless the
// threads were asked for (`threads_asked` > 0 or OMP_NUM_THREADS), its share
// of the host's cores where mpirun says how many ranks share the host.
void prepare_rank_process(int threads_asked);

}  // namespace tg::cli
