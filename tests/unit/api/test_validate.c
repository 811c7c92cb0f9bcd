/*
 * test_validate.c: one failing manifest per validation rule and cross-check, and a set of
 * valid manifests that must produce no diagnostic at all.
 *
 * Each case is decoded with the real loader, validated and cross-checked (k8s_lint_set),
 * and must produce a diagnostic of the expected severity whose message contains the
 * expected text, at the expected field path, with a position.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "api-test-util.h"
#include "k8s_lint.h"
#include "k8s_validate.h"

/* Every case gets this class, so references to it resolve. */
static const char class_doc[] = "apiVersion: resource.k8s.io/v1\n"
                                "kind: DeviceClass\n"
                                "metadata:\n"
                                "  name: gpu.example.com\n"
                                "spec:\n"
                                "  selectors:\n"
                                "  - cel:\n"
                                "      expression: device.driver == \"gpu.example.com\"\n";

#define CLAIM_HEAD                                                                                 \
	"apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\n"              \
	"  namespace: team\nspec:\n  devices:\n"
#define REQ_GPU                                                                                    \
	"    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: "                \
	"gpu.example.com\n"
#define SLICE_HEAD                                                                                 \
	"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s\n"              \
	"spec:\n  driver: gpu.example.com\n  pool:\n    name: node-1\n"                            \
	"    resourceSliceCount: 1\n"
#define POD_HEAD "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: team\nspec:\n"
#define DEPLOY_HEAD                                                                                \
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  namespace: team\n"

typedef struct {
	const char *name;
	const char *yaml;
	const char *message; /* substring */
	const char *path;    /* exact field path */
	K8sSeverity severity;
} Case;

