/*
 * cel_lib_k8s_ip.c: the Kubernetes IP and CIDR CEL libraries (net.IP, net.CIDR) of
 * k8s.io/apiserver/pkg/cel/library/ip.go and cidr.go, enabled in the base environment since
 * Kubernetes 1.30.
 *
 * Parsing and printing follow Go's net/netip (ParseAddr, ParsePrefix, Addr.String with
 * RFC 5952 compression), plus the library's own rules: no zones, no IPv4-mapped IPv6.
 */
#include <string.h>

#include "cel_lib_k8s.h"

typedef struct {
	guint8 b[16]; /* IPv4 in b[0..3] */
	gboolean is4;
} IpAddr;

typedef struct {
	CelObject base;
	IpAddr addr;
} IpObj;

typedef struct {
	CelObject base;
	IpAddr addr;
	guint bits;
} CidrObj;

/* ---- parsing (netip.ParseAddr) ---- */

static gboolean
parse_ipv4(const char *s, gsize len, guint8 out[4], const char **why)
{
	guint field = 0, val = 0, digits = 0;
	for (gsize i = 0; i <= len; i++) {
		if (i == len || s[i] == '.') {
			if (digits == 0) {
				*why = i == len && field < 3
				               ? "IPv4 address too short"
				               : "IPv4 field must have at least one digit";
				return FALSE;
			}
			if (field > 3) {
				*why = "IPv4 address too long";
				return FALSE;
			}
			out[field++] = (guint8)val;
			val = 0;
			digits = 0;
			continue;
		}
		if (s[i] < '0' || s[i] > '9') {
			*why = "unexpected character";
			return FALSE;
		}
		if (digits == 1 && val == 0) {
			*why = "IPv4 field has octet with leading zero";
			return FALSE;
		}
		val = val * 10 + (guint)(s[i] - '0');
		digits++;
		if (val > 255) {
			*why = "IPv4 field has value >255";
			return FALSE;
		}
	}
	if (field < 4) {
		*why = "IPv4 address too short";
		return FALSE;
	}
	return TRUE;
}

static int
hexval(char c)
{
	return g_ascii_isxdigit(c) ? g_ascii_xdigit_value(c) : -1;
}

/* One colon-separated field of 1 to 4 hex digits at *p, which moves past it. */
static gboolean
hex_field(const char *s, gsize len, gsize *p, guint *val, const char **why)
{
	gsize start = *p;
	*val = 0;
	while (*p < len && hexval(s[*p]) >= 0 && *p - start < 5) {
		*val = *val * 16 + (guint)hexval(s[*p]);
		(*p)++;
	}
	if (*p - start > 4) {
		*why = "IPv6 field has value >=2^16";
		return FALSE;
	}
	if (*p == start) {
		*why = "each colon-separated field must have at least one digit";
		return FALSE;
	}
	return TRUE;
}

/* Widens the @n bytes read to 16 by the zeros "::" (at byte @ellipsis, -1 if none) stands for. */
static gboolean
expand_ellipsis(guint8 out[16], guint n, int ellipsis, const char **why)
{
	if (n < 16) {
		if (ellipsis < 0) {
			*why = "address string too short";
			return FALSE;
		}
		guint zeros = 16 - n;
		memmove(out + ellipsis + zeros, out + ellipsis, n - (guint)ellipsis);
		memset(out + ellipsis, 0, zeros);
	} else if (ellipsis >= 0) {
		*why = "the :: must expand to at least one field of zeros";
		return FALSE;
	}
	return TRUE;
}

