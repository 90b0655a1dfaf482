// GUI performance figures (not a pass/fail test). Four cases, each self-timed
// with percentiles:
//   deform    deformation + contour update of a synthetic ~100 000-node flexible body per frame
//             (render::FlexibleSurface::setModal, one thread), then the same body in a ModelScene:
//             scene update, normals, VTK draw of an offscreen window, split apart
//   plot      ui::PlotView redraw with 10 channels x 10^6 samples (ResultTable min/max envelope)
//   latency   lateness of a 10 ms timer on the GUI thread of a MainWindow while a run streams
//   playback  frames per second when stepping the playback bar through a finished run
//   edit      a mass typed into the property panel: time until the window answers again, on the
//             flexible slider-crank and (--edit-model) on a model with a 100 000-node body
//
//   bench_gui                      all cases (~6 minutes), run it under xvfb-run (see below)
//   bench_gui --quick              tiny cases (smoke check, a few seconds)
//   bench_gui --only deform,plot   some cases only
//   bench_gui --help               other options
//
//   OPENBLAS_NUM_THREADS=1 xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" build/tests/benchmarks/bench_gui
//
// Results and analysis: docs/benchmarks.md ("GUI: deformation, plots, event loop, playback").
#include "core/fe/reduced_body.h"
#include "core/model/model.h"
#include "core/run/result_table.h"
#include "core/run/simulation.h"
#include "core/system/system.h"
#include "io/csv_writer.h"
#include "machine_info.h"
#include "render/flexible_surface.h"
#include "render/model_scene.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/property_panel.h"
#include "ui/playback_bar.h"
#include "ui/plot_panel.h"
#include "ui/surface_format.h"
#include "ui/vtk_viewport.h"

#include <QAbstractSeries>
#include <QApplication>
#include <QChart>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QPixmap>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>
#include <QWheelEvent>
#include <QtGlobal>

#include <Eigen/Core>
#include <vtkActor.h>
#include <vtkAlgorithm.h>
#include <vtkMapper.h>
#include <vtkPolyDataNormals.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTriangleMeshPointNormals.h>
#include <vtkVersion.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <numbers>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace flexim;
using namespace flexim::bench;

namespace {

using Clock = std::chrono::steady_clock;

int g_failures = 0;  ///< "FAILED" lines printed (the exit status; the smoke test looks for them)

void fail(const std::string& what) {
  std::printf("FAILED: %s\n", what.c_str());
  ++g_failures;
}

double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * double(ts.tv_sec) + 1e-6 * double(ts.tv_nsec);
}

struct Options {
  bool quick = false;
  std::vector<std::string> only;  ///< empty: every case
  int frames = 200;               ///< deform: frames timed (>= 50)
  int thetas = 200, stations = 500;  ///< deform: tube grid (200 x 500 = 100 000 surface nodes)
  int modes = 20;
  long samples = 1000000;         ///< plot: samples per channel
  int channels = 10;
  int redraws = 40;               ///< plot: redraws timed per zoom level (>= 20)
  double latencyTEnd = 1.0;       ///< latency: t_end of the flexible slider-crank [s] (file: 0.1 s)
  std::string latencyModel;       ///< latency: another model (its own t_end unless --t-end)
  int playbackFrames = 300;       ///< playback: at most this many frames stepped per example
  double runLimit = 60.0;         ///< playback: examples whose run takes longer are skipped [s]
  std::vector<std::string> examples;  ///< playback: file names in resources/examples (empty: all)
  std::string editModel;          ///< edit: a second model (a 100 000-node body), besides the slider-crank
  bool wants(const std::string& name) const {
    return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
  }
};

std::vector<std::string> splitList(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

void usage() {
  std::puts(
      "bench_gui [--quick] [--only deform,plot,latency,playback,edit] [--edit-model FILE.json] [--frames N] "
      "[--grid THETAS,STATIONS]\n"
      "          [--modes M] [--samples N] [--channels C] [--redraws N] [--t-end T] [--latency-model FILE]\n"
      "          [--playback-frames N] [--run-limit S] [--examples a.json,b.json]\n"
      "Run under xvfb-run -a -s \"-screen 0 1280x1024x24 -noreset\". Figures: docs/benchmarks.md.");
}

// ---- statistics ---------------------------------------------------------------------------

struct Stats {
  std::size_t n = 0;
  double median = 0, p95 = 0, p99 = 0, max = 0, mean = 0;
};

/// Nearest-rank percentiles.
Stats statsOf(std::vector<double> v) {
  Stats s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const auto rank = [&](double q) {
    const std::size_t k = std::size_t(std::ceil(q * double(v.size())));
    return v[std::min(v.size() - 1, k == 0 ? 0 : k - 1)];
  };
  s.median = rank(0.5);
  s.p95 = rank(0.95);
  s.p99 = rank(0.99);
  s.max = v.back();
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / double(v.size());
  return s;
}

std::string fmt(double x, int decimals = 2) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

/// Lets the event loop run for a while (posted events, timers, paints).
void pump(int milliseconds) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < milliseconds) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
}

