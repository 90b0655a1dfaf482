#include "ui/display_units.h"

#include <QSettings>

#include <optional>

namespace flexim::ui {

namespace {

constexpr const char* kSettingsKey = "units/stress";

double factorOf(const QString& unit) {
  if (unit == "Pa") return 1.0;
  if (unit == "kPa") return 1e-3;
  if (unit == "MPa") return 1e-6;
  if (unit == "GPa") return 1e-9;
  return 0.0;
}

/// Read from the settings once, then kept: plots ask for it per channel and per redraw.
std::optional<QString>& chosen() {
  static std::optional<QString> unit;
  return unit;
}

}  // namespace

QStringList stressUnits() { return {"Pa", "kPa", "MPa", "GPa"}; }

ShownUnit stressUnit() {
  if (!chosen()) {
    const QString saved = QSettings().value(kSettingsKey, "MPa").toString();
    chosen() = factorOf(saved) > 0.0 ? saved : QString("MPa");
  }
  return {*chosen(), factorOf(*chosen())};
}

bool setStressUnit(const QString& unit) {
  if (factorOf(unit) <= 0.0) return false;
  chosen() = unit;
  QSettings().setValue(kSettingsKey, unit);
  return true;
}

ShownUnit shownUnit(const std::string& siUnit) {
  if (siUnit == "Pa") return stressUnit();
  return {QString::fromStdString(siUnit), 1.0};
}

}  // namespace flexim::ui