static gboolean
parse_ipv6(const char *s, gsize len, guint8 out[16], const char **why)
{
	int ellipsis = -1;
	guint i = 0; /* bytes written */
	gsize p = 0;

	if (len >= 2 && s[0] == ':' && s[1] == ':') {
		ellipsis = 0;
		p = 2;
		if (p == len) {
			memset(out, 0, 16);
			return TRUE;
		}
	}
	while (i < 16) {
		gsize start = p;
		guint val = 0;
		if (!hex_field(s, len, &p, &val, why)) {
			return FALSE;
		}
		if (p < len && s[p] == '.') {
			/* Embedded IPv4 in the last 32 bits. */
			if (ellipsis < 0 && i != 12) {
				*why = "embedded IPv4 address must replace the final 2 fields";
				return FALSE;
			}
			if (i + 4 > 16) {
				*why = "too many hex fields to fit an embedded IPv4 at the end";
				return FALSE;
			}
			if (!parse_ipv4(s + start, len - start, out + i, why)) {
				return FALSE;
			}
			i += 4;
			p = len;
			break;
		}
		out[i++] = (guint8)(val >> 8);
		out[i++] = (guint8)val;
		if (p == len) {
			break;
		}
		if (s[p] != ':') {
			*why = "unexpected character, want colon";
			return FALSE;
		}
		p++;
		if (p < len && s[p] == ':') {
			if (ellipsis >= 0) {
				*why = "multiple :: in address";
				return FALSE;
			}
			ellipsis = (int)i;
			p++;
			if (p == len) {
				break;
			}
		} else if (p == len) {
			*why = "colon must be followed by more characters";
			return FALSE;
		}
	}
	if (p != len) {
		*why = "trailing garbage after address";
		return FALSE;
	}
	return expand_ellipsis(out, i, ellipsis, why);
}

static gboolean
is_4in6(const IpAddr *a)
{
	static const guint8 prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	return !a->is4 && memcmp(a->b, prefix, 12) == 0;
}

/* netip.ParseAddr: FALSE with the reason in *why; *zone says a "%zone" was present. */
static gboolean
parse_addr(const char *s, gsize len, IpAddr *out, const char **why, gboolean *zone)
{
	memset(out, 0, sizeof *out);
	*zone = FALSE;
	*why = "unable to parse IP";
	for (gsize i = 0; i < len; i++) {
		if (s[i] == '.') {
			out->is4 = TRUE;
			return parse_ipv4(s, len, out->b, why);
		}
		if (s[i] == ':') {
			const char *pct = memchr(s, '%', len);
			gsize alen = pct != NULL ? (gsize)(pct - s) : len;
			if (pct != NULL && alen + 1 == len) {
				*why = "zone must be a non-empty string";
				return FALSE;
			}
			*zone = pct != NULL;
			return parse_ipv6(s, alen, out->b, why);
		}
	}
	return FALSE;
}

/* parseIPAddr of ip.go: netip.ParseAddr, then no zone and no IPv4-mapped IPv6. */
static gboolean
ip_parse(const char *s, gsize len, IpAddr *out, char *err)
{
	char q[CEL_K8S_ERRBUF / 2];
	const char *why;
	gboolean zone;
	gboolean ok = parse_addr(s, len, out, &why, &zone);

	cel_k8s_go_quote(q, sizeof q, s, len);
	if (!ok) {
		g_snprintf(err, CEL_K8S_ERRBUF,
		           "IP Address %s parse error during conversion from string: "
		           "ParseAddr(%s): %s",
		           q, q, why);
		return FALSE;
	}
	if (zone) {
		g_snprintf(err, CEL_K8S_ERRBUF, "IP address %s with zone value is not allowed", q);
		return FALSE;
	}
	if (is_4in6(out)) {
		g_snprintf(err, CEL_K8S_ERRBUF, "IPv4-mapped IPv6 address %s is not allowed", q);
		return FALSE;
	}
	return TRUE;
}

/* ---- printing (netip.Addr.String) ---- */

