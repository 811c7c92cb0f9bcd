/*
 * base_arena.c: bump allocation from a list of chunks (base_arena.h).
 *
 * Chunks form one list in the order they were made; `head` is the one being
 * filled. A reset sets every chunk's fill to zero and `head` back to the first,
 * so allocation walks the same chunks again in the same order. A request that
 * does not fit the head moves on to the next chunk (after a reset, an emptied
 * one), and only at the end of the list mallocs a new chunk, twice the size of
 * the last (up to 1 MiB) and never smaller than the request.
 */
#include "base_arena.h"

#include <string.h>

struct BaseArenaChunk {
	BaseArenaChunk *next;
	gsize size;
	gsize used;
	/* data follows, 16-aligned */
};

#define ALIGN16(n)      (((n) + 15) & ~(gsize)15)
#define MAX_CHUNK       ((gsize)1 << 20)
#define HEAP_FIRST_SIZE ((gsize)64 * 1024) /* a decode allocates millions of small values */

#if defined(DRASIM_ARENA_DEBUG) && DRASIM_ARENA_DEBUG
#define ARENA_DEBUG 1
#else
#define ARENA_DEBUG 0
#endif

static inline char *
chunk_data(BaseArenaChunk *chunk)
{
	return (char *)chunk + ALIGN16(sizeof(BaseArenaChunk));
}

static BaseArenaChunk *
chunk_new(gsize size)
{
	BaseArenaChunk *chunk = g_malloc(ALIGN16(sizeof(BaseArenaChunk)) + size);

	chunk->next = NULL;
	chunk->size = size;
	chunk->used = 0;
	return chunk;
}

void
base_arena_init(BaseArena *self, gsize chunk_size)
{
	self->head = NULL;
	self->first = NULL;
	self->chunk_size = chunk_size ? chunk_size : 4096;
}

void
base_arena_clear(BaseArena *self)
{
	BaseArenaChunk *chunk = self->first;

	while (chunk != NULL) {
		BaseArenaChunk *next = chunk->next;

		g_free(chunk);
		chunk = next;
	}
	self->head = NULL;
	self->first = NULL;
}

void
base_arena_reset(BaseArena *self)
{
	if (ARENA_DEBUG) {
		base_arena_clear(self);
		return;
	}
	for (BaseArenaChunk *c = self->first; c != NULL; c = c->next) {
		c->used = 0;
	}
	self->head = self->first;
}

BaseArena *
base_arena_new(void)
{
	BaseArena *self = g_new(BaseArena, 1);

	base_arena_init(self, HEAP_FIRST_SIZE);
	return self;
}

void
base_arena_free(BaseArena *self)
{
	if (self == NULL) {
		return;
	}
	base_arena_clear(self);
	g_free(self);
}

/* Debug mode: the object is a chunk of its own at the front of the list, so
 * ASan's redzones sit right after it. */
static gpointer
alloc_own_chunk(BaseArena *self, gsize size)
{
	BaseArenaChunk *own = chunk_new(size);

	own->used = size;
	own->next = self->first;
	self->first = own;
	return memset(chunk_data(own), 0, size);
}

/* No chunk from the head on has room: a new one after the last. */
static BaseArenaChunk *
append_chunk(BaseArena *self, gsize size)
{
	BaseArenaChunk *c = chunk_new(MAX(self->chunk_size, size));

	if (self->first == NULL) {
		self->first = c;
	} else {
		BaseArenaChunk *tail = self->head ? self->head : self->first;

		while (tail->next != NULL) {
			tail = tail->next;
		}
		tail->next = c;
	}
	self->head = c;
	self->chunk_size = MIN(self->chunk_size * 2, MAX_CHUNK);
	return c;
}

gpointer
base_arena_alloc(BaseArena *self, gsize size)
{
	if (ARENA_DEBUG) {
		return alloc_own_chunk(self, size ? size : 1); /* exact: ASan sees one byte over */
	}
	size = ALIGN16(size ? size : 1);
	BaseArenaChunk *c = self->head;

	while (c != NULL && c->used + size > c->size) {
		/* later chunks are empty after a reset: reuse them in order */
		c = c->next;
		if (c != NULL) {
			self->head = c;
		}
	}
	if (c == NULL) {
		c = append_chunk(self, size);
	}
	char *p = chunk_data(c) + c->used;

	c->used += size;
	return memset(p, 0, size);
}

gpointer
base_arena_dup(BaseArena *self, gconstpointer data, gsize size)
{
	if (size == 0) {
		return NULL;
	}
	return memcpy(base_arena_alloc(self, size), data, size);
}

char *
base_arena_strndup(BaseArena *self, const char *s, gsize len)
{
	char *p = base_arena_alloc(self, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

gsize
base_arena_capacity(const BaseArena *self)
{
	gsize total = 0;

	for (BaseArenaChunk *c = self->first; c != NULL; c = c->next) {
		total += c->size;
	}
	return total;
}
