#include "ui/property_panel.h"

#include "core/base/cardan_angles.h"
#include "core/model/validate.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <climits>
#include <memory>
#include <cmath>
#include <numbers>

namespace flexim::ui {

namespace {

QString number(double v) { return QString::number(v, 'g', 10); }

/// Numbers separated by commas or blanks; false if any is not a finite number.
bool parseNumbers(const QString& text, std::vector<double>& out) {
  out.clear();
  const QStringList parts = text.split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts);
  for (const QString& p : parts) {
    bool ok = false;
    const double v = QLocale::c().toDouble(p, &ok);
    if (!ok || !std::isfinite(v)) return false;
    out.push_back(v);
  }
  return true;
}

QString joined(const std::vector<double>& values) {
  QStringList parts;
  for (double v : values) parts << number(v);
  return parts.join(", ");
}

/// A unit as printed ("kg m^2" -> "kg·m²").
QString prettyUnit(const std::string& unit) {
  return QString::fromStdString(unit).replace("^2", "²").replace("^3", "³").replace(' ', "·");
}

/// The label of a field's row: its key in words and its unit ("mass [kg]"), the unit of the
/// value it describes put in ("speed [rad/s]" in a driver of a rotation).
QString rowLabel(const FieldDescription& f, const std::string& valueUnit = {}) {
  QString label = QString::fromStdString(f.key).replace('_', ' ');
  const std::string unit = unitIn(f.unit, valueUnit);
  if (!unit.empty()) label += QString(" [%1]").arg(prettyUnit(unit));
  return label;
}

/// Shows text from its start (a long number's leading digits matter most).
void setTextFromStart(QLineEdit* e, const QString& text) {
  e->setText(text);
  e->setCursorPosition(0);
}

/// Names a reference field may take in the model as it is now.
QStringList referenceChoices(const ModelDocument& doc, ItemId id, const FieldDescription& f) {
  const ModelIndex index(doc.model());
  QStringList names;
  if (f.refersTo == "marker") {
    const FieldValue body = doc.value(id, f.bodyKey);
    if (const auto* b = std::get_if<std::string>(&body))
      if (const auto it = index.markerBodies.find(*b); it != index.markerBodies.end())
        for (const auto& m : it->second) names << QString::fromStdString(m);
  } else if (f.refersTo == "flexible_body") {
    for (const auto& [name, body] : index.flexibleBodies) names << QString::fromStdString(name);
  } else if (f.refersTo == "joint") {
    for (const auto& [name, joint] : index.joints) names << QString::fromStdString(name);
  } else {
    for (const auto& [name, markers] : index.markerBodies) names << QString::fromStdString(name);
  }
  return names;
}

/// A line edit that leaves Undo and Redo to the document's commands once its text is committed
/// (a QLineEdit takes Ctrl+Z for its own text history whenever it has the focus).
class FieldLineEdit : public QLineEdit {
 public:
  using QLineEdit::QLineEdit;

 protected:
  bool event(QEvent* e) override {
    if (e->type() == QEvent::ShortcutOverride && !isModified()) {
      auto* key = static_cast<QKeyEvent*>(e);
      if (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo) ||
          key->keyCombination() == QKeyCombination(Qt::ControlModifier | Qt::ShiftModifier, Qt::Key_Z)) {
        e->ignore();
        return true;
      }
    }
    return QLineEdit::event(e);
  }
};

/// A row of number fields (a vector, a quaternion, angles) edited together.
struct NumberRow {
  std::vector<QLineEdit*> edits;
  bool read(std::vector<double>& out) const {
    out.clear();
    for (QLineEdit* e : edits) {
      std::vector<double> v;
      if (!parseNumbers(e->text(), v) || v.size() != 1) return false;
      out.push_back(v[0]);
    }
    return true;
  }
  void write(const double* values) const {
    for (std::size_t i = 0; i < edits.size(); ++i) setTextFromStart(edits[i], number(values[i]));
  }
};

}  // namespace

