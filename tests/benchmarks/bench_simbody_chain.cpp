// The hanging chain of bench_rigid (case b) in Simbody, for the comparison in docs/benchmarks.md:
// N links of 0.1 m and 0.1 kg (slender rods of radius 5 mm), ball joints, the first to ground,
// released from horizontal along +x with g = -9.81 z. Simbody uses joint coordinates (Ball
// mobilisers: no constraints), so the figures compare formulations as well as integrators.
// Built only when CMake finds Simbody (Debian: libsimbody-dev); never required.
//
//   bench_simbody_chain [N] [T_END] [ACCURACY] [rkm|rk3|rk4|cpodes]
//
// Prints steps, wall and CPU time, time per simulated second and the energy error at T_END.
#include <Simbody.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>

using namespace SimTK;

namespace {
double threadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  const double tEnd = argc > 2 ? std::atof(argv[2]) : 1.0;
  const double accuracy = argc > 3 ? std::atof(argv[3]) : 1e-3;
  const char* method = argc > 4 ? argv[4] : "rkm";
  const double L = 0.1, mass = 0.1, radius = 0.005;

  MultibodySystem system;
  SimbodyMatterSubsystem matter(system);
  GeneralForceSubsystem forces(system);
  Force::UniformGravity gravity(forces, matter, Vec3(0, 0, -9.81));
  const double Ja = 0.5 * mass * radius * radius, Jt = mass * L * L / 12.0 + mass * radius * radius / 4.0;
  Body::Rigid body(MassProperties(mass, Vec3(0), Inertia(Ja, Jt, Jt)));
  MobilizedBody parent = matter.Ground();
  for (int i = 0; i < n; ++i) {
    MobilizedBody::Ball link(parent, Transform(Vec3(i == 0 ? 0.0 : L / 2, 0, 0)), body, Transform(Vec3(-L / 2, 0, 0)));
    parent = link;
  }
  State state = system.realizeTopology();
  system.realize(state, Stage::Dynamics);
  const double E0 = system.calcEnergy(state);

  std::unique_ptr<Integrator> integ;
  if (std::strcmp(method, "rk3") == 0) integ = std::make_unique<RungeKutta3Integrator>(system);
  else if (std::strcmp(method, "rk4") == 0) integ = std::make_unique<RungeKuttaFeldbergIntegrator>(system);
  else if (std::strcmp(method, "cpodes") == 0) integ = std::make_unique<CPodesIntegrator>(system);
  else integ = std::make_unique<RungeKuttaMersonIntegrator>(system);
  integ->setAccuracy(accuracy);
  TimeStepper ts(system, *integ);
  ts.initialize(state);
  const auto w0 = std::chrono::steady_clock::now();
  const double c0 = threadCpuSeconds();
  ts.stepTo(tEnd);
  const double cpu = threadCpuSeconds() - c0;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  const State& s = integ->getState();
  system.realize(s, Stage::Dynamics);
  const double E = system.calcEnergy(s);
  // tip: the outer end of the last link
  const Vec3 tip = matter.getMobilizedBody(MobilizedBodyIndex(n)).findStationLocationInGround(s, Vec3(L / 2, 0, 0));
  std::printf("simbody %s chain N=%d t_end=%g accuracy=%g: steps %d (attempts %d), wall %.3f s, cpu %.3f s, "
              "cpu per simulated s %.3f s, energy error %.3e J, tip z %.4f m, t %.6g\n",
              integ->getMethodName(), n, tEnd, accuracy, integ->getNumStepsTaken(), integ->getNumStepsAttempted(), wall,
              cpu, cpu / s.getTime(), E - E0, tip[2], s.getTime());
  return 0;
}
