/*
 * cluster_object.c: the scheduler's views of nodes and pods, and the table of
 * resource names behind the fixed-size resource vectors.
 *
 * These are built once per object by the wiring (or by tests) and then read on
 * every filter and score call, so they are plain structs with arrays; strings
 * are copied in and owned by the object.
 */
#include <string.h>

#include "cluster-private.h"
#include "cluster_types.h"

struct ClusterResNames {
	char *names[CLUSTER_RES_MAX];
	guint n;
};

ClusterResNames *
cluster_res_names_new(void)
{
	ClusterResNames *self = g_new0(ClusterResNames, 1);

	self->names[CLUSTER_RES_CPU] = g_strdup("cpu");
	self->names[CLUSTER_RES_MEMORY] = g_strdup("memory");
	self->names[CLUSTER_RES_PODS] = g_strdup("pods");
	self->n = CLUSTER_RES_FIRST_SCALAR;
	return self;
}

void
cluster_res_names_free(ClusterResNames *self)
{
	if (self == NULL)
		return;
	for (guint i = 0; i < self->n; i++)
		g_free(self->names[i]);
	g_free(self);
}

gint
cluster_res_names_lookup(const ClusterResNames *self, const char *name)
{
	for (guint i = 0; i < self->n; i++) {
		if (strcmp(self->names[i], name) == 0)
			return (gint)i;
	}
	return -1;
}

gint
cluster_res_names_intern(ClusterResNames *self, const char *name)
{
	gint slot = cluster_res_names_lookup(self, name);

	if (slot >= 0)
		return slot;
	if (self->n >= CLUSTER_RES_MAX)
		return -1;
	self->names[self->n] = g_strdup(name);
	return (gint)self->n++;
}

const char *
cluster_res_names_get(const ClusterResNames *self, gint slot)
{
	if (slot < 0 || (guint)slot >= self->n)
		return NULL;
	return self->names[slot];
}

guint
cluster_res_names_get_length(const ClusterResNames *self)
{
	return self->n;
}

static void
label_clear(gpointer data)
{
	ClusterLabel *label = data;

	g_free(label->key);
	g_free(label->value);
}

static void
taint_clear(gpointer data)
{
	ClusterTaint *taint = data;

	g_free(taint->key);
	g_free(taint->value);
}

static void
toleration_clear(gpointer data)
{
	ClusterToleration *toleration = data;

	g_free(toleration->key);
	g_free(toleration->value);
}

static void
requirement_clear(gpointer data)
{
	ClusterRequirement *req = data;

	g_free(req->key);
	g_strfreev(req->values);
}

static void
term_clear(gpointer data)
{
	ClusterSelectorTerm *term = data;

	g_array_unref(term->requirements);
}

ClusterNode *
cluster_node_new(const char *name)
{
	ClusterNode *self = g_new0(ClusterNode, 1);

	self->name = g_strdup(name);
	self->labels = g_array_new(FALSE, TRUE, sizeof(ClusterLabel));
	g_array_set_clear_func(self->labels, label_clear);
	self->taints = g_array_new(FALSE, TRUE, sizeof(ClusterTaint));
	g_array_set_clear_func(self->taints, taint_clear);
	return self;
}

void
cluster_node_free(ClusterNode *self)
{
	if (self == NULL)
		return;
	cluster_node_watch_detach(self);
	g_array_unref(self->labels);
	g_array_unref(self->taints);
	g_free(self->name);
	g_free(self);
}

void
cluster_node_touch(ClusterNode *self)
{
	self->state_gen++;
	if (self->watch != NULL && !self->touched && self->watch->touched != NULL) {
		/* once per node until the scheduler reads the list: bounded by the node count */
		g_ptr_array_add(self->watch->touched, self);
		self->touched = TRUE;
	}
}

/*
 * The watch is shared by the scheduler and every node attached to it, so
 * either may go first: a closed watch (its scheduler freed) records nothing
 * and lives until its last node detaches.
 */
ClusterNodeWatch *
cluster_node_watch_new(void)
{
	ClusterNodeWatch *self = g_new0(ClusterNodeWatch, 1);

	self->refs = 1;
	self->touched = g_ptr_array_new();
	return self;
}

static void
watch_unref(ClusterNodeWatch *self)
{
	if (--self->refs > 0)
		return;
	if (self->touched != NULL)
		g_ptr_array_unref(self->touched);
	g_free(self);
}

void
cluster_node_watch_close(ClusterNodeWatch *self)
{
	cluster_node_watch_clear(self);
	g_clear_pointer(&self->touched, g_ptr_array_unref);
	watch_unref(self);
}