PropertyPanel::PropertyPanel(ModelDocument* document, QWidget* parent) : QWidget(parent), m_document(document) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(6, 6, 6, 6);
  m_title = new QLabel(this);
  m_title->setObjectName("propertyTitle");
  QFont bold = m_title->font();
  bold.setBold(true);
  m_title->setFont(bold);
  m_help = new QLabel(this);
  m_help->setWordWrap(true);
  m_help->setStyleSheet("color: palette(mid);");
  m_notes = new QLabel(this);
  m_notes->setObjectName("itemNotes");
  m_notes->setWordWrap(true);
  m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_notes->hide();
  outer->addWidget(m_title);
  outer->addWidget(m_help);
  outer->addWidget(m_notes);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  m_form = new QWidget(scroll);
  m_layout = new QFormLayout(m_form);
  m_layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  m_layout->setSizeConstraint(QLayout::SetMinimumSize);  // a long form scrolls, it is not squeezed
  m_layout->setLabelAlignment(Qt::AlignRight);
  scroll->setWidget(m_form);
  outer->addWidget(scroll, 1);

  connect(m_document, &ModelDocument::selectionChanged, this, [this](ItemId id) {
    m_item = id;
    rebuild();
  });
  connect(m_document, &ModelDocument::modelReset, this, [this] {
    m_item = m_document->selected();
    rebuild();
  });
  connect(m_document, &ModelDocument::itemsChanged, this, [this] {
    m_item = m_document->selected();
    scheduleRebuild();
  });
  connect(m_document, &ModelDocument::fieldChanged, this, &PropertyPanel::onFieldChanged);
  m_item = m_document->selected();
  rebuild();
}

QString PropertyPanel::fieldError(const QString& key) const {
  const auto it = m_rows.find(key.toStdString());
  return it == m_rows.end() || it->second.error->isHidden() ? QString() : it->second.error->text();
}

void PropertyPanel::scheduleRebuild() {
  // later, not now: the change may come from an editor of the form, still inside its signal
  if (m_rebuildPending) return;
  m_rebuildPending = true;
  QMetaObject::invokeMethod(this, [this] { rebuild(); }, Qt::QueuedConnection);
}

void PropertyPanel::rebuild() {
  m_rebuildPending = false;
  while (m_layout->rowCount() > 0) m_layout->removeRow(0);
  m_rows.clear();
  const ItemDescription* d = m_document->description(m_item);
  showNotes();
  if (!d) {
    m_title->setText(tr("No item selected"));
    m_help->setText(tr("Select an item in the model tree to see and edit its properties."));
    return;
  }
  m_title->setText(m_document->itemLabel(m_item));
  m_help->setText(QString::fromStdString(d->help).remove(QLatin1Char('`')));  // the help is written for Markdown docs
  addRows(*d, "");
}

void PropertyPanel::setViewNote(const QString& html) {
  m_viewNote = html;
  showNotes();
}

void PropertyPanel::setNotes(const Diagnostics& notes) {
  m_compileNotes = notes;
  showNotes();
}

QString PropertyPanel::notesText() const { return m_notes->isHidden() ? QString() : m_notes->text(); }

void PropertyPanel::showNotes() {
  const std::string path = m_document->itemPath(m_item);
  QStringList lines;
  if (!path.empty())
    for (const Diagnostic& d : m_compileNotes.items()) {
      if (d.where != path && d.where.rfind(path + ".", 0) != 0) continue;
      const QString text = QString::fromStdString(d.message).toHtmlEscaped();
      lines << (d.severity == Severity::Info ? text
                                             : QString("<span style='color:%1'>⚠ %2</span>")
                                                   .arg(d.severity == Severity::Error ? "#e5534b" : "#d9822b", text));
    }
  if (!m_viewNote.isEmpty()) lines << m_viewNote;
  m_notes->setText(lines.join("<br>"));
  m_notes->setVisible(!lines.isEmpty());
}

