/*
 * k8s_arena.c: bump allocation in large blocks.
 *
 * Decoding a 60 MB List allocates millions of small values; one block per
 * 64 KiB keeps that to a few hundred mallocs. Requests larger than a quarter
 * block get a block of their own so the current block is not wasted.
 */
#include "k8s_arena.h"

#include <string.h>

#define BLOCK_SIZE (64 * 1024)
#define ALIGN      16

struct K8sArena {
	GPtrArray *blocks; /* owned g_malloc'd blocks (or single objects in debug mode) */
	char *cursor;
	gsize left;
	gsize bytes;
};

K8sArena *
k8s_arena_new(void)
{
	K8sArena *self = g_new0(K8sArena, 1);

	self->blocks = g_ptr_array_new_with_free_func(g_free);
	return self;
}

void
k8s_arena_free(K8sArena *self)
{
	if (self == NULL) {
		return;
	}
	g_ptr_array_free(self->blocks, TRUE);
	g_free(self);
}

gpointer
k8s_arena_alloc(K8sArena *self, gsize size)
{
	gsize rounded = (size + ALIGN - 1) & ~(gsize)(ALIGN - 1);
	char *out;

	self->bytes += size;
#if defined(DRASIM_ARENA_DEBUG) && DRASIM_ARENA_DEBUG
	out = g_malloc0(size > 0 ? size : 1);
	g_ptr_array_add(self->blocks, out);
	return out;
#else
	if (rounded == 0) {
		rounded = ALIGN;
	}
	if (rounded > BLOCK_SIZE / 4) {
		out = g_malloc0(rounded);
		g_ptr_array_add(self->blocks, out);
		return out;
	}
	if (rounded > self->left) {
		self->cursor = g_malloc(BLOCK_SIZE);
		self->left = BLOCK_SIZE;
		g_ptr_array_add(self->blocks, self->cursor);
	}
	out = self->cursor;
	self->cursor += rounded;
	self->left -= rounded;
	memset(out, 0, size);
	return out;
#endif
}

gpointer
k8s_arena_dup(K8sArena *self, gconstpointer data, gsize size)
{
	gpointer out;

	if (size == 0) {
		return NULL;
	}
	out = k8s_arena_alloc(self, size);
	memcpy(out, data, size);
	return out;
}

gsize
k8s_arena_bytes(const K8sArena *self)
{
	return self->bytes;
}
