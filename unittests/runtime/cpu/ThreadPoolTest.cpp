//===- ThreadPoolTest.cpp - the CPU thread runtime ---------------*- C++ -*-===//
//
// kiln_cpu_parallel_for runs every iteration once, on the calling thread's
// pool when it has one, serially otherwise, and never two loops on one pool;
// the caller does not wait for workers that are not running, and idle
// workers sleep.
//
//===----------------------------------------------------------------------===//

#include "runtime/cpu/threads/ThreadPool.h"

#include <gtest/gtest.h>

#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <mutex>
#include <thread>
#include <vector>

namespace {

/// Counts the runs of each iteration and the threads that ran them.
struct Counts {
  std::vector<std::atomic<int>> runs;
  std::mutex mutex;
  std::set<std::thread::id> threads;
  explicit Counts(int64_t n) : runs(n) {}
};

void countBody(void *context, int64_t begin, int64_t end) {
  auto *counts = static_cast<Counts *>(context);
  {
    std::lock_guard<std::mutex> lock(counts->mutex);
    counts->threads.insert(std::this_thread::get_id());
  }
  for (int64_t i = begin; i < end; ++i) {
    // Enough work that a second thread gets some of it.
    volatile double x = 0;
    for (int k = 0; k < 20000; ++k)
      x = x + k;
    ++counts->runs[i];
  }
}

void expectEachOnce(Counts &counts) {
  for (size_t i = 0; i < counts.runs.size(); ++i)
    EXPECT_EQ(counts.runs[i].load(), 1) << "iteration " << i;
}

TEST(ThreadPoolTest, NoPoolRunsOnTheCallingThread) {
  ASSERT_EQ(kiln_cpu_get_thread_pool(), nullptr);
  Counts counts(64);
  kiln_cpu_parallel_for(countBody, &counts, 64);
  expectEachOnce(counts);
  EXPECT_EQ(counts.threads.size(), 1u);
  EXPECT_EQ(*counts.threads.begin(), std::this_thread::get_id());
}

TEST(ThreadPoolTest, RejectsBadThreadCounts) {
  EXPECT_EQ(kiln_cpu_pool_create(0), nullptr);
  EXPECT_EQ(kiln_cpu_pool_create(-3), nullptr);
  EXPECT_EQ(kiln_cpu_pool_create(1025), nullptr);
  EXPECT_EQ(kiln_cpu_pool_num_threads(nullptr), 1);
}

TEST(ThreadPoolTest, EveryIterationRunsOnceOnSeveralThreads) {
  for (int threads : {1, 2, 4}) {
    kiln_cpu_pool *pool = kiln_cpu_pool_create(threads);
    ASSERT_NE(pool, nullptr);
    EXPECT_EQ(kiln_cpu_pool_num_threads(pool), threads);
    EXPECT_EQ(kiln_cpu_set_thread_pool(pool), nullptr);
    for (int64_t n : {0, 1, 2, 3, 7, 64, 1000}) {
      Counts counts(n);
      kiln_cpu_parallel_for(countBody, &counts, n);
      expectEachOnce(counts);
      if (threads == 1 || n <= 1) {
        EXPECT_LE(counts.threads.size(), 1u) << n << " on " << threads;
      }
    }
    EXPECT_EQ(kiln_cpu_set_thread_pool(nullptr), pool);
    kiln_cpu_pool_destroy(pool);
  }
}

TEST(ThreadPoolTest, WorkersTakePartOfALongLoop) {
  kiln_cpu_pool *pool = kiln_cpu_pool_create(2);
  ASSERT_NE(pool, nullptr);
  kiln_cpu_set_thread_pool(pool);
  // Retried because the machine is shared: a worker that is not scheduled
  // during the whole loop leaves it to the caller, which is still correct.
  size_t most = 0;
  for (int attempt = 0; attempt < 20 && most < 2; ++attempt) {
    Counts counts(256);
    kiln_cpu_parallel_for(countBody, &counts, 256);
    expectEachOnce(counts);
    most = std::max(most, counts.threads.size());
  }
  EXPECT_EQ(most, 2u);
  kiln_cpu_set_thread_pool(nullptr);
  kiln_cpu_pool_destroy(pool);
}

/// A body whose iterations start a loop of their own (which runs serially:
/// the pool is held, and workers have no pool).
void nestedBody(void *context, int64_t begin, int64_t end) {
  auto *counts = static_cast<Counts *>(context);
  for (int64_t i = begin; i < end; ++i) {
    Counts inner(8);
    kiln_cpu_parallel_for(countBody, &inner, 8);
    bool once = true;
    for (auto &runs : inner.runs)
      once = once && runs.load() == 1;
    if (once && inner.threads.size() == 1 &&
        *inner.threads.begin() == std::this_thread::get_id())
      ++counts->runs[i];
  }
}

TEST(ThreadPoolTest, NestedLoopsRunOnTheirThread) {
  kiln_cpu_pool *pool = kiln_cpu_pool_create(2);
  ASSERT_NE(pool, nullptr);
  kiln_cpu_set_thread_pool(pool);
  Counts counts(16);
  kiln_cpu_parallel_for(nestedBody, &counts, 16);
  expectEachOnce(counts);
  kiln_cpu_set_thread_pool(nullptr);
  kiln_cpu_pool_destroy(pool);
}

TEST(ThreadPoolTest, ThreadsSharingAPoolEachFinishTheirLoops) {
  kiln_cpu_pool *pool = kiln_cpu_pool_create(3);
  ASSERT_NE(pool, nullptr);
  std::vector<std::unique_ptr<Counts>> all;
  for (int t = 0; t < 4; ++t)
    all.push_back(std::make_unique<Counts>(200));
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&, t] {
      kiln_cpu_set_thread_pool(pool);
      for (int repeat = 0; repeat < 5; ++repeat) {
        Counts counts(40);
        kiln_cpu_parallel_for(countBody, &counts, 40);
        for (int i = 0; i < 40; ++i)
          all[t]->runs[repeat * 40 + i] += counts.runs[i].load();
      }
    });
  for (std::thread &caller : callers)
    caller.join();
  for (auto &counts : all)
    expectEachOnce(*counts);
  kiln_cpu_pool_destroy(pool);
}

