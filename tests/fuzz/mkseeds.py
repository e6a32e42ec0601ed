#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Writes the hand-made seeds of tests/fuzz/corpus/fuzz_api/ (run from the
# repository root). Each seed is a program in fuzz_api.c's encoding: an
# opcode byte (op % 8: clock, ring, limiter, threshold, policy, atime, vma,
# helpers), a sub-opcode byte, then the operands; value() reads a selector
# byte first (0/1: 1 byte, 2: 2 bytes, 3/4: an edge value, 5: edge + s8,
# 6: 4 bytes, 7: 8 bytes). A configuration ends with pick_sz()'s selector
# (SZ: its own size). The regress-* seeds replay fixed bugs.
import os
out = 'tests/fuzz/corpus/fuzz_api'
SZ = [4]
def le(x, n): return list((x & ((1 << (8*n)) - 1)).to_bytes(n, 'little'))
def v8(x): return [0, x & 0xff]
def v16(x): return [2] + le(x, 2)
def v32(x): return [6] + le(x, 4)
def v64(x): return [7] + le(x, 8)
def v32f(x): return v32(x) + [0]          # value32(): one extra selector byte
def clock_small(d): return [0, 0, 0, d & 0xff]
def clock_med(d): return [0, 0, 2] + le(d, 3)
def clock_big(d): return [0, 0, 3] + le(d, 5)
def clock_back(d): return [0, 0, 4] + le(d, 2)
def clock_w32(d): return [0, 0, 5] + le(d, 2)
def clock_w64(d): return [0, 0, 6] + le(d, 2)
def clock_set(t): return [0, 0, 7] + v64(t)
# ring: depth 2^pow2, the whole pass array
def ring_init(pow2, limit): return [1, 0, 1, pow2] + v64(limit) + [0] + SZ
def ring_record(start): return [1, 1] + v64(start)
def ring_adv(delta): return [1, 3, 0] + le(delta, 3)
def ring_adv_abs(off): return [1, 3, 1] + v64(off)
def ring_lat(addr): return [1, 7, 1] + v64(addr)
def ring_lat_near(slot, d): return [1, 7, 0] + le(slot, 2) + le(d, 2)
def ring_reset(): return [1, 5, 0]
# limiter: variant small; tps: init take3 + 1, tune the init's (None) or
# another; then rate, burst, batch, sz
def tps3(sub, tps):
	if sub == 1 and tps is None: return [0]
	if tps - 1 >= 1 << 24: return [0xc0 if sub == 1 else 0x80] + v32f(tps)
	return ([0x40] if sub == 1 else [0]) + le(tps - 1, 3)
def lim_cfg(sub, variant, tps, rate, burst, batch=0):
	return [2, sub, 0, variant] + tps3(sub, tps) + v64(rate) + v64(burst) + [batch & 0x7f] + SZ
def lim_consume(kind, extra=[], slot=False): return [2, 3, kind | (0x80 if slot else 0)] + extra
def lim_avail(): return [2, 2]
# thresh: tps init take2 + 1, tune the init's (None) or another
def tps2(sub, tps):
	if sub == 1 and tps is None: return [0]
	return ([0x40] if sub == 1 else [0]) + le(tps - 1, 2)
def th_cfg(sub, variant, steps, tps, ref, period, rate):
	return [3, sub, 0, variant, 0, steps] + tps2(sub, tps) + v64(ref) + v64(period) + v64(rate) + SZ
def th_update(mode, extra): return [3, 3, mode] + extra
def th_reset(rearm): return [3, 2, rearm]
# policy: a preset, then mutations [index] + operands (index % 14)
def pol_init(sub, preset, tps, mutations=[]):
	b = [4, sub, preset] + le(tps - 1, 2)
	for m in mutations: b += [1] + m
	return b + [0]
def decide(pages_kind, lat_kind, lat, flags, mem, slot=0):
	return [4, 2, pages_kind | (slot << 7), lat_kind] + lat + [flags] + mem
