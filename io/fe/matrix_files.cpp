#include "io/fe/matrix_files.h"

#include "io/fe/line_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <unordered_map>

namespace flexim::io {

namespace {

constexpr int kMaxErrors = 50;
constexpr long long kMaxDimension = 50'000'000;  ///< rows/columns (the column index array is allocated)
constexpr double kSymmetryTolerance = 1e-12;

/// One stored entry, 0-based, with the line it came from.
struct Entry {
  int i = 0, j = 0;
  double v = 0.0;
  int line = 0;
};

/// Counts errors and stops reporting after kMaxErrors.
struct ErrorSink {
  Diagnostics& diag;
  int count = 0;
  void operator()(const std::string& where, std::string msg) {
    if (count < kMaxErrors) diag.error(where, std::move(msg));
    if (++count == kMaxErrors) diag.error(where, "too many errors; reading stopped");
  }
  bool full() const { return count >= kMaxErrors; }
};

std::string where(const std::string& source, int line) { return source + ":" + std::to_string(line); }

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

/// Builds the full n x m matrix from entries holding one triangle (mirrored) or both
/// (checked for symmetry). Entries are sorted in place. Reports duplicates.
bool buildSymmetric(std::vector<Entry>& entries, int n, const std::string& source, Eigen::SparseMatrix<double>& A,
                    ErrorSink& error, Diagnostics& diag) {
  std::size_t upper = 0, lower = 0;
  for (const auto& e : entries) {
    upper += e.i < e.j;
    lower += e.i > e.j;
  }
  // sort by unordered pair, lower-triangle entry (i > j) after its mirror
  auto key = [](const Entry& e) {
    return std::make_tuple(std::min(e.i, e.j), std::max(e.i, e.j), e.i > e.j);
  };
  std::stable_sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) { return key(a) < key(b); });
  const bool both = upper > 0 && lower > 0;
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(2 * entries.size());
  for (std::size_t k = 0; k < entries.size() && !error.full(); ++k) {
    const Entry& e = entries[k];
    if (k > 0 && key(entries[k - 1]) == key(e)) {
      error(where(source, e.line), "entry (" + std::to_string(e.i + 1) + ", " + std::to_string(e.j + 1) +
                                       ") is given twice (also at line " + std::to_string(entries[k - 1].line) + ")");
      continue;
    }
    if (e.i == e.j) {
      triplets.emplace_back(e.i, e.i, e.v);
      continue;
    }
    if (!both) {
      triplets.emplace_back(e.i, e.j, e.v);
      triplets.emplace_back(e.j, e.i, e.v);
      continue;
    }
    // both triangles: pair (upper, lower) must agree; a missing partner counts as 0
    const bool isLower = e.i > e.j;
    const bool partnerNext = !isLower && k + 1 < entries.size() && std::min(entries[k + 1].i, entries[k + 1].j) == std::min(e.i, e.j) &&
                             std::max(entries[k + 1].i, entries[k + 1].j) == std::max(e.i, e.j) && entries[k + 1].i > entries[k + 1].j;
    const bool partnerPrev = isLower && k > 0 && std::min(entries[k - 1].i, entries[k - 1].j) == std::min(e.i, e.j) &&
                             std::max(entries[k - 1].i, entries[k - 1].j) == std::max(e.i, e.j) && entries[k - 1].i < entries[k - 1].j;
    if (partnerPrev) continue;  // handled with its partner
    const double other = partnerNext ? entries[k + 1].v : 0.0;
    if (std::abs(e.v - other) > kSymmetryTolerance * std::max(std::abs(e.v), std::abs(other))) {
      error(where(source, e.line), "matrix is not symmetric: A(" + std::to_string(e.i + 1) + ", " + std::to_string(e.j + 1) +
                                       ") = " + fmt(e.v) + " but A(" + std::to_string(e.j + 1) + ", " +
                                       std::to_string(e.i + 1) + ") = " + fmt(other));
      continue;
    }
    triplets.emplace_back(e.i, e.j, e.v);
    triplets.emplace_back(e.j, e.i, e.v);
  }
  if (error.count > 0) return false;
  (void)diag;
  A.resize(n, n);
  A.setFromTriplets(triplets.begin(), triplets.end());
  A.makeCompressed();
  return true;
}

}  // namespace

