#include <curl/curl.h>

#include "kube/kube.h"

const char *
kube_library_version(void)
{
	return curl_version_info(CURLVERSION_NOW)->version;
}
