// Flexible-body performance figures (not a pass/fail test): the flexible slider-crank
// of tests/core/flexible_models.h with a reduced rod of ~2 000 FE nodes (the committed fixture)
// and, given with --rod, the same rod meshed with ~100 000 nodes, the same 14 modes (6 rigid +
// 8 elastic). Output is off in effect (one sample at t = 0 and one at t_end). Runs it through
// the public Simulation API and prints a table.
//
//   bench_flexible                       the committed rod, gen-alpha and IDA, 0.1 s, median of 3
//   bench_flexible --rod /tmp/rodbig/rod_round_k7_n71.frb   + the big rod (scripts/bench_flexible.sh)
//   bench_flexible --quick               short runs of the committed rod (smoke check, ~0.1 s)
//   bench_flexible --help                other options
//
// The per-step cost must not depend on the FE node count (nothing in a time step loops over
// nodes): the "ratio" column is us/step of a rod over us/step of the first rod, same integrator.
// Results and analysis: docs/benchmarks.md.
#include "core/run/simulation.h"
#include "machine_info.h"
#include "io/fe/reduced_body_file.h"
#include "tests/core/flexible_models.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <numbers>
#include <string>
#include <thread>
#include <vector>

using namespace flexim;

using namespace flexim::bench;

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

double threadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/// Keeps the last sample only.
class LastSampleSink : public ResultSink {
 public:
  std::vector<Channel> channels;
  Sample last;
  void begin(const std::vector<Channel>& c, const RunSummary&) override { channels = c; }
  void sample(const Sample& s) override { last = s; }
  double value(const std::string& name) const {
    for (size_t i = 0; i < channels.size(); ++i)
      if (channels[i].name == name && i < last.values.size()) return last.values[i];
    return std::nan("");
  }
};

// ---- rods ---------------------------------------------------------------------------------

struct Rod {
  std::string path;
  std::string label;
  std::shared_ptr<const fe::ReducedBody> data;
  double load_time = 0;   ///< io::loadReducedBody [s]
  int axis[3] = {-1, -1, -1};  ///< FE node ids at (0,0,0), (0.15,0,0), (0.3,0,0); -1 = not found
};

/// The axis nodes by their coordinates (the generator puts a node exactly on the axis at both
/// ends and the middle; tests/data/fe/rod/README.md). Once, before any timing.
void findAxisNodes(Rod& rod) {
  const double xs[3] = {0.0, 0.15, 0.3};
  const auto& c = rod.data->coords;
  for (int a = 0; a < 3; ++a)
    for (size_t k = 0; k < c.size(); ++k)
      if ((c[k] - Vec3(xs[a], 0, 0)).norm() < 1e-9) {
        rod.axis[a] = rod.data->node_ids[k];
        break;
      }
}

bool loadRod(Rod& rod, std::string& error) {
  auto body = std::make_shared<fe::ReducedBody>();
  const auto t0 = Clock::now();
  if (!io::loadReducedBody(rod.path, *body, &error)) return false;
  rod.load_time = seconds(t0, Clock::now());
  rod.data = body;
  if (rod.axis[0] < 0) findAxisNodes(rod);
  return true;
}

// ---- the model ----------------------------------------------------------------------------

constexpr int kElasticModes = 8;  // + 6 rigid = 14 modes, what the big rod's generator keeps

/// The flexible slider-crank of flexible_models.h with `rod` as the connecting rod. The virtual
/// bodies are placed by point (nodes chosen by System::compile), so they need no node ids. The
/// deflection sensor (only evaluated at the two output samples) uses the axis nodes when found.
ModelSpec model(const Rod& rod, IntegratorType integ, double t_end, double h) {
  test::FlexibleCrankOptions o;
  o.elastic_modes = kElasticModes;
  o.integrator = integ;
  o.t_end = t_end;
  o.step = h;
  o.output = t_end;  // samples at t = 0 and t_end only
  ModelSpec m = test::sliderCrankFlexible(o);  // (loads the committed fixture once; replaced below)
  m.name = "slider_crank_flexible_bench";
  m.flexible_bodies[0].file = rod.path;
  m.flexible_bodies[0].data = rod.data;
  std::vector<SensorSpec> keep;
  for (auto& s : m.sensors) {
    if (s.type == SensorSpec::Type::Deflection) {
      if (rod.axis[0] < 0 || rod.axis[1] < 0 || rod.axis[2] < 0) continue;
      s.node = rod.axis[1];
      s.chord = {rod.axis[0], rod.axis[2]};
    }
    keep.push_back(s);
  }
  m.sensors = keep;
  return m;
}

// ---- running ------------------------------------------------------------------------------

