// The Nastran bulk data cards the importer reads past, in groups: what they are, and whether
// leaving them out changes the reduced model (docs/fe-support.md, "Nastran", lists the same).
//
//  * Harmless: they do not change stiffness, mass or connectivity of a free body (solution
//    control, loads, constraints of the Nastran run, output, design optimisation, aero): one info
//    per card type.
//  * ChangesModel: elements, rigid elements, MPCs, contact, dampers, direct matrices, ... that
//    would make the model stiffer, heavier or connected: one warning per card type, and one phrase
//    per group in FeModel::model_changes.
//  * WithElements: properties and materials of elements that are not imported (PSHELL, PBAR,
//    MAT8, ...): by themselves they change nothing; the elements that use them are reported.
#pragma once

#include <span>
#include <string_view>

namespace flexim::io::nastran {

struct SkippedGroup {
  enum class Kind { Harmless, ChangesModel, WithElements };
  Kind kind;
  const char* what;    ///< "shell elements: their stiffness and mass are missing", for the message
  const char* phrase;  ///< ChangesModel: the model_changes phrase, e.g. "shell elements left out"
  const char* cards;   ///< the card names, blank separated
};

/// The group of a card name (upper case), or nullptr for a card this importer does not know.
const SkippedGroup* skippedGroup(std::string_view card);

/// Every group, for the documentation test.
std::span<const SkippedGroup> skippedGroups();

}  // namespace flexim::io::nastran
