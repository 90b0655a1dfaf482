#include "core/system/joints.h"

#include "core/base/rotation.h"

#include <cmath>
#include <numbers>

namespace flexim {

namespace {

enum class Prim { Point, Dot1, Dot2 };
struct PrimRow {
  Prim kind;
  int axis1 = 2, axis2 = 2;  ///< marker axes (0 = x, 1 = y, 2 = z)
};

int primRows(const PrimRow& p) { return p.kind == Prim::Point ? 3 : 1; }

/// The primitive rows of each joint type: the one table to extend for a new geometric joint.
std::vector<PrimRow> jointPrimitives(JointType t) {
  using P = Prim;
  switch (t) {
    case JointType::Spherical: return {{P::Point}};
    case JointType::Revolute: return {{P::Point}, {P::Dot1, 0, 2}, {P::Dot1, 1, 2}};
    case JointType::Universal: return {{P::Point}, {P::Dot1, 2, 2}};
    case JointType::Fixed: return {{P::Point}, {P::Dot1, 0, 2}, {P::Dot1, 1, 2}, {P::Dot1, 0, 1}};
    case JointType::Cylindrical: return {{P::Dot2, 0}, {P::Dot2, 1}, {P::Dot1, 0, 2}, {P::Dot1, 1, 2}};
    case JointType::Prismatic:
      return {{P::Dot2, 0}, {P::Dot2, 1}, {P::Dot1, 0, 2}, {P::Dot1, 1, 2}, {P::Dot1, 0, 1}};
    case JointType::Planar: return {{P::Dot2, 2}, {P::Dot1, 2, 0}, {P::Dot1, 2, 1}};
  }
  return {};
}

class GeometricJoint final : public ConstraintElement {
 public:
  GeometricJoint(std::vector<PrimRow> prims, const MarkerRef& m1, const MarkerRef& m2)
      : m_prims(std::move(prims)), m_m1(m1), m_m2(m2) {
    blocks = {m1.body, m2.body};
    for (const auto& p : m_prims) m_rows += primRows(p);
  }
  int rows() const override { return m_rows; }

  void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, double, ConstraintRows& out) const override {
    const MarkerKinematics k1 = sys.markerKinematics(kin, m_m1), k2 = sys.markerKinematics(kin, m_m2);
    const Vec3 d = k2.p - k1.p, ddot = k2.pdot - k1.pdot, dbias = k2.pddot_bias - k1.pddot_bias;
    out.phit.setZero();
    int r = 0;
    for (const auto& p : m_prims) {
      switch (p.kind) {
        case Prim::Point:
          out.phi.segment<3>(r) = d;
          out.G[0].middleRows<3>(r) = -k1.Jp;
          out.G[1].middleRows<3>(r) = k2.Jp;
          out.gamma.segment<3>(r) = dbias;
          r += 3;
          break;
        case Prim::Dot1: {
          const Vec3 a1 = k1.axes.col(p.axis1), a2 = k2.axes.col(p.axis2);
          out.phi(r) = a1.dot(a2);
          out.G[0].row(r) = a2.transpose() * k1.axisJacobian(p.axis1);
          out.G[1].row(r) = a1.transpose() * k2.axisJacobian(p.axis2);
          out.gamma(r) = k1.axisBias(p.axis1).dot(a2) + a1.dot(k2.axisBias(p.axis2)) +
                         2 * k1.axisRate(p.axis1).dot(k2.axisRate(p.axis2));
          r += 1;
          break;
        }
        case Prim::Dot2: {
          const Vec3 a1 = k1.axes.col(p.axis1);
          out.phi(r) = a1.dot(d);
          out.G[0].row(r) = d.transpose() * k1.axisJacobian(p.axis1) - a1.transpose() * k1.Jp;
          out.G[1].row(r) = a1.transpose() * k2.Jp;
          out.gamma(r) = k1.axisBias(p.axis1).dot(d) + 2 * k1.axisRate(p.axis1).dot(ddot) + a1.dot(dbias);
          r += 1;
          break;
        }
      }
    }
  }

