// The contact kinds' geometry: each builder turns a model contact into contact points whose
// gap and relative-velocity Jacobians follow from two markers. The relative velocity is that
// of body1's material point at the contact point less body2's material point there; its normal
// part is the exact rate of the gap (the rotation of the normal adds nothing, since the points
// coincide to first order), so the Jacobian's normal row is the gap's gradient.
#include "core/system/contacts.h"

#include "core/base/rotation.h"
#include "core/model/description.h"
#include "core/system/system.h"

#include <functional>
#include <map>

namespace flexim {

void ContactPoint::resize(int rows, const std::vector<int>& cols) {
  W.resize(cols.size());
  for (std::size_t k = 0; k < cols.size(); ++k) W[k].setZero(rows, cols[k]);
}

namespace {

/// Writes the rows of a contact at point c (global) between the bodies of m1 (+) and m2 (-):
/// normal n, tangents t (one or two, as many as the element has).
void writeRows(const std::vector<BodyKinematics>& kin, const MarkerRef& m1, const MarkerRef& m2, const Vec3& c,
               const Vec3& n, const Vec3& t1, const Vec3& t2, int tangents, ContactPoint& out) {
  Eigen::Matrix<double, 3, 3> dirs;
  dirs.col(0) = n;
  dirs.col(1) = t1;
  dirs.col(2) = t2;
  const MarkerRef* ends[2] = {&m1, &m2};
  for (int side = 0; side < 2; ++side) {
    const MarkerRef& m = *ends[side];
    if (m.body < 0) continue;
    const BodyKinematics& B = kin[std::size_t(m.body) + 1];
    // velocity of the body's material point at c over [r_dot, omega']: [I, -A skew(A^T (c - r))]
    Mat36 J;
    J.leftCols<3>().setIdentity();
    J.rightCols<3>() = -B.A * skew(B.A.transpose() * (c - B.r));
    const double sign = side == 0 ? 1.0 : -1.0;
    const Eigen::MatrixXd rows = sign * dirs.leftCols(1 + tangents).transpose() * J.leftCols(m.frame);
    out.W[std::size_t(side)].leftCols(m.frame) += rows;
  }
}

/// Two unit vectors completing n to a right-handed basis.
void tangentsOf(const Vec3& n, Vec3& t1, Vec3& t2) {
  Vec3 e = Vec3::UnitX();
  if (std::abs(n.x()) > std::abs(n.y()) || std::abs(n.x()) > std::abs(n.z()))
    e = std::abs(n.y()) < std::abs(n.z()) ? Vec3::UnitY() : Vec3::UnitZ();
  t1 = n.cross(e).normalized();
  t2 = n.cross(t1);
}

/// A contact of two markers with a geometry function: the contact point, normal and gap.
class MarkerContact final : public ContactElement {
 public:
  struct Geometry {
    Vec3 point, normal, t1, t2;
    double gap;
  };
  using Shape = std::function<Geometry(const MarkerKinematics& k1, const MarkerKinematics& k2)>;
  MarkerContact(const MarkerRef& m1, const MarkerRef& m2, Shape shape) : m_m1(m1), m_m2(m2), m_shape(std::move(shape)) {
    blocks = {m1.body, m2.body};
  }
  void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, ContactPoint& out) const override {
    const Geometry g = m_shape(sys.markerKinematics(kin, m_m1), sys.markerKinematics(kin, m_m2));
    out.gap = g.gap;
    out.point = g.point;
    out.normal = g.normal;
    writeRows(kin, m_m1, m_m2, g.point, g.normal, g.t1, g.t2, tangents, out);
  }