static const Case cases[] = {
	/* ---- metadata ---- */
	{ "name required",
	  "apiVersion: v1\nkind: Pod\nmetadata:\n  namespace: team\nspec:\n  containers:\n"
	  "  - name: a\n    image: x\n",
	  "Required value: name or generateName is required", "metadata.name", K8S_SEVERITY_ERROR },
	{ "name format",
	  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: GPU_class\n",
	  "Invalid value: \"GPU_class\": a lowercase RFC 1123 subdomain", "metadata.name",
	  K8S_SEVERITY_ERROR },
	{ "namespace format",
	  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: Team\nspec:\n"
	  "  containers:\n  - name: a\n    image: x\n",
	  "a lowercase RFC 1123 label", "metadata.namespace", K8S_SEVERITY_ERROR },
	{ "label value", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels:\n    a: -x\n",
	  "a valid label must be an empty string", "metadata.labels", K8S_SEVERITY_ERROR },
	{ "label key",
	  "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels:\n    a/b/c: x\n",
	  "a valid label key must consist of", "metadata.labels", K8S_SEVERITY_ERROR },
	{ "cluster-scoped namespace",
	  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: x\n"
	  "  namespace: team\n",
	  "is cluster-scoped", "metadata.namespace", K8S_SEVERITY_WARNING },
	/* ---- apiVersion ---- */
	{ "v1alpha3 not served",
	  "apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceClass\nmetadata:\n  name: x\n",
	  "no matches for kind \"DeviceClass\" in version \"resource.k8s.io/v1alpha3\"",
	  "apiVersion", K8S_SEVERITY_ERROR },
	{ "v1alpha3 names the fix",
	  "apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceClass\nmetadata:\n  name: x\n",
	  "write apiVersion: resource.k8s.io/v1", "apiVersion", K8S_SEVERITY_ERROR },
	{ "v1beta1 warning",
	  "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata:\n  name: x\n",
	  "write apiVersion: resource.k8s.io/v1", "apiVersion", K8S_SEVERITY_WARNING },
	/* ---- DeviceClass ---- */
	{ "class selector without cel",
	  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: x\nspec:\n"
	  "  selectors:\n  - {}\n",
	  "Required value", "spec.selectors[0].cel", K8S_SEVERITY_ERROR },
	{ "class config without opaque",
	  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: x\nspec:\n"
	  "  config:\n  - {}\n",
	  "Required value", "spec.config[0].opaque", K8S_SEVERITY_ERROR },
	{ "opaque driver",
	  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: x\nspec:\n"
	  "  config:\n  - opaque:\n      driver: bad_driver\n      parameters:\n        a: 1\n",
	  "Invalid value: \"bad_driver\": a lowercase RFC 1123 subdomain",
	  "spec.config[0].opaque.driver", K8S_SEVERITY_ERROR },
	{ "opaque parameters not an object",
	  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: x\nspec:\n"
	  "  config:\n  - opaque:\n      driver: gpu.example.com\n      parameters: [1, 2]\n",
	  "Invalid value: \"<value omitted>\": must be a valid JSON object",
	  "spec.config[0].opaque.parameters", K8S_SEVERITY_ERROR },
	{ "opaque parameters required",
	  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: x\nspec:\n"
	  "  config:\n  - opaque:\n      driver: gpu.example.com\n",
	  "Required value", "spec.config[0].opaque.parameters", K8S_SEVERITY_ERROR },
	{ "extendedResourceName",
	  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: x\nspec:\n"
	  "  extendedResourceName: gpu\n",
	  "must be a valid extended resource name", "spec.extendedResourceName",
	  K8S_SEVERITY_ERROR },
	/* ---- claims ---- */
	/* a status allocation result that names no device (validateDeviceRequestAllocationResult:
	 * driver, pool and device required); it crashed `drasim allocate` (fuzz-regress
	 * allocate/result-without-driver) */
	{ "allocation result driver",
	  CLAIM_HEAD REQ_GPU "status:\n  allocation:\n    devices:\n      results:\n"
	                     "      - {request: gpu, pool: node-1, device: gpu-0}\n",
	  "Required value", "status.allocation.devices.results[0].driver", K8S_SEVERITY_ERROR },
	{ "allocation result pool",
	  CLAIM_HEAD REQ_GPU "status:\n  allocation:\n    devices:\n      results:\n"
	                     "      - {request: gpu, driver: gpu.example.com, device: gpu-0}\n",
	  "Required value", "status.allocation.devices.results[0].pool", K8S_SEVERITY_ERROR },
	{ "allocation result device",
	  CLAIM_HEAD REQ_GPU "status:\n  allocation:\n    devices:\n      results:\n"
	                     "      - {request: gpu, driver: gpu.example.com, pool: node-1}\n",
	  "Required value", "status.allocation.devices.results[0].device", K8S_SEVERITY_ERROR },
	{ "request name",
	  CLAIM_HEAD "    requests:\n    - name: GPU\n      exactly:\n"
	             "        deviceClassName: gpu.example.com\n",
	  "Invalid value: \"GPU\": a lowercase RFC 1123 label", "spec.devices.requests[0].name",
	  K8S_SEVERITY_ERROR },
	{ "duplicate request",
	  CLAIM_HEAD REQ_GPU "    - name: gpu\n      exactly:\n"
	                     "        deviceClassName: gpu.example.com\n",
	  "Duplicate value: \"gpu\"", "spec.devices.requests[1]", K8S_SEVERITY_ERROR },
	{ "neither exactly nor firstAvailable", CLAIM_HEAD "    requests:\n    - name: gpu\n",
	  "Required value: exactly one of `exactly` or `firstAvailable` is required",
	  "spec.devices.requests[0]", K8S_SEVERITY_ERROR },
	{ "both exactly and firstAvailable",
	  CLAIM_HEAD REQ_GPU "      firstAvailable:\n      - name: a\n"
	                     "        deviceClassName: gpu.example.com\n",
	  "but multiple fields are set", "spec.devices.requests[0]", K8S_SEVERITY_ERROR },
	{ "deviceClassName required",
	  CLAIM_HEAD "    requests:\n    - name: gpu\n      exactly:\n        count: 1\n",
	  "Required value", "spec.devices.requests[0].exactly.deviceClassName",
	  K8S_SEVERITY_ERROR },
	{ "deviceClassName format",
	  CLAIM_HEAD "    requests:\n    - name: gpu\n      exactly:\n"
	             "        deviceClassName: GPU\n",
	  "a lowercase RFC 1123 subdomain", "spec.devices.requests[0].exactly.deviceClassName",
	  K8S_SEVERITY_ERROR },
	{ "count with All", CLAIM_HEAD REQ_GPU "        allocationMode: All\n        count: 2\n",
	  "Invalid value: 2: must not be specified when allocationMode is 'All'",
	  "spec.devices.requests[0].exactly.count", K8S_SEVERITY_ERROR },
	{ "count zero", CLAIM_HEAD REQ_GPU "        count: 0\n",
	  "Invalid value: 0: must be greater than zero", "spec.devices.requests[0].exactly.count",
	  K8S_SEVERITY_ERROR },
	{ "allocationMode unsupported", CLAIM_HEAD REQ_GPU "        allocationMode: Some\n",
	  "Unsupported value: \"Some\": supported values: \"All\", \"ExactCount\"",
	  "spec.devices.requests[0].exactly.allocationMode", K8S_SEVERITY_ERROR },
	{ "toleration Exists with value",
	  CLAIM_HEAD REQ_GPU "        tolerations:\n        - key: a\n          operator: Exists\n"
	                     "          value: b\n",
	  "must be empty for operator `Exists`",
	  "spec.devices.requests[0].exactly.tolerations[0].value", K8S_SEVERITY_ERROR },
	{ "toleration operator",
	  CLAIM_HEAD REQ_GPU "        tolerations:\n        - key: a\n          operator: Gt\n",
	  "Unsupported value: \"Gt\"", "spec.devices.requests[0].exactly.tolerations[0].operator",
	  K8S_SEVERITY_ERROR },
	{ "constraint without attribute",
	  CLAIM_HEAD REQ_GPU "    constraints:\n    - requests: [gpu]\n", "Required value",
	  "spec.devices.constraints[0].matchAttribute", K8S_SEVERITY_ERROR },
	{ "matchAttribute not fully qualified",
	  CLAIM_HEAD REQ_GPU "    constraints:\n    - matchAttribute: pcieRoot\n",
	  "a fully qualified name must be a domain and a name separated by a slash",
	  "spec.devices.constraints[0].matchAttribute", K8S_SEVERITY_ERROR },
	{ "matchAttribute id",
	  CLAIM_HEAD REQ_GPU "    constraints:\n    - matchAttribute: gpu.example.com/pcie-root\n",
	  "a valid C identifier", "spec.devices.constraints[0].matchAttribute",
	  K8S_SEVERITY_ERROR },
	{ "constraint request unknown",
	  CLAIM_HEAD REQ_GPU "    constraints:\n    - requests: [nic]\n"
	                     "      matchAttribute: gpu.example.com/pcieRoot\n",
	  "must be the name of a request in the claim", "spec.devices.constraints[0].requests[0]",
	  K8S_SEVERITY_ERROR },
	{ "config request unknown",
	  CLAIM_HEAD REQ_GPU "    config:\n    - requests: [gpu/a]\n      opaque:\n"
	                     "        driver: gpu.example.com\n        parameters: {a: 1}\n",
	  "must be the name of a request in the claim", "spec.devices.config[0].requests[0]",
	  K8S_SEVERITY_ERROR },
	{ "duplicate sub-request",
	  CLAIM_HEAD "    requests:\n    - name: gpu\n      firstAvailable:\n      - name: a\n"
	             "        deviceClassName: gpu.example.com\n      - name: a\n"
	             "        deviceClassName: gpu.example.com\n",
	  "Duplicate value: \"a\"", "spec.devices.requests[0].firstAvailable[1]",
	  K8S_SEVERITY_ERROR },
	{ "template request name",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: t\n"
	  "  namespace: team\nspec:\n  spec:\n    devices:\n      requests:\n      - name: a.b\n"
	  "        exactly:\n          deviceClassName: gpu.example.com\n",
	  "must not contain dots", "spec.spec.devices.requests[0].name", K8S_SEVERITY_ERROR },
	{ "v1beta1 path has no exactly",
	  "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata:\n  name: c\n"
	  "  namespace: team\nspec:\n  devices:\n    requests:\n    - name: gpu\n"
	  "      deviceClassName: gpu.example.com\n      count: -1\n",
	  "must be greater than zero", "spec.devices.requests[0].count", K8S_SEVERITY_ERROR },
	/* ---- slices ---- */
	{ "slice node selection missing", SLICE_HEAD,
	  "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is "
	  "required",
	  "spec", K8S_SEVERITY_ERROR },
	{ "slice node selection twice", SLICE_HEAD "  nodeName: n1\n  allNodes: true\n",
	  "but multiple fields are set", "spec", K8S_SEVERITY_ERROR },
	{ "slice nodeSelector terms",
	  SLICE_HEAD "  nodeSelector:\n    nodeSelectorTerms:\n    - matchExpressions:\n"
	             "      - {key: a, operator: Exists}\n    - matchExpressions:\n"
	             "      - {key: b, operator: Exists}\n",
	  "must have exactly one node selector term", "spec.nodeSelector.nodeSelectorTerms",
	  K8S_SEVERITY_ERROR },
	{ "slice nodeSelector operator",
	  SLICE_HEAD "  nodeSelector:\n    nodeSelectorTerms:\n    - matchExpressions:\n"
	             "      - {key: a, operator: In}\n",
	  "must be specified when `operator` is 'In' or 'NotIn'",
	  "spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].values", K8S_SEVERITY_ERROR },
	{ "resourceSliceCount",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s\nspec:\n"
	  "  driver: gpu.example.com\n  allNodes: true\n  pool:\n    name: p\n",
	  "Invalid value: 0: must be greater than zero", "spec.pool.resourceSliceCount",
	  K8S_SEVERITY_ERROR },
	/* the driver written once: a second `driver:` is a duplicate key, never decoded */
	{ "slice driver",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s\n"
	  "spec:\n  driver: -x\n  pool:\n    name: node-1\n    resourceSliceCount: 1\n"
	  "  allNodes: true\n",
	  "a lowercase RFC 1123", "spec.driver", K8S_SEVERITY_ERROR },
	{ "device name", SLICE_HEAD "  allNodes: true\n  devices:\n  - name: gpu_0\n",
	  "Invalid value: \"gpu_0\"", "spec.devices[0].name", K8S_SEVERITY_ERROR },
	{ "duplicate device",
	  SLICE_HEAD "  allNodes: true\n  devices:\n  - name: gpu-0\n  - name: gpu-0\n",
	  "Duplicate value: \"gpu-0\"", "spec.devices[1]", K8S_SEVERITY_ERROR },
	{ "attribute string too long",
	  SLICE_HEAD "  allNodes: true\n  devices:\n  - name: g\n    attributes:\n      model:\n"
	             "        string: "
	             "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
	  "Too long: may not be more than 64 bytes", "spec.devices[0].attributes[model].string",
	  K8S_SEVERITY_ERROR },
	{ "attribute version",
	  SLICE_HEAD "  allNodes: true\n  devices:\n  - name: g\n    attributes:\n      v:\n"
	             "        version: \"1.2\"\n",
	  "must be a string compatible with semver.org spec 2.0.0",
	  "spec.devices[0].attributes[v].version", K8S_SEVERITY_ERROR },
	{ "attribute without value",
	  SLICE_HEAD "  allNodes: true\n  devices:\n  - name: g\n    attributes:\n      v: {}\n",
	  "exactly one value must be specified", "spec.devices[0].attributes[v]",
	  K8S_SEVERITY_ERROR },
	{ "attribute name",
	  SLICE_HEAD "  allNodes: true\n  devices:\n  - name: g\n    attributes:\n"
	             "      gpu.example.com/mig-profile:\n        string: x\n",
	  "a valid C identifier", "spec.devices[0].attributes", K8S_SEVERITY_ERROR },
	{ "attribute id too long",
	  SLICE_HEAD "  allNodes: true\n  devices:\n  - name: g\n    attributes:\n"
	             "      aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:\n        int: 1\n",
	  "Too long: may not be more than 32 bytes", "spec.devices[0].attributes",
	  K8S_SEVERITY_ERROR },
	{ "taint effect",
	  SLICE_HEAD "  allNodes: true\n  devices:\n  - name: g\n    taints:\n    - key: a\n"
	             "      effect: Sometimes\n",
	  "Unsupported value: \"Sometimes\": supported values: \"NoExecute\", \"NoSchedule\"",
	  "spec.devices[0].taints[0].effect", K8S_SEVERITY_ERROR },
	{ "requestPolicy needs multiple allocations",
	  SLICE_HEAD "  allNodes: true\n  devices:\n  - name: g\n    capacity:\n      memory:\n"
	             "        value: 40Gi\n        requestPolicy:\n          default: 1Gi\n"
	             "          validValues: [1Gi]\n",
	  "Forbidden: allowMultipleAllocations must be true",
	  "spec.devices[0].capacity[memory].requestPolicy", K8S_SEVERITY_ERROR },
	{ "requestPolicy default",
	  SLICE_HEAD
	  "  allNodes: true\n  devices:\n  - name: g\n    allowMultipleAllocations: true\n"
	  "    capacity:\n      memory:\n        value: 40Gi\n        requestPolicy:\n"
	  "          default: 2Gi\n          validValues: [1Gi, 4Gi]\n",
	  "default value is not valid according to the requestPolicy",
	  "spec.devices[0].capacity[memory].requestPolicy.validValues", K8S_SEVERITY_ERROR },
	{ "consumesCounters set",
	  SLICE_HEAD
	  "  allNodes: true\n  devices:\n  - name: g\n    consumesCounters:\n"
	  "    - counterSet: gpu-0\n      counters:\n        memory:\n          value: 1\n",
	  "must reference a counterSet defined in the ResourceSlice sharedCounters",
	  "spec.devices[0].consumesCounters[0].counterSet", K8S_SEVERITY_ERROR },
	{ "per-device node fields",
	  SLICE_HEAD "  allNodes: true\n  devices:\n  - name: g\n    nodeName: n1\n",
	  "can only be set if `perDeviceNodeSelection` is set to true", "spec.devices[0]",
	  K8S_SEVERITY_ERROR },
	{ "binding conditions pair",
	  SLICE_HEAD "  allNodes: true\n  devices:\n  - name: g\n    bindingConditions: [ready]\n",
	  "bindingFailureConditions are required to use bindingConditions",
	  "spec.devices[0].bindingFailureConditions", K8S_SEVERITY_ERROR },
	/* ---- DeviceTaintRule ---- */
	{ "taint rule effect",
	  "apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceTaintRule\nmetadata:\n  name: r\n"
	  "spec:\n  taint:\n    key: example.com/broken\n",
	  "Required value", "spec.taint.effect", K8S_SEVERITY_ERROR },
	/* ---- pods ---- */
	{ "container claim not found",
	  POD_HEAD "  resourceClaims:\n  - name: gpu\n    resourceClaimName: c\n  containers:\n"
	           "  - name: a\n    image: x\n    resources:\n      claims:\n      - name: gpu2\n",
	  "Not found: \"gpu2\": must be one of the names in pod.spec.resourceClaims: gpu",
	  "spec.containers[0].resources.claims[0]", K8S_SEVERITY_ERROR },
	{ "pod claim both sources",
	  POD_HEAD "  resourceClaims:\n  - name: gpu\n    resourceClaimName: c\n"
	           "    resourceClaimTemplateName: t\n  containers:\n  - name: a\n    image: x\n",
	  "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified",
	  "spec.resourceClaims[0]", K8S_SEVERITY_ERROR },
	{ "pod claim no source",
	  POD_HEAD "  resourceClaims:\n  - name: gpu\n  containers:\n  - name: a\n    image: x\n",
	  "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
	  "spec.resourceClaims[0]", K8S_SEVERITY_ERROR },
	{ "extended request equals limit",
	  POD_HEAD "  containers:\n  - name: a\n    image: x\n    resources:\n      requests:\n"
	           "        nvidia.com/gpu: 1\n      limits:\n        nvidia.com/gpu: 2\n",
	  "must be equal to nvidia.com/gpu limit of 2",
	  "spec.containers[0].resources.requests[nvidia.com/gpu]", K8S_SEVERITY_ERROR },
	{ "extended limit required",
	  POD_HEAD "  containers:\n  - name: a\n    image: x\n    resources:\n      requests:\n"
	           "        nvidia.com/gpu: 1\n",
	  "Limit must be set for non overcommitable resources",
	  "spec.containers[0].resources.limits[nvidia.com/gpu]", K8S_SEVERITY_ERROR },
	{ "cpu request over limit",
	  POD_HEAD "  containers:\n  - name: a\n    image: x\n    resources:\n      requests:\n"
	           "        cpu: 1500m\n      limits:\n        cpu: 1\n",
	  "Invalid value: \"1500m\": must be less than or equal to cpu limit of 1",
	  "spec.containers[0].resources.requests[cpu]", K8S_SEVERITY_ERROR },
	{ "extended resource integer",
	  POD_HEAD "  containers:\n  - name: a\n    image: x\n    resources:\n      limits:\n"
	           "        nvidia.com/gpu: 500m\n",
	  "must be an integer", "spec.containers[0].resources.limits[nvidia.com/gpu]",
	  K8S_SEVERITY_ERROR },
	{ "container image", POD_HEAD "  containers:\n  - name: a\n", "Required value",
	  "spec.containers[0].image", K8S_SEVERITY_ERROR },
	{ "pod toleration",
	  POD_HEAD "  containers:\n  - name: a\n    image: x\n  tolerations:\n  - key: a\n"
	           "    operator: Exists\n    value: b\n",
	  "value must be empty when `operator` is 'Exists'", "spec.tolerations[0].operator",
	  K8S_SEVERITY_ERROR },
	/* ---- workloads ---- */
	{ "deployment selector required",
	  DEPLOY_HEAD "spec:\n  template:\n    metadata:\n      labels: {app: a}\n    spec:\n"
	              "      containers:\n      - name: a\n        image: x\n",
	  "Required value", "spec.selector", K8S_SEVERITY_ERROR },
	{ "deployment selector mismatch",
	  DEPLOY_HEAD "spec:\n  selector:\n    matchLabels: {app: b}\n  template:\n    metadata:\n"
	              "      labels: {app: a}\n    spec:\n      containers:\n      - name: a\n"
	              "        image: x\n",
	  "Invalid value: map[string]string{\"app\":\"a\"}: `selector` does not match template "
	  "`labels`",
	  "spec.template.metadata.labels", K8S_SEVERITY_ERROR },
	{ "deployment restartPolicy",
	  DEPLOY_HEAD "spec:\n  selector:\n    matchLabels: {app: a}\n  template:\n    metadata:\n"
	              "      labels: {app: a}\n    spec:\n      restartPolicy: Never\n"
	              "      containers:\n      - name: a\n        image: x\n",
	  "Unsupported value: \"Never\": supported values: \"Always\"",
	  "spec.template.spec.restartPolicy", K8S_SEVERITY_ERROR },
	{ "job restartPolicy default",
	  "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\n  namespace: team\nspec:\n"
	  "  template:\n    spec:\n      containers:\n      - name: a\n        image: x\n",
	  "Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\"",
	  "spec.template.spec.restartPolicy", K8S_SEVERITY_ERROR },
	{ "negative replicas",
	  DEPLOY_HEAD "spec:\n  replicas: -1\n  selector:\n    matchLabels: {app: a}\n"
	              "  template:\n    metadata:\n      labels: {app: a}\n    spec:\n"
	              "      containers:\n      - name: a\n        image: x\n",
	  "Invalid value: -1: must be greater than or equal to 0", "spec.replicas",
	  K8S_SEVERITY_ERROR },
	/* ---- nodes ---- */
	{ "node taint effect",
	  "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\nspec:\n  taints:\n  - key: a\n"
	  "    effect: Maybe\n",
	  "Unsupported value: \"Maybe\"", "spec.taints[0].effect", K8S_SEVERITY_ERROR },
	/* ---- more rules ---- */
	{ "capacity request name",
	  CLAIM_HEAD REQ_GPU "        capacity:\n          requests:\n            a/b/c: 1\n",
	  "must not contain more than one slash",
	  "spec.devices.requests[0].exactly.capacity.requests", K8S_SEVERITY_ERROR },
	{ "pool generation", SLICE_HEAD "    generation: -1\n  allNodes: true\n",
	  "Invalid value: -1: must be greater than or equal to zero", "spec.pool.generation",
	  K8S_SEVERITY_ERROR },
	{ "pool name part",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s\nspec:\n"
	  "  driver: gpu.example.com\n  allNodes: true\n  pool:\n    name: a/B\n"
	  "    resourceSliceCount: 1\n",
	  "Invalid value: \"B\": a lowercase RFC 1123 subdomain", "spec.pool.name",
	  K8S_SEVERITY_ERROR },
	{ "counter not in set",
	  SLICE_HEAD "  allNodes: true\n  sharedCounters:\n  - name: gpu-0\n    counters:\n"
	             "      memory:\n        value: 80Gi\n  devices:\n  - name: g\n"
	             "    consumesCounters:\n    - counterSet: gpu-0\n      counters:\n"
	             "        sms:\n          value: 1\n",
	  "must reference a counter defined in the ResourceSlice sharedCounters",
	  "spec.devices[0].consumesCounters[0].counters[sms]", K8S_SEVERITY_ERROR },
	{ "attribute with two values",
	  SLICE_HEAD "  allNodes: true\n  devices:\n  - name: g\n    attributes:\n"
	             "      v: {int: 1, string: x}\n",
	  "exactly one value must be specified", "spec.devices[0].attributes[v]",
	  K8S_SEVERITY_ERROR },
	{ "per-device node selection missing",
	  SLICE_HEAD "  perDeviceNodeSelection: true\n  devices:\n  - name: g\n",
	  "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
	  "`perDeviceNodeSelection` is set to true",
	  "spec.devices[0]", K8S_SEVERITY_ERROR },
	{ "validRange min over capacity",
	  SLICE_HEAD
	  "  allNodes: true\n  devices:\n  - name: g\n    allowMultipleAllocations: true\n"
	  "    capacity:\n      memory:\n        value: 40Gi\n        requestPolicy:\n"
	  "          default: 50Gi\n          validRange:\n            min: 50Gi\n",
	  "min is larger than capacity value: 40Gi",
	  "spec.devices[0].capacity[memory].requestPolicy.validRange.min", K8S_SEVERITY_ERROR },
	{ "binding conditions overlap",
	  SLICE_HEAD "  allNodes: true\n  devices:\n  - name: g\n    bindingConditions: [ready]\n"
	             "    bindingFailureConditions: [ready]\n",
	  "bindingFailureConditions must not overlap with bindingConditions",
	  "spec.devices[0].bindingFailureConditions[0]", K8S_SEVERITY_ERROR },
	{ "taint rule selector driver",
	  "apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceTaintRule\nmetadata:\n  name: r\n"
	  "spec:\n  deviceSelector:\n    driver: Bad_Driver\n  taint:\n    key: a\n"
	  "    effect: NoSchedule\n",
	  "Invalid value: \"Bad_Driver\"", "spec.deviceSelector.driver", K8S_SEVERITY_ERROR },
	{ "pod nodeSelector value",
	  POD_HEAD "  nodeSelector:\n    gpu: -yes-\n  containers:\n  - name: a\n    image: x\n",
	  "a valid label must be an empty string", "spec.nodeSelector", K8S_SEVERITY_ERROR },
	{ "pod node affinity operator",
	  POD_HEAD
	  "  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
	  "        nodeSelectorTerms:\n        - matchExpressions:\n"
	  "          - {key: a, operator: Near, values: [b]}\n"
	  "  containers:\n  - name: a\n    image: x\n",
	  "Invalid value: \"Near\": not a valid selector operator",
	  "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
	  "nodeSelectorTerms[0].matchExpressions[0].operator",
	  K8S_SEVERITY_ERROR },
	{ "deployment empty selector",
	  DEPLOY_HEAD "spec:\n  selector: {}\n  template:\n    spec:\n      containers:\n"
	              "      - name: a\n        image: x\n",
	  "empty selector is invalid for deployment", "spec.selector", K8S_SEVERITY_ERROR },
	{ "job parallelism",
	  "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\n  namespace: team\nspec:\n"
	  "  parallelism: -2\n  template:\n    spec:\n      restartPolicy: Never\n"
	  "      containers:\n      - name: a\n        image: x\n",
	  "Invalid value: -2: must be greater than or equal to 0", "spec.parallelism",
	  K8S_SEVERITY_ERROR },
	{ "node capacity",
	  "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\nstatus:\n  capacity:\n    cpu: -1\n",
	  "must be greater than or equal to 0", "status.capacity[cpu]", K8S_SEVERITY_ERROR },
	{ "container claim duplicate",
	  POD_HEAD "  resourceClaims:\n  - name: gpu\n    resourceClaimName: c\n  containers:\n"
	           "  - name: a\n    image: x\n    resources:\n      claims:\n      - name: gpu\n"
	           "      - name: gpu\n",
	  "Duplicate value: \"gpu\"", "spec.containers[0].resources.claims[1]",
	  K8S_SEVERITY_ERROR },
	{ "v1beta1 device path has basic",
	  "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceSlice\nmetadata:\n  name: s\nspec:\n"
	  "  driver: gpu.example.com\n  nodeName: n1\n  pool:\n    name: p\n"
	  "    resourceSliceCount: 1\n  devices:\n  - name: g\n    basic:\n      attributes:\n"
	  "        v:\n          version: x.y\n",
	  "must be a string compatible with semver.org spec 2.0.0",
	  "spec.devices[0].basic.attributes[v].version", K8S_SEVERITY_ERROR },
	{ "workload selector operator",
	  DEPLOY_HEAD "spec:\n  selector:\n    matchExpressions:\n    - {key: app, operator: In}\n"
	              "  template:\n    metadata:\n      labels: {app: a}\n    spec:\n"
	              "      containers:\n      - name: a\n        image: x\n",
	  "Required value: must be specified when `operator` is 'In' or 'NotIn'",
	  "spec.selector.matchExpressions[0].values", K8S_SEVERITY_ERROR },
	/* ---- references ---- */
	{ "unknown DeviceClass",
	  CLAIM_HEAD "    requests:\n    - name: gpu\n      exactly:\n"
	             "        deviceClassName: tpu.example.com\n",
	  "deviceclass.resource.k8s.io \"tpu.example.com\" not found",
	  "spec.devices.requests[0].exactly.deviceClassName", K8S_SEVERITY_ERROR },
	{ "unknown DeviceClass in sub-request",
	  CLAIM_HEAD "    requests:\n    - name: gpu\n      firstAvailable:\n      - name: big\n"
	             "        deviceClassName: tpu.example.com\n",
	  "request gpu/big: could not retrieve device class tpu.example.com",
	  "spec.devices.requests[0].firstAvailable[0].deviceClassName", K8S_SEVERITY_ERROR },
	/* An allocated claim never reaches the allocator again (allocator_stable.go sees only
	 * claimsToAllocate): its unknown class is a warning, as in a dump of claims alone. */
	{ "unknown DeviceClass of an allocated claim",
	  CLAIM_HEAD "    requests:\n    - name: gpu\n      exactly:\n"
	             "        deviceClassName: tpu.example.com\n"
	             "status:\n  allocation:\n    devices:\n      results:\n"
	             "      - {request: gpu, driver: tpu.example.com, pool: n1, device: t0}\n",
	  "device class tpu.example.com is not known (known DeviceClasses: gpu.example.com); the "
	  "claim is allocated (status.allocation)",
	  "spec.devices.requests[0].exactly.deviceClassName", K8S_SEVERITY_WARNING },
	{ "pod claim missing",
	  POD_HEAD "  resourceClaims:\n  - name: gpu\n    resourceClaimName: nope\n  containers:\n"
	           "  - name: a\n    image: x\n",
	  "resourceclaim.resource.k8s.io \"nope\" not found in namespace \"team\"",
	  "spec.resourceClaims[0].resourceClaimName", K8S_SEVERITY_ERROR },
	{ "pod claim in another namespace",
	  CLAIM_HEAD REQ_GPU "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n"
	                     "  resourceClaims:\n  - name: gpu\n    resourceClaimName: c\n"
	                     "  containers:\n  - name: a\n    image: x\n",
	  "it exists only in namespace \"team\"", "spec.resourceClaims[0].resourceClaimName",
	  K8S_SEVERITY_ERROR },
	{ "template in another namespace",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: t\n"
	  "  namespace: other\nspec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n"
	  "        exactly:\n          deviceClassName: gpu.example.com\n---\n" DEPLOY_HEAD
	  "spec:\n  selector:\n    matchLabels: {app: a}\n  template:\n    metadata:\n"
	  "      labels: {app: a}\n    spec:\n      resourceClaims:\n      - name: gpu\n"
	  "        resourceClaimTemplateName: t\n      containers:\n      - name: a\n"
	  "        image: x\n",
	  "resourceclaimtemplate.resource.k8s.io \"t\" not found in namespace \"team\": it exists "
	  "only in namespace \"other\"",
	  "spec.template.spec.resourceClaims[0].resourceClaimTemplateName", K8S_SEVERITY_ERROR },
	{ "container claim request unknown",
	  CLAIM_HEAD REQ_GPU
	  "---\n" POD_HEAD "  resourceClaims:\n  - name: gpu\n"
	  "    resourceClaimName: c\n  containers:\n  - name: a\n    image: x\n"
	  "    resources:\n      claims:\n      - name: gpu\n        request: nic\n",
	  "request \"nic\" not found in the devices.requests of claim \"gpu\"",
	  "spec.containers[0].resources.claims[0].request", K8S_SEVERITY_ERROR },
};

