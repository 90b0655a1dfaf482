// flexim-cli linearize: the model's linearized equations about its static equilibrium or a state of
// a run, and its modes (Simulation::linearize, core/run/linearization.h): a table of frequencies
// and damping ratios, a CSV of them, the reduced and state-space matrices as MatrixMarket files,
// and frequency responses between chosen inputs and outputs.
#include "app/cli_common.h"
#include "core/run/linearization.h"
#include "io/model_json.h"

#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>

namespace flexim::cli {

namespace {

/// A dense matrix in the MatrixMarket array format (column by column).
bool writeMatrixMarket(const std::string& path, const MatX& m, const std::string& comment) {
  std::ofstream f(path);
  if (!f) return false;
  f << "%%MatrixMarket matrix array real general\n% " << comment << "\n" << m.rows() << " " << m.cols() << "\n";
  f.precision(17);
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) f << m(i, j) << "\n";
  return bool(f);
}

bool makeParent(const std::string& path) {
  std::error_code ec;
  if (const auto parent = std::filesystem::path(path).parent_path(); !parent.empty())
    std::filesystem::create_directories(parent, ec);
  return !ec;
}

/// The unit of a response: [output unit / input unit].
std::string responseUnit(const std::string& in, const std::string& out) {
  const bool moment = in.size() >= 3 && in[in.size() - 2] == 'm';
  const bool rotation = out.size() >= 3 && out[out.size() - 2] == 'r';
  return std::string(rotation ? "rad" : "m") + "/" + (moment ? "(N m)" : "N");
}

/// The frequency responses as a CSV: a row per frequency, magnitude and phase of each pair.
bool writeResponses(const std::string& path, const std::string& modelPath, const LinearizationResult& r,
                    const std::vector<std::pair<int, int>>& pairs, double f0, double f1, int count) {
  std::ofstream csv(path);
  if (!csv) return false;
  csv.precision(10);
  csv << "# frequency responses of " << modelPath << ", linearized\n";
  csv << "frequency [Hz]";
  for (const auto& [i, o] : pairs) {
    const std::string name = r.outputs[std::size_t(o)] + "/" + r.inputs[std::size_t(i)];
    csv << "," << name << " magnitude [" << responseUnit(r.inputs[std::size_t(i)], r.outputs[std::size_t(o)]) << "],"
        << name << " phase [deg]";
  }
  csv << "\n";
  for (int k = 0; k < count; ++k) {
    const double f = count == 1 ? f0 : f0 * std::pow(f1 / f0, double(k) / (count - 1));
    const Eigen::MatrixXcd h = frequencyResponse(r, 2 * std::numbers::pi * f);
    csv << f;
    for (const auto& [i, o] : pairs) {
      const std::complex<double> v = h(o, i);
      csv << "," << std::abs(v) << "," << std::arg(v) * 180 / std::numbers::pi;
    }
    csv << "\n";
  }
  return bool(csv);
}

}  // namespace

