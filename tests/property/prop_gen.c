/*
 * prop_gen.c: random allocator cases, as case-file text, from (seed, index).
 *
 * Small on purpose (the brute force must finish): 1-4 nodes, 1-3 pools of
 * 1-4 devices (sometimes 8), some for other nodes, some node-independent
 * (allNodes or a nodeSelector), sometimes split into two slices or shadowed
 * by an outdated generation. Devices have string, int, bool and version
 * attributes and a memory capacity. Half the cases switch on the alpha gates
 * DRAPartitionableDevices and DRAConsumableCapacity, and then also draw shared
 * counters with consumesCounters partitions, multi-allocatable devices with
 * request policies, capacity requests and distinctAttribute. Selectors come
 * from a small CEL grammar whose atoms guard every lookup with `in`, so no
 * selector fails at run time. Claims: 1-3, with ExactCount (1-3), All,
 * firstAvailable and matchAttribute constraints; some devices are held by
 * other claims.
 */
#include <string.h>

#include "prop.h"

static const char *const drivers[] = { "gpu.example.com", "nic.example.com" };
static const char *const models[] = { "a100", "h100", "l4" };
static const gint64 mems[] = { 16, 40, 80 };
static const char *const versions[] = { "1.0.0", "1.2.0", "2.0.0" };
static const char *const attr_names[] = { "numa", "model", "mem" };

typedef struct {
	GRand *r;
	GString *s;
	gboolean alpha;
	guint n_nodes;
} Gen;

static gboolean
chance(Gen *g, guint percent)
{
	return (guint)g_rand_int_range(g->r, 0, 100) < percent;
}

static guint
pick(Gen *g, guint n)
{
	return (guint)g_rand_int_range(g->r, 0, (gint32)n);
}

/* One atom of the selector grammar (guarded, never a runtime error). */
static char *
atom(Gen *g)
{
	const char *d = drivers[chance(g, 80) ? 0 : 1];
	switch (pick(g, g->alpha ? 7 : 6)) {
	case 0:
		return g_strdup_printf("device.driver == \"%s\"", d);
	case 1:
		return g_strdup_printf("\"model\" in device.attributes[\"%s\"] && "
		                       "device.attributes[\"%s\"].model == \"%s\"",
		                       d, d, models[pick(g, 3)]);
	case 2:
		return g_strdup_printf("\"mem\" in device.attributes[\"%s\"] && "
		                       "device.attributes[\"%s\"].mem >= %" G_GINT64_FORMAT,
		                       d, d, mems[pick(g, 3)]);
	case 3:
		return g_strdup_printf("\"mig\" in device.attributes[\"%s\"] && "
		                       "device.attributes[\"%s\"].mig",
		                       d, d);
	case 4:
		return g_strdup_printf(
		        "\"ver\" in device.attributes[\"%s\"] && "
		        "device.attributes[\"%s\"].ver.isGreaterThan(semver(\"%s\"))",
		        d, d, versions[pick(g, 2)]);
	case 5:
		return g_strdup_printf(
		        "\"memory\" in device.capacity[\"%s\"] && "
		        "device.capacity[\"%s\"].memory.compareTo(quantity(\"%" G_GINT64_FORMAT
		        "\")) >= 0",
		        d, d, mems[pick(g, 3)]);
	default:
		return g_strdup("device.allowMultipleAllocations");
	}
}

/* atom | !(atom) | atom || atom */
static char *
selector(Gen *g)
{
	g_autofree char *a = atom(g);
	switch (pick(g, 4)) {
	case 0:
		return g_strdup_printf("!(%s)", a);
	case 1: {
		g_autofree char *b = atom(g);
		return g_strdup_printf("(%s) || (%s)", a, b);
	}
	default:
		return g_steal_pointer(&a);
	}
}

static void
quoted(Gen *g, const char *text)
{
	g_string_append_c(g->s, '"');
	for (const char *p = text; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\') {
			g_string_append_c(g->s, '\\');
		}
		g_string_append_c(g->s, *p);
	}
	g_string_append_c(g->s, '"');
}

static void
selectors(Gen *g, const char *indent, guint n)
{
	if (n > 0) {
		g_string_append_printf(g->s, "%sselectors:\n", indent);
	}
	for (guint i = 0; i < n; i++) {
		g_autofree char *e = selector(g);
		g_string_append_printf(g->s, "%s- cel: {expression: ", indent);
		quoted(g, e);
		g_string_append(g->s, "}\n");
	}
}

static void
classes(Gen *g)
{
	static const char *const names[] = { "gpu", "any", "picky" };
	guint first = pick(g, 3);
	for (guint k = 0; k < 3; k++) {
		guint i = (first + k) % 3; /* classes in any order: lookups are by name */
		g_string_append_printf(g->s,
		                       "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
		                       "metadata: {name: %s}\nspec:\n",
		                       names[i]);
		if (i == 0) {
			g_string_append(g->s, "  selectors:\n  - cel: {expression: "
			                      "\"device.driver == \\\"gpu.example.com\\\"\"}\n");
		} else if (i == 1) {
			g_string_append(g->s, "  selectors: []\n");
		} else {
			selectors(g, "  ", 1);
		}
	}
}

