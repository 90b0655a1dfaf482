// Copy and paste of model items between models, without Qt: the GUI puts the
// text of copyItems() on the clipboard and applies pasteItems()' merged model as one undoable
// command.
//
// The clipboard text is a partial model file: the model schema, holding only the lists of the
// copied items (and "schema_version"). An item is copied with everything it holds (a body with
// its markers). Items copied without their holder (markers) are written in the model's own
// holder of their list ("ground": {"markers": [...]}), and pasting puts them on the holder the
// user selected. File paths (a flexible body's .frb, a visual mesh) travel absolute and are made
// relative to the target model's folder on pasting.
//
// Everything is walked through the item descriptions (core/model/description.h): lists, names,
// name scopes, references and "file" fields; no list of item kinds is kept here.
#pragma once

#include "core/model/model.h"

#include <set>
#include <string>
#include <vector>

namespace flexim::io {

/// JSON text (a partial model file: the same schema as a model, only the lists holding the
/// copied items) of the items at these JSON paths of `model` (e.g. "bodies[0]", "joints[2]",
/// "bodies[1].markers[0]", "ground.markers[1]"), each with everything it holds; a path inside
/// another copied item is part of it. Items are written in document order. Relative file paths
/// are made absolute against modelDir ("" = the current directory), so the text can be pasted
/// into a model in another folder. On a path that names no list item: "" and *error.
std::string copyItems(const ModelSpec& model, const std::vector<std::string>& paths, const std::string& modelDir,
                      std::string* error = nullptr);

/// Adds the items of `text` to `target`:
///  - a name that clashes in its scope (the target's names, or a pasted item's before it) is
///    replaced by a free one (freeName() of io/editing_rules.h, as the model editor names a copy);
///  - references among the pasted items follow the renames; a reference to an item that is not
///    pasted must name one of the right kind in the target ("ground" is a body), else an error
///    such as "joint 'crank_pin': body 'rod' is not in this model; copy it too"; a marker
///    reference follows a rename only when its body's marker was renamed;
///  - items without their holder in the text (markers) go to `holder` (a JSON path of the
///    target: "bodies[1]", "ground"); none given while there are some is an error;
///  - absolute file paths are made relative to targetDir when it is not empty.
/// The merged model is then read back through saveModelString/loadModelString with baseDir =
/// targetDir (all the loader's checks; reduced-body files loaded), and its errors are returned
/// with their JSON paths, one per line. Returns false (merged and added untouched) on error;
/// else merged is the new model and added the JSON paths of the pasted items in it.
bool pasteItems(const ModelSpec& target, const std::string& text, const std::string& targetDir,
                const std::string& holder, ModelSpec& merged, std::vector<std::string>& added, std::string& error);

}  // namespace flexim::io
