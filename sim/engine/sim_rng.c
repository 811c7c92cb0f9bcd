/*
 * sim_rng.c: named random streams on GSL, and the draw helpers the models use.
 *
 * A stream's seed depends only on the scenario seed and its own name, hashed
 * with 64-bit FNV-1a and mixed with splitmix64: both are fixed algorithms, so
 * the streams survive GLib upgrades (g_str_hash is not promised stable) and a
 * new stream shifts no existing one. The generator is GSL's taus2: small state
 * (so a stream per purpose is cheap), fast, and of simulation quality.
 *
 * drasim registers its own gsl_rng_type for taus2 (L'Ecuyer's three-component
 * Tausworthe generator, seeded as GSL seeds it: an LCG with multiplier 69069
 * fills the three words, each raised past its lower bound, then six draws are
 * discarded), so the hot draws below can step the state inline instead of
 * calling through the type's function pointer: the scheduler draws about a
 * hundred times per pod when many nodes tie (selectHost's reservoir). The
 * output is GSL's, number for number: test_rng.c compares both generators.
 */
#define HAVE_INLINE 1 /* let gsl_rng_uniform() inline into the helpers */

#include <math.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "sim.h"

struct SimRng {
	gsl_rng *gsl;
	struct TausState *taus; /* gsl's state of this generator, owned by gsl */
	char *name;
	/* sim_rng_reservoir(): scales[n] = range / n for n < n_scales, grown on demand */
	unsigned long *scales;
	guint32 n_scales;
};

/* ------------------------------------------------------------- taus2 */

typedef struct TausState {
	unsigned long s1, s2, s3;
} TausState;

#define TAUS_MASK 0xffffffffUL

/* One Tausworthe step of a 32-bit component: parameters (q, s, mask, shift). */
static inline unsigned long
taus_step(unsigned long s, unsigned q, unsigned shift, unsigned long mask, unsigned k)
{
	return (((s & mask) << k) & TAUS_MASK) ^ ((((s << q) & TAUS_MASK) ^ s) >> shift);
}

static inline uint32_t
taus_next(TausState *t)
{
	t->s1 = taus_step(t->s1, 13, 19, 4294967294UL, 12);
	t->s2 = taus_step(t->s2, 2, 25, 4294967288UL, 4);
	t->s3 = taus_step(t->s3, 3, 11, 4294967280UL, 17);
	return (uint32_t)(t->s1 ^ t->s2 ^ t->s3);
}

static unsigned long
taus_get(void *state)
{
	return taus_next(state);
}

static double
taus_get_double(void *state)
{
	return taus_next(state) / 4294967296.0;
}

/* Each word must exceed a bound (2, 8, 16) for its component to have full period. */
static void
taus_set(void *state, unsigned long seed)
{
	TausState *t = state;
	unsigned long s = seed == 0 ? 1 : seed;

	t->s1 = (69069UL * s) & TAUS_MASK;
	t->s1 += t->s1 < 2 ? 2 : 0;
	t->s2 = (69069UL * t->s1) & TAUS_MASK;
	t->s2 += t->s2 < 8 ? 8 : 0;
	t->s3 = (69069UL * t->s2) & TAUS_MASK;
	t->s3 += t->s3 < 16 ? 16 : 0;
	for (guint i = 0; i < 6; i++)
		taus_next(t);
}

static const gsl_rng_type taus_type = {
	"drasim-taus2", TAUS_MASK, 0, sizeof(TausState), taus_set, taus_get, taus_get_double,
};

/* gsl_rng_uniform_int's rule (the generator's range 2^32 - 1 cut into n bins of
 * floor(range / n) values, draws past the last bin rejected), inline. */
static inline uint32_t
taus_below(TausState *t, uint32_t n)
{
	uint32_t scale = (uint32_t)TAUS_MASK / n, k;

	do
		k = taus_next(t) / scale;
	while (k >= n);
	return k;
}

static uint64_t
fnv1a64(const char *s)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

/* splitmix64's finaliser (Steele, Lea, Flood 2014): a bijective bit mixer. */
static uint64_t
mix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

uint64_t
sim_rng_stream_seed(uint64_t seed, const char *name)
{
	g_return_val_if_fail(name != NULL, 0);
	return mix64(mix64(seed) ^ fnv1a64(name));
}

SimRng *
sim_rng_new(uint64_t seed, const char *name)
{
	SimRng *self = g_new0(SimRng, 1);
	uint64_t s = sim_rng_stream_seed(seed, name);

	self->gsl = gsl_rng_alloc(&taus_type);
	self->taus = gsl_rng_state(self->gsl);
	/* taus2 seeds from the low 32 bits only: fold the high half in. */
	gsl_rng_set(self->gsl, (unsigned long)((s ^ (s >> 32)) & 0xffffffffu));
	self->name = g_strdup(name);
	return self;
}

void
sim_rng_free(SimRng *self)
{
	if (self == NULL) {
		return;
	}
	gsl_rng_free(self->gsl);
	g_free(self->name);
	g_free(self->scales);
	g_free(self);
}

const char *
sim_rng_get_name(const SimRng *self)
{
	return self->name;
}

gsl_rng *
sim_rng_get_gsl(SimRng *self)
{
	return self->gsl;
}

double
sim_rng_uniform(SimRng *self)
{
	return taus_next(self->taus) / 4294967296.0;
}

double
sim_rng_uniform_pos(SimRng *self)
{
	return gsl_rng_uniform_pos(self->gsl);
}

double
sim_rng_range(SimRng *self, double lo, double hi)
{
	return lo + (hi - lo) * gsl_rng_uniform(self->gsl);
}

