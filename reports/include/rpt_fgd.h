/*
 * rpt_fgd.h: the FGD experiment's HTML page (`drasim experiment fgd
 * --format html`), drawn from the experiment's own fgd.json text
 * (drasim.io/fgd/v1, docs/experiment.md), so the page and the data never
 * disagree and a page can be redrawn from a saved fgd.json.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define RPT_FGD_ERROR (rpt_fgd_error_quark())
GQuark rpt_fgd_error_quark(void);

/**
 * rpt_fgd_html:
 * @json: fgd.json's text; @len: its length, or -1 if NUL-terminated
 * Returns: (transfer full): the page, or NULL with @error naming the field
 *   path that is missing or of the wrong type.
 */
char *rpt_fgd_html(const char *json, gssize len, GError **error);

G_END_DECLS
