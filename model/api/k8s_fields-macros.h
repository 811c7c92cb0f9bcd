/*
 * k8s_fields-macros.h: shorthands for the rows of the field tables
 * (k8s_fields_core.c, k8s_fields_resource.c); private to model/api.
 */
#pragma once

#include "k8s-private.h"

#define F_STR(T, n, f)                                                                             \
	{                                                                                          \
		.name = n, .type = K8S_F_STRING, .at = K8S_AT(T, f)                                \
	}
#define F_STRP(T, n, f)                                                                            \
	{                                                                                          \
		.name = n, .type = K8S_F_STRING, .at = K8S_AT(T, f), .pos_at = K8S_AT(T, f##_pos)  \
	}
#define F_I64(T, n, f)                                                                             \
	{                                                                                          \
		.name = n, .type = K8S_F_INT64, .at = K8S_AT(T, f), .has_at = K8S_AT(T, has_##f)   \
	}
#define F_I64P(T, n, f)                                                                            \
	{                                                                                          \
		.name = n, .type = K8S_F_INT64, .at = K8S_AT(T, f), .has_at = K8S_AT(T, has_##f),  \
		.pos_at = K8S_AT(T, f##_pos)                                                       \
	}
#define F_I32(T, n, f)                                                                             \
	{                                                                                          \
		.name = n, .type = K8S_F_INT32, .at = K8S_AT(T, f), .has_at = K8S_AT(T, has_##f)   \
	}
#define F_BOOL(T, n, f)                                                                            \
	{                                                                                          \
		.name = n, .type = K8S_F_BOOL, .at = K8S_AT(T, f), .has_at = K8S_AT(T, has_##f)    \
	}
#define F_BOOLP(T, n, f)                                                                           \
	{                                                                                          \
		.name = n, .type = K8S_F_BOOL, .at = K8S_AT(T, f), .has_at = K8S_AT(T, has_##f),   \
		.pos_at = K8S_AT(T, f##_pos)                                                       \
	}
#define F_BOOL0(T, n, f)                                                                           \
	{                                                                                          \
		.name = n, .type = K8S_F_BOOL, .at = K8S_AT(T, f)                                  \
	}
#define F_QTY(T, n, f)                                                                             \
	{                                                                                          \
		.name = n, .type = K8S_F_QTY, .at = K8S_AT(T, f)                                   \
	}
#define F_SMAP(T, n, f)                                                                            \
	{                                                                                          \
		.name = n, .type = K8S_F_STRING_MAP, .at = K8S_AT(T, f)                            \
	}
#define F_QMAP(T, n, f)                                                                            \
	{                                                                                          \
		.name = n, .type = K8S_F_QTY_MAP, .at = K8S_AT(T, f)                               \
	}
#define F_LIST(T, n, f)                                                                            \
	{                                                                                          \
		.name = n, .type = K8S_F_STRING_LIST, .at = K8S_AT(T, f)                           \
	}
#define F_RAW(T, n, f)                                                                             \
	{                                                                                          \
		.name = n, .type = K8S_F_RAW, .at = K8S_AT(T, f)                                   \
	}
#define F_STRUCT(T, n, f, d)                                                                       \
	{                                                                                          \
		.name = n, .type = K8S_F_STRUCT, .at = K8S_AT(T, f), .sub = &(d)                   \
	}
#define F_STRUCTH(T, n, f, d)                                                                      \
	{                                                                                          \
		.name = n, .type = K8S_F_STRUCT, .at = K8S_AT(T, f), .has_at = K8S_AT(T, has_##f), \
		.sub = &(d)                                                                        \
	}
/* a JSON object whose fields live directly in T (e.g. spec.devices in the claim spec) */
#define F_INLINE(n, d)                                                                             \
	{                                                                                          \
		.name = n, .type = K8S_F_STRUCT, .at = 1, .sub = &(d)                              \
	}
#define F_INLINEH(T, n, has, d)                                                                    \
	{                                                                                          \
		.name = n, .type = K8S_F_STRUCT, .at = 1, .has_at = K8S_AT(T, has), .sub = &(d)    \
	}
#define F_PTR(T, n, f, d)                                                                          \
	{                                                                                          \
		.name = n, .type = K8S_F_PTR, .at = K8S_AT(T, f), .sub = &(d)                      \
	}
#define F_ARR(T, n, f, d)                                                                          \
	{                                                                                          \
		.name = n, .type = K8S_F_ARRAY, .at = K8S_AT(T, f), .count_at = K8S_AT(T, n_##f),  \
		.sub = &(d)                                                                        \
	}
#define F_KEYED(T, n, f, d, E, key)                                                                \
	{                                                                                          \
		.name = n, .type = K8S_F_KEYED, .at = K8S_AT(T, f), .count_at = K8S_AT(T, n_##f),  \
		.key_at = K8S_AT(E, key), .sub = &(d)                                              \
	}
#define F_IGNORE(n)                                                                                \
	{                                                                                          \
		.name = n, .type = K8S_F_IGNORE                                                    \
	}
#define F_DROPPED(n, why)                                                                          \
	{                                                                                          \
		.name = n, .type = K8S_F_DROPPED, .note = why                                      \
	}
#define F_END                                                                                      \
	{                                                                                          \
		.name = NULL                                                                       \
	}

/* The rows every top-level object starts with (resource.k8s.io kinds). */
#define OBJECT_HEAD(T)                                                                             \
	F_IGNORE("apiVersion"), F_IGNORE("kind"),                                                  \
	        F_STRUCT(T, "metadata", obj.metadata, k8s_fields__meta_desc)

#define DESC(var, goname, T, posfield, fieldtab, ...)                                              \
	const K8sStructDesc var = { .name = goname,                                                \
		                    .size = sizeof(T),                                             \
		                    .pos_at = K8S_AT(T, posfield),                                 \
		                    .fields = fieldtab,                                            \
		                    __VA_ARGS__ }
/* a desc whose fields live inside the parent's struct (no pos of its own) */
#define DESC_INLINE(var, goname, fieldtab, ...)                                                    \
	const K8sStructDesc var = {                                                                \
		.name = goname, .size = 0, .pos_at = 0, .fields = fieldtab, __VA_ARGS__            \
	}
