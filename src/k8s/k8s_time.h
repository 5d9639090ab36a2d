/*
 * k8s_time.h - a point in time as Kubernetes writes it: metav1.Time in
 * every object (creationTimestamp, lastTransitionTime, timeAdded) and
 * ExecCredential's expirationTimestamp, all RFC 3339 as Go's
 * time.RFC3339 reads it:
 *   YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)
 * "t" and "z" in either case, and the space RFC 3339 allows for "T".
 * The fraction needs a digit and is dropped (seconds are what every
 * reader here compares).  Nothing may follow the zone.
 */
#ifndef GS_K8S_TIME_H
#define GS_K8S_TIME_H

#include <stdint.h>

/* *out = seconds since the epoch (UTC); 0, or -1 for anything else */
int k8s_time_parse(int64_t *out, const char *text);

#endif
