/*
 * k8s_yaml_feed.h: build the node tree from libyaml events that a program
 * makes, instead of from text.
 *
 * drasim publishes every simulated node as YAML (model/hw) and reads it back
 * with the same decoder as user manifests. Writing the text and parsing it
 * again costs more than the rest of a node's set-up; handing the writer's
 * events straight to the tree builder gives the same tree (the same nodes,
 * styles and text) without either. What is lost is the text: nodes built this
 * way all sit at line 1, column 1, so callers that need positioned messages
 * go through the text when a diagnostic appears (hw_publish_api.c).
 */
#pragma once

#include <yaml.h>

#include "k8s_objects.h"
#include "k8s_yaml.h"

G_BEGIN_DECLS

typedef struct K8sYamlFeed K8sYamlFeed;

/* Like k8s_yaml_parse_stream()'s set-up, for a "file" with no text. (transfer full) */
K8sYamlFeed *k8s_yaml_feed_new(const char *file,
                               BaseArena *arena,
                               GStringChunk *strings,
                               K8sYamlItemFn item_fn,
                               gpointer user_data,
                               K8sDiagList *diags);

/*
 * One event, as the parser would have reported it: a scalar's style decides
 * its type as in the text (YAML_ANY_SCALAR_STYLE counts as plain). The event
 * stays the caller's.
 */
void k8s_yaml_feed_event(K8sYamlFeed *feed, const yaml_event_t *event);

/* The documents into @out (as k8s_yaml_parse_stream's); frees @feed. */
gboolean k8s_yaml_feed_finish(K8sYamlFeed *feed, K8sYamlFile *out);

/* Makes the events of one stream, calling k8s_yaml_feed_event() for each. */
typedef void (*K8sYamlProducer)(K8sYamlFeed *feed, gpointer data);

/*
 * k8s_load_events:
 * k8s_load_data() for the events @produce makes: decoded, validated and
 * added to @set the same way, with @name as the file of every position.
 */
gboolean k8s_load_events(const char *name,
                         K8sYamlProducer produce,
                         gpointer data,
                         K8sLoadFlags flags,
                         K8sObjectSet *set,
                         K8sDiagList *diags);

G_END_DECLS
