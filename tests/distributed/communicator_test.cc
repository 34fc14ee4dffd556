// The in-process communicator (distributed/in_process_communicator.h): every
// collective against the same computation done sequentially, for 1, 2, 3 and
// 5 ranks, random sizes including 0, many rounds (so ranks race ahead into
// the next collective); and failures: an exception in one rank is rethrown by
// run_ranks and the other ranks do not hang, whatever they were doing.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/hash.h"
#include "distributed/in_process_communicator.h"

namespace tg::test {
namespace {

using dist::Communicator;
using dist::ReduceOp;
using dist::run_ranks;

// Runs f on a thread of its own and rethrows what it throws; if f takes
// longer than the limit, a rank hangs: the test fails and the process ends,
// since a thread blocked for good can be neither stopped nor joined.
void within_seconds(int seconds, const std::function<void()>& f) {
  std::promise<void> finished;
  std::future<void> done = finished.get_future();
  std::exception_ptr failure;
  std::thread worker([&] {
    try {
      f();
    } catch (...) {
      failure = std::current_exception();
    }
    finished.set_value();
  });
  if (done.wait_for(std::chrono::seconds(seconds)) == std::future_status::timeout) {
    ADD_FAILURE() << "ranks still running after " << seconds << " s: a collective hangs";
    std::fflush(stdout);
    std::_Exit(1);
  }
  worker.join();
  if (failure) std::rethrow_exception(failure);
}

constexpr int kRankCounts[] = {1, 2, 3, 5};

// Every rank can make every rank's input: a value from (seed, rank, index).
template <typename T>
T input_value(uint64_t seed, int rank, uint64_t i) {
  const uint64_t h = mix64(mix64(mix64(seed) ^ static_cast<uint64_t>(rank)) + i);
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(static_cast<double>(h >> 11) / 9007199254740992.0 * 200.0 - 100.0);  // [-100, 100)
  else
    return static_cast<T>(h);
}

template <typename T>
std::vector<T> input(uint64_t seed, int rank, uint64_t count) {
  std::vector<T> v(count);
  for (uint64_t i = 0; i < count; ++i) v[i] = input_value<T>(seed, rank, i);
  return v;
}

// A size agreed by all ranks for round `round`: 0, 1, small or large.
uint64_t shared_count(uint64_t seed, int round) {
  constexpr uint64_t kSizes[] = {0, 1, 7, 64, 1000, 4099};
  return kSizes[(seed + static_cast<uint64_t>(round) * 5) % std::size(kSizes)];
}

// A size that differs per rank (and per peer), 0 often.
uint64_t own_count(uint64_t seed, int from, int to) {
  const uint64_t h = mix64(mix64(seed * 31 + static_cast<uint64_t>(from)) + static_cast<uint64_t>(to));
  const uint64_t x = h % 6;
  return x < 2 ? 0 : (h >> 8) % (x == 5 ? 500 : 9);
}

template <typename T>
std::vector<T> sequential_reduce(uint64_t seed, int p, uint64_t count, ReduceOp op, bool bitwise_or) {
  std::vector<T> acc = input<T>(seed, 0, count);
  for (int r = 1; r < p; ++r) {
    const std::vector<T> x = input<T>(seed, r, count);
    for (uint64_t i = 0; i < count; ++i) {
      if constexpr (std::is_integral_v<T>)
        if (bitwise_or) {
          acc[i] |= x[i];
          continue;
        }
      acc[i] = op == ReduceOp::kSum ? acc[i] + x[i] : op == ReduceOp::kMin ? std::min(acc[i], x[i]) : std::max(acc[i], x[i]);
    }
  }
  return acc;
}

template <typename T>
void check_allreduce(Communicator& c, uint64_t seed, int round) {
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMin, ReduceOp::kMax}) {
    const uint64_t count = shared_count(seed + static_cast<uint64_t>(op), round);
    std::vector<T> values = input<T>(seed + static_cast<uint64_t>(op), c.rank(), count);
    c.allreduce(std::span<T>(values), op);
    // Bit-for-bit: the sums are taken in rank order on every rank.
    EXPECT_EQ(values, sequential_reduce<T>(seed + static_cast<uint64_t>(op), c.size(), count, op, false))
        << "rank " << c.rank() << ", op " << static_cast<int>(op) << ", " << count << " values";
  }
  const T one = c.allreduce(input_value<T>(seed, c.rank(), 0), ReduceOp::kMax);
  EXPECT_EQ(one, sequential_reduce<T>(seed, c.size(), 1, ReduceOp::kMax, false)[0]);
}

