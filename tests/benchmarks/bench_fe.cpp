// FE performance figures (not a pass/fail test): imports a solid mesh or deck, assembles K and
// the consistent M, computes the lowest free-free modes and prints the time and memory of each
// phase, then the frequency table.
//
//   bench_fe MESH [--modes 20] [--material E,nu,rho] [--shift S] [--tol T] [--block B] [--lumped]
//                 [--factor ORDERING]... [--quiet]
//
// MESH is anything importFe reads (.inp deck, .msh, .bdf). Without --material the deck's
// materials and sections are used. scripts/bench_fe.sh generates a ~100 000-node C3D10 mesh,
// runs this program and CalculiX on it and compares. Results and analysis: docs/benchmarks.md.
//
// Output: a header, one "key value" line per figure (import_s, nodes, ..., peak_rss_mb), then
// one CSV line per mode "mode,<n>,<f_Hz>,<lambda>,<rigid|elastic>".
#include "core/fe/assembly.h"
#include "machine_info.h"
#include "core/fe/modal.h"
#include "core/fe/sparse_block.h"
#include "io/fe/import.h"

#include <Eigen/CholmodSupport>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

using namespace flexim;

using namespace flexim::bench;

namespace {

using Clock = std::chrono::steady_clock;
using SpMat = Eigen::SparseMatrix<double>;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// User + system CPU time of the whole process (all threads) [s].
double processCpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + 1e-6 * ru.ru_utime.tv_usec + ru.ru_stime.tv_sec + 1e-6 * ru.ru_stime.tv_usec;
}

std::string firstLineOf(const char* file, const char* key) {
  std::ifstream f(file);
  std::string line;
  while (std::getline(f, line))
    if (line.rfind(key, 0) == 0) {
      const auto p = line.find(':');
      return p == std::string::npos ? line : line.substr(p + 2);
    }
  return "unknown";
}

/// The BLAS/LAPACK/CHOLMOD/METIS libraries mapped into this process (from /proc/self/maps): the
/// supernodal factorisation runs at the speed of the BLAS that the dynamic linker picked.
std::string linearAlgebraLibraries() {
  std::ifstream f("/proc/self/maps");
  std::string line, out;
  std::vector<std::string> seen;
  while (std::getline(f, line)) {
    const auto p = line.find('/');
    if (p == std::string::npos) continue;
    const std::string lib = line.substr(p);
    const std::string base = lib.substr(lib.rfind('/') + 1);
    if (base.find("blas") == std::string::npos && base.find("lapack") == std::string::npos &&
        base.find("cholmod") == std::string::npos && base.find("metis") == std::string::npos)
      continue;
    if (std::find(seen.begin(), seen.end(), lib) != seen.end()) continue;
    seen.push_back(lib);
    std::error_code ec;
    const auto real = std::filesystem::canonical(lib, ec);
    out += (out.empty() ? "" : ", ") + (ec ? lib : real.string());
  }
  return out.empty() ? "none found" : out;
}

const char* orderingName(int o) {
  switch (o) {
    case CHOLMOD_NATURAL: return "natural";
    case CHOLMOD_GIVEN: return "given";
    case CHOLMOD_AMD: return "AMD";
    case CHOLMOD_METIS: return "METIS";
    case CHOLMOD_NESDIS: return "NESDIS";
    case CHOLMOD_COLAMD: return "COLAMD";
    case CHOLMOD_POSTORDERED: return "postordered";
    default: return "?";
  }
}

