/* average_normal.c tests: --normal average (bcMesh_AverageNormal) against
 * hand-computed sums of unit normals: exact cancellation (the hit
 * triangle's normal), near cancellation (the exact direction, from
 * Python's decimal at 60 digits), and ordinary sums (the same bits as the
 * plain normalised sum). */
#include "harness.h"
#include "vec3.h"

/* The angle between two unit vectors, from their cross product. */
static double angleBetween(bcVec3 a, bcVec3 b)
{
	return atan2(bcLength(bcCross(a, b)), bcDot(a, b));
}

/* The mesh of triangles t[0 .. 3 count) over v, a point cast through p
 * along -w, two-sided, with its ties; returns the average normal. */
static bcVec3 averageThrough(const double* v, int vertexCount, const int32_t* t, int count, bcVec3 p, bcVec3 w,
							 bcCastOutput* out)
{
	bcMeshDef def = { v, vertexCount, t, count, NULL, 0 };
	bcMesh* mesh = bcMesh_Create(&def, NULL);
	ck_assert_ptr_nonnull(mesh);
	bcCastInput in = { bcAdd(p, w), bcSub(p, w), 0.0 };
	bcCastOptions options = bcDefaultCastOptions();
	options.twoSided = true;
	bcContact ties[64];
	int n = bcMesh_CastTies(mesh, in, &options, out, ties, 64);
	ck_assert_int_eq(out->state, bc_castHit);
	ck_assert_int_le(n, 64);
	bcVec3 average = bcMesh_AverageNormal(mesh, ties, n, out->triangleNormal);
	/* The batch's normal mode gives the same. */
	bcBatchOptions batch = bcDefaultBatchOptions();
	batch.cast = options;
	batch.normal = bc_normalAverage;
	bcCastOutput batched;
	bcTieList* list = bcMesh_CastBatchTies(mesh, &in, &batched, 1, &batch, NULL);
	ck_assert_ptr_nonnull(list);
	ck_assert(batched.normal.x == average.x && batched.normal.y == average.y && batched.normal.z == average.z);
	bcTieList_Destroy(list);
	bcMesh_Destroy(mesh);
	return average;
}

/* Issue 28's reproducer (average_cancel.obj): two triangles through O in
 * one plane, wound opposite ways, of different shapes: N0 = (-99, 66, -22),
 * N1 = -5/2 N0 exactly. Their unit normals cancel: the hit triangle's
 * normal, (-9, 6, -2) / 11. Before, the rounding residue of the two
 * rounded unit normals, normalised: a direction 55 degrees off. */
START_TEST(opposite_normals_cancel)
{
	const double v[] = { 0, 0, 0, 2, 6, 9, 6, 7, -6, -4, -12, -18, -7.5, -8.75, 7.5 };
	const int32_t t[] = { 0, 1, 2, 0, 4, 3 };
	bcCastOutput out;
	bcVec3 n = averageThrough(v, 5, t, 2, bcMakeVec3(0, 0, 0), bcMakeVec3(-9, 6, -2), &out);
	ck_assert_int_eq(out.triangle, 0);
	ck_assert(n.x == out.triangleNormal.x && n.y == out.triangleNormal.y && n.z == out.triangleNormal.z);
	ck_assert(angleBetween(n, bcMakeVec3(-9.0 / 11.0, 6.0 / 11.0, -2.0 / 11.0)) <= 2e-16);
}
END_TEST

/* Three unit normals 120 degrees apart, (1,1,0), (-1,0,1), (0,-1,-1) over
 * their lengths (sqrt 2 each): their sum is exactly zero, though no two
 * are opposite. Each triangle is (O, O + u, O + N x u), normal |u|^2 N. */
START_TEST(three_normals_cancel)
{
	const double v[] = { 0, 0, 0, 1, -1, 0, 0, 0, -2, 0, 1, 0, -1, 0, -1, 1, 0, 0, 0, -1, 1 };
	const int32_t t[] = { 0, 1, 2, 0, 3, 4, 0, 5, 6 };
	bcCastOutput out;
	bcVec3 n = averageThrough(v, 7, t, 3, bcMakeVec3(0, 0, 0), bcMakeVec3(1, 2, 3), &out);
	ck_assert_int_eq(out.triangle, 0);
	ck_assert(angleBetween(n, bcNormalize(bcMakeVec3(1, 1, 0))) <= 2e-16);
}
END_TEST

/* Issue 28's reproducer (average_near_cancel.obj): two triangles folded
 * 2^-27 from flat, back to back across the x axis: unit normals (0,0,1)
 * and (0,-e,-1)/sqrt(1+e^2), e = 2^-27. The exact sum's direction is
 * (0, -1, 3.725290298461914e-09) (decimal, 60 digits); the rounded second
 * normal is (0, -e, -1), whose sum with the first gives (0, -1, 0),
 * 3.7e-9 of a radian off. */
START_TEST(near_cancellation)
{
	const double v[] = { 0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -1, 7.450580596923828e-09 };
	const int32_t t[] = { 0, 1, 2, 0, 1, 3 };
	bcCastOutput out;
	bcVec3 n = averageThrough(v, 4, t, 2, bcMakeVec3(0.5, 0, 0), bcMakeVec3(0, 0.25, 1), &out);
	bcVec3 exact = { 0.0, -1.0, 3.725290298461914e-09 };
	ck_assert_msg(angleBetween(n, exact) <= 1e-15, "normal %.17g %.17g %.17g", n.x, n.y, n.z);
}
END_TEST

/* Normals far from cancelling: the plain sum, bit for bit. (0,0,1) and
 * (1,0,0): 1 / sqrt(2) as 1 / 1.4142135623730951 rounds it. */
START_TEST(ordinary_sum)
{
	const double v[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	const int32_t t[] = { 0, 1, 2, 0, 2, 3 };
	bcCastOutput out;
	bcVec3 n = averageThrough(v, 4, t, 2, bcMakeVec3(0, 0, 0), bcMakeVec3(1, 0.5, 2), &out);
	double h = 1.0 / sqrt(2.0);
	ck_assert(n.x == h && n.y == 0.0 && n.z == h);
}
END_TEST

static Suite* averageSuite(void)
{
	Suite* s = suite_create("average_normal");
	TCase* tc = tcase_create("average");
	tcase_add_test(tc, opposite_normals_cancel);
	tcase_add_test(tc, three_normals_cancel);
	tcase_add_test(tc, near_cancellation);
	tcase_add_test(tc, ordinary_sum);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return bcRunSuite(averageSuite());
}
