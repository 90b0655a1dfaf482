// The naming rules of model editing, without Qt, for the model editor (ui/model_document) and
// copy and paste (io/item_clipboard) alike: which names a new item must avoid, the free name it
// gets, and which references follow an item's rename.
#pragma once

#include "core/model/description.h"

#include <set>
#include <string>

namespace flexim::io {

/// Items of d are named within their holder (markers: "marker1" on two bodies) rather than model
/// wide: no list of the model itself holds them. Model-wide scopes also reserve the ground's name.
bool holderScoped(const ItemDescription& d);

/// A reference field with this refersTo names items of d: their kind, or their name scope ("body"
/// names rigid, flexible and virtual bodies alike). A renamed item's references are the fields
/// that name it so and hold its old name (a marker's only where its body field names its holder).
bool refersToKind(const std::string& refersTo, const ItemDescription& d);

/// A new item's name: base followed by the first number from 1 that makes a name not in used
/// ("body" -> "body1", "body2" when "body1" is used). base is kept whole, digits and all.
std::string numberedName(const std::set<std::string>& used, const std::string& base);

/// A copy's name (a duplicate, a pasted item whose name is taken): name without its trailing
/// digits (fallback when nothing is left), numbered as numberedName() does: "crank" -> "crank1",
/// "crank1" -> "crank2" when "crank1" is used, "12" -> fallback + "1".
std::string freeName(const std::set<std::string>& used, const std::string& name, const std::string& fallback);

}  // namespace flexim::io
