#include "core/fe/blas_threads.h"

#include <dlfcn.h>

#include <algorithm>

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
