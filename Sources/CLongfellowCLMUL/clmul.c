#include "CLongfellowCLMUL.h"

#if defined(__x86_64__)
#include <immintrin.h>

int vd_cpu_has_clmul(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("pclmul") ? 1 : 0;
}

/* The unreduced 256-bit carry-less product of a and b (Karatsuba), as lo (bits 0..127) and hi (bits 128..255). */
__attribute__((target("pclmul,sse4.1"))) static inline void product256(__m128i x, __m128i y, __m128i *lo, __m128i *hi) {
    const __m128i l = _mm_clmulepi64_si128(x, y, 0x00);
    const __m128i h = _mm_clmulepi64_si128(x, y, 0x11);
    const __m128i xs = _mm_xor_si128(x, _mm_srli_si128(x, 8));
    const __m128i ys = _mm_xor_si128(y, _mm_srli_si128(y, 8));
    __m128i m = _mm_clmulepi64_si128(xs, ys, 0x00);
    m = _mm_xor_si128(m, _mm_xor_si128(l, h));
    *lo = _mm_xor_si128(l, _mm_slli_si128(m, 8));
    *hi = _mm_xor_si128(h, _mm_srli_si128(m, 8));
}

/* Reduces a 256-bit product modulo x^128 + x^7 + x^2 + x + 1. */
__attribute__((target("pclmul,sse4.1"))) static inline __m128i reduce256(__m128i lo, __m128i hi) {
    const __m128i poly = _mm_set_epi64x(0, 0x87);
    /* hi·x^128 = hi·0x87: first the top word (its product reaches bit 135), then the rest. */
    __m128i t = _mm_clmulepi64_si128(hi, poly, 0x01);           /* hi.high * 0x87: lands at bits 64..135 */
    hi = _mm_xor_si128(hi, _mm_srli_si128(t, 8));                /* bits 128..135 fold into hi.low */
    lo = _mm_xor_si128(lo, _mm_slli_si128(t, 8));                /* bits 64..127 into lo.high */
    t = _mm_clmulepi64_si128(hi, poly, 0x00);                    /* hi.low * 0x87: bits 0..70 */
    return _mm_xor_si128(lo, t);
}

static inline __m128i load(vd_gf128 a) { return _mm_set_epi64x((long long)a.high, (long long)a.low); }

__attribute__((target("pclmul,sse4.1"))) static inline vd_gf128 store(__m128i v) {
    vd_gf128 out = { (uint64_t)_mm_cvtsi128_si64(v), (uint64_t)_mm_extract_epi64(v, 1) };
    return out;
}

__attribute__((target("pclmul,sse4.1")))
vd_gf128 vd_gf128_dot_clmul(const vd_gf128 *a, const vd_gf128 *b, size_t n) {
    __m128i lo = _mm_setzero_si128(), hi = _mm_setzero_si128();
    for (size_t i = 0; i < n; i++) {
        __m128i l, h;
        product256(load(a[i]), load(b[i]), &l, &h);
        lo = _mm_xor_si128(lo, l);
        hi = _mm_xor_si128(hi, h);
    }
    return store(reduce256(lo, hi));
}


__attribute__((target("pclmul,sse4.1")))
vd_gf128 vd_gf128_bind_steps_clmul(const uint32_t *indexes, size_t n, const vd_quad_step *steps, const vd_gf128 *values,
                                   const vd_gf128 *eqg, const vd_gf128 *eqh0, const vd_gf128 *eqh1) {
    __m128i lo = _mm_setzero_si128(), hi = _mm_setzero_si128();
    int32_t g = 0, h0 = 0, h1 = 0;
    for (size_t i = 0; i < n; i++) {
        const vd_quad_step s = steps[indexes[i]];
        g += s.dg;
        h0 += s.dh0;
        h1 += s.dh1;
        __m128i l, h;
        product256(load(values[s.constant]), load(eqg[g]), &l, &h);
        __m128i v = reduce256(l, h);
        product256(v, load(eqh0[h0]), &l, &h);
        v = reduce256(l, h);
        product256(v, load(eqh1[h1]), &l, &h);
        lo = _mm_xor_si128(lo, l);
        hi = _mm_xor_si128(hi, h);
    }
    return store(reduce256(lo, hi));
}

