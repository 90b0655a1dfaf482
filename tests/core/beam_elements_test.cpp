// Beam elements with implicitly defined strains against independent references: the planar
// cantilever's tip compliance in its deflected state printed by Meijaard (its equation (52), four
// elements), the linear cantilever FL³/3EI that one element already gets exactly (and sixteen
// agree with it), and the Bathe–Bolourchi 45° bend under an out-of-plane tip load against the
// published tip position (Simo & Vu-Quoc 1986; Bathe & Bolourchi 1979).
#include "core/model/body_table.h"
#include "core/run/simulation.h"
#include "core/system/beam_elements.h"
#include "recording_sink.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace flexim;
using flexim::test::RecordingSink;

namespace {

/// A member along +x from the origin, clamped there (a fixed joint to the ground), loaded at its
/// tip by a force and a torque (global); planar elements get a planar joint per free node.
struct Cantilever {
  ModelSpec model;
  std::string tip;
};

Cantilever cantilever(const BeamElementSpec& element, double length, int elements, const Quat& orientation = Quat::Identity()) {
  Cantilever c;
  ModelSpec& m = c.model;
  m.name = "cantilever";
  BeamMemberSpec member;
  member.name = "b";
  member.length = length;
  member.elements = elements;
  member.orientation = orientation;
  member.element = element;
  c.tip = meshBeamMember(m, member);
  m.ground_markers.push_back({"root", Vec3::Zero(), orientation});
  m.ground_markers.push_back({"plane", Vec3::Zero(), Quat::Identity()});
  for (BeamNodeSpec& n : m.beam_nodes) n.markers.push_back({"m", Vec3::Zero(), Quat::Identity()});
  m.joints.push_back({"clamp", JointType("fixed"), "ground", "root", "b_0", "m", {}});
  if (element.formulation == "planar")
    for (std::size_t i = 1; i < m.beam_nodes.size(); ++i)
      m.joints.push_back({"in_plane_" + std::to_string(i), JointType("planar"), "ground", "plane", m.beam_nodes[i].name, "m", {}});
  return c;
}

void load(Cantilever& c, const Vec3& force, const Vec3& torque) {
  ForceSpec f;
  f.name = "tip_force";
  f.type = ForceType::PointForce;
  f.body1 = c.tip;
  f.marker1 = "m";
  f.vector = force;
  c.model.forces.push_back(f);
  f.name = "tip_torque";
  f.type = ForceType::PointTorque;
  f.vector = torque;
  c.model.forces.push_back(f);
}

/// The equilibrium's pose of a body at the last load level.
BodyPose staticPose(const ModelSpec& m, const std::string& body, int levels = 10) {
  Diagnostics diag;
  auto sim = Simulation::create(m, diag);
  if (!sim) qFatal("%s", diag.str().c_str());
  RecordingSink sink;
  StaticOptions options;
  options.load_steps = levels;
  const RunSummary sum = sim->staticEquilibrium({&sink}, options);
  if (!sum.ok) qFatal("static equilibrium failed: %s", sum.message.c_str());
  return sink.samples.back().poses.at(std::size_t(BodyTable(m).poseNamed(body)));
}

BeamElementSpec squareSteel(const char* formulation) {
  BeamElementSpec e;
  e.formulation = formulation;
  e.youngs_modulus = 207e9;
  e.area = 0.01;
  e.iy = e.iz = std::pow(0.1, 4) / 12;
  return e;
}

}  // namespace

class BeamElementsTest : public QObject {
  Q_OBJECT

