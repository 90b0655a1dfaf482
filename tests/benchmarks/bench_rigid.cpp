// Rigid-body performance figures (not a pass/fail test): builds models in code, runs them
// through the public Simulation API and prints a table.
//
//   bench_rigid           full set (slider-crank 1 s with gen-alpha and IDA, chains N = 10/100/1000)
//   bench_rigid --quick   short versions of the same cases (smoke check, well under a second)
//   bench_rigid --adaptive  only (c): the 1000-link chain, fixed against adaptive step (~1 min)
//   bench_rigid --help    other options (--repeat, --only, --chain N T_END)
//
// Results and analysis: docs/benchmarks.md.
#include "core/run/simulation.h"
#include "machine_info.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace flexim;

using namespace flexim::bench;

namespace {

/// Keeps the last sample only (so the output path is exercised but memory stays flat).
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

Mat3 slenderRodInertia(double m, double L, double radius) {
  // rod along body x; a thin cylinder, so the axial moment is small but positive
  Mat3 J = Mat3::Zero();
  J(0, 0) = 0.5 * m * radius * radius;
  J(1, 1) = J(2, 2) = m * L * L / 12.0 + m * radius * radius / 4.0;
  return J;
}

/// Quaternion turning the marker z axis onto `z` (marker x goes to `x`).
Quat frameFromAxes(const Vec3& x, const Vec3& z) {
  Mat3 R;
  R.col(0) = x.normalized();
  R.col(2) = z.normalized();
  R.col(1) = R.col(2).cross(R.col(0));
  return Quat(R);
}

// ---- models -----------------------------------------------------------------------------

constexpr double kCrank = 0.15, kRod = 0.3, kOmega = 150.0;

/// Slider-crank at the top dead centre (crank along +x), crank driven at 150 rad/s about z.
/// Non-redundant: revolute O (5) + driver (1), spherical crank-rod (3), universal rod-slider (4),
/// prismatic ground-slider (5) = 18 rows for 3 bodies -> 0 DOF.
ModelSpec sliderCrank(IntegratorType integ, double t_end, double h, double output_interval) {
  ModelSpec m;
  m.name = "slider_crank_rigid_bench";
  m.gravity = Vec3::Zero();
  const double mRod = 0.066756, mSlider = 0.033378, mCrank = 0.038;  // crank mass: irrelevant (driven)

  m.ground_markers.push_back({"O", Vec3::Zero(), Quat::Identity()});
  m.ground_markers.push_back({"rail", Vec3(kCrank + kRod, 0, 0), frameFromAxes(Vec3::UnitY(), Vec3::UnitX())});

  RigidBodySpec crank;
  crank.name = "crank";
  crank.mass = mCrank;
  crank.inertia = slenderRodInertia(mCrank, kCrank, 0.005);
  crank.position = Vec3(kCrank / 2, 0, 0);
  crank.angular_velocity = Vec3(0, 0, kOmega);
  crank.velocity = Vec3(0, kOmega * kCrank / 2, 0);
  crank.markers.push_back({"O", Vec3(-kCrank / 2, 0, 0), Quat::Identity()});
  crank.markers.push_back({"A", Vec3(kCrank / 2, 0, 0), Quat::Identity()});
  m.bodies.push_back(crank);

  // at the dead centre the slider is at rest and the rod turns at -omega * crank / rod
  RigidBodySpec rod;
  rod.name = "rod";
  rod.mass = mRod;
  rod.inertia = slenderRodInertia(mRod, kRod, 0.005);
  rod.position = Vec3(kCrank + kRod / 2, 0, 0);
  rod.angular_velocity = Vec3(0, 0, -kOmega * kCrank / kRod);
  rod.velocity = Vec3(0, kOmega * kCrank / 2, 0);
  rod.markers.push_back({"A", Vec3(-kRod / 2, 0, 0), Quat::Identity()});
  rod.markers.push_back({"B", Vec3(kRod / 2, 0, 0), Quat::Identity()});  // z = global z
  m.bodies.push_back(rod);

  RigidBodySpec slider;
  slider.name = "slider";
  slider.mass = mSlider;
  const double a = 0.02;  // cube side [m]
  slider.inertia = Mat3::Identity() * (mSlider * a * a / 6.0);
  slider.position = Vec3(kCrank + kRod, 0, 0);
  slider.markers.push_back({"B", Vec3::Zero(), frameFromAxes(Vec3::UnitZ(), Vec3::UnitY())});  // z = global y
  slider.markers.push_back({"rail", Vec3::Zero(), frameFromAxes(Vec3::UnitY(), Vec3::UnitX())});  // z = global x
  m.bodies.push_back(slider);

  m.joints.push_back({"O", JointType::Revolute, "ground", "O", "crank", "O"});
  m.joints.push_back({"A", JointType::Spherical, "crank", "A", "rod", "A"});
  m.joints.push_back({"B", JointType::Universal, "rod", "B", "slider", "B"});
  m.joints.push_back({"rail", JointType::Prismatic, "ground", "rail", "slider", "rail"});

  TimeFunctionSpec speed;
  speed.type = TimeFunctionSpec::Type::ConstantSpeed;
  speed.initial = 0.0;
  speed.speed = kOmega;
  const DriverSpec motor{"motor", "O", DriverSpec::Coordinate::Rotation, speed};
  m.drivers.push_back(motor);

  m.sensors.push_back({"slider", SensorSpec::Type::Marker, "slider", "B", "", SensorSpec::Frame::Global, {"position", "velocity"}});

  m.solver.t_end = t_end;
  m.solver.step = h;
  m.solver.output_interval = output_interval;
  m.solver.integrator = integ;
  m.solver.rtol = 1e-8;
  m.solver.atol = 1e-10;
  return m;
}

double sliderExactX(double t) {
  const double th = kOmega * t, s = kCrank * std::sin(th);
  return kCrank * std::cos(th) + std::sqrt(kRod * kRod - s * s);
}

/// "prefix<i>" (formatted in a buffer: GCC 12 warns falsely (-Wrestrict) on short literal + string)
std::string numbered(const char* prefix, int i) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%d", prefix, i);
  return std::string(buf);
}

