// The beam sensor: a beam element's strains and stress resultants, solved from its two nodes as
// its force element does (core/system/beam_elements.h). Resultants are in the section axes
// (x along the beam): force [N, Q_y, Q_z] (constant along the element), moments [T, M_y, M_z]
// at its start and end, from the strains less the initial ones.
#include "core/run/sensor_probes.h"
#include "core/system/beam_elements.h"
#include "core/system/system.h"

#include <optional>

namespace flexim {

namespace {

class BeamProbe final : public SensorProbe {
 public:
  BeamProbe(BeamElementKernel kernel, int node1, int node2, std::string quantity)
      : m_kernel(std::move(kernel)), m_node1(node1), m_node2(node2), m_quantity(std::move(quantity)) {}

  void evaluate(const SensorContext& c, std::vector<double>& out) override {
    const BodyKinematics& p = c.kinematics[std::size_t(m_node1 + 1)];
    const BodyKinematics& q = c.kinematics[std::size_t(m_node2 + 1)];
    const BeamNodePose a{p.r, Quat(p.A)}, b{q.r, Quat(q.A)};
    BeamSolution s;
    const bool solved = (m_last.size() == m_kernel.strainCount() && m_kernel.solve(a, b, &m_last, s)) ||
                        m_kernel.solve(a, b, nullptr, s);
    const auto nan = std::numeric_limits<double>::quiet_NaN();
    const int n = m_quantity == "axial_strain" ? 1 : 3;
    if (!solved) {
      out.insert(out.end(), std::size_t(n), nan);
      return;
    }
    m_last = s.strains;
    const Eigen::Matrix<double, 7, 1> e = m_kernel.fullStrains(s.strains);
    const double l0 = m_kernel.length();
    if (m_quantity == "axial_strain") {
      out.push_back(e(0));
    } else if (m_quantity == "curvature_start" || m_quantity == "curvature_end") {
      // torsion rate and curvatures [1/m] at the end, l0 κ = the strains of that end
      const int end = m_quantity == "curvature_end" ? 1 : 0;
      out.insert(out.end(), {e(1 + end) / l0, e(3 + end) / l0, e(5 + end) / l0});
    } else if (m_quantity == "force") {
      const BeamResultants r = m_kernel.resultants(s.strains, 0.5);
      out.insert(out.end(), {r.N, r.Qy, r.Qz});
    } else {
      const BeamResultants r = m_kernel.resultants(s.strains, m_quantity == "moment_end" ? 1.0 : 0.0);
      out.insert(out.end(), {r.T, r.My, r.Mz});
    }
  }

 private:
  BeamElementKernel m_kernel;
  int m_node1, m_node2;
  std::string m_quantity;
  VecX m_last;  ///< the last strains: the next solve's start
};

}  // namespace

std::unique_ptr<SensorProbe> makeBeamSensor(const System& sys, const SensorSpec& spec,
                                            const SensorQuantityInfo& quantity, const std::string& where,
                                            Diagnostics& diag) {
  const ModelSpec& model = sys.model();
  for (const BeamElementSpec& e : model.beam_elements) {
    if (e.name != spec.element) continue;
    std::optional<BeamElementKernel> kernel = beamKernel(model, e);
    const int n1 = sys.bodyIndex(e.node1), n2 = sys.bodyIndex(e.node2);
    if (!kernel || n1 < 0 || n2 < 0) break;
    return std::make_unique<BeamProbe>(std::move(*kernel), n1, n2, quantity.name);
  }
  diag.error(where + ".element", "no beam element '" + spec.element + "'");
  return nullptr;
}

}  // namespace flexim
