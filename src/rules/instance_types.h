/*
 * instance_types.h - facts about EC2 GPU instance types and GPU models
 * that the rules (GS040-GS045) and the renderer share.
 *
 * instance_types[] is generated from Karpenter's instance-type table and
 * the on-demand prices Karpenter ships by mk/gen-instance-types.sh
 * (src/rules/instance_types.c, committed); the GPU-model table
 * (gpu_models.c) is kept by hand.
 */
#ifndef GS_INSTANCE_TYPES_H
#define GS_INSTANCE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct instance_type {
	const char *name;   /* "g6e.12xlarge" */
	const char *family; /* "g6e" */
	const char *arch;   /* "amd64" | "arm64" */
	int vcpus;
	int64_t memory_mib;
	const char *gpu_manufacturer; /* "nvidia" | "amd" (instance-gpu-manufacturer) */
	const char *gpu_name;         /* "l40s" (instance-gpu-name) */
	int gpu_count;                /* instance-gpu-count; 0 on fractional g6f/gr6f */
	int64_t gpu_memory_mib;       /* instance-gpu-memory: MiB PER GPU */
	int nvidia_gpus;              /* allocatable nvidia.com/gpu; 0 when absent */
	int efa;                      /* vpc.amazonaws.com/efa */
	bool auto_mode;               /* EKS Auto Mode offers the type */
	double usd_per_hour;          /* on-demand list price in instance_price_region
				       * on instance_price_date; 0 when unknown */
	int64_t local_nvme_gib;       /* instance-local-nvme: the instance-store NVMe
				 * disks added up; 0 without instance store */
};

/* Where the prices of instance_types[] come from: "us-east-1", the day
 * they were read from the AWS Price List ("2026-07-06") and the file
 * that ships them (Karpenter's generated price table).  Linux on-demand
 * list prices: no Spot, Savings Plans, reservations or tax; elsewhere
 * than that region only an estimate. */
extern const char instance_price_region[];
extern const char instance_price_date[];
extern const char instance_price_source[];

extern const struct instance_type instance_types[];
extern const size_t instance_types_count;

/* The type called `name` (exact, case-sensitive), or NULL. */
const struct instance_type *instance_type_find(const char *name);

/* The one architecture ("amd64", "arm64") the known types among
 * names[0..n) share; NULL when they have none known or more than one. */
const char *instance_types_arch(const char *const *names, size_t n);

/* True when n > 0 and every one of names[0..n) is a known type with
 * local NVMe instance storage. */
bool instance_types_all_local_nvme(const char *const *names, size_t n);

/* Whether an EC2NodeClass for these types uses instanceStorePolicy RAID0:
 * `policy` ("RAID0" | "none") when given, else every type has local NVMe. */
bool instance_types_raid0(const char *policy, const char *const *names, size_t n);

/* True when the type has whole NVIDIA GPUs (what a GPU NodePool can use). */
bool instance_type_whole_nvidia(const struct instance_type *t);

/* Whether a pool of `gpu_limit` GPUs can launch the type: whole NVIDIA
 * GPUs, no more of them a node than the limit, and at least `min_mem` MiB
 * a GPU (0: any). */
bool instance_type_serves(const struct instance_type *t, int64_t gpu_limit, int64_t min_mem);

/* The quota group AWS counts the type's vCPUs in: 0 for the "G and VT"
 * families, 1 for the P families (enum spec_quota_group), -1 for others. */
int instance_type_quota_group(const struct instance_type *t);

/* Of the listed types that serve (instance_type_serves), the one whose
 * nodes within gpu_limit have the fewest vCPUs, with those vCPUs in
 * *vcpus: the least a fallback at its limit can count against a quota.
 * NULL (and *vcpus 0) when none serves. */
const struct instance_type *instance_types_fewest_vcpus(int64_t *vcpus, const char *const *names,
							size_t n, int64_t gpu_limit,
							int64_t min_mem);

/* The known type closest to `name` by edit distance (for "did you
 * mean"), or NULL when nothing is close. */
const char *instance_type_suggest(const char *name);
/* The same among the types `accept` (NULL: all) takes. */
const char *instance_type_suggest_if(const char *name,
				     bool (*accept)(const struct instance_type *t,
						    const void *payload),
				     const void *payload);

/* Memory per GPU in MiB of an on-prem GPU model, written in the
 * instance-gpu-name vocabulary ("h200"); 0 when the model is unknown. */
int64_t gpu_model_memory_mib(const char *model);

#endif
