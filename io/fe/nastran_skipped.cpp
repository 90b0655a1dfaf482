#include "io/fe/nastran_skipped.h"

#include <map>
#include <string>

namespace flexim::io::nastran {

namespace {

using K = SkippedGroup::Kind;

constexpr SkippedGroup kGroups[] = {
    // ---- harmless ------------------------------------------------------------------------
    {K::Harmless, "parameters and methods of the Nastran solution", nullptr,
     "PARAM MDLPRM EIGRL EIGR EIGB EIGC EIGP FREQ FREQ1 FREQ2 FREQ3 FREQ4 FREQ5 TSTEP TSTEPNL NLPARM NLPCI NLSTRAT "
     "RANDPS RANDT1 ACSRCE"},
    {K::Harmless, "loads and enforced motion of the Nastran run", nullptr,
     "FORCE FORCE1 FORCE2 MOMENT MOMENT1 MOMENT2 LOAD GRAV RFORCE RFORCE1 ACCEL ACCEL1 PLOAD PLOAD1 PLOAD2 PLOAD4 "
     "PLOADX1 SLOAD TEMP TEMPD TEMPP1 TEMPRB DAREA DLOAD RLOAD1 RLOAD2 TLOAD1 TLOAD2 DELAY DPHASE LSEQ SPCD DEFORM"},
    {K::Harmless,
     "single-point constraints and supports of the Nastran run; the flexible body is free, or held at its "
     "interfaces",
     nullptr, "SPC SPC1 SPCADD SPCOFF SPCOFF1 SUPORT SUPORT1"},
    {K::Harmless, "tables of loads, damping and frequency dependence", nullptr,
     "TABLED1 TABLED2 TABLED3 TABLED4 TABLEM1 TABLEM2 TABLEM3 TABLEM4 TABLES1 TABLEST TABRND1 TABDMP1"},
    {K::Harmless,
     "degree-of-freedom sets of Nastran's own reduction; Flexim's interfaces are chosen with --interface",
     nullptr,
     "ASET ASET1 QSET QSET1 BSET BSET1 CSET CSET1 OMIT OMIT1 SESET SEQSET SEQSET1 SEBSET SEBSET1 SECSET SECSET1 USET "
     "USET1 SET1 SET2 SET3"},
    {K::Harmless, "output requests and monitor points", nullptr, "MONPNT1 MONPNT2 MONPNT3 PLOTEL DTI MONSUM"},
    {K::Harmless, "design optimisation: design variables, responses, equations", nullptr,
     "DEQATN DESVAR DRESP1 DRESP2 DRESP3 DCONSTR DCONADD DVPREL1 DVPREL2 DVMREL1 DVMREL2 DVCREL1 DVCREL2 DLINK "
     "DTABLE DOPTPRM DVGRID TOPVAR DSCREEN"},
    {K::Harmless, "aerodynamic model; it does not change the structure's stiffness or mass", nullptr,
     "AERO AEROS CAERO1 CAERO2 PAERO1 PAERO2 SPLINE1 SPLINE2 SPLINE4 SPLINE5 AELIST AEFACT AESTAT AESURF AELINK "
     "TRIM FLUTTER FLFACT MKAERO1 MKAERO2"},
    {K::Harmless, "scalar and extra points; no imported element uses them", nullptr, "SPOINT EPOINT"},
    {K::Harmless,
     "thermal and temperature-dependent material data; the reference-temperature values of MAT1 are used",
     nullptr, "MAT4 MAT5 MATT1 MATT2 MATT3 MATT4 MATT5 MATT8 MATT9"},
    {K::Harmless, "references to multipoint constraint sets; the MPC cards themselves are read", nullptr,
     "MPCADD"},
    // ---- changes the model ---------------------------------------------------------------
    {K::ChangesModel, "shell elements: their stiffness and mass are missing", "shell elements left out",
     "CQUAD4 CQUAD8 CQUADR CQUAD CTRIA3 CTRIA6 CTRIAR CSHEAR"},
    {K::ChangesModel, "beam and rod elements: their stiffness and mass are missing", "beam and rod elements left out",
     "CBAR CBEAM CBEAM3 CBEND CROD CONROD CTUBE"},
    {K::ChangesModel, "plane and axisymmetric elements: their stiffness and mass are missing",
     "plane and axisymmetric elements left out",
     "CQUADX CTRIAX CTRIAX6 CQUADX4 CQUADX8 CTRIAX3 CPLSTN3 CPLSTN4 CPLSTN6 CPLSTN8 CPLSTS3 CPLSTS4 CPLSTS6 CPLSTS8"},
    {K::ChangesModel,
     "connectors and scalar springs or masses on scalar points: the parts they join are not connected",
     "connectors left out", "CBUSH1D CBUSH2D CFAST CWELD CSEAM CELAS3 CELAS4 CMASS3 CMASS4 GENEL"},
    {K::ChangesModel, "gap elements: the gap is open, nothing is transmitted", "gap elements left out", "CGAP"},
    {K::ChangesModel,
     "contact definitions: parts that touch or are glued through contact are not connected",
     "contact not applied",
     "BCTABLE BCTSET BCTADD BCONTACT BCBODY BCBODY1 BCPROP BCPROPS BSURF BSURFS BCONP BLSEG BFRIC BWIDTH BGSET BGADD "
     "BCTPARA BCTPARM BCPARA BOUTPUT BCRPARA BCHANGE BCMOVE BCSCAP BEDGE BCONECT BCAUTOP BCGRID BCBDPRP"},
    {K::ChangesModel,
     "rigid elements other than RBE2/RBE3: the grids they tie move independently",
     "rigid elements left out", "RBAR RBAR1 RBE1 RROD RSPLINE RTRPLT RTRPLT1 RSSCON RJOINT"},
    {K::ChangesModel, "dampers: modal damping is set on the flexible body instead", "dampers left out",
     "CDAMP1 CDAMP2 CDAMP3 CDAMP4 CDAMP5 CVISC"},
    {K::ChangesModel,
     "direct matrix input: stiffness, mass or damping terms that the case control adds with K2GG, M2GG, ...",
     "direct matrix input not added", "DMIG DMI DMIK DMIJ DMIJI DMIAX"},
    {K::ChangesModel, "superelement connections: the superelements are not imported", "superelements not imported",
     "SEBULK SECONCT SEELT SELOC SEMPLN CSUPER CSUPEXT SEBNDRY SELABEL EXTRN SENQSET"},
    {K::ChangesModel, "coordinate systems of kinds this importer does not read; grids that use them fail",
     "unsupported coordinate systems skipped", "CORD3G CORD3R"},
    // ---- properties and materials of elements that are not imported ---------------------
    {K::WithElements, "properties of elements that are not imported; the elements are reported", nullptr,
     "PSHELL PCOMP PCOMPG PCOMPS PCOMPLS PBAR PBARL PBEAM PBEAML PBEAM3 PBEND PROD PTUBE PSHEAR PGAP PWELD PFAST "
     "PSEAM PBUSH1D PBUSH2D PBUSHT PLPLANE PLSOLID PSHLN1 PSHLN2 PSLDN1 PAXSYMH PAXISYM PDAMP PDAMP5 PVISC PDAMPT "
     "PELAST PCONEAX"},
    {K::WithElements,
     "anisotropic, orthotropic, fluid and nonlinear materials; an element that uses one fails with an error",
     nullptr, "MAT2 MAT3 MAT8 MAT9 MAT10 MAT11 MATS1 MATHP MATHE MATORT MATVE MATEP MATF MATS3 MATS8 MATDMG"},
    {K::Harmless, "grid-point sequencing of Nastran's solver; no effect on the model", nullptr,
     "SEQGP SEQSEP"},
};

const std::map<std::string, const SkippedGroup*, std::less<>>& index() {
  static const std::map<std::string, const SkippedGroup*, std::less<>> map = [] {
    std::map<std::string, const SkippedGroup*, std::less<>> m;
    for (const SkippedGroup& g : kGroups) {
      const std::string_view all = g.cards;
      std::size_t start = 0;
      while (start < all.size()) {
        std::size_t end = all.find(' ', start);
        if (end == std::string_view::npos) end = all.size();
        if (end > start) m.emplace(std::string(all.substr(start, end - start)), &g);
        start = end + 1;
      }
    }
    return m;
  }();
  return map;
}

}  // namespace

const SkippedGroup* skippedGroup(std::string_view card) {
  const auto& m = index();
  const auto it = m.find(card);
  return it == m.end() ? nullptr : it->second;
}

std::span<const SkippedGroup> skippedGroups() { return kGroups; }

}  // namespace flexim::io::nastran