void PropertyPanel::addRows(const ItemDescription& d, const std::string& prefix, const std::string& valueUnit) {
  for (const FieldDescription& f : d.fields) {
    const std::string key = prefix + f.key;
    if (f.inputOnly || m_rows.count(key) || !m_document->applies(m_item, key)) continue;
    // a key described once per kind (a sensor's body: any body, or a flexible one): the one that applies
    if (prefix.empty() && !m_document->applies(m_item, f)) continue;
    if (f.type == FieldType::Object && f.item && f.object) {
      // a nested object (a body's visual mesh): a heading, then its own fields as "visual.file"
      auto* heading = new QLabel(QString("<b>%1</b>").arg(rowLabel(f)), m_form);
      heading->setToolTip(QString::fromStdString(f.help));
      m_layout->addRow(heading);
      addRows(*f.item, key + ".", f.valueUnit ? f.valueUnit(m_document->itemData(m_item)) : std::string());
      continue;
    }
    if (!f.get || !f.set) continue;
    Row row;
    QWidget* editor = makeEditor(f, key, row);
    if (!editor) continue;
    auto* cell = new QWidget(m_form);
    auto* box = new QVBoxLayout(cell);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(2);
    box->addWidget(editor);
    row.error = new QLabel(cell);
    row.error->setObjectName(QString::fromStdString("error:" + key));
    row.error->setWordWrap(true);
    row.error->setStyleSheet("color: #b00020;");
    row.error->hide();
    box->addWidget(row.error);
    auto* label = new QLabel(rowLabel(f, valueUnit), m_form);
    const QString help = QString::fromStdString(f.help);
    label->setToolTip(help);
    editor->setToolTip(help);
    m_layout->addRow(label, cell);
    row.show(m_document->value(m_item, key));
    m_rows[key] = std::move(row);
  }
}

void PropertyPanel::onFieldChanged(ItemId id, const QString& key) {
  if (id != m_item) return;
  const std::string k = key.toStdString();
  const ItemDescription* d = m_document->description(id);
  // a kind (which fields apply) or a body (which markers are offered) changed: lay out again
  bool relayout = d && d->isDiscriminator(k);
  // a kind inside a nested object ("function.type"): that object's description decides
  if (const std::size_t dot = k.find('.'); d && !relayout && dot != std::string::npos)
    if (const FieldDescription* object = d->field(k.substr(0, dot)); object && object->item)
      relayout = object->item->isDiscriminator(k.substr(dot + 1));
  if (d)
    for (const FieldDescription& f : d->fields)
      // a marker's body changed; or the unit of a nested object's value may have (a driver's coordinate)
      relayout = relayout || f.bodyKey == k || (f.valueUnit && k.rfind(f.key + ".", 0) != 0);
  // what a list offers may follow the item's other lists (the components of its quantities)
  if (d)
    if (const FieldDescription* changed = d->field(k); changed && changed->options) relayout = true;
  if (relayout) {
    scheduleRebuild();
    return;
  }
  if (k == "name") m_title->setText(m_document->itemLabel(id));
  if (const auto it = m_rows.find(k); it != m_rows.end()) it->second.show(m_document->value(id, k));
}

void PropertyPanel::commit(const std::string& key, const FieldValue& value) {
  if (!m_rows.count(key)) return;
  QString error;
  const bool accepted = m_document->setField(m_item, key, value, error);
  // the row may have been rebuilt by the change: look it up again
  const auto row = m_rows.find(key);
  if (row == m_rows.end()) return;
  if (accepted) {
    row->second.error->hide();
    return;
  }
  refuse(key, error);
}