// ============================== CalculiX ======================================================

bool readCalculixMatrixText(std::string_view text, const std::string& source, int n, Eigen::SparseMatrix<double>& A,
                            Diagnostics& diag) {
  ErrorSink error{diag};
  LineReader reader(text, source);
  std::vector<Entry> entries;
  entries.reserve(std::min<std::size_t>(text.size() / 24 + 1, 100'000'000));
  std::vector<std::string_view> words;
  std::string_view line;
  std::string problem;
  while (!error.full() && reader.next(line)) {
    splitWords(line, words);
    if (words.empty()) continue;
    if (words.size() != 3) {
      error(reader.where(), "expected 'row column value', got " + std::to_string(words.size()) + " fields");
      continue;
    }
    int i = 0, j = 0;
    double v = 0;
    if (!parseInt(words[0], i, &problem) || !parseInt(words[1], j, &problem) || !parseDouble(words[2], v, &problem)) {
      error(reader.where(), problem);
      continue;
    }
    if (i < 1 || j < 1 || i > n || j > n) {
      error(reader.where(), "index (" + std::to_string(i) + ", " + std::to_string(j) + ") is outside 1.." +
                                std::to_string(n) + " (the size given by the .dof file)");
      continue;
    }
    entries.push_back({i - 1, j - 1, v, reader.line()});
  }
  if (error.count > 0) return false;
  if (entries.empty()) {
    diag.error(source, "no matrix entries");
    return false;
  }
  std::size_t lower = 0;
  for (const auto& e : entries) lower += e.i > e.j;
  if (lower > 0 && lower < entries.size())
    diag.info(source, "holds entries below the diagonal (ccx writes the upper triangle only); symmetry is checked");
  return buildSymmetric(entries, n, source, A, error, diag);
}

bool readCalculixDofText(std::string_view text, const std::string& source, std::vector<int>& node_ids,
                         std::vector<int>& components, Diagnostics& diag) {
  ErrorSink error{diag};
  LineReader reader(text, source);
  node_ids.clear();
  components.clear();
  std::string_view line;
  std::string problem;
  std::map<std::pair<int, int>, int> seen;
  int blankLine = 0;
  while (!error.full() && reader.next(line)) {
    const std::string_view t = trim(line);
    if (t.empty()) {
      if (blankLine == 0) blankLine = reader.line();
      continue;
    }
    if (blankLine > 0) {
      error(reader.where(blankLine), "empty line inside the DOF list (line k describes matrix row k)");
      blankLine = -1;
    }
    const std::size_t dot = t.find('.');
    int node = 0, dir = 0;
    if (dot == std::string_view::npos) {
      error(reader.where(), "expected 'node.direction', got " + quoteField(t));
      continue;
    }
    if (!parseInt(t.substr(0, dot), node, &problem) || !parseInt(t.substr(dot + 1), dir, &problem)) {
      error(reader.where(), "expected 'node.direction': " + problem);
      continue;
    }
    if (dir < 1 || dir > 3) {
      error(reader.where(), "direction " + std::to_string(dir) + " of node " + std::to_string(node) +
                                " is not a translation (1, 2 or 3)");
      continue;
    }
    if (auto [it, added] = seen.emplace(std::make_pair(node, dir), reader.line()); !added) {
      error(reader.where(), "node " + std::to_string(node) + " direction " + std::to_string(dir) +
                                " appears twice (also at line " + std::to_string(it->second) + ")");
      continue;
    }
    node_ids.push_back(node);
    components.push_back(dir - 1);
  }
  if (error.count > 0) return false;
  if (node_ids.empty()) {
    diag.error(source, "no DOFs");
    return false;
  }
  return true;
}

