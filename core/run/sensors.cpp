#include "core/run/sensors.h"

#include "core/fe/stress.h"
#include "core/model/description.h"
#include "core/run/sensor_probes.h"

#include "core/system/joints.h"

#include <cmath>
#include <numbers>

namespace flexim {

using Quantity = SensorQuantity;

struct SensorSet::Item {
  SensorSpec::Type type;
  Quantity quantity;
  bool bodyAxes = false;
  const MarkerRef* marker = nullptr;
  int joint = -1;
  const MarkerRef* m1 = nullptr;
  const MarkerRef* m2 = nullptr;
  bool rotation = false, translation = false;
  const FlexibleBody* flex = nullptr;  ///< Node, Deflection, Modal: the flexible body
  int node = -1, chordA = -1, chordB = -1;  ///< node indices
  mutable double lastAngle = 0, turns = 0;
  mutable bool hasAngle = false;
  /// Per value the quantity computes (in SI): whether it is a channel (the sensor's
  /// `components`) and the factor to the channel's unit. Empty: every value, as computed.
  std::vector<char> keep;
  std::vector<double> scale;
  std::shared_ptr<SensorProbe> unit;  ///< a kind with a unit of its own: it computes the values
};

SensorSet::SensorSet(const System& sys, Diagnostics& diag) : m_sys(sys) {
  const auto& model = sys.model();
  for (size_t i = 0; i < model.sensors.size(); ++i) {
    const auto& spec = model.sensors[i];
    const std::string where = "sensors[" + std::to_string(i) + "] '" + spec.name + "'";
    Item base;
    base.type = spec.type;
    base.bodyAxes = spec.frame == SensorSpec::Frame::Body;
    const SensorProbeFactory* unit = findSensorProbe(spec.type.key());
    if (unit) {
      // resolved by the kind's unit, per quantity (below)
    } else if (spec.type == SensorSpec::Type::Marker) {
      base.marker = sys.marker(spec.body, spec.marker);
      if (!base.marker) {
        diag.error(where + ".marker", "no marker '" + spec.marker + "' on body '" + spec.body + "'");
        continue;
      }
    } else if (spec.type == SensorSpec::Type::Node || spec.type == SensorSpec::Type::Deflection ||
               spec.type == SensorSpec::Type::Modal || spec.type == SensorSpec::Type::Stress) {
      base.flex = sys.flexibleBody(sys.bodyIndex(spec.body));
      if (!base.flex) {
        diag.error(where + ".body", "'" + spec.body + "' is not a flexible body");
        continue;
      }
      const auto& index = base.flex->nodeIndex;
      auto nodeOf = [&](int id, const std::string& key) {
        const auto it = index.find(id);
        if (it == index.end()) diag.error(where + "." + key, "'" + spec.body + "' has no node " + std::to_string(id));
        return it == index.end() ? -1 : it->second;
      };
      if (spec.type != SensorSpec::Type::Modal && (base.node = nodeOf(spec.node, "node")) < 0) continue;
      if (spec.type == SensorSpec::Type::Stress && base.flex->data->stress_modes.size() == 0) {
        diag.error(where + ".type", "the file of '" + spec.body + "' has no stress modes (reduce it again)");
        continue;
      }
      if (spec.type == SensorSpec::Type::Deflection) {
        if (spec.chord.size() != 2 || spec.chord[0] == spec.chord[1]) {
          diag.error(where + ".chord", "expected two different node ids");
          continue;
        }
        base.chordA = nodeOf(spec.chord[0], "chord[0]");
        base.chordB = nodeOf(spec.chord[1], "chord[1]");
        if (base.chordA < 0 || base.chordB < 0) continue;
      }
    } else if (spec.type == SensorSpec::Type::Joint) {
      for (size_t j = 0; j < model.joints.size(); ++j)
        if (model.joints[j].name == spec.joint) base.joint = static_cast<int>(j);
      if (base.joint < 0) {
        diag.error(where + ".joint", "unknown joint '" + spec.joint + "'");
        continue;
      }
      const auto& js = model.joints[base.joint];
      base.m1 = sys.marker(js.body1, js.marker1);
      base.m2 = sys.marker(js.body2, js.marker2);
      // the coordinates a driver could drive are the ones a sensor reads
      const JointKindDescription* kind = findJointKind(js.type.key());
      base.rotation = kind && kind->rotation;
      base.translation = kind && kind->translation;
    }
    for (const auto& qname : spec.quantities) {
      const SensorQuantityInfo* info = findSensorQuantity(spec.type, qname);
      if (!info) {
        diag.error(where + ".quantities", "unknown quantity '" + qname + "' for a " + toString(spec.type) + " sensor");
        continue;
      }
      Item item = base;
      item.quantity = info->q;
      if (unit && !(item.unit = (*unit)(sys, spec, *info, where, diag))) continue;
      const std::string prefix = spec.name + "." + qname + ".";
      // a value the quantity computes (in SI): a channel in the sensor's units, or left out
      auto value = [&](const std::string& component, const std::string& siUnit, bool recorded) {
        const SensorUnit shown = sensorUnit(spec, siUnit);
        item.keep.push_back(recorded);
        item.scale.push_back(shown.scale);
        if (recorded) m_channels.push_back({prefix + component, shown.unit});
      };
      if (info->q == Quantity::Coordinate || info->q == Quantity::CoordinateRate) {
        if (!base.rotation && !base.translation) {
          diag.error(where + ".quantities", std::string("a ") + toString(model.joints[base.joint].type) +
                                                " joint has no scalar coordinate");
          continue;
        }
        const bool rate = info->q == Quantity::CoordinateRate;
        if (base.rotation) value("rotation", rate ? "rad/s" : "rad", true);
        if (base.translation) value("translation", rate ? "m/s" : "m", true);
      } else if (info->q == Quantity::ModalCoordinate || info->q == Quantity::ModalVelocity) {
        // mass-normalised modes: modal coordinates carry sqrt(kg) m (kept in SI: no keep/scale)
        const int m = static_cast<int>(base.flex->data->modes.cols());
        for (int j = 0; j < m; ++j)
          m_channels.push_back({prefix + std::to_string(j + 1),
                                info->q == Quantity::ModalCoordinate ? "kg^0.5 m" : "kg^0.5 m/s"});
      } else {
        for (const char* c : info->components) value(c, info->unit, recordsComponent(spec, *info, c));
      }
      m_items.push_back(item);
    }
  }
}

SensorSet::~SensorSet() = default;

void SensorSet::evaluate(const State& s, const VecX& vdot, const VecX& lambda, std::vector<double>& out) {
  m_sys.kinematics(s, m_kin);
  auto put = [&](const Vec3& v) { out.insert(out.end(), {v.x(), v.y(), v.z()}); };
  const SensorContext context{m_sys, m_kin, s, vdot, lambda};
  for (const Item& it : m_items) {
    const std::size_t first = out.size();
    if (it.unit) it.unit->evaluate(context, out);
    else switch (it.type) {
      case SensorSpec::Type::Marker: {
        const MarkerKinematics k = m_sys.markerKinematics(m_kin, *it.marker);
        const int b = it.marker->body;
        Vec6 acc = Vec6::Zero();  // of the body's frame; a point body's angular part stays zero
        if (b >= 0) acc.head(k.frame) = vdot.segment(m_sys.block(b).v0, k.frame);
        const Mat3 toAxes = it.bodyAxes ? Mat3(k.body->A.transpose()) : Mat3::Identity();
        switch (it.quantity) {
          case Quantity::Position: put(toAxes * k.p); break;
          case Quantity::Orientation: {
            Quat o(k.axes);
            if (o.w() < 0) o.coeffs() = -o.coeffs();  // one sign convention: w >= 0
            out.insert(out.end(), {o.w(), o.x(), o.y(), o.z()});
            break;
          }
          case Quantity::Velocity: put(toAxes * k.pdot); break;
          case Quantity::AngularVelocity: put(toAxes * k.body->omega); break;
          case Quantity::Acceleration: put(toAxes * (k.Jp * acc + k.pddot_bias)); break;
          case Quantity::AngularAcceleration: put(toAxes * (k.body->A * acc.tail<3>())); break;
          default: break;
        }
        break;
      }
      case SensorSpec::Type::Joint: {
        const MarkerKinematics k1 = m_sys.markerKinematics(m_kin, *it.m1), k2 = m_sys.markerKinematics(m_kin, *it.m2);
        if (it.quantity == Quantity::Coordinate || it.quantity == Quantity::CoordinateRate) {
          const bool rate = it.quantity == Quantity::CoordinateRate;
          if (it.rotation) {
            const JointCoordinate c = jointRotation(k1, k2);
            if (!rate) {
              // unwrap: count full turns between samples so the angle is continuous
              if (it.hasAngle) {
                const double jump = c.value - it.lastAngle;
                if (jump > std::numbers::pi) it.turns -= 1;
                if (jump < -std::numbers::pi) it.turns += 1;
              }
              it.lastAngle = c.value;
              it.hasAngle = true;
            }
            out.push_back(rate ? c.rate : c.value + 2 * std::numbers::pi * it.turns);
          }
          if (it.translation) {
            const JointCoordinate c = jointTranslation(k1, k2);
            out.push_back(rate ? c.rate : c.value);
          }
          break;
        }
        // reaction of body1 on body2 through the joint (its driver included), at marker2
        Vec6 g = Vec6::Zero();
        const auto& cons = m_sys.constraints();
        std::vector<ConstraintRows> rows(1);
        for (size_t c = 0; c < cons.size(); ++c) {
          if (cons[c]->joint_index != it.joint) continue;
          m_sys.constraint(static_cast<int>(c), m_kin, s.t, rows[0]);
          const auto lam = lambda.segment(m_sys.constraintOffsets()[c], cons[c]->rows());
          g -= rows[0].G[1].transpose() * lam;
        }
        const Vec3 F = g.head<3>();
        const Vec3 Tcom = k2.body->A * g.tail<3>();
        const Mat3 toAxes = it.bodyAxes ? Mat3(k2.body->A.transpose()) : Mat3::Identity();
        if (it.quantity == Quantity::ReactionForce) put(toAxes * F);
        else put(toAxes * (Tcom - k2.sg.cross(F)));
        break;
      }
      case SensorSpec::Type::Energy: {
        // disjoint parts: kinetic + gravity + spring + strain = total; potential = the last three
        const System::PotentialParts V = m_sys.potentialParts(m_kin);
        switch (it.quantity) {
          case Quantity::Strain: out.push_back(V.strain); break;
          case Quantity::Gravity: out.push_back(V.gravity); break;
          case Quantity::Spring: out.push_back(V.spring); break;
          case Quantity::Potential: out.push_back(V.gravity + V.spring + V.strain); break;
          case Quantity::Kinetic: out.push_back(m_sys.kineticEnergy(m_kin)); break;
          default: out.push_back(m_sys.kineticEnergy(m_kin) + V.gravity + V.spring + V.strain); break;  // total
        }
        break;
      }
      case SensorSpec::Type::Node:
      case SensorSpec::Type::Deflection:
      case SensorSpec::Type::Modal:
      case SensorSpec::Type::Stress: evaluateFlexible(it, vdot, out); break;
    }
    // the chosen components, in the sensor's units
    if (it.keep.empty()) continue;
    std::size_t kept = first;
    for (std::size_t k = 0; k < it.keep.size() && first + k < out.size(); ++k)
      if (it.keep[k]) out[kept++] = out[first + k] * it.scale[k];
    out.resize(kept);
  }
}

void SensorSet::evaluateFlexible(const Item& it, const VecX& vdot, std::vector<double>& out) const {
  const FlexibleBody& F = *it.flex;
  const Block& B = m_sys.block(F.body);
  const int modes = F.dyn->modes();
  const BodyKinematics& K = m_kin[F.body + 1];
  auto put = [&](const Vec3& v) { out.insert(out.end(), {v.x(), v.y(), v.z()}); };
  auto local = [&](int k, const VecX& w) {  // b'_k (internal frame)
    return FlexibleBodyDynamics::nodeLocalPosition(F.data->coords[k], F.nodeModes(k), w);
  };
  switch (it.quantity) {
    case Quantity::ModalCoordinate:
      for (int j = 0; j < modes; ++j) out.push_back(K.w(j));
      return;
    case Quantity::ModalVelocity:
      for (int j = 0; j < modes; ++j) out.push_back(K.wdot(j));
      return;
    case Quantity::Deflection:
    case Quantity::NormalizedDeflection: {
      // offset of the node from the chord through the two chord nodes, minus its undeformed value
      auto offChord = [&](const VecX& w) {
        const Vec3 a = local(it.chordA, w), d = local(it.node, w) - a;
        const Vec3 e = (local(it.chordB, w) - a).normalized();
        return Vec3(d - d.dot(e) * e);
      };
      const VecX zero = VecX::Zero(modes);
      Vec3 defl = F.R * (offChord(K.w) - offChord(zero));
      if (it.quantity == Quantity::NormalizedDeflection)
        defl /= (F.data->coords[it.chordB] - F.data->coords[it.chordA]).norm();
      put(defl);
      return;
    }
    case Quantity::NodeDisplacement: put(F.R * (F.nodeModes(it.node) * K.w)); return;
    case Quantity::Stress:
    case Quantity::VonMises:
    case Quantity::MaxPrincipal:
    case Quantity::MinPrincipal: {
      const fe::Stress6 sigma = F.data->stress_modes.middleRows<6>(6 * it.node) * K.w;
      if (it.quantity == Quantity::Stress) out.insert(out.end(), sigma.data(), sigma.data() + 6);
      else if (it.quantity == Quantity::VonMises) out.push_back(fe::vonMises(sigma));
      else out.push_back(fe::principalStresses(sigma)(it.quantity == Quantity::MaxPrincipal ? 0 : 2));
      return;
    }
    default: break;
  }
  const Vec3& x = F.data->coords[it.node];
  const MatX Phi = F.nodeModes(it.node);
  const Mat3 toAxes = it.bodyAxes ? Mat3(F.R * K.A.transpose()) : Mat3::Identity();
  MatX Jk;
  FlexibleBodyDynamics::nodeJacobian(K.A, x, Phi, K.w, Jk);
  switch (it.quantity) {
    case Quantity::NodePosition: put(toAxes * (K.r + K.A * local(it.node, K.w))); break;
    case Quantity::NodeVelocity: put(toAxes * (Jk * K.velocity())); break;
    case Quantity::NodeAcceleration:
      put(toAxes * (Jk * vdot.segment(B.v0, B.nv()) +
                    FlexibleBodyDynamics::nodeAccelerationBias(K.A, K.omega_body, x, Phi, K.w, K.wdot)));
      break;
    default: break;
  }
}

}  // namespace flexim