/// N slender links (0.1 m, 0.1 kg) in a row along +x, spherical joints, first one to ground.
ModelSpec chain(int n, double t_end, double h, double output_interval) {
  ModelSpec m;
  m.name = numbered("chain_", n);
  m.gravity = Vec3(0, 0, -9.81);
  const double L = 0.1, mass = 0.1;
  m.ground_markers.push_back({"pivot", Vec3::Zero(), Quat::Identity()});
  m.bodies.reserve(n);
  for (int i = 0; i < n; ++i) {
    RigidBodySpec b;
    b.name = numbered("link", i);
    b.mass = mass;
    b.inertia = slenderRodInertia(mass, L, 0.005);
    b.position = Vec3(L * (i + 0.5), 0, 0);
    b.markers.push_back({"a", Vec3(-L / 2, 0, 0), Quat::Identity()});
    b.markers.push_back({"b", Vec3(L / 2, 0, 0), Quat::Identity()});
    m.bodies.push_back(std::move(b));
  }
  for (int i = 0; i < n; ++i) {
    const std::string prev = i == 0 ? std::string(kGroundName) : m.bodies[i - 1].name;
    m.joints.push_back({numbered("s", i), JointType::Spherical, prev, i == 0 ? "pivot" : "b", m.bodies[i].name, "a"});
  }
  m.sensors.push_back({"energy", SensorSpec::Type::Energy, "", "", "", SensorSpec::Frame::Global, {"total"}});
  m.sensors.push_back({"tip", SensorSpec::Type::Marker, m.bodies.back().name, "b", "", SensorSpec::Frame::Global, {"position"}});

  m.solver.t_end = t_end;
  m.solver.step = h;
  m.solver.output_interval = output_interval;
  m.solver.integrator = IntegratorType::GeneralizedAlpha;
  return m;
}

// ---- running ------------------------------------------------------------------------------

using Clock = std::chrono::steady_clock;

double threadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

struct Result {
  bool ok = false;
  std::string message;
  RunSummary sum;
  double create_time = 0;  ///< Simulation::create (compile) [s]
  double cpu_time = 0;     ///< thread CPU time of Simulation::run [s]
  double steady_rate = 0;  ///< steps/s between the first and the last progress report (no start-up)
  double steady_cpu_per_second = 0;  ///< thread CPU per simulated second between those reports
  LastSampleSink sink;
};

