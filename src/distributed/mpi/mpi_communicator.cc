#include "distributed/mpi/mpi_communicator.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

namespace tg::dist {
namespace {

void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error(std::string("MPI error in ") + what + ": " + std::string(text, length));
}

MPI_Datatype mpi_type(DataType type) {
  switch (type) {
    case DataType::kUint32: return MPI_UINT32_T;
    case DataType::kUint64: return MPI_UINT64_T;
    case DataType::kFloat32: return MPI_FLOAT;
    case DataType::kFloat64: return MPI_DOUBLE;
  }
  return MPI_BYTE;
}

size_t type_bytes(DataType type) { return type == DataType::kUint32 || type == DataType::kFloat32 ? 4 : 8; }

// MPI counts are ints: allgatherv and broadcast send larger messages in
// pieces; the other collectives carry small host values only (a partition's
// counts, owner exchanges of the host programs) and refuse beyond it.
int as_count(uint64_t n, const char* what) {
  if (n > static_cast<uint64_t>(INT_MAX))
    throw Error(std::string(what) + ": " + std::to_string(n) + " bytes exceed one MPI message (2 GiB)");
  return static_cast<int>(n);
}

template <typename T>
void sum_in_rank_order(T* values, uint64_t count, const std::vector<T>& all, int ranks) {
  for (uint64_t i = 0; i < count; ++i) {
    T s = all[i];
    for (int r = 1; r < ranks; ++r) s += all[static_cast<uint64_t>(r) * count + i];
    values[i] = s;
  }
}

}  // namespace

MpiCommunicator::MpiCommunicator(MPI_Comm comm, uint64_t message_limit)
    : comm_(comm), message_limit_(std::max<uint64_t>(1, std::min(message_limit, kMpiMessageLimit))) {
  check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

void MpiCommunicator::barrier() { check(MPI_Barrier(comm_), "MPI_Barrier"); }

void MpiCommunicator::allreduce_raw(void* values, uint64_t count, DataType type, ReduceOp op) {
  as_count(count * type_bytes(type), "allreduce");
  // Floating-point sums: the interface promises the same bits on every rank,
  // summed in rank order, which MPI_Allreduce does not (its order depends on
  // the algorithm it picks). Gather every rank's values and sum here.
  if (op == ReduceOp::kSum && (type == DataType::kFloat32 || type == DataType::kFloat64)) {
    const int c = static_cast<int>(count);
    if (type == DataType::kFloat32) {
      std::vector<float> all(count * size_);
      check(MPI_Allgather(values, c, MPI_FLOAT, all.data(), c, MPI_FLOAT, comm_), "MPI_Allgather");
      sum_in_rank_order(static_cast<float*>(values), count, all, size_);
    } else {
      std::vector<double> all(count * size_);
      check(MPI_Allgather(values, c, MPI_DOUBLE, all.data(), c, MPI_DOUBLE, comm_), "MPI_Allgather");
      sum_in_rank_order(static_cast<double*>(values), count, all, size_);
    }
    return;
  }
  const MPI_Op mpi_op = op == ReduceOp::kSum ? MPI_SUM : op == ReduceOp::kMin ? MPI_MIN : MPI_MAX;
  check(MPI_Allreduce(MPI_IN_PLACE, values, static_cast<int>(count), mpi_type(type), mpi_op, comm_), "MPI_Allreduce");
}

void MpiCommunicator::bitwise_or_raw(void* words, uint64_t count, DataType type) {
  as_count(count * type_bytes(type), "bitwise_or");
  check(MPI_Allreduce(MPI_IN_PLACE, words, static_cast<int>(count), mpi_type(type), MPI_BOR, comm_), "MPI_Allreduce");
}

void MpiCommunicator::alltoallv_raw(const void* send, std::span<const uint64_t> send_bytes, const ReceiveBuffer& receive) {
  std::vector<uint64_t> recv_bytes(size_);
  check(MPI_Alltoall(send_bytes.data(), 1, MPI_UINT64_T, recv_bytes.data(), 1, MPI_UINT64_T, comm_), "MPI_Alltoall");
  std::vector<int> send_counts(size_), send_at(size_), recv_counts(size_), recv_at(size_);
  uint64_t s = 0, r = 0;
  for (int q = 0; q < size_; ++q) {
    send_counts[q] = as_count(send_bytes[q], "alltoallv");
    recv_counts[q] = as_count(recv_bytes[q], "alltoallv");
    send_at[q] = as_count(s, "alltoallv");
    recv_at[q] = as_count(r, "alltoallv");
    s += send_bytes[q];
    r += recv_bytes[q];
  }
  void* into = receive(recv_bytes);
  check(MPI_Alltoallv(send, send_counts.data(), send_at.data(), MPI_BYTE, into, recv_counts.data(), recv_at.data(),
                      MPI_BYTE, comm_),
        "MPI_Alltoallv");
}

// One MPI_Allgatherv where every count and offset fits the message limit
// (all of the gathered results of graphs below about 2^29 vertices); else
// each rank's part is broadcast from it in pieces of at most the limit: the
// same bytes moved, P collectives a piece instead of one.
void MpiCommunicator::allgatherv_raw(const void* send, uint64_t bytes, const ReceiveBuffer& receive) {
  std::vector<uint64_t> all_bytes(size_);
  check(MPI_Allgather(&bytes, 1, MPI_UINT64_T, all_bytes.data(), 1, MPI_UINT64_T, comm_), "MPI_Allgather");
  std::vector<uint64_t> start(size_ + 1, 0);
  for (int q = 0; q < size_; ++q) start[q + 1] = start[q] + all_bytes[q];
  char* into = static_cast<char*>(receive(all_bytes));
  if (start[size_] <= message_limit_) {
    std::vector<int> counts(size_), at(size_);
    for (int q = 0; q < size_; ++q) {
      counts[q] = static_cast<int>(all_bytes[q]);
      at[q] = static_cast<int>(start[q]);
    }
    check(MPI_Allgatherv(send, counts[rank_], MPI_BYTE, into, counts.data(), at.data(), MPI_BYTE, comm_),
          "MPI_Allgatherv");
    return;
  }
  if (bytes > 0) std::memcpy(into + start[rank_], send, bytes);
  for (int q = 0; q < size_; ++q) broadcast_raw(into + start[q], all_bytes[q], q);
}

void MpiCommunicator::broadcast_raw(void* data, uint64_t bytes, int root) {
  char* at = static_cast<char*>(data);
  for (uint64_t done = 0; done < bytes; done += message_limit_) {
    const uint64_t piece = std::min(message_limit_, bytes - done);
    check(MPI_Bcast(at + done, static_cast<int>(piece), MPI_BYTE, root, comm_), "MPI_Bcast");
  }
}

}  // namespace tg::dist
