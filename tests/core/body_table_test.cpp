// The body table: every example's table against its compiled System and a run's samples, the
// JSON paths it answers, and the markers it finds through the item descriptions.
#include "core/model/body_table.h"
#include "core/run/simulation.h"
#include "core/system/system.h"
#include "io/model_json.h"

#include "recording_sink.h"

#include <QtTest>

#include <filesystem>

using namespace flexim;
using flexim::test::RecordingSink;

namespace {

std::string examplesDir() { return std::string(FLEXIM_SOURCE_DIR) + "/resources/examples"; }

MarkerSpec marker(const std::string& name, const Vec3& at) {
  MarkerSpec m;
  m.name = name;
  m.position = at;
  return m;
}

/// Two rigid bodies, a flexible body (no data: the table needs none) and a virtual body.
ModelSpec mixedModel() {
  ModelSpec m;
  m.ground_markers.push_back(marker("origin", Vec3::Zero()));
  for (const char* name : {"crank", "slider"}) {
    RigidBodySpec b;
    b.name = name;
    b.markers.push_back(marker("a", Vec3(0.1, 0, 0)));
    b.markers.push_back(marker("b", Vec3(-0.1, 0, 0)));
    m.bodies.push_back(b);
  }
  FlexibleBodySpec f;
  f.name = "rod";
  m.flexible_bodies.push_back(f);
  VirtualBodySpec v;
  v.name = "rod_end";
  v.flexible_body = "rod";
  v.markers.push_back(marker("pin", Vec3(0, 0, 0.2)));
  m.virtual_bodies.push_back(v);
  return m;
}

}  // namespace

class BodyTableTest : public QObject {
  Q_OBJECT

 private slots:
  void entriesFollowTheRegisteredKinds() {
    const BodyTable table(mixedModel());
    QCOMPARE(table.size(), 4);
    const char* paths[] = {"bodies[0]", "bodies[1]", "flexible_bodies[0]", "virtual_bodies[0]"};
    const char* names[] = {"crank", "slider", "rod", "rod_end"};
    for (int p = 0; p < 4; ++p) {
      QCOMPARE(table[p].pose, p);
      QCOMPARE(QString::fromStdString(table[p].path), QString(paths[p]));
      QCOMPARE(QString::fromStdString(table[p].name), QString(names[p]));
      QCOMPARE(table.poseOf(paths[p]), p);
      QCOMPARE(table.poseNamed(names[p]), p);
    }
    QCOMPARE(QString::fromStdString(table[2].kind->key), QString("flexible"));
    QCOMPARE(table.deformable(), std::vector<int>{2});
    QCOMPARE(table[2].deformable, 0);
    QCOMPARE(table[3].deformable, -1);
    QVERIFY(table[3].kind->massless);
    QVERIFY(!table[2].kind->carriesMarkers);
  }

  void pathsAndNamesThatAreNotBodies() {
    const BodyTable table(mixedModel());
    QCOMPARE(table.poseOf("bodies[1].markers[0]"), 1);  // inside a body: that body
    QCOMPARE(table.poseOf("virtual_bodies[0].markers[0].position"), 3);
    for (const char* path : {"bodies[2]", "bodies[x]", "bodies[]", "bodies[0]x", "bodies", "joints[0]",
                             "flexible_bodies[-1]", "", "ground", "bodies[1", "bodies[ 1]"})
      QVERIFY2(table.poseOf(path) == -1, path);
    QCOMPARE(table.poseOf("virtual_bodies", 0), 3);
    QCOMPARE(table.poseOf("virtual_bodies", 1), -1);
    QCOMPARE(table.poseNamed(kGroundName), -1);
    QCOMPARE(table.poseNamed("nobody"), -2);
  }

  void markersThroughTheDescriptions() {
    const ModelSpec m = mixedModel();
    const BodyTable table(m);
    QCOMPARE(table.marker(m, "slider", "b"), &m.bodies[1].markers[1]);
    QCOMPARE(table.marker(m, "rod_end", "pin"), &m.virtual_bodies[0].markers[0]);
    QCOMPARE(table.marker(m, kGroundName, "origin"), &m.ground_markers[0]);
    QVERIFY(!table.marker(m, "rod", "pin"));     // a flexible body carries none
    QVERIFY(!table.marker(m, "slider", "c"));
    QVERIFY(!table.marker(m, "nobody", "a"));
  }

