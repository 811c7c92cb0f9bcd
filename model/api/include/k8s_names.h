/*
 * k8s_names.h: Kubernetes' name formats and its field-error wording.
 *
 * The checks follow
 * k8s.io/apimachinery/pkg/util/validation (IsDNS1123Label, IsDNS1123Subdomain, ...) and
 * pkg/api/validate/content (IsLabelKey, IsLabelValue, IsCIdentifier). Each returns NULL
 * when the value is valid, else a GPtrArray of messages (owned strings, element free
 * function set) worded exactly as upstream's. Valid values cost no allocation.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define K8S_DNS1123_LABEL_MAX     63
#define K8S_DNS1123_SUBDOMAIN_MAX 253
#define K8S_LABEL_VALUE_MAX       63

GPtrArray *k8s_names_dns1123_label(const char *value);
GPtrArray *k8s_names_dns1123_subdomain(const char *value);
/* IsDNS1035Label: services and a few other names. */
GPtrArray *k8s_names_dns1035_label(const char *value);
/* IsLabelKey (a.k.a. IsQualifiedName): [prefix/]name, the format of label keys, taint keys,
 * binding conditions and more. */
GPtrArray *k8s_names_label_key(const char *value);
GPtrArray *k8s_names_label_value(const char *value);
/* IsCIdentifier: format only; callers check the length. */
GPtrArray *k8s_names_c_identifier(const char *value);

/* v1helper.IsExtendedResourceName: "example.com/foo", not in *kubernetes.io/, and
 * "requests.<name>" must be a label key. */
gboolean k8s_names_is_extended_resource_name(const char *value);

/* The kinds of field.Error, with upstream's wording ("Invalid value", "Required value"...). */
typedef enum {
	K8S_FIELD_NOT_FOUND,
	K8S_FIELD_REQUIRED,
	K8S_FIELD_DUPLICATE,
	K8S_FIELD_INVALID,
	K8S_FIELD_NOT_SUPPORTED,
	K8S_FIELD_FORBIDDEN,
	K8S_FIELD_TOO_LONG,
	K8S_FIELD_TOO_MANY,
} K8sFieldErrorType;

/**
 * k8s_field_error_body:
 * field.Error.ErrorBody(): "Invalid value: \"Gpu\": <detail>", "Required value",
 * "Too many: 33: must have at most 32 items" ... @value is the bad value already rendered
 * (use k8s_field_quote() for strings) or NULL when upstream omits it (Required, Forbidden,
 * Too long always omit it). @detail may be NULL.
 * Returns: (transfer full)
 */
char *k8s_field_error_body(K8sFieldErrorType type, const char *value, const char *detail);
/* Go's %q of a string, for the value of a field error. (transfer full) */
char *k8s_field_quote(const char *value);

G_END_DECLS
