#ifndef VD_LONGFELLOW_CLMUL_H
#define VD_LONGFELLOW_CLMUL_H

#include <stdint.h>

/// 1 when this CPU has carry-less multiplication (x86-64 PCLMULQDQ), else 0; checked once by the caller.
int vd_cpu_has_clmul(void);

/// out = a * b in GF(2^128) = GF(2)[x] / (x^128 + x^7 + x^2 + x + 1), each as two 64-bit words, low word first.
/// Only to be called when vd_cpu_has_clmul() is 1.
void vd_gf128_mul_clmul(const uint64_t a[2], const uint64_t b[2], uint64_t out[2]);

#endif