static gsize
ip_format(const IpAddr *a, char *out, gsize size)
{
	if (a->is4) {
		return (gsize)g_snprintf(out, size, "%u.%u.%u.%u", a->b[0], a->b[1], a->b[2],
		                         a->b[3]);
	}
	/* RFC 5952: compress the longest run (>= 2) of zero groups, the first on a tie. */
	int best = -1, best_len = 0;
	for (int i = 0; i < 8;) {
		int j = i;
		while (j < 8 && a->b[2 * j] == 0 && a->b[2 * j + 1] == 0) {
			j++;
		}
		if (j - i > best_len && j - i >= 2) {
			best = i;
			best_len = j - i;
		}
		i = j > i ? j : i + 1;
	}
	gsize n = 0;
	for (int i = 0; i < 8; i++) {
		if (i == best) {
			n += (gsize)g_snprintf(out + n, size - n, "::");
			i += best_len - 1;
			continue;
		}
		if (i > 0 && i != best + best_len) {
			n += (gsize)g_snprintf(out + n, size - n, ":");
		}
		n += (gsize)g_snprintf(out + n, size - n, "%x",
		                       (a->b[2 * i] << 8) | a->b[2 * i + 1]);
	}
	return n;
}

/* ---- classification (netip.Addr.Is*) ---- */

static gboolean
ip_is_unspecified(const IpAddr *a)
{
	static const guint8 zero[16];
	return memcmp(a->b, zero, a->is4 ? 4 : 16) == 0;
}

static gboolean
ip_is_loopback(const IpAddr *a)
{
	static const guint8 one[16] = { [15] = 1 };
	return a->is4 ? a->b[0] == 127 : memcmp(a->b, one, 16) == 0;
}

static gboolean
ip_is_multicast(const IpAddr *a)
{
	return a->is4 ? (a->b[0] & 0xf0) == 0xe0 : a->b[0] == 0xff;
}

static gboolean
ip_is_link_local_multicast(const IpAddr *a)
{
	return a->is4 ? a->b[0] == 224 && a->b[1] == 0 && a->b[2] == 0
	              : a->b[0] == 0xff && (a->b[1] & 0x0f) == 0x02;
}

static gboolean
ip_is_link_local_unicast(const IpAddr *a)
{
	return a->is4 ? a->b[0] == 169 && a->b[1] == 254
	              : a->b[0] == 0xfe && (a->b[1] & 0xc0) == 0x80;
}

static gboolean
ip_is_global_unicast(const IpAddr *a)
{
	if (a->is4 && a->b[0] == 255 && a->b[1] == 255 && a->b[2] == 255 && a->b[3] == 255) {
		return FALSE;
	}
	return !ip_is_unspecified(a) && !ip_is_loopback(a) && !ip_is_multicast(a) &&
	       !ip_is_link_local_unicast(a);
}

/* ---- CEL values ---- */

static gboolean
ip_equal(const CelObject *x, const CelObject *y)
{
	const IpAddr *a = &((const IpObj *)x)->addr, *b = &((const IpObj *)y)->addr;
	return a->is4 == b->is4 && memcmp(a->b, b->b, 16) == 0;
}

static void
ip_print(GString *out, const CelObject *self)
{
	char buf[64];
	ip_format(&((const IpObj *)self)->addr, buf, sizeof buf);
	g_string_append_printf(out, "ip(\"%s\")", buf);
}

static const CelObjectClass ip_class = {
	.type_name = "net.IP",
	.select = NULL,
	.equal = ip_equal,
	.print = ip_print,
	.go_type_name = "cel.IP",
};

static gboolean
cidr_equal(const CelObject *x, const CelObject *y)
{
	const CidrObj *a = (const CidrObj *)x, *b = (const CidrObj *)y;
	return a->bits == b->bits && a->addr.is4 == b->addr.is4 &&
	       memcmp(a->addr.b, b->addr.b, 16) == 0;
}

static gsize
cidr_format(const CidrObj *c, char *out, gsize size)
{
	gsize n = ip_format(&c->addr, out, size);
	return n + (gsize)g_snprintf(out + n, size - n, "/%u", c->bits);
}

static void
cidr_print(GString *out, const CelObject *self)
{
	char buf[80];
	cidr_format((const CidrObj *)self, buf, sizeof buf);
	g_string_append_printf(out, "cidr(\"%s\")", buf);
}

