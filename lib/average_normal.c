/* average_normal.c - --normal average: the sum of the exact unit front
 * normals of the triangles tied at a cast's earliest alpha, normalised; the
 * hit triangle's normal when they cancel out.
 *
 * The sum is first taken from the stored unit normals (each within its
 * normalError of the exact one) with a bound on its error. Unless it is
 * short against that bound -- normals cancelling, or nearly -- its direction
 * is within 2^-34 of a radian and is the answer (the same sum and the same
 * bits as ever). Otherwise the exact path decides:
 *  - whether the exact sum is zero. The exact normals N_i = (B - A) x (C - A)
 *    are integers on one common scale (bcExactIntegers), and N_i / |N_i| =
 *    N_i / sqrt(q_i), q_i = N_i . N_i. Two square roots are rational
 *    multiples of each other exactly when q_i q_j is a perfect square: the
 *    terms fall into groups, and a group with representative q_r adds up to
 *    sqrt(q_r) V with the rational vector V = sum N_j / s_j, s_j the integer
 *    sqrt(q_j q_r). Square roots of rationals that are not rational
 *    multiples of each other are linearly independent over the rationals
 *    (Besicovitch, 1940), so the sum is zero exactly when every group's V
 *    is: then the fallback, the hit triangle's normal;
 *  - otherwise its direction, from sqrt(q_r) rounded down to P bits
 *    (mpz_sqrt) in each group, P doubled until the sum is 2^40 times its
 *    error: within 2^-39 of a radian however near the cancellation.
 */
#include <float.h>
#include <gmp.h>
#include <math.h>

#include "core.h"
#include "mesh.h"
#include "predicates.h"

/* The fast sum is the answer when its length exceeds this times its error
 * bound: its direction is then within 2 / 2^35 = 2^-34 (5.8e-11) of a
 * radian of the exact sum's, far inside the man page's 1e-9. */
#define BC_AVERAGE_TRUST 34359738368.0 /* 2^35 */

/* The exact path's first precision, in bits below the units of the
 * groups' vectors; doubled until the sum is known to 2^-40 of itself. */
#define BC_AVERAGE_FIRST_BITS 128

/* The direction is known when the sum's largest component exceeds its
 * error by this factor. */
#define BC_AVERAGE_MARGIN_BITS 40

/* An exact normal. */
typedef struct bcBig3 {
	mpz_t c[3];
} bcBig3;

/* One group of square roots that are rational multiples of each other:
 * the representative's q, and the rational vector V of the group. */
typedef struct bcRootGroup {
	mpz_t q;
	mpq_t v[3];
} bcRootGroup;

/* The exact normals of the distinct triangles, on one common scale. */
static void exactNormals(const bcMesh* mesh, const int32_t* triangles, int count, bcBig3* normals)
{
	size_t n = 9 * (size_t)count;
	double* in = bcAlloc(n * sizeof *in);
	mpz_t* v = bcAlloc(n * sizeof *v);
	for (int i = 0; i < count; ++i) {
		const int32_t* t = mesh->triangles + 3 * (size_t)triangles[i];
		for (int k = 0; k < 3; ++k) {
			bcVec3 p = mesh->vertices[t[k]];
			in[9 * i + 3 * k + 0] = p.x;
			in[9 * i + 3 * k + 1] = p.y;
			in[9 * i + 3 * k + 2] = p.z;
		}
	}
	for (size_t i = 0; i < n; ++i) {
		mpz_init(v[i]);
	}
	bcExactIntegers(v, in, (int)n);
	mpz_t u[3], w[3];
	for (int k = 0; k < 3; ++k) {
		mpz_inits(u[k], w[k], NULL);
	}
	for (int i = 0; i < count; ++i) {
		mpz_t* a = v + 9 * i;
		for (int k = 0; k < 3; ++k) {
			mpz_sub(u[k], a[3 + k], a[k]);
			mpz_sub(w[k], a[6 + k], a[k]);
		}
		for (int k = 0; k < 3; ++k) {
			int j = (k + 1) % 3, l = (k + 2) % 3;
			mpz_mul(normals[i].c[k], u[j], w[l]);
			mpz_submul(normals[i].c[k], u[l], w[j]);
		}
	}
	for (int k = 0; k < 3; ++k) {
		mpz_clears(u[k], w[k], NULL);
	}
	for (size_t i = 0; i < n; ++i) {
		mpz_clear(v[i]);
	}
	bcFree(v);
	bcFree(in);
}

