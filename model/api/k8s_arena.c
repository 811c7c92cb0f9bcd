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

void
k8s_arena_reset(K8sArena *self)
{
#if defined(DRASIM_ARENA_DEBUG) && DRASIM_ARENA_DEBUG
	g_ptr_array_set_size(self->blocks, 0);
#else
	/* keep the current block (the last one): the next object reuses warm memory */
	if (self->blocks->len > 0 && self->cursor != NULL) {
		char *keep = self->cursor - (BLOCK_SIZE - self->left);

		for (guint i = 0; i < self->blocks->len; i++) {
			if (g_ptr_array_index(self->blocks, i) == keep) {
				g_ptr_array_index(self->blocks, i) = NULL;
			}
		}
		g_ptr_array_set_size(self->blocks, 0);
		g_ptr_array_add(self->blocks, keep);
		self->cursor = keep;
		self->left = BLOCK_SIZE;
		return;
	}
	g_ptr_array_set_size(self->blocks, 0);
	self->cursor = NULL;
	self->left = 0;
#endif
}

gpointer
k8s_arena_alloc(K8sArena *self, gsize size)
{
	char *out;

	self->bytes += size;
#if defined(DRASIM_ARENA_DEBUG) && DRASIM_ARENA_DEBUG
	out = g_malloc0(size > 0 ? size : 1);
	g_ptr_array_add(self->blocks, out);
	return out;
#else
	gsize rounded = (size + ALIGN - 1) & ~(gsize)(ALIGN - 1);

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
