/*
 * base_arena.h: drasim's one bump allocator, for things that die together (the
 * objects of a K8sObjectSet, a YAML node tree, a CEL program's AST, the scratch
 * values of one CEL evaluation).
 *
 * Memory comes from chunks that start at the size the owner asks for and double
 * up to 1 MiB. A reset rewinds every chunk and keeps them all, so a round that
 * fits in what earlier rounds used mallocs nothing (the CEL evaluation's steady
 * state). Every allocation is zeroed and 16-byte aligned.
 *
 * With -Darena_debug=true (DRASIM_ARENA_DEBUG) every allocation is its own
 * g_malloc, freed on reset or clear, so AddressSanitizer sees an overrun past
 * any one object and a use after a reset.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct BaseArenaChunk BaseArenaChunk;

/* Embeddable (base_arena_init/clear) or on the heap (base_arena_new/free). The
 * fields are the arena's own: use the functions. */
typedef struct BaseArena {
	BaseArenaChunk *head;  /* the chunk being filled */
	BaseArenaChunk *first; /* every chunk, in order; kept on reset */
	gsize chunk_size;      /* the size of the next new chunk */
} BaseArena;

/* An empty arena whose first chunk holds @chunk_size bytes (0: 4 KiB). */
void base_arena_init(BaseArena *self, gsize chunk_size);
/* Frees every chunk; the arena is empty and may be used again. */
void base_arena_clear(BaseArena *self);
/* Rewinds to empty; keeps every chunk so the next round mallocs nothing. */
void base_arena_reset(BaseArena *self);

/** base_arena_new: an empty arena on the heap, 64 KiB chunks first. (transfer full) */
BaseArena *base_arena_new(void);
/** base_arena_free: frees the arena and every allocation; NULL is a no-op. */
void base_arena_free(BaseArena *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BaseArena, base_arena_free)

/* @size zeroed bytes aligned for any scalar (16); never NULL (0 bytes: a
 * distinct pointer). */
gpointer base_arena_alloc(BaseArena *self, gsize size);
/* A copy of the @size bytes at @data; NULL when @size is 0. */
gpointer base_arena_dup(BaseArena *self, gconstpointer data, gsize size);
/* A NUL-terminated copy of the @len bytes at @s (which may hold NULs). */
char *base_arena_strndup(BaseArena *self, const char *s, gsize len);
/* The bytes of every chunk (tests check that a steady state does not grow it). */
gsize base_arena_capacity(const BaseArena *self);

#define base_arena_new0(arena, Type, n) ((Type *)base_arena_alloc((arena), sizeof(Type) * (n)))

G_END_DECLS
