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

/* The equality table's doubling passes, in place from the back: for each variable v (last first), t'[2i+1] = t[i]·v
   and t'[2i] = t[i] + t'[2i+1] (characteristic 2: minus is plus). table holds 1 << nvars entries. */
__attribute__((target("pclmul,sse4.1")))
void vd_gf128_eq_table_clmul(vd_gf128 *table, const vd_gf128 *variables, size_t nvars) {
    size_t size = 1;
    for (size_t k = nvars; k-- > 0;) {
        const __m128i v = load(variables[k]);
        for (size_t i = size; i-- > 0;) {
            __m128i l, h;
            const __m128i t = load(table[i]);
            product256(t, v, &l, &h);
            const __m128i high = reduce256(l, h);
            table[2 * i] = store(_mm_xor_si128(t, high));
            table[2 * i + 1] = store(high);
        }
        size *= 2;
    }
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

void vd_gf128_eq_table_clmul(vd_gf128 *table, const vd_gf128 *variables, size_t nvars) {
    (void)table; (void)variables; (void)nvars;
}

#endif

/* CIOS Montgomery multiplication, unrolled for p = 2^256 − 2^224 + 2^192 + 2^96 − 1: −p^-1 mod 2^64 is 1 (p is −1 mod
   2^64), so each round's m is the low word itself; m·p0 + t0 = m·2^64 (the low word becomes 0, m carries); p2 is 0.
   Two products per round instead of four. */
void vd_fp256_montgomery_multiply(const uint64_t a[4], const uint64_t b[4], uint64_t out[4]) {
    static const uint64_t p[4] = {0xFFFFFFFFFFFFFFFFull, 0x00000000FFFFFFFFull, 0, 0xFFFFFFFF00000001ull};
    typedef unsigned __int128 u128;
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0;
    for (int i = 0; i < 4; i++) {
        const uint64_t bi = b[i];
        u128 c = (u128)a[0] * bi + t0;
        t0 = (uint64_t)c;
        c = (c >> 64) + (u128)a[1] * bi + t1;
        t1 = (uint64_t)c;
        c = (c >> 64) + (u128)a[2] * bi + t2;
        t2 = (uint64_t)c;
        c = (c >> 64) + (u128)a[3] * bi + t3;
        t3 = (uint64_t)c;
        c = (c >> 64) + t4;
        t4 = (uint64_t)c;
        const uint64_t t5 = (uint64_t)(c >> 64);
        const uint64_t m = t0;
        c = (u128)m + (u128)m * p[1] + t1;
        t0 = (uint64_t)c;
        c = (c >> 64) + t2;
        t1 = (uint64_t)c;
        c = (c >> 64) + (u128)m * p[3] + t3;
        t2 = (uint64_t)c;
        c = (c >> 64) + t4;
        t3 = (uint64_t)c;
        t4 = t5 + (uint64_t)(c >> 64);
    }
    /* Subtract p once when the result is p or more (t4 set, or t0..t3 >= p). */
    const uint64_t t[4] = {t0, t1, t2, t3};
    uint64_t r[4];
    u128 borrow = 0;
    for (int j = 0; j < 4; j++) {
        u128 d = (u128)t[j] - p[j] - (uint64_t)borrow;
        r[j] = (uint64_t)d;
        borrow = (d >> 64) & 1;
    }
    const int use_reduced = t4 != 0 || borrow == 0;
    for (int j = 0; j < 4; j++) out[j] = use_reduced ? r[j] : t[j];
}

/* (a − b) mod p for a, b below p. */
static inline void fp256_subtract(const uint64_t a[4], const uint64_t b[4], uint64_t out[4]) {
    static const uint64_t p[4] = {0xFFFFFFFFFFFFFFFFull, 0x00000000FFFFFFFFull, 0, 0xFFFFFFFF00000001ull};
    uint64_t d[4];
    unsigned __int128 borrow = 0;
    for (int j = 0; j < 4; j++) {
        unsigned __int128 x = (unsigned __int128)a[j] - b[j] - (uint64_t)borrow;
        d[j] = (uint64_t)x;
        borrow = (x >> 64) & 1;
    }
    /* Add p back when it went below zero (mask, no branch on the values). */
    const uint64_t mask = (uint64_t)0 - (uint64_t)borrow;
    unsigned __int128 carry = 0;
    for (int j = 0; j < 4; j++) {
        carry += (unsigned __int128)d[j] + (p[j] & mask);
        out[j] = (uint64_t)carry;
        carry >>= 64;
    }
}

void vd_fp256_eq_table(uint64_t *table, const uint64_t *variables, size_t nvars) {
    size_t size = 1;
    for (size_t k = nvars; k-- > 0;) {
        const uint64_t *v = variables + 4 * k;
        for (size_t i = size; i-- > 0;) {
            uint64_t t[4] = {table[4 * i], table[4 * i + 1], table[4 * i + 2], table[4 * i + 3]};
            uint64_t high[4], low[4];
            vd_fp256_montgomery_multiply(t, v, high);
            fp256_subtract(t, high, low);
            for (int j = 0; j < 4; j++) {
                table[8 * i + j] = low[j];
                table[8 * i + 4 + j] = high[j];
            }
        }
        size *= 2;
    }
}

/* (a + b) mod p for a, b below p. */
static inline void fp256_add(const uint64_t a[4], const uint64_t b[4], uint64_t out[4]) {
    static const uint64_t p[4] = {0xFFFFFFFFFFFFFFFFull, 0x00000000FFFFFFFFull, 0, 0xFFFFFFFF00000001ull};
    uint64_t s[4], r[4];
    unsigned __int128 carry = 0;
    for (int j = 0; j < 4; j++) {
        carry += (unsigned __int128)a[j] + b[j];
        s[j] = (uint64_t)carry;
        carry >>= 64;
    }
    unsigned __int128 borrow = 0;
    for (int j = 0; j < 4; j++) {
        unsigned __int128 d = (unsigned __int128)s[j] - p[j] - (uint64_t)borrow;
        r[j] = (uint64_t)d;
        borrow = (d >> 64) & 1;
    }
    const int use_reduced = carry != 0 || borrow == 0;
    for (int j = 0; j < 4; j++) out[j] = use_reduced ? r[j] : s[j];
}

void vd_fp256_dot(const uint64_t *a, const uint64_t *b, size_t n, uint64_t out[4]) {
    uint64_t sum[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        uint64_t product[4];
        vd_fp256_montgomery_multiply(a + 4 * i, b + 4 * i, product);
        fp256_add(sum, product, sum);
    }
    for (int j = 0; j < 4; j++) out[j] = sum[j];
}
