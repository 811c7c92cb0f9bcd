/*
 * yaml_events.c: the libyaml-only parse both YAML benchmarks time (see
 * yaml_events.h); the callers own the clock, so each keeps its own measure.
 */
#include "yaml_events.h"

#include <stdio.h>

#include <yaml.h>

guint64
yaml_events_count(const char *data, gsize len, const char *who)
{
	yaml_parser_t parser;
	yaml_event_t event;
	gboolean done = FALSE;
	guint64 events = 0;

	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)data, len);
	while (!done) {
		if (!yaml_parser_parse(&parser, &event)) {
			fprintf(stderr, "%s: libyaml: %s\n", who, parser.problem);
			break;
		}
		done = event.type == YAML_STREAM_END_EVENT;
		events++;
		yaml_event_delete(&event);
	}
	yaml_parser_delete(&parser);
	return events;
}