template <typename T>
void check_bitwise_or(Communicator& c, uint64_t seed, int round) {
  const uint64_t count = shared_count(seed, round);
  // Sparse words, as delegate masks are: OR differs from sum and max.
  std::vector<T> words = input<T>(seed, c.rank(), count);
  for (T& w : words) w &= input_value<T>(seed + 1, c.rank(), w % 97) & input_value<T>(seed + 2, c.rank(), w % 89);
  c.bitwise_or(std::span<T>(words));
  std::vector<T> want(count, 0);
  for (int r = 0; r < c.size(); ++r) {
    std::vector<T> x = input<T>(seed, r, count);
    for (uint64_t i = 0; i < count; ++i)
      want[i] |= x[i] & input_value<T>(seed + 1, r, x[i] % 97) & input_value<T>(seed + 2, r, x[i] % 89);
  }
  EXPECT_EQ(words, want) << "rank " << c.rank() << ", " << count << " words";
}

// Element i from rank `from` to rank `to`: names all three.
struct Tagged {
  uint32_t from, to;
  uint64_t i;
  bool operator==(const Tagged&) const = default;
};

void check_alltoallv(Communicator& c, uint64_t seed) {
  const int p = c.size(), me = c.rank();
  std::vector<Tagged> send;
  std::vector<uint64_t> send_counts;
  for (int to = 0; to < p; ++to) {
    send_counts.push_back(own_count(seed, me, to));
    for (uint64_t i = 0; i < send_counts.back(); ++i)
      send.push_back({static_cast<uint32_t>(me), static_cast<uint32_t>(to), i});
  }
  std::vector<uint64_t> recv_counts;
  const std::vector<Tagged> got = c.alltoallv(std::span<const Tagged>(send), send_counts, &recv_counts);
  std::vector<Tagged> want;
  std::vector<uint64_t> want_counts;
  for (int from = 0; from < p; ++from) {
    want_counts.push_back(own_count(seed, from, me));
    for (uint64_t i = 0; i < want_counts.back(); ++i)
      want.push_back({static_cast<uint32_t>(from), static_cast<uint32_t>(me), i});
  }
  EXPECT_EQ(recv_counts, want_counts) << "rank " << me;
  EXPECT_TRUE(got == want) << "rank " << me << ": " << got.size() << " elements, want " << want.size();
}

void check_allgatherv(Communicator& c, uint64_t seed) {
  const std::vector<double> mine = input<double>(seed, c.rank(), own_count(seed, c.rank(), 0));
  std::vector<uint64_t> counts;
  const std::vector<double> got = c.allgatherv(std::span<const double>(mine), &counts);
  std::vector<double> want;
  std::vector<uint64_t> want_counts;
  for (int r = 0; r < c.size(); ++r) {
    const std::vector<double> x = input<double>(seed, r, own_count(seed, r, 0));
    want.insert(want.end(), x.begin(), x.end());
    want_counts.push_back(x.size());
  }
  EXPECT_EQ(counts, want_counts);
  EXPECT_EQ(got, want) << "rank " << c.rank();
}

void check_broadcast(Communicator& c, uint64_t seed, int round) {
  for (int root = 0; root < c.size(); ++root) {
    const uint64_t count = shared_count(seed + static_cast<uint64_t>(root), round);
    std::vector<uint64_t> values = input<uint64_t>(seed, c.rank(), count);
    c.broadcast(std::span<uint64_t>(values), root);
    EXPECT_EQ(values, input<uint64_t>(seed, root, count)) << "rank " << c.rank() << ", root " << root;
  }
}

TEST(InProcessCommunicator, RankAndSize) {
  for (int p : kRankCounts) {
    std::vector<std::atomic<int>> seen(p);
    within_seconds(30, [&] {
      run_ranks(p, [&](Communicator& c) {
        EXPECT_EQ(c.size(), p);
        ++seen[c.rank()];
      });
    });
    for (int r = 0; r < p; ++r) EXPECT_EQ(seen[r].load(), 1) << "rank " << r << " of " << p;
  }
}

// Nobody leaves a barrier before everyone has arrived.
TEST(InProcessCommunicator, Barrier) {
  for (int p : kRankCounts) {
    std::atomic<int> arrived{0};
    within_seconds(30, [&] {
      run_ranks(p, [&](Communicator& c) {
        for (int round = 1; round <= 50; ++round) {
          ++arrived;
          if (c.rank() == round % c.size()) std::this_thread::yield();
          c.barrier();
          EXPECT_GE(arrived.load(), round * p);
          c.barrier();  // nobody starts the next round before all have checked
        }
      });
    });
  }
}

