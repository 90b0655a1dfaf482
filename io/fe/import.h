// One entry point for FE files: picks the reader by file extension (and content where the
// extension is ambiguous) and fills the common FE model.
//
//   .inp                 CalculiX/Abaqus input deck        readCalculixInp     (replaces out)
//   .msh                 gmsh 4.1 ASCII mesh               readGmshMsh         (replaces out)
//   .bdf .nas            Nastran bulk data                 readNastranBulk     (replaces out)
//   .blk .inc .pch .bulk Nastran include fragments (bulk data without BEGIN BULK), readNastranBulk;
//                        an .inc whose first statement is a *KEYWORD is CalculiX/Abaqus (readCalculixInp)
//   .frd                 CalculiX results                  readCalculixFrd     (modes; mesh if out has none)
//   .dat                 CalculiX eigenvalue table -> out.frequencies_hz when the text holds
//                        "E I G E N V A L U E", otherwise Nastran bulk data
//   .sti .mas .dof       CalculiX matrix export: the trio <stem>.sti/.mas/.dof -> out.K, out.M, out.dofs
//   .mtx                 "%%MatrixMarket" banner: MatrixMarket, otherwise Abaqus "node, dof, node,
//                        dof, value"; a file name containing "mass" (any case) fills out.M,
//                        otherwise out.K
// Extensions are case-insensitive. Readers never throw; importFe catches what escapes anyway
// (e.g. out of memory) and reports it.
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"

#include <string>

namespace flexim::io {

/// Reads path into out with the reader for its kind (see above). Returns false on errors
/// (reported in diag); out is then unchanged.
bool importFe(const std::string& path, fe::FeModel& out, Diagnostics& diag);

/// The extensions importFe understands, for file dialogs: "*.inp *.msh ...".
std::string feFileFilter();

}  // namespace flexim::io
