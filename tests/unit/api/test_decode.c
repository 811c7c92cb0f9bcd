/*
 * test_decode.c: every kind decodes into its typed struct with every modelled field,
 * from data/core.yaml (kubectl-style core/apps/batch objects) and data/versions/v1.yaml
 * (every resource.k8s.io field, alpha ones included).
 */
#include "api-test-util.h"

static Loaded
load_data(const char *name)
{
	g_autofree char *path = data_path(name);
	Loaded l = load_path(path, K8S_LOAD_DEFAULT);

	if (!l.ok) {
		k8s_diag_list_print(l.diags, stderr);
	}
	assert_true(l.ok);
	return l;
}

static void
test_decode__pod(void **state)
{
	Loaded l = load_data("core.yaml");
	K8sPod *pod =
	        k8s_object_as_pod(k8s_object_set_lookup(l.set, K8S_KIND_POD, "team-a", "trainer"));
	const K8sPodSpec *s;

	assert_non_null(pod);
	s = &pod->spec;
	assert_string_equal(pod->obj.metadata.uid, "0b1c2d3e-0000-0000-0000-000000000001");
	assert_int_equal(pod->obj.metadata.labels.n, 1);
	assert_int_equal(pod->obj.metadata.annotations.n, 1);
	assert_int_equal(s->n_init_containers, 1);
	assert_string_equal(s->init_containers[0].resources.requests.items[0].value.text, "100m");
	assert_int_equal(s->n_containers, 1);
	assert_string_equal(s->containers[0].name, "main");
	assert_int_equal(s->containers[0].resources.requests.n, 3);
	assert_string_equal(s->containers[0].resources.requests.items[2].key, "nvidia.com/gpu");
	assert_true(s->containers[0].resources.requests.items[2].value.valid);
	assert_int_equal(
	        k8s_quantity_value(&s->containers[0].resources.requests.items[2].value.value), 1);
	assert_int_equal(
	        k8s_quantity_value(&s->containers[0].resources.requests.items[1].value.value),
	        16LL << 30);
	assert_int_equal(s->containers[0].resources.n_claims, 1);
	assert_string_equal(s->containers[0].resources.claims[0].request, "big");
	assert_string_equal(s->restart_policy, "Never");
	assert_string_equal(s->node_selector.items[0].value, "NVIDIA-H100-80GB-HBM3");
	assert_string_equal(s->node_name, "node-1");
	assert_non_null(s->required_node_affinity);
	assert_int_equal(s->required_node_affinity->n_terms, 1);
	assert_string_equal(s->required_node_affinity->terms[0].match_expressions[0].operator_,
	                    "Gt");
	assert_string_equal(s->required_node_affinity->terms[0].match_fields[0].values.items[0],
	                    "node-9");
	assert_int_equal(s->n_tolerations, 2);
	assert_true(s->tolerations[1].has_toleration_seconds);
	assert_int_equal(s->tolerations[1].toleration_seconds, 300);
	assert_false(s->tolerations[0].has_toleration_seconds);
	assert_string_equal(s->priority_class_name, "high");
	assert_true(s->has_priority);
	assert_int_equal(s->priority, 1000);
	assert_int_equal(s->n_resource_claims, 2);
	assert_string_equal(s->resource_claims[0].resource_claim_template_name, "one-gpu");
	assert_null(s->resource_claims[0].resource_claim_name);
	assert_string_equal(s->resource_claims[1].resource_claim_name, "shared-claim");
	assert_int_equal(s->resource_claims[1].resource_claim_name_pos.line, 102);
	assert_string_equal(pod->phase, "Pending");
	assert_int_equal(pod->n_resource_claim_statuses, 2);
	assert_string_equal(pod->resource_claim_statuses[0].resource_claim_name,
	                    "trainer-gpu-x7k2p");
	assert_null(pod->resource_claim_statuses[1].resource_claim_name);
	loaded_clear(&l);
}