/* The direction of sum sqrt(q_g) V_g over the groups, which is not zero,
 * as a unit vector. */
static bcVec3 groupsDirection(const bcRootGroup* groups, int groupCount)
{
	mpz_t root, shifted;
	mpq_t term, total[3], error, bound, ratio;
	mpz_inits(root, shifted, NULL);
	mpq_inits(term, error, bound, ratio, NULL);
	for (int k = 0; k < 3; ++k) {
		mpq_init(total[k]);
	}
	bcVec3 direction = { 0.0, 0.0, 0.0 };
	for (unsigned long bits = BC_AVERAGE_FIRST_BITS;; bits *= 2) {
		/* root = floor(sqrt(q) 2^bits): sqrt(q) 2^bits in [root, root + 1),
		 * so V root is within |V| of V sqrt(q) 2^bits, per component. */
		mpq_set_ui(error, 0, 1);
		for (int k = 0; k < 3; ++k) {
			mpq_set_ui(total[k], 0, 1);
		}
		for (int g = 0; g < groupCount; ++g) {
			mpz_mul_2exp(shifted, groups[g].q, 2 * bits);
			mpz_sqrt(root, shifted);
			for (int k = 0; k < 3; ++k) {
				mpq_set_z(term, root);
				mpq_mul(term, term, groups[g].v[k]);
				mpq_add(total[k], total[k], term);
				mpq_abs(term, groups[g].v[k]);
				mpq_add(error, error, term);
			}
		}
		/* The largest component against the error, with the margin. */
		int top = 0;
		for (int k = 1; k < 3; ++k) {
			mpq_abs(term, total[k]);
			mpq_abs(ratio, total[top]);
			top = mpq_cmp(term, ratio) > 0 ? k : top;
		}
		mpq_abs(term, total[top]);
		mpq_set(bound, error);
		mpz_mul_2exp(mpq_numref(bound), mpq_numref(bound), BC_AVERAGE_MARGIN_BITS);
		mpq_canonicalize(bound);
		if (mpq_cmp(term, bound) > 0) {
			/* Each component over the largest's magnitude, in [-1, 1]: no
			 * overflow. */
			double c[3];
			mpq_abs(term, total[top]);
			for (int k = 0; k < 3; ++k) {
				mpq_div(ratio, total[k], term);
				c[k] = mpq_get_d(ratio);
			}
			c[top] = mpq_sgn(total[top]) > 0 ? 1.0 : -1.0;
			double length = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
			direction = bcMakeVec3(c[0] / length + 0.0, c[1] / length + 0.0, c[2] / length + 0.0);
			break;
		}
	}
	for (int k = 0; k < 3; ++k) {
		mpq_clear(total[k]);
	}
	mpq_clears(term, error, bound, ratio, NULL);
	mpz_clears(root, shifted, NULL);
	return direction;
}

/* The exact path: the unit direction of the sum of the exact unit normals
 * of the triangles, or fallback when the sum is exactly zero. */
