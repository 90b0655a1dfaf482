// CalculiX .dat reader for the eigenvalue table of a *FREQUENCY step:
// "E I G E N V A L U E   O U T P U T" followed by rows
// "mode, eigenvalue [rad^2/s^2], Re omega [rad/s], f [Hz], Im omega [rad/s]" up to the first
// blank line. Several tables (several frequency steps) are concatenated in file order, like
// the DISP blocks of the matching .frd. The TOTAL EFFECTIVE MASS row that follows is read too
// when present. An all-zero table (ccx's silent ARPACK failure) is an error.
#pragma once

#include "core/base/diagnostics.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace flexim::io {

struct CalculixEigenTable {
  std::vector<int> mode;               ///< mode numbers as printed (start above 1 with a lower bound)
  std::vector<double> eigenvalue;      ///< lambda = omega^2 [(rad/s)^2]; negative = rigid-body noise
  std::vector<double> omega_real;      ///< Re omega [rad/s]
  std::vector<double> frequency_hz;    ///< f = Re omega / 2 pi [Hz] (0 for negative eigenvalues)
  std::vector<double> omega_imag;      ///< Im omega [rad/s] (sqrt(-lambda) for negative eigenvalues)
  /// r^T M r for unit translations x, y, z and rotations about the global axes through the
  /// origin (mass, mass, mass, Ixx, Iyy, Izz for a free model); valid if has_total_effective_mass.
  std::array<double, 6> total_effective_mass{};
  bool has_total_effective_mass = false;
};

/// Reads the eigenvalue table(s). Fails (false) if there is none, a row is malformed, or all
/// values are zero.
bool readCalculixDat(const std::string& path, CalculixEigenTable& table, Diagnostics& diag);
bool readCalculixDatFromString(std::string_view text, const std::string& source, CalculixEigenTable& table,
                               Diagnostics& diag);

/// Frequencies [Hz] only.
bool readCalculixDat(const std::string& path, std::vector<double>& frequencies_hz, Diagnostics& diag);

/// Eigenvalues lambda = omega^2 [(rad/s)^2] only.
bool readCalculixDatEigenvalues(const std::string& path, std::vector<double>& eigenvalues, Diagnostics& diag);

/// True if text looks like a CalculiX .dat with an eigenvalue table (for telling it from a
/// Nastran .dat).
bool looksLikeCalculixDat(std::string_view text);

}  // namespace flexim::io