static void
test_decode__node_and_workloads(void **state)
{
	Loaded l = load_data("core.yaml");
	K8sNode *node =
	        k8s_object_as_node(k8s_object_set_lookup(l.set, K8S_KIND_NODE, NULL, "node-1"));
	K8sWorkload *dep = k8s_object_as_workload(
	        k8s_object_set_lookup(l.set, K8S_KIND_DEPLOYMENT, "team-a", "inference"));
	K8sWorkload *sts = k8s_object_as_workload(
	        k8s_object_set_lookup(l.set, K8S_KIND_STATEFUL_SET, "team-a", "db"));
	K8sWorkload *rs = k8s_object_as_workload(
	        k8s_object_set_lookup(l.set, K8S_KIND_REPLICA_SET, NULL, "rs"));
	K8sWorkload *job = k8s_object_as_workload(
	        k8s_object_set_lookup(l.set, K8S_KIND_JOB, "team-a", "train"));

	assert_non_null(node);
	assert_true(node->unschedulable);
	assert_int_equal(node->n_taints, 2);
	assert_string_equal(node->taints[1].time_added, "2025-01-01T00:00:00Z");
	assert_int_equal(node->capacity.n, 4);
	assert_int_equal(k8s_quantity_milli_value(&node->allocatable.items[0].value.value), 63500);
	assert_int_equal(node->obj.metadata.labels.n, 2);

	assert_non_null(dep);
	assert_int_equal(dep->obj.kind, K8S_KIND_DEPLOYMENT);
	assert_true(dep->has_replicas);
	assert_int_equal(dep->replicas, 3);
	assert_non_null(dep->selector);
	assert_string_equal(dep->selector->match_labels.items[0].key, "app");
	assert_int_equal(dep->selector->n_match_expressions, 1);
	assert_int_equal(dep->template_.metadata.labels.n, 2);
	assert_string_equal(dep->template_.spec.resource_claims[0].resource_claim_template_name,
	                    "one-gpu");

	assert_non_null(sts);
	assert_int_equal(sts->replicas, 2);
	assert_non_null(rs);
	assert_false(rs->has_replicas);
	assert_non_null(job);
	assert_true(job->has_parallelism);
	assert_int_equal(job->parallelism, 4);
	assert_int_equal(job->completions, 8);
	assert_null(job->selector);
	assert_string_equal(job->template_.spec.containers[0].resources.limits.items[0].key,
	                    "nvidia.com/gpu");
	assert_null(k8s_object_as_pod(&job->obj));
	loaded_clear(&l);
}

static void
test_decode__device_class(void **state)
{
	g_autofree char *path = data_path("versions/v1.yaml");
	Loaded l = load_path(path, 0);
	K8sDeviceClass *dc = k8s_object_as_device_class(
	        k8s_object_set_lookup(l.set, K8S_KIND_DEVICE_CLASS, NULL, "gpu.example.com"));

	assert_true(l.ok);
	assert_non_null(dc);
	assert_int_equal(dc->spec.n_selectors, 1);
	assert_string_equal(dc->spec.selectors[0].cel_expression,
	                    "device.driver == \"gpu.example.com\"");
	assert_int_equal(dc->spec.n_config, 1);
	assert_true(dc->spec.config[0].has_opaque);
	assert_string_equal(dc->spec.config[0].opaque.driver, "gpu.example.com");
	assert_non_null(dc->spec.config[0].opaque.parameters.node);
	assert_int_equal(dc->spec.config[0].opaque.parameters.node->kind, K8S_YAML_MAPPING);
	assert_string_equal(
	        k8s_yaml_map_lookup(dc->spec.config[0].opaque.parameters.node, "kind")->scalar.text,
	        "GpuConfig");
	assert_string_equal(dc->spec.extended_resource_name, "example.com/gpu");
	loaded_clear(&l);
}