/* Returns whether the device is multi-allocatable. */
static gboolean
device(Gen *g, const char *name, gboolean counters)
{
	gboolean multi = g->alpha && chance(g, 25);
	g_string_append_printf(g->s, "  - name: %s\n    attributes:\n", name);
	g_string_append_printf(g->s, "      numa: {int: %u}\n", pick(g, 2));
	if (chance(g, 80)) {
		g_string_append_printf(g->s, "      model: {string: %s}\n", models[pick(g, 3)]);
	}
	if (chance(g, 80)) {
		g_string_append_printf(g->s, "      mem: {int: %" G_GINT64_FORMAT "}\n",
		                       mems[pick(g, 3)]);
	}
	if (chance(g, 60)) {
		g_string_append_printf(g->s, "      mig: {bool: %s}\n",
		                       chance(g, 50) ? "true" : "false");
	}
	if (chance(g, 60)) {
		g_string_append_printf(g->s, "      ver: {version: %s}\n", versions[pick(g, 3)]);
	}
	if (multi || chance(g, 70)) {
		g_string_append_printf(
		        g->s, "    capacity:\n      memory: {value: \"%" G_GINT64_FORMAT "\"%s}\n",
		        mems[pick(g, 3)],
		        multi && chance(g, 60) ? ", requestPolicy: {default: \"8\", "
		                                 "validRange: {min: \"4\", step: \"4\"}}"
		                               : "");
	}
	if (multi) {
		g_string_append(g->s, "    allowMultipleAllocations: true\n");
	}
	if (counters && chance(g, 60)) {
		g_string_append_printf(g->s,
		                       "    consumesCounters:\n    - {counterSet: parts, counters: "
		                       "{mem: {value: \"%u\"}}}\n",
		                       2 + pick(g, 5));
	}
	return multi;
}

static void
slice_head(Gen *g, const char *pool, guint part, const char *driver, guint gen, guint count)
{
	g_string_append_printf(g->s,
	                       "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\n"
	                       "metadata: {name: %s-g%u-%u}\nspec:\n  driver: %s\n"
	                       "  pool: {name: %s, generation: %u, resourceSliceCount: %u}\n",
	                       pool, gen, part, driver, pool, gen, count);
}

/* Where a pool's slices are: mostly this node, sometimes another, or node-independent. */
static char *
node_selection(Gen *g)
{
	guint k = pick(g, 100);
	if (k < 50) {
		return g_strdup("  nodeName: node-0\n");
	}
	if (k < 70) {
		return g_strdup_printf("  nodeName: node-%u\n", pick(g, g->n_nodes));
	}
	if (k < 85) {
		return g_strdup("  allNodes: true\n");
	}
	return g_strdup_printf("  nodeSelector:\n    nodeSelectorTerms:\n    - matchExpressions:\n"
	                       "      - {key: zone, operator: In, values: [%s]}\n",
	                       chance(g, 50) ? "a" : "b");
}

static void
pool(Gen *g, guint p, GPtrArray *device_ids)
{
	g_autofree char *pool_name = g_strdup_printf("pool-%u", p);
	g_autofree char *where = node_selection(g);
	const char *driver = drivers[chance(g, 80) ? 0 : 1];
	guint n_dev = chance(g, 10) ? 8 : 1 + pick(g, 4);
	guint n_slices = n_dev > 1 && chance(g, 20) ? 2 : 1;
	guint gen = 1;
	gboolean counters = g->alpha && chance(g, 40);

	if (chance(g, 10)) {
		/* an outdated generation: the allocator must not see it */
		slice_head(g, pool_name, 0, driver, 1, 1);
		g_string_append_printf(g->s, "%s  devices:\n", where);
		device(g, "stale-0", FALSE);
		gen = 2;
	}
	for (guint part = 0; part < n_slices; part++) {
		slice_head(g, pool_name, part, driver, gen, n_slices);
		g_string_append(g->s, where);
		if (counters) {
			g_string_append_printf(g->s,
			                       "  sharedCounters:\n  - {name: parts, counters: "
			                       "{mem: {value: \"%u\"}}}\n",
			                       4 + pick(g, 9));
		}
		g_string_append(g->s, "  devices:\n");
		for (guint d = part; d < n_dev; d += n_slices) {
			g_autofree char *name = g_strdup_printf("dev-%u", d);
			gboolean multi = device(g, name, counters);
			g_ptr_array_add(device_ids,
			                g_strdup_printf("%s %s %s %s", driver, pool_name, name,
			                                multi ? "multi" : "dedicated"));
		}
	}
}