uint32_t
sim_rng_uniform_int(SimRng *self, uint32_t n)
{
	g_return_val_if_fail(n >= 1, 0);
	return taus_below(self->taus, n);
}

/* scales[n] = range / n for every n <= @ties (scales[0], [1] unused). */
static void
grow_scales(SimRng *self, guint32 ties)
{
	unsigned long range = self->gsl->type->max - self->gsl->type->min;
	guint32 n = MAX(ties + 1, self->n_scales * 2);

	self->scales = g_renew(unsigned long, self->scales, n);
	for (guint32 i = MAX(self->n_scales, 1); i < n; i++)
		self->scales[i] = range / i;
	self->n_scales = n;
}

/*
 * The same draws as sim_rng_uniform_int(count) for count = 2..@ties, in that
 * order, and the last count that drew 0 (1 if none): selectHost's reservoir
 * over tied nodes. gsl_rng_uniform_int (GSL's rng.c) takes k = (x - min) /
 * scale with scale = range / n and draws again while k >= n; so k >= n exactly
 * when x - min >= n * scale, and k == 0 exactly when x - min < scale. The
 * scales come from a table and the generator is called directly: no division
 * and no wrapper per draw (a window cycle makes about one draw per node it
 * examines).
 */
uint32_t
sim_rng_reservoir(SimRng *self, uint32_t ties)
{
	guint32 selected = 1;

	if (ties >= self->n_scales)
		grow_scales(self, ties);
	for (guint32 count = 2; count <= ties; count++) {
		unsigned long scale = self->scales[count], limit = scale * count, x;

		do
			x = taus_next(self->taus); /* the type's minimum is 0 */
		while (x >= limit);
		if (x < scale)
			selected = count;
	}
	return selected;
}

gboolean
sim_rng_bernoulli(SimRng *self, double p)
{
	return gsl_rng_uniform(self->gsl) < p;
}

double
sim_rng_exponential(SimRng *self, double mean)
{
	/* As gsl_ran_exponential, without the extra call: -mean * log(1 - u). */
	return -mean * log1p(-(taus_next(self->taus) / 4294967296.0));
}

double
sim_rng_lognormal(SimRng *self, double mu, double sigma)
{
	return gsl_ran_lognormal(self->gsl, mu, sigma);
}

unsigned int
sim_rng_poisson(SimRng *self, double mean)
{
	return gsl_ran_poisson(self->gsl, mean);
}

/* ------------------------------------------------------------- stream set */

struct SimRngSet {
	uint64_t seed;
	GHashTable *by_name; /* name -> SimRng; lookup only, never iterated */
};

SimRngSet *
sim_rng_set_new(uint64_t seed)
{
	SimRngSet *self = g_new0(SimRngSet, 1);

	self->seed = seed;
	self->by_name =
	        g_hash_table_new_full(g_str_hash, g_str_equal, NULL, (GDestroyNotify)sim_rng_free);
	return self;
}

void
sim_rng_set_free(SimRngSet *self)
{
	if (self == NULL) {
		return;
	}
	g_hash_table_unref(self->by_name);
	g_free(self);
}

uint64_t
sim_rng_set_get_seed(const SimRngSet *self)
{
	return self->seed;
}

SimRng *
sim_rng_set_get(SimRngSet *self, const char *name)
{
	SimRng *rng = g_hash_table_lookup(self->by_name, name);

	if (rng == NULL) {
		rng = sim_rng_new(self->seed, name);
		g_hash_table_insert(self->by_name, rng->name, rng);
	}
	return rng;
}

/* -------------------------------------------------------------- empirical */

struct SimEmpirical {
	double *sorted;
	gsize n;
	gboolean discrete;
	double mean;
};

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a;
	double y = *(const double *)b;

	return (x > y) - (x < y);
}

SimEmpirical *
sim_empirical_new(const double *samples, gsize n, gboolean discrete)
{
	double sum = 0.0;

	if (n == 0 || n > UINT32_MAX) {
		return NULL;
	}
	for (gsize i = 0; i < n; i++) {
		if (!isfinite(samples[i])) {
			return NULL;
		}
		sum += samples[i];
	}
	SimEmpirical *self = g_new0(SimEmpirical, 1);
	self->sorted = g_memdup2(samples, n * sizeof(double));
	qsort(self->sorted, n, sizeof(double), cmp_double);
	self->n = n;
	self->discrete = discrete;
	if (discrete || n == 1) {
		self->mean = sum / (double)n;
	} else {
		/* The interpolated CDF weighs the two extreme samples by half. */
		double ends = (self->sorted[0] + self->sorted[n - 1]) / 2;
		self->mean = (sum - self->sorted[0] - self->sorted[n - 1] + ends) / (double)(n - 1);
	}
	return self;
}

void
sim_empirical_free(SimEmpirical *self)
{
	if (self == NULL) {
		return;
	}
	g_free(self->sorted);
	g_free(self);
}

double
sim_empirical_draw(const SimEmpirical *self, SimRng *rng)
{
	if (self->n == 1) {
		return self->sorted[0];
	}
	if (self->discrete) {
		return self->sorted[gsl_rng_uniform_int(rng->gsl, self->n)];
	}
	/* Invert the piecewise-linear CDF through the order statistics. */
	double pos = gsl_rng_uniform(rng->gsl) * (double)(self->n - 1);
	gsize i = (gsize)pos;
	double frac = pos - (double)i;
	return self->sorted[i] + frac * (self->sorted[i + 1] - self->sorted[i]);
}

double
sim_empirical_mean(const SimEmpirical *self)
{
	return self->mean;
}