static void
test_decode__claim(void **state)
{
	g_autofree char *path = data_path("versions/v1.yaml");
	Loaded l = load_path(path, 0);
	K8sResourceClaim *c = k8s_object_as_resource_claim(
	        k8s_object_set_lookup(l.set, K8S_KIND_RESOURCE_CLAIM, "team-a", "claim-all"));
	const K8sDeviceRequest *big, *any;
	const K8sAllocationResult *a;

	assert_non_null(c);
	assert_int_equal(c->spec.n_requests, 2);
	big = &c->spec.requests[0];
	assert_true(big->has_exactly);
	assert_string_equal(big->exactly.device_class_name, "gpu.example.com");
	assert_int_equal(big->exactly.n_selectors, 1);
	assert_int_equal(big->exactly.selectors[0].expression_style, K8S_YAML_STYLE_LITERAL);
	assert_string_equal(big->exactly.allocation_mode, "ExactCount");
	assert_true(big->exactly.has_count);
	assert_int_equal(big->exactly.count, 2);
	assert_int_equal(big->exactly.count_pos.line, 39);
	assert_int_equal(big->exactly.count_pos.col, 16);
	assert_true(big->exactly.has_admin_access);
	assert_false(big->exactly.admin_access);
	assert_int_equal(big->exactly.n_tolerations, 1);
	assert_int_equal(big->exactly.tolerations[0].toleration_seconds, 30);
	assert_true(big->exactly.has_capacity);
	assert_string_equal(big->exactly.capacity_requests.items[0].key, "memory");
	any = &c->spec.requests[1];
	assert_false(any->has_exactly);
	assert_int_equal(any->n_first_available, 2);
	assert_string_equal(any->first_available[0].name, "large");
	assert_string_equal(any->first_available[0].spec.allocation_mode, "All");
	assert_false(any->first_available[1].spec.has_admin_access);
	assert_int_equal(any->first_available[1].spec.n_tolerations, 1);
	assert_int_equal(c->spec.n_constraints, 2);
	assert_int_equal(c->spec.constraints[0].requests.n, 2);
	assert_string_equal(c->spec.constraints[0].requests.items[1], "any/large");
	assert_string_equal(c->spec.constraints[0].match_attribute, "gpu.example.com/pcieRoot");
	assert_string_equal(c->spec.constraints[1].distinct_attribute, "gpu.example.com/uuid");
	assert_int_equal(c->spec.n_config, 1);
	assert_true(c->spec.config[0].has_opaque);

	a = c->status.allocation;
	assert_non_null(a);
	assert_int_equal(a->n_results, 1);
	assert_string_equal(a->results[0].device, "gpu-0");
	assert_string_equal(a->results[0].share_id, "123e4567-e89b-12d3-a456-426614174000");
	assert_int_equal(a->results[0].binding_conditions.n, 1);
	assert_int_equal(a->results[0].consumed_capacity.n, 1);
	assert_int_equal(a->n_config, 1);
	assert_string_equal(a->config[0].source, "FromClaim");
	assert_non_null(a->node_selector);
	assert_string_equal(a->node_selector->terms[0].match_fields[0].key, "metadata.name");
	assert_string_equal(a->allocation_timestamp, "2025-01-01T00:00:00Z");
	assert_int_equal(c->status.n_reserved_for, 1);
	assert_string_equal(c->status.reserved_for[0].resource, "pods");
	assert_int_equal(c->status.n_devices, 1);
	assert_int_equal(c->status.devices[0].n_conditions, 1);
	assert_string_equal(c->status.devices[0].conditions[0].status, "True");
	assert_non_null(c->status.devices[0].data.node);
	assert_true(c->status.devices[0].has_network_data);
	assert_string_equal(c->status.devices[0].network_hardware_address, "00:11:22:33:44:55");
	loaded_clear(&l);
}

static void
test_decode__template(void **state)
{
	g_autofree char *path = data_path("versions/v1.yaml");
	Loaded l = load_path(path, 0);
	K8sResourceClaimTemplate *t = k8s_object_as_resource_claim_template(k8s_object_set_lookup(
	        l.set, K8S_KIND_RESOURCE_CLAIM_TEMPLATE, "team-a", "one-gpu"));

	assert_non_null(t);
	assert_string_equal(t->template_metadata.labels.items[0].value, "trainer");
	assert_int_equal(t->spec.n_requests, 1);
	assert_false(t->spec.requests[0].exactly.has_count);
	loaded_clear(&l);
}