static bcVec3 exactAverage(const bcMesh* mesh, const int32_t* triangles, int count, bcVec3 fallback)
{
	bcBig3* normals = bcAlloc((size_t)count * sizeof *normals);
	bcRootGroup* groups = bcAlloc((size_t)count * sizeof *groups);
	if (normals == NULL || groups == NULL) {
		bcFree(normals);
		bcFree(groups);
		return fallback; /* out of memory: the hit triangle's normal */
	}
	for (int i = 0; i < count; ++i) {
		mpz_inits(normals[i].c[0], normals[i].c[1], normals[i].c[2], NULL);
	}
	exactNormals(mesh, triangles, count, normals);
	mpz_t q, product, s;
	mpq_t term;
	mpz_inits(q, product, s, NULL);
	mpq_init(term);
	int groupCount = 0;
	for (int i = 0; i < count; ++i) {
		mpz_mul(q, normals[i].c[0], normals[i].c[0]);
		mpz_addmul(q, normals[i].c[1], normals[i].c[1]);
		mpz_addmul(q, normals[i].c[2], normals[i].c[2]);
		int g = 0;
		for (; g < groupCount; ++g) {
			mpz_mul(product, q, groups[g].q);
			if (mpz_perfect_square_p(product)) {
				break;
			}
		}
		if (g == groupCount) {
			mpz_init_set(groups[g].q, q);
			mpq_inits(groups[g].v[0], groups[g].v[1], groups[g].v[2], NULL);
			mpz_mul(product, q, q);
			groupCount += 1;
		}
		/* N_i / s_i, s_i = sqrt(q_i q_r) (q_r itself for the representative). */
		mpz_sqrt(s, product);
		for (int k = 0; k < 3; ++k) {
			mpq_set_num(term, normals[i].c[k]);
			mpq_set_den(term, s);
			mpq_canonicalize(term);
			mpq_add(groups[g].v[k], groups[g].v[k], term);
		}
	}
	bool zero = true;
	for (int g = 0; g < groupCount && zero; ++g) {
		zero = mpq_sgn(groups[g].v[0]) == 0 && mpq_sgn(groups[g].v[1]) == 0 && mpq_sgn(groups[g].v[2]) == 0;
	}
	bcVec3 average = zero ? fallback : groupsDirection(groups, groupCount);
	for (int g = 0; g < groupCount; ++g) {
		mpz_clear(groups[g].q);
		mpq_clears(groups[g].v[0], groups[g].v[1], groups[g].v[2], NULL);
	}
	for (int i = 0; i < count; ++i) {
		mpz_clears(normals[i].c[0], normals[i].c[1], normals[i].c[2], NULL);
	}
	mpq_clear(term);
	mpz_clears(q, product, s, NULL);
	bcFree(groups);
	bcFree(normals);
	return average;
}

bcVec3 bcMesh_AverageNormal(const bcMesh* mesh, const bcContact* ties, int count, bcVec3 fallback)
{
	double x = 0.0, y = 0.0, z = 0.0;
	/* The stored normals' errors, and the sum's own rounding: each
	 * component of k terms of size at most 1 within (k - 1) u k. */
	double error = 0.0;
	int distinct = 0;
	for (int i = 0; i < count; ++i) {
		if (i > 0 && ties[i].triangle == ties[i - 1].triangle) {
			continue;
		}
		int32_t t = ties[i].triangle;
		bcVec3 n = mesh->normals[t];
		x += n.x;
		y += n.y;
		z += n.z;
		error += (double)mesh->normalErrors[t];
		distinct += 1;
	}
	error += 2.0 * BC_UNIT_ROUNDOFF * (double)distinct * (double)distinct;
	double length = sqrt(x * x + y * y + z * z);
	if (length > BC_AVERAGE_TRUST * error) {
		/* + 0.0: a -0 component prints as 0 */
		return bcMakeVec3(x / length + 0.0, y / length + 0.0, z / length + 0.0);
	}
	int32_t* triangles = bcAlloc((size_t)(distinct > 0 ? distinct : 1) * sizeof *triangles);
	if (triangles == NULL) {
		return fallback;
	}
	int k = 0;
	for (int i = 0; i < count; ++i) {
		if (i == 0 || ties[i].triangle != ties[i - 1].triangle) {
			triangles[k++] = ties[i].triangle;
		}
	}
	bcVec3 average = k > 0 ? exactAverage(mesh, triangles, k, fallback) : fallback;
	bcFree(triangles);
	return average;
}