namespace {

/// Maps DOF node ids to model node indices; creates nodes at the origin when the model has
/// none. Reports unknown nodes at whereOf(k).
template <class WhereOf>
bool mapDofs(const std::vector<int>& ids, const std::vector<int>& comps, fe::FeModel& model, const std::string& source,
             WhereOf whereOf, std::vector<fe::Dof>& dofs, Diagnostics& diag) {
  ErrorSink error{diag};
  if (model.nodeCount() == 0) {
    diag.warning(source, "the model has no nodes: nodes are created at the origin (import the input deck first to "
                         "get their coordinates)");
    for (int id : ids)
      if (model.indexOf(id) < 0) model.addNode(id, Eigen::Vector3d::Zero());
  }
  dofs.clear();
  dofs.reserve(ids.size());
  std::size_t missing = 0;
  int lastMissing = 0;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const int index = model.indexOf(ids[k]);
    if (index < 0) {
      if (missing == 0 || ids[k] != lastMissing) {  // once per node (its DOFs are consecutive)
        if (++missing <= 10) error(whereOf(k), "node " + std::to_string(ids[k]) + " is not in the model");
      }
      lastMissing = ids[k];
      continue;
    }
    dofs.push_back({index, comps[k]});
  }
  if (missing > 10)
    error(source, std::to_string(missing) + " nodes of the DOF list are not in the model (wrong model?)");
  return missing == 0;
}

std::string stripMatrixExtension(const std::string& stem) {
  for (const char* ext : {".sti", ".mas", ".dof"}) {
    const std::string e(ext);
    if (stem.size() > e.size() && equalsIgnoreCase(std::string_view(stem).substr(stem.size() - e.size()), e))
      return stem.substr(0, stem.size() - e.size());
  }
  return stem;
}

}  // namespace

bool readCalculixMatricesFromStrings(std::string_view sti, const std::string& stiName, std::string_view mas,
                                     const std::string& masName, std::string_view dof, const std::string& dofName,
                                     fe::FeModel& out, Diagnostics& diag) {
  std::vector<int> ids, comps;
  if (!readCalculixDofText(dof, dofName, ids, comps, diag)) return false;
  if (ids.size() > static_cast<std::size_t>(kMaxDimension)) {
    diag.error(dofName, "too many DOFs");
    return false;
  }
  const int n = static_cast<int>(ids.size());
  Eigen::SparseMatrix<double> K, M;
  const bool okK = readCalculixMatrixText(sti, stiName, n, K, diag);
  const bool okM = readCalculixMatrixText(mas, masName, n, M, diag);
  if (!okK || !okM) return false;

  fe::FeModel model;
  const bool createNodes = out.nodeCount() == 0;
  fe::FeModel* target = &out;
  if (createNodes) {  // nodes are added: work on a copy so that out stays unchanged on failure
    model = out;
    target = &model;
  }
  std::vector<fe::Dof> dofs;
  // .dof line k+1 holds DOF k when the file has no blank lines (checked by readCalculixDofText)
  if (!mapDofs(ids, comps, *target, dofName, [&](std::size_t k) { return where(dofName, static_cast<int>(k) + 1); }, dofs, diag))
    return false;
  // a row/column without a diagonal entry means the .dof and the matrices do not belong together
  for (const auto* A : {&K, &M}) {
    const std::string& name = A == &K ? stiName : masName;
    int missing = 0, first = -1;
    for (int k = 0; k < n; ++k)
      if (A->coeff(k, k) == 0.0 && A->col(k).nonZeros() == 0) {
        if (missing++ == 0) first = k;
      }
    if (missing > 0)
      diag.warning(name, std::to_string(missing) + " of the " + std::to_string(n) + " DOFs of " + dofName +
                             " have no entry (first: row " + std::to_string(first + 1) + ")");
  }
  if (createNodes) out = std::move(model);
  out.K = std::move(K);
  out.M = std::move(M);
  out.dofs = std::move(dofs);
  out.sources.push_back(stiName);
  out.sources.push_back(masName);
  out.sources.push_back(dofName);
  return true;
}

bool readCalculixMatrices(const std::string& stemIn, fe::FeModel& out, Diagnostics& diag) {
  const std::string stem = stripMatrixExtension(stemIn);
  std::string sti, mas, dof;
  const bool ok1 = readTextFile(stem + ".dof", dof, diag);
  const bool ok2 = readTextFile(stem + ".sti", sti, diag);
  const bool ok3 = readTextFile(stem + ".mas", mas, diag);
  if (!ok1 || !ok2 || !ok3) return false;
  return readCalculixMatricesFromStrings(sti, stem + ".sti", mas, stem + ".mas", dof, stem + ".dof", out, diag);
}