static gboolean
matches(const K8sDiag *d, const Case *c)
{
	return d->severity == c->severity && strstr(d->message, c->message) != NULL &&
	       g_strcmp0(d->path, c->path) == 0;
}

static gboolean
run_case(const Case *c, const char *yaml)
{
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autofree char *text = g_strconcat(class_doc, "---\n", yaml, NULL);
	gboolean found = FALSE;

	k8s_load_data("case.yaml", text, strlen(text), K8S_LOAD_DEFAULT, set, diags);
	k8s_lint_set(set, diags);
	for (guint i = 0; i < k8s_diag_list_count(diags) && !found; i++) {
		const K8sDiag *d = k8s_diag_list_get(diags, i);
		if (matches(d, c)) {
			found = TRUE;
			if (d->pos.line == 0 || d->pos.file == NULL) {
				print_message("# case \"%s\": no position\n", c->name);
				return FALSE;
			}
		}
	}
	if (!found) {
		print_message("# case \"%s\": expected [%s] %s\n", c->name, c->path, c->message);
		print_diags_with(diags, "#     got: ");
		return FALSE;
	}
	return TRUE;
}

static void
test_rules(void **state)
{
	guint failed = 0;

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		failed += !run_case(&cases[i], cases[i].yaml);
	}
	if (failed > 0) {
		fail_msg("%u of %u rule cases failed", failed, (guint)G_N_ELEMENTS(cases));
	}
}