// ---- case 1: deformation + contour update ---------------------------------------------------

/// A thin-walled tube along FE x (0.3 m long, radius 10 mm) as a structured grid of surface
/// nodes (thetas around, stations along; closed around), two triangles per grid cell, and m
/// smooth made-up mode shapes: bending in y and z, torsion and axial waves of rising order.
std::shared_ptr<fe::ReducedBody> makeTube(int thetas, int stations, int m) {
  constexpr double kLength = 0.3, kRadius = 0.01, pi = std::numbers::pi;
  auto body = std::make_shared<fe::ReducedBody>();
  body->name = "tube";
  const int n = thetas * stations;
  body->coords.resize(std::size_t(n));
  body->node_ids.resize(std::size_t(n));
  body->node_mass.assign(std::size_t(n), 1e-3);
  body->modes.resize(3 * Eigen::Index(n), m);
  for (int k = 0; k < stations; ++k) {
    const double s = double(k) / double(stations - 1);
    for (int i = 0; i < thetas; ++i) {
      const int node = k * thetas + i;
      const double th = 2 * pi * i / thetas;
      const Eigen::Vector3d x(kLength * s, kRadius * std::cos(th), kRadius * std::sin(th));
      body->coords[std::size_t(node)] = x;
      body->node_ids[std::size_t(node)] = node + 1;
      for (int j = 0; j < m; ++j) {
        const int order = j / 4 + 1;
        const double w = std::sin(order * pi * s);
        Eigen::Vector3d u;
        switch (j % 4) {
          case 0: u = {0, w, 0}; break;                                        // bending in y
          case 1: u = {0, 0, w}; break;                                        // bending in z
          case 2: u = Eigen::Vector3d(0, -x.z(), x.y()) * (w / kRadius); break;  // torsion
          default: u = {std::cos(order * pi * s), 0, 0}; break;                // axial
        }
        body->modes.block<3, 1>(3 * Eigen::Index(node), j) = u;
      }
    }
  }
  body->eigenvalues = Eigen::VectorXd::Zero(m);
  body->kinds.assign(std::size_t(m), fe::ModeKind::Elastic);
  for (int k = 0; k + 1 < stations; ++k)
    for (int i = 0; i < thetas; ++i) {
      const int a = k * thetas + i, b = k * thetas + (i + 1) % thetas;
      const int c = a + thetas, d = b + thetas;
      body->surface.push_back({a, b, d});
      body->surface.push_back({a, d, c});
    }
  return body;
}

/// Modal coordinates of frame f: every mode oscillates at its own rate, a few mm at most.
Eigen::VectorXd modalAt(int f, int m) {
  Eigen::VectorXd q(m);
  for (int j = 0; j < m; ++j) q[j] = 2e-3 / (1 + j / 4) * std::sin(0.05 * (j + 1) * f + 0.3 * j);
  return q;
}

std::string glRenderer(vtkRenderWindow* window) {
  const char* caps = window->ReportCapabilities();
  if (!caps) return "unknown";
  std::stringstream in(caps);
  std::string line;
  while (std::getline(in, line))
    if (line.find("OpenGL renderer string") != std::string::npos) {
      const auto p = line.find(':');
      std::string s = p == std::string::npos ? line : line.substr(p + 1);
      s.erase(0, s.find_first_not_of(' '));
      return s;
    }
  return "unknown";
}