static const CelObjectClass cidr_class = {
	.type_name = "net.CIDR",
	.select = NULL,
	.equal = cidr_equal,
	.print = cidr_print,
	.go_type_name = "cel.CIDR",
};

static CelValue
ip_value(CelActivation *act, const IpAddr *a)
{
	IpObj *o = cel_activation_alloc(act, sizeof *o);
	o->base.klass = &ip_class;
	o->addr = *a;
	return cel_value_object(&o->base);
}

static const IpAddr *
ip_arg(CelValue v)
{
	return &((const IpObj *)v.obj)->addr;
}

static const CidrObj *
cidr_arg(CelValue v)
{
	return (const CidrObj *)v.obj;
}

/* parseCIDR of cidr.go (netip.ParsePrefix, then no IPv4-mapped IPv6), as cidr() words it. */
static gboolean
cidr_parse(const char *s, gsize len, CidrObj *out, char *err)
{
	static const char ctx[] = "network address parse error during conversion from string: ";
	char q[CEL_K8S_ERRBUF / 2], aq[CEL_K8S_ERRBUF / 2], why_buf[64];
	const char *slash = memchr(s, '/', len);
	const char *why = NULL, *addr_why = NULL;
	gboolean zone;

	cel_k8s_go_quote(q, sizeof q, s, len);
	if (slash == NULL) {
		why = "no '/'";
	} else if (memchr(s, '%', (gsize)(slash - s)) != NULL) {
		why = "IPv6 zones cannot be present in a prefix";
	} else if (!parse_addr(s, (gsize)(slash - s), &out->addr, &addr_why, &zone)) {
		cel_k8s_go_quote(aq, sizeof aq, s, (gsize)(slash - s));
		g_snprintf(err, CEL_K8S_ERRBUF, "%s%snetip.ParsePrefix(%s): ParseAddr(%s): %s", ctx,
		           ctx, q, aq, addr_why);
		return FALSE;
	} else {
		const char *b = slash + 1;
		gsize blen = len - (gsize)(b - s);
		guint bits = 0;
		gboolean ok = blen > 0 && blen <= 3 && !(blen > 1 && b[0] == '0');
		for (gsize i = 0; ok && i < blen; i++) {
			ok = b[i] >= '0' && b[i] <= '9';
			bits = bits * 10 + (guint)(b[i] - '0');
		}
		if (!ok || bits > (out->addr.is4 ? 32u : 128u)) {
			char bq[32];
			cel_k8s_go_quote(bq, sizeof bq, b, MIN(blen, 8));
			g_snprintf(why_buf, sizeof why_buf, "bad bits after slash: %s", bq);
			why = why_buf;
		}
		out->bits = bits;
	}
	if (why != NULL) {
		g_snprintf(err, CEL_K8S_ERRBUF, "%s%snetip.ParsePrefix(%s): %s", ctx, ctx, q, why);
		return FALSE;
	}
	if (is_4in6(&out->addr)) {
		g_snprintf(err, CEL_K8S_ERRBUF, "%sIPv4-mapped IPv6 address %s is not allowed", ctx,
		           q);
		return FALSE;
	}
	out->base.klass = &cidr_class;
	return TRUE;
}

static void
mask_addr(IpAddr *a, guint bits)
{
	guint total = a->is4 ? 32 : 128;
	for (guint i = bits; i < total; i++) {
		a->b[i / 8] &= (guint8) ~(0x80u >> (i % 8));
	}
}

static gboolean
prefix_contains(const CidrObj *c, const IpAddr *a)
{
	if (c->addr.is4 != a->is4) {
		return FALSE;
	}
	IpAddr x = c->addr, y = *a;
	mask_addr(&x, c->bits);
	mask_addr(&y, c->bits);
	return memcmp(x.b, y.b, 16) == 0;
}

/* ---- functions ---- */