/// Factorises K - sigma M the way freeModes does (Eigen's CholmodSupernodalLLT, lower triangle)
/// and reports CHOLMOD's choice and cost. ordering: "default" (CHOLMOD's own choice: AMD, then
/// METIS if AMD's fill is poor), "amd", "metis", "nesdis". Diagnostic only.
void factorStats(const SpMat& K, const SpMat& M, double sigma, const std::string& ordering) {
  const auto t0 = Clock::now();
  const SpMat A = K - sigma * M;
  const double tForm = since(t0);
  Eigen::CholmodSupernodalLLT<SpMat, Eigen::Lower> llt;
  cholmod_common& c = llt.cholmod();
  if (ordering != "default") {
    c.nmethods = 1;
    c.method[0].ordering = ordering == "amd"     ? CHOLMOD_AMD
                           : ordering == "metis" ? CHOLMOD_METIS
                                                 : CHOLMOD_NESDIS;
    c.postorder = 1;
  }
  const auto t1 = Clock::now();
  llt.analyzePattern(A);
  const double tAnalyse = since(t1);
  const auto t2 = Clock::now();
  const double cpu2 = processCpuSeconds();
  llt.factorize(A);
  const double tFactor = since(t2), cpuFactor = processCpuSeconds() - cpu2;
  const bool ok = llt.info() == Eigen::Success;
  // solves with 1 right-hand side (what the Lanczos iteration does) and with blocks: the
  // supernodal solve reads all of L once per call, whatever the number of right-hand sides
  std::string blockSolves;
  double tSolve = 0;
  for (int nrhs : {1, 4, 8, 16}) {
    const Eigen::MatrixXd B = Eigen::MatrixXd::Random(A.rows(), nrhs);
    Eigen::MatrixXd X;
    const int reps = nrhs == 1 ? 5 : 2;
    const auto t = Clock::now();
    for (int i = 0; i < reps; ++i) X = llt.solve(B);
    const double per = since(t) / reps;
    if (nrhs == 1) tSolve = per;
    char buf[80];
    std::snprintf(buf, sizeof buf, "%s%d rhs %.3f s", blockSolves.empty() ? "" : ", ", nrhs, per);
    blockSolves += buf;
  }
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(A.rows());
  const auto t4 = Clock::now();
  const int nsolve = 5;
  Eigen::VectorXd y;
  for (int i = 0; i < nsolve; ++i) y = M * b;
  const double tMatVec = since(t4) / nsolve;
  const int sel = c.selected >= 0 && c.selected <= CHOLMOD_MAXMETHODS ? c.selected : 0;
  std::printf(
      "factor[%s]: ordering %s, nnz(A lower) %.3g, nnz(L) %.4g (%.0f MB), flops %.4g, form A %.2f s, analyse %.2f s, "
      "factorise %.2f s (cpu %.2f s, %.2f GFlop/s), solve %.3f s, M*x %.4f s, peak RSS %.0f MB%s\n"
      "factor[%s]: solve times per call: %s\n",
      ordering.c_str(), orderingName(c.method[sel].ordering), 0.5 * (A.nonZeros() + A.rows()), c.lnz,
      c.lnz * 8 / 1048576.0, c.fl, tForm, tAnalyse, tFactor, cpuFactor, tFactor > 0 ? c.fl / tFactor * 1e-9 : 0.0,
      tSolve, tMatVec, peakRssMb(), ok ? "" : "  FAILED", ordering.c_str(), blockSolves.c_str());
  std::fflush(stdout);
}

void usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s MESH [--modes N] [--material E,nu,rho] [--shift S] [--tol T] [--block B] [--lumped]\n"
               "             [--factor default|amd|metis|nesdis]... [--quiet]\n"
               "  MESH               .inp deck (or any file importFe reads)\n"
               "  --modes N          elastic modes (default 20; 6 rigid modes come in addition)\n"
               "  --material E,nu,rho  one material for every element (default: the deck's)\n"
               "  --shift S          Lanczos shift [(rad/s)^2] (default: automatic)\n"
               "  --tol T            Lanczos tolerance (default: freeModes' default)\n"
               "  --block B          right-hand sides per solve of the block Lanczos (default 4;\n"
               "                     0: the restarted single-vector Lanczos, as before the block one)\n"
               "  --lumped           HRZ-lumped mass instead of the consistent mass\n"
               "  --factor ORD       after the modes, factorise K - sigma M once more with CHOLMOD's\n"
               "                     ordering ORD and print its statistics (repeatable)\n"
               "  --quiet            no frequency table\n",
               argv0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  fe::ModalOptions mopt;
  mopt.elastic_modes = 20;
  bool lumped = false, quiet = false, haveMaterial = false;
  fe::Material material;
  std::vector<std::string> factors;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool hasValue = i + 1 < argc;
    if (a == "--help" || a == "-h") {
      usage(argv[0]);
      return 0;
    } else if (a == "--modes" && hasValue) {
      mopt.elastic_modes = std::atoi(argv[++i]);
      if (mopt.elastic_modes < 1) {
        usage(argv[0]);
        return 2;
      }
    } else if (a == "--material" && hasValue) {
      if (std::sscanf(argv[++i], "%lf,%lf,%lf", &material.E, &material.nu, &material.rho) != 3) {
        usage(argv[0]);
        return 2;
      }
      material.name = "BENCH";
      material.has_elastic = material.has_density = true;
      haveMaterial = true;
    } else if (a == "--shift" && hasValue) {
      mopt.shift = std::atof(argv[++i]);
    } else if (a == "--tol" && hasValue) {
      mopt.tolerance = std::atof(argv[++i]);
    } else if (a == "--block" && hasValue) {
      mopt.lanczos_block = std::atoi(argv[++i]);
    } else if (a == "--lumped") {
      lumped = true;
    } else if (a == "--factor" && hasValue) {
      const std::string o = argv[++i];
      if (o != "default" && o != "amd" && o != "metis" && o != "nesdis") {
        usage(argv[0]);
        return 2;
      }
      factors.push_back(o);
    } else if (a == "--quiet") {
      quiet = true;
    } else if (path.empty() && !a.empty() && a[0] != '-') {
      path = a;
    } else {
      usage(argv[0]);
      return 2;
    }
  }
  if (path.empty()) {
    usage(argv[0]);
    return 2;
  }

  std::printf("Flexim FE modal benchmark\n");
  std::printf("date: %s\n", now().c_str());
  std::printf("machine: %u hardware threads (nproc), CPU: %s, load average at start: %s\n",
              std::thread::hardware_concurrency(), firstLineOf("/proc/cpuinfo", "model name").c_str(),
              loadAverage().c_str());
#ifdef NDEBUG
  std::printf("build: NDEBUG (optimised)\n");
#else
  std::printf("build: assertions on (not a Release build -- figures are not representative)\n");