def decide_n(n, lat, flags, mem):	# a folio of n pages (value())
	return [4, 2, 4] + v64(n) + [2] + le(lat, 2) + [0] + [flags] + mem
def mem_ordered(wmin, dl, dh, dp, present, free_sel, free, promo=True):
	return [2 if promo else 1] + le(wmin, 2) + [dl] + le(dh, 2) + le(dp, 2) + v64(present) + [free_sel] + free
def helpers(sub, rest): return [7, sub] + rest
# atime / vma
def at_init(bits, shift): return [5, 0, 0, bits, 0, shift] + SZ
def at_xchg(): return [5, 1]
def at_fault(): return [5, 2]
def vma_prof(filt, tps, delay): return [6, 0, 0, filt, 0] + le(tps - 1, 2) + v64(delay) + SZ
def vma_init(seq): return [6, 1] + v32f(seq)
def vma_note(pid): return [6, 2] + v32f(pid)
def vma_check(start, size, off, seq, thr, pid, forced):
	return [6, 5] + v64(start) + [0] + le(size, 4) + v64(off) + v32f(seq) + v32f(thr) + v32f(pid) + [forced]
def vma_done(seq): return [6, 3] + v32f(seq)

seeds = {}
b = v64(2**64 - 5000) + ring_init(4, 2**47)
for i in range(40):
	b += ring_record(i * 0x100000 % 2**47) + clock_small(7) + ring_adv(0x80000) + ring_lat(i * 0x100000 + 5) + ring_lat_near(i, 3)
	if i % 13 == 12: b += ring_adv_abs(0)
b += ring_reset() + ring_lat(5)
seeds['ring-wrap64'] = b
b = v64(0xffffffff - 3000) + lim_cfg(0, 0, 1000, 1000, 100)
for i in range(60): b += lim_consume(0) + lim_consume(1) + lim_consume(2, le(37, 2)) + clock_small(3) + lim_avail()
b += lim_cfg(1, 0, None, 5000, 0) + clock_back(500)
for i in range(20): b += lim_consume(2, le(300, 2)) + clock_small(50)
seeds['bucket-wrap32'] = b
for v in (1, 2):
	b = v64(2**64 - 2500) + lim_cfg(0, v, 1000, 200, 0, 8)
	for i in range(80): b += lim_consume(2, le(60, 2), i & 1) + clock_small(40) + lim_avail()
	b += lim_cfg(1, v, None, 0, 0)
	for i in range(20): b += lim_consume(0) + clock_med(700)
	seeds['window%d-wrap64' % v] = b
