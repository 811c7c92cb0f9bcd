/*
 * cmd_import.h: `drasim import` in three steps that share one ImportResult.
 *
 * cmd_import.c parses the command line and loads the dumps; cmd_import_scan.c sorts
 * the objects into the scenario's files, leaves out what must be left out and sums up
 * nodes, pools and claims; cmd_import_write.c writes the scenario directory
 * atomically, and cmd_import_readme.c its README (docs/import.md).
 */
#pragma once

#include <glib.h>

#include "k8s_objects.h"

/* The files of a scenario directory, in the order they are written and listed. */
typedef enum {
	IMPORT_FILE_NODES,       /* cluster/nodes.yaml */
	IMPORT_FILE_SLICES,      /* cluster/resourceslices.yaml */
	IMPORT_FILE_CLASSES,     /* cluster/deviceclasses.yaml */
	IMPORT_FILE_CLAIMS,      /* workload/claims.yaml: claims and templates */
	IMPORT_FILE_TAINT_RULES, /* workload/devicetaintrules.yaml */
	IMPORT_FILE_PODS,        /* workload/pods.yaml */
	IMPORT_FILE_CONTROLLERS, /* workload/controllers.yaml: for reference only */
	IMPORT_FILE_COUNT_,
} ImportFile;

/* One node of the imported cluster: a Node object, or inferred from slices. */
typedef struct {
	const char *name;
	gboolean inferred;
	guint devices;
	GPtrArray *drivers; /* const char *, sorted, each once */
} ImportNode;

/* One pool, keyed by driver and name. */
typedef struct {
	const char *driver;
	const char *name;
	const char *node; /* NULL: node-independent */
	gint64 generation;
	gint64 slice_count;
	gboolean generation_trimmed; /* the dump had none: Kubernetes' default 0 */
	gboolean count_trimmed;      /* the dump had none: the slices it holds */
	guint slices;
	guint devices;
} ImportPool;

typedef struct {
	/* the command line */
	char **inputs;
	const char *out_dir;
	const char *name;
	char *node_defaults; /* YAML flow mapping, or NULL (unlimited) */
	gboolean keep_going;
	gboolean force;
	/* loaded */
	K8sObjectSet *set;
	K8sDiagList *diags;
	/* sorted by cmd_import_scan() */
	GPtrArray *files[IMPORT_FILE_COUNT_]; /* K8sObject * */
	GPtrArray *errors;                    /* char *: diagnostics of left-out objects */
	GPtrArray *notes;                     /* char *: what was derived or trimmed */
	GArray *nodes;                        /* ImportNode, Nodes then inferred, by name */
	GArray *pools;                        /* ImportPool, by driver then name */
	guint left_out;                       /* objects left out with errors */
	guint pods_bound;
	guint pods_pending;
	guint pods_finished; /* Succeeded or Failed: left out */
	guint claims_allocated;
	guint claims_reserved;
	guint versions[K8S_KIND_COUNT_][4]; /* objects per kind and apiVersion */
	gboolean dra_world;                 /* the snapshot publishes slices */
	gboolean nvidia;                    /* NVIDIA GPUs, in either world */
} ImportResult;

void import_result_init(ImportResult *self);
void import_result_clear(ImportResult *self);

/* Sorts the loaded set into files; FALSE when objects have errors and !keep_going. */
gboolean cmd_import_scan(ImportResult *self);
/* The skipped kinds, "ConfigMap 1, Event 1, Secret 1" (sorted), or NULL. (transfer full) */
char *cmd_import_skipped_text(const ImportResult *self);
/* The files' relative paths. */
const char *cmd_import_file_path(ImportFile file);

/* The scenario directory, written to a temporary folder and renamed. */
gboolean cmd_import_write(const ImportResult *self, GError **error);
/* README.md's text. (transfer full) */
char *cmd_import_readme(const ImportResult *self);