void
cluster_node_watch_clear(ClusterNodeWatch *self)
{
	for (guint i = 0; i < self->touched->len; i++)
		((ClusterNode *)self->touched->pdata[i])->touched = FALSE;
	g_ptr_array_set_size(self->touched, 0);
}

void
cluster_node_watch_attach(ClusterNodeWatch *self, ClusterNode *node)
{
	if (node->watch == self)
		return;
	cluster_node_watch_detach(node);
	node->watch = self;
	self->refs++;
}

void
cluster_node_watch_detach(ClusterNode *node)
{
	ClusterNodeWatch *watch = node->watch;

	if (watch == NULL)
		return;
	/* a freed node must not stay in the list (rare: a linear search) */
	if (node->touched && watch->touched != NULL)
		g_ptr_array_remove_fast(watch->touched, node);
	node->touched = FALSE;
	node->watch = NULL;
	watch_unref(watch);
}

static ClusterLabel *
find_label(GArray *labels, const char *key)
{
	for (guint i = 0; i < labels->len; i++) {
		ClusterLabel *label = &g_array_index(labels, ClusterLabel, i);

		if (strcmp(label->key, key) == 0)
			return label;
	}
	return NULL;
}

void
cluster_node_set_label(ClusterNode *self, const char *key, const char *value)
{
	ClusterLabel *label = find_label(self->labels, key);

	cluster_node_touch(self);
	if (label != NULL) {
		g_free(label->value);
		label->value = g_strdup(value);
		return;
	}
	ClusterLabel fresh = { g_strdup(key), g_strdup(value) };
	g_array_append_val(self->labels, fresh);
}

const char *
cluster_node_get_label(const ClusterNode *self, const char *key)
{
	ClusterLabel *label = find_label(self->labels, key);

	return label != NULL ? label->value : NULL;
}

gboolean
cluster_node_remove_label(ClusterNode *self, const char *key)
{
	ClusterLabel *label = find_label(self->labels, key);

	if (label == NULL)
		return FALSE;
	cluster_node_touch(self);
	g_array_remove_index(self->labels,
	                     (guint)(label - (ClusterLabel *)(void *)self->labels->data));
	return TRUE;
}

void
cluster_node_add_taint(ClusterNode *self,
                       const char *key,
                       const char *value,
                       ClusterTaintEffect effect)
{
	ClusterTaint taint = { g_strdup(key), g_strdup(value != NULL ? value : ""), effect };

	cluster_node_touch(self);
	g_array_append_val(self->taints, taint);
}

gboolean
cluster_node_remove_taint(ClusterNode *self, const char *key, ClusterTaintEffect effect)
{
	for (guint i = 0; i < self->taints->len; i++) {
		ClusterTaint *taint = &g_array_index(self->taints, ClusterTaint, i);

		if (taint->effect == effect && strcmp(taint->key, key) == 0) {
			cluster_node_touch(self);
			g_array_remove_index(self->taints, i);
			return TRUE;
		}
	}
	return FALSE;
}

ClusterPod *
cluster_pod_new(const char *name, guint64 uid)
{
	ClusterPod *self = g_new0(ClusterPod, 1);

	self->name = g_strdup(name);
	self->uid = uid;
	self->requests.v[CLUSTER_RES_PODS] = 1;
	self->nonzero_requests.v[CLUSTER_RES_PODS] = 1;
	self->nonzero_requests.v[CLUSTER_RES_CPU] = CLUSTER_DEFAULT_MILLI_CPU_REQUEST;
	self->nonzero_requests.v[CLUSTER_RES_MEMORY] = CLUSTER_DEFAULT_MEMORY_REQUEST;
	return self;
}

void
cluster_pod_free(ClusterPod *self)
{
	if (self == NULL)
		return;
	cluster_pod_drop_placement_rules(self);
	g_free(self->name);
	g_free(self);
}

/* A pod that will never be placed again (cluster_sim_nodes.c cluster_sim__retire_pod) keeps its
 * name and requests, which the report reads, and drops what only Filter and
 * Score read. */
void
cluster_pod_drop_placement_rules(ClusterPod *self)
{
	g_clear_pointer(&self->node_selector, g_array_unref);
	g_clear_pointer(&self->tolerations, g_array_unref);
	g_clear_pointer(&self->terms, g_array_unref);
}

