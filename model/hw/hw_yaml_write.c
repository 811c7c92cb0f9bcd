/*
 * hw_yaml_write.c: published objects as `kubectl get -o yaml` prints them.
 *
 * kubectl goes through JSON, so every mapping comes out with its keys sorted and
 * strings that would read back as another type are double-quoted ("1", ""). Quantities
 * are strings in JSON, hence `value: "1"`. The output is a `kind: List`.
 */
#include <stdlib.h>
#include <string.h>

#include "hw-private.h"

/* The document is a stream of libyaml events; where they go is the caller's. */
typedef struct {
	HwYamlEventFn fn;
	gpointer data;
} Writer;

static void
emit(Writer *w, yaml_event_t *event)
{
	w->fn(event, w->data);
}

/* Would a plain scalar @text read back as something other than a string? */
static gboolean
needs_quotes(const char *text)
{
	static const char *const words[] = { "true", "false", "yes", "no",   "on",
		                             "off",  "y",     "n",   "null", "~" };
	char *end = NULL;
	gboolean sexagesimal = strchr(text, ':') != NULL;

	if (*text == '\0') {
		return TRUE;
	}
	for (guint i = 0; i < G_N_ELEMENTS(words); i++) {
		if (g_ascii_strcasecmp(text, words[i]) == 0) {
			return TRUE;
		}
	}
	(void)g_ascii_strtod(text, &end);
	if (end != NULL && *end == '\0') {
		return TRUE;
	}
	for (const char *c = text; *c != '\0'; c++) {
		sexagesimal = sexagesimal && (g_ascii_isdigit(*c) || *c == ':' || *c == '.');
	}
	return sexagesimal;
}

