/*
 * rpt_sink.c: the pieces shared by the streamed writers (RptSink, rpt.h).
 *
 * A report of two million pods is 700 MB of JSON; built as one string it
 * was held two or three times over (issue 19, item 2). The per-pod writers
 * instead fill a buffer of about RPT_SINK_CHUNK bytes and pass it on each
 * time it is full, so a report costs the same memory at any pod count. The
 * *_to_string() forms run the same writers into a string sink, so both give
 * the same bytes by construction.
 */
#include "rpt-private.h"

gboolean
rpt__sink_pass(const RptSink *sink, GString *text, gsize at_least, GError **error)
{
	if (text->len == 0 || text->len < at_least)
		return TRUE;
	if (!sink->write(sink->data, text->str, text->len, error))
		return FALSE;
	g_string_truncate(text, 0);
	return TRUE;
}

static gboolean
string_sink_write(gpointer data, const char *bytes, gsize length, GError **error)
{
	(void)error;
	g_string_append_len(data, bytes, (gssize)length);
	return TRUE;
}

char *
rpt__produce_to_string(RptProduceFunc produce, gconstpointer subject)
{
	GString *out = g_string_new(NULL);
	gboolean ok = produce(subject, &(RptSink){ string_sink_write, out }, NULL);

	/* a string sink does not fail, and the writers fail only when the sink does */
	g_assert(ok);
	return g_string_free(out, FALSE);
}
