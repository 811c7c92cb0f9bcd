/*
 * hw_sha256.c: SHA-256 (FIPS 180-4, section 6.2) of the short seeds from which
 * hw_node.c derives a node's GPU and MIG uuids, NIC macs and slice-name suffixes,
 * written as lowercase hex like g_compute_checksum_for_string(G_CHECKSUM_SHA256),
 * and the cheap text building (HwText, hw__intern) those names are made with.
 *
 * Why not GLib's: a GChecksum is allocated, fed through a generic update and
 * formatted per call, about 50,000 instructions for a 20-byte seed, 16 times per
 * DGX node (issue 19 item 3: 100,000 nodes set up in a few seconds). This one works
 * on the stack, about 3,000. The digests are the same (test hw-publish checks them
 * against GLib's on seeds of one and two blocks). For the same reason the seeds and
 * names are put together with HwText rather than printf (about 2,000 instructions a
 * call).
 */
#include <string.h>

#include "hw-private.h"

/* FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the cube roots
 * of the first 64 primes. */
static const guint32 round_constants[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static inline guint32
rotr(guint32 x, guint n)
{
	return (x >> n) | (x << (32 - n));
}

/* One 64-byte block into the running hash @h (FIPS 180-4 6.2.2); the working
 * variables a..h are locals so that they stay in registers. */
static void
compress(guint32 h[8], const guint8 block[64])
{
	guint32 w[64];
	guint32 a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];

	for (guint t = 0; t < 16; t++)
		w[t] = (guint32)block[4 * t] << 24 | (guint32)block[4 * t + 1] << 16 |
		       (guint32)block[4 * t + 2] << 8 | (guint32)block[4 * t + 3];
	for (guint t = 16; t < 64; t++) {
		guint32 s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		guint32 s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);

		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	for (guint t = 0; t < 64; t++) {
		guint32 t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
		             round_constants[t] + w[t];
		guint32 t2 =
		        (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		hh = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += hh;
}

void
hw__sha256_hex(const char *text, gsize len, char out[65])
{
	static const char digits[] = "0123456789abcdef";
	/* FIPS 180-4 5.3.3: the initial hash value */
	guint32 h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	guint8 block[64];
	gsize done = 0;
	guint64 bits = (guint64)len * 8;

	for (; len - done >= 64; done += 64)
		compress(h, (const guint8 *)text + done);
	/* 5.1.1 padding: the rest, one 1 bit, zeros, then the length in bits (big-endian) */
	memset(block, 0, sizeof(block));
	memcpy(block, text + done, len - done);
	block[len - done] = 0x80;
	if (len - done >= 56) {
		compress(h, block);
		memset(block, 0, sizeof(block));
	}
	for (guint i = 0; i < 8; i++)
		block[63 - i] = (guint8)(bits >> (8 * i));
	compress(h, block);
	for (guint i = 0; i < 32; i++) {
		guint8 byte = (guint8)(h[i / 4] >> (24 - 8 * (i % 4)));

		out[2 * i] = digits[byte >> 4];
		out[2 * i + 1] = digits[byte & 15];
	}
	out[64] = '\0';
}

void
hw__text_init(HwText *t)
{
	t->str = t->stack;
	t->len = 0;
	t->cap = sizeof(t->stack);
	t->stack[0] = '\0';
}

static void
text_append(HwText *t, const char *s, gsize n)
{
	if (t->len + n + 1 > t->cap) {
		gsize cap = MAX(2 * t->cap, t->len + n + 1);

		if (t->str == t->stack)
			t->str = memcpy(g_malloc(cap), t->stack, t->len);
		else
			t->str = g_realloc(t->str, cap);
		t->cap = cap;
	}
	memcpy(t->str + t->len, s, n);
	t->len += n;
	t->str[t->len] = '\0';
}

void
hw__text_add(HwText *t, const char *s)
{
	text_append(t, s, strlen(s));
}

void
hw__text_add_uint(HwText *t, guint64 n)
{
	char digits[20];
	guint i = sizeof(digits);

	do {
		digits[--i] = (char)('0' + n % 10);
		n /= 10;
	} while (n > 0);
	text_append(t, digits + i, sizeof(digits) - i);
}

void
hw__text_clear(HwText *t)
{
	if (t->str != t->stack)
		g_free(t->str);
	hw__text_init(t);
}

const char *
hw__intern(const char *name)
{
	/* Keyed by the caller's pointer, mostly a literal; the strcmp makes a reused
	 * address (a stack buffer) safe. Per thread: runs may go in parallel. */
	static _Thread_local struct {
		const char *key;
		const char *value;
	} cache[128];
	guint slot = (guint)(((guintptr)name >> 3) * 2654435761u) % G_N_ELEMENTS(cache);

	if (cache[slot].key != name || strcmp(cache[slot].value, name) != 0) {
		cache[slot].key = name;
		cache[slot].value = g_intern_string(name);
	}
	return cache[slot].value;
}