// ============================== MatrixMarket ==================================================

bool looksLikeMatrixMarket(std::string_view text) {
  const std::string_view t = trim(text.substr(0, 64));
  return t.substr(0, 14) == "%%MatrixMarket";
}

bool readMatrixMarketFromString(std::string_view text, const std::string& source, Eigen::SparseMatrix<double>& A,
                                Diagnostics& diag) {
  ErrorSink error{diag};
  LineReader reader(text, source);
  std::string_view line;
  std::vector<std::string_view> words;
  if (!reader.next(line) || !equalsIgnoreCase(trim(line).substr(0, 14), "%%MatrixMarket")) {
    error(reader.where(std::max(1, reader.line())), "not a MatrixMarket file: the first line must start with '%%MatrixMarket'");
    return false;
  }
  splitWords(line, words);
  if (words.size() < 5) {
    error(reader.where(), "banner must be '%%MatrixMarket matrix coordinate <field> <symmetry>'");
    return false;
  }
  const std::string object = toUpper(words[1]), format = toUpper(words[2]), field = toUpper(words[3]),
                    symmetry = toUpper(words[4]);
  if (object != "MATRIX") {
    error(reader.where(), "object " + quoteField(words[1]) + " is not supported (only 'matrix')");
    return false;
  }
  if (format != "COORDINATE") {
    error(reader.where(), "format " + quoteField(words[2]) + " is not supported (only 'coordinate')");
    return false;
  }
  if (field != "REAL" && field != "INTEGER" && field != "DOUBLE") {
    error(reader.where(), "field " + quoteField(words[3]) + " is not supported (only 'real' and 'integer')");
    return false;
  }
  if (symmetry != "GENERAL" && symmetry != "SYMMETRIC") {
    error(reader.where(), "symmetry " + quoteField(words[4]) + " is not supported (only 'general' and 'symmetric')");
    return false;
  }
  const bool symmetric = symmetry == "SYMMETRIC";

  // size line after comments
  long long rows = 0, cols = 0, nnz = 0;
  std::string problem;
  bool haveSize = false;
  while (reader.next(line)) {
    const std::string_view t = trim(line);
    if (t.empty() || t[0] == '%') continue;
    splitWords(t, words);
    if (words.size() != 3 || !parseInt64(words[0], rows, &problem) || !parseInt64(words[1], cols, &problem) ||
        !parseInt64(words[2], nnz, &problem)) {
      error(reader.where(), "expected the size line 'rows columns entries'" + (problem.empty() ? std::string() : ": " + problem));
      return false;
    }
    haveSize = true;
    break;
  }
  if (!haveSize) {
    error(reader.where(std::max(1, reader.line())), "file ends before the size line");
    return false;
  }
  const int sizeLine = reader.line();
  if (rows < 0 || cols < 0 || nnz < 0 || rows > kMaxDimension || cols > kMaxDimension) {
    error(reader.where(), "unsupported size " + std::to_string(rows) + " x " + std::to_string(cols) + " with " +
                              std::to_string(nnz) + " entries");
    return false;
  }
  if (symmetric && rows != cols) {
    error(reader.where(), "a symmetric matrix must be square, not " + std::to_string(rows) + " x " + std::to_string(cols));
    return false;
  }

  std::vector<Entry> entries;
  entries.reserve(static_cast<std::size_t>(std::min<long long>(nnz, static_cast<long long>(text.size() / 6 + 1))));
  long long count = 0;
  while (!error.full() && reader.next(line)) {
    const std::string_view t = trim(line);
    if (t.empty() || t[0] == '%') continue;
    if (++count > nnz) {
      error(reader.where(), "more entries than the " + std::to_string(nnz) + " declared on line " + std::to_string(sizeLine));
      break;
    }
    splitWords(t, words);
    long long i = 0, j = 0;
    double v = 0;
    if (words.size() != 3) {
      error(reader.where(), "expected 'row column value', got " + std::to_string(words.size()) + " fields");
      continue;
    }
    if (!parseInt64(words[0], i, &problem) || !parseInt64(words[1], j, &problem) || !parseDouble(words[2], v, &problem)) {
      error(reader.where(), problem);
      continue;
    }
    if (i < 1 || j < 1 || i > rows || j > cols) {
      error(reader.where(), "index (" + std::to_string(i) + ", " + std::to_string(j) + ") is outside the " +
                                std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
      continue;
    }
    entries.push_back({static_cast<int>(i - 1), static_cast<int>(j - 1), v, reader.line()});
  }
  if (error.count > 0) return false;
  if (count < nnz) {
    error(reader.where(std::max(1, reader.line())), "file ends after " + std::to_string(count) + " of the " +
                                                        std::to_string(nnz) + " entries declared on line " +
                                                        std::to_string(sizeLine) + " (truncated file?)");
    return false;
  }
  if (symmetric) {
    std::size_t upper = 0, lower = 0;
    for (const auto& e : entries) {
      upper += e.i < e.j;
      lower += e.i > e.j;
    }
    if (upper > 0 && lower > 0)
      diag.warning(source, "declared symmetric but holds entries on both sides of the diagonal; they are checked for symmetry");
    return buildSymmetric(entries, static_cast<int>(rows), source, A, error, diag);
  }
  // general: duplicates are summed (with a warning)
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(entries.size());
  for (const auto& e : entries) triplets.emplace_back(e.i, e.j, e.v);
  Eigen::SparseMatrix<double> B(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  B.setFromTriplets(triplets.begin(), triplets.end());
  B.makeCompressed();
  // count structural entries of B vs. entries read: fewer means duplicates were summed
  if (static_cast<std::size_t>(B.nonZeros()) < entries.size())
    diag.warning(source, std::to_string(entries.size() - static_cast<std::size_t>(B.nonZeros())) +
                             " duplicate entries were summed");
  A = std::move(B);
  return true;
}

bool readMatrixMarket(const std::string& path, Eigen::SparseMatrix<double>& A, Diagnostics& diag) {
  std::string text;
  if (!readTextFile(path, text, diag)) return false;
  return readMatrixMarketFromString(text, path, A, diag);
}

std::string toMatrixMarket(const Eigen::SparseMatrix<double>& A, bool symmetric) {
  std::string out = std::string("%%MatrixMarket matrix coordinate real ") + (symmetric ? "symmetric" : "general") + "\n";
  std::vector<std::tuple<Eigen::Index, Eigen::Index, double>> entries;
  for (Eigen::Index c = 0; c < A.outerSize(); ++c)
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, c); it; ++it)
      if (!symmetric || it.row() >= it.col()) entries.emplace_back(it.row(), it.col(), it.value());
  out += std::to_string(A.rows()) + " " + std::to_string(A.cols()) + " " + std::to_string(entries.size()) + "\n";
  char buf[96];
  for (const auto& [r, c, v] : entries) {
    std::snprintf(buf, sizeof buf, "%ld %ld %.17g\n", static_cast<long>(r + 1), static_cast<long>(c + 1), v);
    out += buf;
  }
  return out;
}