 private:
  std::vector<PrimRow> m_prims;
  MarkerRef m_m1, m_m2;
  int m_rows = 0;
};

class Driver final : public ConstraintElement {
 public:
  Driver(DriverSpec::Coordinate c, const MarkerRef& m1, const MarkerRef& m2, const TimeFunctionSpec& f)
      : m_coord(c), m_m1(m1), m_m2(m2), m_f(f) {
    blocks = {m1.body, m2.body};
  }
  int rows() const override { return 1; }
  void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, double t, ConstraintRows& out) const override {
    const MarkerKinematics k1 = sys.markerKinematics(kin, m_m1), k2 = sys.markerKinematics(kin, m_m2);
    const bool rot = m_coord == DriverSpec::Coordinate::Rotation;
    const JointCoordinate c = rot ? jointRotation(k1, k2) : jointTranslation(k1, k2);
    const TimeValue f = m_f(t);
    double phi = c.value - f.f;
    if (rot) phi = std::remainder(phi, 2 * std::numbers::pi);  // angle residual in (-pi, pi]
    out.phi(0) = phi;
    out.G[0].row(0) = c.J1.transpose();
    out.G[1].row(0) = c.J2.transpose();
    out.phit(0) = -f.df;
    out.gamma(0) = c.bias - f.ddf;
  }

 private:
  DriverSpec::Coordinate m_coord;
  MarkerRef m_m1, m_m2;
  TimeFunction m_f;
};

}  // namespace

JointCoordinate jointRotation(const MarkerKinematics& k1, const MarkerKinematics& k2) {
  JointCoordinate c;
  const Vec3 x1 = k1.axes.col(0), z1 = k1.axes.col(2), x2 = k2.axes.col(0);
  c.value = std::atan2(x1.cross(x2).dot(z1), x1.dot(x2));
  // d(theta)/dt = z1 . (omega2 - omega1) once z1 and z2 are kept parallel by the joint
  const Vec3 w1 = k1.body->omega, w2 = k2.body->omega;
  c.rate = z1.dot(w2 - w1);
  c.J1.segment<3>(3) = -(k1.body->A.transpose() * z1);
  c.J2.segment<3>(3) = k2.body->A.transpose() * z1;
  c.bias = w1.cross(z1).dot(w2 - w1);
  return c;
}

JointCoordinate jointTranslation(const MarkerKinematics& k1, const MarkerKinematics& k2) {
  JointCoordinate c;
  const Vec3 z1 = k1.axes.col(2), d = k2.p - k1.p, ddot = k2.pdot - k1.pdot;
  c.value = z1.dot(d);
  c.rate = k1.axisRate(2).dot(d) + z1.dot(ddot);
  c.J1 = (d.transpose() * k1.axisJacobian(2) - z1.transpose() * k1.Jp).transpose();
  c.J2 = (z1.transpose() * k2.Jp).transpose();
  c.bias = k1.axisBias(2).dot(d) + 2 * k1.axisRate(2).dot(ddot) + z1.dot(k2.pddot_bias - k1.pddot_bias);
  return c;
}

bool buildJoint(System& sys, const JointSpec& spec, int index, const MarkerRef& m1, const MarkerRef& m2,
                const std::string& where, Diagnostics& diag) {
  auto c = makeJoint(spec.type, m1, m2);
  c->label = "joint '" + spec.name + "'";
  c->joint_index = index;
  sys.addConstraint(std::move(c));
  return true;
}

std::unique_ptr<ConstraintElement> makeJoint(JointType type, const MarkerRef& m1, const MarkerRef& m2) {
  return std::make_unique<GeometricJoint>(jointPrimitives(type), m1, m2);
}

std::unique_ptr<ConstraintElement> makeDriver(DriverSpec::Coordinate c, const MarkerRef& m1, const MarkerRef& m2,
                                              const TimeFunctionSpec& f) {
  return std::make_unique<Driver>(c, m1, m2, f);
}

}  // namespace flexim