struct RunResult {
  bool ok = false;
  std::string message;
  std::string placement;    ///< the compile's info lines (which nodes the virtual bodies use)
  RunSummary sum;
  double create_time = 0;   ///< Simulation::create [s] (System::compile + sensor set)
  double run_wall = 0;      ///< Simulation::run [s]
  double run_cpu = 0;       ///< thread CPU time of Simulation::run [s]
  double startup = 0;       ///< run start to the first progress report minus those 50 steps at the steady rate [s]
  double steady_us = 0;     ///< us/step between the first and the last 50-step progress report
  double slider_x = NAN, deflection = NAN, energy = NAN;
};

/// One run. Simulation::run reports progress every 50 steps; the wall times of those reports
/// give the stepping rate without the start-up (initial conditions, first factorisation) and
/// without the two output samples.
RunResult runOnce(const ModelSpec& m) {
  RunResult r;
  const auto t0 = Clock::now();
  Diagnostics diag;
  auto sim = Simulation::create(m, diag);
  r.create_time = seconds(t0, Clock::now());
  for (const auto& d : diag.items())
    if (d.severity != Severity::Error) r.placement += "      " + d.str() + "\n";
  if (!sim) {
    r.message = "model rejected: " + diag.str();
    return r;
  }
  std::vector<Clock::time_point> reports;
  reports.reserve(1 << 16);
  RunOptions opts;
  opts.progress = [&](double, double) { reports.push_back(Clock::now()); };
  LastSampleSink sink;
  const double c0 = threadCpuSeconds();
  const auto w0 = Clock::now();
  r.sum = sim->run({&sink}, opts);
  const auto w1 = Clock::now();
  r.run_cpu = threadCpuSeconds() - c0;
  r.run_wall = seconds(w0, w1);
  r.ok = r.sum.ok;
  if (!r.ok) r.message = r.sum.message;
  if (reports.size() >= 3) {  // the last report follows the end of the loop, not 50 steps
    const double span = seconds(reports.front(), reports[reports.size() - 2]);
    const double steps = 50.0 * (reports.size() - 2);
    if (span > 0) r.steady_us = 1e6 * span / steps;
    r.startup = std::max(0.0, seconds(w0, reports.front()) - 50 * r.steady_us * 1e-6);
  } else if (r.sum.steps > 0) {
    r.steady_us = 1e6 * r.run_wall / r.sum.steps;
  }
  r.slider_x = sink.value("slider.position.x");
  r.deflection = std::hypot(sink.value("rod_mid.normalized.x"), sink.value("rod_mid.normalized.y"),
                            sink.value("rod_mid.normalized.z"));
  r.energy = sink.value("energy.total.value");
  return r;
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Case {
  int rod = 0;
  std::string integ_label;
  IntegratorType integ = IntegratorType::GeneralizedAlpha;
  double h = 1e-5;  ///< gen-alpha: fixed step; IDA: maximum step (0 = free)
  std::vector<RunResult> runs;
  // medians over the runs
  double create = 0, wall = 0, cpu = 0, startup = 0, us = 0;
};

void usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--quick] [--repeat N] [--t-end T] [--only TEXT] [--rod FILE.frb [--axis A,MID,B]]...\n"
               "  --quick          short runs (t_end 2e-3 s, 1 repeat; smoke check)\n"
               "  --repeat N       runs per case, interleaved; the medians are reported (default 3)\n"
               "  --t-end T        simulated time [s] (default 0.1 = 10 000 steps at h = 1e-5)\n"
               "  --only TEXT      only the integrators whose label contains TEXT (gen-alpha, IDA hmax, IDA free)\n"
               "  --rod FILE.frb   a further reduced rod (0.3 m along FE x from the origin, >= 14 modes), e.g.\n"
               "                   from scripts/make_fixtures.py rod-mesh; the committed rod comes first\n"
               "  --axis A,MID,B   FE node ids of that rod's axis nodes for the deflection sensor\n"
               "                   (default: found by their coordinates)\n"
               "  --no-fixture     leave out the committed rod (the first --rod is then the reference)\n",
               argv0);
}