void caseDeform(const Options& o) {
  Eigen::setNbThreads(1);  // no effect without OpenMP (the default build), stated for clarity
  const auto built = Clock::now();
  const auto body = makeTube(o.thetas, o.stations, o.modes);
  std::printf("\n## deform: tube %d x %d = %zu surface nodes, %zu triangles, %d modes (made in %.0f ms)\n",
              o.thetas, o.stations, body->coords.size(), body->surface.size(), o.modes, ms(built, Clock::now()));
  std::printf("Eigen %d.%d.%d, Eigen::nbThreads() = %d, OPENBLAS_NUM_THREADS=%s\n", EIGEN_WORLD_VERSION,
              EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION, Eigen::nbThreads(),
              std::getenv("OPENBLAS_NUM_THREADS") ? std::getenv("OPENBLAS_NUM_THREADS") : "(unset)");

  std::printf("\n| step | quantity | frames | median [ms] | p95 [ms] | max [ms] | CPU median [ms] |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|\n");
  for (const render::ContourQuantity quantity : {render::ContourQuantity::Magnitude, render::ContourQuantity::Y}) {
    render::FlexibleSurface surface(*body, 0);
    surface.setQuantity(quantity);
    for (int f = 0; f < 5; ++f) surface.setModal(modalAt(f, o.modes));  // warm caches
    std::vector<double> wall, cpu;
    for (int f = 0; f < o.frames; ++f) {
      const Eigen::VectorXd q = modalAt(f, o.modes);
      const double c0 = threadCpuMs();
      const auto t0 = Clock::now();
      surface.setModal(q);
      const auto t1 = Clock::now();
      cpu.push_back(threadCpuMs() - c0);
      wall.push_back(ms(t0, t1));
    }
    const Stats s = statsOf(wall), c = statsOf(cpu);
    std::printf("| FlexibleSurface::setModal | %s | %zu | %s | %s | %s | %s |\n", render::contourSymbol(quantity), s.n,
                fmt(s.median).c_str(), fmt(s.p95).c_str(), fmt(s.max).c_str(), fmt(c.median).c_str());
  }

  // the same body in a scene, drawn in an offscreen window as the viewport would draw it
  ModelSpec model;
  model.name = "bench_gui tube";
  FlexibleBodySpec flexible;
  flexible.name = "tube";
  flexible.file = "(synthetic)";
  flexible.mode_count = o.modes;
  flexible.data = body;
  model.flexible_bodies.push_back(flexible);
  render::ModelScene scene;
  Diagnostics diag;
  scene.build(model, &diag);
  const int width = o.quick ? 320 : 1000, height = o.quick ? 240 : 700;
  auto window = vtkSmartPointer<vtkRenderWindow>::New();
  window->SetOffScreenRendering(1);
  window->SetMultiSamples(0);
  window->SetSize(width, height);
  window->AddRenderer(scene.renderer());
  vtkAlgorithm* normals = scene.flexibleActor(0)->GetMapper()->GetInputAlgorithm();
  for (int f = 0; f < 3; ++f) {  // shaders compiled, buffers allocated
    scene.setModal({modalAt(f, o.modes)});
    scene.renderer()->ResetCameraClippingRange();
    window->Render();
    window->WaitForCompletion();
  }
  std::printf("\nOffscreen vtkRenderWindow %d x %d, OpenGL renderer: %s\n", width, height,
              glRenderer(window).c_str());
  std::vector<double> update, normal, draw, total, still;
  for (int f = 0; f < o.frames; ++f) {
    const Eigen::VectorXd q = modalAt(f, o.modes);
    const auto t0 = Clock::now();
    scene.setModal({q});  // FlexibleSurface::setModal + colour range
    const auto t1 = Clock::now();
    normals->Update();    // vtkPolyDataNormals of the deformed surface (the mapper's input)
    const auto t2 = Clock::now();
    scene.renderer()->ResetCameraClippingRange();
    window->Render();     // scalars -> colours, buffer upload, draw
    window->WaitForCompletion();
    const auto t3 = Clock::now();
    window->Render();     // nothing changed: the draw alone
    window->WaitForCompletion();
    const auto t4 = Clock::now();
    update.push_back(ms(t0, t1));
    normal.push_back(ms(t1, t2));
    draw.push_back(ms(t2, t3));
    total.push_back(ms(t0, t3));
    still.push_back(ms(t3, t4));
  }
  std::printf("\n| ModelScene frame (%s) | frames | median [ms] | p95 [ms] | max [ms] |\n",
              render::contourSymbol(scene.contour()));
  std::printf("|---|---:|---:|---:|---:|\n");
  const auto row = [](const char* name, const std::vector<double>& v) {
    const Stats s = statsOf(v);
    std::printf("| %s | %zu | %s | %s | %s |\n", name, s.n, fmt(s.median).c_str(), fmt(s.p95).c_str(),
                fmt(s.max).c_str());
  };
  row("update: ModelScene::setModal", update);
  row("normals: vtkPolyDataNormals", normal);
  row("draw: Render + glFinish (colours, upload, raster)", draw);
  row("**whole frame**", total);
  row("draw of an unchanged scene", still);

  // what the normals would cost with other VTK filters on the same deformed surface (not what
  // the application does today; see docs/benchmarks.md)
  {
    std::vector<double> plain, fast;
    auto noSplit = vtkSmartPointer<vtkPolyDataNormals>::New();
    noSplit->SetInputData(scene.flexibleSurface(0)->mesh());
    noSplit->SetFeatureAngle(50.0);
    noSplit->SplittingOff();
    noSplit->ConsistencyOff();
    noSplit->ComputeCellNormalsOff();
    auto triangle = vtkSmartPointer<vtkTriangleMeshPointNormals>::New();
    triangle->SetInputData(scene.flexibleSurface(0)->mesh());
    const int n = std::max(10, o.frames / 4);
    for (int f = 0; f < n; ++f) {
      scene.setModal({modalAt(f, o.modes)});
      const auto t0 = Clock::now();
      noSplit->Update();
      const auto t1 = Clock::now();
      triangle->Update();
      const auto t2 = Clock::now();
      plain.push_back(ms(t0, t1));
      fast.push_back(ms(t1, t2));
    }
    row("what-if normals: vtkPolyDataNormals, SplittingOff", plain);
    row("what-if normals: vtkTriangleMeshPointNormals", fast);
  }
  window->RemoveRenderer(scene.renderer());
  window->Finalize();
}