/* Lists over their limit: generated, since they are long. */
static char *
repeat(const char *head, const char *item_fmt, guint n, const char *tail)
{
	GString *s = g_string_new(head);

	for (guint i = 0; i < n; i++) {
		g_string_append_printf(s, item_fmt, i, i);
	}
	g_string_append(s, tail);
	return g_string_free(s, FALSE);
}

static void
test_limits(void **state)
{
	static const char class_head[] =
	        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: x\nspec:\n";
	const struct {
		const char *name, *head, *item;
		guint n;
		const char *tail, *message, *path;
	} limits[] = {
		{ "selectors",
		  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n"
		  "  name: x\nspec:\n  selectors:\n",
		  "  - cel: {expression: 'true'} # %u %u\n", 33, "",
		  "Too many: 33: must have at most 32 items", "spec.selectors" },
		{ "class config",
		  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n"
		  "  name: x\nspec:\n  config:\n",
		  "  - opaque: {driver: a.b, parameters: {a: %u}} # %u\n", 33, "",
		  "Too many: 33: must have at most 32 items", "spec.config" },
		{ "requests", CLAIM_HEAD "    requests:\n",
		  "    - name: r%u\n      exactly: {deviceClassName: gpu.example.com} # %u\n", 33,
		  "", "Too many: 33: must have at most 32 items", "spec.devices.requests" },
		{ "firstAvailable",
		  CLAIM_HEAD "    requests:\n    - name: gpu\n      firstAvailable:\n",
		  "      - {name: s%u, deviceClassName: gpu.example.com} # %u\n", 9, "",
		  "Too many: 9: must have at most 8 items",
		  "spec.devices.requests[0].firstAvailable" },
		{ "constraints", CLAIM_HEAD REQ_GPU "    constraints:\n",
		  "    - matchAttribute: a.b/c%u # %u\n", 33, "",
		  "Too many: 33: must have at most 32 items", "spec.devices.constraints" },
		{ "claim config", CLAIM_HEAD REQ_GPU "    config:\n",
		  "    - opaque: {driver: a.b, parameters: {a: %u}} # %u\n", 33, "",
		  "Too many: 33: must have at most 32 items", "spec.devices.config" },
		{ "tolerations", CLAIM_HEAD REQ_GPU "        tolerations:\n",
		  "        - {key: k%u, operator: Exists} # %u\n", 17, "",
		  "Too many: 17: must have at most 16 items",
		  "spec.devices.requests[0].exactly.tolerations" },
		{ "devices", SLICE_HEAD "  allNodes: true\n  devices:\n", "  - name: d%u # %u\n",
		  129, "", "Too many: 129: must have at most 128 items", "spec.devices" },
		{ "devices with taints", SLICE_HEAD "  allNodes: true\n  devices:\n",
		  "  - {name: d%u, taints: [{key: k, effect: NoSchedule}]} # %u\n", 65, "",
		  "Too many: 65: must have at most 64 items", "spec.devices" },
		{ "attributes and capacities",
		  SLICE_HEAD "  allNodes: true\n  devices:\n  - name: g\n"
		             "    attributes:\n",
		  "      a%u: {int: %u}\n", 33, "",
		  "Invalid value: 33: the total number of attributes and capacities must not "
		  "exceed 32",
		  "spec.devices[0]" },
		{ "shared counters", SLICE_HEAD "  allNodes: true\n  sharedCounters:\n",
		  "  - {name: s%u, counters: {c: {value: %u}}}\n", 33, "",
		  "Too many: 33: must have at most 32 items", "spec.sharedCounters" },
		{ "taints", SLICE_HEAD "  allNodes: true\n  devices:\n  - name: g\n    taints:\n",
		  "    - {key: k%u, effect: NoSchedule} # %u\n", 5, "",
		  "Too many: 5: must have at most 4 items", "spec.devices[0].taints" },
	};

	guint failed = 0;

	(void)class_head;
	for (guint i = 0; i < G_N_ELEMENTS(limits); i++) {
		g_autofree char *yaml =
		        repeat(limits[i].head, limits[i].item, limits[i].n, limits[i].tail);
		Case c = { limits[i].name, yaml, limits[i].message, limits[i].path,
			   K8S_SEVERITY_ERROR };
		failed += !run_case(&c, yaml);
	}
	if (failed > 0) {
		fail_msg("%u limit cases failed", failed);
	}
}