static void
exact(Gen *g, const char *indent)
{
	static const char *const class_names[] = { "gpu", "any", "picky" };
	g_string_append_printf(g->s, "%sdeviceClassName: %s\n", indent,
	                       class_names[chance(g, 45)   ? 0
	                                   : chance(g, 70) ? 1
	                                                   : 2]);
	if (chance(g, 12)) {
		g_string_append_printf(g->s, "%sallocationMode: All\n", indent);
	} else {
		g_string_append_printf(g->s, "%sallocationMode: ExactCount\n%scount: %u\n", indent,
		                       indent, chance(g, 60) ? 1 : 2 + pick(g, 2));
	}
	selectors(g, indent, chance(g, 40) ? 1 : 0);
	if (g->alpha && chance(g, 25)) {
		g_string_append_printf(g->s, "%scapacity:\n%s  requests: {memory: \"%u\"}\n",
		                       indent, indent, 4 * (1 + pick(g, 5)));
	}
}

static void
constraint(Gen *g, guint n_requests)
{
	g_string_append(g->s, "    constraints:\n    - requests: [");
	if (n_requests > 1 && chance(g, 40)) {
		g_string_append_printf(g->s, "req-%u", pick(g, n_requests));
	}
	if (g->alpha && chance(g, 20)) {
		g_string_append(g->s, "]\n      distinctAttribute: gpu.example.com/numa\n");
	} else {
		g_string_append_printf(g->s, "]\n      matchAttribute: gpu.example.com/%s\n",
		                       attr_names[pick(g, 3)]);
	}
}

static void
claim(Gen *g, guint c)
{
	guint n_requests = 1 + (chance(g, 30) ? 1 : 0);
	g_string_append_printf(g->s,
	                       "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
	                       "metadata: {name: claim-%u, namespace: default}\nspec:\n"
	                       "  devices:\n    requests:\n",
	                       c);
	for (guint q = 0; q < n_requests; q++) {
		g_string_append_printf(g->s, "    - name: req-%u\n", q);
		if (chance(g, 25)) {
			g_string_append(g->s, "      firstAvailable:\n");
			for (guint s = 0; s < 2; s++) {
				g_string_append_printf(g->s, "      - name: sub-%u\n", s);
				exact(g, "        ");
			}
		} else {
			g_string_append(g->s, "      exactly:\n");
			exact(g, "        ");
		}
	}
	if (chance(g, 40)) {
		constraint(g, n_requests);
	}
}

static void
held(Gen *g, GPtrArray *device_ids)
{
	gboolean any = FALSE;
	for (guint i = 0; i < device_ids->len; i++) {
		g_auto(GStrv) id = g_strsplit(device_ids->pdata[i], " ", 4);
		if (!chance(g, 15)) {
			continue;
		}
		if (!any) {
			g_string_append(g->s,
			                "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
			                "metadata: {name: held-by-others, namespace: default}\n"
			                "spec:\n  devices:\n    requests:\n    - name: held\n"
			                "      exactly: {deviceClassName: held}\nstatus:\n"
			                "  allocation:\n    devices:\n      results:\n");
			any = TRUE;
		}
		g_string_append_printf(g->s,
		                       "      - {request: held, driver: %s, pool: %s, device: %s",
		                       id[0], id[1], id[2]);
		if (strcmp(id[3], "multi") == 0 && chance(g, 60)) {
			/* a share of a multi-allocatable device, with the capacity it took */
			g_string_append_printf(g->s,
			                       ", shareID: 00000000-0000-4000-8000-%012u, "
			                       "consumedCapacity: {memory: \"%u\"}",
			                       i, 4 * (1 + pick(g, 4)));
		}
		g_string_append(g->s, "}\n");
	}
}

char *
prop_gen_case(guint64 seed, guint index)
{
	guint32 key[3] = { (guint32)seed, (guint32)(seed >> 32), index };
	g_autoptr(GRand) r = g_rand_new_with_seed_array(key, 3);
	g_autoptr(GPtrArray) device_ids = g_ptr_array_new_with_free_func(g_free);
	Gen g = { r, g_string_new(NULL), FALSE, 0 };

	g.alpha = chance(&g, 50);
	g.n_nodes = 1 + pick(&g, 4);
	guint n_claims = 1 + (chance(&g, 35) ? 1 + (chance(&g, 30) ? 1 : 0) : 0);
	g_string_append_printf(g.s,
	                       "kind: AllocatorPropertyCase\nseed: %" G_GUINT64_FORMAT
	                       "\ncase: %u\nfeatures: [DRAAdminAccess, DRAPrioritizedList, "
	                       "DRAResourceClaimDeviceStatus%s]\n"
	                       "node:\n  name: node-0\n  labels: {zone: a}\n"
	                       "claimsToAllocate: [",
	                       seed, index,
	                       g.alpha ? ", DRAPartitionableDevices, DRAConsumableCapacity" : "");
	for (guint c = 0; c < n_claims; c++) {
		g_string_append_printf(g.s, "%sclaim-%u", c > 0 ? ", " : "", c);
	}
	g_string_append(g.s, "]\n");
	classes(&g);
	guint n_pools = 1 + pick(&g, 3);
	for (guint p = 0; p < n_pools; p++) {
		pool(&g, p, device_ids);
	}
	held(&g, device_ids);
	for (guint c = 0; c < n_claims; c++) {
		claim(&g, c);
	}
	return g_string_free(g.s, FALSE);
}