TEST(InProcessCommunicator, EveryCollectiveMatchesSequential) {
  for (int p : kRankCounts) {
    SCOPED_TRACE(std::to_string(p) + " ranks");
    within_seconds(60, [&] {
      run_ranks(p, [&](Communicator& c) {
        for (int round = 0; round < 12; ++round) {
          const uint64_t seed = 100 + static_cast<uint64_t>(round);
          check_allreduce<uint32_t>(c, seed, round);
          check_allreduce<uint64_t>(c, seed, round);
          check_allreduce<float>(c, seed, round);
          check_allreduce<double>(c, seed, round);
          check_bitwise_or<uint32_t>(c, seed, round);
          check_bitwise_or<uint64_t>(c, seed, round);
          check_alltoallv(c, seed);
          check_allgatherv(c, seed);
          check_broadcast(c, seed, round);
        }
      });
    });
  }
}

// An exception in one rank, wherever the others are: about to enter a
// collective, waiting in one, or still working.
TEST(InProcessCommunicator, ExceptionInOneRankIsRethrownAndOthersStop) {
  for (int p : kRankCounts) {
    for (int failing_round : {0, 3}) {
      SCOPED_TRACE(std::to_string(p) + " ranks, failing in round " + std::to_string(failing_round));
      const int failing = p - 1;
      try {
        within_seconds(30, [&] {
          run_ranks(p, [&](Communicator& c) {
            for (int round = 0;; ++round) {  // only the failure ends this loop
              if (c.rank() == failing && round == failing_round) throw std::runtime_error("rank failed on purpose");
              if (c.rank() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
              std::vector<uint64_t> x(3, 1);
              c.allreduce(std::span<uint64_t>(x), ReduceOp::kSum);
              std::vector<uint64_t> counts(c.size(), 1), send(c.size(), 7);
              c.alltoallv(std::span<const uint64_t>(send), counts);
            }
          });
        });
        ADD_FAILURE() << "run_ranks returned";
      } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "rank failed on purpose");
      }
    }
  }
}

TEST(InProcessCommunicator, RankReturningWhileOthersWaitIsAnError) {
  for (int p : {2, 3, 5}) {
    try {
      within_seconds(30, [&] {
        run_ranks(p, [&](Communicator& c) {
          if (c.rank() == 1) return;
          c.barrier();
        });
      });
      ADD_FAILURE() << "run_ranks returned";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("has returned"), std::string::npos) << e.what();
    }
  }
}

TEST(InProcessCommunicator, MismatchedCollectivesAreAnError) {
  try {
    within_seconds(30, [&] {
      run_ranks(3, [&](Communicator& c) {
        std::vector<uint32_t> x(c.rank() == 2 ? 5 : 4, 1);
        c.allreduce(std::span<uint32_t>(x), ReduceOp::kSum);
      });
    });
    ADD_FAILURE() << "different counts accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("differ"), std::string::npos) << e.what();
  }
  try {
    within_seconds(30, [&] {
      run_ranks(2, [&](Communicator& c) {
        std::vector<uint32_t> x(4, 1);
        if (c.rank() == 0)
          c.allreduce(std::span<uint32_t>(x), ReduceOp::kSum);
        else
          c.broadcast(std::span<uint32_t>(x), 0);
      });
    });
    ADD_FAILURE() << "different collectives accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("broadcast"), std::string::npos) << e.what();
  }
}

TEST(InProcessCommunicator, BadArgumentsAreErrors) {
  EXPECT_THROW(run_ranks(0, [](Communicator&) {}), Error);
  EXPECT_THROW(within_seconds(30, [] {
                 run_ranks(2, [](Communicator& c) {
                   const std::vector<uint64_t> send(3), counts{1, 1};  // 2 counted, 3 given
                   c.alltoallv(std::span<const uint64_t>(send), counts);
                 });
               }),
               Error);
  EXPECT_THROW(within_seconds(30, [] {
                 run_ranks(2, [](Communicator& c) {
                   std::vector<uint64_t> x(1);
                   c.broadcast(std::span<uint64_t>(x), 2);
                 });
               }),
               Error);
}

}  // namespace
}  // namespace tg::test