bool writeMatrixMarket(const std::string& path, const Eigen::SparseMatrix<double>& A, bool symmetric, Diagnostics& diag) {
  std::ofstream f(path, std::ios::binary);
  if (!f) {
    diag.error(path, "cannot write file");
    return false;
  }
  f << toMatrixMarket(A, symmetric);
  if (!f.flush()) {
    diag.error(path, "cannot write file");
    return false;
  }
  return true;
}

// ============================== Abaqus .mtx ===================================================

bool readAbaqusMtxFromString(std::string_view text, const std::string& source, AbaqusMatrix& out, Diagnostics& diag) {
  ErrorSink error{diag};
  LineReader reader(text, source);
  std::string_view line;
  std::vector<std::string_view> fields;
  std::string problem;
  struct Raw {
    int n1, d1, n2, d2;
    double v;
    int line;
  };
  std::vector<Raw> raw;
  raw.reserve(std::min<std::size_t>(text.size() / 16 + 1, 100'000'000));
  while (!error.full() && reader.next(line)) {
    const std::string_view t = trim(line);
    if (t.empty() || t[0] == '*') continue;  // "**" comments and keyword lines
    splitFields(t, ',', fields);
    if (!fields.empty() && fields.back().empty()) fields.pop_back();  // trailing comma
    if (fields.size() != 5) {
      error(reader.where(), "expected 'node, dof, node, dof, value', got " + std::to_string(fields.size()) + " fields");
      continue;
    }
    Raw r{};
    r.line = reader.line();
    if (!parseInt(fields[0], r.n1, &problem) || !parseInt(fields[1], r.d1, &problem) || !parseInt(fields[2], r.n2, &problem) ||
        !parseInt(fields[3], r.d2, &problem) || !parseDouble(fields[4], r.v, &problem)) {
      error(reader.where(), problem);
      continue;
    }
    bool ok = true;
    for (int d : {r.d1, r.d2})
      if (ok && (d < 1 || d > 3)) {
        error(reader.where(), "DOF " + std::to_string(d) + " is not a translation (1, 2 or 3; rotational and other DOFs "
                                                           "are not supported)");
        ok = false;
      }
    if (ok) raw.push_back(r);
  }
  if (error.count > 0) return false;
  if (raw.empty()) {
    diag.error(source, "no matrix entries");
    return false;
  }
  // DOF numbering: by node id, then direction
  std::vector<std::pair<int, int>> dofs;
  dofs.reserve(2 * raw.size());
  for (const auto& r : raw) {
    dofs.emplace_back(r.n1, r.d1);
    dofs.emplace_back(r.n2, r.d2);
  }
  std::sort(dofs.begin(), dofs.end());
  dofs.erase(std::unique(dofs.begin(), dofs.end()), dofs.end());
  if (dofs.size() > static_cast<std::size_t>(kMaxDimension)) {
    diag.error(source, "too many DOFs");
    return false;
  }
  auto indexOf = [&](int node, int dir) {
    return static_cast<int>(std::lower_bound(dofs.begin(), dofs.end(), std::make_pair(node, dir)) - dofs.begin());
  };
  std::vector<Entry> entries;
  entries.reserve(raw.size());
  for (const auto& r : raw) entries.push_back({indexOf(r.n1, r.d1), indexOf(r.n2, r.d2), r.v, r.line});
  AbaqusMatrix result;
  if (!buildSymmetric(entries, static_cast<int>(dofs.size()), source, result.A, error, diag)) return false;
  for (const auto& [node, dir] : dofs) {
    result.node_ids.push_back(node);
    result.components.push_back(dir - 1);
  }
  out = std::move(result);
  return true;
}

