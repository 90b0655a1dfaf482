// Model topology: the examples against counts read off their JSON by hand, and synthetic
// graphs whose loops, components and depths are known by construction.
#include "core/model/topology.h"
#include "io/model_json.h"

#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <set>

using namespace flexim;

namespace {

std::string examplePath(const std::string& file) { return std::string(FLEXIM_SOURCE_DIR) + "/resources/examples/" + file; }

RigidBodySpec body(const std::string& name) {
  RigidBodySpec b;
  b.name = name;
  return b;
}

JointSpec joint(const std::string& name, const std::string& body1, const std::string& body2) {
  JointSpec j;
  j.name = name;
  j.body1 = body1;
  j.body2 = body2;
  return j;
}

VirtualBodySpec virtualBody(const std::string& name, const std::string& flexible) {
  VirtualBodySpec v;
  v.name = name;
  v.flexible_body = flexible;
  return v;
}

/// ground - a - b - c - ground, the link names prefixed.
void addFourBar(ModelSpec& m, const std::string& p) {
  for (const char* n : {"a", "b", "c"}) m.bodies.push_back(body(p + n));
  m.joints.push_back(joint(p + "ja", "ground", p + "a"));
  m.joints.push_back(joint(p + "jb", p + "a", p + "b"));
  m.joints.push_back(joint(p + "jc", p + "b", p + "c"));
  m.joints.push_back(joint(p + "jd", p + "c", "ground"));
}

std::set<std::string> names(const Topology& t, const std::vector<int>& vertices) {
  std::set<std::string> out;
  for (int v : vertices) out.insert(t.vertices()[v].name);
  return out;
}

/// The loop an edge closes: a closed walk of distinct vertices over edges that exist, through
/// both ends of the closing edge.
bool isLoopOf(const Topology& t, int closing, const std::vector<int>& loop) {
  if (loop.size() < 2 || std::set<int>(loop.begin(), loop.end()).size() != loop.size()) return false;
  const auto& e = t.edges()[closing];
  if (std::find(loop.begin(), loop.end(), e.a) == loop.end() || std::find(loop.begin(), loop.end(), e.b) == loop.end())
    return false;
  for (size_t i = 0; i < loop.size(); ++i) {
    const int u = loop[i], v = loop[(i + 1) % loop.size()];
    bool found = false;
    for (const auto& x : t.edges()) found = found || (x.a == u && x.b == v) || (x.a == v && x.b == u);
    if (!found) return false;
  }
  return true;
}

int countKind(const Topology& t, VertexKind kind) {
  int n = 0;
  for (const auto& v : t.vertices()) n += v.kind == kind ? 1 : 0;
  return n;
}

}  // namespace

class TopologyTest : public QObject {
  Q_OBJECT
 private slots:
  void examples_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("rigid");
    QTest::addColumn<int>("flexible");
    QTest::addColumn<int>("virtuals");
    QTest::addColumn<int>("joints");
    QTest::addColumn<int>("attachments");
    QTest::addColumn<int>("components");
    QTest::addColumn<int>("loops");
    QTest::addColumn<int>("depth");
    QTest::addColumn<QString>("loopBodies");  // the bodies on the one loop, sorted