static CelValue
fn_ip(CelActivation *act, const CelValue *args, guint nargs)
{
	char err[CEL_K8S_ERRBUF];
	IpAddr a;
	if (!ip_parse(args[0].str, args[0].aux, &a, err)) {
		return cel_errorf(act, "%s", err);
	}
	return ip_value(act, &a);
}

static CelValue
fn_is_ip(CelActivation *act, const CelValue *args, guint nargs)
{
	char err[CEL_K8S_ERRBUF];
	IpAddr a;
	return cel_value_bool(ip_parse(args[0].str, args[0].aux, &a, err));
}

static CelValue
fn_ip_is_canonical(CelActivation *act, const CelValue *args, guint nargs)
{
	char err[CEL_K8S_ERRBUF], buf[64];
	IpAddr a;
	if (!ip_parse(args[0].str, args[0].aux, &a, err)) {
		return cel_errorf(act, "%s", err);
	}
	gsize n = ip_format(&a, buf, sizeof buf);
	return cel_value_bool(n == args[0].aux && memcmp(buf, args[0].str, n) == 0);
}

static CelValue
fn_ip_string(CelActivation *act, const CelValue *args, guint nargs)
{
	char buf[64];
	gsize n = ip_format(ip_arg(args[0]), buf, sizeof buf);
	return cel_string_new(act, buf, n);
}

static CelValue
fn_family(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_int(ip_arg(args[0])->is4 ? 4 : 6);
}

#define IP_PREDICATE(fn, test)                                                                     \
	static CelValue fn(CelActivation *act, const CelValue *args, guint nargs)                  \
	{                                                                                          \
		return cel_value_bool(test(ip_arg(args[0])));                                      \
	}

IP_PREDICATE(fn_is_unspecified, ip_is_unspecified)
IP_PREDICATE(fn_is_loopback, ip_is_loopback)
IP_PREDICATE(fn_is_link_local_multicast, ip_is_link_local_multicast)
IP_PREDICATE(fn_is_link_local_unicast, ip_is_link_local_unicast)
IP_PREDICATE(fn_is_global_unicast, ip_is_global_unicast)

static CelValue
fn_cidr(CelActivation *act, const CelValue *args, guint nargs)
{
	char err[CEL_K8S_ERRBUF];
	CidrObj *c = cel_activation_alloc(act, sizeof *c);
	if (!cidr_parse(args[0].str, args[0].aux, c, err)) {
		return cel_errorf(act, "%s", err);
	}
	return cel_value_object(&c->base);
}

static CelValue
fn_is_cidr(CelActivation *act, const CelValue *args, guint nargs)
{
	char err[CEL_K8S_ERRBUF];
	CidrObj c;
	return cel_value_bool(cidr_parse(args[0].str, args[0].aux, &c, err));
}

static CelValue
fn_cidr_string(CelActivation *act, const CelValue *args, guint nargs)
{
	char buf[80];
	gsize n = cidr_format(cidr_arg(args[0]), buf, sizeof buf);
	return cel_string_new(act, buf, n);
}

static CelValue
fn_contains_ip(CelActivation *act, const CelValue *args, guint nargs)
{
	if (args[1].kind == CEL_KIND_STRING) {
		CelValue ip = fn_ip(act, args + 1, 1);
		if (cel_value_is_error(ip)) {
			return ip;
		}
		return cel_value_bool(prefix_contains(cidr_arg(args[0]), ip_arg(ip)));
	}
	return cel_value_bool(prefix_contains(cidr_arg(args[0]), ip_arg(args[1])));
}

static CelValue
fn_contains_cidr(CelActivation *act, const CelValue *args, guint nargs)
{
	CelValue other = args[1];
	if (other.kind == CEL_KIND_STRING) {
		other = fn_cidr(act, args + 1, 1);
		if (cel_value_is_error(other)) {
			return other;
		}
	}
	const CidrObj *c = cidr_arg(args[0]), *o = cidr_arg(other);
	return cel_value_bool(c->bits <= o->bits && prefix_contains(c, &o->addr));
}