static void
test_long_values(void **state)
{
	g_autofree char *expr = g_strnfill(10 * 1024 + 1, 'a');
	g_autofree char *big = g_strnfill(11 * 1024, 'b');
	g_autofree char *y1 = g_strdup_printf("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
	                                      "metadata:\n  name: x\nspec:\n  selectors:\n"
	                                      "  - cel:\n      expression: %s\n",
	                                      expr);
	g_autofree char *y2 = g_strdup_printf("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
	                                      "metadata:\n  name: x\nspec:\n  config:\n"
	                                      "  - opaque:\n      driver: a.b\n      parameters:\n"
	                                      "        blob: %s\n",
	                                      big);
	Case c1 = { "CEL 10 KiB", y1, "Too long: may not be more than 10240 bytes",
		    "spec.selectors[0].cel.expression", K8S_SEVERITY_ERROR };
	Case c2 = { "parameters 10 KiB", y2, "Too long: may not be more than 10240 bytes",
		    "spec.config[0].opaque.parameters", K8S_SEVERITY_ERROR };

	assert_true(run_case(&c1, y1));
	assert_true(run_case(&c2, y2));
}

/* A consistent set of every kind: not one diagnostic. */
static const char valid_set[] =
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu.example.com\n"
        "spec:\n  selectors:\n  - cel:\n      expression: device.driver == 'gpu.example.com'\n"
        "  config:\n  - opaque:\n      driver: gpu.example.com\n      parameters:\n"
        "        kind: GpuConfig\n        sharing: {strategy: TimeSlicing}\n"
        "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: pair\n"
        "  namespace: team\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
        "        deviceClassName: gpu.example.com\n        count: 2\n        tolerations:\n"
        "        - {key: example.com/maintenance, operator: Exists, effect: NoSchedule}\n"
        "    - name: nic\n      firstAvailable:\n      - name: fast\n"
        "        deviceClassName: gpu.example.com\n      - name: slow\n"
        "        deviceClassName: gpu.example.com\n        allocationMode: All\n"
        "    constraints:\n    - requests: [gpu, nic/fast]\n"
        "      matchAttribute: gpu.example.com/pcieRoot\n"
        "    config:\n    - requests: [gpu]\n      opaque:\n        driver: gpu.example.com\n"
        "        parameters: {a: 1}\n"
        "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n"
        "  name: one-gpu\n  namespace: team\nspec:\n  spec:\n    devices:\n      requests:\n"
        "      - name: gpu\n        exactly:\n          deviceClassName: gpu.example.com\n"
        "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: node-1-gpu\n"
        "spec:\n  driver: gpu.example.com\n  nodeName: node-1\n  pool:\n    name: node-1\n"
        "    generation: 1\n    resourceSliceCount: 1\n  devices:\n  - name: gpu-0\n"
        "    attributes:\n      productName: {string: NVIDIA H100 80GB HBM3}\n"
        "      driverVersion: {version: 550.54.15}\n      index: {int: 0}\n"
        "      gpu.example.com/pcieRoot: {string: pci0000:00}\n"
        "    capacity:\n      memory: {value: 80Gi}\n"
        "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: train\n  namespace: team\nspec:\n"
        "  resourceClaims:\n  - name: gpus\n    resourceClaimName: pair\n  - name: one\n"
        "    resourceClaimTemplateName: one-gpu\n  containers:\n  - name: main\n    image: x\n"
        "    resources:\n      requests: {cpu: 500m, memory: 1Gi}\n      limits: {cpu: 1}\n"
        "      claims:\n      - name: gpus\n        request: gpu\n      - name: one\n"
        "  tolerations:\n  - {key: a, operator: Exists, effect: NoExecute, tolerationSeconds: 5}\n"
        "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: serve\n  namespace: team\n"
        "spec:\n  replicas: 2\n  selector:\n    matchLabels: {app: serve}\n  template:\n"
        "    metadata:\n      labels: {app: serve, tier: gpu}\n    spec:\n"
        "      resourceClaims:\n      - name: gpu\n        resourceClaimTemplateName: one-gpu\n"
        "      containers:\n      - name: main\n        image: x\n        resources:\n"
        "          claims:\n          - name: gpu\n"
        "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: once\n  namespace: team\n"
        "spec:\n  parallelism: 2\n  completions: 4\n  template:\n    spec:\n"
        "      restartPolicy: Never\n      containers:\n      - name: main\n        image: x\n"
        "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\n"
        "  labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}\nspec:\n  taints:\n"
        "  - {key: nvidia.com/gpu, effect: NoSchedule}\nstatus:\n  capacity: {nvidia.com/gpu: 8}\n";

