/*
 * scenario_test_util.h: what the scenario unit tests share: the path of a file
 * in tests/unit/scenario/data and running one mode of a scenario file there.
 */
#pragma once

#include "world.h"

/* Returns: (transfer full): DRASIM_TEST_DATA/@name. */
char *scenario_test_data_path(const char *name);

/* Loads data/@file and runs @mode_name with the scenario's seed and horizon;
 * fails the test (printing the diagnostics) when either step fails. */
ScenarioResult *scenario_test_run_mode(const char *file, const char *mode_name);
/* The same with the run's full journal on. */
ScenarioResult *scenario_test_run_journal(const char *file, const char *mode_name);

/* The record of pod @name in @r (its index in pod_records in @index, when not
 * NULL); fails the test when there is none, so it never returns NULL. */
const ScenarioPodRecord *
scenario_test_pod_record(const ScenarioResult *r, const char *name, guint *index);
/* The devices pod @name in @r was given, comma-separated as the sampler keeps them
 * ("gpu:NODE/DEVICE,..."); fails the test when the pod has none. */
const char *scenario_test_devices(const ScenarioResult *r, const char *name);

/* The pending reason of pod @name in @r, or NULL when it has none (it bound at
 * its first attempt). */
const ScenarioReason *scenario_test_find_reason(const ScenarioResult *r, const char *name);
/* The same, failing the test when there is none, so it never returns NULL. */
const ScenarioReason *scenario_test_pod_reason(const ScenarioResult *r, const char *name);

/* Writes @text to a scenario file "s.yaml" in a temporary folder, loads it and fails
 * the test unless loading fails with a diagnostic whose formatted line contains
 * @needle ("s.yaml:LINE:COL: error: MESSAGE [path]"). */
void scenario_test_expect_error(const char *text, const char *needle);