TEST(ThreadPoolTest, ThePoolIsPerThread) {
  kiln_cpu_pool *pool = kiln_cpu_pool_create(2);
  ASSERT_NE(pool, nullptr);
  kiln_cpu_set_thread_pool(pool);
  kiln_cpu_pool *seen = pool;
  std::thread([&] { seen = kiln_cpu_get_thread_pool(); }).join();
  EXPECT_EQ(seen, nullptr);
  // Destroying the calling thread's pool clears it.
  kiln_cpu_pool_destroy(pool);
  EXPECT_EQ(kiln_cpu_get_thread_pool(), nullptr);
}

// Scheduling: a caller never waits for a worker that has not joined its
// loop, and idle workers sleep instead of polling.

/// Records the threads that run iterations, the caller's excepted.
struct Others {
  std::thread::id caller = std::this_thread::get_id();
  std::mutex mutex;
  std::vector<pthread_t> threads;
};

void recordOthers(void *context, int64_t begin, int64_t end) {
  auto *others = static_cast<Others *>(context);
  if (std::this_thread::get_id() != others->caller) {
    std::lock_guard<std::mutex> lock(others->mutex);
    others->threads.push_back(pthread_self());
  }
  volatile double x = 0;
  for (int64_t i = begin; i < end; ++i)
    for (int k = 0; k < 20000; ++k)
      x = x + k;
}

/// A signal handler that holds the thread it interrupts until released.
sem_t heldSemaphore, releaseSemaphore;
void holdThread(int) {
  sem_post(&heldSemaphore);
  while (sem_wait(&releaseSemaphore) != 0) {
  }
}

TEST(ThreadPoolTest, AWorkerThatDoesNotRunDoesNotHoldUpTheCaller) {
  kiln_cpu_pool *pool = kiln_cpu_pool_create(2);
  ASSERT_NE(pool, nullptr);
  kiln_cpu_set_thread_pool(pool);
  // The worker's thread, from a loop it takes part in.
  Others others;
  for (int attempt = 0; attempt < 50 && others.threads.empty(); ++attempt)
    kiln_cpu_parallel_for(recordOthers, &others, 256);
  ASSERT_FALSE(others.threads.empty());
  pthread_t worker = others.threads.front();

  // The worker, idle between loops, stopped in a signal handler as a
  // machine busy with other programs would deschedule it.
  ASSERT_EQ(sem_init(&heldSemaphore, 0, 0), 0);
  ASSERT_EQ(sem_init(&releaseSemaphore, 0, 0), 0);
  struct sigaction action = {}, previous = {};
  action.sa_handler = holdThread;
  sigemptyset(&action.sa_mask);
  ASSERT_EQ(sigaction(SIGUSR1, &action, &previous), 0);
  ASSERT_EQ(pthread_kill(worker, SIGUSR1), 0);
  while (sem_wait(&heldSemaphore) != 0) {
  }

  // The caller's loops finish without it.
  std::atomic<bool> finished{false};
  std::thread caller([&] {
    kiln_cpu_set_thread_pool(pool);
    for (int repeat = 0; repeat < 20; ++repeat) {
      Counts counts(64);
      kiln_cpu_parallel_for(countBody, &counts, 64);
      expectEachOnce(counts);
    }
    finished = true;
  });
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!finished && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(finished.load()) << "the caller waited for the stopped worker";
  sem_post(&releaseSemaphore);
  caller.join();
  sigaction(SIGUSR1, &previous, nullptr);
  sem_destroy(&heldSemaphore);
  sem_destroy(&releaseSemaphore);
  kiln_cpu_set_thread_pool(nullptr);
  kiln_cpu_pool_destroy(pool);
}

void emptyBody(void *, int64_t, int64_t) {}

double processCPUSeconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

TEST(ThreadPoolTest, IdleWorkersSleepBetweenLoops) {
  kiln_cpu_pool *pool = kiln_cpu_pool_create(2);
  ASSERT_NE(pool, nullptr);
  kiln_cpu_set_thread_pool(pool);
  // Short loops 2 ms apart, the caller asleep in between: a worker that
  // polled for the next loop would use about a core all along.
  double cpu = processCPUSeconds();
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 50; ++i) {
    kiln_cpu_parallel_for(emptyBody, nullptr, 16);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                              start)
                    .count();
  cpu = processCPUSeconds() - cpu;
  EXPECT_LT(cpu, wall / 4) << "CPU " << cpu << " s in " << wall << " s";
  kiln_cpu_set_thread_pool(nullptr);
  kiln_cpu_pool_destroy(pool);
}

} // namespace