// ---- case 2: plot redraw ------------------------------------------------------------------

/// Fills the table: channel c is a sine of its own period with a faster ripple and a little
/// deterministic noise, so that every pixel column has a real min/max stroke.
void fillTable(ResultTable& table, long samples, int channels) {
  std::vector<Channel> list;
  for (int c = 0; c < channels; ++c) list.push_back({"signal_" + std::to_string(c + 1), "m"});
  table.reset(list);
  constexpr long kChunk = 10000;
  const double dt = 1e-5;
  std::uint64_t lcg = 12345;
  std::vector<Sample> chunk;
  for (long i0 = 0; i0 < samples; i0 += kChunk) {
    const long n = std::min(kChunk, samples - i0);
    chunk.resize(std::size_t(n));
    for (long k = 0; k < n; ++k) {
      Sample& s = chunk[std::size_t(k)];
      s.t = double(i0 + k) * dt;
      s.values.resize(std::size_t(channels));
      for (int c = 0; c < channels; ++c) {
        lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
        const double noise = double(lcg >> 11) * (1.0 / 9007199254740992.0) - 0.5;
        s.values[std::size_t(c)] = (1 + c) * std::sin(2 * std::numbers::pi * (0.3 + 0.2 * c) * s.t) +
                                   0.1 * std::sin(2 * std::numbers::pi * 37.0 * (c + 1) * s.t) + 0.02 * noise;
      }
    }
    table.append(chunk);
  }
}

struct PaintCounter : QObject {
  int paints = 0;
  bool eventFilter(QObject*, QEvent* e) override {
    if (e->type() == QEvent::Paint) ++paints;
    return false;
  }
};

/// Runs the event loop until the viewport was painted (layout, paint, flush), at most ~1 s.
void processUntilPainted(PaintCounter& counter) {
  const int before = counter.paints;
  QElapsedTimer t;
  t.start();
  while (counter.paints == before && t.elapsed() < 1000) QCoreApplication::processEvents();
  QCoreApplication::processEvents();
}