bool parseAxis(const char* s, int axis[3]) {
  return std::sscanf(s, "%d,%d,%d", &axis[0], &axis[1], &axis[2]) == 3;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, fixture = true;
  int repeat = -1;
  double tEnd = -1;
  std::string only;
  std::vector<Rod> rods(1);
  rods[0].path = std::string(FLEXIM_SOURCE_DIR) + "/tests/data/fe/rod/rod_round_c3d10.frb";
  rods[0].axis[0] = test::kRodEndA;
  rods[0].axis[1] = test::kRodMid;
  rods[0].axis[2] = test::kRodEndB;
  for (int i = 1; i < argc; ++i) {
    const auto arg = [&](const char* name) { return std::strcmp(argv[i], name) == 0 && i + 1 < argc; };
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      usage(argv[0]);
      return 0;
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--no-fixture") == 0) {
      fixture = false;
    } else if (arg("--repeat")) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (arg("--t-end")) {
      tEnd = std::atof(argv[++i]);
    } else if (arg("--only")) {
      only = argv[++i];
    } else if (arg("--rod")) {
      rods.emplace_back();
      rods.back().path = argv[++i];
    } else if (arg("--axis") && rods.size() > 1) {
      if (!parseAxis(argv[++i], rods.back().axis)) {
        usage(argv[0]);
        return 2;
      }
    } else {
      usage(argv[0]);
      return 2;
    }
  }
  if (!fixture) rods.erase(rods.begin());
  if (rods.empty() || (tEnd != -1 && !(tEnd > 0))) {
    usage(argv[0]);
    return 2;
  }
  if (repeat < 0) repeat = quick ? 1 : 3;
  if (tEnd < 0) tEnd = quick ? 2e-3 : 0.1;

  std::printf("Flexim flexible-body benchmark%s\n", quick ? " (--quick: short runs)" : "");
  std::printf("date: %s\n", now().c_str());
  std::printf("machine: %u hardware threads (nproc), CPU: %s, load average at start: %s\n",
              std::thread::hardware_concurrency(), cpuModel().c_str(), loadAverage().c_str());
#ifdef NDEBUG
  std::printf("build: NDEBUG (optimised)\n");
#else
  std::printf("build: assertions on (not a Release build -- figures are not representative)\n");
