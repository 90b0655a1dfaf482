// Tolerance study on Andrews' squeezing mechanism (not a pass/fail test): runs the model
// with IDA at rtol 1e-4 ... 1e-10, with generalized-alpha at h = 1e-2 ... 1e-5 s and with adaptive
// generalized-alpha ("ga-adapt", atol = F x rtol like IDA, no step limit) at rtol 1e-4 ... 1e-8 and prints, for
// each run, how it ended and its error at t = 0.03 s against the published solution of the IVP
// test set (tests/core/mechanism_references.h; our own solve, tests/reference/andrews_reference.py,
// agrees with it to 1.4e-9 rad; column "vs ours"). The error is the largest of the seven angles'
// errors [rad].
//
//   bench_tolerance                 the revolute model (resources/examples/andrews_squeezer.json)
//                                   and its non-redundant substitute (tests/core/data/closed_loop/)
//   bench_tolerance --model FILE    another Andrews model file (same bodies in the same order)
//   bench_tolerance --atol-factor F atol = F x rtol (default 1e-2)
//   bench_tolerance --hmax H        IDA's largest step (default 0: no limit)
//   bench_tolerance --rho-inf R     generalized-alpha's spectral radius at infinity (default: the file's)
//   bench_tolerance --quick         rtol 1e-6 and h = 1e-4 only (smoke check)
//
// A run that fails is listed with the time it reached and the solver's message. A run that ends
// "ok" far from the reference is a silent wrong answer; the run-quality checks turn the
// worst of them into "warning".
#include "../core/mechanism_references.h"
#include "io/model_json.h"
#include "machine_info.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace flexim;

namespace {

class KeepAll : public ResultSink {
 public:
  std::vector<Sample> samples;
  void sample(const Sample& s) override { samples.push_back(s); }
};

struct Options {
  std::vector<std::string> models;
  double atolFactor = 1e-2;
  double hmax = 0;
  double rhoInf = -1;
  bool quick = false;
};

void runOne(const ModelSpec& base, const char* integrator, double setting, const Options& o) {
  ModelSpec m = base;
  if (std::strcmp(integrator, "ida") == 0) {
    m.solver.integrator = IntegratorType::Ida;
    m.solver.rtol = setting;
    m.solver.atol = setting * o.atolFactor;
    m.solver.step = o.hmax;
  } else if (std::strcmp(integrator, "ga-adapt") == 0) {
    m.solver.integrator = IntegratorType::GeneralizedAlpha;
    m.solver.step_control = StepControl::Adaptive;
    m.solver.rtol = setting;
    m.solver.atol = setting * o.atolFactor;
    m.solver.step = o.hmax;
    if (o.rhoInf >= 0) m.solver.rho_inf = o.rhoInf;
  } else {
    m.solver.integrator = IntegratorType::GeneralizedAlpha;
    m.solver.step = setting;
    if (o.rhoInf >= 0) m.solver.rho_inf = o.rhoInf;
  }
  KeepAll sink;
  RunSummary sum;
  const auto start = std::chrono::steady_clock::now();
  Diagnostics diag;
  auto sim = Simulation::create(m, diag);
  if (sim)
    sum = sim->run({&sink});
  else
    sum.message = "model rejected: " + diag.str();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string error = "-", ours = "-";
  const bool reached = !sink.samples.empty() && std::abs(sink.samples.back().t - 0.03) < 1e-12;
  if (reached) {
    const auto q = test::andrewsAngles(test::unwrappedBodyAngles(sink.samples).back());
    double e = 0, e2 = 0;
    for (size_t i = 0; i < q.size(); ++i) {
      e = std::max(e, std::abs(q[i] - test::kAndrewsPublished[i]));
      e2 = std::max(e2, std::abs(q[i] - test::kAndrewsIndependent[i]));
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2e", e);
    error = buf;
    std::snprintf(buf, sizeof buf, "%.2e", e2);
    ours = buf;
  }
  std::string message = sum.ok ? "" : sum.message;
  for (char& c : message)
    if (c == '\n') c = ' ';
  if (message.size() > 300) message = message.substr(0, 297) + "...";
  std::printf("%-9s %8.0e  %-6s %9.6f %7ld %6ld  %9s %9s %8.3f  %s\n", integrator, setting, sum.status(),
              sum.t_reached, sum.steps, sum.failures, error.c_str(), ours.c_str(), wall, message.c_str());
  std::fflush(stdout);
}

int usage(const char* argv0, int code) {
  std::fprintf(code ? stderr : stdout,
               "usage: %s [--model FILE]... [--atol-factor F] [--hmax H] [--rho-inf R] [--quick]\n", argv0);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool more = i + 1 < argc;
    if (a == "--model" && more)
      o.models.push_back(argv[++i]);
    else if (a == "--atol-factor" && more)
      o.atolFactor = std::atof(argv[++i]);
    else if (a == "--hmax" && more)
      o.hmax = std::atof(argv[++i]);
    else if (a == "--rho-inf" && more)
      o.rhoInf = std::atof(argv[++i]);
    else if (a == "--quick")
      o.quick = true;
    else if (a == "--help" || a == "-h")
      return usage(argv[0], 0);
    else
      return usage(argv[0], 2);
  }
  if (o.models.empty())
    o.models = {std::string(FLEXIM_SOURCE_DIR) + "/resources/examples/andrews_squeezer.json",
                std::string(FLEXIM_SOURCE_DIR) + "/tests/core/data/closed_loop/andrews_squeezer_nonredundant.json"};
  std::printf("Andrews' squeezing mechanism: error at t = 0.03 s vs the published solution (max over 7 angles)\n");
  std::printf("machine: %s, load %s\n", bench::cpuModel().c_str(), bench::loadAverage().c_str());
  std::printf("IDA and adaptive gen-alpha (ga-adapt): atol = %g x rtol, hmax %g (0: none)\n", o.atolFactor, o.hmax);
  int loaded = 0;
  for (const auto& file : o.models) {
    ModelSpec m;
    Diagnostics diag;
    if (!io::loadModelFile(file, m, diag)) {
      std::fprintf(stderr, "%s: %s\n", file.c_str(), diag.str().c_str());
      continue;
    }
    ++loaded;
    std::printf("\n== %s\n", file.c_str());
    std::printf("%-9s %8s  %-6s %9s %7s %6s  %9s %9s %8s  %s\n", "method", "rtol/h", "end", "t [s]", "steps", "rej.",
                "error", "vs ours", "wall [s]", "message");
    const std::vector<double> rtols = o.quick ? std::vector<double>{1e-6}
                                              : std::vector<double>{1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
    const std::vector<double> steps = o.quick ? std::vector<double>{1e-4} : std::vector<double>{1e-2, 1e-3, 1e-4, 1e-5};
    for (double r : rtols) runOne(m, "ida", r, o);
    for (double h : steps) runOne(m, "gen-alpha", h, o);
    const std::vector<double> adaptive = o.quick ? std::vector<double>{1e-5}
                                                 : std::vector<double>{1e-4, 1e-5, 1e-6, 1e-7, 1e-8};
    for (double r : adaptive) runOne(m, "ga-adapt", r, o);
  }
  return loaded == int(o.models.size()) ? 0 : 1;
}
