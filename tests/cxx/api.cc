// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
//
// tierpol from C++ (make check-cxx): a program that includes the umbrella
// header, calls every object's API the way a C++ daemon would, and checks
// what it gets back. Built as C++11 and C++17 with g++ and clang++, linked
// against the static library and against the shared one, and run: it
// fails to link if a header lacks its extern "C" guard, and fails its
// checks if the C++ view of a structure differs from the library's.
//
// Notes for C++ callers that this program demonstrates:
//  - struct tp_node and struct tp_node_cpu are cache-line aligned: keep them
//    in static storage, on the stack, in an aligned member, or allocate them
//    with C++17's aligned new; a C++11 std::vector does not align them.
//  - No designated initializers before C++20: value-initialise a
//    configuration ({}), then set .sz and the fields, or use the presets.
#include <tierpol/tierpol.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <thread>

namespace {

int failures;
int checks;

void check(bool ok, const char *what, int line)
{
	checks++;
	if (!ok) {
		std::fprintf(stderr, "tests/cxx/api.cc:%d: check failed: %s\n",
			     line, what);
		failures++;
	}
}

#define CHECK(x) check((x), #x, __LINE__)

bool same(const char *a, const char *b)
{
	return a && b && !std::strcmp(a, b);
}

// Clock: milliseconds.
constexpr uint32_t TPS = 1000;

void names_and_version()
{
	CHECK(tp_version() == TP_VERSION_NUMBER);
	CHECK(same(tp_version_string(), TP_VERSION_STRING));
	CHECK(TP_VERSION_MAJOR == 1);

	CHECK(same(tp_verdict_name(TP_PROMOTE), "promote"));
	CHECK(same(tp_verdict_name(TP_REFUSE_BUSY), "refuse-busy"));
	CHECK(same(tp_verdict_name(TP_NR_VERDICTS), "(unknown verdict)"));
	CHECK(same(tp_verdict_name(-1), "(unknown verdict)"));
	for (int v = 0; v < TP_NR_VERDICTS; v++)
		for (int w = 0; w < v; w++)
			CHECK(!same(tp_verdict_name(v), tp_verdict_name(w)));

	CHECK(same(tp_strerror(0), "success"));
	CHECK(same(tp_strerror(-EINVAL), "invalid argument"));
	CHECK(same(tp_strerror(EINVAL), "invalid argument"));
	CHECK(same(tp_strerror(-ERANGE), "value out of range"));
	CHECK(same(tp_strerror(-12345), "unknown error"));
}

// A fast node with room for the free-space bypass, or without.
tp_node_mem node_mem(uint64_t free_pages)
{
	tp_node_mem m{};

	m.free = free_pages;
	m.wmark_min = 100;
	m.wmark_low = 500;
	m.wmark_high = 1000;
	m.wmark_promo = 0;	// a kernel before 6.1: the high one stands in
	m.present = 1ULL << 22;
	return m;
}

tp_fault fault(uint64_t latency, uint32_t flags = 0)
{
	tp_fault f{};

	f.latency = latency;
	f.nr_pages = 1;
	f.flags = flags;
	return f;
}

// Two threads decide on one node, each with its own slot; the statistics
// fold both slots.
void policy_node_slots()
{
	tp_policy_cfg cfg{};
	tp_policy pol;
	tp_node node;
	tp_node_cpu slot[2];	// one per thread; zero-filled is ready
	const int per_thread = 20000;

	std::memset(slot, 0, sizeof(slot));
	CHECK(tp_policy_preset(&cfg, TP_PRESET_LINUX61, TPS) == 0);
	CHECK(cfg.sz == sizeof(cfg));
	CHECK(tp_policy_init(nullptr, &cfg) == -EINVAL);
	CHECK(tp_policy_init(&pol, &cfg) == 0);
	CHECK(tp_node_init(&node, &pol, 0) == 0);

	tp_policy_cfg bad = cfg;
	bad.sz = 4;
	CHECK(tp_policy_tune(&pol, &bad) == -EINVAL);
	bad = cfg;
	bad.mode = 4;
	CHECK(tp_policy_tune(&pol, &bad) == -EINVAL);

	// Plenty of room: every fault takes the free-space bypass.
	const tp_node_mem roomy = node_mem(1ULL << 21);
	std::thread t[2];
	int promoted_nrl[2] = { 0, 0 };

	for (int i = 0; i < 2; i++)
		t[i] = std::thread([&, i] {
			for (int k = 0; k < per_thread; k++) {
				tp_fault f = fault(5000);
				int v = tp_decide(&pol, &node, &slot[i], &f,
						  &roomy, 1000 + k);
				if (v == TP_PROMOTE_NRL)
					promoted_nrl[i]++;
			}
		});
	for (auto &th : t)
		th.join();
	CHECK(promoted_nrl[0] == per_thread && promoted_nrl[1] == per_thread);

	// No room for the bypass: the hotness check and the limiter decide.
	const tp_node_mem tight = node_mem(5000);
	tp_fault cold = fault(5000), hot = fault(10);
	tp_fault top = fault(10, TP_FAULT_TOPTIER);

	CHECK(tp_decide(&pol, &node, &slot[0], &cold, &tight, 30000) ==
	      TP_REFUSE_COLD);
	CHECK(tp_decide(&pol, &node, &slot[0], &hot, &tight, 30001) ==
	      TP_PROMOTE);
	CHECK(tp_decide(&pol, &node, &slot[1], &top, &tight, 30002) ==
	      TP_REFUSE_TOPTIER);
	CHECK(tp_verdict_promotes(TP_PROMOTE) && !tp_verdict_promotes(
		TP_REFUSE_COLD));

	// Bad per-call input is refused and not counted.
	tp_fault empty = fault(10);
	empty.nr_pages = 0;
	CHECK(tp_decide(&pol, &node, &slot[0], &empty, &tight, 30003) ==
	      -EINVAL);

	// A rate limit of 0 refuses every candidate (the sysctl's meaning).
	cfg.rate_limit_mbps = 0;
	CHECK(tp_policy_tune(&pol, &cfg) == 0);
	CHECK(tp_decide(&pol, &node, &slot[1], &hot, &tight, 31000) ==
	      TP_REFUSE_RATELIMIT);

	// Tiering off, then on again: refused by mode, then reset the node.
	cfg.mode = TP_MODE_DISABLED;
	CHECK(tp_policy_tune(&pol, &cfg) == 0);
	CHECK(tp_decide(&pol, &node, &slot[0], &hot, &tight, 32000) ==
	      TP_REFUSE_MODE);
	cfg.mode = TP_MODE_TIERING;
	cfg.rate_limit_mbps = TP_DEFAULT_PROMOTE_RATE_LIMIT_MBPS;
	CHECK(tp_policy_tune(&pol, &cfg) == 0);
	tp_node_reset(&node, 33000);
	CHECK(tp_decide(&pol, &node, &slot[0], &hot, &tight, 33001) ==
	      TP_PROMOTE);

	tp_node_stats s;	// a type name of its own in C++
	tp_node_stats_read(&pol, &node, &s);
	for (const tp_node_cpu &c : slot)
		tp_node_stats_add(&s, &c);

	uint64_t sum = 0;
	for (uint64_t n : s.verdict)
		sum += n;
	CHECK(s.decided == 2 * per_thread + 6);
	CHECK(sum == s.decided);
	CHECK(s.verdict[TP_PROMOTE_NRL] == 2 * per_thread);
	CHECK(s.verdict[TP_PROMOTE] == 2);
	CHECK(s.verdict[TP_REFUSE_COLD] == 1);
	CHECK(s.verdict[TP_REFUSE_TOPTIER] == 1);
	CHECK(s.verdict[TP_REFUSE_RATELIMIT] == 1);
	CHECK(s.verdict[TP_REFUSE_MODE] == 1);
	CHECK(s.success == 2 * per_thread + 2);
	CHECK(s.candidate_nrl == 2 * per_thread);
	CHECK(s.candidate == 3);	// two promoted, one rate limited
	CHECK(s.threshold == 1000);	// 1000 ms in ms ticks, not adjusted

	// The demotion target without a promo watermark: the high one.
	CHECK(tp_demotion_target(&pol, &tight) == 1000);
	CHECK(tp_wmark_promo(100, 1000, 1ULL << 20, 10) == 1000 + 1048);

	// 6.1's bypass: free > promo + max(1 GiB, present / 16), strictly.
	CHECK(tp_free_space_enough(&pol, &roomy));
	CHECK(!tp_free_space_enough(&pol, &tight));
	tp_node_mem edge = node_mem(1000 + (1ULL << 18));
	CHECK(!tp_free_space_enough(&pol, &edge));
	edge.free++;
	CHECK(tp_free_space_enough(&pol, &edge));
	// migrate_balanced_pgdat(): free > high + nr.
	CHECK(tp_promote_room(&tight, 3999));
	CHECK(!tp_promote_room(&tight, 4000));
	// Tiering mode scans only the slow tier's pages.
	CHECK(tp_scan_wanted(&pol, false) && !tp_scan_wanted(&pol, true));
}

// The pseudo-interleaving rules for NUMA groups (Linux 3.15 and 6.1).
void groups()
{
	const unsigned long one[1] = { 1UL << 1 };		// node 1
	const unsigned long two[1] = { (1UL << 1) | (1UL << 2) };
	tp_group_fault f{};

	f.cpu_node = 1;
	f.mem_node = 2;
	f.in_group = true;	// shared (priv false), within the active nodes
	CHECK(tp_group_fault_local(TP_GROUP_LINUX315, &f, two, 64));
	CHECK(tp_group_fault_local(TP_GROUP_LINUX61, &f, two, 64));
	// 6.1 also needs more than one active node.
	f.mem_node = 1;
	CHECK(tp_group_fault_local(TP_GROUP_LINUX315, &f, one, 64));
	CHECK(!tp_group_fault_local(TP_GROUP_LINUX61, &f, one, 64));
	f.mem_node = 3;		// outside the active nodes
	CHECK(!tp_group_fault_local(TP_GROUP_LINUX315, &f, two, 64));

	// 3.15: the destination only if it is an active node; 6.1: the best
	// CPU's node, or the source when none was found.
	CHECK(tp_preferred_node(TP_GROUP_LINUX315, true, 2, 0, two, 64) == 2);
	CHECK(tp_preferred_node(TP_GROUP_LINUX315, true, 3, 0, two, 64) == -1);
	CHECK(tp_preferred_node(TP_GROUP_LINUX61, true, 3, 0, two, 64) == 3);
	CHECK(tp_preferred_node(TP_GROUP_LINUX61, true, -1, 0, two, 64) == 0);
	CHECK(tp_preferred_node(TP_GROUP_LINUX61, false, 3, 0, two, 64) == -1);

	// min(1 s, scan period / 16), never 0.
	CHECK(tp_migrate_retry_interval(160, TPS) == 10);
	CHECK(tp_migrate_retry_interval(60000, TPS) == TPS);
	CHECK(tp_migrate_retry_interval(5, TPS) == 1);
}

void scan_ring()
{
	tp_scan_ring_cfg cfg{};
	tp_scan_ring ring;
	tp_scan_pass hist[TP_DEFAULT_RING_DEPTH];
	uint64_t lat = 0;

	cfg.sz = sizeof(cfg);
	cfg.depth = TP_DEFAULT_RING_DEPTH;
	CHECK(tp_scan_ring_init(&ring, &cfg, hist, 8) == -EINVAL);
	CHECK(tp_scan_ring_init(&ring, &cfg, hist, TP_DEFAULT_RING_DEPTH) == 0);
	CHECK(tp_scan_ring_depth(&ring) == TP_DEFAULT_RING_DEPTH);
	CHECK(tp_scan_ring_latency(&ring, 0x2000, 150, &lat) == -ENOENT);

	tp_scan_ring_record(&ring, 0x1000, 100);
	tp_scan_ring_advance(&ring, 0x5000);
	tp_scan_ring_record(&ring, 0x5000, 200);
	tp_scan_ring_advance(&ring, 0x9000);
	CHECK(tp_scan_ring_latency(&ring, 0x2000, 250, &lat) == TP_LAT_EXACT);
	CHECK(lat == 150);
	CHECK(tp_scan_ring_latency(&ring, 0x6000, 250, &lat) == TP_LAT_EXACT);
	CHECK(lat == 50);

	// A reset forgets the history.
	tp_scan_ring_reset(&ring);
	CHECK(tp_scan_ring_latency(&ring, 0x2000, 300, &lat) == -ENOENT);
}

void limiter()
{
	tp_limiter_cfg cfg{};
	tp_limiter l;
	tp_limiter_cpu cpu{};

	// A token bucket: 100 pages/s, burst 10, starts full.
	cfg.sz = sizeof(cfg);
	cfg.variant = TP_LIMITER_BUCKET;
	cfg.tps = TPS;
	cfg.rate = 100;
	cfg.burst = 10;
	CHECK(tp_limiter_init(&l, &cfg, 0) == 0);
	CHECK(tp_limiter_available(&l, 0) == 10);
	CHECK(tp_limiter_consume(&l, &cpu, 10, 0));
	CHECK(!tp_limiter_consume(&l, &cpu, 1, 0));
	CHECK(tp_limiter_consume(&l, &cpu, 1, 11));	// one page per 10 ms
	CHECK(tp_limiter_busy(&cpu) == 0);

	// The 2020 RFC's window, 5 pages per second: the request that opens a
	// window is not counted against it (as in the kernel), then 5 more.
	cfg.variant = TP_LIMITER_WINDOW_RFC2020;
	cfg.rate = 5;
	cfg.burst = 0;
	CHECK(tp_limiter_tune(&l, &cfg) == 0);
	int admitted = 0;
	for (int i = 0; i < 8; i++)
		admitted += tp_limiter_consume(&l, &cpu, 1, 2000);
	CHECK(admitted == 6);
	CHECK(tp_limiter_consume(&l, &cpu, 1, 3001));	// a new window

	cfg.tps = TPS * 2;	// the clock cannot change
	CHECK(tp_limiter_tune(&l, &cfg) == -EINVAL);
	CHECK(tp_mbps_to_pages(1, 12) == 256);
}

void threshold()
{
	tp_thresh_cfg cfg{};
	tp_thresh t;

	cfg.sz = sizeof(cfg);
	cfg.variant = TP_THRESH_LINUX61;
	cfg.tps = TPS;
	cfg.ref_th = 1000;
	cfg.period = 1000;
	cfg.rate_limit = 100;
	CHECK(tp_thresh_init(&t, &cfg, 0, 0) == 0);
	CHECK(tp_thresh_get(&t) == 1000);
	CHECK(tp_thresh_update(&t, 0, 500) == TP_TH_IDLE);
	// No candidates in a period: too few, raised one step (2 x 1000 / 16).
	CHECK(tp_thresh_update(&t, 0, 1001) == TP_TH_RAISED);
	CHECK(tp_thresh_get(&t) == 1125);
	tp_thresh_reset(&t, true, 0, 2000);
	CHECK(tp_thresh_get(&t) == 1000);

	// A tune moves the reference; the clock cannot change.
	cfg.ref_th = 500;
	CHECK(tp_thresh_tune(&t, &cfg) == 0);
	CHECK(tp_thresh_get(&t) == 500);
	cfg.tps = TPS * 2;
	CHECK(tp_thresh_tune(&t, &cfg) == -EINVAL);
	CHECK(tp_thresh_get(&t) == 500);

	// The capacity-fitted (histogram) variant: with every fault at 10 ms
	// and far more of them than the budget (100 pages a second), the
	// fitted threshold falls to its lower bound, 2 x 1000 / 16.
	tp_thresh_cfg hcfg{};
	tp_thresh h;
	tp_thresh_cpu slot{};	// zero-filled is ready

	hcfg.sz = sizeof(hcfg);
	hcfg.variant = TP_THRESH_HISTOGRAM;
	hcfg.tps = TPS;
	hcfg.ref_th = 1000;
	hcfg.period = 1000;
	hcfg.rate_limit = 100;
	CHECK(tp_thresh_init(&h, &hcfg, 0, 0) == 0);
	for (int i = 0; i < 1000; i++)
		tp_thresh_record(&h, &slot, 10, 1);
	CHECK(tp_thresh_update(&h, 1000, 1001) == TP_TH_LOWERED);
	CHECK(tp_thresh_get(&h) == 125);
}

// The DAMOS feedback step: next = last x (1 + (goal - metric) / goal), moved
// by a factor of 2 up or 1/2 down at most, clamped into [min, max].
void goal()
{
	tp_goal_cfg cfg{};
	tp_goal g;

	cfg.sz = sizeof(cfg);
	cfg.goal = 100;
	cfg.min = 10;
	cfg.max = 1000;
	cfg.init = 100;
	CHECK(tp_goal_init(&g, &cfg) == 0);
	CHECK(tp_goal_get(&g) == 100);
	CHECK(tp_goal_update(&g, 50) == 150);	// half the goal: x 1.5
	CHECK(tp_goal_update(&g, 100) == 150);	// at the goal: kept
	CHECK(tp_goal_update(&g, 0) == 300);	// nothing: doubled
	// Far above: halved, the step's bound (DAMOS would drop to the
	// minimum), down to the minimum at most.
	CHECK(tp_goal_update(&g, 1000) == 150);
	CHECK(tp_goal_update(&g, 1000) == 75);
	cfg.min = 2000;		// above max: refused, nothing changes
	CHECK(tp_goal_tune(&g, &cfg) == -EINVAL);
	CHECK(tp_goal_get(&g) == 75);
	cfg.min = 200;
	CHECK(tp_goal_tune(&g, &cfg) == 0);
	CHECK(tp_goal_get(&g) == 200);		// clamped into the new bounds
}

// pghot's records and the fault-count clock.
void hotness_and_fault_clock()
{
	tp_hot_cfg cfg{};
	tp_hot h;

	cfg.sz = sizeof(cfg);
	cfg.format = TP_HOT_PRECISE;
	cfg.tps = TPS;
	CHECK(tp_hot_init(&h, &cfg) == 0);	// 2 accesses within 3 s
	uint32_t rec = tp_hot_record(&h, 0, 5, 100);
	CHECK(!tp_hot_ready(&h, rec) && tp_hot_count(&h, rec) == 1);
	rec = tp_hot_record(&h, rec, 5, 2000);
	CHECK(tp_hot_ready(&h, rec) && tp_hot_count(&h, rec) == 2);
	CHECK(tp_hot_nid(&h, rec) == 5);
	CHECK(!tp_hot_expired(&h, rec, 3000));
	CHECK(tp_hot_expired(&h, rec, 9000));

	uint32_t shared = 0;
	CHECK(!tp_hot_record32(&h, &shared, 1, 100));
	CHECK(tp_hot_record32(&h, &shared, 1, 200));

	cfg.freq_threshold = 8;		// the precise count stops at 7
	CHECK(tp_hot_init(&h, &cfg) == -EINVAL);

	tp_fault_clock clk;
	tp_fault_clock_cpu cpu[2] = {};	// zero-filled is ready

	CHECK(tp_fault_clock_init(&clk, TP_CAND_BATCH_MAX + 1) == -EINVAL);
	CHECK(tp_fault_clock_init(&clk, 4) == 0);
	CHECK(tp_fault_clock_tick(&clk, &cpu[0], 3) == 0);	// in the slot
	CHECK(tp_fault_clock_tick(&clk, &cpu[1], 1) == 0);
	CHECK(tp_fault_clock_tick(&clk, &cpu[0], 1) == 4);	// a batch added
	CHECK(tp_fault_clock_now(&clk) == 4);
	CHECK(tp_fault_clock_tick(&clk, &cpu[0], ~0ULL) == 4);	// ignored
}

void atime_and_vma()
{
	tp_atime_cfg acfg{};
	tp_atime fmt;
	uint32_t stamp = 0;

	acfg.sz = sizeof(acfg);
	CHECK(tp_atime_init(&fmt, &acfg) == 0);
	tp_atime_xchg(&fmt, &stamp, 100);
	CHECK(tp_atime_fault(&fmt, &stamp, 350) == 250);
	CHECK(tp_atime_span(&fmt) == 1ULL << TP_ATIME_DEFAULT_BITS);

	tp_vma_profile_cfg vcfg{};
	tp_vma_profile prof;
	tp_vma_scan v;
	tp_vma_facts f{};

	vcfg.sz = sizeof(vcfg);
	vcfg.filter = TP_VMA_FILTER_NONE;
	vcfg.tps = TPS;
	CHECK(tp_vma_profile_init(&prof, &vcfg) == 0);
	tp_vma_scan_init(&v, &prof, 0, 0);
	f.vma_start = 0x10000;
	f.vma_end = 0x20000;
	int verdict = tp_vma_scan_check(&v, &prof, &f, 5000);
	CHECK(verdict == TP_VMA_SCAN_ALL && tp_vma_verdict_scans(verdict));
	f.vma_end = f.vma_start;
	CHECK(tp_vma_scan_check(&v, &prof, &f, 5000) == -EINVAL);
	CHECK(tp_vma_scan_ratelimit(4096) == 9);

	// Linux 6.4's PID filter: past the first two scan sequences a VMA is
	// scanned for the tasks that accessed it.
	vcfg.filter = TP_VMA_FILTER_PID;
	CHECK(tp_vma_profile_init(&prof, &vcfg) == 0);
	tp_vma_scan_init(&v, &prof, 0, 0);
	f.vma_end = 0x20000;
	f.scan_seq = 5;
	f.nr_threads = 64;
	f.pid = 42;
	CHECK(tp_vma_scan_check(&v, &prof, &f, 5000) == TP_VMA_SKIP_INACTIVE);
	tp_vma_scan_note(&v, 42);
	verdict = tp_vma_scan_check(&v, &prof, &f, 5001);
	CHECK(verdict == TP_VMA_SCAN_ACCESSED);
	tp_vma_scan_done(&v, 5);
}

} // namespace

int main()
{
	names_and_version();
	policy_node_slots();
	scan_ring();
	limiter();
	threshold();
	goal();
	hotness_and_fault_clock();
	groups();
	atime_and_vma();

	if (failures) {
		std::fprintf(stderr, "cxx api: %d of %d checks failed\n",
			     failures, checks);
		return 1;
	}
	std::printf("cxx api: %d checks passed (C++%ld, tierpol %s)\n", checks,
		    __cplusplus / 100 % 100, tp_version_string());
	return 0;
}
