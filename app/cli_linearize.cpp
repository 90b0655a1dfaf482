// flexim-cli linearize: the model's linearized equations about its static equilibrium and its
// modes (Simulation::linearize, core/run/linearization.h): a table of frequencies and damping
// ratios, a CSV of them, and the reduced matrices as MatrixMarket files.
#include "app/cli_common.h"
#include "core/run/linearization.h"
#include "io/model_json.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

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

}  // namespace

int linearizeCommand(const std::vector<std::string>& args) {
  std::string modelPath, outPath, matrices;
  LinearizeOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "--out" || a == "--matrices" || a == "--load-steps") && i + 1 >= args.size())
      return fail(a + " needs a value");
    if (a == "--out") {
      outPath = args[++i];
    } else if (a == "--matrices") {
      matrices = args[++i];
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
  ModelSpec model;
  if (!loadModel(modelPath, model)) return fail("cannot load model '" + modelPath + "'");
  auto sim = compile(model, modelPath);
  if (!sim) return 1;
  if (outPath.empty()) outPath = "results/" + std::filesystem::path(modelPath).stem().string() + "_modes.csv";

  std::printf("linearization of %s about its static equilibrium (%d load levels)\n", modelPath.c_str(),
              options.statics.load_steps);
  std::fflush(stdout);
  const LinearizationResult r = sim->linearize(options);
  if (!r.ok) return fail(r.message);
  std::printf("  %d degrees of freedom, %zu modes\n", int(r.N.cols()), r.modes.size());
  std::printf("  %4s  %14s  %14s  %12s\n", "mode", "frequency [Hz]", "omega [rad/s]", "damping ratio");
  for (std::size_t i = 0; i < r.modes.size(); ++i)
    std::printf("  %4zu  %14.6g  %14.6g  %12.4g\n", i + 1, r.modes[i].frequency, r.modes[i].omega,
                r.modes[i].damping_ratio);

  std::error_code ec;
  if (const auto parent = std::filesystem::path(outPath).parent_path(); !parent.empty())
    std::filesystem::create_directories(parent, ec);
  std::ofstream csv(outPath);
  if (!csv) return fail("cannot write '" + outPath + "'");
  csv.precision(12);
  csv << "# linearization of " << modelPath << " about its static equilibrium\n";
  csv << "mode,frequency [Hz],angular_frequency [rad/s],damping_ratio [-],eigenvalue_real [1/s],eigenvalue_imag [rad/s]\n";
  for (std::size_t i = 0; i < r.modes.size(); ++i) {
    const LinearMode& m = r.modes[i];
    csv << i + 1 << "," << m.frequency << "," << m.omega << "," << m.damping_ratio << "," << m.eigenvalue.real() << ","
        << m.eigenvalue.imag() << "\n";
  }
  if (!csv) return fail("cannot write '" + outPath + "'");
  std::printf("modes: %s\n", outPath.c_str());

  if (!matrices.empty()) {
    std::filesystem::create_directories(matrices, ec);
    const std::pair<const char*, const MatX*> files[] = {
        {"M.mtx", &r.M}, {"K.mtx", &r.K}, {"D.mtx", &r.D}, {"A.mtx", &r.A}, {"N.mtx", &r.N}};
    const char* comments[] = {"reduced mass matrix N^T M N", "reduced tangent stiffness N^T K N (geometric part included)",
                              "reduced damping matrix N^T D N", "state matrix [0 I; -M^-1 K, -M^-1 D] over [y, y_dot]",
                              "velocities of the independent motions: v = N y (System velocity coordinates)"};
    for (std::size_t k = 0; k < 5; ++k) {
      const std::string path = (std::filesystem::path(matrices) / files[k].first).string();
      if (!writeMatrixMarket(path, *files[k].second, comments[k])) return fail("cannot write '" + path + "'");
    }
    std::printf("matrices: %s/{M,K,D,A,N}.mtx\n", matrices.c_str());
  }
  return 0;
}

}  // namespace flexim::cli
