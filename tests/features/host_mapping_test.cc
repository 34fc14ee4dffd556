// tg::host_mapping_at (core/host_mapping.h), which decides whether the GPU
// side pins host memory in place: heap and anonymous memory, a file mapped
// shared, a file mapped private.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "core/host_mapping.h"

namespace tg {
namespace {

TEST(HostMapping, TellsAnonymousSharedAndPrivateMappingsApart) {
  std::vector<char> small(64);
  std::vector<char> large(8 << 20);  // malloc maps it apart
  EXPECT_EQ(host_mapping_at(small.data()), HostMapping::kAnonymous);
  EXPECT_EQ(host_mapping_at(large.data() + 12345), HostMapping::kAnonymous);
  const std::string path = ::testing::TempDir() + "tg_host_mapping_" + std::to_string(::getpid());
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, 3 * 4096), 0);
  for (auto [flags, prot, want] : {std::tuple{MAP_SHARED, PROT_READ, HostMapping::kSharedFile},
                                   std::tuple{MAP_SHARED, PROT_READ | PROT_WRITE, HostMapping::kSharedFile},
                                   std::tuple{MAP_PRIVATE, PROT_READ, HostMapping::kPrivateFile},
                                   std::tuple{MAP_PRIVATE, PROT_READ | PROT_WRITE, HostMapping::kPrivateFile}}) {
    void* p = ::mmap(nullptr, 3 * 4096, prot, flags, fd, 0);
    ASSERT_NE(p, MAP_FAILED);
    EXPECT_EQ(host_mapping_at(static_cast<char*>(p) + 2 * 4096 + 7), want) << flags << " " << prot;
    ::munmap(p, 3 * 4096);
  }
  ::close(fd);
  std::remove(path.c_str());
  void* anon = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(anon, MAP_FAILED);
  // Shared anonymous memory is backed by an inode of its own (/dev/zero): a
  // shared mapping, pinned in place as shared files are.
  EXPECT_NE(host_mapping_at(anon), HostMapping::kPrivateFile);
  ::munmap(anon, 4096);
}

}  // namespace
}  // namespace tg