static void
test_decode__slice(void **state)
{
	g_autofree char *path = data_path("versions/v1.yaml");
	Loaded l = load_path(path, 0);
	K8sResourceSlice *s = k8s_object_as_resource_slice(k8s_object_set_lookup(
	        l.set, K8S_KIND_RESOURCE_SLICE, NULL, "node-1-gpu.example.com"));
	K8sResourceSlice *pd = k8s_object_as_resource_slice(
	        k8s_object_set_lookup(l.set, K8S_KIND_RESOURCE_SLICE, NULL, "counters"));
	K8sResourceSlice *shared = k8s_object_as_resource_slice(
	        k8s_object_set_lookup(l.set, K8S_KIND_RESOURCE_SLICE, NULL, "shared"));
	const K8sDevice *d;
	const K8sCapacityRequestPolicy *p;

	assert_non_null(s);
	assert_string_equal(s->spec.driver, "gpu.example.com");
	assert_string_equal(s->spec.pool.name, "node-1");
	assert_int_equal(s->spec.pool.generation, 1);
	assert_int_equal(s->spec.pool.resource_slice_count, 1);
	assert_string_equal(s->spec.node_name, "node-1");
	assert_int_equal(s->spec.n_devices, 2);
	d = &s->spec.devices[0];
	assert_int_equal(d->n_attributes, 4);
	assert_int_equal(d->attributes[0].type, K8S_ATTR_STRING);
	assert_string_equal(d->attributes[0].string_value, "H100");
	assert_int_equal(d->attributes[1].type, K8S_ATTR_VERSION);
	assert_string_equal(d->attributes[1].string_value, "1.2.3");
	assert_int_equal(d->attributes[2].type, K8S_ATTR_INT);
	assert_int_equal(d->attributes[2].int_value, 0);
	assert_int_equal(d->attributes[3].type, K8S_ATTR_BOOL);
	assert_string_equal(d->attributes[3].name, "gpu.example.com/mig");
	assert_int_equal(d->attributes[3].n_values, 1);
	assert_int_equal(d->n_capacity, 2);
	assert_string_equal(d->capacity[0].name, "memory");
	assert_int_equal(k8s_quantity_value(&d->capacity[0].value.value), 80LL << 30);
	p = d->capacity[0].request_policy;
	assert_non_null(p);
	assert_true(p->has_default);
	assert_true(p->has_valid_range);
	assert_string_equal(p->range_step.text, "1Gi");
	p = d->capacity[1].request_policy;
	assert_int_equal(p->n_valid_values, 3);
	assert_string_equal(p->valid_values[2].text, "4");
	assert_int_equal(d->n_consumes_counters, 1);
	assert_string_equal(d->consumes_counters[0].counters[0].name, "memory");
	assert_int_equal(d->n_taints, 1);
	assert_string_equal(d->taints[0].effect, "NoSchedule");
	assert_true(d->has_binds_to_node && d->binds_to_node);
	assert_int_equal(d->binding_failure_conditions.n, 1);
	assert_true(d->has_allow_multiple_allocations && d->allow_multiple_allocations);
	assert_null(s->spec.devices[1].capacity[0].request_policy);

	assert_true(pd->spec.has_per_device_node_selection);
	assert_non_null(pd->spec.devices[0].node_selector);
	assert_true(pd->spec.devices[1].has_all_nodes);
	assert_string_equal(pd->spec.devices[2].node_name, "node-2");
	assert_true(shared->spec.has_all_nodes && shared->spec.all_nodes);
	assert_int_equal(shared->spec.n_shared_counters, 1);
	assert_int_equal(shared->spec.shared_counters[0].n_counters, 2);
	assert_string_equal(shared->spec.shared_counters[0].counters[1].name, "slices");
	loaded_clear(&l);
}

