// Item descriptions: every kind of model item (bodies, markers, joints, drivers, forces, sensors,
// solver settings, ...) is described once, here, as a plain table: its JSON key, its fields
// (type, unit, default, limits, references, help text, where the value lives in the spec
// struct) and its own checks. The JSON reader and writer, the model comparison, validate(), the
// generated JSON Schema and the field tables of docs/model-format.md all walk these tables, so a
// field is listed in one place only.
//
// Joint kinds are registered the same way (jointKinds()): a kind brings its key, the coordinates
// a driver may drive, its constraint count and any parameters of its own; so are force kinds
// (forceKinds()).
#pragma once

#include "core/model/model.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <typeindex>
#include <variant>
#include <vector>

namespace flexim {

class ItemCheck;  // core/model/validate.h

using Vec6 = Eigen::Matrix<double, 6, 1>;

enum class FieldType {
  Number,        ///< finite double
  Integer,       ///< int
  Bool,
  String,
  Vec3,          ///< [x, y, z]
  Vec6,          ///< 6 numbers
  Quaternion,    ///< [w, x, y, z], normalised on reading
  Orientation,   ///< a quaternion, or the z_axis/x_axis form given by the item's input-only fields
  Inertia,       ///< symmetric positive-definite 3x3 tensor, or its diagonal
  Enum,          ///< one of choices
  Reference,     ///< the name of another item (refersTo)
  NumberList,
  NumberOrList,  ///< a number (one value for all) or a list of numbers
  IntList,
  StringList,
  Object,        ///< a nested object described by item
  List           ///< a list of items described by item
};

/// The value of a field as the generic code sees it. Enums and references are strings.
using FieldValue = std::variant<std::monostate, double, int, bool, std::string, Vec3, Vec6, Quat, Mat3,
                                std::vector<double>, std::vector<int>, std::vector<std::string>>;

/// A bound on a number (and on every element of a vector or list).
struct Limit {
  bool set = false;
  double value = 0.0;
  bool exclusive = false;
};

/// How the scene draws a body of a kind (BodyKindDescription::drawing).
enum class BodyDrawing {
  Shape,    ///< its visual shape, or its equivalent-inertia box (rigid bodies)
  Surface,  ///< its FE surface, deformed and coloured (deformable bodies)
  Ball,     ///< a ball in its colour at its `position`: a mass without a shape
  Dot,      ///< a small grey ball at its origin: a massless body
};

/// What makes the items of a list bodies (ItemDescription::body). A body's pose, its System
/// block and its place in the body table follow from it (core/model/body_table.h).
struct BodyKindDescription {
  std::string key;           ///< "rigid", "flexible", "virtual", "point_mass"
  std::string listKey;       ///< the model's list of such bodies ("bodies"); set by the description
  std::string noun;          ///< what messages call one ("flexible body")
  bool carriesMarkers = true;  ///< joints and forces attach to its markers
  bool deformable = false;     ///< has modal coordinates (a Sample::modal entry) and FE nodes
  bool massless = false;       ///< its motion is set by what it is attached to
  /// Its axes turn with it; false for a point mass, whose axes stay the global axes: it takes no
  /// torque and only joints that hold points together (spherical).
  bool rotates = true;
  BodyDrawing drawing = BodyDrawing::Ball;
  /// Where one of its items starts (t = 0, undeformed) when its fields do not say it alone; empty:
  /// at its `position` field, turned by its `orientation` field (when it has them).
  std::function<BodyPose(const ModelSpec&, const void* item)> startPose;
};

/// The field applies only when the item's Enum field `key` (listed before it) has one of `values`.
struct Condition {
  std::string key;
  std::vector<std::string> values;
  bool misplacedIsError = false;  ///< given where it does not apply: an error rather than a warning
};

struct ItemDescription;

/// An orientation `key` may be given as Cardan angles [deg] under key + this suffix instead.
inline constexpr const char* kAnglesSuffix = "_xyz_deg";

/// A field's unit with "{value}" replaced by the unit of the value it describes: "{value}/s" is
/// "rad/s" in a driver of a rotation, "1/s" for a plain factor ("" value unit), "f/s" in the docs.
std::string unitIn(const std::string& unit, const std::string& valueUnit);

struct FieldDescription {
  std::string key;                 ///< JSON key
  FieldType type = FieldType::Number;
  std::string unit;                ///< SI unit ("" for none)
  std::string help;                ///< one sentence for docs, tooltips and the schema
  bool required = false;
  std::string whyRequired;         ///< appended to the "required" message where it helps
  bool nonEmpty = false;           ///< strings: "" is not a value
  std::string defaultText;         ///< the default as JSON text ("" = none, or see help)
  Limit minimum, maximum;
  std::vector<std::string> choices;   ///< Enum
  std::string refersTo;               ///< Reference: "body", "marker", "flexible_body", "joint"
  std::string bodyKey;                ///< Reference to a marker: the key naming the marker's body
  std::string referenceNote;          ///< Reference to a flexible body: why it must be one
  const ItemDescription* item = nullptr;  ///< Object, List
  std::optional<Condition> condition;
  std::string alternative;  ///< a key that takes this one's place (exactly one of the two is given)
  bool inputOnly = false;   ///< an input form read by another field (z_axis); neither stored nor written
  /// String: names a file relative to the model file's folder; these are its patterns ("*.frb").
  /// The file follows the model when it is saved elsewhere, and editors offer to browse for it.
  std::vector<std::string> fileTypes;
  /// StringList: the values this item may list, in their order (a sensor's quantities for its
  /// type); editors offer them to tick instead of typing. None: any.
  std::function<std::vector<std::string>(const void*)> options;
  /// Object: the unit of the value its fields describe, from the holder (a driver's function is
  /// an angle [rad] or a length [m]); the nested fields' units name it "{value}" (see unitIn).
  std::function<std::string(const void*)> valueUnit;

