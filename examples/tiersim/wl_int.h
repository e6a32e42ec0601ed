/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tiersim workload generators, internal: the random numbers and integer
 * helpers the set-up (wl.c) and the generators (wl_gen.c) share.
 */
#ifndef _TIERSIM_WL_INT_H
#define _TIERSIM_WL_INT_H

#include "wl.h"

#define GAUSS_BITS	12
#define GAUSS_N		(1U << GAUSS_BITS)

/* The standard normal quantiles at k / GAUSS_N (wl.c, built once). */
extern double wl_gauss_tab[GAUSS_N + 1];

/* A multiplier near n x 0.618 coprime with n: a scattering bijection. */
uint64_t wl_scatter_mult(uint64_t n);

static inline uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rnd(uint64_t *s)
{
	uint64_t r = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

/* The high 64 bits of a 64 x 64-bit product (exact on every target). */
static inline uint64_t mulhi64(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t)(((unsigned __int128)a * b) >> 64);
#else
	uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	uint64_t p0 = al * bl, p1 = al * bh, p2 = ah * bl, p3 = ah * bh;
	uint64_t mid = (p0 >> 32) + (uint32_t)p1 + (uint32_t)p2;

	return p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
#endif
}

/* Uniform in [0, n) from a 64-bit random number. */
static inline uint64_t bounded(uint64_t r, uint64_t n)
{
	return mulhi64(r, n);
}

/* Uniform in [0, n) from 32 random bits, n < 2^32. */
static inline uint32_t bounded32(uint32_t r, uint32_t n)
{
	return (uint32_t)(((uint64_t)r * n) >> 32);
}

/* a * b mod n, exact on every target (32-bit ones have no __int128). */
static inline uint64_t mulmod(uint64_t a, uint64_t b, uint64_t n)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t)(((unsigned __int128)a * b) % n);
#else
	uint64_t r = 0;

	a %= n;
	for (; b; b >>= 1) {
		if (b & 1)
			r = r >= n - a ? r - (n - a) : r + a;
		a = a >= n - a ? a - (n - a) : a + a;
	}
	return r;
#endif
}

#endif /* _TIERSIM_WL_INT_H */