static void
test_decode__taint_rule(void **state)
{
	Loaded l = load_text("r.yaml",
	                     "apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceTaintRule\n"
	                     "metadata: {name: r}\nspec:\n  deviceSelector:\n"
	                     "    deviceClassName: gpu.example.com\n    driver: gpu.example.com\n"
	                     "    pool: node-1\n    device: gpu-0\n"
	                     "    selectors:\n    - cel: {expression: 'true'}\n"
	                     "  taint:\n    key: example.com/broken\n    value: 'yes'\n"
	                     "    effect: NoExecute\n",
	                     0);
	K8sDeviceTaintRule *r = k8s_object_as_device_taint_rule(k8s_object_set_get(l.set, 0));

	assert_true(l.ok);
	assert_non_null(r);
	assert_true(r->spec.has_device_selector);
	assert_int_equal(r->spec.device_selector_pos.line, 6);
	assert_string_equal(r->spec.device, "gpu-0");
	assert_int_equal(r->spec.n_selectors, 1);
	assert_string_equal(r->spec.taint.value, "yes");
	assert_string_equal(r->spec.taint.effect, "NoExecute");
	loaded_clear(&l);
}

/* A null value in a name-to-quantity map decodes, as in Go, to the key with a zero
 * quantity (a zero Quantity stays zero on null), and encodes as "0": its missing text
 * crashed the v1 encoder (fuzz-manifests, tests/data/fuzz-regress/manifests). */
static void
test_decode__null_quantity_in_map(void **state)
{
	static const char *const text =
	        "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n"
	        "spec:\n  containers:\n  - name: c\n    image: x\n"
	        "    resources:\n      limits: {cpu: \"2\", memory: null}\n";
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autofree char *yaml = NULL;
	const K8sPod *pod;
	const K8sQtyPair *memory;

	assert_true(k8s_load_data("n.yaml", text, strlen(text), K8S_LOAD_DEFAULT, set, diags));
	pod = k8s_object_as_pod(k8s_object_set_lookup(set, K8S_KIND_POD, "default", "a"));
	assert_non_null(pod);
	memory = &pod->spec.containers[0].resources.limits.items[1];
	assert_string_equal(memory->key, "memory");
	assert_true(memory->value.valid);
	assert_int_equal(k8s_quantity_value(&memory->value.value), 0);
	yaml = k8s_object_set_encode(set);
	assert_non_null(strstr(yaml, "        memory: \"0\"\n"));
}

/* hw publishing builds objects in a set instead of decoding them */
static void
test_decode__build_object(void **state)
{
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	K8sResourceSlice *s = k8s_object_as_resource_slice(
	        k8s_object_set_add_new(set, K8S_KIND_RESOURCE_SLICE, NULL, "built"));

	assert_non_null(s);
	s->spec.driver = k8s_object_set_intern(set, "gpu.example.com");
	s->spec.devices = k8s_object_set_alloc(set, sizeof(K8sDevice));
	s->spec.n_devices = 1;
	s->spec.devices[0].name = k8s_object_set_intern(set, "gpu-0");
	assert_ptr_equal(k8s_object_set_lookup(set, K8S_KIND_RESOURCE_SLICE, NULL, "built"),
	                 &s->obj);
	assert_string_equal(s->obj.api_version, "resource.k8s.io/v1");
	assert_int_equal(k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE), 1);
	assert_ptr_equal(k8s_object_set_intern(set, "gpu-0"), s->spec.devices[0].name);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode__pod),
		cmocka_unit_test(test_decode__node_and_workloads),
		cmocka_unit_test(test_decode__device_class),
		cmocka_unit_test(test_decode__claim),
		cmocka_unit_test(test_decode__template),
		cmocka_unit_test(test_decode__slice),
		cmocka_unit_test(test_decode__taint_rule),
		cmocka_unit_test(test_decode__build_object),
		cmocka_unit_test(test_decode__null_quantity_in_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
