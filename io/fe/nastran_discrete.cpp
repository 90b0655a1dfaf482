// Nastran masses and springs: CONM1, CONM2, CMASS1/2, CELAS1/2 and CBUSH with the properties
// PMASS, PELAS and PBUSH, into the model's masses, springs and rotary inertias (translational
// DOFs of grids only).
#include "io/fe/line_reader.h"
#include "io/fe/nastran_parser.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <array>
#include <string>

namespace flexim::io::nastran_detail {

void NastranParser::property(const Card& c) {
  // PELAS and PMASS hold up to 4 (PMASS) or 2 (PELAS) properties per line
  const bool elas = c.name == "PELAS", bush = c.name == "PBUSH";
  if (bush) {
    int pid = 0;
    if (!intField(c, 0, "property id", pid, true)) return;
    std::array<double, 6> k{};
    for (std::size_t i = 1; i < c.fields.size(); ++i)
      if (toUpper(trim(c.fields[i])) == "K") {
        for (std::size_t j = 0; j < 6; ++j) {
          bool given = false;
          if (!realField(c, i + 1 + j, "K", k[j], given)) return;
        }
        break;
      }
    if (!m_pbush.emplace(pid, std::make_pair(k, c.loc)).second)
      error(c.loc, "PBUSH " + std::to_string(pid) + " is defined twice");
    return;
  }
  const std::size_t stride = elas ? 4 : 2;
  for (std::size_t i = 0; i + 1 < c.fields.size() && i < 8; i += stride) {
    if (blank(c, i)) continue;
    int pid = 0;
    double v = 0;
    bool given = false;
    if (!intField(c, i, "property id", pid, true) || !realField(c, i + 1, elas ? "K" : "M", v, given)) return;
    auto& table = elas ? m_pelas : m_pmass;
    if (!table.emplace(pid, std::make_pair(v, fieldLoc(c, i))).second)
      error(fieldLoc(c, i), c.name + " " + std::to_string(pid) + " is defined twice");
  }
}

bool NastranParser::gridIndex(const Card& c, std::size_t field, bool required, int& index) {
  index = -1;
  int id = 0;
  if (blank(c, field) && !required) return true;
  if (!intField(c, field, "grid", id, true)) return false;
  index = m_model.indexOf(id);
  if (index < 0) {
    error(fieldLoc(c, field), label(c) + " uses grid " + std::to_string(id) + ", which is not defined");
    return false;
  }
  return true;
}

/// Masses and springs on the translational DOFs of GRIDs (the solid model has no rotations):
/// CONM2's offset and inertia, CONM1's rotational rows, rotational components of CMASS/CELAS and
/// CBUSH K4..K6 are dropped with a warning; scalar points are not supported. CONM1/CONM2 CID and
/// CBUSH CID are coordinate systems (cylindrical and spherical ones taken at the grid, GA for
/// CBUSH); CMASS/CELAS components are in the grid's displacement system (CD).
void NastranParser::discrete(const Card& c, fe::FeModel& m) {
  const std::string lab = where(c.loc) + ": " + label(c);
  auto warn = [&](const std::string& msg) { m_diag.warning(where(c.loc), label(c) + ": " + msg); };
  if (c.name == "CONM2" || c.name == "CONM1") {
    int g = -1, cid = 0;
    if (!gridIndex(c, 1, true, g) || !intField(c, 2, "CID", cid, false)) return;
    std::array<double, 21> v{};  // CONM2: M X1 X2 X3 _ I11 I21 I22 I31 I32 I33; CONM1: M11 M21 M22 ... M66
    const std::size_t count = c.name == "CONM2" ? 11 : 21;
    for (std::size_t i = 0; i < count; ++i) {
      bool given = false;
      if (c.name == "CONM2" && i == 4) continue;  // field 9 of the first line is blank
      if (!realField(c, 3 + i, "value", v[i], given)) return;
    }
    if (cid < -1 || (cid == -1 && c.name == "CONM1")) {
      error(c.loc, label(c) + ": CID = " + std::to_string(cid) + " must be 0 or a coordinate system id" +
                       (c.name == "CONM2" ? " (or -1)" : ""));
      return;
    }
    Eigen::Matrix3d A = Eigen::Matrix3d::Identity();  // the CID's axes at the grid
    if (cid > 0 && !axesAt(c, cid, m.coords[static_cast<std::size_t>(g)], A)) return;
    Eigen::Matrix3d Mt = Eigen::Matrix3d::Zero(), J = Eigen::Matrix3d::Zero();
    if (c.name == "CONM2") {
      if (v[0] < 0) {
        error(c.loc, label(c) + ": mass " + std::to_string(v[0]) + " is negative");
        return;
      }
      Mt = v[0] * Eigen::Matrix3d::Identity();
      Eigen::Vector3d offset = A * Eigen::Vector3d(v[1], v[2], v[3]);
      if (cid == -1) offset -= m.coords[static_cast<std::size_t>(g)];  // X is the centre of gravity
      if (offset.norm() > 0)
        warn("offset (" + std::to_string(offset.x()) + ", " + std::to_string(offset.y()) + ", " +
             std::to_string(offset.z()) + ") ignored: the mass is put on the grid (solid nodes have no rotations to "
             "carry it)");
      J << v[5], -v[6], -v[8], -v[6], v[7], -v[9], -v[8], -v[9], v[10];  // Nastran: I21 etc. are minus the products
    } else {
      // lower triangle by rows: M11 M21 M22 M31 M32 M33 M41 ... M66
      Eigen::Matrix<double, 6, 6> M6 = Eigen::Matrix<double, 6, 6>::Zero();
      for (int i = 0, k = 0; i < 6; ++i)
        for (int j = 0; j <= i; ++j, ++k) M6(i, j) = M6(j, i) = v[static_cast<std::size_t>(k)];
      Mt = M6.topLeftCorner<3, 3>();
      J = M6.bottomRightCorner<3, 3>();
      if (M6.bottomLeftCorner<3, 3>().norm() > 0) warn("translation-rotation coupling terms dropped (no rotational DOFs)");
      Mt = A * Mt * A.transpose();
    }
    J = A * J * A.transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(Mt);
    if (es.eigenvalues().minCoeff() < -1e-12 * std::max(1.0, es.eigenvalues().cwiseAbs().maxCoeff())) {
      error(c.loc, label(c) + ": the translational mass matrix is not positive semi-definite");
      return;
    }
    for (int k = 0; k < 3; ++k) {
      const double lam = es.eigenvalues()(k);
      if (!(lam > 0)) continue;
      fe::Discrete d{lab, lam, {}};
      for (int a = 0; a < 3; ++a)
        if (es.eigenvectors()(a, k) != 0) d.terms.push_back({g, a, es.eigenvectors()(a, k)});
      m.masses.push_back(d);
    }
    if (J.norm() > 0) {
      m.rotary_inertias.push_back({lab, g, J});
      warn("rotary inertia is not in the mass matrix (solid nodes have no rotational DOFs)");
    }
    return;
  }
  if (c.name == "CBUSH") {
    int pid = 0, ga = -1, gb = -1, cid = 0;
    if (!intField(c, 1, "PID", pid, true) || !gridIndex(c, 2, true, ga) || !gridIndex(c, 3, false, gb)) return;
    const bool hasCid = !blank(c, 7);
    if (hasCid && !intField(c, 7, "CID", cid, true)) return;
    const auto prop = m_pbush.find(pid);
    if (prop == m_pbush.end()) {
      error(c.loc, label(c) + ": property " + std::to_string(pid) + " is not defined (no PBUSH " + std::to_string(pid) + ")");
      return;
    }
    const auto& k = prop->second.first;
    if (k[3] != 0 || k[4] != 0 || k[5] != 0) warn("rotational stiffness K4..K6 dropped (solid nodes have no rotations)");
    Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();  // columns: element x, y, z in basic
    if (hasCid && (cid < 0 || !axesAt(c, cid, m.coords[static_cast<std::size_t>(ga)], axes))) {
      if (cid < 0) error(c.loc, label(c) + ": CID = " + std::to_string(cid) + " must be 0 or a coordinate system id");
      return;
    }
    if (!hasCid) {
      const Eigen::Vector3d d = gb >= 0 ? Eigen::Vector3d(m.coords[static_cast<std::size_t>(gb)] - m.coords[static_cast<std::size_t>(ga)])
                                        : Eigen::Vector3d::Zero();
      if (!(d.norm() > 0)) {
        error(c.loc, label(c) + ": without CID the element axis runs from GA to GB, which coincide or GB is blank; give CID");
        return;
      }
      const Eigen::Vector3d x = d.normalized();
      Eigen::Vector3d v = Eigen::Vector3d::Zero();
      if (!blank(c, 4) && blank(c, 5) && blank(c, 6)) {  // GO: orientation grid
        int go = -1;
        if (!gridIndex(c, 4, true, go)) return;
        v = m.coords[static_cast<std::size_t>(go)] - m.coords[static_cast<std::size_t>(ga)];
      } else {
        for (int a = 0; a < 3; ++a) {
          bool given = false;
          if (!realField(c, 4 + static_cast<std::size_t>(a), "orientation", v[a], given)) return;
        }
      }
      Eigen::Vector3d y = v - v.dot(x) * x;
      if (!(y.norm() > 1e-12 * v.norm()) || v.norm() == 0) {
        if (k[1] != k[2]) {
          error(c.loc, label(c) + ": the orientation vector is missing or parallel to GA-GB, and K2 != K3");
          return;
        }
        y = x.unitOrthogonal();  // any normal will do when K2 = K3
      }
      y.normalize();
      axes.col(0) = x;
      axes.col(1) = y;
      axes.col(2) = x.cross(y);
    }
    for (int a = 0; a < 3; ++a) {
      if (k[static_cast<std::size_t>(a)] == 0) continue;
      if (k[static_cast<std::size_t>(a)] < 0) {
        error(prop->second.second, "PBUSH " + std::to_string(pid) + ": negative stiffness K" + std::to_string(a + 1));
        return;
      }
      fe::Discrete d{lab, k[static_cast<std::size_t>(a)], {}};
      for (int b = 0; b < 3; ++b) {
        if (axes(b, a) == 0) continue;
        d.terms.push_back({ga, b, axes(b, a)});
        if (gb >= 0) d.terms.push_back({gb, b, -axes(b, a)});
      }
      m.springs.push_back(d);
    }
    return;
  }
  // CELAS1/CELAS2/CMASS1/CMASS2: EID PID|value G1 C1 G2 C2
  const bool elas = c.name[1] == 'E', byProperty = c.name.back() == '1';
  double value = 0;
  if (byProperty) {
    int pid = 0;
    if (!intField(c, 1, "PID", pid, true)) return;
    const auto& table = elas ? m_pelas : m_pmass;
    const auto it = table.find(pid);
    if (it == table.end()) {
      error(c.loc, label(c) + ": property " + std::to_string(pid) + " is not defined (no " + (elas ? "PELAS " : "PMASS ") +
                       std::to_string(pid) + ")");
      return;
    }
    value = it->second.first;
  } else {
    bool given = false;
    if (!realField(c, 1, elas ? "K" : "M", value, given)) return;
  }
  if (value < 0) {
    error(c.loc, label(c) + ": " + (elas ? "stiffness " : "mass ") + std::to_string(value) + " is negative");
    return;
  }
  fe::Discrete d{lab, value, {}};
  for (int end = 0; end < 2; ++end) {
    const std::size_t gf = 2 + 2 * static_cast<std::size_t>(end);
    if (blank(c, gf)) continue;
    int g = -1, comp = 0;
    if (!intField(c, gf + 1, "component", comp, false)) return;
    if (comp < 1 || comp > 6) {
      warn("scalar points (component 0 or blank) are not supported; the card is skipped");
      return;
    }
    if (comp > 3) {
      warn("rotational component " + std::to_string(comp) + ": solid nodes have no rotations; the card is skipped");
      return;
    }
    if (!gridIndex(c, gf, true, g)) return;
    const Eigen::Vector3d dir = nodeDirection(g, comp - 1);  // the component in the grid's CD system
    for (int a = 0; a < 3; ++a)
      if (dir[a] != 0) d.terms.push_back({g, a, (end == 0 ? 1.0 : -1.0) * dir[a]});
  }
  if (d.terms.empty()) {
    error(c.loc, label(c) + ": no grid given");
    return;
  }
  (elas ? m.springs : m.masses).push_back(d);
}

}  // namespace flexim::io::nastran_detail
