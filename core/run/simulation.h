// Running a model: compile, check, integrate, stream sensor samples to sinks.
// This is the one entry point the CLI and the GUI's worker thread use.
#pragma once

#include "core/base/diagnostics.h"
#include "core/model/body_table.h"
#include "core/model/model.h"
#include "core/run/quality.h"
#include "core/system/contract.h"

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace flexim {

class System;

/// One output column: header text is "<name> [<unit>]", e.g. "slider.position.x [m]".
struct Channel {
  std::string name;
  std::string unit;
  std::string header() const { return name + " [" + unit + "]"; }
};

/// One output sample. values[i] belongs to channels()[i]. poses[p]: the pose of the body table's
/// body p (Simulation::bodies(); a flexible body's is its FE frame). modal[i]: the modal
/// coordinates of the table's i-th deformable body, BodyTable::deformable()[i] (deformed nodes:
/// x + Phi w, recovered by whoever displays them).
struct Sample {
  double t = 0.0;
  std::vector<double> values;
  std::vector<BodyPose> poses;
  std::vector<Eigen::VectorXd> modal;
};

/// Facts of a run, for the summary line and the CSV metadata.
struct RunSummary {
  bool ok = false;
  bool cancelled = false;
  std::string message;             ///< why it stopped, when !ok (names the item when it can)
  double t_reached = 0.0;          ///< [s]
  long steps = 0;
  long newton_iterations = 0;
  long failures = 0;               ///< error-test and convergence failures (step rejections)
  long samples = 0;
  double max_constraint_residual = 0.0;  ///< max |Phi| over output samples before projection
  double initial_residual = 0.0;   ///< max |Phi| after the initial position assembly
  double wall_time = 0.0;          ///< [s]
  std::string integrator;          ///< e.g. "ida (BDF, GGL index-2, KLU)"
  std::string settings;            ///< e.g. "rtol=1e-08 atol=1e-10 hmax=0.0001"
  std::vector<std::string> notes;  ///< facts a reader of the results must know (redundant rows)
  /// Residuals, step statistics and energy balance at the accepted steps; its warnings make a
  /// finished run (ok) end as "warning" (docs/user-guide.md, "Run quality").
  RunQuality quality;
  /// Finished, but a quality check failed: the results may be wrong (quality.warnings say why).
  bool warning() const { return ok && !quality.warnings.empty(); }
  /// "ok", "warning", "failed" or "cancelled" (the CSV's "# end:" status).
  const char* status() const { return warning() ? "warning" : ok ? "ok" : cancelled ? "cancelled" : "failed"; }
  std::string str() const;         ///< human-readable multi-line summary
};

/// Receives samples while the integrator runs. Implementations must not throw.
class ResultSink {
 public:
  virtual ~ResultSink() = default;
  virtual void begin(const std::vector<Channel>& channels, const RunSummary& info) {}
  virtual void sample(const Sample& s) = 0;
  virtual void end(const RunSummary& summary) {}
};

/// A constraint element with rows that depend on the rows of others (or on its own).
struct RedundantConstraint {
  std::string label;  ///< "joint 'crank_pin'"
  std::string where;  ///< its model item's JSON path, "joints[2]" ("" when it has none)
  int rows = 0;       ///< its dependent rows
};

/// Model check before a run (also what `flexim-cli validate` prints).
struct ModelCheck {
  int bodies = 0;
  int coordinates = 0;        ///< velocity coordinates (6 per rigid/virtual body, 6 + m per flexible body)
  int constraint_rows = 0;    ///< joints and drivers
  int rank = 0;               ///< rank of the constraint Jacobian at the initial configuration
  int dof = 0;                ///< coordinates - rank
  std::vector<std::string> redundant;     ///< joints/drivers with dependent rows (solved as they are)
  std::vector<RedundantConstraint> redundant_elements;  ///< the same, located in the model
  std::vector<std::string> unconstrained; ///< bodies that no joint or two-ended force element ties to ground
  double initial_position_residual = 0.0; ///< max |Phi| before assembly
  double assembled_position_residual = 0.0;
  double assembled_velocity_residual = 0.0;
  /// FE node ids k, m, n of each virtual body's rigid–flexible joint (System::virtualBodyNodes).
  std::unordered_map<std::string, std::array<int, 3>> virtual_body_nodes;
  std::string str() const;
};

/// The note that a model has dependent constraint rows and how their reactions are reported.
std::string redundancyNote(const std::vector<std::string>& dependent);

struct RunOptions {
  std::function<void(double t, double t_end)> progress;  ///< called from the integrating thread
  const std::atomic<bool>* cancel = nullptr;             ///< checked between steps
  std::atomic<long>* steps = nullptr;                    ///< when set: the steps taken so far
  /// While true, the run waits between steps (cancel still ends it); the time paused is not
  /// counted in the summary's wall time.
  const std::atomic<bool>* pause = nullptr;
  /// When set: the run starts from this state (at its time, in this simulation's coordinates:
  /// Simulation::mapState) instead of the model's initial conditions, and its first sample is
  /// the first output time after it.
  const State* resume = nullptr;
  /// When set: receives the state of the last accepted step when the run ends (finished,
  /// cancelled or failed after its start), so that a run of an edited model can go on from it.
  State* stoppedAt = nullptr;
};

/// Options of a static equilibrium (Simulation::staticEquilibrium).
struct StaticOptions {
  int load_steps = 10;      ///< load levels 1/N, 2/N, ..., 1, each an output sample
  int max_iterations = 100;  ///< Newton iterations per attempt at a level
  /// A line per attempt at a load level (converged or not, iterations, force residual).
  std::function<void(const std::string&)> log;
  const std::atomic<bool>* cancel = nullptr;  ///< checked between attempts: ends it, the levels so far kept
  /// When set: receive the last converged state and the constraints' multipliers there.
  State* equilibrium = nullptr;
  VecX* multipliers = nullptr;
};

struct LinearizeOptions;      // core/run/linearization.h
struct LinearizationResult;

/// A length scale of the model [m] (position tolerances are relative to it).
double modelScale(const ModelSpec& model);

class Simulation {
 public:
  /// Compiles the model; on error returns nullptr and fills diag (items named by JSON-like path).
  static std::unique_ptr<Simulation> create(const ModelSpec& model, Diagnostics& diag);
  ~Simulation();

  const ModelSpec& model() const { return m_model; }
  const std::vector<Channel>& channels() const { return m_channels; }
  /// Which body each Sample::poses and Sample::modal entry is.
  const BodyTable& bodies() const;
  /// DOF count, redundant constraints, assembly residuals. Does not change the initial state.
  ModelCheck check() const;
  /// Assembles initial conditions and integrates to model().solver.t_end. Never throws:
  /// failures are reported in the summary, samples produced so far have reached the sinks.
  RunSummary run(const std::vector<ResultSink*>& sinks, const RunOptions& options = {});
  /// The static equilibrium at the model's initial time (core/run/static_equilibrium.cpp): the
  /// loads applied in options.load_steps levels, a sample per level (channel "load_factor" first,
  /// then the sensors at rest, reactions included). A level that does not converge ends it with a
  /// message; the levels before it have reached the sinks.
  RunSummary staticEquilibrium(const std::vector<ResultSink*>& sinks, const StaticOptions& options = {});
  /// The channels of staticEquilibrium's samples: "load_factor" [-], then the sensors'.
  std::vector<Channel> staticChannels() const;
  /// The linearized equations of motion about the static equilibrium and the system's modes
  /// (core/run/linearization.h).
  LinearizationResult linearize(const LinearizeOptions& options);

  /// A state of `from` (a compile of the model before an edit) in this simulation's coordinates:
  /// each block takes the values of the block of the same name (a body, by its name; a joint's
  /// coordinate, by its joint's). False, with the reason in `why`, when the edit changed the
  /// coordinates: a block added, removed or resized (a body, a mode count, a joint coordinate).
  bool mapState(const Simulation& from, const State& state, State& out, std::string& why) const;
  /// The initial state of the model (before assembly), in this simulation's coordinates.
  State initialState() const;
  /// The bodies' poses and modal coordinates (Sample::poses, Sample::modal) of state s moved by
  /// the tangent increment dx over the velocity coordinates (none when empty): a mode shape
  /// drawn at an amplitude (LinearMode::shape).
  Sample displacedSample(const State& s, const VecX& dx = {}) const;

 private:
  explicit Simulation(const ModelSpec& model);
  std::string redundancyHint() const;
  /// The consistent state at time t: the initial one at or before the start, else the end of a
  /// run of the model to t (core/run/linearization.cpp). False with the reason in summary.message.
  bool stateAt(double t, State& s, RunSummary& summary) const;
  /// Sample::poses and Sample::modal at positions q.
  void fillPoses(const VecX& q, Sample& sample) const;
  ModelSpec m_model;
  std::unique_ptr<System> m_system;
  std::vector<Channel> m_channels;
};

}  // namespace flexim
