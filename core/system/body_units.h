// Body units: what each body kind (ItemDescription::body, core/model/description.cpp) adds to
// the System when a model is compiled — the coordinate blocks of the items of its list, in list
// order, with their markers, and any constraints of their own (a flexible body's reference
// conditions). The System calls the units in the body kinds' order, so block p is the body
// table's pose p.
#pragma once

#include "core/base/diagnostics.h"
#include "core/model/model.h"

#include <functional>
#include <string_view>

namespace flexim {

class System;

using BodyUnit = std::function<void(System& sys, const ModelSpec& model, Diagnostics& diag)>;

/// The unit of a body kind by its key ("rigid"); null for a kind without one.
const BodyUnit* findBodyUnit(std::string_view kind);

/// The units defined in files of their own.
void addPointMasses(System& sys, const ModelSpec& model, Diagnostics& diag);
/// The beam nodes and, between them, the beam elements (core/system/beams.cpp).
void addBeamNodes(System& sys, const ModelSpec& model, Diagnostics& diag);

}  // namespace flexim
