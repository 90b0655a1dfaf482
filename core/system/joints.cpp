#include "core/system/joints.h"

#include "core/base/rotation.h"
#include "core/model/description.h"
#include "core/system/joint_coordinates.h"

#include <cmath>
#include <map>
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
    for (const auto& p : m_prims) {
      m_rows += primRows(p);
      m_pointOnly = m_pointOnly && p.kind == Prim::Point;
    }
  }
  int rows() const override { return m_rows; }
  // a point row's force on a body depends on that body's rotation alone
  bool geometricStiffnessCouplesBlocks() const override { return !m_pointOnly; }
  // a point row's geometric stiffness acts between rotations only
  bool geometricStiffnessEntry(int, int i, int j) const override { return !m_pointOnly || (i >= 3 && j >= 3); }
  // translation columns: a point row is +-I, a dot-1 row has none
  bool jacobianEntry(int, int row, int col) const override {
    if (col >= 3) return true;
    int r0 = 0;
    for (const auto& p : m_prims) {
      if (row < r0 + primRows(p))
        return p.kind == Prim::Dot2 || (p.kind == Prim::Point && col == row - r0);
      r0 += primRows(p);
    }
    return true;
  }

  /// Tangent coordinates per body: [dr (global), dtheta (body axes)], A -> A exp(dtheta~), so
  /// that d(A^T x)/dtheta = (A^T x)~ for a fixed global x, d(A a')/dtheta = -(A a')~ A for an
  /// axis a' fixed in the body, and dp/d[dr, dtheta] = Jp.
  void addGeometricStiffness(const System& sys, std::vector<BodyKinematics>& kin, double, const Eigen::Ref<const VecX>& lambda,
                             double scale, ElementTangent& out) const override {
    const Mat3 &A1 = kin[m_m1.body + 1].A, &A2 = kin[m_m2.body + 1].A;
    // point rows need the body rotations only
    MarkerKinematics k1, k2;
    Vec3 d = Vec3::Zero();
    if (!m_pointOnly) {
      k1 = sys.markerKinematics(kin, m_m1);
      k2 = sys.markerKinematics(kin, m_m2);
      d = k2.p - k1.p;
    }
    // K(r, c): touched block r (0: body 1, 1: body 2), 6 x 6 over [dr, dtheta]
    Mat6 K[2][2];
    for (auto& row : K)
      for (auto& k : row) k.setZero();
    int r = 0;
    for (const auto& p : m_prims) {
      switch (p.kind) {
        case Prim::Point: {
          // forces [-l; -s1~ A1^T l] and [l; s2~ A2^T l]
          const Vec3 l = lambda.segment<3>(r);
          K[0][0].bottomRightCorner<3, 3>() -= skew(m_m1.s) * skew(A1.transpose() * l);
          K[1][1].bottomRightCorner<3, 3>() += skew(m_m2.s) * skew(A2.transpose() * l);
          r += 3;
          break;
        }
        case Prim::Dot1: {
          // torques l A1^T u and -l A2^T u, u = a1 x a2
          const double l = lambda(r);
          const Vec3 a1 = k1.axes.col(p.axis1), a2 = k2.axes.col(p.axis2), u = a1.cross(a2);
          const Mat3 a1x = skew(a1), a2x = skew(a2);
          K[0][0].bottomRightCorner<3, 3>() += l * (skew(A1.transpose() * u) + A1.transpose() * a2x * a1x * A1);
          K[0][1].bottomRightCorner<3, 3>() -= l * A1.transpose() * a1x * a2x * A2;
          K[1][1].bottomRightCorner<3, 3>() -= l * (skew(A2.transpose() * u) - A2.transpose() * a1x * a2x * A2);
          K[1][0].bottomRightCorner<3, 3>() -= l * A2.transpose() * a2x * a1x * A1;
          r += 1;
          break;
        }
        case Prim::Dot2: {
          // body 1: [-l a1; l (A1^T (a1 x d) - s1~ a1')], body 2: [l a1; l s2~ A2^T a1]
          const double l = lambda(r);
          const Vec3 a1 = k1.axes.col(p.axis1);
          const Mat3 a1x = skew(a1), A1ta1x = A1.transpose() * a1x;
          const Mat3 s1x = skew(m_m1.s), s2x = skew(m_m2.s);
          K[0][0].topRightCorner<3, 3>() += l * a1x * A1;
          K[1][0].topRightCorner<3, 3>() -= l * a1x * A1;
          K[0][0].bottomLeftCorner<3, 3>() -= l * A1ta1x;
          K[0][1].bottomLeftCorner<3, 3>() += l * A1ta1x;
          K[0][0].bottomRightCorner<3, 3>() +=
              l * (skew(A1.transpose() * a1.cross(d)) + A1.transpose() * skew(d) * a1x * A1 + A1ta1x * A1 * s1x);
          K[0][1].bottomRightCorner<3, 3>() -= l * A1ta1x * A2 * s2x;
          K[1][1].bottomRightCorner<3, 3>() += l * s2x * skew(A2.transpose() * a1);
          K[1][0].bottomRightCorner<3, 3>() -= l * s2x * A2.transpose() * a1x * A1;
          r += 1;
          break;
        }
      }
    }
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        if (i == j || !m_pointOnly) {
          MatX& target = out.at(i, j);
          if (target.rows() == 6 && target.cols() == 6)
            target.topLeftCorner<6, 6>() += scale * K[i][j];
          else  // a point body (three frame coordinates) takes the translational part
            target += scale * K[i][j].topLeftCorner(target.rows(), target.cols());
        }
  }

  void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, double, ConstraintRows& out) const override {
    const MarkerKinematics k1 = sys.markerKinematics(kin, m_m1, !m_pointOnly), k2 = sys.markerKinematics(kin, m_m2, !m_pointOnly);
    const Vec3 d = k2.p - k1.p, ddot = k2.pdot - k1.pdot, dbias = k2.pddot_bias - k1.pddot_bias;
    out.phit.setZero();
    int r = 0;
    for (const auto& p : m_prims) {
      switch (p.kind) {
        case Prim::Point:
          out.phi.segment<3>(r) = d;
          if (k1.frame == 6 && k2.frame == 6) {  // bodies that turn: the fixed-size path
            out.G[0].middleRows<3>(r) = -k1.Jp;
            out.G[1].middleRows<3>(r) = k2.Jp;
          } else {
            out.G[0].middleRows<3>(r) = -k1.frameColumns(k1.Jp);
            out.G[1].middleRows<3>(r) = k2.frameColumns(k2.Jp);
          }
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
  bool m_pointOnly = true;
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

namespace {

/// A joint kind's parameter (JointSpec::parameters), with the default its description gives.
double parameter(const JointSpec& spec, const std::string& key) {
  if (const JointKindDescription* kind = findJointKind(spec.type.key()))
    for (const FieldDescription& f : kind->parameters)
      if (f.key == key) return std::get<double>(f.get(&spec));
  throw FleximError("joint kind '" + spec.type.key() + "' has no parameter '" + key + "'");
}

void addGeometricJoint(System& sys, const JointSpec& spec, int index, const MarkerRef& m1, const MarkerRef& m2) {
  auto c = makeJoint(spec.type, m1, m2);
  c->label = "joint '" + spec.name + "'";
  c->where = "joints[" + std::to_string(index) + "]";
  c->joint_index = index;
  sys.addConstraint(std::move(c));
}

using JointBuilder = void (*)(System&, const JointSpec&, int, const MarkerRef&, const MarkerRef&);

/// How each registered joint kind (core/model/joint_kinds.cpp) becomes elements of the System.
const std::map<std::string, JointBuilder>& jointBuilders() {
  static const std::map<std::string, JointBuilder> builders{
      {"fixed", addGeometricJoint},
      {"revolute", addGeometricJoint},
      {"prismatic", addGeometricJoint},
      {"cylindrical", addGeometricJoint},
      {"spherical", addGeometricJoint},
      {"universal", addGeometricJoint},
      {"planar", addGeometricJoint},
      {"screw",
       [](System& sys, const JointSpec& spec, int index, const MarkerRef& m1, const MarkerRef& m2) {
         addScrewJoint(sys, index, spec.name, m1, m2, parameter(spec, "pitch"));
       }},
  };
  return builders;
}

}  // namespace

bool buildJoint(System& sys, const JointSpec& spec, int index, const MarkerRef& m1, const MarkerRef& m2,
                const std::string& where, Diagnostics& diag) {
  const auto it = jointBuilders().find(spec.type.key());
  if (it == jointBuilders().end()) {
    diag.error(where + ".type", "joint kind '" + spec.type.key() + "' has no constraint element in this build");
    return false;
  }
  it->second(sys, spec, index, m1, m2);
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