int linearizeCommand(const std::vector<std::string>& args) {
  std::string modelPath, outPath, matrices, frfPath, freq;
  std::vector<std::string> frf;
  LinearizeOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "--out" || a == "--matrices" || a == "--load-steps" || a == "--at" || a == "--frf" || a == "--freq" ||
         a == "--frf-out") &&
        i + 1 >= args.size())
      return fail(a + " needs a value");
    if (a == "--out") {
      outPath = args[++i];
    } else if (a == "--matrices") {
      matrices = args[++i];
    } else if (a == "--frf") {
      frf.push_back(args[++i]);
    } else if (a == "--freq") {
      freq = args[++i];
    } else if (a == "--frf-out") {
      frfPath = args[++i];
    } else if (a == "--at") {
      const std::string at = args[++i];
      double t = 0;
      if (at == "static") options.at_time = std::numeric_limits<double>::quiet_NaN();
      else if (parseNumber(at, t) && t >= 0) options.at_time = t;
      else return fail("--at " + at + ": expected 'static' or a time [s] of at least 0");
    } else if (a == "--load-steps") {
      double n = 0;
      if (!parseNumber(args[++i], n) || n < 1 || n > 100000 || n != std::floor(n))
        return fail("--load-steps " + args[i] + ": expected a whole number from 1 to 100000");
      options.statics.load_steps = int(n);
    } else if (const int error = takeModelArgument(a, modelPath)) {
      return error;
    }
  }
  if (modelPath.empty()) return fail("linearize needs a model file");
  // --frf IN:OUT pairs; each name once among the inputs and outputs
  std::vector<std::pair<int, int>> pairs;
  auto indexOf = [](std::vector<std::string>& names, const std::string& name) {
    for (std::size_t k = 0; k < names.size(); ++k)
      if (names[k] == name) return int(k);
    names.push_back(name);
    return int(names.size()) - 1;
  };
  for (const std::string& p : frf) {
    const std::size_t colon = p.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == p.size())
      return fail("--frf " + p + ": expected INPUT:OUTPUT, e.g. body.fz:body.z");
    pairs.emplace_back(indexOf(options.inputs, p.substr(0, colon)), indexOf(options.outputs, p.substr(colon + 1)));
  }
  double f0 = 0, f1 = 0, count = 0;
  if (!pairs.empty()) {
    const std::size_t c1 = freq.find(':'), c2 = freq.find(':', c1 == std::string::npos ? c1 : c1 + 1);
    if (freq.empty() || c1 == std::string::npos || c2 == std::string::npos || !parseNumber(freq.substr(0, c1), f0) ||
        !parseNumber(freq.substr(c1 + 1, c2 - c1 - 1), f1) || !parseNumber(freq.substr(c2 + 1), count) ||
        !(f0 > 0) || !(f1 >= f0) || count < 1 || count > 1e6 || count != std::floor(count))
      return fail("--freq " + freq + ": expected F0:F1:N with 0 < F0 <= F1 [Hz] and N from 1 to 1000000 points");
  } else if (!freq.empty()) {
    return fail("--freq needs at least one --frf INPUT:OUTPUT");
  }
  ModelSpec model;
  if (!loadModel(modelPath, model)) return fail("cannot load model '" + modelPath + "'");
  auto sim = compile(model, modelPath);
  if (!sim) return 1;
  const std::string stem = std::filesystem::path(modelPath).stem().string();
  if (outPath.empty()) outPath = "results/" + stem + "_modes.csv";
  if (frfPath.empty()) frfPath = "results/" + stem + "_frf.csv";

  const bool atRun = std::isfinite(options.at_time);
  char about[96];
  if (atRun) std::snprintf(about, sizeof about, "the state of a run at t = %g s", options.at_time);
  else std::snprintf(about, sizeof about, "its static equilibrium (%d load levels)", options.statics.load_steps);
  std::printf("linearization of %s about %s\n", modelPath.c_str(), about);
  std::fflush(stdout);
  const LinearizationResult r = sim->linearize(options);
  if (!r.ok) return fail(r.message);
  std::printf("  %d degrees of freedom, %zu modes\n", int(r.N.cols()), r.modes.size());
  std::printf("  %4s  %14s  %14s  %12s\n", "mode", "frequency [Hz]", "omega [rad/s]", "damping ratio");
  for (std::size_t i = 0; i < r.modes.size(); ++i) {
    const LinearMode& m = r.modes[i];
    char growth[64] = "";
    if (m.unstable()) std::snprintf(growth, sizeof growth, "  unstable: grows as exp(%.4g t)", m.eigenvalue.real());
    std::printf("  %4zu  %14.6g  %14.6g  %12.4g%s\n", i + 1, m.frequency, m.omega, m.damping_ratio, growth);
  }

  if (!makeParent(outPath)) return fail("cannot create the folder of '" + outPath + "'");
  std::ofstream csv(outPath);
  if (!csv) return fail("cannot write '" + outPath + "'");
  csv.precision(12);
  csv << "# linearization of " << modelPath << " about " << about << "\n";
  csv << "mode,frequency [Hz],angular_frequency [rad/s],damping_ratio [-],eigenvalue_real [1/s],eigenvalue_imag [rad/s]\n";
  for (std::size_t i = 0; i < r.modes.size(); ++i) {
    const LinearMode& m = r.modes[i];
    csv << i + 1 << "," << m.frequency << "," << m.omega << "," << m.damping_ratio << "," << m.eigenvalue.real() << ","
        << m.eigenvalue.imag() << "\n";
  }
  if (!csv) return fail("cannot write '" + outPath + "'");
  std::printf("modes: %s\n", outPath.c_str());

  if (!pairs.empty()) {
    if (!makeParent(frfPath) || !writeResponses(frfPath, modelPath, r, pairs, f0, f1, int(count)))
      return fail("cannot write '" + frfPath + "'");
    std::printf("frequency responses: %s (%d frequencies from %g to %g Hz)\n", frfPath.c_str(), int(count), f0, f1);
  }

  if (!matrices.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(matrices, ec);
    struct File {
      const char* name;
      const MatX* m;
      const char* comment;
    };
    std::vector<File> files = {
        {"M.mtx", &r.M, "reduced mass matrix N^T M N"},
        {"K.mtx", &r.K, "reduced tangent stiffness N^T K N (geometric part included)"},
        {"D.mtx", &r.D, "reduced damping matrix N^T D N"},
        {"A.mtx", &r.A, "state matrix [0 I; -M^-1 K, -M^-1 D] over [y, y_dot]"},
        {"N.mtx", &r.N, "velocities of the independent motions: v = N y (System velocity coordinates)"}};
    if (!pairs.empty()) {
      files.push_back({"B.mtx", &r.B, "input matrix [0; M^-1 N^T P] (inputs: --frf)"});
      files.push_back({"C.mtx", &r.C, "output matrix [Q N, 0] (outputs: --frf)"});
      files.push_back({"Dss.mtx", &r.Dss, "feedthrough matrix (zero: displacement outputs)"});
    }
    for (const File& f : files) {
      const std::string path = (std::filesystem::path(matrices) / f.name).string();
      if (!writeMatrixMarket(path, *f.m, f.comment)) return fail("cannot write '" + path + "'");
    }
    std::printf("matrices: %s/{M,K,D,A,N%s}.mtx\n", matrices.c_str(), pairs.empty() ? "" : ",B,C,Dss");
  }
  return 0;
}

}  // namespace flexim::cli
