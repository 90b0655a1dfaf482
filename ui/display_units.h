// The units values are shown in. Results are stored and exported in SI; on screen a stress is
// shown in the unit the user chose (MPa unless set otherwise, View > Stress unit), in plots, their
// read-outs and the colour bar alike. Other units are shown as they are.
#pragma once

#include <QString>
#include <QStringList>

#include <string>

namespace flexim::ui {

struct ShownUnit {
  QString unit;        ///< as shown ("MPa")
  double factor = 1.0; ///< shown value = factor * SI value
};

/// How a value in this SI unit is shown.
ShownUnit shownUnit(const std::string& siUnit);

/// The stress units one can choose: Pa, kPa, MPa, GPa.
QStringList stressUnits();
/// The chosen stress unit and its factor from Pa.
ShownUnit stressUnit();
/// Chooses the stress unit (one of stressUnits(); remembered in the settings). False if unknown.
bool setStressUnit(const QString& unit);

}  // namespace flexim::ui
