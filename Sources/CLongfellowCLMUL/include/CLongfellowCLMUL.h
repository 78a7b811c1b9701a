#ifndef VD_LONGFELLOW_CLMUL_H
#define VD_LONGFELLOW_CLMUL_H

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

#endif