#endif
  std::printf("libraries: %s\n", linearAlgebraLibraries().c_str());
  std::printf("file: %s\n", path.c_str());
  std::printf("settings: %d elastic modes, %s mass, %s\n\n", mopt.elastic_modes, lumped ? "lumped" : "consistent",
              haveMaterial ? "material from --material" : "materials from the deck");
  std::fflush(stdout);

  const auto tStart = Clock::now();
  const double cpuStart = processCpuSeconds();

  // ---- import
  fe::FeModel model;
  Diagnostics diag;
  auto t0 = Clock::now();
  double c0 = processCpuSeconds();
  const bool imported = io::importFe(path, model, diag);
  const double tImport = since(t0), cImport = processCpuSeconds() - c0;
  const double rssImport = peakRssMb();
  if (!imported || model.elements.empty()) {
    std::fprintf(stderr, "import failed%s:\n%s", imported ? " (no elements)" : "", diag.str().c_str());
    return 1;
  }
  std::map<std::string, int> types;
  for (const auto& e : model.elements) ++types[fe::abaqusName(e.type)];
  std::string typeList;
  for (const auto& [name, count] : types) typeList += (typeList.empty() ? "" : ", ") + name + " " + std::to_string(count);
  std::printf("import_s        %.3f   (cpu %.3f s)\n", tImport, cImport);
  std::printf("nodes           %d\n", model.nodeCount());
  std::printf("elements        %zu   (%s)\n", model.elements.size(), typeList.c_str());
  std::printf("rss_import_mb   %.0f\n", rssImport);
  std::fflush(stdout);

  // ---- assembly
  fe::AssemblyOptions aopt;
  aopt.lumped = lumped;
  if (haveMaterial) aopt.override_material = &material;
  fe::AssembledMatrices mats;
  Diagnostics adiag;
  t0 = Clock::now();
  c0 = processCpuSeconds();
  if (!fe::assemble(model, aopt, mats, adiag)) {
    std::fprintf(stderr, "assembly failed:\n%s", adiag.str().c_str());
    if (!haveMaterial) std::fprintf(stderr, "(a bare mesh needs --material E,nu,rho)\n");
    return 1;
  }
  const double tAssembly = since(t0), cAssembly = processCpuSeconds() - c0;
  std::printf("assembly_s      %.3f   (cpu %.3f s)\n", tAssembly, cAssembly);
  std::printf("dofs            %ld\n", static_cast<long>(mats.K.rows()));
  std::printf("nnz_K           %ld   (both triangles)\n", static_cast<long>(mats.K.nonZeros()));
  std::printf("nnz_M           %ld\n", static_cast<long>(mats.M.nonZeros()));
  std::printf("mass_kg         %.6g\n", mats.mass);
  std::printf("rss_assembly_mb %.0f\n", peakRssMb());
  std::fflush(stdout);
  // as flexim-cli modes: the eigen solution reads the lower triangles only
  fe::keepLowerTriangle(mats.K);
  fe::keepLowerTriangle(mats.M);

  // ---- modes
  fe::ModalResult res;
  Diagnostics mdiag;
  t0 = Clock::now();
  c0 = processCpuSeconds();
  const bool solved = fe::freeModes(mats.K, mats.M, model.coords, mopt, res, mdiag);
  const double tEigen = since(t0), cEigen = processCpuSeconds() - c0;
  const double tTotal = since(tStart), cTotal = processCpuSeconds() - cpuStart;
  for (const auto& d : mdiag.items()) std::printf("  (modes) %s\n", d.str().c_str());
  if (!solved) {
    std::fprintf(stderr, "modes failed:\n%s", mdiag.str().c_str());
    return 1;
  }
  std::printf("eigen_s         %.3f   (cpu %.3f s)\n", tEigen, cEigen);
  std::printf("eigen_phases_s  factorise %.2f, iterate %.2f, residual check %.2f, Sturm check %.2f, rest %.2f\n",
              res.seconds.factorise, res.seconds.iterate, res.seconds.residuals, res.seconds.sturm,
              tEigen - res.seconds.factorise - res.seconds.iterate - res.seconds.residuals - res.seconds.sturm);
  std::printf("shift           %.6g   (rad/s)^2\n", res.shift);
  std::printf("solves          %ld   (right-hand sides; %ld of the calls were blocks)\n", res.operations, res.block_solves);
  std::printf("restarts        %ld\n", res.iterations);
  std::printf("rigid_modes     %d\n", res.rigid_count);
  std::printf("max_residual    %.3g\n", res.max_residual);
  std::printf("total_s         %.3f   (cpu %.3f s; import + assembly + modes)\n", tTotal, cTotal);
  std::printf("peak_rss_mb     %.0f\n", peakRssMb());
  std::fflush(stdout);

  for (const auto& o : factors) factorStats(mats.K, mats.M, res.shift, o);

  if (!quiet) {
    std::printf("\n# mode,number,f_Hz,lambda_(rad/s)^2,kind\n");
    const auto f = res.frequenciesHz();
    for (int i = 0; i < res.eigenvalues.size(); ++i)
      std::printf("mode,%d,%.10g,%.10g,%s\n", i + 1, f[i], res.eigenvalues(i), res.rigid[i] ? "rigid" : "elastic");
  }
  return 0;
}
