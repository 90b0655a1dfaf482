#include "io/fe/import.h"

#include "io/fe/calculix_dat.h"
#include "io/fe/calculix_frd.h"
#include "io/fe/calculix_inp.h"
#include "io/fe/gmsh_msh.h"
#include "io/fe/line_reader.h"
#include "io/fe/matrix_files.h"
#include "io/fe/nastran.h"

#include <exception>
#include <filesystem>
#include <new>

namespace flexim::io {

namespace {

std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return ext;
}

bool nameMentionsMass(const std::string& path) {
  const std::string name = toUpper(std::filesystem::path(path).filename().string());
  return name.find("MASS") != std::string::npos;
}

bool readNastran(const std::string& path, fe::FeModel& out, Diagnostics& diag) { return readNastranBulk(path, out, diag); }

/// A file whose first statement (after comments: Nastran '$', Abaqus '**') is an Abaqus/CalculiX
/// keyword ("*NODE"): .inc is an include extension of both programs.
bool looksLikeAbaqus(const std::string& text) {
  LineReader in(text, "");
  std::string_view l;
  while (in.next(l)) {
    const std::string_view t = trim(l);
    if (t.empty() || t[0] == '$' || t.substr(0, 2) == "**") continue;
    return t.size() > 1 && t[0] == '*' && ((t[1] >= 'A' && t[1] <= 'Z') || (t[1] >= 'a' && t[1] <= 'z'));
  }
  return false;
}

/// Whether a .pch holds results punched by Nastran (displacements, eigenvectors, stresses: blocks
/// headed by `$TITLE`, `$SUBCASE ID`, `$DISPLACEMENTS`, `$EIGENVECTOR` ... comment lines) rather than
/// bulk data (DMIG and other cards punched for reuse).
bool looksLikePunchResults(const std::string& text) {
  for (const char* marker : {"$SUBCASE ID", "$DISPLACEMENTS", "$EIGENVECTOR", "$REAL OUTPUT", "$ELEMENT STRESSES",
                             "$SPCF", "$VELOCITY", "$ACCELERATION"})
    if (text.find(marker) != std::string::npos) return true;
  return false;
}

/// Include fragments (.blk, .inc, .pch, .bulk): bulk data without BEGIN BULK, read as Nastran
/// unless an .inc holds Abaqus/CalculiX keywords.
bool importFragment(const std::string& path, const std::string& ext, fe::FeModel& out, Diagnostics& diag) {
  if (ext == ".inc" || ext == ".pch") {
    std::string text;
    if (!readTextFile(path, text, diag)) return false;
    if (ext == ".inc" && looksLikeAbaqus(text)) return readCalculixInp(path, out, diag);
    if (ext == ".pch" && looksLikePunchResults(text)) {
      diag.error(path, "a Nastran punch file of results (its $TITLE, $SUBCASE ID and result blocks), not model data: "
                       "import the deck (.bdf, .dat) it came from");
      return false;
    }
  }
  return readNastran(path, out, diag);
}

bool importDat(const std::string& path, fe::FeModel& out, Diagnostics& diag) {
  std::string text;
  if (!readTextFile(path, text, diag)) return false;
  if (looksLikeCalculixDat(text)) {
    CalculixEigenTable table;
    if (!readCalculixDatFromString(text, path, table, diag)) return false;
    if (out.modes.cols() > 0 && static_cast<std::size_t>(out.modes.cols()) != table.frequency_hz.size())
      diag.warning(path, "the eigenvalue table has " + std::to_string(table.frequency_hz.size()) +
                             " modes but the model holds " + std::to_string(out.modes.cols()) + " mode shapes");
    out.frequencies_hz = std::move(table.frequency_hz);
    out.sources.push_back(path);
    return true;
  }
  if (text.empty()) {
    diag.error(path, "empty .dat file (a SOLVER=MATRIXSTORAGE run writes no eigenvalue table)");
    return false;
  }
  return readNastran(path, out, diag);
}

bool importMtx(const std::string& path, fe::FeModel& out, Diagnostics& diag) {
  std::string head;
  {
    std::string text;
    if (!readTextFile(path, text, diag)) return false;
    head = text.substr(0, 64);
  }
  const bool mass = nameMentionsMass(path);
  if (!looksLikeMatrixMarket(head)) return readAbaqusMtx(path, mass ? MatrixKind::Mass : MatrixKind::Stiffness, out, diag);
  Eigen::SparseMatrix<double> A;
  if (!readMatrixMarket(path, A, diag)) return false;
  if (A.rows() != A.cols()) {
    diag.error(path, "an FE matrix must be square, not " + std::to_string(A.rows()) + " x " + std::to_string(A.cols()));
    return false;
  }
  if (static_cast<Eigen::Index>(out.dofs.size()) != A.rows()) {
    if (out.dofs.empty() && A.rows() == 3 * static_cast<Eigen::Index>(out.nodeCount())) {
      diag.info(path, "no DOF description: rows are taken as x, y, z of each model node in order");
      for (int i = 0; i < out.nodeCount(); ++i)
        for (int c = 0; c < 3; ++c) out.dofs.push_back({i, c});
    } else {
      diag.warning(path, "no DOF description for the " + std::to_string(A.rows()) + " matrix rows");
    }
  }
  (mass ? out.M : out.K) = std::move(A);
  out.sources.push_back(path);
  return true;
}

bool dispatch(const std::string& path, fe::FeModel& out, Diagnostics& diag) {
  const std::string ext = lowerExtension(path);
  if (ext == ".inp") return readCalculixInp(path, out, diag);
  if (ext == ".msh") return readGmshMsh(path, out, diag);
  if (ext == ".bdf" || ext == ".nas") return readNastran(path, out, diag);
  if (ext == ".blk" || ext == ".inc" || ext == ".pch" || ext == ".bulk") return importFragment(path, ext, out, diag);
  if (ext == ".frd") return readCalculixFrd(path, out, diag);
  if (ext == ".dat") return importDat(path, out, diag);
  if (ext == ".sti" || ext == ".mas" || ext == ".dof") {
    const std::string stem = path.substr(0, path.size() - ext.size());
    return readCalculixMatrices(stem, out, diag);
  }
  if (ext == ".mtx") return importMtx(path, out, diag);
  diag.error(path, "unknown FE file type " + quoteField(ext.empty() ? std::string("(no extension)") : ext) +
                       " (supported: " + feFileFilter() + ")");
  return false;
}

}  // namespace

std::string feFileFilter() {
  return "*.inp *.msh *.bdf *.nas *.dat *.blk *.inc *.pch *.bulk *.frd *.sti *.mas *.dof *.mtx";
}

bool importFe(const std::string& path, fe::FeModel& out, Diagnostics& diag) {
  try {
    return dispatch(path, out, diag);
  } catch (const std::bad_alloc&) {
    diag.error(path, "out of memory while reading the file");
  } catch (const std::exception& e) {
    diag.error(path, std::string("internal error while reading the file: ") + e.what());
  }
  return false;
}

}  // namespace flexim::io