 private slots:
  /// Unloaded, straight or curved as meshed: the strains are the initial ones and no node feels
  /// a force, for every formulation.
  void meshedMemberStartsUnstressed() {
    for (const char* formulation : {"spatial", "spatial_constant_torsion", "planar"}) {
      BeamElementSpec e = squareSteel(formulation);
      e.curvature = Vec3(0.0, 0.0, 0.3);
      ModelSpec m;
      BeamMemberSpec member;
      member.name = "b";
      member.length = 2.0;
      member.elements = 3;
      member.element = e;
      meshBeamMember(m, member);
      QCOMPARE(m.beam_elements.size(), std::size_t(3));
      BeamFormulationKind kind{};
      QVERIFY(beamFormulationFromName(formulation, kind));
      const BeamElementKernel kernel(kind, 2.0 / 3, beamSection(e), e.curvature);
      for (std::size_t i = 0; i < 3; ++i) {
        const BeamNodePose p{m.beam_nodes[i].position, m.beam_nodes[i].orientation};
        const BeamNodePose q{m.beam_nodes[i + 1].position, m.beam_nodes[i + 1].orientation};
        BeamSolution s;
        QVERIFY2(kernel.solve(p, q, nullptr, s), formulation);
        QVERIFY2((s.strains - kernel.initialStrains()).norm() < 1e-12, formulation);
        QVERIFY2(s.nodeForces().norm() < 1e-12 * e.youngs_modulus * e.area, formulation);
      }
      // a circular arc of curvature 0.3 (to the element's quadrature): the end turned by 0.6 rad,
      // exactly in the plane, to the (2,2) Padé approximant of the rotation's exponential in space
      const Vec3 end = m.beam_nodes.back().orientation * Vec3::UnitX();
      const double angleError = std::string(formulation) == "planar" ? 1e-12 : 1e-5;
      QVERIFY2(std::abs(std::atan2(end.y(), end.x()) - 0.6) < angleError, formulation);
      const double chord = 2 * std::sin(0.3) / 0.3;
      QVERIFY2(std::abs(m.beam_nodes.back().position.norm() - chord) < 1e-5, formulation);
    }
  }

