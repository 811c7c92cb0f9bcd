/*
 * dra_fixture.h: a simulation with the DRA wiring for the cluster tests
 * (test_dra.c, test_dra_class.c): its objects, loading manifests into them,
 * adding a pod from its manifest, and freeing it all.
 */
#pragma once

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cluster_dra.h"
#include "cluster_k8s.h"
#include "cluster_sim.h"
#include "k8s_objects.h"

typedef struct {
	K8sObjectSet *set;
	ClusterResNames *names;
	ClusterDra *dra;
	SimLoop *loop;
	ClusterSim *sim;
} Fixture;

G_GNUC_UNUSED static void
load(Fixture *f, const char *name, const char *text)
{
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();

	if (!k8s_load_data(name, text, strlen(text), K8S_LOAD_DEFAULT, f->set, diags)) {
		k8s_diag_list_print(diags, stderr);
		fail();
	}
}

G_GNUC_UNUSED static void
fixture_clear(Fixture *f)
{
	cluster_sim_free(f->sim);
	sim_loop_free(f->loop);
	cluster_dra_free(f->dra);
	cluster_res_names_free(f->names);
	k8s_object_set_free(f->set);
}

/* A pod using claim @claim (or, with @template_ref, a claim from that template). */
G_GNUC_UNUSED static guint
add_pod_text(Fixture *f, const char *name, SimTime arrival, const char *text)
{
	guint before = k8s_object_set_count_kind(f->set, K8S_KIND_POD);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_auto(GStrv) claims = NULL;
	g_auto(GStrv) templates = NULL;
	K8sPod *pod;
	ClusterPod *cpod;
	ClusterSimWork w = { .arrival = arrival,
		             .work = 10 * SIM_TIME_S,
		             .lifetime = SIM_TIME_NEVER,
		             .n_devices = 1,
		             .demand = 1.0,
		             .gpu_mem = 1 << 30 };
	guint index;

	load(f, name, text);
	pod = k8s_object_as_pod(k8s_object_set_get_kind(f->set, K8S_KIND_POD, before));
	cpod = cluster_k8s_pod_new(&pod->spec, name, 0, f->names, diags, "spec.");
	assert_non_null(cpod);
	cluster_dra_pod_claim_refs(&pod->spec, &claims, &templates);
	w.claims = (const char *const *)claims;
	w.templates = (const char *const *)templates;
	index = cluster_sim_add_pod(f->sim, cpod, &w);
	cluster_dra_add_pod(f->dra, index, k8s_object_namespace(&pod->obj), &pod->spec);
	assert_true(cpod->has_dra);
	return index;
}
