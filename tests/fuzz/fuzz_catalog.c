/*
 * fuzz_catalog.c: libFuzzer target for hardware catalog files and generic driver
 * descriptions, as `drasim publish --catalog/--driver` reads them.
 *
 * The first input byte picks the reader: a catalog document, loaded into an empty catalog
 * with hw_catalog_load_data(), after which every node shape it defines is built into a
 * node and published (the NVIDIA driver's and dranet's ResourceSlices, as YAML); or a
 * generic driver description (hw_generic_driver_parse()), published on one node.
 */
#include "fuzz.h"
#include "hw.h"

/* Every shape of @catalog built and published, as `drasim publish --shape` does. */
static void
publish_shapes(const HwCatalog *catalog)
{
	const GPtrArray *shapes = hw_catalog_get_shapes(catalog);
	HwPublishOptions options;

	hw_publish_options_init(&options);
	for (guint i = 0; i < shapes->len; i++) {
		HwNode *node = hw_node_new(g_ptr_array_index(shapes, i), "fuzz-node");
		GPtrArray *slices = hw_publish_nvidia(node, &options);
		HwSlice *nics = hw_publish_dranet(node);

		if (nics != NULL)
			g_ptr_array_add(slices, nics);
		g_free(hw_yaml_write_list(NULL, hw_nvidia_device_classes(), slices));
		g_ptr_array_unref(slices);
		hw_node_free(node);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	const char *text = (const char *)data + 1;
	GError *error = NULL;

	if (data[0] & 1) {
		HwGenericDriver *driver =
		        hw_generic_driver_parse("fuzz.yaml", text, size - 1, &error);

		if (driver != NULL) {
			HwSlice *slice = hw_generic_driver_publish(driver, "fuzz-node");
			GPtrArray *slices =
			        g_ptr_array_new_with_free_func((GDestroyNotify)hw_slice_free);

			g_ptr_array_add(slices, slice);
			g_free(hw_yaml_write_list(NULL, NULL, slices));
			g_ptr_array_unref(slices);
			hw_generic_driver_free(driver);
		}
	} else {
		HwCatalog *catalog = hw_catalog_new_empty();

		if (hw_catalog_load_data(catalog, "fuzz.hw.yaml", text, size - 1, &error))
			publish_shapes(catalog);
		hw_catalog_free(catalog);
	}
	g_clear_error(&error);
	return 0;
}
