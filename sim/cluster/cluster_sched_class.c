/*
 * cluster_sched_class.c: equivalence classes of nodes for the scheduling
 * cycle. Two nodes are in one class when everything the node-local filters
 * and the node-state score plugins read is equal: allocatable, requested and
 * non-zero requested resources, the cordon flag, the taints and the DRA
 * signature (ClusterNode.dra_sig: equal pools and allocated state, so the
 * class answers DynamicResources once, cluster_sched.c). A node whose
 * state cannot be keyed (Open-Gpu-Share's per-GPU state) is a class of its
 * own. Labels are not in the key: a pod with a node selector or required
 * affinity is filtered node by node (cluster_sched.c), and no score plugin
 * marked node_state_only reads them.
 *
 * A node's class is recomputed when its state_gen moved (every setter and
 * assume/release bump it), so a cycle reads one slot per node; the class
 * records carry the cycle's Filter and Score answers. Records are reused
 * once their last member left, so a warm run allocates nothing here.
 */
#include <string.h>

#include "cluster-private.h"
#include "cluster_types.h"

typedef struct {
	ClusterResources allocatable;
	ClusterResources requested;
	ClusterResources nonzero_requested;
	guint taints_id; /* 0: no taints; else the interned text of the taints */
	gboolean unschedulable;
	guint dra_sig;            /* ClusterNode.dra_sig: members answer DynamicResources alike */
	const ClusterNode *owner; /* non-NULL: a class of this node alone */
} ClassKey;

struct ClusterSchedClass {
	ClassKey key; /* first: the hash table's key points here */
	guint members;
	ClusterSchedClassMemo memo;
};

typedef struct {
	ClusterSchedClass *klass;
	const ClusterNode *node; /* the node the slot was computed for */
	guint32 gen;             /* its state_gen then */
} NodeSlot;

struct ClusterSchedClasses {
	GHashTable *classes;  /* ClassKey * -> ClusterSchedClass *, both the record */
	GPtrArray *spare;     /* records with no member, for reuse */
	GHashTable *taint_id; /* char * text -> id (1, 2, ...) */
	GString *text;        /* scratch: a node's taints as text */
	GArray *slots;        /* NodeSlot, by node index */
};

static guint
key_hash(gconstpointer data)
{
	const guint64 *w = data;
	guint64 h = 0xcbf29ce484222325u;

	/* the three resource vectors, then the rest field by field */
	for (guint i = 0; i < 3 * CLUSTER_RES_MAX; i++)
		h = (h ^ w[i]) * 0x100000001b3u;
	const ClassKey *k = data;
	h = (h ^ k->taints_id ^ ((guint64)k->unschedulable << 32)) * 0x100000001b3u;
	h = (h ^ k->dra_sig) * 0x100000001b3u;
	h = (h ^ (guint64)(guintptr)k->owner) * 0x100000001b3u;
	return (guint)(h ^ (h >> 32));
}

static gboolean
key_equal(gconstpointer a, gconstpointer b)
{
	const ClassKey *x = a, *y = b;

	return x->taints_id == y->taints_id && x->unschedulable == y->unschedulable &&
	       x->owner == y->owner && x->dra_sig == y->dra_sig &&
	       memcmp(&x->allocatable, &y->allocatable, sizeof(ClusterResources)) == 0 &&
	       memcmp(&x->requested, &y->requested, sizeof(ClusterResources)) == 0 &&
	       memcmp(&x->nonzero_requested, &y->nonzero_requested, sizeof(ClusterResources)) == 0;
}

ClusterSchedClasses *
cluster_sched_classes_new(void)
{
	ClusterSchedClasses *self = g_new0(ClusterSchedClasses, 1);

	self->classes = g_hash_table_new_full(key_hash, key_equal, NULL, g_free);
	self->spare = g_ptr_array_new_with_free_func(g_free);
	self->taint_id = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->text = g_string_sized_new(256);
	self->slots = g_array_new(FALSE, TRUE, sizeof(NodeSlot));
	return self;
}

