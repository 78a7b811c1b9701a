#ifndef VD_LONGFELLOW_CLMUL_H
#define VD_LONGFELLOW_CLMUL_H

#include <stddef.h>
#include <stdint.h>

/// An element of GF(2^128) as two 64-bit words, low word first.
typedef struct {
    uint64_t low;
    uint64_t high;
} vd_gf128;

/// 1 when this CPU has carry-less multiplication (x86-64 PCLMULQDQ), else 0; checked once by the caller.
int vd_cpu_has_clmul(void);

/// a * b in GF(2^128) = GF(2)[x] / (x^128 + x^7 + x^2 + x + 1). Only to be called when vd_cpu_has_clmul() is 1.
vd_gf128 vd_gf128_mul_clmul(vd_gf128 a, vd_gf128 b);

/// Σ a[i]·b[i] over n pairs, reduced once (carry-less products accumulated unreduced). Hardware path only.
vd_gf128 vd_gf128_dot_clmul(const vd_gf128 *a, const vd_gf128 *b, size_t n);

/// One step between consecutive quads: signed changes of g, h0, h1 and the quad's constant.
typedef struct {
    int32_t dg;
    int32_t dh0;
    int32_t dh1;
    uint32_t constant;
} vd_quad_step;

/// Σ over a layer's quads of values[constant]·eqg[g]·eqh0[h0]·eqh1[h1], the last product of each accumulated
/// unreduced, with the quads stored compactly: quad i is steps[indexes[i]] applied to quad i − 1 (the first to 0, 0,
/// 0). The wires reached were bounded when the circuit was read. Hardware path only.
vd_gf128 vd_gf128_bind_steps_clmul(const uint32_t *indexes, size_t n, const vd_quad_step *steps, const vd_gf128 *values,
                                   const vd_gf128 *eqg, const vd_gf128 *eqh0, const vd_gf128 *eqh1);

/// a·b·2^-256 mod p for the P-256 base field p = 2^256 − 2^224 + 2^192 + 2^96 − 1, a and b below p, four 64-bit
/// limbs each, low limb first (Montgomery multiplication, portable C).
void vd_fp256_montgomery_multiply(const uint64_t a[4], const uint64_t b[4], uint64_t out[4]);

/// The equality table eq(X, i) = Π_k (bit k of i ? X_k : 1 − X_k) for every i < 2^nvars, written into table (which
/// holds 1 << nvars entries, table[0] = 1 on entry). Hardware path only.
void vd_gf128_eq_table_clmul(vd_gf128 *table, const vd_gf128 *variables, size_t nvars);
/// The same over the P-256 base field, Montgomery form, four limbs per element (table[0..3] = one on entry).
void vd_fp256_eq_table(uint64_t *table, const uint64_t *variables, size_t nvars);
/// Σ a[i]·b[i] over n elements of the P-256 base field (Montgomery form, four limbs each), into out.
void vd_fp256_dot(const uint64_t *a, const uint64_t *b, size_t n, uint64_t out[4]);
#endif
