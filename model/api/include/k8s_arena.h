/*
 * k8s_arena.h: a bump allocator for things that die together (the objects of a
 * K8sObjectSet, the YAML node tree of a file).
 *
 * With -Darena_debug=true (DRASIM_ARENA_DEBUG) every
 * allocation is a separate g_malloc so ASan sees each object.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct K8sArena K8sArena;

/** k8s_arena_new: an empty arena. (transfer full) */
K8sArena *k8s_arena_new(void);
/** k8s_arena_free: frees every allocation at once; NULL is a no-op. */
void k8s_arena_free(K8sArena *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(K8sArena, k8s_arena_free)

/** k8s_arena_reset: frees every allocation but keeps one block for reuse. */
void k8s_arena_reset(K8sArena *self);
/** k8s_arena_alloc: @size zeroed bytes aligned for any scalar; never NULL. */
gpointer k8s_arena_alloc(K8sArena *self, gsize size);
/** k8s_arena_dup: a copy of @size bytes at @data (NULL when @size is 0). */
gpointer k8s_arena_dup(K8sArena *self, gconstpointer data, gsize size);
/** k8s_arena_bytes: the bytes handed out so far (for benchmarks). */
gsize k8s_arena_bytes(const K8sArena *self);

#define k8s_arena_new0(arena, Type, n) ((Type *)k8s_arena_alloc((arena), sizeof(Type) * (n)))

G_END_DECLS