void
cluster_sched_classes_free(ClusterSchedClasses *self)
{
	if (self == NULL)
		return;
	g_hash_table_unref(self->classes);
	g_ptr_array_unref(self->spare);
	g_hash_table_unref(self->taint_id);
	g_string_free(self->text, TRUE);
	g_array_unref(self->slots);
	g_free(self);
}

static void
leave(ClusterSchedClasses *self, ClusterSchedClass *klass)
{
	if (klass == NULL || --klass->members > 0)
		return;
	g_hash_table_steal(self->classes, &klass->key);
	g_ptr_array_add(self->spare, klass);
}

/* The node list was rebuilt (nodes added or removed): every slot is recomputed. */
void
cluster_sched_classes_reset(ClusterSchedClasses *self, guint n_nodes)
{
	for (guint i = 0; i < self->slots->len; i++)
		leave(self, g_array_index(self->slots, NodeSlot, i).klass);
	g_array_set_size(self->slots, 0);
	g_array_set_size(self->slots, n_nodes);
}

/* Taints in order as text: equal text = equal taints. */
static guint
taints_id(ClusterSchedClasses *self, const ClusterNode *node)
{
	gpointer id;

	if (node->taints->len == 0)
		return 0;
	g_string_truncate(self->text, 0);
	for (guint i = 0; i < node->taints->len; i++) {
		const ClusterTaint *t = &g_array_index(node->taints, ClusterTaint, i);

		/* \x01 cannot appear in a taint's key or value; no printf (it allocates) */
		g_string_append(self->text, t->key);
		g_string_append_c(self->text, '\x01');
		g_string_append(self->text, t->value);
		g_string_append_c(self->text, '\x01');
		g_string_append_c(self->text, (char)('0' + (int)t->effect));
	}
	id = g_hash_table_lookup(self->taint_id, self->text->str);
	if (id == NULL) {
		id = GUINT_TO_POINTER(g_hash_table_size(self->taint_id) + 1);
		g_hash_table_insert(self->taint_id, g_strdup(self->text->str), id);
	}
	return GPOINTER_TO_UINT(id);
}

static ClusterSchedClass *
join(ClusterSchedClasses *self, const ClusterNode *node)
{
	ClassKey key = { .allocatable = node->allocatable,
		         .requested = node->requested,
		         .nonzero_requested = node->nonzero_requested,
		         .taints_id = taints_id(self, node),
		         .unschedulable = node->unschedulable != FALSE,
		         .dra_sig = node->dra_sig,
		         .owner = node->gpushare != NULL ? node : NULL };
	ClusterSchedClass *klass = g_hash_table_lookup(self->classes, &key);

	if (klass == NULL) {
		klass = self->spare->len > 0
		                ? g_ptr_array_steal_index_fast(self->spare, self->spare->len - 1)
		                : g_new(ClusterSchedClass, 1);
		*klass = (ClusterSchedClass){ .key = key };
		g_hash_table_add(self->classes, klass);
	}
	klass->members++;
	return klass;
}

ClusterSchedClass *
cluster_sched_classes_of(ClusterSchedClasses *self, const ClusterNode *node)
{
	NodeSlot *slot = &g_array_index(self->slots, NodeSlot, node->index);

	if (G_LIKELY(slot->klass != NULL && slot->node == node && slot->gen == node->state_gen))
		return slot->klass;
	leave(self, slot->klass);
	slot->klass = join(self, node);
	slot->node = node;
	slot->gen = node->state_gen;
	return slot->klass;
}

ClusterSchedClassMemo *
cluster_sched_class_get_memo(ClusterSchedClass *klass)
{
	return &klass->memo;
}

guint
cluster_sched_classes_get_n_classes(const ClusterSchedClasses *self)
{
	return g_hash_table_size(self->classes);
}
