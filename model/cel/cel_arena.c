/*
 * cel_arena.c: bump allocator for ASTs, constants and per-evaluation scratch.
 *
 * Reset keeps every chunk, so an evaluation that fits in what earlier ones
 * used allocates nothing from the heap. With DRASIM_ARENA_DEBUG each object
 * is a separate malloc so ASan sees it (freed on reset/clear).
 */
#include <string.h>

#include "cel-private.h"

struct CelArenaChunk {
	CelArenaChunk *next;
	gsize size;
	gsize used;
	/* data follows, 16-aligned */
};

#define ALIGN16(n) (((n) + 15) & ~(gsize)15)

static inline char *
chunk_data(CelArenaChunk *chunk)
{
	return (char *)chunk + ALIGN16(sizeof(CelArenaChunk));
}

void
cel_arena_init(CelArena *self, gsize chunk_size)
{
	self->head = NULL;
	self->first = NULL;
	self->chunk_size = chunk_size ? chunk_size : 4096;
}

void
cel_arena_clear(CelArena *self)
{
	CelArenaChunk *chunk = self->first;
	while (chunk != NULL) {
		CelArenaChunk *next = chunk->next;
		g_free(chunk);
		chunk = next;
	}
	self->head = NULL;
	self->first = NULL;
}

void
cel_arena_reset(CelArena *self)
{
#ifdef DRASIM_ARENA_DEBUG
	cel_arena_clear(self);
#else
	for (CelArenaChunk *c = self->first; c != NULL; c = c->next) {
		c->used = 0;
	}
	self->head = self->first;
#endif
}

static CelArenaChunk *
chunk_new(gsize size)
{
	CelArenaChunk *chunk = g_malloc(ALIGN16(sizeof(CelArenaChunk)) + size);
	chunk->next = NULL;
	chunk->size = size;
	chunk->used = 0;
	return chunk;
}

gpointer
cel_arena_alloc(CelArena *self, gsize size)
{
	size = ALIGN16(size ? size : 1);
#ifdef DRASIM_ARENA_DEBUG
	CelArenaChunk *dbg = chunk_new(size);
	dbg->used = size;
	dbg->next = self->first;
	self->first = dbg;
	return memset(chunk_data(dbg), 0, size);
#else
	CelArenaChunk *c = self->head;
	while (c != NULL && c->used + size > c->size) {
		/* later chunks are empty after a reset: reuse them in order */
		c = c->next;
		if (c != NULL) {
			self->head = c;
		}
	}
	if (c == NULL) {
		gsize want = MAX(self->chunk_size, size);
		c = chunk_new(want);
		/* append after the current head's tail */
		if (self->first == NULL) {
			self->first = c;
		} else {
			CelArenaChunk *tail = self->head ? self->head : self->first;
			while (tail->next != NULL) {
				tail = tail->next;
			}
			tail->next = c;
		}
		self->head = c;
		self->chunk_size = MIN(self->chunk_size * 2, 1u << 20);
	}
	char *p = chunk_data(c) + c->used;
	c->used += size;
	return memset(p, 0, size);
#endif
}

char *
cel_arena_strndup(CelArena *self, const char *s, gsize len)
{
	char *p = cel_arena_alloc(self, len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

gsize
cel_arena_capacity(const CelArena *self)
{
	gsize total = 0;
	for (CelArenaChunk *c = self->first; c != NULL; c = c->next) {
		total += c->size;
	}
	return total;
}