#endif

  // ---- load the rods (not timed with the runs)
  for (size_t i = 0; i < rods.size(); ++i) {
    Rod& rod = rods[i];
    std::string error;
    if (!loadRod(rod, error)) {
      std::fprintf(stderr, "cannot load %s: %s\n", rod.path.c_str(), error.c_str());
      return 1;
    }
    const auto& d = *rod.data;
    const int m = static_cast<int>(d.modes.cols());
    if (m < 6 + kElasticModes) {
      std::fprintf(stderr, "%s has %d modes, %d needed\n", rod.path.c_str(), m, 6 + kElasticModes);
      return 1;
    }
    char label[64];
    std::snprintf(label, sizeof label, "rod %zu (%zu nodes)", i + 1, d.coords.size());
    rod.label = label;
    std::printf("%s: %s\n  %zu nodes, %d modes in the file (first %d used), mass %.8g kg, load %.3f s;"
                " axis nodes %d, %d, %d\n",
                rod.label.c_str(), rod.path.c_str(), d.coords.size(), m, 6 + kElasticModes, d.invariants.I1,
                rod.load_time, rod.axis[0], rod.axis[1], rod.axis[2]);
    std::printf("  first elastic frequencies [Hz]:");
    for (int j = 0, shown = 0; j < m && shown < 4; ++j)
      if (d.kinds[j] == fe::ModeKind::Elastic) {
        std::printf(" %.3f", std::sqrt(std::max(0.0, d.eigenvalues(j))) / (2 * std::numbers::pi));
        ++shown;
      }
    std::printf("\n");
  }

  // ---- cases, run interleaved (rod 1 gen-alpha, rod 2 gen-alpha, ..., then the next repeat)
  const double h = 1e-5;
  struct Integ {
    const char* label;
    IntegratorType type;
    double h;
  };
  const Integ integs[] = {{"gen-alpha h=1e-5", IntegratorType::GeneralizedAlpha, h},
                          {"IDA hmax=1e-5", IntegratorType::Ida, h},
                          {"IDA free", IntegratorType::Ida, 0.0}};
  std::vector<Case> cases;
  for (const auto& in : integs) {
    if (std::string(in.label).find(only) == std::string::npos) continue;
    for (size_t r = 0; r < rods.size(); ++r) {
      Case c;
      c.rod = static_cast<int>(r);
      c.integ_label = in.label;
      c.integ = in.type;
      c.h = in.h;
      cases.push_back(c);
    }
  }
  std::printf(
      "\nslider-crank, crank 0.15 m at 150 rad/s, flexible rod 0.3 m (MAC frame, %d modes = 6 rigid + %d elastic),\n"
      "t_end = %g s, output: samples at t = 0 and t_end only; gen-alpha rho_inf = 0.8; IDA rtol 1e-8, atol 1e-10.\n"
      "%d run(s) per case, interleaved; medians reported. Single-threaded.\n",
      6 + kElasticModes, kElasticModes, tEnd, repeat);
  bool allOk = true;
  for (int rep = 0; rep < repeat; ++rep)
    for (auto& c : cases) {
      const ModelSpec m = model(rods[c.rod], c.integ, tEnd, c.h);
      c.runs.push_back(runOnce(m));
      if (!c.runs.back().ok) allOk = false;
    }
  for (auto& c : cases) {
    std::vector<double> create, wall, cpu, startup, us;
    for (const auto& r : c.runs) {
      create.push_back(r.create_time);
      wall.push_back(r.run_wall);
      cpu.push_back(r.run_cpu);
      startup.push_back(r.startup);
      us.push_back(r.steady_us);
    }
    c.create = median(create);
    c.wall = median(wall);
    c.cpu = median(cpu);
    c.startup = median(startup);
    c.us = median(us);
  }

  // ---- table
  std::printf("\n%-18s %-20s %8s %9s %6s %7s %5s %4s %8s %8s %8s %8s %8s %9s %7s %10s  %s\n", "integrator", "rod", "nodes",
              "compile[s]", "steps", "newton", "it/st", "rej", "wall[s]", "cpu[s]", "start[s]", "us/step", "steps/s",
              "us/st(cpu)", "ratio", "ratio(cpu)", "status");
  for (const auto& c : cases) {
    const RunResult& r = c.runs.front();  // the step counts are the same in every run
    const Case* ref = nullptr;
    for (const auto& o : cases)
      if (o.integ_label == c.integ_label && o.rod == 0) ref = &o;
    if (!ref) ref = &c;
    const long steps = r.sum.steps;
    bool ok = true;
    for (const auto& x : c.runs) ok = ok && x.ok;
    const double usCpu = steps > 0 ? 1e6 * c.cpu / steps : 0;
    std::printf("%-18s %-20s %8zu %9.4f %6ld %7ld %5.2f %4ld %8.3f %8.3f %8.4f %8.2f %8.0f %9.2f %7.3f %10.3f  %s\n",
                c.integ_label.c_str(), rods[c.rod].label.c_str(), rods[c.rod].data->coords.size(), c.create, steps,
                r.sum.newton_iterations, steps > 0 ? double(r.sum.newton_iterations) / steps : 0.0, r.sum.failures,
                c.wall, c.cpu, c.startup, c.us, c.wall > 0 ? steps / c.wall : 0.0, usCpu,
                ref->us > 0 ? c.us / ref->us : 0.0, ref->cpu > 0 && steps > 0 ? usCpu / (1e6 * ref->cpu / ref->runs.front().sum.steps) : 0.0,
                ok ? "ok" : "FAILED");
    if (!ok)
      for (const auto& x : c.runs)
        if (!x.ok) std::printf("    -> %s\n", x.message.c_str());
  }
  std::printf(
      "\ncompile = Simulation::create (System::compile: mode subset, rf node selection by point, sensor set);\n"
      "wall/cpu = Simulation::run (initial conditions, steps, 2 samples); start = wall up to the first 50-step\n"
      "progress report minus those 50 steps; us/step = between the first and the last progress report (no start-up);\n"
      "steps/s = steps / wall; us/st(cpu) = cpu / steps (start-up included); ratio = us/step / us/step of\n"
      "%s with the same integrator; ratio(cpu) the same with us/st(cpu).\n",
      rods[0].label.c_str());

  // ---- per-run spread and the end state (the same physics on every mesh)
  std::printf("\nper run (us/step; wall [s]) and the state at t_end (the same in every run):\n");
  for (const auto& c : cases) {
    std::string spread;
    for (const auto& r : c.runs) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s%.2f; %.3f", spread.empty() ? "" : " | ", r.steady_us, r.run_wall);
      spread += buf;
    }
    const RunResult& r = c.runs[c.runs.size() / 2];
    std::printf("  %-18s %-20s %s\n      slider x = %.9f m, |rod mid deflection| / chord = %.4e, total energy = %.6g J\n",
                c.integ_label.c_str(), rods[c.rod].label.c_str(), spread.c_str(), r.slider_x, r.deflection, r.energy);
  }
  std::printf("\nvirtual-body placement (System::compile):\n");
  for (size_t i = 0; i < rods.size(); ++i)
    for (const auto& c : cases)
      if (c.rod == static_cast<int>(i)) {
        std::printf("  %s:\n%s", rods[i].label.c_str(), c.runs.front().placement.c_str());
        break;
      }
  std::printf("\nload average at end: %s; peak RSS %.0f MB\n", loadAverage().c_str(), peakRssMb());

  // a benchmark, not a test: the exit code only says whether every case ran to its end
  return allOk ? 0 : 1;
}