static void
scalar(Writer *w, const char *text, gboolean is_string)
{
	yaml_event_t event;
	gboolean quote = is_string && needs_quotes(text);

	yaml_scalar_event_initialize(
	        &event, NULL, NULL, (yaml_char_t *)text, (int)strlen(text), !quote, quote,
	        quote ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
	emit(w, &event);
}

static void
str(Writer *w, const char *text)
{
	scalar(w, text, TRUE);
}

static void
num(Writer *w, gint64 value)
{
	g_autofree char *text = g_strdup_printf("%" G_GINT64_FORMAT, value);

	scalar(w, text, FALSE);
}

static void
map_start(Writer *w)
{
	yaml_event_t event;

	yaml_mapping_start_event_initialize(&event, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	emit(w, &event);
}

static void
map_end(Writer *w)
{
	yaml_event_t event;

	yaml_mapping_end_event_initialize(&event);
	emit(w, &event);
}

static void
seq_start(Writer *w)
{
	yaml_event_t event;

	yaml_sequence_start_event_initialize(&event, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
	emit(w, &event);
}

static void
seq_end(Writer *w)
{
	yaml_event_t event;

	yaml_sequence_end_event_initialize(&event);
	emit(w, &event);
}

static void
kv(Writer *w, const char *key, const char *value)
{
	str(w, key);
	str(w, value);
}

/* ---- objects ---- */

static int
qty_compare(gconstpointer a, gconstpointer b)
{
	return strcmp(((const HwQty *)a)->name, ((const HwQty *)b)->name);
}

static int
attr_compare(gconstpointer a, gconstpointer b)
{
	return strcmp(((const HwAttr *)a)->name, ((const HwAttr *)b)->name);
}

/* {name: {value: "80Gi"}} with names sorted; @qtys itself is not reordered. */
static void
write_counters(Writer *w, const GArray *qtys)
{
	g_autofree HwQty *sorted = g_memdup2(qtys->data, qtys->len * sizeof(HwQty));

	qsort(sorted, qtys->len, sizeof(HwQty), qty_compare);
	map_start(w);
	for (guint i = 0; i < qtys->len; i++) {
		g_autofree char *text = hw_qty_format(sorted[i].value, sorted[i].format);

		str(w, sorted[i].name);
		map_start(w);
		kv(w, "value", text);
		map_end(w);
	}
	map_end(w);
}

static void
write_attrs(Writer *w, const GArray *attrs)
{
	g_autofree HwAttr *sorted = g_memdup2(attrs->data, attrs->len * sizeof(HwAttr));

	qsort(sorted, attrs->len, sizeof(HwAttr), attr_compare);
	map_start(w);
	for (guint i = 0; i < attrs->len; i++) {
		const HwAttr *a = &sorted[i];

		str(w, a->name);
		map_start(w);
		switch (a->type) {
		case HW_ATTR_STRING:
			kv(w, "string", a->str);
			break;
		case HW_ATTR_VERSION:
			kv(w, "version", a->str);
			break;
		case HW_ATTR_INT:
			str(w, "int");
			num(w, a->num);
			break;
		case HW_ATTR_BOOL:
			str(w, "bool");
			scalar(w, a->num ? "true" : "false", FALSE);
			break;
		}
		map_end(w);
	}
	map_end(w);
}

static void
write_device(Writer *w, const HwDevice *d)
{
	map_start(w);
	if (d->attrs->len > 0) {
		str(w, "attributes");
		write_attrs(w, d->attrs);
	}
	if (d->capacity->len > 0) {
		str(w, "capacity");
		write_counters(w, d->capacity);
	}
	if (d->consumes->len > 0) {
		str(w, "consumesCounters");
		seq_start(w);
		for (guint i = 0; i < d->consumes->len; i++) {
			const HwConsumption *c = &g_array_index(d->consumes, HwConsumption, i);

			map_start(w);
			kv(w, "counterSet", c->counter_set);
			str(w, "counters");
			write_counters(w, c->counters);
			map_end(w);
		}
		seq_end(w);
	}
	kv(w, "name", d->name);
	map_end(w);
}

static void
write_slice(Writer *w, const HwSlice *s)
{
	map_start(w);
	kv(w, "apiVersion", "resource.k8s.io/v1");
	kv(w, "kind", "ResourceSlice");
	str(w, "metadata");
	map_start(w);
	kv(w, "name", s->name);
	map_end(w);
	str(w, "spec");
	map_start(w);
	if (s->devices->len > 0) {
		str(w, "devices");
		seq_start(w);
		for (guint i = 0; i < s->devices->len; i++) {
			write_device(w, g_ptr_array_index(s->devices, i));
		}
		seq_end(w);
	}
	kv(w, "driver", s->driver);
	kv(w, "nodeName", s->node_name);
	str(w, "pool");
	map_start(w);
	str(w, "generation");
	num(w, s->generation);
	kv(w, "name", s->pool);
	str(w, "resourceSliceCount");
	num(w, s->slice_count);
	map_end(w);
	if (s->counter_sets->len > 0) {
		str(w, "sharedCounters");
		seq_start(w);
		for (guint i = 0; i < s->counter_sets->len; i++) {
			const HwCounterSet *set = g_ptr_array_index(s->counter_sets, i);

			map_start(w);
			str(w, "counters");
			write_counters(w, set->counters);
			kv(w, "name", set->name);
			map_end(w);
		}
		seq_end(w);
	}
	map_end(w);
	map_end(w);
}

static void
write_class(Writer *w, const HwDeviceClass *c)
{
	map_start(w);
	kv(w, "apiVersion", "resource.k8s.io/v1");
	kv(w, "kind", "DeviceClass");
	str(w, "metadata");
	map_start(w);
	kv(w, "name", c->name);
	map_end(w);
	str(w, "spec");
	map_start(w);
	if (c->extended_resource_name != NULL) {
		kv(w, "extendedResourceName", c->extended_resource_name);
	}
	str(w, "selectors");
	seq_start(w);
	map_start(w);
	str(w, "cel");
	map_start(w);
	kv(w, "expression", c->expression);
	map_end(w);
	map_end(w);
	seq_end(w);
	map_end(w);
	map_end(w);
}

static void
write_string_map(Writer *w, const GPtrArray *keys, const GPtrArray *values)
{
	map_start(w);
	for (guint i = 0; i < keys->len; i++) {
		kv(w, g_ptr_array_index(keys, i), g_ptr_array_index(values, i));
	}
	map_end(w);
}

static void
write_node(Writer *w, const HwNodeObject *n)
{
	map_start(w);
	kv(w, "apiVersion", "v1");
	kv(w, "kind", "Node");
	str(w, "metadata");
	map_start(w);
	str(w, "labels");
	write_string_map(w, n->label_keys, n->label_values);
	kv(w, "name", n->name);
	map_end(w);
	str(w, "status");
	map_start(w);
	str(w, "allocatable");
	write_string_map(w, n->resource_names, n->resource_values);
	str(w, "capacity");
	write_string_map(w, n->resource_names, n->resource_values);
	map_end(w);
	map_end(w);
}

void
hw_yaml__write_events(const GPtrArray *nodes,
                      const HwDeviceClass *classes,
                      const GPtrArray *slices,
                      HwYamlEventFn fn,
                      gpointer data)
{
	Writer w = { .fn = fn, .data = data };
	yaml_event_t event;

	yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING);
	emit(&w, &event);
	yaml_document_start_event_initialize(&event, NULL, NULL, NULL, 1);
	emit(&w, &event);
	map_start(&w);
	kv(&w, "apiVersion", "v1");
	str(&w, "items");
	seq_start(&w);
	for (guint i = 0; nodes != NULL && i < nodes->len; i++) {
		write_node(&w, g_ptr_array_index(nodes, i));
	}
	for (guint i = 0; classes != NULL && classes[i].name != NULL; i++) {
		write_class(&w, &classes[i]);
	}
	for (guint i = 0; slices != NULL && i < slices->len; i++) {
		write_slice(&w, g_ptr_array_index(slices, i));
	}
	seq_end(&w);
	kv(&w, "kind", "List");
	str(&w, "metadata");
	map_start(&w);
	kv(&w, "resourceVersion", "");
	map_end(&w);
	map_end(&w);
	yaml_document_end_event_initialize(&event, 1);
	emit(&w, &event);
	yaml_stream_end_event_initialize(&event);
	emit(&w, &event);
}

typedef struct {
	yaml_emitter_t emitter;
	GString *out;
} TextSink;

static int
write_handler(void *data, unsigned char *buffer, size_t size)
{
	g_string_append_len(((TextSink *)data)->out, (const char *)buffer, (gssize)size);
	return 1;
}

static void
emit_text(yaml_event_t *event, gpointer data)
{
	TextSink *sink = data;

	/* The emitter fails only on misuse of the event API, a programming error. */
	if (!yaml_emitter_emit(&sink->emitter, event)) {
		g_error("hw_yaml_write: emitter: %s", sink->emitter.problem);
	}
}

char *
hw_yaml_write_list(const GPtrArray *nodes, const HwDeviceClass *classes, const GPtrArray *slices)
{
	TextSink sink = { .out = g_string_new(NULL) };

	yaml_emitter_initialize(&sink.emitter);
	yaml_emitter_set_output(&sink.emitter, write_handler, &sink);
	yaml_emitter_set_unicode(&sink.emitter, 1);
	yaml_emitter_set_width(&sink.emitter, -1);
	hw_yaml__write_events(nodes, classes, slices, emit_text, &sink);
	yaml_emitter_delete(&sink.emitter);
	return g_string_free(sink.out, FALSE);
}
