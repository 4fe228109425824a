"""The cffi build of ballcast._ballcast (out-of-line API mode).

The declarations below are the part of lib/ballcast.h the binding uses,
copied by hand; the generated C file includes the real ballcast.h, so the C
compiler checks every struct layout, field type, enum value and function
signature against it (a field moved in the header fails the build instead of
reading the wrong bytes). The extension links the library's static archive
(libballcast.a, built by the project's Makefile): nothing of the geometry is
compiled here, only cffi's wrappers and the loops of _glue.c.

Where the library comes from, first found:
  BALLCAST_INCLUDE_DIR and BALLCAST_LIBRARY (the folder of ballcast.h and
      the path of libballcast.a) from the environment;
  the source tree this package sits in (../lib, ../build/libballcast.a),
      built with `make` first when the archive is missing;
  an installed ballcast (`make install`), through pkg-config.
"""
import os
import shutil
import subprocess

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
TREE = os.path.dirname(os.path.dirname(HERE))

CDEF = r"""
typedef struct bcVec3 { double x, y, z; } bcVec3;

#define BC_MAX_THREADS ...
#define BC_MAX_WARNINGS ...
#define BC_DISCRETE_MAX_BISECTIONS ...
#define BC_DISCRETE_DEFAULT_BISECTIONS ...
static char *const BC_VERSION_STRING;
static const double BC_DISCRETE_MIN_STEP;
static const double BC_DISCRETE_DEFAULT_STEP;
static const double BC_ALPHA_TIE_TOLERANCE;
static const double BC_DISTANCE_TIE_TOLERANCE;
static const double BC_MAX_COORDINATE;

int bcThreadCount(int threadCount);

typedef enum bcErrorCode {
    bc_errorNone = 0, bc_errorIo, bc_errorSyntax, bc_errorIndex, bc_errorValue,
    bc_errorTooLarge, bc_errorNoMemory, bc_errorEmpty, bc_errorFormat
} bcErrorCode;

typedef struct bcError {
    bcErrorCode code;
    long line;
    long column;
    long record;
    char message[256];
    long long byte;
    int systemError;
} bcError;

typedef struct bcMesh bcMesh;

typedef struct bcMeshDef {
    const double* vertices;
    int32_t vertexCount;
    const int32_t* triangles;
    int32_t triangleCount;
    const int32_t* faceIds;
    int32_t faceCount;
} bcMeshDef;

bcMesh* bcMesh_Create(const bcMeshDef* def, bcError* error);

typedef struct bcObjOptions { int threadCount; } bcObjOptions;
bcObjOptions bcDefaultObjOptions(void);
bcMesh* bcMesh_LoadObj(const char* path, const bcObjOptions* options, bcError* error);
bcMesh* bcMesh_ParseObj(const char* text, size_t length, const bcObjOptions* options, bcError* error);

typedef enum bcMeshFormat {
    bc_meshAuto = 0, bc_meshObj, bc_meshStl, bc_meshPly, bc_meshOff
} bcMeshFormat;

const char* bcMeshFormatName(bcMeshFormat format);
bcMesh* bcMesh_Load(const char* path, bcMeshFormat format, const bcObjOptions* options, bcError* error);
bcMesh* bcMesh_Parse(const void* data, size_t length, bcMeshFormat format, const bcObjOptions* options,
                     bcError* error);
void bcMesh_Destroy(bcMesh* mesh);

typedef enum bcWarningCode {
    bc_warningNone = 0, bc_warningNonPlanar, bc_warningSelfIntersecting, bc_warningFacetNormal
} bcWarningCode;

typedef struct bcWarning {
    bcWarningCode code;
    long line;
    long column;
    long record;
    char message[160];
    long long byte;
} bcWarning;

int32_t bcMesh_GetWarningCount(const bcMesh* mesh);
bcWarning bcMesh_GetWarning(const bcMesh* mesh, int32_t index);

typedef struct bcMeshInfo {
    int32_t vertexCount;
    int32_t triangleCount;
    int32_t faceCount;
    int32_t degenerateCount;
    bcVec3 lowerBound, upperBound;
    double buildSeconds;
    bcMeshFormat format;
    long long mergedCorners;
} bcMeshInfo;

bcMeshInfo bcMesh_GetInfo(const bcMesh* mesh);

typedef enum bcFeature {
    bc_featureNone = 0, bc_featureFace, bc_featureEdge, bc_featureVertex
} bcFeature;

typedef enum bcApproach { bc_approachLessEqual = 0, bc_approachLess } bcApproach;
typedef enum bcOverlapPolicy { bc_overlapReport = 0, bc_overlapIgnore } bcOverlapPolicy;

typedef struct bcCastOptions {
    bool twoSided;
    bcApproach approach;
    bcOverlapPolicy overlap;
    bool bruteForce;
} bcCastOptions;

bcCastOptions bcDefaultCastOptions(void);

typedef struct bcCastInput { bcVec3 p0, p1; double radius; } bcCastInput;

typedef enum bcCastState {
    bc_castMiss = 0, bc_castHit, bc_castInitialOverlap, bc_castInvalid, bc_castNoMemory
} bcCastState;

typedef struct bcCastOutput {
    bcCastState state;
    double alpha;
    int32_t triangle;
    int32_t face;
    bcFeature feature;
    int vertexCount;
    int32_t vertices[3];
    bcVec3 point;
    bcVec3 center;
    bcVec3 normal;
    bcVec3 triangleNormal;
    int tieCount;
} bcCastOutput;

bool bcIsValidCastInput(bcCastInput input);

typedef struct bcContact {
    int32_t triangle;
    bcFeature feature;
    int vertexCount;
    int32_t vertices[3];
    double alpha;
    bcVec3 normal;
} bcContact;

typedef enum bcNormalMode { bc_normalContact = 0, bc_normalTriangle, bc_normalAverage } bcNormalMode;

typedef struct bcBatchOptions {
    bcCastOptions cast;
    bcNormalMode normal;
    int threadCount;
} bcBatchOptions;

bcBatchOptions bcDefaultBatchOptions(void);

typedef struct bcTieList {
    bcContact* contacts;
    size_t contactCount;
    size_t* first;
    int castCount;
} bcTieList;

bool bcMesh_CastBatchWithOptions(const bcMesh* mesh, const bcCastInput* inputs, bcCastOutput* outputs,
                                 int count, const bcBatchOptions* options, bcTieList** ties, bcError* error);
void bcTieList_Destroy(bcTieList* list);

typedef struct bcDiscreteOptions {
    double step;
    int bisections;
    bcCastOptions cast;
} bcDiscreteOptions;

bcDiscreteOptions bcDefaultDiscreteOptions(void);

typedef struct bcClosestOptions { bool bruteForce; } bcClosestOptions;
bcClosestOptions bcDefaultClosestOptions(void);

typedef enum bcClosestState { bc_closestNone = 0, bc_closestFound, bc_closestInvalid } bcClosestState;

typedef struct bcClosestInput { bcVec3 p; double radius; } bcClosestInput;

typedef struct bcClosestOutput {
    bcClosestState state;
    double distance;
    bcVec3 point;
    int32_t triangle;
    int32_t face;
    bcFeature feature;
    int vertexCount;
    int32_t vertices[3];
    bcVec3 normal;
    bool overlap;
    double depth;
    int tieCount;
    double barycentric[3];
} bcClosestOutput;

bool bcIsValidClosestInput(bcClosestInput input);
void bcMesh_ClosestBatch(const bcMesh* mesh, const bcClosestInput* inputs, bcClosestOutput* outputs, int count,
                         const bcClosestOptions* options, int threadCount);

typedef enum bcBallState { bc_ballMiss = 0, bc_ballHit, bc_ballInitialOverlap, bc_ballInvalid } bcBallState;

typedef struct bcBallInput {
    bcVec3 p0, p1;
    double radius;
    double mass;
    bool fixed;
} bcBallInput;

typedef struct bcBallsOptions {
    double restitution;
    bool bruteForce;
} bcBallsOptions;

bcBallsOptions bcDefaultBallsOptions(void);

typedef struct bcBallResult {
    bcBallState state;
    double alpha;
    int32_t other;
    int tieCount;
    bcVec3 point;
    bcVec3 normal;
    bcVec3 velocityBefore;
    bcVec3 velocityAfter;
} bcBallResult;

bool bcCollideBallSet(const bcBallInput* balls, int count, const bcBallsOptions* options, bcBallResult* results,
                      bcError* error);

typedef enum bcTriTriState {
    bc_triTriDisjoint = 0, bc_triTriTouching, bc_triTriCrossing, bc_triTriCoplanar,
    bc_triTriDegenerate, bc_triTriProbable
} bcTriTriState;

typedef enum bcApproxRule { bc_approxEither = 0, bc_approxOneWay } bcApproxRule;

typedef struct bcIntersectOptions {
    bool approximate;
    bool bruteForce;
    bool skipTouching;
    int threadCount;
    bcApproxRule approxRule;
    bool checkApprox;
} bcIntersectOptions;

bcIntersectOptions bcDefaultIntersectOptions(void);

typedef struct bcIntersectPair {
    int32_t a, b;
    bcTriTriState state;
    bcVec3 segment[2];
    bcTriTriState exactState;
} bcIntersectPair;

typedef struct bcIntersectList {
    bcIntersectPair* pairs;
    size_t count;
    size_t candidateCount;
    size_t falsePositiveCount;
    size_t falseNegativeCount;
} bcIntersectList;

bcIntersectList* bcMesh_Intersect(const bcMesh* a, const bcMesh* b, const bcIntersectOptions* options,
                                  bcError* error);
void bcIntersectList_Destroy(bcIntersectList* list);

bool bcMesh_IsClosed(const bcMesh* mesh);

typedef enum bcRelation {
    bc_relationNotClosed = 0, bc_relationDisjoint, bc_relationTouching, bc_relationCrossing,
    bc_relationAInsideB, bc_relationBInsideA, bc_relationFailed
} bcRelation;

typedef struct bcRelateOptions {
    bool bruteForce;
    int threadCount;
} bcRelateOptions;

bcRelateOptions bcDefaultRelateOptions(void);

typedef struct bcRelateOutput {
    bcRelation relation;
    bool aClosed, bClosed;
    size_t pairCount;
    size_t crossingCount;
    bool aPointInsideB, aPointOutsideB;
    bool bPointInsideA, bPointOutsideA;
} bcRelateOutput;

bcRelateOutput bcMesh_Relate(const bcMesh* a, const bcMesh* b, const bcRelateOptions* options, bcError* error);

const char* bcFeatureName(bcFeature feature);
const char* bcTriTriStateName(bcTriTriState state);
const char* bcRelationName(bcRelation relation);

/* _glue.c */
void bcpy_MeshArrays(const bcMesh* mesh, double* vertices, int32_t* triangles, int32_t* faces, double* normals,
                     uint8_t* degenerate);
void bcpy_CastDiscreteBatch(const bcMesh* mesh, const bcCastInput* inputs, bcCastOutput* outputs,
                            double* alphaFree, double* exactAlpha, int count,
                            const bcDiscreteOptions* options, bcNormalMode mode);
void bcpy_UseCountingAllocator(void);
long long bcpy_LiveBlocks(void);
long long bcpy_Allocations(void);
void bcpy_FailAllocationsAfter(long long count);
"""


