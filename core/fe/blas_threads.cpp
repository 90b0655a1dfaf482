#include "core/fe/blas_threads.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

namespace flexim::fe {

namespace {

// OpenBLAS's thread control, looked up in the loaded libraries: the BLAS is chosen at run time
// (Debian's alternatives), so it may not be OpenBLAS.
struct ThreadControl {
  using Set = void (*)(int);
  using Get = int (*)();
  Set set = nullptr;
  Get get = nullptr;
  int initial = 1;
  ThreadControl() {
    set = reinterpret_cast<Set>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    get = reinterpret_cast<Get>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
    if (!set || !get) set = nullptr, get = nullptr;
    if (get) initial = std::max(1, get());
  }
};

const ThreadControl& control() {
  static const ThreadControl c;
  return c;
}

}  // namespace

int blasThreadsAvailable() { return control().initial; }

namespace {

/// Threads runnable on the machine now, this one included (the fourth field of /proc/loadavg,
/// "runnable/total"): the least of three readings 10 ms apart, so that a thread that only wakes
/// for a moment is not counted. 0 when it cannot be read.
int runnableThreads() {
  int least = 0;
  for (int reading = 0; reading < 3; ++reading) {
    if (reading) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::FILE* f = std::fopen("/proc/loadavg", "r");
    if (!f) return 0;
    double l1 = 0, l5 = 0, l15 = 0;
    int runnable = 0, total = 0;
    const int read = std::fscanf(f, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &runnable, &total);
    std::fclose(f);
    if (read != 5 || runnable < 1) return 0;
    least = reading ? std::min(least, runnable) : runnable;
  }
  return least;
}

}  // namespace

int blasThreadsForFactorisation(long rows) {
  const int available = control().initial;
  if (available <= 1 || rows < kThreadedRows) return 1;
  const int runnable = runnableThreads();
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (runnable < 1 || cores < 1) return available;
  // the cores no other thread holds: the caller's own (it is one of the runnable) and the idle ones
  const int free = static_cast<int>(cores) - (runnable - 1);
  return std::clamp(free, 1, available);
}

ScopedBlasThreads::ScopedBlasThreads(int threads) {
  const ThreadControl& c = control();
  if (!c.set) return;
  m_previous = c.get();
  const int wanted = std::clamp(threads, 1, c.initial);
  if (wanted != m_previous) c.set(wanted);
}

ScopedBlasThreads::~ScopedBlasThreads() {
  const ThreadControl& c = control();
  if (c.set && m_previous > 0 && c.get() != m_previous) c.set(m_previous);
}

}  // namespace flexim::fe