  /// Where each kind starts: a rigid body and a flexible body's FE frame at their position and
  /// orientation, a virtual body at its point in its flexible body's frame, a point mass at its
  /// position in global axes.
  void startPosesOfEveryKind() {
    ModelSpec m = mixedModel();
    const Quat turn(Eigen::AngleAxisd(0.5, Vec3(1, 2, 3).normalized()));
    const Quat quarter(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()));
    m.bodies[1].position = Vec3(1, 2, 3);
    m.bodies[1].orientation = turn;
    m.flexible_bodies[0].position = Vec3(0, 0, 1);
    m.flexible_bodies[0].orientation = quarter;
    m.virtual_bodies[0].point = Vec3(0.5, 0, 0);
    m.virtual_bodies[0].orientation = turn;
    PointMassSpec p;
    p.name = "bob";
    p.position = Vec3(-1, 0, 2);
    m.point_masses.push_back(p);
    const BodyTable table(m);
    const auto near = [](const BodyPose& a, const Vec3& r, const Quat& q) {
      return (a.position - r).norm() < 1e-14 && a.orientation.angularDistance(q) < 1e-14;
    };
    QVERIFY(near(table.startPose(m, 0), Vec3::Zero(), Quat::Identity()));
    QVERIFY(near(table.startPose(m, 1), Vec3(1, 2, 3), turn));
    QVERIFY(near(table.startPose(m, 2), Vec3(0, 0, 1), quarter));
    QVERIFY(near(table.startPose(m, 3), Vec3(0, 0.5, 1), quarter * turn));  // x of the FE frame is global y
    QCOMPARE(table[4].kind->key, std::string("point_mass"));
    QVERIFY(near(table.startPose(m, 4), Vec3(-1, 0, 2), Quat::Identity()));
  }

  void equalTablesHaveTheSameBodies() {
    ModelSpec m = mixedModel();
    const BodyTable before(m);
    m.bodies[0].mass = 3.0;  // a value: the same bodies
    QVERIFY(BodyTable(m) == before);
    m.bodies[0].name = "arm";
    QVERIFY(!(BodyTable(m) == before));
    ModelSpec swapped = mixedModel();
    std::swap(swapped.bodies[0], swapped.bodies[1]);
    QVERIFY(!(BodyTable(swapped) == before));
  }

  /// Each example: block p of the compiled system is the table's body p, of its kind, and a
  /// run's first sample has one pose per body, at the body's own pose, and one set of modal
  /// coordinates per deformable body.
  void examplesCompileInTableOrder_data() {
    QTest::addColumn<QString>("file");
    for (const auto& e : std::filesystem::directory_iterator(examplesDir()))
      if (e.path().extension() == ".json")
        QTest::newRow(e.path().filename().string().c_str()) << QString::fromStdString(e.path().string());
  }
  void examplesCompileInTableOrder() {
    QFETCH(QString, file);
    ModelSpec m;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(file.toStdString(), m, diag), diag.str().c_str());
    const BodyTable table(m);
    QCOMPARE(std::size_t(table.size()),
             m.bodies.size() + m.flexible_bodies.size() + m.virtual_bodies.size() + m.point_masses.size() +
                 m.beam_nodes.size());
    const auto sys = System::compile(m, diag);
    QVERIFY2(sys, diag.str().c_str());
    QVERIFY(sys->bodyTable() == table);
    for (const BodyEntry& e : table.entries()) {
      QCOMPARE(QString::fromStdString(sys->block(e.pose).name), QString::fromStdString(e.name));
      QCOMPARE(sys->flexibleBody(e.pose) != nullptr, e.kind->deformable);
      QCOMPARE(sys->block(e.pose).formulation->massless(), e.kind->massless);
      QVERIFY(sys->block(e.pose).hasFrame());
      QCOMPARE(sys->block(e.pose).formulation->frameSize(), e.kind->rotates ? 6 : 3);
    }
    for (int b = table.size(); b < sys->nblocks(); ++b) QVERIFY(!sys->block(b).hasFrame());  // joint coordinates

    // the samples: poses of the right bodies (a rigid body's own pose, a flexible body's FE frame)
    m.solver.t_end = m.solver.output_interval;
    auto sim = Simulation::create(m, diag);
    QVERIFY2(sim, diag.str().c_str());
    QVERIFY(sim->bodies() == table);
    RecordingSink sink;
    const RunSummary summary = sim->run({&sink});
    QVERIFY2(summary.ok, summary.message.c_str());
    const Sample& first = sink.samples.front();
    QCOMPARE(first.poses.size(), std::size_t(table.size()));
    QCOMPARE(first.modal.size(), table.deformable().size());
    const State s = sys->initialState();
    for (const BodyEntry& e : table.entries()) {
      Vec3 position;
      Quat orientation;
      sys->bodyPose(s.q, e.pose, position, orientation);
      // the assembly moves bodies of closed loops a little; a body in another slot is far off
      QVERIFY2((first.poses[std::size_t(e.pose)].position - position).norm() < 1e-3, e.path.c_str());
    }
    for (std::size_t i = 0; i < table.deformable().size(); ++i) {
      const BodyEntry& e = table[table.deformable()[i]];
      QCOMPARE(first.modal[i].size(), Eigen::Index(sys->flexibleBody(e.pose)->dyn->modes()));
    }
  }
};

QTEST_APPLESS_MAIN(BodyTableTest)
#include "body_table_test.moc"