static void
test_valid_set_is_clean(void **state)
{
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();

	k8s_load_data("valid.yaml", valid_set, strlen(valid_set), K8S_LOAD_DEFAULT, set, diags);
	k8s_lint_set(set, diags);
	if (k8s_diag_list_count(diags) != 0) {
		print_diags_with(diags, "#     got: ");
		fail_msg("valid manifests produced %u diagnostics", k8s_diag_list_count(diags));
	}
	assert_int_equal(k8s_object_set_count(set), 8);
}

typedef struct {
	guint n;
	GString *paths;
} CelSeen;

static void
collect_cel(const K8sCelSite *site, gpointer user_data)
{
	CelSeen *seen = user_data;

	seen->n++;
	g_string_append_printf(seen->paths, "%s@%u;", site->path,
	                       site->selector->expression_pos.line);
}

static void
test_cel_walk(void **state)
{
	static const char yaml[] =
	        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: a\nspec:\n"
	        "  selectors:\n  - cel:\n      expression: 'true'\n"
	        "---\napiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata:\n"
	        "  name: c\nspec:\n  devices:\n    requests:\n    - name: r\n"
	        "      deviceClassName: a\n      selectors:\n      - cel:\n"
	        "          expression: device.driver == 'x'\n";
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	CelSeen seen = { 0, g_string_new(NULL) };

	k8s_load_data("cel.yaml", yaml, strlen(yaml), K8S_LOAD_DEFAULT, set, diags);
	k8s_foreach_cel_expression(set, collect_cel, &seen);
	assert_int_equal(seen.n, 2);
	assert_string_equal(seen.paths->str,
	                    "spec.selectors[0].cel.expression@8;"
	                    "spec.devices.requests[0].selectors[0].cel.expression@21;");
	g_string_free(seen.paths, TRUE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),       cmocka_unit_test(test_limits),
		cmocka_unit_test(test_long_values), cmocka_unit_test(test_valid_set_is_clean),
		cmocka_unit_test(test_cel_walk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