/// One run. Simulation::run reports progress every 50 steps (plus once at the end); the wall
/// times of those reports give the steady stepping rate without the start-up (assembly,
/// symbolic analysis, first factorisation).
void runOnce(const ModelSpec& m, Result& r) {
  const auto t0 = Clock::now();
  Diagnostics diag;
  auto sim = Simulation::create(m, diag);
  r.create_time = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!sim) {
    r.message = "model rejected: " + diag.str();
    return;
  }
  std::vector<double> reports, cpus, times;
  reports.reserve(1024);
  cpus.reserve(1024);
  times.reserve(1024);
  RunOptions opts;
  opts.progress = [&](double t, double) {
    reports.push_back(std::chrono::duration<double>(Clock::now().time_since_epoch()).count());
    cpus.push_back(threadCpuSeconds());
    times.push_back(t);
  };
  const double c0 = threadCpuSeconds();
  r.sum = sim->run({&r.sink}, opts);
  r.cpu_time = threadCpuSeconds() - c0;
  r.ok = r.sum.ok;
  if (!r.ok) r.message = r.sum.message;
  if (reports.size() >= 3) {  // drop the final report (it follows the end of the loop, not 50 steps)
    const double span = reports[reports.size() - 2] - reports.front();
    if (span > 0) r.steady_rate = 50.0 * (reports.size() - 2) / span;
  }
  // from the first report to the final one (the end of the stepping loop)
  if (times.size() >= 2 && times.back() > times.front())
    r.steady_cpu_per_second = (cpus.back() - cpus.front()) / (times.back() - times.front());
}

/// Best (smallest wall time) of `repeat` runs: the least disturbed by other processes.
void runBest(const ModelSpec& m, int repeat, Result& best) {
  for (int i = 0; i < repeat; ++i) {
    Result r;
    runOnce(m, r);
    if (i == 0 || !r.ok || (best.ok && r.sum.wall_time < best.sum.wall_time)) {
      best.ok = r.ok;
      best.message = r.message;
      best.sum = r.sum;
      best.create_time = r.create_time;
      best.cpu_time = r.cpu_time;
      best.steady_rate = r.steady_rate;
      best.steady_cpu_per_second = r.steady_cpu_per_second;
      best.sink = r.sink;
    }
    if (!r.ok) return;
  }
}

void header() {
  std::printf("%-32s %5s %6s %6s %6s %6s %7s %5s %4s %6s %7s %7s %8s %8s %8s %7s %8s  %s\n", "case", "bodies",
              "t_end", "h", "out", "steps", "newton", "it/st", "rej", "samples", "wall[s]", "cpu[s]", "steps/s",
              "steady/s", "st/cpu-s", "start[s]", "us/st/bd", "status");
}

void printRow(const char* label, const ModelSpec& m, const Result& r, int bodies) {
  const auto& s = r.sum;
  const double sps = s.wall_time > 0 ? s.steps / s.wall_time : 0;
  const double steady = r.steady_rate > 0 ? r.steady_rate : sps;
  const double startup = steady > 0 ? std::max(0.0, s.wall_time - s.steps / steady) : 0;
  const double usPerStepBody = steady > 0 ? 1e6 / steady / bodies : 0;
  const double itPerStep = s.steps > 0 ? double(s.newton_iterations) / s.steps : 0;
  const double perCpu = r.cpu_time > 0 ? s.steps / r.cpu_time : 0;
  std::printf("%-32s %5d %6.3g %6.0e %6.0e %6ld %7ld %5.2f %4ld %6ld %7.3f %7.3f %8.0f %8.0f %8.0f %7.3f %8.2f  %s\n",
              label, bodies, m.solver.t_end, m.solver.step, m.solver.output_interval, s.steps, s.newton_iterations,
              itPerStep, s.failures, s.samples, s.wall_time, r.cpu_time, sps, steady, perCpu, startup, usPerStepBody,
              r.ok ? "ok" : "FAILED");
  if (!r.ok) std::printf("    -> %s\n", r.message.c_str());
}

void usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--quick] [--adaptive] [--repeat N] [--only TEXT] [--chain N T_END]\n"
               "  --quick          shortened cases (smoke check)\n"
               "  --adaptive       only (c): chain N = 1000 for 1 s, fixed steps against adaptive ones\n"
               "  --repeat N       runs per case, the fastest is reported (default 3, 1 with --quick)\n"
               "  --only TEXT      only the cases whose label contains TEXT, e.g. \"IDA out=h\", \"N=1000\"\n"
               "  --chain N T_END  only the N-link chain to T_END (e.g. under a profiler)\n",
               argv0);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, adaptiveOnly = false;
  int repeat = -1, onlyChain = 0;
  double onlyChainEnd = 0;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      usage(argv[0]);
      return 0;
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--adaptive") == 0) {
      adaptiveOnly = true;
    } else if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else if (std::strcmp(argv[i], "--chain") == 0 && i + 2 < argc) {
      onlyChain = std::atoi(argv[++i]);
      onlyChainEnd = std::atof(argv[++i]);
      if (onlyChain < 1 || !(onlyChainEnd > 0)) {
        usage(argv[0]);
        return 2;
      }
    } else {
      usage(argv[0]);
      return 2;
    }
  }
  if (repeat < 0) repeat = quick || onlyChain ? 1 : 3;

  std::printf("Flexim rigid-body benchmark%s\n", quick ? " (--quick: shortened cases)" : "");
  std::printf("date: %s\n", now().c_str());
  std::printf("machine: %u hardware threads (nproc), CPU: %s, load average at start: %s\n",
              std::thread::hardware_concurrency(), cpuModel().c_str(), loadAverage().c_str());
#ifdef NDEBUG
  std::printf("build: NDEBUG (optimised)\n");
#else
  std::printf("build: assertions on (not a Release build -- figures are not representative)\n");