  // Access to the value in the spec struct (the item's type, see ItemDescription::type).
  std::function<FieldValue(const void*)> get;
  std::function<void(void*, const FieldValue&)> set;
  std::function<void*(void*)> object;                  ///< Object
  std::function<std::size_t(const void*)> count;       ///< List
  std::function<void(void*, std::size_t)> resize;      ///< List
  std::function<void*(void*, std::size_t)> element;    ///< List
  /// List: a copy of element (a struct of the item's type; its defaults when null) put at index.
  std::function<void(void*, std::size_t, const void*)> insert;
  std::function<void(void*, std::size_t)> erase;       ///< List
  std::function<bool(const void*)> inUse;              ///< written only when true (none: always)
  std::function<void(const ModelSpec&, void*)> defaultFrom;  ///< default that depends on the model

  // Chainable setters for the tables.
  FieldDescription& require(std::string why = {});
  FieldDescription& notEmpty();
  FieldDescription& byDefault(std::string jsonText);
  FieldDescription& atLeast(double v);      ///< >= v
  FieldDescription& above(double v);        ///< > v
  FieldDescription& atMost(double v);       ///< <= v
  FieldDescription& when(std::string key, std::vector<std::string> values, bool misplacedIsError = false);
  FieldDescription& instead(std::string alternativeKey);
  FieldDescription& refers(std::string kind, std::string note = {});
  FieldDescription& markerOf(std::string bodyField);
  FieldDescription& file(std::vector<std::string> patterns);  ///< a file name (see fileTypes)

  /// "must be positive", "must not be negative", "must be in [0, 1]", ... ("" when v is allowed).
  std::string limitProblem(double v) const;
  /// The type as people read it: "number", "vector", "\"a\" | \"b\"", ...
  std::string typeName() const;
};

struct ItemDescription {
  std::string kind;       ///< "body", "joint", "time_function", ...
  std::string listKey;    ///< JSON key of its list in the model ("bodies"); "" for nested objects
  std::string label;      ///< short label for trees and dialogs ("Rigid body")
  std::string help;
  std::string nameScope;  ///< names are unique within this scope ("" = the item has no name)
  std::vector<FieldDescription> fields;
  std::type_index type = typeid(void);   ///< the spec struct
  std::function<void(void*)> reset;      ///< to the struct's defaults
  std::function<void(ItemCheck&)> check; ///< checks beyond the fields' own (may be empty)
  /// A kind of body: what the body table, the topology, the compiler and the scene need to know
  /// of its items. The model's lists of bodies are the lists of items that have one.
  std::optional<BodyKindDescription> body;