/// A mouse-wheel step at the middle of the plot area, as a user would zoom (+120: in).
void wheelAt(ui::PlotView& view, int delta) {
  const QPointF centre = view.mapFromScene(view.chart()->plotArea().center());
  QWheelEvent event(centre, view.viewport()->mapToGlobal(centre), QPoint(), QPoint(0, delta), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QCoreApplication::sendEvent(view.viewport(), &event);
}

void casePlot(const Options& o) {
  ResultTable table;
  const auto t0 = Clock::now();
  fillTable(table, o.samples, o.channels);
  const auto t1 = Clock::now();
  std::printf("\n## plot: %d channels x %ld samples (table filled in %.2f s; peak RSS %.0f MB)\n", o.channels,
              o.samples, ms(t0, t1) / 1e3, peakRssMb());

  ui::PlotView view(table);
  view.resize(1000, 600);
  view.show();
  if (!QTest::qWaitForWindowExposed(&view)) std::printf("warning: plot window not exposed\n");
  PaintCounter counter;
  view.viewport()->installEventFilter(&counter);
  const auto a0 = Clock::now();
  for (const Channel& channel : table.channels()) view.addChannel(channel.name);
  processUntilPainted(counter);
  std::printf("10 channels added and drawn in %.0f ms; plot area %.0f x %.0f px\n", ms(a0, Clock::now()),
              view.chart()->plotArea().width(), view.chart()->plotArea().height());

  std::printf("\n| view | samples shown | points drawn | envelopes [ms] | refresh() [ms] | paint only [ms] | redraw "
              "median [ms] | redraw p95 [ms] | redraw max [ms] | redraw mean [ms] |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  const auto measureIn = [&](ui::PlotView& view, PaintCounter& counter, const std::string& label) {
    std::vector<double> refresh, redraw, paint;
    for (int r = 0; r < o.redraws; ++r) {
      const auto r0 = Clock::now();
      view.refresh();  // envelopes, series replaced, axes
      const auto r1 = Clock::now();
      processUntilPainted(counter);  // chart layout, paint, flush to the X server
      const auto r2 = Clock::now();
      view.viewport()->repaint();  // the same picture again: the drawing alone
      const auto r3 = Clock::now();
      refresh.push_back(ms(r0, r1));
      redraw.push_back(ms(r0, r2));
      paint.push_back(ms(r2, r3));
    }
    long points = 0;
    for (const Channel& channel : table.channels()) points += view.pointCount(channel.name);
    const double ta = view.chart()->mapToValue(view.chart()->plotArea().topLeft()).x();
    const double tb = view.chart()->mapToValue(view.chart()->plotArea().bottomRight()).x();
    const long shown = table.empty() ? 0
                                     : long(table.indexAtTime(tb)) - long(table.indexAtTime(std::max(ta, 0.0))) + 1;
    // the envelopes alone (what refresh() asks of the ResultTable; the rest is Qt Charts)
    const int buckets = std::max(50, int(view.chart()->plotArea().width()));
    std::vector<double> env;
    for (int r = 0; r < std::max(5, o.redraws / 4); ++r) {
      const auto e0 = Clock::now();
      std::size_t total = 0;
      for (std::size_t c = 0; c < table.channels().size(); ++c)
        total += table.envelope(c, std::max(ta, table.time().front()), std::min(tb, table.time().back()), buckets).size();
      env.push_back(ms(e0, Clock::now()));
      if (total == 0) env.back() = -1;
    }
    const Stats rf = statsOf(refresh), rd = statsOf(redraw), pt = statsOf(paint), ev = statsOf(env);
    std::printf("| %s | %ld | %ld | %s | %s | %s | **%s** | %s | %s | %s |\n", label.c_str(), shown, points,
                fmt(ev.median).c_str(), fmt(rf.median).c_str(), fmt(pt.median).c_str(), fmt(rd.median).c_str(),
                fmt(rd.p95).c_str(), fmt(rd.max).c_str(), fmt(rd.mean).c_str());
  };
  const auto measure = [&](const std::string& label) { measureIn(view, counter, label); };
  measure("whole run");
  // the same range without autoscale: one wheel step in and one out about the centre leave the
  // whole run shown, but refresh() then no longer sets the value axis (range + nice numbers)
  wheelAt(view, +120);
  wheelAt(view, -120);
  processUntilPainted(counter);
  measure("whole run, autoscale off (wheel in + out)");

  const auto wheel = [&] { wheelAt(view, +120); };
  std::vector<double> steps;
  for (int zoom = 1; zoom <= 30; ++zoom) {
    const auto w0 = Clock::now();
    wheel();  // PlotView::wheelEvent: new range, refresh()
    processUntilPainted(counter);
    steps.push_back(ms(w0, Clock::now()));
    if (zoom == 10) measure("zoomed in 10 wheel steps");
  }
  measure("zoomed in 30 wheel steps");
  const Stats st = statsOf(steps);
  std::printf("\nOne wheel step (zoom in, refresh, layout, paint): median %s ms, max %s ms over %zu steps\n",
              fmt(st.median).c_str(), fmt(st.max).c_str(), st.n);

  // what-if (not what the application does): the same plot with Qt Charts' OpenGL series, which
  // skip the QPainterPath geometry and hover shape of QLineSeries
  view.hide();
  ui::PlotView gl(table);
  gl.resize(1000, 600);
  gl.show();
  if (!QTest::qWaitForWindowExposed(&gl)) std::printf("warning: plot window not exposed\n");
  PaintCounter glCounter;
  gl.viewport()->installEventFilter(&glCounter);
  for (const Channel& channel : table.channels()) gl.addChannel(channel.name);
  for (QAbstractSeries* series : gl.chart()->series()) series->setUseOpenGL(true);
  processUntilPainted(glCounter);
  std::printf("\n| what-if | samples shown | points drawn | envelopes [ms] | refresh() [ms] | paint only [ms] | redraw "
              "median [ms] | redraw p95 [ms] | redraw max [ms] | redraw mean [ms] |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  measureIn(gl, glCounter, "whole run, series setUseOpenGL(true)");
}

// ---- case 3: event-loop latency during a run ------------------------------------------------

/// Lateness of a 10 ms single-shot precise timer, restarted at every shot, on the GUI thread;
/// and, at each shot, the delay of a posted (queued) call, as an input event would wait.
struct LatencyProbe {
  QTimer timer;
  Clock::time_point due;
  std::vector<double> late, posted;
  bool on = false;
  LatencyProbe() {
    timer.setSingleShot(true);
    timer.setTimerType(Qt::PreciseTimer);
    QObject::connect(&timer, &QTimer::timeout, [this] {
      const auto now = Clock::now();
      late.push_back(ms(due, now));
      QMetaObject::invokeMethod(
          &timer, [this, now] { posted.push_back(ms(now, Clock::now())); }, Qt::QueuedConnection);
      if (on) arm();
    });
  }
  void arm() {
    due = Clock::now() + std::chrono::milliseconds(10);
    timer.start(10);
  }
  void start() {
    late.clear(), posted.clear();
    on = true;
    arm();
  }
  void stop() {
    on = false;
    timer.stop();
  }
};

void printLatencyRow(const char* label, const LatencyProbe& p, double wall, std::size_t samples) {
  const Stats l = statsOf(p.late), q = statsOf(p.posted);
  std::printf("| %s | %.2f | %zu | %zu | %s | %s | **%s** | %s | %s | %s |\n", label, wall, samples, l.n,
              fmt(l.median).c_str(), fmt(l.p95).c_str(), fmt(l.p99).c_str(), fmt(l.max).c_str(),
              fmt(q.p99).c_str(), fmt(q.max).c_str());
}

/// Runs the window's model to its end, measuring; false if it did not start.
bool runMeasured(ui::MainWindow& window, LatencyProbe& probe, double& wall) {
  QEventLoop loop;
  const auto connection = QObject::connect(&window, &ui::MainWindow::runFinished, &loop, &QEventLoop::quit);
  probe.start();
  const auto t0 = Clock::now();
  const bool started = window.startRun();
  if (started && window.isRunning()) loop.exec();
  wall = ms(t0, Clock::now()) / 1e3;
  probe.stop();
  QObject::disconnect(connection);
  pump(50);
  return started;
}

/// The command line's way of running a model, in this process: Simulation::run with the CSV
/// writer as its only sink, no window. The wall time the GUI's run is held against [s].
double runHeadless(const ModelSpec& model) {
  Diagnostics diag;
  auto sim = Simulation::create(model, diag);
  if (!sim) return -1;
  const QString csv = QDir::temp().filePath("bench_gui_headless.csv");
  io::CsvResultWriter writer(csv.toStdString());
  const auto t0 = Clock::now();
  const RunSummary summary = sim->run({&writer}, RunOptions{});
  const double wall = ms(t0, Clock::now()) / 1e3;
  QFile::remove(csv);
  return summary.ok ? wall : -1;
}

/// Shows `window` at 1200 x 800 with the model at `path`; false (and FAILED printed) when it
/// cannot be opened.
bool showWindowWith(ui::MainWindow& window, const QString& path) {
  window.resize(1200, 800);
  window.show();
  if (!QTest::qWaitForWindowExposed(&window)) std::printf("warning: main window not exposed\n");
  if (window.openModelFile(path)) return true;
  fail("cannot open " + path.toStdString());
  return false;
}

void caseLatency(const Options& o) {
  const QString path = o.latencyModel.empty()
                           ? QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_flexible.json")
                           : QString::fromStdString(o.latencyModel);
  ui::MainWindow window;
  if (!showWindowWith(window, path)) return;
  ModelSpec model = window.model();
  const double fileTEnd = model.solver.t_end;
  if (o.latencyTEnd > 0 && o.latencyModel.empty()) model.solver.t_end = o.latencyTEnd;
  const QString name = QFileInfo(path).fileName();
  window.showModel(model, name + " (bench_gui)");
  pump(200);
  std::printf("\n## latency: %s, t_end %.3g s (file: %.3g s), output every %.3g s, window 1200 x 800\n",
              name.toUtf8().constData(), model.solver.t_end, fileTEnd, model.solver.output_interval);
  const double headless = runHeadless(model);
  std::printf("\nheadless run (Simulation::run + CSV writer, as flexim-cli run): %.2f s wall\n", headless);
  std::printf("\n| GUI state | run wall [s] | samples | timer shots | lateness p50 [ms] | p95 [ms] | p99 [ms] | "
              "max [ms] | posted call p99 [ms] | posted max [ms] |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");

  LatencyProbe probe;
  {  // the same probe with nothing running: the floor (timer granularity, X server, load)
    probe.start();
    const auto t0 = Clock::now();
    pump(o.quick ? 300 : 2000);
    probe.stop();
    printLatencyRow("idle (no run)", probe, ms(t0, Clock::now()) / 1e3, 0);
  }
  double wall = 0;
  if (!runMeasured(window, probe, wall)) {
    fail("the run did not start");
    return;
  }
  printLatencyRow("run, 3-D view following", probe, wall, window.results().size());
  const double following = wall;

  // again with four channels in a plot that grows while the run streams
  QStringList names;
  for (const Channel& c : window.results().channels())
    if (names.size() < 4) names << QString::fromStdString(c.name);
  window.plotChannels(names);
  pump(200);
  if (runMeasured(window, probe, wall))
    printLatencyRow("run, 3-D view + plot of 4 channels", probe, wall, window.results().size());
  if (headless > 0)
    std::printf("\nGUI run / headless run, wall: %.2f (3-D view following), %.2f (+ plot of 4 channels)\n",
                following / headless, wall / headless);
  if (!window.lastSummary().ok) fail("the run of slider_crank_flexible did not finish");
}

// ---- case 4: playback frames per second ---------------------------------------------------

void casePlayback(const Options& o) {
  QDir dir(QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples"));
  QStringList files;
  if (o.examples.empty())
    files = dir.entryList({"*.json"}, QDir::Files, QDir::Name);
  else
    for (const std::string& e : o.examples) files << QString::fromStdString(e);
  std::printf("\n## playback: window 1200 x 800, at most %d frames stepped per example, runs longer than %.0f s "
              "skipped\n",
              o.playbackFrames, o.runLimit);
  std::printf("\n| example | bodies (rigid + flexible) | run wall [s] | frames | stepped | repaint() fps | "
              "median frame [ms] | p95 [ms] | screenshot() fps |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const QString& file : files) {
    ui::MainWindow window;
    window.resize(1200, 800);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) std::printf("warning: main window not exposed\n");
    const QByteArray name = file.toUtf8();
    if (!window.openModelFile(dir.filePath(file))) {
      std::printf("| %s | | could not open | | | | | | |\n", name.constData());
      fail("cannot open " + file.toStdString());
      continue;
    }
    const std::size_t rigid = window.model().bodies.size(), flexible = window.model().flexible_bodies.size();
    QEventLoop loop;
    QObject::connect(&window, &ui::MainWindow::runFinished, &loop, &QEventLoop::quit);
    QTimer limit;
    limit.setSingleShot(true);
    QObject::connect(&limit, &QTimer::timeout, &window, [&window] { window.cancelRun(); });
    const auto t0 = Clock::now();
    if (!window.startRun()) {
      std::printf("| %s | %zu + %zu | did not start | | | | | | |\n", name.constData(), rigid, flexible);
      continue;
    }
    limit.start(int(1000 * o.runLimit));
    if (window.isRunning()) loop.exec();
    limit.stop();
    const double wall = ms(t0, Clock::now()) / 1e3;
    if (!window.lastSummary().ok) {
      std::printf("| %s | %zu + %zu | %.1f (%s) | | | | | | |\n", name.constData(), rigid, flexible, wall,
                  window.lastSummary().cancelled ? "over the limit, cancelled" : "failed");
      continue;
    }
    ui::PlaybackBar* bar = window.playbackBar();
    ui::VtkViewport* viewport = window.viewport();
    const int frames = bar->frameCount();
    const int stride = std::max(1, frames / std::max(1, o.playbackFrames));
    std::vector<int> order;
    for (int i = 0; i < frames; i += stride) order.push_back(i);
    bar->setCurrentFrame(0);
    viewport->repaint();
    pump(20);
    std::vector<double> frame;
    const auto p0 = Clock::now();
    for (int i : order) {
      const auto f0 = Clock::now();
      bar->setCurrentFrame(i);  // MainWindow::showFrame: scene sample, plot cursor, update()
      viewport->repaint();      // paintGL: VTK render into the widget, composited into the window
      QCoreApplication::processEvents();
      frame.push_back(ms(f0, Clock::now()));
    }
    const double repaintFps = double(order.size()) / (ms(p0, Clock::now()) / 1e3);
    const auto s0 = Clock::now();
    for (int i : order) {
      bar->setCurrentFrame(i);
      (void)viewport->screenshot();  // render into the framebuffer and read it back
    }
    const double shotFps = double(order.size()) / (ms(s0, Clock::now()) / 1e3);
    const Stats s = statsOf(frame);
    std::printf("| %s | %zu + %zu | %.2f | %d | %zu | **%.0f** | %s | %s | %.0f |\n", name.constData(), rigid, flexible,
                wall, frames, order.size(), repaintFps, fmt(s.median).c_str(), fmt(s.p95).c_str(), shotFps);
    std::fflush(stdout);
  }
}

// ---- case 5: a property edit ------------------------------------------------------------------

/// Types a new mass for the body at `path` into the property panel and presses Return: the time
/// from the key press until the window has handled the edit and painted (the event loop idle
/// again), per edit, alternating two values.
void caseEdit(const Options& o) {
  QStringList models{QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_flexible.json")};
  if (!o.editModel.empty()) models << QString::fromStdString(o.editModel);
  std::printf("\n## edit: a rigid body's mass typed into the property panel, time until the window answers\n");
  std::printf("\n| model | FE nodes | edits | median [ms] | p95 [ms] | max [ms] | of which: compile [ms] | scene build [ms] |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const QString& path : models) {
    ui::MainWindow window;
    if (!showWindowWith(window, path)) continue;
    pump(300);
    ui::ModelDocument& doc = *window.document();
    const ModelSpec model = window.model();
    std::size_t nodes = 0;
    for (const FlexibleBodySpec& f : model.flexible_bodies) nodes += f.data ? f.data->coords.size() : 0;
    doc.select(doc.itemAtPath("bodies[1]"));
    pump(100);
    auto* mass = window.propertyPanel()->findChild<QLineEdit*>("field:mass");
    if (!mass) {
      fail("no mass field for bodies[1] of " + path.toStdString());
      continue;
    }
    const double base = model.bodies.size() > 1 ? model.bodies[1].mass : 1.0;
    std::vector<double> times;
    const int edits = o.quick ? 2 : 12;
    for (int i = 0; i < edits; ++i) {
      mass->setFocus();
      mass->selectAll();
      QTest::keyClicks(mass, QString::number(base * (i % 2 ? 1.0 : 1.5)));
      const auto t0 = Clock::now();
      QTest::keyClick(mass, Qt::Key_Return);
      // answered: the edit handled and what it posted (the redraw) done
      QCoreApplication::processEvents();
      QCoreApplication::processEvents();
      times.push_back(ms(t0, Clock::now()));
      pump(50);
    }
    // the two parts an edit redoes, timed alone on the edited model: the compile behind the DOF
    // count, and the scene's rebuild
    std::vector<double> compile, build;
    const ModelSpec edited = window.model();
    for (int i = 0; i < (o.quick ? 1 : 5); ++i) {
      Diagnostics diag;
      const auto c0 = Clock::now();
      const auto sys = System::compile(edited, diag);
      compile.push_back(ms(c0, Clock::now()));
      const auto b0 = Clock::now();
      window.scene().build(edited, nullptr, true);
      build.push_back(ms(b0, Clock::now()));
    }
    const Stats st = statsOf(times);
    std::printf("| %s | %zu | %d | %s | %s | %s | %s | %s |\n", QFileInfo(path).fileName().toUtf8().constData(), nodes,
                edits, fmt(st.median).c_str(), fmt(st.p95).c_str(),
                fmt(*std::max_element(times.begin(), times.end())).c_str(), fmt(statsOf(compile).median).c_str(),
                fmt(statsOf(build).median).c_str());
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--quick") o.quick = true;
    else if (a == "--only") o.only = splitList(next());
    else if (a == "--frames") o.frames = std::max(1, std::atoi(next().c_str()));
    else if (a == "--grid") {
      const auto v = splitList(next());
      if (v.size() == 2) o.thetas = std::max(3, std::atoi(v[0].c_str())), o.stations = std::max(2, std::atoi(v[1].c_str()));
    } else if (a == "--modes") o.modes = std::max(1, std::atoi(next().c_str()));
    else if (a == "--samples") o.samples = std::max(2L, std::atol(next().c_str()));
    else if (a == "--channels") o.channels = std::max(1, std::atoi(next().c_str()));
    else if (a == "--redraws") o.redraws = std::max(1, std::atoi(next().c_str()));
    else if (a == "--t-end") o.latencyTEnd = std::atof(next().c_str());
    else if (a == "--latency-model") o.latencyModel = next();
    else if (a == "--playback-frames") o.playbackFrames = std::max(1, std::atoi(next().c_str()));
    else if (a == "--run-limit") o.runLimit = std::atof(next().c_str());
    else if (a == "--examples") o.examples = splitList(next());
    else if (a == "--edit-model") o.editModel = next();
    else if (a == "--help" || a == "-h") {
      usage();
      return 0;
    } else {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      usage();
      return 2;
    }
  }
  if (o.quick) {
    o.frames = std::min(o.frames, 10);
    o.thetas = 40, o.stations = 50;
    o.samples = 20000;
    o.redraws = 3;
    o.latencyTEnd = 0;  // the file's 0.1 s
    o.playbackFrames = 10;
    o.runLimit = 30;
    if (o.examples.empty()) o.examples = {"slider_crank_rigid.json"};
  }

  ui::setDefaultSurfaceFormatForVtk();
  QApplication app(argc, argv);
  QStandardPaths::setTestModeEnabled(true);  // recent files etc. not written to the user's settings

  std::printf("# bench_gui%s\n", o.quick ? " --quick (smoke check: the figures mean nothing)" : "");
  std::printf("date %s, CPU %s, %u hardware threads, load average %s\n", now().c_str(), cpuModel().c_str(),
              std::thread::hardware_concurrency(), loadAverage().c_str());
  std::printf("Qt %s (platform %s), VTK %s, Eigen %d.%d.%d\n", qVersion(), qPrintable(QGuiApplication::platformName()),
              vtkVersion::GetVTKVersion(), EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION);
  std::fflush(stdout);

  const auto start = Clock::now();
  if (o.wants("deform")) caseDeform(o);
  std::fflush(stdout);
  if (o.wants("plot")) casePlot(o);
  std::fflush(stdout);
  if (o.wants("latency")) caseLatency(o);
  std::fflush(stdout);
  if (o.wants("playback")) casePlayback(o);
  std::fflush(stdout);
  if (o.wants("edit")) caseEdit(o);
  std::printf("\nload average at the end %s, peak RSS %.0f MB, %.1f s in all\n", loadAverage().c_str(), peakRssMb(),
              ms(start, Clock::now()) / 1e3);
  return g_failures == 0 ? 0 : 1;
}