# THPs above the burst at 256 pages/s, then n_max at a full bucket
b = v64(5) + lim_cfg(0, 0, 1000, 256, 0)
for i in range(120): b += lim_consume(1) + clock_small(250) + clock_small(250)
b += lim_cfg(1, 0, None, 1000, 10) + clock_med(10000) + lim_consume(3, v64(2**22 + 1)) + lim_consume(3, v64(2**22))
seeds['bucket-thp'] = b
# the variant switched under a live state, slots with a batch
b = v64(2**32 - 7000) + lim_cfg(0, 0, 1000, 500, 0, 4)
for i in range(90):
	b += lim_consume(2, le(7 + i % 50, 2), i & 1) + clock_small(17 * (i % 7))
	if i % 9 == 8: b += lim_cfg(1, (i // 9) % 3, None, 500 + 100 * (i % 2), 0, 4 + i % 3)
b += lim_cfg(1, 0, 999, 500, 0)		# another clock: -EINVAL
seeds['limiter-switch'] = b
# idle gaps around the stale horizon (2^42 ns) and the units' alias (2^45)
t = 2**63 - 99
b = v64(t) + lim_cfg(0, 0, 1000000000, 1000003, 0)
for g in (1, 2**30, 2**42 - 9, 2**42 + 9, 2**45, 2**45 - 1000, 2**45 + 10**9, 2**39):
	t = (t + g) % 2**64
	b += clock_set(t) + lim_avail() + lim_consume(0) + lim_consume(2, le(999, 2))
b += lim_cfg(0, 0, 1000000000, 2**32 - 5, 0)
for g in (2**44, 2**45 + 3, 2**46, 2**42):
	t = (t + g) % 2**64
	b += clock_set(t) + lim_avail() + lim_consume(0)
seeds['bucket-idle-gaps'] = b
b = v64(2**32 - 10000) + th_cfg(0, 0, 16, 1000, 1000, 100, 1000)
for i in range(50): b += th_update(1, [250]) + clock_small(101)
for i in range(50): b += th_update(1, [5]) + clock_small(101)
for i in range(20): b += th_update(0, [1, 128]) + clock_small(101)
b += th_cfg(1, 1, 3, None, 2**62, 100, 2**32) + th_reset(1) + th_update(1, [0, 0]) + clock_small(200)
b += th_cfg(1, 1, 1, None, 2**62, 32, 0) + clock_small(40) + th_update(1, [0, 0])
b += th_cfg(1, 0, 1, 1001, 5, 5, 5)	# another clock: -EINVAL
seeds['thresh-wrap32'] = b
# 0 is the kernel's: a reference of 0, a period of 0
b = v64(77) + th_cfg(0, 1, 0, 1000, 0, 0, 1000)
for i in range(20): b += th_update(1, [i * 9]) + clock_small(i % 3)
b += th_cfg(1, 1, 0, None, 1600, 0, 1000)
for i in range(20): b += th_update(1, [i * 9]) + clock_small(1)
b += th_cfg(1, 0, 4, None, 0, 3, 7) + th_reset(0) + clock_small(4) + th_update(1, [1])
seeds['thresh-zero'] = b
for preset in (0, 1):
	b = v64(2**64 - 100000) + pol_init(0, preset, 1000)
	for i in range(60):
		b += decide(i % 5, 2 + (i & 1), le(i * 37, 2) + [3], i * 7 & 0xff,
			    mem_ordered(1000, 250, 300, 1000, 1 << 20, 0, le(0x800000 + (i * 997 % 4000) - 500, 3), i % 7 != 3), i & 1)
		b += clock_small(i * 13 & 0xff)
		if i % 20 == 19: b += pol_init(1, preset, 1000, [[4] + v32f(300)])
	b += helpers(0, mem_ordered(10, 1, 2, 3, 1 << 30, 0, le(5, 3)) + [1])
	b += helpers(2, v64(1000) + v64(3000) + v64(1 << 20) + v32f(10))
	b += helpers(3, v64(100) + v32f(1000))
	b += helpers(4, v32f(8)) + helpers(4, v32f(9)) + helpers(4, v32f(2**32 - 22))
	b += helpers(5, le(130, 2) + v64(5) + v64(0) + v64(2**63) + v32f(3) + v32f(129) + [0, 0, 1, 0] + v32f(2) + [0, 1, 0])
	seeds['decide-%s' % ('rfc2020' if preset == 0 else 'linux61')] = b
# the bucket in the policy, a burst above its capacity, mode switched on
b = v64(3) + pol_init(0, 1, 1000, [[8] + v32f(0), [5] + v32f(1), [10] + v64(300)])
for i in range(40):
	b += decide(3, 2, le(10, 2) + [0], 0, mem_ordered(10, 1, 2, 3, 1 << 20, 0, le(0x800000 + 4000, 3)), i & 1) + clock_small(100)
b += pol_init(1, 1, 1000, [[8] + v32f(0), [5] + v32f(1), [10] + v64(2**32)])	# -ERANGE
b += pol_init(1, 1, 1000, [[0] + v32f(0)]) + pol_init(1, 1, 1000, [[11] + v32f(64)])
b += pol_init(1, 1, 999)	# another clock: -EINVAL
seeds['decide-bucket'] = b
b = v64(12345) + at_init(21, 0) + at_xchg()
for i in range(20): b += clock_med(i * 50000) + at_fault()
b += at_init(8, 20) + clock_med(1 << 22) + at_fault() + at_init(32, 32) + at_fault() + at_init(0, 43) + at_fault()
for f in (0, 1, 2, 3):
	b += vma_prof(f, 1000, 0) + vma_init(0)
	for s in range(8):
		b += vma_note(s * 11) + clock_small(250) + clock_med(1000)
		b += vma_check(0x400000, 4096 << (s * 3), 0x400000 + s, s, 4, s * 11 + (s & 1), s & 1) + vma_done(s)
b += [6, 4] + v64(0) + v32f(1) + [6, 4] + v64(4096) + v32f(77) + [6, 4] + v64(2**40) + v32f(5)
seeds['atime-vma'] = b
# regressions: a folio above 2^32 pages; a sweep whose last pass starts
# above the limit; a threshold step of 2^63; a limiter tuned to TP_TPS_MAX
# (0.1's tune divided by 0)
b = v64(1000) + pol_init(0, 1, 1000)
for n in (2**32 + 1, 2**32, 2**64 - 1, 2**33):
	b += decide_n(n, 1, 0, mem_ordered(10, 1, 2, 3, 1 << 20, 0, le(0x800000 + 4000, 3)))
seeds['regress-decide-huge-folio'] = b
b = v64(2**40) + ring_init(2, 2**47)
for i in range(6): b += ring_record(0xd00000 + i * 0x100000) + ring_adv(0x80000) + clock_small(7)
b += ring_record(0x201030200030000) + ring_adv(0x80000) + clock_small(3)
for a in (0, 0xd00005, 0xe80000, 0x201030200030005, 2**47 - 1, 2**47): b += ring_lat(a)
b += ring_record(0x1100000) + ring_lat(0x1100004) + ring_lat(2**47 - 1)
seeds['regress-ring-run-above-limit'] = b
b = v64(2**40) + th_cfg(0, 1, 1, 1000, 2**62, 10, 1000)
for i in range(6): b += th_update(0, [0, 7, 255, 255, 255, 255, 255, 255, 255, 0x7f]) + clock_small(11)
for i in range(6): b += th_update(1, [0]) + clock_small(11)
seeds['regress-thresh-unit-2p63'] = b
b = v64(99) + lim_cfg(0, 0, 1000, 10, 0) + lim_cfg(1, 0, 2**30, 10, 0) + lim_cfg(1, 0, 1024, 1, 8192) + lim_consume(0)
seeds['regress-limiter-tune-clock'] = b
# a window request of 2^64 - 1 pages wrapped the count back by one page and
# freed the window (now refused, not counted); a tune to a batch of 1 folds
# the pages a larger batch left in the slot (the model once kept them)
b = v64(5000)
for v in (1, 2):
	b += lim_cfg(0, v, 1000, 40, 0, 8) + lim_consume(2, le(30, 2))
	for i in range(4):
		b += lim_consume(3, v64(2**64 - 1), slot=i & 1) + lim_consume(2, le(4, 2)) + clock_small(9)
	b += lim_consume(3, v64(2**32 + 1)) + lim_consume(3, v64(2**32)) + lim_avail()
b += clock_med(5000) + lim_cfg(0, 2, 1000, 100, 0, 64)
for i in range(3): b += lim_consume(2, le(20, 2), slot=True)
b += lim_cfg(1, 2, None, 100, 0, 0) + lim_consume(2, le(5, 2), slot=True)
b += lim_cfg(1, 2, None, 100, 0, 64)
for i in range(8): b += lim_consume(2, le(10, 2), slot=True) + lim_avail()
seeds['regress-window-huge-request'] = b
for k, v in seeds.items():
	open(os.path.join(out, k), 'wb').write(bytes(v))
	print(k, len(v))
