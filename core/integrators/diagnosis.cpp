#include "core/integrators/diagnosis.h"

#include <sstream>

namespace flexim {

namespace {
/// The block that holds coordinate i (q0 or v0 ranges), and i's offset in it.
int owner(const System& sys, int i, bool velocity, int& local) {
  for (int b = 0; b < sys.nblocks(); ++b) {
    const Block& B = sys.block(b);
    const int start = velocity ? B.v0 : B.q0, size = velocity ? B.nv() : B.nq();
    if (i >= start && i < start + size) {
      local = i - start;
      return b;
    }
  }
  local = -1;
  return -1;
}

std::string blockLabel(const Block& B) {
  if (!B.hasFrame()) return B.name;  // a joint's coordinate names itself
  return std::string(B.formulation->deformationCoordinates() ? "flexible body '" : "body '") + B.name + "'";
}

std::string coordinateName(const System& sys, int i, bool velocity) {
  int k = 0;
  const int b = owner(sys, i, velocity, k);
  if (b < 0) return "coordinate " + std::to_string(i);
  const Block& B = sys.block(b);
  const char* axis[] = {"x", "y", "z"};
  std::ostringstream s;
  s << blockLabel(B) << ' ';
  if (!B.hasFrame()) {
    s << (velocity ? "rate " : "value ") << k + 1;
  } else if (velocity) {
    if (k < 3) s << "velocity " << axis[k];
    else if (k < 6) s << "angular velocity " << axis[k - 3] << " (body axes)";
    else s << "modal rate " << k - 5;
  } else {
    if (k < 3) s << "position " << axis[k];
    else if (k < 7) s << "Euler parameter " << k - 3;
    else s << "modal coordinate " << k - 6;
  }
  return s.str();
}

std::string compact(double x) {
  std::ostringstream s;
  s.precision(3);
  s << x;
  return s.str();
}
}  // namespace

std::string positionCoordinateName(const System& sys, int i) { return coordinateName(sys, i, false); }
std::string velocityCoordinateName(const System& sys, int i) { return coordinateName(sys, i, true); }

std::string constraintRowName(const System& sys, int i) {
  const auto& cons = sys.constraints();
  for (size_t c = 0; c < cons.size(); ++c) {
    const int off = sys.constraintOffsets()[c];
    if (i >= off && i < off + cons[c]->rows())
      return cons[c]->label + " row " + std::to_string(i - off + 1) + " of " + std::to_string(cons[c]->rows());
  }
  return "constraint row " + std::to_string(i);
}

void StepHistory::accepted(double h) {
  m_tried.clear();
  m_accepted.push_back(h);
  if (m_accepted.size() > kKeep) m_accepted.erase(m_accepted.begin());
}

void StepHistory::tried(double h) {
  m_tried.push_back(h);
  if (m_tried.size() > kKeep) m_tried.erase(m_tried.begin() + 1);  // keep the first try and the last ones
}

std::string StepHistory::str() const {
  std::ostringstream s;
  if (m_accepted.empty()) s << "no step accepted";
  else s << "last accepted steps";
  for (size_t i = 0; i < m_accepted.size(); ++i) s << (i ? ", " : " ") << compact(m_accepted[i]);
  if (!m_tried.empty()) {
    s << "; then tried";
    for (size_t i = 0; i < m_tried.size(); ++i) s << (i ? ", " : " ") << compact(m_tried[i]);
    s << " s (all failed)";
  } else if (!m_accepted.empty()) {
    s << " s";
  }
  return s.str();
}

}  // namespace flexim