  /// The element's own tangent ∂f/∂x (material part exact, geometric part from the exact
  /// gradient) against central differences of its forces, re-solved at each perturbed pose, for
  /// a curved, stretched, bent and twisted element of each formulation.
  void tangentMatchesDifferencesOfTheForces() {
    for (const char* formulation : {"spatial", "spatial_constant_torsion", "planar"}) {
      BeamElementSpec e = squareSteel(formulation);
      e.shear = true;
      e.curvature = Vec3(0.1, -0.2, 0.3);
      BeamFormulationKind kind{};
      QVERIFY(beamFormulationFromName(formulation, kind));
      const BeamElementKernel kernel(kind, 0.7, beamSection(e), e.curvature);
      const bool planar = kind == BeamFormulationKind::Planar;
      const BeamNodePose p{Vec3(0.1, -0.2, 0.05), Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()))};
      BeamNodePose q = kernel.endNode(p, kernel.initialStrains());
      // deformed: moved and turned off its unstressed place (in its plane for the planar element)
      q.r += planar ? Vec3(0.01, -0.02, 0.0) : Vec3(0.01, -0.02, 0.015);
      q.p = q.p * Quat(Eigen::AngleAxisd(0.2, planar ? Vec3::UnitZ() : Vec3(0.3, 0.5, 0.8).normalized()));
      BeamSolution s;
      QVERIFY(kernel.solve(p, q, nullptr, s));
      const Eigen::Matrix<double, 12, 12> K = kernel.tangent(p, q, s);
      Eigen::Matrix<double, 12, 12> diff;
      for (int j = 0; j < 12; ++j) {
        auto forces = [&](double h) {
          BeamNodePose a = p, b = q;
          BeamNodePose& n = j < 6 ? a : b;
          const int k = j % 6;
          if (k < 3) n.r(k) += h;
          else n.p = n.p * Quat(Eigen::AngleAxisd(h, Vec3::Unit(k - 3)));
          BeamSolution t;
          if (!kernel.solve(a, b, &s.strains, t)) qFatal("no solution");
          return t.nodeForces();
        };
        const double h = 1e-6;
        diff.col(j) = (forces(h) - forces(-h)) / (2 * h);
      }
      const double error = (K - diff).norm() / diff.norm();
      qInfo("%s: |K - differences| / |K| = %.2e", formulation, error);
      QVERIFY2(error < 1e-8, formulation);
    }
  }

  /// The cantilever of Meijaard's planar example (L = 2 m, 0.1 m square, E = 207 GPa) under the
  /// tip force 3EI/L², four elements without shear: its tip compliance in the deflected state,
  /// [Δx, Δy, LΔφ] per [ΔFx, ΔFy, ΔM/L] in units L³/EI, is the printed matrix (52) to its five
  /// decimals. Central differences of the static equilibrium about the loaded state.
  void planarCantileverTipComplianceIsThePapers() {
    const double L = 2.0, E = 207e9, I = std::pow(0.1, 4) / 12, F = 3 * E * I / (L * L);
    const double printed[3][3] = {{0.08833, -0.08389, -0.18709}, {-0.08389, 0.08379, 0.16371}, {-0.18709, 0.16371, 0.59265}};
    auto tip = [&](const Vec3& dload) {
      Cantilever c = cantilever(squareSteel("planar"), L, 4);
      load(c, Vec3(dload.x(), F + dload.y(), 0.0), Vec3(0.0, 0.0, dload.z() * L));
      const BodyPose pose = staticPose(c.model, c.tip);
      const Vec3 x = pose.orientation * Vec3::UnitX();
      return Vec3(pose.position.x(), pose.position.y(), L * std::atan2(x.y(), x.x()));
    };
    const double h = 1e-4 * F;
    for (int j = 0; j < 3; ++j) {
      const Vec3 d = (tip(h * Vec3::Unit(j)) - tip(-h * Vec3::Unit(j))) / (2 * h) * (E * I / (L * L * L));
      qInfo("compliance column %d: %.7f %.7f %.7f", j, d(0), d(1), d(2));
      for (int i = 0; i < 3; ++i)
        QVERIFY2(std::abs(d(i) - printed[i][j]) < 5.01e-6,
                 qPrintable(QString("C(%1,%2) = %3, printed %4").arg(i).arg(j).arg(d(i), 0, 'f', 7).arg(printed[i][j])));
    }
  }

  /// A small tip force: the linear theory's deflection FL³/3EI, which the element's linear
  /// curvature represents exactly — one element and sixteen agree with it (central differences
  /// cancel the quadratic terms of the large-deflection solution), for the planar and the spatial
  /// element.
  void oneElementAndSixteenAgreeOnALinearLoad() {
    const double L = 2.0, E = 207e9, I = std::pow(0.1, 4) / 12, F = 1e-5 * 3 * E * I / (L * L);
    for (const char* formulation : {"planar", "spatial"}) {
      double deflection[2];
      for (int k = 0; k < 2; ++k) {
        auto tipY = [&](double force) {
          Cantilever c = cantilever(squareSteel(formulation), L, k == 0 ? 1 : 16);
          load(c, Vec3(0.0, force, 0.0), Vec3::Zero());
          return staticPose(c.model, c.tip, 1).position.y();
        };
        deflection[k] = (tipY(F) - tipY(-F)) / 2;
      }
      const double exact = F * L * L * L / (3 * E * I);
      qInfo("%s: 1 element %.15g, 16 elements %.15g, FL^3/3EI %.15g", formulation, deflection[0], deflection[1], exact);
      QVERIFY2(std::abs(deflection[0] / deflection[1] - 1) < 1e-10,
               qPrintable(QString("%1: 1 element %2, 16 elements %3").arg(formulation).arg(deflection[0], 0, 'g', 15).arg(deflection[1], 0, 'g', 15)));
      QVERIFY2(std::abs(deflection[0] / exact - 1) < 1e-8,
               qPrintable(QString("%1: %2 against FL^3/3EI %3").arg(formulation).arg(deflection[0], 0, 'g', 15).arg(exact, 0, 'g', 15)));
    }
  }

  /// The beam sensor on a cantilever under a small tip force F (linear theory, which the
  /// element's linear curvature represents exactly): at the root element's start the bending
  /// moment is F L, its shear force F and its axial strain nothing; at the tip element's end the
  /// moment is zero.
  void beamSensorGivesTheResultants() {
    const double L = 2.0, E = 207e9, I = std::pow(0.1, 4) / 12, F = 1e-6 * 3 * E * I / (L * L);
    Cantilever c = cantilever(squareSteel("spatial"), L, 2);
    load(c, Vec3(0.0, F, 0.0), Vec3::Zero());
    for (const char* element : {"b_1", "b_2"}) {
      SensorSpec sensor;
      sensor.name = element;
      sensor.type = SensorType("beam");
      sensor.element = element;
      sensor.quantities = {"axial_strain", "force", "moment_start", "moment_end"};
      c.model.sensors.push_back(sensor);
    }
    Diagnostics diag;
    auto sim = Simulation::create(c.model, diag);
    QVERIFY2(sim, diag.str().c_str());
    RecordingSink sink;
    QVERIFY(sim->staticEquilibrium({&sink}).ok);
    const std::size_t last = sink.samples.size() - 1;
    QVERIFY(std::abs(sink.value(last, "b_1.moment_start.z") / (F * L) - 1) < 1e-6);
    QVERIFY(std::abs(sink.value(last, "b_1.moment_end.z") / (F * L) - 0.5) < 1e-6);
    QVERIFY(std::abs(sink.value(last, "b_2.moment_end.z")) < 1e-6 * F * L);
    QVERIFY(std::abs(sink.value(last, "b_1.force.y") / F - 1) < 1e-6);
    QVERIFY(std::abs(sink.value(last, "b_1.axial_strain.value")) < 1e-9);
    QVERIFY(std::abs(sink.value(last, "b_1.moment_start.y")) < 1e-6 * F * L);
  }

  /// The Bathe–Bolourchi bend: a 45° arc of radius 100 in the x-z plane, unit square section,
  /// EA = 1e7, GAk = 5e6, EI = GJ = 1e7/12, 8 spatial elements, a tip force of 600 out of the
  /// plane (y). Published tip position (Simo & Vu-Quoc 1986): 53.37 out of plane, the bend
  /// drawn in from (70.71, 29.29) to about (47.23, 15.79).
  void bentCantileverReachesThePublishedTip() {
    BeamElementSpec e;
    e.formulation = "spatial";
    e.youngs_modulus = 1e7;
    e.shear_modulus = 5e6;
    e.area = 1.0;
    e.iy = e.iz = 1.0 / 12;
    e.torsion_constant = 1.0 / 6;
    e.shear = true;
    e.shear_factor = 1.0;
    e.density = 1.0;
    const double R = 100;
    e.curvature = Vec3(0.0, -1.0 / R, 0.0);
    Cantilever c = cantilever(e, R * std::numbers::pi / 4, 8);
    const Vec3 start = c.model.beam_nodes.back().position;
    QVERIFY(std::abs(start.x() - R * std::sqrt(0.5)) < 1e-3);
    QVERIFY(std::abs(start.z() - R * (1 - std::sqrt(0.5))) < 1e-3);
    load(c, Vec3(0.0, 600.0, 0.0), Vec3::Zero());
    const Vec3 tip = staticPose(c.model, c.tip, 12).position;
    qInfo("45-degree bend tip at 600: %.4f %.4f %.4f", tip.x(), tip.y(), tip.z());
    QVERIFY2(std::abs(tip.y() - 53.37) < 0.3, qPrintable(QString("tip y %1").arg(tip.y())));
    QVERIFY2(std::abs(tip.x() - 47.23) < 0.5, qPrintable(QString("tip x %1").arg(tip.x())));
    QVERIFY2(std::abs(tip.z() - 15.79) < 0.5, qPrintable(QString("tip z %1").arg(tip.z())));
  }

  /// The very flexible pendulum (E = 0.7 MPa, 1.2 m, released horizontal, hinged; here 8 planar
  /// elements with shear) has no damping: generalized-α without numerical damping (ρ∞ = 1) keeps
  /// its energy — kinetic, gravity and strain — to the time step's error, while it falls and bends
  /// through large rotations.
  void undampedFlexiblePendulumKeepsItsEnergy() {
    const double nu = 0.3;
    BeamElementSpec e;
    e.formulation = "planar";
    e.youngs_modulus = 0.7e6;
    e.poisson_ratio = nu;
    e.area = 0.0018;
    e.iy = e.iz = 12.15e-9;
    e.density = 5540;
    e.shear = true;
    e.shear_factor = 10 * (1 + nu) / (12 + 11 * nu);
    Cantilever c = cantilever(e, 1.2, 8);
    ModelSpec& m = c.model;
    m.joints.front().type = JointType("revolute");  // the clamp becomes a hinge about z
    m.gravity = Vec3(0.0, -9.81, 0.0);
    m.solver.integrator = IntegratorType::GeneralizedAlpha;
    m.solver.rho_inf = 1.0;
    m.solver.t_end = 0.4;
    m.solver.step = 2e-4;
    m.solver.output_interval = 0.01;
    SensorSpec energy;
    energy.name = "energy";
    energy.type = SensorType("energy");
    energy.quantities = {"total"};
    m.sensors.push_back(energy);
    RecordingSink sink;
    const RunSummary sum = flexim::test::runModel(m, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    const BodyPose tip = sink.samples.back().poses.at(std::size_t(BodyTable(m).poseNamed(c.tip)));
    QVERIFY2(tip.position.y() < -0.3, "it has fallen");
    QVERIFY(sum.quality.energy_known);
    const double relative = sum.quality.energy_error / sum.quality.energy_scale;
    qInfo("energy scale %.4g J, balance error %.3g of it; tip at (%.3f, %.3f)", sum.quality.energy_scale, relative,
          tip.position.x(), tip.position.y());
    QVERIFY2(relative < 1e-5, qPrintable(QString("energy error %1 of the scale").arg(relative)));
  }
};

QTEST_GUILESS_MAIN(BeamElementsTest)
#include "beam_elements_test.moc"