#endif
  std::printf(
      "single-threaded; best of %d run(s) per case. wall/cpu = Simulation::run (start-up + steps + output);\n"
      "steps/s = steps / wall; steady/s = rate between progress reports (no start-up); st/cpu-s = steps / cpu\n"
      "(less sensitive to other processes); start = wall - steps/steady; us/st/bd = 1e6 / steady / bodies\n\n",
      repeat);

  bool allOk = true;

  auto selected = [&](const std::string& label) { return label.find(only) != std::string::npos; };

  // (a) slider-crank
  if (!onlyChain && !adaptiveOnly) {
    const double tEnd = quick ? 0.01 : 1.0, h = 1e-4;
    bool titled = false;
    struct Case {
      const char* label;
      IntegratorType integ;
      double out;
    };
    const Case cases[] = {
        {"slider-crank gen-alpha out=1e-2", IntegratorType::GeneralizedAlpha, 1e-2},
        {"slider-crank gen-alpha out=h", IntegratorType::GeneralizedAlpha, h},
        {"slider-crank IDA out=1e-2", IntegratorType::Ida, 1e-2},
        {"slider-crank IDA out=h", IntegratorType::Ida, h},
    };
    std::vector<std::string> checks;
    for (const auto& c : cases) {
      if (!selected(c.label)) continue;
      if (!titled) {
        std::printf("(a) rigid slider-crank, crank %.2f m at %.0f rad/s, rod %.2f m, no gravity\n", kCrank, kOmega, kRod);
        header();
        titled = true;
      }
      const ModelSpec m = sliderCrank(c.integ, tEnd, h, c.out);
      Result r;
      runBest(m, repeat, r);
      printRow(c.label, m, r, 3);
      allOk = allOk && r.ok;
      if (r.ok) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "    %-32s slider x(t=%g) error vs closed form: %.2e m", c.label, r.sum.t_reached,
                      std::abs(r.sink.value("slider.position.x") - sliderExactX(r.sum.t_reached)));
        checks.push_back(buf);
      }
    }
    for (const auto& s : checks) std::printf("%s\n", s.c_str());
    if (titled) std::printf("\n");
  }

  // (b) hanging chains
  if (!adaptiveOnly) {
    bool titled = false;
    struct Case {
      int n;
      double tEnd;
    };
    std::vector<Case> cases = quick ? std::vector<Case>{{10, 0.05}, {100, 0.02}, {1000, 0.002}}
                                    : std::vector<Case>{{10, 1.0}, {100, 1.0}, {1000, 0.5}};
    if (onlyChain) cases = {{onlyChain, onlyChainEnd}};
    std::vector<std::string> notes;
    for (const auto& c : cases) {
      char label[64];
      std::snprintf(label, sizeof label, "chain N=%d gen-alpha", c.n);
      if (!selected(label)) continue;
      const double h = 1e-3, out = std::min(0.1, c.tEnd);
      const ModelSpec m = chain(c.n, c.tEnd, h, out);
      if (!titled) {
        std::printf("(b) chain of N rigid links (0.1 m, 0.1 kg, spherical joints) released from horizontal, g = -9.81 z\n");
        header();
        titled = true;
      }
      Result r;
      runBest(m, repeat, r);
      printRow(label, m, r, c.n);
      allOk = allOk && r.ok;
      char buf[256];
      std::snprintf(buf, sizeof buf, "    %-24s compile %.3f s; tip z(t=%g) = %.4f m; total energy at end %.4g J (0 at start)", label,
                    r.create_time, r.sum.t_reached, r.sink.value("tip.position.z"), r.sink.value("energy.total.value"));
      notes.push_back(buf);
      if (c.n == 1000 && r.ok && r.sum.wall_time > 0 && !quick) {
        const double sps = r.sum.steps / r.sum.wall_time, steady = r.steady_rate > 0 ? r.steady_rate : sps;
        std::snprintf(buf, sizeof buf,
                      "    target: 1000-body chain >= 200 steps/s on one core -> %.0f steps/s overall, "
                      "%.0f steady: %s",
                      sps, steady, sps >= 200 ? "MET" : "NOT MET");
        notes.push_back(buf);
      }
    }
    for (const auto& s : notes) std::printf("%s\n", s.c_str());
  }

  // (c) the 1000-link chain for 1 s: fixed steps against the adaptive step, as time
  // per simulated second against the energy error at the end (the chain is conservative: its
  // total energy stays 0 but for the integrator's error and rho_inf's numerical dissipation)
  if (!onlyChain && (adaptiveOnly || !quick)) {
    const int n = quick ? 100 : 1000;
    const double tEnd = quick ? 0.05 : 1.0;
    struct Case {
      const char* label;
      StepControl control;
      double setting;  // h (fixed) or rtol (adaptive, atol = rtol)
    };
    const Case cases[] = {
        {"fixed h=1e-3", StepControl::Fixed, 1e-3},        {"fixed h=2e-3", StepControl::Fixed, 2e-3},
        {"fixed h=5e-3", StepControl::Fixed, 5e-3},        {"adaptive rtol=1e-2", StepControl::Adaptive, 1e-2},
        {"adaptive rtol=1e-3", StepControl::Adaptive, 1e-3}, {"adaptive rtol=1e-4", StepControl::Adaptive, 1e-4},
        {"adaptive rtol=1e-5", StepControl::Adaptive, 1e-5},
    };
    std::printf("\n(c) chain N=%d, %g s, gen-alpha rho_inf 0.8: fixed step against adaptive step (atol = rtol, no step limit)\n",
                n, tEnd);
    std::printf("cpu/sim-s: thread CPU per simulated second of the stepping (between the first progress report,\n"
                "after 50 steps, and the end: no start-up); start[s]: cpu less cpu/sim-s x t_end (initial\n"
                "conditions, constraint rank check, first factorisation; compile excluded)\n");
    std::printf("%-22s %6s %4s %7s %5s %8s %8s %10s %8s %11s %10s  %s\n", "case", "steps", "rej", "newton", "it/st",
                "cpu[s]", "wall[s]", "cpu/sim-s", "start[s]", "|E(end)|[J]", "tip z[m]", "status");
    for (const auto& c : cases) {
      if (!selected(c.label)) continue;
      ModelSpec m = chain(n, tEnd, c.control == StepControl::Fixed ? c.setting : 0.0, 0.1);
      m.solver.step_control = c.control;
      if (c.control == StepControl::Adaptive) m.solver.rtol = m.solver.atol = c.setting;
      Result r;
      runBest(m, repeat, r);
      const auto& s = r.sum;
      const double stepping = r.steady_cpu_per_second * s.t_reached;
      const double startup = std::max(0.0, r.cpu_time - stepping);
      std::printf("%-22s %6ld %4ld %7ld %5.2f %8.3f %8.3f %10.3f %8.3f %11.2e %10.4f  %s\n", c.label, s.steps, s.failures,
                  s.newton_iterations, s.steps ? double(s.newton_iterations) / s.steps : 0.0, r.cpu_time, s.wall_time,
                  r.steady_cpu_per_second, startup, std::abs(r.sink.value("energy.total.value")),
                  r.sink.value("tip.position.z"), r.ok ? "ok" : "FAILED");
      if (!r.ok) std::printf("    -> %s\n", r.message.c_str());
      allOk = allOk && r.ok;
    }
  }

  // a benchmark, not a test: the exit code only says whether every case ran to its end
  return allOk ? 0 : 1;
}