static CelValue
fn_cidr_ip(CelActivation *act, const CelValue *args, guint nargs)
{
	return ip_value(act, &cidr_arg(args[0])->addr);
}

static CelValue
fn_prefix_length(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_int(cidr_arg(args[0])->bits);
}

static CelValue
fn_masked(CelActivation *act, const CelValue *args, guint nargs)
{
	CidrObj *c = cel_activation_alloc(act, sizeof *c);
	*c = *cidr_arg(args[0]);
	mask_addr(&c->addr, c->bits);
	return cel_value_object(&c->base);
}

static const CelOverload ip_overloads[] = {
	{ "ip", "string_to_ip", CEL_GLOBAL, "string -> net.IP", fn_ip, NULL },
	{ "family", "ip_family", CEL_RECEIVER, "net.IP -> int", fn_family, NULL },
	{ "ip.isCanonical", "ip_is_canonical", CEL_GLOBAL, "string -> bool", fn_ip_is_canonical,
	  NULL },
	{ "isUnspecified", "ip_is_unspecified", CEL_RECEIVER, "net.IP -> bool", fn_is_unspecified,
	  NULL },
	{ "isLoopback", "ip_is_loopback", CEL_RECEIVER, "net.IP -> bool", fn_is_loopback, NULL },
	{ "isLinkLocalMulticast", "ip_is_link_local_multicast", CEL_RECEIVER, "net.IP -> bool",
	  fn_is_link_local_multicast, NULL },
	{ "isLinkLocalUnicast", "ip_is_link_local_unicast", CEL_RECEIVER, "net.IP -> bool",
	  fn_is_link_local_unicast, NULL },
	{ "isGlobalUnicast", "ip_is_global_unicast", CEL_RECEIVER, "net.IP -> bool",
	  fn_is_global_unicast, NULL },
	{ "isIP", "is_ip", CEL_GLOBAL, "string -> bool", fn_is_ip, NULL },
	{ "string", "ip_to_string", CEL_GLOBAL, "net.IP -> string", fn_ip_string, NULL },
	{ "cidr", "string_to_cidr", CEL_GLOBAL, "string -> net.CIDR", fn_cidr, NULL },
	{ "containsIP", "cidr_contains_ip_string", CEL_RECEIVER, "net.CIDR, string -> bool",
	  fn_contains_ip, NULL },
	{ "containsIP", "cidr_contains_ip_ip", CEL_RECEIVER, "net.CIDR, net.IP -> bool",
	  fn_contains_ip, NULL },
	{ "containsCIDR", "cidr_contains_cidr_string", CEL_RECEIVER, "net.CIDR, string -> bool",
	  fn_contains_cidr, NULL },
	{ "containsCIDR", "cidr_contains_cidr", CEL_RECEIVER, "net.CIDR, net.CIDR -> bool",
	  fn_contains_cidr, NULL },
	{ "ip", "cidr_ip", CEL_RECEIVER, "net.CIDR -> net.IP", fn_cidr_ip, NULL },
	{ "prefixLength", "cidr_prefix_length", CEL_RECEIVER, "net.CIDR -> int", fn_prefix_length,
	  NULL },
	{ "masked", "cidr_masked", CEL_RECEIVER, "net.CIDR -> net.CIDR", fn_masked, NULL },
	{ "isCIDR", "is_cidr", CEL_GLOBAL, "string -> bool", fn_is_cidr, NULL },
	{ "string", "cidr_to_string", CEL_GLOBAL, "net.CIDR -> string", fn_cidr_string, NULL },
};

void
cel_lib_k8s_ip_register(CelEnv *env)
{
	cel_type_register_opaque(ip_class.type_name, &ip_class);
	cel_type_register_opaque(cidr_class.type_name, &cidr_class);
	cel_env_add_overloads(env, ip_overloads, G_N_ELEMENTS(ip_overloads));
}