def _pkg_config(*args):
    if shutil.which("pkg-config") is None:
        return None
    try:
        out = subprocess.run(["pkg-config", *args, "ballcast"], check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError:
        return None
    return out.stdout.strip()


def locate():
    """(include folder, path of libballcast.a) as described above."""
    include = os.environ.get("BALLCAST_INCLUDE_DIR")
    library = os.environ.get("BALLCAST_LIBRARY")
    if include and library:
        return include, library
    header = os.path.join(TREE, "lib", "ballcast.h")
    if os.path.isfile(header) and os.path.isfile(os.path.join(TREE, "Makefile")):
        archive = os.path.join(TREE, "build", "libballcast.a")
        # make decides whether the archive is up to date with lib/ (a no-op when it is)
        subprocess.run(["make", "-C", TREE, "--no-print-directory", "-s", "build/libballcast.a"], check=True)
        return os.path.join(TREE, "lib"), archive
    includedir = _pkg_config("--variable=includedir")
    libdir = _pkg_config("--variable=libdir")
    if includedir and libdir and os.path.isfile(os.path.join(libdir, "libballcast.a")):
        return includedir, os.path.join(libdir, "libballcast.a")
    raise RuntimeError(
        "ballcast: cannot find the library: build this package from the ballcast source tree, "
        "install ballcast (make install) so that pkg-config finds it, or set BALLCAST_INCLUDE_DIR "
        "and BALLCAST_LIBRARY")


def _glue():
    with open(os.path.join(HERE, "_glue.c"), encoding="utf-8") as f:
        return f.read()


def builder():
    include, archive = locate()
    ffi = FFI()
    ffi.cdef(CDEF)
    ffi.set_source(
        "ballcast._ballcast",
        '#include "ballcast.h"\n' + _glue(),
        include_dirs=[include],
        extra_objects=[archive],
        # rebuilt when the library or its header is newer than the extension
        # (setuptools looks at sources and depends only, not extra_objects)
        depends=[archive, os.path.join(include, "ballcast.h")],
        libraries=["gmp", "m"],
        extra_compile_args=["-std=gnu11", "-ffp-contract=off", "-D_POSIX_C_SOURCE=200809L"],
        # the library's symbols stay inside the extension: another copy of
        # libballcast in the process (a ctypes user, say) is not interposed
        extra_link_args=["-pthread", "-Wl,--exclude-libs,ALL"],
    )
    return ffi


ffibuilder = builder()

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
