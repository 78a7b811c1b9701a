#include "CLongfellowCLMUL.h"

#if defined(__x86_64__)
#include <immintrin.h>

int vd_cpu_has_clmul(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("pclmul") ? 1 : 0;
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

vd_gf128 vd_gf128_mul_clmul(vd_gf128 a, vd_gf128 b) {
    (void)a; (void)b;
    vd_gf128 zero = { 0, 0 };
    return zero;
}

#endif
