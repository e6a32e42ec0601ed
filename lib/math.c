// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Slow-path arithmetic and configuration checks shared by the objects:
 * init, tune and once-per-period paths only.
 */
#include "tp_seam.h"

/* The 128-bit product of @a and @b, without libgcc. */
static void mul_64x64(u64 a, u64 b, u64 *hi, u64 *lo)
{
	u64 a0 = (u32)a, a1 = a >> 32, b0 = (u32)b, b1 = b >> 32;
	u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	u64 mid = (p00 >> 32) + (u32)p01 + (u32)p10;

	*lo = (mid << 32) | (u32)p00;
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/*
 * floor(@x * @num / @den), exact for any operands (the kernel's
 * mult_frac() without its overflow), saturating at 2^64 - 1 when the
 * quotient does not fit. @den must not be 0. Restoring division of the
 * 128-bit product, one quotient bit per step: no libgcc, no 128-bit type.
 */
u64 __tp_mul_frac(u64 x, u64 num, u64 den)
{
	u64 hi, lo, q = 0;
	bool carry;
	int i;

	mul_64x64(x, num, &hi, &lo);
	if (hi >= den)
		return TP_U64_MAX;
	/* Invariant: hi < den, the partial remainder. */
	for (i = 63; i >= 0; i--) {
		carry = hi >> 63;
		hi = (hi << 1) | ((lo >> i) & 1);
		if (carry || hi >= den) {
			hi -= den;
			q |= 1ULL << i;
		}
	}
	return q;
}

/* Milliseconds to ticks, rounded up as msecs_to_jiffies(); @ms < 2^32. */
u64 __tp_ms_to_ticks(u64 ms, u32 tps)
{
	return tp_div64_u64(ms * tps + 999, 1000);
}

/* Largest configuration size accepted (anything larger is a bad @sz). */
#define CFG_SZ_MAX	4096U

/*
 * libbpf-style size check of a configuration whose first member is its
 * size: @sz must cover the fields this library knows (@known bytes), and
 * any bytes beyond them, from a newer header, must be zero (a newer caller
 * asking for something this library cannot do is refused, not ignored).
 */
int __tp_cfg_check(const void *cfg, u32 sz, u32 known)
{
	const u8 *p = cfg;
	u32 i;

	if (sz < known || sz > CFG_SZ_MAX)
		return -EINVAL;
	for (i = known; i < sz; i++)
		if (p[i])
			return -EINVAL;
	return 0;
}