QWidget* PropertyPanel::choiceList(const std::string& key, Row& row) {
  // the values the item may list, each a box to tick: what is listed is what is ticked, in the
  // options' order (a sensor's quantities for its type: nothing to type, nothing misspelt)
  const std::vector<std::string> options = m_document->options(m_item, key);
  auto* w = new QWidget(m_form);
  w->setObjectName(QString::fromStdString("field:" + key));
  auto* flow = new QGridLayout(w);
  flow->setContentsMargins(0, 0, 0, 0);
  flow->setHorizontalSpacing(8);
  flow->setVerticalSpacing(0);
  auto boxes = std::make_shared<std::vector<QCheckBox*>>();
  const int columns = options.size() > 4 ? 2 : 3;  // fits the panel at its default width
  for (std::size_t i = 0; i < options.size(); ++i) {
    auto* box = new QCheckBox(QString::fromStdString(options[i]), w);
    box->setObjectName(QString::fromStdString("field:" + key + ":" + options[i]));
    flow->addWidget(box, int(i) / columns, int(i) % columns);
    boxes->push_back(box);
    connect(box, &QCheckBox::clicked, this, [this, key, boxes] {
      std::vector<std::string> ticked;
      for (QCheckBox* b : *boxes)
        if (b->isChecked()) ticked.push_back(b->text().toStdString());
      commit(key, ticked);
    });
  }
  row.show = [boxes](const FieldValue& v) {
    const auto* listed = std::get_if<std::vector<std::string>>(&v);
    for (QCheckBox* b : *boxes) {
      const QSignalBlocker block(b);
      b->setChecked(listed && std::find(listed->begin(), listed->end(), b->text().toStdString()) != listed->end());
    }
  };
  return w;
}

void PropertyPanel::refuse(const std::string& key, const QString& message) {
  const auto row = m_rows.find(key);
  if (row == m_rows.end()) return;
  // validation's messages start with the field's path; the editor's own start with the message
  row->second.error->setText(message.contains(':') ? message : QString::fromStdString(key) + ": " + message);
  row->second.error->show();
  row->second.show(m_document->value(m_item, key));  // the editor shows what the model holds
}

