/*
 * inventory_labels.h - every label key and value gpusite writes on the
 * objects and nodes it owns, spelled once (docs/design/inventory.md).
 * mk/lint/labels-once.sh reads the names from here and fails on a second
 * spelling anywhere in src/; a name that is upstream's too (a chart's,
 * Kubernetes' own) says "upstream's name" on its line and is left alone.
 * Kubernetes' and EKS's own labels are facts of src/k8s/, not ours.
 */
#ifndef GS_INVENTORY_LABELS_H
#define GS_INVENTORY_LABELS_H

/* Every object gpusite renders: app.kubernetes.io/managed-by=gpusite. */
#define INV_MANAGED_BY_KEY "app.kubernetes.io/managed-by" /* Kubernetes' (upstream's name) */
#define INV_MANAGED_BY "gpusite"
/* The site an object or node belongs to (metadata.name of the GPUSite). */
#define INV_SITE_LABEL "gpusite.io/site"
/* A per-cluster object: the cluster it belongs to (spec.cluster.name). */
#define INV_CLUSTER_LABEL "gpusite.io/cluster"
/* A hybrid node: the nodeGroup it joined as (nodeadm NodeConfig). */
#define INV_GROUP_LABEL "gpusite.io/node-group"
/* A fallback node with fallback.nodeImage: al2023 | bottlerocket. */
#define INV_NODE_IMAGE_LABEL "gpusite.io/node-image"
/* A fallback node: node-type=cloud-gpu-fallback. */
#define INV_NODE_TYPE_LABEL "node-type"
#define INV_NODE_TYPE_FALLBACK "cloud-gpu-fallback"
/* A hybrid node: node-type=hybrid-gpu, gpu.model=<nodeGroup's model>. */
#define INV_NODE_TYPE_HYBRID "hybrid-gpu"
#define INV_GPU_MODEL_LABEL "gpu.model"
/* Every pool's nodes: gpusite.io/pool=<role> (fallback | burst). */
#define INV_POOL_LABEL "gpusite.io/pool"
#define INV_POOL_FALLBACK "fallback"
#define INV_POOL_BURST "burst"
/* The effect of every taint gpusite puts on a pool's nodes. */
#define INV_POOL_TAINT_EFFECT "NoSchedule" /* Kubernetes' (upstream's name) */
/* A node of an exclusive pool (fallback.exclusive, burst.exclusive, the
 * default): the taint <INV_SITE_LABEL>=<site>:NoSchedule, tolerated only
 * by the site's scoped Pods and what gpusite renders for its nodes
 * (docs/design/inventory.md).  Its key is the site label's. */
#define INV_SITE_TAINT_KEY INV_SITE_LABEL
/* A burst node: node-type=cloud-gpu-burst, and the taint that keeps every
 * Pod but those of the burst scope off it. */
#define INV_NODE_TYPE_BURST "cloud-gpu-burst"
#define INV_BURST_TAINT_KEY "gpusite.io/burst"
#define INV_BURST_TAINT_VALUE "true"
#define INV_BURST_TAINT_EFFECT INV_POOL_TAINT_EFFECT
/* The name of a burst pool: <site>-gpu-burst. */
#define INV_BURST_POOL_SUFFIX "-gpu-burst"
/* The suffix of a fallback pool's default name: <site>-gpu-fallback. */
#define INV_POOL_NAME_SUFFIX "-gpu-fallback"
/* The default name of the EC2NodeClass (Karpenter) and of Auto Mode's
 * built-in NodeClass. */
#define INV_NODE_CLASS_DEFAULT "gpu-fallback"
#define INV_NODE_CLASS_AUTO_MODE "default"

/* Names of the site's own objects: gpusite-nodeconfig-<site>,
 * gpusite-<site>-placement, gpusite-<site> (alert rule and its group). */
#define INV_NODECONFIG_MAP_PREFIX "gpusite-nodeconfig-"
#define INV_OBJECT_PREFIX "gpusite-"
#define INV_PLACEMENT_SUFFIX "-placement"
/* Where a site's NodeConfig ConfigMap lives. */
#define INV_NODECONFIG_NAMESPACE "kube-system" /* Kubernetes' (upstream's name) */
/* Helm releases (and Application suffixes) of the GPU stack and of the
 * fallback device plugin: <cluster>-<release>. */
#define INV_RELEASE_DEVICE_PLUGIN "nvidia-device-plugin" /* NVIDIA's chart (upstream's name) */
#define INV_RELEASE_GPU_OPERATOR "gpu-operator"          /* NVIDIA's chart (upstream's name) */
#define INV_RELEASE_FALLBACK_PLUGIN "nvidia-device-plugin-fallback"

#endif