    // ground-rod1-rod2 by shoulder and elbow: V 3, E 2, C 1 -> a tree of depth 2
    QTest::newRow("double_pendulum") << "double_pendulum.json" << 2 << 0 << 0 << 2 << 0 << 1 << 0 << 2 << "";
    // ground-rod_pin (pivot), rod_pin-rod (attachment): V 3, E 2 -> a tree of depth 2
    QTest::newRow("flexible_pendulum") << "flexible_pendulum.json" << 0 << 1 << 1 << 1 << 1 << 1 << 0 << 2 << "";
    // crank, slider, rod, rod_A, rod_B + ground; crank_pivot, crank_pin, wrist_pin, slider_rail and
    // two attachments: V 6, E 6, C 1 -> 1 loop through all; depth: ground-crank-rod_A-rod = 3
    for (const char* f : {"slider_crank_flexible", "slider_crank_flexible_rect_mac"})
      QTest::newRow(f) << QString(f) + ".json" << 2 << 1 << 2 << 4 << 2 << 1 << 1 << 3
                       << "crank,ground,rod,rod_A,rod_B,slider";
    // crank, rod, slider + ground; 4 joints ground-crank-rod-slider-ground: V 4, E 4 -> 1 loop, depth 2
    QTest::newRow("slider_crank_rigid") << "slider_crank_rigid.json" << 3 << 0 << 0 << 4 << 0 << 1 << 1 << 2
                                        << "crank,ground,rod,slider";
    QTest::newRow("slider_crank_visual") << "slider_crank_visual.json" << 3 << 0 << 0 << 4 << 0 << 1 << 1 << 2
                                        << "crank,ground,rod,slider";
    // crank, coupler, rocker + ground; 4 joints ground-crank-coupler-rocker-ground (the spring is a
    // force, no edge): V 4, E 4 -> 1 loop, depth 2
    QTest::newRow("spatial_mechanism") << "spatial_mechanism.json" << 3 << 0 << 0 << 4 << 0 << 1 << 1 << 2
                                       << "coupler,crank,ground,rocker";
    // table (lead_screw) and pinion (motor_bearing) on ground, the gear couples pinion and table:
    // V 3, E 2 joints + 1 coupling, C 1 -> 1 loop ground-pinion-table, depth 1
    // rod on a hinge to ground (the limit is a stop on the hinge, no edge): V 2, E 1 -> a tree, depth 1
    QTest::newRow("pendulum_stop") << "pendulum_stop.json" << 1 << 0 << 0 << 1 << 0 << 1 << 0 << 1 << "";
    QTest::newRow("screw_lift") << "screw_lift.json" << 2 << 0 << 0 << 2 << 0 << 1 << 1 << 1 << "ground,pinion,table";
    // N-four-bars: N + 1 cranks pinned to ground, N couplers pinned to two crank tips each:
    // V = 2N + 2, E = 3N + 1, C 1 -> N loops; cranks at depth 1, couplers at depth 2
    QTest::newRow("n_four_bar_2") << "n_four_bar_2.json" << 5 << 0 << 0 << 7 << 0 << 1 << 2 << 2 << "";
    QTest::newRow("n_four_bar_10") << "n_four_bar_10.json" << 21 << 0 << 0 << 31 << 0 << 1 << 10 << 2 << "";
    // Bricard: ground-bar1-...-bar5-ground by 6 hinges: V 6, E 6 -> 1 loop through all; bar1 and bar5
    // at depth 1, bar2 and bar4 at 2, bar3 at 3
    QTest::newRow("bricard") << "bricard.json" << 5 << 0 << 0 << 6 << 0 << 1 << 1 << 3
                             << "bar1,bar2,bar3,bar4,bar5,ground";
    // Andrews: bodies 1, 3, 5, 7 pinned to ground, 2 on 1, 4 on 5, 6 on 7, and 2 joined to 3, 4, 6 at
    // E: V 8, E 10 -> 3 loops; depth 2
    QTest::newRow("andrews_squeezer") << "andrews_squeezer.json" << 7 << 0 << 0 << 10 << 0 << 1 << 3 << 2 << "";
    // clearance slider-crank: ground-crank-rod-slider by 3 joints, the slider held by its contacts
    // (no edge): a tree of depth 3
    QTest::newRow("slider_crank_clearance_rigid") << "slider_crank_clearance_rigid.json" << 3 << 0 << 0 << 3 << 0 << 1
                                                  << 0 << 3 << "";
    // crank, slider, rod, rod_A, rod_B: ground-crank-rod_A-rod-rod_B-slider: a tree of depth 5
    // beams: the nodes are joined by their elements (edges like joints); a bend clamped at one end
    // is a chain of depth 9, the planar cantilever's nodes are each also held in the plane by a
    // planar joint to the ground: V 6, E 5 joints + 4 elements -> 4 loops, every node at depth 1
    QTest::newRow("beam_bend_45deg") << "beam_bend_45deg.json" << 9 << 0 << 0 << 1 << 0 << 1 << 0 << 9 << "";
    QTest::newRow("beam_curved_cantilever_dynamic") << "beam_curved_cantilever_dynamic.json" << 9 << 0 << 0 << 1 << 0
                                                    << 1 << 0 << 9 << "";
    QTest::newRow("beam_cantilever_tip_force") << "beam_cantilever_tip_force.json" << 5 << 0 << 0 << 5 << 0 << 1 << 4
                                               << 1 << "";
    // 41 nodes, a hinge and 40 planar joints, 40 elements: V 42, E 81 -> 40 loops
    QTest::newRow("beam_flexible_pendulum") << "beam_flexible_pendulum.json" << 41 << 0 << 0 << 41 << 0 << 1 << 40
                                            << 1 << "";
    QTest::newRow("slider_crank_clearance_flexible") << "slider_crank_clearance_flexible.json" << 2 << 1 << 2 << 3 << 2
                                                     << 1 << 0 << 5 << "";
  }

  void examples() {
    QFETCH(QString, file);
    QFETCH(int, rigid);
    QFETCH(int, flexible);
    QFETCH(int, virtuals);
    QFETCH(int, joints);
    QFETCH(int, attachments);
    QFETCH(int, components);
    QFETCH(int, loops);
    QFETCH(int, depth);
    QFETCH(QString, loopBodies);
    ModelSpec m;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(examplePath(file.toStdString()), m, diag), diag.str().c_str());
    const Topology t = buildTopology(m);
    QCOMPARE(countKind(t, VertexKind::Ground), 1);
    QCOMPARE(countKind(t, VertexKind::Rigid), rigid);
    QCOMPARE(countKind(t, VertexKind::Flexible), flexible);
    QCOMPARE(countKind(t, VertexKind::Virtual), virtuals);
    QCOMPARE(t.elementCount(EdgeKind::Joint), joints);
    QCOMPARE(t.elementCount(EdgeKind::Attachment), attachments);
    QCOMPARE(t.elementCount(EdgeKind::Coupling), int(m.couplings.size()));
    QCOMPARE(int(t.components().size()), components);
    QCOMPARE(t.independentLoops(), loops);
    QCOMPARE(int(t.loopClosingEdges().size()), loops);
    QCOMPARE(t.isTree(), loops == 0);
    QVERIFY(t.notConnectedToGround().empty());
    QCOMPARE(t.components()[0].depth, depth);
    if (loops == 1) {
      const int e = t.loopClosingEdges()[0];
      const std::vector<int> loop = t.loopOf(e);
      QVERIFY(isLoopOf(t, e, loop));
      QStringList got;
      for (const auto& n : names(t, loop)) got << QString::fromStdString(n);
      QCOMPARE(got.join(","), loopBodies);
    }
    const QString report = QString::fromStdString(describe(t));
    QVERIFY2(report.startsWith("topology: "), qPrintable(report));
    QVERIFY2(report.contains(loops ? QString("%1 independent loop").arg(loops) : QString("no loops")), qPrintable(report));
  }

  /// The bouncing ball and the sliding block have no joint: their contacts hold them, so the
  /// model check does not call them free-floating.
  void contactsHoldTheirBodies() {
    for (const char* file : {"bouncing_ball.json", "block_sliding.json"}) {
      ModelSpec m;
      Diagnostics diag;
      QVERIFY2(io::loadModelFile(examplePath(file), m, diag), diag.str().c_str());
      const Topology t = buildTopology(m);
      QCOMPARE(int(t.notConnectedToGround().size()), 1);
      QVERIFY(heldByForces(t, m).notConnectedToGround().empty());
    }
  }

  /// Every example has a row above: a new example needs its hand count.
  void everyExampleIsCounted() {
    QStringList rows{"double_pendulum.json", "flexible_pendulum.json", "slider_crank_flexible.json",
                     "slider_crank_flexible_rect_mac.json",
                     "slider_crank_rigid.json", "slider_crank_visual.json", "spatial_mechanism.json", "screw_lift.json",
                     "pendulum_stop.json", "n_four_bar_2.json", "n_four_bar_10.json", "bricard.json",
                     "andrews_squeezer.json", "engine_mount.json", "hanging_chain.json",
                     "slider_crank_clearance_rigid.json", "slider_crank_clearance_flexible.json", "bouncing_ball.json",
                     "block_sliding.json", "beam_bend_45deg.json", "beam_curved_cantilever_dynamic.json",
                     "beam_cantilever_tip_force.json", "beam_flexible_pendulum.json"};
    QStringList files;
    for (const auto& entry : std::filesystem::directory_iterator(examplePath("")))
      if (entry.path().extension() == ".json") files << QString::fromStdString(entry.path().filename().string());
    files.sort();
    rows.sort();
    QCOMPARE(files, rows);
  }

  /// The engine on its mount: no joint ties it to ground, so it is a component of its own, but the
  /// bushing holds it (heldByForces adds an edge per two-ended force element, nothing else).
  void engineMountIsHeldByItsBushing() {
    ModelSpec m;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(examplePath("engine_mount.json"), m, diag), diag.str().c_str());
    const Topology t = buildTopology(m);
    QCOMPARE(int(t.components().size()), 2);
    QCOMPARE(t.notConnectedToGround(), std::vector<int>{t.vertex("engine")});
    QCOMPARE(t.elementCount(EdgeKind::Force), 0);
    const Topology held = heldByForces(t, m);
    QVERIFY(held.notConnectedToGround().empty());
    QCOMPARE(held.elementCount(EdgeKind::Force), 1);
    QCOMPARE(int(held.components().size()), 1);
    // point masses on springs: held, and counted as point masses
    ModelSpec chain;
    QVERIFY2(io::loadModelFile(examplePath("hanging_chain.json"), chain, diag), diag.str().c_str());
    const Topology links = buildTopology(chain);
    QCOMPARE(countKind(links, VertexKind::PointMass), 5);
    QCOMPARE(int(links.notConnectedToGround().size()), 5);
    QVERIFY(heldByForces(links, chain).notConnectedToGround().empty());
    QVERIFY2(describe(links).find("5 bodies (5 point-mass)") != std::string::npos, describe(links).c_str());
    // a point load holds nothing
    m.forces[0].type = ForceType::PointForce;
    QCOMPARE(heldByForces(t, m).notConnectedToGround(), std::vector<int>{t.vertex("engine")});
  }

  void fourBarHasOneLoop() {
    ModelSpec m;
    addFourBar(m, "");
    const Topology t = buildTopology(m);
    QCOMPARE(t.independentLoops(), 1);
    QVERIFY(!t.isTree());
    QCOMPARE(int(t.components().size()), 1);
    QCOMPARE(t.loopClosingEdges().size(), size_t(1));
    const int e = t.loopClosingEdges()[0];
    QVERIFY(isLoopOf(t, e, t.loopOf(e)));
    QCOMPARE(t.loopOf(e).size(), size_t(4));
    // breadth-first from ground: a and c at depth 1, b at depth 2
    QCOMPARE(t.vertices()[t.vertex("a")].depth, 1);
    QCOMPARE(t.vertices()[t.vertex("c")].depth, 1);
    QCOMPARE(t.vertices()[t.vertex("b")].depth, 2);
  }

  void twoFourBarsSharingGroundHaveTwoLoops() {
    ModelSpec m;
    addFourBar(m, "left_");
    addFourBar(m, "right_");
    const Topology t = buildTopology(m);
    QCOMPARE(t.independentLoops(), 2);
    QCOMPARE(int(t.components().size()), 1);
    QCOMPARE(t.loopClosingEdges().size(), size_t(2));
    std::set<std::string> sides;
    for (int e : t.loopClosingEdges()) {
      const std::vector<int> loop = t.loopOf(e);
      QVERIFY(isLoopOf(t, e, loop));
      QCOMPARE(loop.size(), size_t(4));
      QVERIFY(names(t, loop).count("ground"));
      sides.insert(t.edges()[e].name.substr(0, t.edges()[e].name.find('_')));
    }
    QCOMPARE(sides, (std::set<std::string>{"left", "right"}));  // one loop on each four-bar
  }

  void longChainIsATreeWithShortReport() {
    const int n = 1000;
    ModelSpec m;
    std::string previous = "ground";
    for (int i = 1; i <= n; ++i) {
      const std::string name = std::string("b").append(std::to_string(i));
      m.bodies.push_back(body(name));
      m.joints.push_back(joint(std::string("j").append(std::to_string(i)), previous, name));
      previous = name;
    }
    const Topology t = buildTopology(m);
    QVERIFY(t.isTree());
    QCOMPARE(t.independentLoops(), 0);
    QCOMPARE(int(t.components().size()), 1);
    QCOMPARE(t.components()[0].depth, n);
    const auto& last = t.vertices()[t.vertex("b1000")];
    QCOMPARE(last.depth, n);
    QCOMPARE(t.vertices()[last.parent].name, std::string("b999"));
    QCOMPARE(t.edges()[last.parentEdge].name, std::string("j1000"));
    const QString report = QString::fromStdString(describe(t));
    QVERIFY2(report.count('\n') < 8 && report.size() < 600, qPrintable(report));
    QVERIFY2(report.contains("depth 1000") && report.contains("b1000 (j1000)"), qPrintable(report));
  }

  void parallelJointsCloseALoop() {
    ModelSpec m;
    m.bodies = {body("a"), body("b")};
    m.joints = {joint("hinge", "ground", "a"), joint("first", "a", "b"), joint("second", "b", "a")};
    const Topology t = buildTopology(m);
    QCOMPARE(t.independentLoops(), 1);
    QCOMPARE(t.loopClosingEdges().size(), size_t(1));
    const int e = t.loopClosingEdges()[0];
    QCOMPARE(t.edges()[e].name, std::string("second"));
    QCOMPARE(names(t, t.loopOf(e)), (std::set<std::string>{"a", "b"}));
    QVERIFY(isLoopOf(t, e, t.loopOf(e)));
  }

  void floatingBodyIsItsOwnComponent() {
    ModelSpec m;
    m.bodies = {body("arm"), body("float")};
    m.joints = {joint("hinge", "ground", "arm")};
    const Topology t = buildTopology(m);
    QCOMPARE(int(t.components().size()), 2);
    QVERIFY(t.components()[0].grounded);
    QVERIFY(!t.components()[1].grounded);
    QCOMPARE(names(t, t.components()[1].vertices), std::set<std::string>{"float"});
    QCOMPARE(names(t, t.notConnectedToGround()), std::set<std::string>{"float"});
    QCOMPARE(t.independentLoops(), 0);
    QVERIFY(QString::fromStdString(describe(t)).contains("not connected to ground (1 body: 'float')"));
  }

  void loopThroughAFlexibleBody() {
    ModelSpec m;
    FlexibleBodySpec f;
    f.name = "beam";
    m.flexible_bodies = {f};
    m.virtual_bodies = {virtualBody("left_end", "beam"), virtualBody("right_end", "beam")};
    m.joints = {joint("left_pin", "ground", "left_end"), joint("right_pin", "right_end", "ground")};
    const Topology t = buildTopology(m);
    QCOMPARE(t.elementCount(EdgeKind::Attachment), 2);
    QCOMPARE(t.independentLoops(), 1);
    const int e = t.loopClosingEdges()[0];
    QCOMPARE(names(t, t.loopOf(e)), (std::set<std::string>{"ground", "left_end", "beam", "right_end"}));
    QVERIFY(isLoopOf(t, e, t.loopOf(e)));
  }

  void floatingGroupIsRootedAtItsFirstBody() {
    ModelSpec m;
    m.bodies = {body("p"), body("q"), body("r")};
    m.joints = {joint("pq", "p", "q"), joint("qr", "q", "r")};
    const Topology t = buildTopology(m);
    QCOMPARE(int(t.components().size()), 2);  // ground alone, and p-q-r
    const auto& c = t.components()[1];
    QCOMPARE(t.vertices()[c.vertices[0]].name, std::string("p"));
    QCOMPARE(t.vertices()[t.vertex("p")].parent, -1);
    QCOMPARE(t.vertices()[t.vertex("r")].depth, 2);
    QCOMPARE(c.depth, 2);
    QCOMPARE(t.notConnectedToGround().size(), size_t(3));
  }

  void unknownBodiesAndSelfJointsAddNoEdge() {
    ModelSpec m;
    m.bodies = {body("a")};
    m.joints = {joint("hinge", "ground", "a"), joint("typo", "a", "nobody"), joint("self", "a", "a")};
    m.virtual_bodies = {virtualBody("v", "a")};  // attached to a rigid body: no attachment edge
    const Topology t = buildTopology(m);
    QCOMPARE(t.edges().size(), size_t(1));
    QCOMPARE(t.elementCount(EdgeKind::Attachment), 0);
    QCOMPARE(names(t, t.notConnectedToGround()), std::set<std::string>{"v"});
  }

  void elementOnSeveralBodiesIsAChain() {
    Topology t;
    for (const char* n : {"a", "b", "c"}) t.addVertex(VertexKind::Rigid, n);
    // three distinct bodies (one repeated) tie with two edges: no loop of their own
    QCOMPARE(t.addEdge(EdgeKind::Joint, "gear", {"a", "b", "a", "c"}), 2);
    QCOMPARE(t.addEdge(EdgeKind::Joint, "base", {"ground", "a"}), 1);
    QCOMPARE(t.addEdge(EdgeKind::Joint, "broken", {"a", "missing", "c"}), 0);
    t.analyse();
    QCOMPARE(t.elementCount(EdgeKind::Joint), 2);
    QCOMPARE(t.edges().size(), size_t(3));
    QVERIFY(t.isTree());
    QVERIFY(t.notConnectedToGround().empty());
  }
};

QTEST_APPLESS_MAIN(TopologyTest)
#include "topology_test.moc"
