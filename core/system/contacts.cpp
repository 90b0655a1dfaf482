// The contact kinds' geometry: each builder turns a model contact into contact points whose
// gap and relative-velocity Jacobians follow from two markers. The relative velocity is that
// of body1's material point at the contact point less body2's material point there; its normal
// part is the exact rate of the gap (the rotation of the normal adds nothing, since the points
// coincide to first order), so the Jacobian's normal row is the gap's gradient.
#include "core/system/contacts.h"

#include "core/base/rotation.h"
#include "core/model/description.h"
#include "core/system/flexible_body.h"
#include "core/system/system.h"

#include <functional>
#include <map>

namespace flexim {

void ContactPoint::resize(int rows, const std::vector<int>& cols) {
  W.resize(cols.size());
  for (std::size_t k = 0; k < cols.size(); ++k) W[k].setZero(rows, cols[k]);
}

namespace {

/// Adds sign * dirs^T times the velocity Jacobian of the material point at c (global) of a frame
/// block (body < 0: ground, nothing) to W, over [r_dot, omega'] ([I, -A skew(A^T (c - r))]).
void addPointRows(const std::vector<BodyKinematics>& kin, int body, int frame, const Vec3& c,
                  const Eigen::Ref<const Eigen::MatrixXd>& dirs, double sign, MatX& W) {
  if (body < 0) return;
  const BodyKinematics& B = kin[std::size_t(body) + 1];
  Mat36 J;
  J.leftCols<3>().setIdentity();
  J.rightCols<3>() = -B.A * skew(B.A.transpose() * (c - B.r));
  W.leftCols(frame) += sign * dirs.transpose() * J.leftCols(frame);
}

/// The contact's directions: the normal, then its tangents (as many as the element has).
Eigen::MatrixXd directions(const Vec3& n, const Vec3& t1, const Vec3& t2, int tangents) {
  Eigen::Matrix<double, 3, 3> dirs;
  dirs << n, t1, t2;
  return dirs.leftCols(1 + tangents);
}

/// Writes the rows of a contact at point c (global) between the bodies of m1 (+) and m2 (-).
void writeRows(const std::vector<BodyKinematics>& kin, const MarkerRef& m1, const MarkerRef& m2, const Vec3& c,
               const Vec3& n, const Vec3& t1, const Vec3& t2, int tangents, ContactPoint& out) {
  const Eigen::MatrixXd dirs = directions(n, t1, t2, tangents);
  addPointRows(kin, m1.body, m1.frame, c, dirs, 1.0, out.W[0]);
  addPointRows(kin, m2.body, m2.frame, c, dirs, -1.0, out.W[1]);
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

/// An FE node of a flexible body against the plane of marker2 (normal: its z axis): the node's
/// deformed position p = r + A (x_k + Phi_k w), and its velocity [I, -A skew(b), A Phi_k] v.
class NodeContact final : public ContactElement {
 public:
  NodeContact(const FlexibleBody& body, int node, const MarkerRef& plane)
      : m_body(body), m_node(node), m_plane(plane), m_modes(body.nodeModes(node)) {
    blocks = {body.body, plane.body};
  }
  void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, ContactPoint& out) const override {
    const BodyKinematics& K = kin[std::size_t(m_body.body) + 1];
    const MarkerKinematics k2 = sys.markerKinematics(kin, m_plane);
    MatX J;
    FlexibleBodyDynamics::nodeJacobian(K.A, m_body.data->coords[std::size_t(m_node)], m_modes, K.w, J);
    const Vec3 b = FlexibleBodyDynamics::nodeLocalPosition(m_body.data->coords[std::size_t(m_node)], m_modes, K.w);
    const Vec3 p = K.r + K.A * b, n = k2.axes.col(2);
    out.gap = n.dot(p - k2.p);
    out.point = p;
    out.normal = n;
    const Eigen::MatrixXd dirs = directions(n, k2.axes.col(0), k2.axes.col(1), tangents);
    out.W[0] += dirs.transpose() * J;
    addPointRows(kin, m_plane.body, m_plane.frame, p, dirs, -1.0, out.W[1]);
  }

 private:
  const FlexibleBody& m_body;
  int m_node;
  MarkerRef m_plane;
  MatX m_modes;  ///< 3 x m rows of the node
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
    // a contact point of this contact: its law, friction directions and names
    const auto add = [&](std::unique_ptr<ContactElement> e, const std::string& name, int tangents) {
      e->law = {spec.friction, spec.restitution, spec.tangential_restitution};
      e->tangents = spec.friction > 0 ? tangents : 0;
      e->name = name;
      e->label = "contact '" + name + "'";
      e->where = "contacts[" + std::to_string(k) + "]";
      sys.addContact(std::move(e));
    };
    const auto builder = builders().find(spec.type.key());
    const ContactKindDescription* kind = findContactKind(spec.type.key());
    const MarkerRef* m2 = sys.marker(spec.body2, spec.marker2);
    if (kind && kind->nodes) {  // FE nodes of a flexible body against marker2's plane
      const FlexibleBody* flex = sys.flexibleBody(sys.bodyIndex(spec.body1));
      const std::vector<std::string> names = contactPointNames(spec);
      if (!flex || !m2) {
        diag.error(label, flex ? "marker '" + spec.body2 + "." + spec.marker2 + "' not found"
                               : "'" + spec.body1 + "' is not a flexible body");
        continue;
      }
      for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
        const auto node = flex->nodeIndex.find(spec.nodes[i]);
        if (node == flex->nodeIndex.end()) {
          diag.error(label, "'" + spec.body1 + "' has no node " + std::to_string(spec.nodes[i]));
          continue;
        }
        add(std::make_unique<NodeContact>(*flex, node->second, *m2), names[i], kind->tangents);
      }
      continue;
    }
    const MarkerRef* m1 = sys.marker(spec.body1, spec.marker1);
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
      add(std::make_unique<MarkerContact>(*m1, *m2, std::move(shapes[i])), names[i], kind->tangents);
    }
  }
}

}  // namespace flexim