/* Three carry-less 64x64 products (Karatsuba), then the reduction by x^128 = x^7 + x^2 + x + 1 in two folds. */
__attribute__((target("pclmul,sse4.1")))
vd_gf128 vd_gf128_mul_clmul(vd_gf128 a, vd_gf128 b) {
    const __m128i x = _mm_set_epi64x((long long)a.high, (long long)a.low);
    const __m128i y = _mm_set_epi64x((long long)b.high, (long long)b.low);
    const __m128i lo = _mm_clmulepi64_si128(x, y, 0x00);
    const __m128i hi = _mm_clmulepi64_si128(x, y, 0x11);
    const __m128i xs = _mm_xor_si128(x, _mm_srli_si128(x, 8));
    const __m128i ys = _mm_xor_si128(y, _mm_srli_si128(y, 8));
    __m128i mid = _mm_clmulepi64_si128(xs, ys, 0x00);
    mid = _mm_xor_si128(mid, _mm_xor_si128(lo, hi));
    /* The 256-bit product p3:p2:p1:p0. */
    uint64_t p0 = (uint64_t)_mm_cvtsi128_si64(lo);
    uint64_t p1 = (uint64_t)_mm_extract_epi64(lo, 1) ^ (uint64_t)_mm_cvtsi128_si64(mid);
    uint64_t p2 = (uint64_t)_mm_cvtsi128_si64(hi) ^ (uint64_t)_mm_extract_epi64(mid, 1);
    uint64_t p3 = (uint64_t)_mm_extract_epi64(hi, 1);
    const __m128i poly = _mm_set_epi64x(0, 0x87);
    /* p3 * x^192 = (p3 * 0x87) * x^64 */
    __m128i t = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)p3), poly, 0x00);
    p1 ^= (uint64_t)_mm_cvtsi128_si64(t);
    p2 ^= (uint64_t)_mm_extract_epi64(t, 1);
    /* p2 * x^128 = p2 * 0x87 */
    t = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)p2), poly, 0x00);
    vd_gf128 out = { p0 ^ (uint64_t)_mm_cvtsi128_si64(t), p1 ^ (uint64_t)_mm_extract_epi64(t, 1) };
    return out;
}

#else

int vd_cpu_has_clmul(void) { return 0; }

vd_gf128 vd_gf128_dot_clmul(const vd_gf128 *a, const vd_gf128 *b, size_t n) {
    (void)a; (void)b; (void)n;
    vd_gf128 zero = { 0, 0 };
    return zero;
}


vd_gf128 vd_gf128_bind_steps_clmul(const uint32_t *indexes, size_t n, const vd_quad_step *steps, const vd_gf128 *values,
                                   const vd_gf128 *eqg, const vd_gf128 *eqh0, const vd_gf128 *eqh1) {
    (void)indexes; (void)n; (void)steps; (void)values; (void)eqg; (void)eqh0; (void)eqh1;
    vd_gf128 zero = { 0, 0 };
    return zero;
}

vd_gf128 vd_gf128_mul_clmul(vd_gf128 a, vd_gf128 b) {
    (void)a; (void)b;
    vd_gf128 zero = { 0, 0 };
    return zero;
}

#endif

/* CIOS Montgomery multiplication; -p^-1 mod 2^64 is 1 because p = -1 mod 2^64. */
void vd_fp256_montgomery_multiply(const uint64_t a[4], const uint64_t b[4], uint64_t out[4]) {
    static const uint64_t p[4] = {0xFFFFFFFFFFFFFFFFull, 0x00000000FFFFFFFFull, 0, 0xFFFFFFFF00000001ull};
    uint64_t t[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        unsigned __int128 carry = 0;
        for (int j = 0; j < 4; j++) {
            carry += (unsigned __int128)a[j] * b[i] + t[j];
            t[j] = (uint64_t)carry;
            carry >>= 64;
        }
        carry += t[4];
        t[4] = (uint64_t)carry;
        t[5] = (uint64_t)(carry >> 64);
        const uint64_t m = t[0];
        carry = (unsigned __int128)m * p[0] + t[0];
        carry >>= 64;
        for (int j = 1; j < 4; j++) {
            carry += (unsigned __int128)m * p[j] + t[j];
            t[j - 1] = (uint64_t)carry;
            carry >>= 64;
        }
        carry += t[4];
        t[3] = (uint64_t)carry;
        t[4] = t[5] + (uint64_t)(carry >> 64);
    }
    /* Subtract p once when the result is p or more (t[4] set, or t[0..3] >= p). */
    uint64_t r[4];
    unsigned __int128 borrow = 0;
    for (int j = 0; j < 4; j++) {
        unsigned __int128 d = (unsigned __int128)t[j] - p[j] - (uint64_t)borrow;
        r[j] = (uint64_t)d;
        borrow = (d >> 64) & 1;
    }
    const int use_reduced = t[4] != 0 || borrow == 0;
    for (int j = 0; j < 4; j++) out[j] = use_reduced ? r[j] : t[j];
}