 private:
  MarkerRef m_m1, m_m2;
  Shape m_shape;
};

using Shape = MarkerContact::Shape;
using Geometry = MarkerContact::Geometry;

/// A point at marker1's origin, offset by `radius` against the normal, and a plane through
/// marker2's origin normal to its z axis.
Shape pointPlane(double radius) {
  return [radius](const MarkerKinematics& k1, const MarkerKinematics& k2) {
    Geometry g;
    g.normal = k2.axes.col(2);
    g.t1 = k2.axes.col(0);
    g.t2 = k2.axes.col(1);
    g.point = k1.p - radius * g.normal;
    g.gap = g.normal.dot(k1.p - k2.p) - radius;
    return g;
  };
}

Shape sphereSphere(double r1, double r2) {
  return [r1, r2](const MarkerKinematics& k1, const MarkerKinematics& k2) {
    Geometry g;
    const Vec3 d = k1.p - k2.p;
    const double L = d.norm();
    g.normal = L > 0 ? Vec3(d / L) : Vec3::UnitZ();  // concentric: any direction
    tangentsOf(g.normal, g.t1, g.t2);
    g.point = k1.p - r1 * g.normal;
    g.gap = L - r1 - r2;
    return g;
  };
}

/// Planar: a point against a line along marker2's x axis, the gap along its y axis.
Shape pointLine() {
  return [](const MarkerKinematics& k1, const MarkerKinematics& k2) {
    Geometry g;
    g.normal = k2.axes.col(1);
    g.t1 = k2.axes.col(0);
    g.t2 = k2.axes.col(2);
    g.point = k1.p;
    g.gap = g.normal.dot(k1.p - k2.p);
    return g;
  };
}

/// Corner (sx a, sy b) of a slider at marker1 against the guide wall on its side (sy): the wall
/// is at y = sy (b + clearance) in marker2's axes.
Shape clearanceCorner(double a, double b, double clearance, double sx, double sy) {
  return [=](const MarkerKinematics& k1, const MarkerKinematics& k2) {
    Geometry g;
    const Vec3 corner = k1.p + k1.axes * Vec3(sx * a, sy * b, 0.0);
    const Vec3 y = k2.axes.col(1);
    g.normal = -sy * y;  // away from the wall, into the guide
    g.t1 = k2.axes.col(0);
    g.t2 = k2.axes.col(2);
    g.point = corner;
    g.gap = (b + clearance) - sy * y.dot(corner - k2.p);
    return g;
  };
}

/// The shapes of a contact's points, in the order of contactPointNames().
using Builder = std::function<std::vector<Shape>(const ContactSpec&)>;

/// The builders of the registered kinds, by key.
const std::map<std::string, Builder>& builders() {
  static const std::map<std::string, Builder> table{
      {"point_plane", [](const ContactSpec&) { return std::vector<Shape>{pointPlane(0.0)}; }},
      {"sphere_plane",
       [](const ContactSpec& c) { return std::vector<Shape>{pointPlane(contactParameterValue(c, "radius"))}; }},
      {"sphere_sphere",
       [](const ContactSpec& c) {
         return std::vector<Shape>{sphereSphere(contactParameterValue(c, "radius"), contactParameterValue(c, "radius2"))};
       }},
      {"point_line", [](const ContactSpec&) { return std::vector<Shape>{pointLine()}; }},
      {"translational_clearance",
       [](const ContactSpec& c) {
         const double a = contactParameterValue(c, "half_length"), b = contactParameterValue(c, "half_height"),
                      gap = contactParameterValue(c, "clearance");
         return std::vector<Shape>{clearanceCorner(a, b, gap, -1, 1), clearanceCorner(a, b, gap, 1, 1),
                                   clearanceCorner(a, b, gap, -1, -1), clearanceCorner(a, b, gap, 1, -1)};
       }},
  };
  return table;
}

}  // namespace

void addContacts(System& sys, const ModelSpec& model, Diagnostics& diag) {
  for (std::size_t k = 0; k < model.contacts.size(); ++k) {
    const ContactSpec& spec = model.contacts[k];
    const std::string label = "contact '" + spec.name + "'";
    const auto builder = builders().find(spec.type.key());
    const ContactKindDescription* kind = findContactKind(spec.type.key());
    const MarkerRef* m1 = sys.marker(spec.body1, spec.marker1);
    const MarkerRef* m2 = sys.marker(spec.body2, spec.marker2);
    if (builder == builders().end() || !kind) {
      diag.error(label, "kind '" + spec.type.key() + "' has no contact geometry");
      continue;
    }
    if (!m1 || !m2) {
      diag.error(label, "marker '" + (m1 ? spec.body2 + "." + spec.marker2 : spec.body1 + "." + spec.marker1) +
                            "' not found");
      continue;
    }
    std::vector<Shape> shapes = builder->second(spec);
    const std::vector<std::string> names = contactPointNames(spec);
    for (std::size_t i = 0; i < shapes.size() && i < names.size(); ++i) {
      auto e = std::make_unique<MarkerContact>(*m1, *m2, std::move(shapes[i]));
      e->law = {spec.friction, spec.restitution, spec.tangential_restitution};
      e->tangents = spec.friction > 0 ? kind->tangents : 0;
      e->name = names[i];
      e->label = "contact '" + e->name + "'";
      e->where = "contacts[" + std::to_string(k) + "]";
      sys.addContact(std::move(e));
    }
  }
}

}  // namespace flexim
