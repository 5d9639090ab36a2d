/*
 * instance_lookup.c - lookups over the generated instance-type table.
 */
#include <stdlib.h>
#include <string.h>

#include "base/strdist.h"
#include "rules/instance_types.h"

/* The table's rows by name, sorted on the first lookup: the rules look
 * up each pool's instance types, for every site of a fleet. */
#define BY_NAME_MAX 1024
static const struct instance_type *by_name[BY_NAME_MAX];
static size_t by_name_count;

static int
by_name_cmp(const void *x, const void *y)
{
	const struct instance_type *const *a = x, *const *b = y;

	return strcmp((*a)->name, (*b)->name);
}

static int
name_cmp(const void *key, const void *row)
{
	const struct instance_type *const *r = row;

	return strcmp(key, (*r)->name);
}

const struct instance_type *
instance_type_find(const char *name)
{
	const struct instance_type *const *hit;
	size_t i;

	if (!name)
		return NULL;
	if (instance_types_count > BY_NAME_MAX) {
		for (i = 0; i < instance_types_count; i++)
			if (!strcmp(instance_types[i].name, name))
				return &instance_types[i];
		return NULL;
	}
	if (!by_name_count) {
		for (i = 0; i < instance_types_count; i++)
			by_name[i] = &instance_types[i];
		qsort(by_name, instance_types_count, sizeof(by_name[0]), by_name_cmp);
		by_name_count = instance_types_count;
	}
	hit = bsearch(name, by_name, by_name_count, sizeof(by_name[0]), name_cmp);
	return hit ? *hit : NULL;
}

bool
instance_type_whole_nvidia(const struct instance_type *t)
{
	return t && !strcmp(t->gpu_manufacturer, "nvidia") && t->gpu_count > 0 &&
	       t->nvidia_gpus > 0;
}

/* Levenshtein distance; names are short: one over 32 bytes is never
 * close ((size_t)-1). */
static size_t
edit_distance(const char *a, const char *b)
{
	if (strlen(a) > 32 || strlen(b) > 32)
		return (size_t)-1;
	return strdist_edit(a, b, (size_t)-2);
}

/* "g6e" and "12xlarge" of "g6e.12xlarge" (lengths of both parts). */
static void
split_name(const char *name, size_t *family, const char **size)
{
	const char *dot = strchr(name, '.');

	*family = dot ? (size_t)(dot - name) : strlen(name);
	*size = dot ? dot + 1 : "";
}

/* A typo is at most two edits away and keeps either the family or the
 * size: m5.large is not a misspelt g5.xlarge. */
const char *
instance_type_suggest(const char *name)
{
	return instance_type_suggest_if(name, NULL, NULL);
}

const char *
instance_type_suggest_if(const char *name,
			 bool (*accept)(const struct instance_type *t, const void *payload),
			 const void *payload)
{
	const char *best = NULL, *size;
	size_t best_d = 3, i, fam;

	if (!name)
		return NULL;
	split_name(name, &fam, &size);
	for (i = 0; i < instance_types_count; i++) {
		const char *tsize;
		size_t tfam, d;

		split_name(instance_types[i].name, &tfam, &tsize);
		if (!(tfam == fam && !strncmp(name, instance_types[i].name, fam)) &&
		    strcmp(size, tsize))
			continue;
		if (accept && !accept(&instance_types[i], payload))
			continue;
		d = edit_distance(name, instance_types[i].name);
		if (d < best_d) {
			best_d = d;
			best = instance_types[i].name;
		}
	}
	return best;
}

const char *
instance_types_arch(const char *const *names, size_t n)
{
	const char *arch = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct instance_type *t = instance_type_find(names[i]);

		if (!t)
			continue;
		if (arch && strcmp(arch, t->arch))
			return NULL;
		arch = t->arch;
	}
	return arch;
}

bool
instance_types_all_local_nvme(const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct instance_type *t = instance_type_find(names[i]);

		if (!t || t->local_nvme_gib <= 0)
			return false;
	}
	return n > 0;
}

bool
instance_types_raid0(const char *policy, const char *const *names, size_t n)
{
	if (policy)
		return !strcmp(policy, "RAID0");
	return instance_types_all_local_nvme(names, n);
}

bool
instance_type_serves(const struct instance_type *t, int64_t gpu_limit, int64_t min_mem)
{
	return t && instance_type_whole_nvidia(t) && t->nvidia_gpus <= gpu_limit &&
	       (!min_mem || t->gpu_memory_mib >= min_mem);
}

int
instance_type_quota_group(const struct instance_type *t)
{
	if (!t || !t->family)
		return -1;
	if (t->family[0] == 'g' || !strncmp(t->family, "vt", 2))
		return 0;
	return t->family[0] == 'p' ? 1 : -1;
}

const struct instance_type *
instance_types_fewest_vcpus(int64_t *vcpus, const char *const *names, size_t n, int64_t gpu_limit,
			    int64_t min_mem)
{
	const struct instance_type *best = NULL;

	*vcpus = 0;
	for (size_t i = 0; i < n; i++) {
		const struct instance_type *t = instance_type_find(names[i]);
		int64_t v;

		if (!instance_type_serves(t, gpu_limit, min_mem))
			continue;
		v = gpu_limit / t->nvidia_gpus * t->vcpus;
		if (!best || v < *vcpus) {
			best = t;
			*vcpus = v;
		}
	}
	return best;
}