void
cluster_pod_set_request(ClusterPod *self, gint slot, gint64 value)
{
	g_return_if_fail(slot >= 0 && slot < CLUSTER_RES_MAX);
	self->requests.v[slot] = value;
	self->nonzero_requests.v[slot] = value;
	/* GetNonzeroRequests: a missing cpu/memory request counts as the default. */
	if (slot == CLUSTER_RES_CPU && value == 0)
		self->nonzero_requests.v[slot] = CLUSTER_DEFAULT_MILLI_CPU_REQUEST;
	if (slot == CLUSTER_RES_MEMORY && value == 0)
		self->nonzero_requests.v[slot] = CLUSTER_DEFAULT_MEMORY_REQUEST;
}

void
cluster_pod_add_node_selector(ClusterPod *self, const char *key, const char *value)
{
	ClusterLabel label = { g_strdup(key), g_strdup(value) };

	if (self->node_selector == NULL) {
		self->node_selector = g_array_new(FALSE, TRUE, sizeof(ClusterLabel));
		g_array_set_clear_func(self->node_selector, label_clear);
	}
	g_array_append_val(self->node_selector, label);
}

guint
cluster_pod_add_term(ClusterPod *self)
{
	ClusterSelectorTerm term;

	if (self->terms == NULL) {
		self->terms = g_array_new(FALSE, TRUE, sizeof(ClusterSelectorTerm));
		g_array_set_clear_func(self->terms, term_clear);
	}
	term.requirements = g_array_new(FALSE, TRUE, sizeof(ClusterRequirement));
	g_array_set_clear_func(term.requirements, requirement_clear);
	g_array_append_val(self->terms, term);
	return self->terms->len - 1;
}

/* Gt/Lt take exactly one integer value (NodeSelectorRequirementsAsSelector). */
static gboolean
parse_number(const char *const *values, gint64 *out)
{
	char *end = NULL;

	if (values == NULL || values[0] == NULL || values[1] != NULL)
		return FALSE;
	if (values[0][0] == '\0')
		return FALSE;
	*out = g_ascii_strtoll(values[0], &end, 10);
	return *end == '\0';
}

static gboolean
requirement_is_valid(const ClusterRequirement *req, const char *const *values)
{
	guint n = values != NULL ? g_strv_length((char **)values) : 0;

	if (req->field) {
		/* Only metadata.name with In/NotIn is a supported node field. */
		if (strcmp(req->key, "metadata.name") != 0)
			return FALSE;
		return (req->op == CLUSTER_SELECTOR_IN || req->op == CLUSTER_SELECTOR_NOT_IN) &&
		       n == 1;
	}
	switch (req->op) {
	case CLUSTER_SELECTOR_IN:
	case CLUSTER_SELECTOR_NOT_IN:
		return n > 0;
	case CLUSTER_SELECTOR_EXISTS:
	case CLUSTER_SELECTOR_DOES_NOT_EXIST:
		return n == 0;
	case CLUSTER_SELECTOR_GT:
	case CLUSTER_SELECTOR_LT:
		return TRUE; /* checked by parse_number */
	}
	return FALSE;
}

void
cluster_pod_term_add_requirement(ClusterPod *self,
                                 guint term,
                                 const char *key,
                                 ClusterSelectorOp op,
                                 const char *const *values,
                                 gboolean field)
{
	ClusterRequirement req = { 0 };

	g_return_if_fail(self->terms != NULL && term < self->terms->len);
	req.key = g_strdup(key);
	req.op = op;
	req.field = field;
	req.values = g_strdupv((char **)values);
	req.valid = requirement_is_valid(&req, values);
	if (op == CLUSTER_SELECTOR_GT || op == CLUSTER_SELECTOR_LT)
		req.valid = req.valid && parse_number(values, &req.number);
	g_array_append_val(g_array_index(self->terms, ClusterSelectorTerm, term).requirements, req);
}

void
cluster_pod_add_toleration(ClusterPod *self,
                           const char *key,
                           ClusterTolerationOp op,
                           const char *value,
                           ClusterTaintEffect effect)
{
	ClusterToleration toleration = {
		.key = g_strdup(key), .op = op, .value = g_strdup(value), .effect = effect
	};

	if (self->tolerations == NULL) {
		self->tolerations = g_array_new(FALSE, TRUE, sizeof(ClusterToleration));
		g_array_set_clear_func(self->tolerations, toleration_clear);
	}
	g_array_append_val(self->tolerations, toleration);
}

void
cluster_pod_add_toleration_seconds(ClusterPod *self,
                                   const char *key,
                                   ClusterTolerationOp op,
                                   const char *value,
                                   ClusterTaintEffect effect,
                                   gint64 seconds)
{
	ClusterToleration *t;

	cluster_pod_add_toleration(self, key, op, value, effect);
	t = &g_array_index(self->tolerations, ClusterToleration, self->tolerations->len - 1);
	t->has_seconds = TRUE;
	t->seconds = seconds;
}
