/*
 * gpu_models.c - memory per GPU of on-prem GPU models, for GS043.
 *
 * Names use the instance-gpu-name vocabulary (lower-kebab of the EC2
 * GpuInfo name) and values the MiB per GPU that Karpenter reports for the
 * same GPU on EC2 (the upstream table gpu-instance-types.csv,
 * docs/design/upstream.md, "Karpenter"): "141 GB H200" is 144384 MiB, "24 GB L4" is
 * 22888.  Where one name covers two memory sizes (A100 40/80 GB, V100
 * 16/32 GB) the smaller is listed, so GS043 never warns on a guess; the
 * -40gb/-80gb spellings say which one is meant.  Unknown models get 0 and
 * GS043 says nothing about them.  tests/unit/test_rules.c checks these
 * against the instance-type table.
 */
#include <string.h>

#include "rules/instance_types.h"

static const struct {
	const char *model;
	int64_t mib;
} gpu_models[] = {
	{ "a100", 40960 },      { "a100-40gb", 40960 },    { "a100-80gb", 81920 },
	{ "a10g", 22888 },      { "b200", 183359 },        { "b300", 275040 },
	{ "h100", 81920 },      { "h200", 144384 },        { "l4", 22888 },
	{ "l40s", 45776 },      { "rtx-pro-4500", 32768 }, { "rtx-pro-server-6000", 98304 },
	{ "t4", 16384 },        { "t4g", 16384 },          { "v100", 16384 },
	{ "v100-32gb", 32768 },
};

int64_t
gpu_model_memory_mib(const char *model)
{
	size_t i;

	if (!model)
		return 0;
	for (i = 0; i < sizeof(gpu_models) / sizeof(gpu_models[0]); i++)
		if (!strcmp(gpu_models[i].model, model))
			return gpu_models[i].mib;
	return 0;
}