bool readAbaqusMtx(const std::string& path, AbaqusMatrix& out, Diagnostics& diag) {
  std::string text;
  if (!readTextFile(path, text, diag)) return false;
  return readAbaqusMtxFromString(text, path, out, diag);
}

bool readAbaqusMtx(const std::string& path, MatrixKind kind, fe::FeModel& out, Diagnostics& diag) {
  AbaqusMatrix m;
  if (!readAbaqusMtx(path, m, diag)) return false;
  fe::FeModel copy;
  const bool createNodes = out.nodeCount() == 0;
  fe::FeModel* target = &out;
  if (createNodes) {
    copy = out;
    target = &copy;
  }
  std::vector<fe::Dof> dofs;
  if (!mapDofs(m.node_ids, m.components, *target, path, [&](std::size_t) { return path; }, dofs, diag)) return false;
  const Eigen::SparseMatrix<double>& other = kind == MatrixKind::Stiffness ? target->M : target->K;
  if (other.rows() > 0 && !target->dofs.empty()) {
    bool same = target->dofs.size() == dofs.size();
    for (std::size_t k = 0; same && k < dofs.size(); ++k)
      same = dofs[k].node == target->dofs[k].node && dofs[k].component == target->dofs[k].component;
    if (!same) {
      diag.error(path, std::string("its DOFs differ from those of the ") + (kind == MatrixKind::Stiffness ? "mass" : "stiffness") +
                           " matrix read before");
      return false;
    }
  }
  if (createNodes) out = std::move(copy);
  (kind == MatrixKind::Stiffness ? out.K : out.M) = std::move(m.A);
  out.dofs = std::move(dofs);
  out.sources.push_back(path);
  return true;
}

}  // namespace flexim::io
