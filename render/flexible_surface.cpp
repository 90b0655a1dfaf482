#include "render/flexible_surface.h"

#include "core/fe/stress.h"

#include <limits>

#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>

#include <algorithm>
#include <cmath>

namespace flexim::render {

namespace {

struct ContourName {
  ContourQuantity quantity;
  const char* key;     ///< --contour value
  const char* symbol;  ///< legend
};
constexpr ContourName kContourNames[] = {
    {ContourQuantity::Magnitude, "magnitude", "|u|"},
    {ContourQuantity::X, "x", "u_x"},
    {ContourQuantity::Y, "y", "u_y"},
    {ContourQuantity::Z, "z", "u_z"},
    {ContourQuantity::VonMises, "von_mises", "von Mises"},
    {ContourQuantity::MaxPrincipal, "max_principal", "sigma_1"},
    {ContourQuantity::MinPrincipal, "min_principal", "sigma_3"},
    {ContourQuantity::Sxx, "sxx", "sigma_xx"},
    {ContourQuantity::Syy, "syy", "sigma_yy"},
    {ContourQuantity::Szz, "szz", "sigma_zz"},
    {ContourQuantity::Sxy, "sxy", "sigma_xy"},
    {ContourQuantity::Syz, "syz", "sigma_yz"},
    {ContourQuantity::Szx, "szx", "sigma_zx"},
    {ContourQuantity::EquivalentStrain, "strain", "eps_eq"},
    {ContourQuantity::MaxPrincipalStrain, "max_principal_strain", "eps_1"},
    {ContourQuantity::MinPrincipalStrain, "min_principal_strain", "eps_3"},
    {ContourQuantity::Exx, "exx", "eps_xx"},
    {ContourQuantity::Eyy, "eyy", "eps_yy"},
    {ContourQuantity::Ezz, "ezz", "eps_zz"},
    {ContourQuantity::Exy, "exy", "eps_xy"},
    {ContourQuantity::Eyz, "eyz", "eps_yz"},
    {ContourQuantity::Ezx, "ezx", "eps_zx"},
};

}  // namespace

const char* contourSymbol(ContourQuantity quantity) {
  for (const ContourName& n : kContourNames)
    if (n.quantity == quantity) return n.symbol;
  return "?";
}

bool parseContourQuantity(const std::string& text, ContourQuantity& quantity) {
  for (const ContourName& n : kContourNames)
    if (text == n.key) {
      quantity = n.quantity;
      return true;
    }
  return false;
}

bool isStress(ContourQuantity quantity) {
  return int(quantity) >= int(ContourQuantity::VonMises) && int(quantity) <= int(ContourQuantity::Szx);
}

bool isStrain(ContourQuantity quantity) { return int(quantity) >= int(ContourQuantity::EquivalentStrain); }

ContourUnit contourUnit(ContourQuantity quantity) {
  if (isStress(quantity)) return {"MPa", 1e-6};
  if (isStrain(quantity)) return {"um/m", 1e6};
  return {"mm", 1e3};
}

FlexibleSurface::FlexibleSurface(const fe::ReducedBody& body, int modeCount, double stiffnessScale) {
  const int nodeCount = int(body.coords.size());
  const int available = body.modes.rows() == 3 * Eigen::Index(nodeCount) ? int(body.modes.cols()) : 0;
  const int m = (modeCount <= 0 || modeCount > available) ? available : modeCount;

  // the nodes the display needs: those of the surface triangles (all nodes when there are none)
  std::vector<int> local(std::size_t(nodeCount), -1);
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  for (const std::array<int, 3>& tri : body.surface) {
    bool valid = true;
    for (int corner : tri) valid = valid && corner >= 0 && corner < nodeCount;
    if (!valid || tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) continue;
    vtkIdType ids[3];
    for (int c = 0; c < 3; ++c) {
      int& index = local[std::size_t(tri[std::size_t(c)])];
      if (index < 0) {
        index = int(m_nodes.size());
        m_nodes.push_back(tri[std::size_t(c)]);
      }
      ids[c] = index;
    }
    cells->InsertNextCell(3, ids);
  }
  m_hasTriangles = !m_nodes.empty();
  if (!m_hasTriangles) {
    for (int n = 0; n < nodeCount; ++n) {
      m_nodes.push_back(n);
      const vtkIdType id = n;
      cells->InsertNextCell(1, &id);
    }
  }

  const Eigen::Index k = Eigen::Index(m_nodes.size());
  m_base.resize(3 * k);
  m_phi.resize(3 * k, m);
  m_undeformed.reserve(m_nodes.size());
  for (Eigen::Index j = 0; j < k; ++j) {
    const int node = m_nodes[std::size_t(j)];
    m_undeformed.push_back(body.coords[std::size_t(node)]);
    m_base.segment<3>(3 * j) = body.coords[std::size_t(node)];
    if (m > 0) m_phi.middleRows<3>(3 * j) = body.modes.block(3 * Eigen::Index(node), 0, 3, m);
  }
  if (m > 0 && body.stress_modes.rows() == 6 * Eigen::Index(nodeCount) && body.stress_modes.cols() >= m) {
    m_stress.resize(6 * k, m);
    for (Eigen::Index j = 0; j < k; ++j)
      m_stress.middleRows<6>(6 * j) = body.stress_modes.block(6 * Eigen::Index(m_nodes[std::size_t(j)]), 0, 6, m);
    if (body.node_elasticity.size() == std::size_t(nodeCount)) {
      // strain = C^-1 sigma per node, linear: one strain mode per stress mode
      m_strain.resize(6 * k, m);
      for (Eigen::Index j = 0; j < k; ++j) {
        const auto [E, nu] = body.node_elasticity[std::size_t(m_nodes[std::size_t(j)])];
        for (Eigen::Index c = 0; c < m; ++c)
          m_strain.block<6, 1>(6 * j, c) = E > 0.0 ? fe::strainOf(m_stress.block<6, 1>(6 * j, c), E, nu) : fe::Stress6::Zero();
      }
    }
    m_stress *= stiffnessScale;  // sigma = E epsilon with the scaled E, as the run's sensors have it
  }
  m_modal = Eigen::VectorXd::Zero(m);
  m_u = Eigen::VectorXd::Zero(3 * k);

  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(k);
  m_values = vtkSmartPointer<vtkDoubleArray>::New();
  m_values->SetName(kDisplacementArray);
  m_values->SetNumberOfComponents(1);
  m_values->SetNumberOfTuples(k);
  m_mesh = vtkSmartPointer<vtkPolyData>::New();
  m_mesh->SetPoints(points);
  if (m_hasTriangles)
    m_mesh->SetPolys(cells);
  else
    m_mesh->SetVerts(cells);
  m_mesh->GetPointData()->SetScalars(m_values);

  auto undeformedPoints = vtkSmartPointer<vtkPoints>::New();
  undeformedPoints->SetDataTypeToDouble();
  undeformedPoints->SetNumberOfPoints(k);
  for (Eigen::Index j = 0; j < k; ++j) undeformedPoints->SetPoint(j, m_base.segment<3>(3 * j).data());
  m_undeformedMesh = vtkSmartPointer<vtkPolyData>::New();
  m_undeformedMesh->SetPoints(undeformedPoints);
  if (m_hasTriangles)
    m_undeformedMesh->SetPolys(cells);
  else
    m_undeformedMesh->SetVerts(cells);
  update();
}

FlexibleSurface::~FlexibleSurface() = default;

vtkPolyData* FlexibleSurface::mesh() const { return m_mesh; }

vtkPolyData* FlexibleSurface::undeformedMesh() const { return m_undeformedMesh; }

void FlexibleSurface::setQuantity(ContourQuantity quantity) {
  if (quantity == m_quantity) return;
  m_quantity = quantity;
  update();
}

Eigen::VectorXd FlexibleSurface::quantityOf(const Eigen::VectorXd& u, const Eigen::VectorXd& modal) const {
  const Eigen::Index k = u.size() / 3;
  if (isStress(m_quantity) || isStrain(m_quantity)) {
    const bool strain = isStrain(m_quantity);
    const Eigen::MatrixXd& modes = strain ? m_strain : m_stress;
    if (modes.size() == 0) return Eigen::VectorXd::Zero(k);
    const Eigen::VectorXd tensors = modes.leftCols(modal.size()) * modal;
    // the place in its group (the enum lists both alike): equivalent, max and min principal
    // (of a symmetric tensor, whatever it holds), then the components xx ... zx
    const int measure = int(m_quantity) - int(strain ? ContourQuantity::EquivalentStrain : ContourQuantity::VonMises);
    Eigen::VectorXd values(k);
    for (Eigen::Index j = 0; j < k; ++j) {
      const fe::Stress6 t = tensors.segment<6>(6 * j);
      values(j) = measure == 0   ? (strain ? fe::equivalentStrain(t) : fe::vonMises(t))
                  : measure == 1 ? fe::principalStresses(t)(0)
                  : measure == 2 ? fe::principalStresses(t)(2)
                                 : t(measure - 3);
    }
    return values;
  }
  const Eigen::Map<const Eigen::Matrix3Xd> columns(u.data(), 3, k);
  switch (m_quantity) {
    case ContourQuantity::X: return columns.row(0).transpose();
    case ContourQuantity::Y: return columns.row(1).transpose();
    case ContourQuantity::Z: return columns.row(2).transpose();
    default: break;
  }
  return columns.colwise().norm().transpose();
}

ScalarRange FlexibleSurface::range(const Eigen::VectorXd& modal) const {
  ScalarRange r;
  if (modal.size() > m_phi.cols() || m_nodes.empty()) return r;
  const Eigen::VectorXd values = quantityOf(m_phi.leftCols(modal.size()) * modal, modal);
  r.add(values.minCoeff());
  r.add(values.maxCoeff());
  return r;
}

ScalarRange FlexibleSurface::range(const Eigen::MatrixXd& modalColumns) const {
  ScalarRange r;
  const Eigen::Index m = modalColumns.rows();
  if (m > m_phi.cols() || m_nodes.empty() || modalColumns.cols() == 0) return r;
  // 16 samples' displacements at a time: one matrix product each, a few MB at 100 000 nodes
  constexpr Eigen::Index kBlock = 16;
  for (Eigen::Index first = 0; first < modalColumns.cols(); first += kBlock) {
    const Eigen::Index n = std::min(kBlock, modalColumns.cols() - first);
    const Eigen::MatrixXd u = m_phi.leftCols(m) * modalColumns.middleCols(first, n);
    for (Eigen::Index i = 0; i < n; ++i) {
      const Eigen::VectorXd values = quantityOf(u.col(i), modalColumns.col(first + i));
      r.add(values.minCoeff());
      r.add(values.maxCoeff());
    }
  }
  return r;
}

bool FlexibleSurface::setModal(const Eigen::VectorXd& modal) {
  if (modal.size() > m_phi.cols() || !modal.allFinite()) return false;
  m_modal.setZero();
  m_modal.head(modal.size()) = modal;
  update();
  return true;
}

void FlexibleSurface::setScale(double scale) {
  if (!std::isfinite(scale) || scale == m_scale) return;
  m_scale = scale;
  update();
}

double FlexibleSurface::maxDisplacement(const Eigen::VectorXd& modal) const {
  if (modal.size() > m_phi.cols() || m_nodes.empty()) return 0.0;
  const Eigen::VectorXd u = m_phi.leftCols(modal.size()) * modal;
  return Eigen::Map<const Eigen::Matrix3Xd>(u.data(), 3, u.size() / 3).colwise().norm().maxCoeff();
}

void FlexibleSurface::update() {
  const Eigen::Index k = Eigen::Index(m_nodes.size());
  if (k == 0) return;
  m_u.noalias() = m_phi * m_modal;
  vtkPoints* points = m_mesh->GetPoints();
  Eigen::Map<Eigen::VectorXd> xyz(static_cast<double*>(points->GetVoidPointer(0)), 3 * k);
  xyz = m_base + m_scale * m_u;
  Eigen::Map<Eigen::VectorXd> values(m_values->GetPointer(0), k);
  values = quantityOf(m_u, m_modal);
  m_currentMax = Eigen::Map<const Eigen::Matrix3Xd>(m_u.data(), 3, k).colwise().norm().maxCoeff();
  m_currentRange = ScalarRange{values.minCoeff(), values.maxCoeff()};
  points->Modified();
  m_values->Modified();
  m_mesh->Modified();
}

Vec3 FlexibleSurface::displacement(std::size_t i) const { return displacement(i, m_modal); }

Vec3 FlexibleSurface::displacement(std::size_t i, const Eigen::VectorXd& modal) const {
  if (modal.size() == 0 || modal.size() > m_phi.cols()) return Vec3::Zero();
  return m_phi.middleRows<3>(3 * Eigen::Index(i)).leftCols(modal.size()) * modal;
}

std::size_t FlexibleSurface::nearestPoint(const Vec3& p) const {
  std::size_t best = 0;
  double bestDistance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < m_undeformed.size(); ++i) {
    const double d = (m_undeformed[i] + m_scale * displacement(i) - p).squaredNorm();
    if (d < bestDistance) bestDistance = d, best = i;
  }
  return best;
}

}  // namespace flexim::render