QWidget* PropertyPanel::makeEditor(const FieldDescription& f, const std::string& key, Row& row) {
  const QString name = QString::fromStdString("field:" + key);
  const FieldType type = f.type;
  // a line edit whose text is committed when editing finishes (Return, Tab, focus out)
  const auto lineEdit = [&](QWidget* parent, const QString& objectName, std::function<void(QLineEdit*)> onEdited) {
    auto* e = new FieldLineEdit(parent);
    e->setObjectName(objectName);
    connect(e, &QLineEdit::editingFinished, this, [e, onEdited] {
      if (!e->isModified()) return;  // Return and the focus leaving both finish an edit: act once
      e->setModified(false);
      onEdited(e);
    });
    return e;
  };
  // a fixed number of numbers side by side (vectors), committed together
  const auto numberRow = [&](int n, std::function<FieldValue(const std::vector<double>&)> toValue,
                             std::function<std::vector<double>(const FieldValue&)> fromValue) -> QWidget* {
    auto* w = new QWidget(m_form);
    w->setObjectName(name);
    auto* h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    h->setSpacing(3);
    auto numbers = std::make_shared<NumberRow>();
    for (int i = 0; i < n; ++i) {
      QLineEdit* e = lineEdit(w, name + ":" + QString::number(i), [this, key, numbers, toValue](QLineEdit*) {
        std::vector<double> v;
        if (numbers->read(v)) commit(key, toValue(v));
        else refuse(key, tr("expected a number in every box"));
      });
      e->setMinimumWidth(50);
      static const char* const xyz[] = {"x", "y", "z"};
      e->setPlaceholderText(n == 3 ? xyz[i] : "");
      h->addWidget(e);
      numbers->edits.push_back(e);
    }
    row.show = [numbers, fromValue](const FieldValue& v) {
      const std::vector<double> values = fromValue(v);
      if (values.size() == numbers->edits.size()) numbers->write(values.data());
    };
    return w;
  };

  switch (f.type) {
    case FieldType::Number: {
      QLineEdit* e = lineEdit(m_form, name, [this, key](QLineEdit* edit) {
        std::vector<double> v;
        if (parseNumbers(edit->text(), v) && v.size() == 1) commit(key, v[0]);
        else refuse(key, tr("expected a number"));
      });
      row.show = [e](const FieldValue& v) {
        if (const auto* d = std::get_if<double>(&v)) e->setText(number(*d));
      };
      return e;
    }
    case FieldType::Integer: {
      auto* e = new QSpinBox(m_form);
      e->setObjectName(name);
      e->setRange(f.minimum.set ? int(std::ceil(f.minimum.value)) : INT_MIN,
                  f.maximum.set ? int(std::floor(f.maximum.value)) : INT_MAX);
      e->setKeyboardTracking(false);
      connect(e, &QSpinBox::valueChanged, this, [this, key](int v) { commit(key, v); });
      row.show = [e](const FieldValue& v) {
        const QSignalBlocker block(e);
        if (const auto* i = std::get_if<int>(&v)) e->setValue(*i);
      };
      return e;
    }
    case FieldType::Bool: {
      auto* e = new QCheckBox(m_form);
      e->setObjectName(name);
      connect(e, &QCheckBox::clicked, this, [this, key](bool on) { commit(key, on); });
      row.show = [e](const FieldValue& v) {
        if (const auto* b = std::get_if<bool>(&v)) e->setChecked(*b);
      };
      return e;
    }
    case FieldType::String: {
      QLineEdit* e =
          lineEdit(m_form, name, [this, key](QLineEdit* edit) { commit(key, edit->text().toStdString()); });
      row.show = [e](const FieldValue& v) {
        if (const auto* s = std::get_if<std::string>(&v)) e->setText(QString::fromStdString(*s));
      };
      if (f.fileTypes.empty()) return e;
      // a file name: typed, or chosen with "…" (named relative to the model file's folder)
      auto* w = new QWidget(m_form);
      auto* h = new QHBoxLayout(w);
      h->setContentsMargins(0, 0, 0, 0);
      e->setParent(w);
      h->addWidget(e, 1);
      auto* browse = new QToolButton(w);
      browse->setObjectName("browse:" + QString::fromStdString(key));
      browse->setText(QStringLiteral("…"));
      browse->setToolTip(tr("Choose the file"));
      h->addWidget(browse);
      QStringList patterns;
      for (const std::string& p : f.fileTypes) patterns << QString::fromStdString(p);
      connect(browse, &QToolButton::clicked, this, [this, key, e, patterns] {
        const QString folder = m_document->path().isEmpty() ? QString() : QFileInfo(m_document->path()).absolutePath();
        const QString current = e->text().isEmpty() ? folder : QDir(folder).absoluteFilePath(e->text());
        const QString chosen = QFileDialog::getOpenFileName(
            this, tr("Choose %1").arg(QString::fromStdString(key)), current,
            tr("%1 (%2);;All files (*)").arg(QString::fromStdString(key), patterns.join(' ')));
        if (chosen.isEmpty()) return;
        commit(key, (folder.isEmpty() ? chosen : QDir(folder).relativeFilePath(chosen)).toStdString());
      });
      return w;
    }
    case FieldType::Enum:
    case FieldType::Reference: {
      auto* e = new QComboBox(m_form);
      e->setObjectName(name);
      if (f.type == FieldType::Enum) {
        for (const auto& c : f.choices) e->addItem(QString::fromStdString(c));
      } else {
        e->addItems(referenceChoices(*m_document, m_item, f));
        e->setEditable(true);  // a name not (yet) in the model is refused with validation's message
        e->setInsertPolicy(QComboBox::NoInsert);
        // Return, Tab or the focus leaving commit what is typed, also the name the combo shows
        // already (a draft's first entry, which the combo itself does not report as activated)
        connect(e->lineEdit(), &QLineEdit::editingFinished, this, [this, key, e] {
          const std::string text = e->currentText().toStdString();
          const FieldValue held = m_document->value(m_item, key);
          const auto* name = std::get_if<std::string>(&held);
          if (!name || *name != text) commit(key, text);
        });
      }
      connect(e, &QComboBox::textActivated, this,
              [this, key](const QString& text) { commit(key, text.toStdString()); });
      row.show = [e](const FieldValue& v) {
        const QSignalBlocker block(e);
        if (const auto* s = std::get_if<std::string>(&v)) {
          const int i = e->findText(QString::fromStdString(*s));
          if (i >= 0) e->setCurrentIndex(i);
          else if (e->isEditable()) e->setEditText(QString::fromStdString(*s));
        }
      };
      return e;
    }
    case FieldType::Vec3:
      return numberRow(
          3, [](const std::vector<double>& v) { return FieldValue(Vec3(v[0], v[1], v[2])); },
          [](const FieldValue& v) {
            const auto* x = std::get_if<Vec3>(&v);
            return x ? std::vector<double>{(*x)(0), (*x)(1), (*x)(2)} : std::vector<double>{};
          });
    case FieldType::Vec6:
      return numberRow(
          6, [](const std::vector<double>& v) { return FieldValue(Vec6(Eigen::Map<const Vec6>(v.data()))); },
          [](const FieldValue& v) {
            const auto* x = std::get_if<Vec6>(&v);
            return x ? std::vector<double>(x->data(), x->data() + 6) : std::vector<double>{};
          });
    case FieldType::Quaternion:
    case FieldType::Orientation: {
      // the quaternion (committed when the focus leaves its four boxes or on Return, so typing
      // w, x, y, z in turn is not renormalised after each) and Cardan angles, each committed alone
      auto* w = new QWidget(m_form);
      w->setObjectName(name);
      auto* grid = new QGridLayout(w);
      grid->setContentsMargins(0, 0, 0, 0);
      grid->setHorizontalSpacing(3);
      grid->setVerticalSpacing(2);
      auto quaternion = std::make_shared<NumberRow>();
      auto angles = std::make_shared<NumberRow>();
      auto pending = std::make_shared<bool>(false);
      static const char* const wxyz[] = {"w", "x", "y", "z"};
      for (int i = 0; i < 4; ++i) {
        auto* e = new FieldLineEdit(w);
        e->setObjectName(name + ":" + QString::number(i));
        e->setPlaceholderText(wxyz[i]);
        e->setMinimumWidth(44);
        connect(e, &QLineEdit::editingFinished, this, [this, e, key, quaternion, pending] {
          if (!e->isModified() && !*pending) return;
          e->setModified(false);
          const QWidget* next = QApplication::focusWidget();
          const bool withinRow = next && next != e &&
                                 std::find(quaternion->edits.begin(), quaternion->edits.end(), next) != quaternion->edits.end();
          *pending = withinRow;
          if (withinRow) return;  // the next box of the same quaternion: wait for the whole
          std::vector<double> v;
          if (!quaternion->read(v)) return refuse(key, tr("expected a number in every box"));
          Quat q(v[0], v[1], v[2], v[3]);
          if (!(q.norm() > 0)) return refuse(key, tr("the quaternion must not be zero"));
          commit(key, FieldValue(q.normalized()));  // as the JSON reader does
        });
        grid->addWidget(e, 0, i);
        quaternion->edits.push_back(e);
      }
      auto* anglesLabel = new QLabel(tr("x-y'-z'' [°]"), w);
      anglesLabel->setToolTip(tr("Cardan angles: turn about x, then about the new y, then about the new z"));
      grid->addWidget(anglesLabel, 1, 0);
      for (int i = 0; i < 3; ++i) {
        QLineEdit* e = lineEdit(w, name + ":deg" + QString::number(i), [this, key, angles](QLineEdit*) {
          std::vector<double> v;
          if (!angles->read(v)) return refuse(key, tr("expected an angle in every box"));
          commit(key, FieldValue(fromXyzAngles(Vec3(v[0], v[1], v[2]) * (std::numbers::pi / 180.0))));
        });
        e->setMinimumWidth(44);
        static const char* const axes[] = {"about x", "about y'", "about z''"};
        e->setPlaceholderText(axes[i]);
        grid->addWidget(e, 1, i + 1);
        angles->edits.push_back(e);
      }
      row.show = [quaternion, angles, pending](const FieldValue& v) {
        const auto* q = std::get_if<Quat>(&v);
        if (!q) return;
        *pending = false;
        const double values[] = {q->w(), q->x(), q->y(), q->z()};
        quaternion->write(values);
        const Vec3 degrees = xyzAngles(*q) * (180.0 / std::numbers::pi);
        // rounded to 1e-9 degree: 30 reads 30, not 29.999999999999996
        for (int i = 0; i < 3; ++i) setTextFromStart(angles->edits[std::size_t(i)], number(std::round(degrees[i] * 1e9) / 1e9));
      };
      return w;
    }
    case FieldType::Inertia: {
      auto* w = new QWidget(m_form);
      w->setObjectName(name);
      auto* grid = new QGridLayout(w);
      grid->setContentsMargins(0, 0, 0, 0);
      grid->setSpacing(3);
      auto edits = std::make_shared<std::array<QLineEdit*, 9>>();
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          QLineEdit* e = lineEdit(w, name + QString(":%1%2").arg(i).arg(j), [this, key, edits, i, j](QLineEdit*) {
            // the tensor is symmetric: an off-diagonal entry sets its mirror too
            (*edits)[3 * j + i]->setText((*edits)[3 * i + j]->text());
            Mat3 m;
            for (int k = 0; k < 9; ++k) {
              std::vector<double> v;
              if (!parseNumbers((*edits)[k]->text(), v) || v.size() != 1) {
                refuse(key, tr("expected a number in every box"));
                return;
              }
              m(k / 3, k % 3) = v[0];
            }
            commit(key, m);
          });
          e->setMinimumWidth(50);
          grid->addWidget(e, i, j);
          (*edits)[3 * i + j] = e;
        }
      row.show = [edits](const FieldValue& v) {
        if (const auto* m = std::get_if<Mat3>(&v))
          for (int k = 0; k < 9; ++k) setTextFromStart((*edits)[k], number((*m)(k / 3, k % 3)));
      };
      return w;
    }
    case FieldType::StringList:
      if (f.options) return choiceList(key, row);
      [[fallthrough]];
    case FieldType::NumberList:
    case FieldType::NumberOrList:
    case FieldType::IntList: {
      QLineEdit* e = lineEdit(m_form, name, [this, type, key](QLineEdit* edit) {
        if (type == FieldType::StringList) {
          std::vector<std::string> names;
          for (const QString& s : edit->text().split(',', Qt::SkipEmptyParts)) names.push_back(s.trimmed().toStdString());
          commit(key, names);
          return;
        }
        std::vector<double> v;
        if (!parseNumbers(edit->text(), v)) {
          refuse(key, tr("expected numbers separated by commas"));
          return;
        }
        if (type == FieldType::IntList) {
          std::vector<int> ints;
          for (double x : v) ints.push_back(int(std::lround(x)));
          commit(key, ints);
        } else if (type == FieldType::NumberOrList &&
                   std::holds_alternative<double>(m_document->value(m_item, key)) && v.size() == 1) {
          commit(key, v[0]);
        } else {
          commit(key, v);
        }
      });
      e->setPlaceholderText(tr("values separated by commas"));
      row.show = [e](const FieldValue& v) {
        if (const auto* d = std::get_if<double>(&v)) e->setText(number(*d));
        else if (const auto* l = std::get_if<std::vector<double>>(&v)) e->setText(joined(*l));
        else if (const auto* il = std::get_if<std::vector<int>>(&v)) {
          QStringList parts;
          for (int i : *il) parts << QString::number(i);
          e->setText(parts.join(", "));
        } else if (const auto* sl = std::get_if<std::vector<std::string>>(&v)) {
          QStringList parts;
          for (const auto& s : *sl) parts << QString::fromStdString(s);
          e->setText(parts.join(", "));
        }
      };
      return e;
    }
    case FieldType::Object:
    case FieldType::List: return nullptr;  // nested items: their own entries
  }
  return nullptr;
}

}  // namespace flexim::ui
