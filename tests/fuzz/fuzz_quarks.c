/*
 * fuzz_quarks.c: keeps GLib's quark table out of LeakSanitizer's reports in the fuzz
 * targets, without the slow unwinder that lsan.supp needs (seven times fewer runs a second).
 *
 * GLib's quark table (gquark.c, quark_new) keeps its strings in an array that it replaces
 * by a larger copy whenever it fills up, and never frees the old one on purpose: lock-free
 * readers may still hold it. drasim interns every attribute, domain and identifier name it
 * meets, so a fuzzer that invents names ends with one abandoned array per 2048 of them.
 * The targets are linked with -Wl,--wrap for the four interning functions; each wrapper
 * calls GLib's own with LeakSanitizer paused, so what GLib allocates there is never a
 * leak, and nothing of drasim's runs inside. The first array is made by GLib's library
 * constructor, before any wrapper runs: a constructor here finds it through the pointer
 * GLib keeps to it and tells LeakSanitizer to ignore it. Without ASan all this only forwards.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* struct dl_phdr_info */
#endif
#include <link.h>
#include <string.h>

#include <glib.h>

#if defined(__SANITIZE_ADDRESS__)
#define FUZZ_HAVE_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_HAVE_LSAN 1
#endif
#endif

#ifdef FUZZ_HAVE_LSAN
#if __has_include(<sanitizer/allocator_interface.h>)
#include <sanitizer/allocator_interface.h>
#else
/* gcc 12 ships no allocator_interface.h; its libasan has these two (compiler-rt's
 * allocator interface), so the ASan build of the replay tests declares them itself */
int __sanitizer_get_ownership(const volatile void *p);
size_t __sanitizer_get_allocated_size(const volatile void *p);
#endif
#include <sanitizer/lsan_interface.h>
#define PAUSED(call)                                                                               \
	do {                                                                                       \
		__lsan_disable();                                                                  \
		result = (call);                                                                   \
		__lsan_enable();                                                                   \
	} while (0)

/* GLib's quark block (gquark.c, QUARK_BLOCK_SIZE): the first array holds this many strings. */
#define QUARK_BLOCK_SIZE 2048

/* TRUE when @value points at GLib's first quark array: a heap block of its size whose
 * entry 0 (quark 0) is NULL and, once quark 1 exists, whose entry 1 is its string. */
static gboolean
is_first_quark_array(guintptr value)
{
	const gchar *const *p = (const gchar *const *)value;
	const gchar *first = g_quark_to_string(1);

	if (value % sizeof(gpointer) != 0 || !__sanitizer_get_ownership(p) ||
	    __sanitizer_get_allocated_size(p) != QUARK_BLOCK_SIZE * sizeof(gchar *))
		return FALSE;
	return p[0] == NULL && (first == NULL || p[1] == first);
}

/* Scans libglib's writable segments for the pointer to its first quark array. */
static int
ignore_first_quark_array(struct dl_phdr_info *info, size_t size, void *data)
{
	if (strstr(info->dlpi_name, "libglib-2.0") == NULL)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const guintptr *word = (const guintptr *)(info->dlpi_addr + ph->p_vaddr);
		size_t n = ph->p_memsz / sizeof(guintptr);

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
			continue;
		for (size_t k = 0; k < n; k++) {
			if (is_first_quark_array(word[k])) {
				__lsan_ignore_object((const void *)word[k]);
				*(gboolean *)data = TRUE;
			}
		}
	}
	return 0;
}

__attribute__((constructor)) static void
keep_first_quark_array(void)
{
	gboolean found = FALSE;

	dl_iterate_phdr(ignore_first_quark_array, &found);
	if (!found)
		g_warning("fuzz_quarks.c: GLib's first quark array not found; LeakSanitizer "
		          "may report it (16 KiB from g_malloc) when the table grows");
}
#else
#define PAUSED(call) (result = (call))
#endif

const gchar *__real_g_intern_string(const gchar *string);
const gchar *__real_g_intern_static_string(const gchar *string);
GQuark __real_g_quark_from_string(const gchar *string);
GQuark __real_g_quark_from_static_string(const gchar *string);
const gchar *__wrap_g_intern_string(const gchar *string);
const gchar *__wrap_g_intern_static_string(const gchar *string);
GQuark __wrap_g_quark_from_string(const gchar *string);
GQuark __wrap_g_quark_from_static_string(const gchar *string);

const gchar *
__wrap_g_intern_string(const gchar *string)
{
	const gchar *result;

	PAUSED(__real_g_intern_string(string));
	return result;
}

const gchar *
__wrap_g_intern_static_string(const gchar *string)
{
	const gchar *result;

	PAUSED(__real_g_intern_static_string(string));
	return result;
}

GQuark
__wrap_g_quark_from_string(const gchar *string)
{
	GQuark result;

	PAUSED(__real_g_quark_from_string(string));
	return result;
}

GQuark
__wrap_g_quark_from_static_string(const gchar *string)
{
	GQuark result;

	PAUSED(__real_g_quark_from_static_string(string));
	return result;
}