  const FieldDescription* field(std::string_view key) const;  ///< the first field with key
  /// Whether f applies to item (its condition holds).
  bool applies(const FieldDescription& f, const void* item) const;
  /// Whether f is stored and written for item: it applies, is not input-only, and is in use.
  bool written(const FieldDescription& f, const void* item) const;
  /// Keys other fields' conditions depend on (read first; if unreadable, conditional fields are skipped).
  bool isDiscriminator(std::string_view key) const;
};

/// The document's top level (schema_version, gravity, ground, the item lists, simulation).
const ItemDescription& modelDescription();
/// Every description in document order, the top level first.
const std::vector<const ItemDescription*>& itemDescriptions();
const ItemDescription* findItemDescription(std::string_view kind);

/// A kind of joint. Adding one: its constraint element (core/system), this description in
/// core/model/joint_kinds.cpp, and nothing else here, in io/, render/ or ui/.
struct JointKindDescription {
  std::string key;   ///< "revolute"
  std::string help;  ///< constraint and free motion, in marker axes
  int constraints = 0;
  bool rotation = false;     ///< a driver may drive its rotation coordinate [rad]
  bool translation = false;  ///< a driver may drive its translation coordinate [m]
  std::vector<FieldDescription> parameters;  ///< make them with jointParameter()
  /// The coordinate a coupling acts on: "rotation", "translation", or "" (not coupleable).
  std::string coupled;
};

/// A number kept in JointSpec::parameters under key.
FieldDescription jointParameter(std::string key, std::string unit, std::string help, double defaultValue);

/// The registered joint kinds, in document order.
const std::vector<JointKindDescription>& jointKinds();
const JointKindDescription* findJointKind(std::string_view key);

/// The joint kinds' registrations (core/model/joint_kinds.cpp).
std::vector<JointKindDescription> registeredJointKinds();

/// Adds a kind defined outside core/model (a plug-in, a test) at start-up: the tables are built
/// once, at the first use of any kind or description, and false is returned after that.
bool registerJointKind(JointKindDescription kind);

/// A kind of force. Adding one: this description in core/model/force_kinds.cpp, its element in a
/// file of its own in core/system and one line in the element table there
/// (core/system/force_elements.cpp); nothing else here, in io/, render/ or ui/.
struct ForceKindDescription {
  std::string key;   ///< "bushing"
  std::string help;  ///< what it applies, and where
  /// Acts between marker1 on body1 and marker2 on body2 (a spring); otherwise at one marker (a load).
  bool twoEnds = false;
  std::vector<FieldDescription> parameters;  ///< numbers of its own: make them with forceParameter()
};

/// A number kept in ForceSpec::parameters under key.
FieldDescription forceParameter(std::string key, std::string unit, std::string help, double defaultValue);

/// The registered force kinds, in document order.
const std::vector<ForceKindDescription>& forceKinds();
const ForceKindDescription* findForceKind(std::string_view key);
/// The force kinds' registrations (core/model/force_kinds.cpp).
std::vector<ForceKindDescription> registeredForceKinds();

/// A kind of contact. Adding one: this description in core/model/contact_kinds.cpp, its
/// geometry (gap, normal, tangents) in core/system/contacts.cpp and one line in the builder table
/// there; the contact law, the solver and the outputs are shared by every kind.
struct ContactKindDescription {
  std::string key;   ///< "sphere_plane"
  std::string help;  ///< the geometry: what marker1 and marker2 stand for, where the gap is measured
  /// Contact points the kind makes (the translational clearance: its four corners).
  int points = 1;
  /// Friction directions per point: 2 spatial (a cone), 1 planar (an interval).
  int tangents = 2;
  std::vector<FieldDescription> parameters;  ///< numbers of its own: make them with contactParameter()
  /// Its points are FE nodes of a flexible body1, listed in `nodes` (one point each; `points` is
  /// then unused), instead of marker1.
  bool nodes = false;
};

/// A number kept in ContactSpec::parameters under key.
FieldDescription contactParameter(std::string key, std::string unit, std::string help, double defaultValue);

/// The registered contact kinds, in document order.
const std::vector<ContactKindDescription>& contactKinds();
const ContactKindDescription* findContactKind(std::string_view key);
/// The contact kinds' registrations (core/model/contact_kinds.cpp).
std::vector<ContactKindDescription> registeredContactKinds();
/// The value of a contact's parameter (the kind's default when the spec does not give it).
double contactParameterValue(const ContactSpec& contact, const std::string& key);
/// The names of a contact's points, which start their output channels: the contact's name for a
/// kind of one point, else name_1 ... name_n.
std::vector<std::string> contactPointNames(const ContactSpec& contact);

}  // namespace flexim
