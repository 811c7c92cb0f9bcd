/*
 * dra_search_fixture.h: the inventory the search tests share: one node, one
 * class ("class-a", driver-a's devices), and builders for an ExactCount
 * request, a firstAvailable one, a claim and a one-node slice (test_dra_search.c,
 * test_dra_devices.c).
 */
#pragma once

#include "dra.h"
#include "dra_fake.h"

G_GNUC_UNUSED static const DraNode node1 = { "node-1", (const char *const[]){ "region" },
	                                     (const char *const[]){ "r1" }, 1 };

static const DraClass class_a = { "class-a", (const char *const[]){ "driver == \"driver-a\"" }, 1,
	                          NULL, 0 };

static inline DraAllocator *
new_alloc(const DraFeatures *f)
{
	DraAllocator *a = dra_allocator_new(f, &fake_ops, NULL);
	dra_allocator_add_class(a, &class_a);
	return a;
}

static inline DraRequest
exact(const char *name, gint64 count)
{
	DraRequest r = { 0 };
	r.name = name;
	r.has_exactly = TRUE;
	r.exactly.device_class_name = "class-a";
	r.exactly.allocation_mode = "ExactCount";
	r.exactly.count = count;
	return r;
}

static inline DraClaim
claim_of(const char *name, const DraRequest *reqs, guint n)
{
	DraClaim c = { 0 };
	c.namespace_ = "default";
	c.name = name;
	c.requests = reqs;
	c.n_requests = n;
	return c;
}

/* firstAvailable request "req-0": sub-request "big" (2 class-a devices), else
 * "small" (1). @subs, the caller's, holds the two sub-requests. */
G_GNUC_UNUSED static inline DraRequest
big_else_small(DraExactRequest subs[2])
{
	DraRequest r = { 0 };

	subs[0] = (DraExactRequest){ 0 };
	subs[0].name = "big";
	subs[0].device_class_name = "class-a";
	subs[0].allocation_mode = "ExactCount";
	subs[0].count = 2;
	subs[1] = subs[0];
	subs[1].name = "small";
	subs[1].count = 1;
	r.name = "req-0";
	r.first_available = subs;
	r.n_first_available = 2;
	return r;
}

static inline DraSlice
slice_of(const char *name, const char *pool, const DraDevice *devs, guint n)
{
	DraSlice s = { 0 };
	s.name = name;
	s.driver = "driver-a";
	s.pool = pool;
	s.generation = 1;
	s.resource_slice_count = 1;
	s.node_name = "node-1";
	s.devices = devs;
	s.n_devices = n;
	return s;
}

G_GNUC_UNUSED static const DraAttribute numa0 = { "numa", DRA_ATTR_INT, 0, FALSE, NULL };
G_GNUC_UNUSED static const DraAttribute numa1 = { "numa", DRA_ATTR_INT, 1, FALSE, NULL };
