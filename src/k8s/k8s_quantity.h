/*
 * k8s_quantity.h - resource quantities as the API server parses them
 * (k8s.io/apimachinery pkg/api/resource ParseQuantity):
 *   quantity  ::= [+-] number suffix
 *   number    ::= digits | digits "." | digits "." digits | "." digits
 *   suffix    ::= "" | binarySI | decimalSI | ("e" | "E") [+-] digits
 *   binarySI  ::= Ki | Mi | Gi | Ti | Pi | Ei
 *   decimalSI ::= n | u | m | k | M | G | T | P | E
 * "100m", "1Gi", "1e3", "2k", "1.5", ".5Mi", "+4"; not "1 Gi", "1gi",
 * "0x10", "inf", "1e", "1e3k", "1.5.2".
 */
#ifndef GS_K8S_QUANTITY_H
#define GS_K8S_QUANTITY_H

#include <stddef.h>

/* The value of quantity text s[0..len) as a double: 0 with *out set, or
 * -1 when it is not a quantity (*out untouched).  A double keeps 53 bits:
 * enough to compare quantities and count GPUs, not to print them back. */
int k8s_quantity_parse(const char *s, size_t len, double *out);

#endif
