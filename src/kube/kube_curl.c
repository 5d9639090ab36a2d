/*
 * kube_curl.c - libcurl, loaded when a command first talks to a cluster.
 *
 * libcurl and the 30 libraries it depends on (TLS, Kerberos, LDAP, SSH,
 * HTTP/2, IDN, compression) took 4 ms of dynamic loading and relocation at
 * every start, half of what a one-site `gpusite generate` costs, for the
 * commands that never open a connection.  The binary therefore does not
 * link libcurl (mk/startup.mk links with --as-needed, and these
 * definitions satisfy every libcurl call of kube/): each function below
 * loads libcurl.so.4 on first use and calls the real one.  Only the
 * functions kube/ calls are here; tests/e2e/t6500-startup.sh fails when
 * the binary needs libcurl at start again.
 */
#define CURL_DISABLE_TYPECHECK 1 /* real prototypes, not the checking macros */

#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <curl/curl.h>

#include "kube/kube_int.h"

/* The sonames of libcurl 7.16 and later (OpenSSL, then GnuTLS builds). */
static const char *const curl_sonames[] = { "libcurl.so.4", "libcurl-gnutls.so.4" };

static void *curl_lib;
static const char *curl_error;

/* A libcurl function, loading libcurl on first use; NULL (and a reason
 * for kube_curl_error()) when it cannot be had. */
static void (*curl_sym(const char *name))(void)
{
	void (*fn)(void) = NULL;
	void *p;

	if (!curl_lib && !curl_error) {
		for (size_t i = 0; i < sizeof(curl_sonames) / sizeof(curl_sonames[0]) && !curl_lib;
		     i++)
			curl_lib = dlopen(curl_sonames[i], RTLD_NOW | RTLD_LOCAL);
		if (!curl_lib)
			curl_error = "libcurl.so.4 cannot be loaded: install libcurl"
				     " (Debian: libcurl4) to talk to a cluster";
	}
	if (!curl_lib)
		return NULL;
	p = dlsym(curl_lib, name);
	if (!p) {
		curl_error = "the libcurl found lacks a function gpusite calls;"
			     " install libcurl 7.73 or later";
		return NULL;
	}
	/* POSIX: dlsym's object pointer holds the function's address */
	memcpy(&fn, &p, sizeof(fn));
	return fn;
}

/* Function pointer types convert into each other with a cast. */
#define CURL_FN(type, name) ((type)curl_sym(name))

const char *
kube_curl_error(void)
{
	return curl_error ? curl_error : "libcurl failed";
}

CURLcode
curl_global_init(long flags)
{
	CURLcode (*fn)(long) = CURL_FN(CURLcode(*)(long), "curl_global_init");

	return fn ? fn(flags) : CURLE_FAILED_INIT;
}

CURL *
curl_easy_init(void)
{
	CURL *(*fn)(void) = CURL_FN(CURL * (*)(void), "curl_easy_init");

	return fn ? fn() : NULL;
}

/*
 * The argument's type follows from the option number, as in libcurl's
 * own Curl_vsetopt(): long, object or function pointer, curl_off_t, blob.
 */
CURLcode
curl_easy_setopt(CURL *curl, CURLoption option, ...)
{
	CURLcode (*fn)(CURL *, CURLoption, ...) =
		CURL_FN(CURLcode(*)(CURL *, CURLoption, ...), "curl_easy_setopt");
	CURLcode rc;
	va_list ap;

	if (!fn)
		return CURLE_FAILED_INIT;
	va_start(ap, option);
	if (option < CURLOPTTYPE_OBJECTPOINT)
		rc = fn(curl, option, va_arg(ap, long));
	else if (option < CURLOPTTYPE_FUNCTIONPOINT)
		rc = fn(curl, option, va_arg(ap, void *));
	else if (option < CURLOPTTYPE_OFF_T)
		rc = fn(curl, option, va_arg(ap, void (*)(void)));
	else if (option < CURLOPTTYPE_BLOB)
		rc = fn(curl, option, va_arg(ap, curl_off_t));
	else
		rc = fn(curl, option, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

/* Every CURLINFO_* takes a pointer to where the answer goes. */
CURLcode
curl_easy_getinfo(CURL *curl, CURLINFO info, ...)
{
	CURLcode (*fn)(CURL *, CURLINFO, ...) =
		CURL_FN(CURLcode(*)(CURL *, CURLINFO, ...), "curl_easy_getinfo");
	CURLcode rc;
	va_list ap;

	if (!fn)
		return CURLE_FAILED_INIT;
	va_start(ap, info);
	rc = fn(curl, info, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

CURLcode
curl_easy_perform(CURL *curl)
{
	CURLcode (*fn)(CURL *) = CURL_FN(CURLcode(*)(CURL *), "curl_easy_perform");

	return fn ? fn(curl) : CURLE_FAILED_INIT;
}

void
curl_easy_reset(CURL *curl)
{
	void (*fn)(CURL *) = CURL_FN(void (*)(CURL *), "curl_easy_reset");

	if (fn)
		fn(curl);
}

void
curl_easy_cleanup(CURL *curl)
{
	void (*fn)(CURL *);

	if (!curl)
		return;
	fn = CURL_FN(void (*)(CURL *), "curl_easy_cleanup");
	if (fn)
		fn(curl);
}

const char *
curl_easy_strerror(CURLcode code)
{
	const char *(*fn)(CURLcode) = CURL_FN(const char *(*)(CURLcode), "curl_easy_strerror");

	return fn ? fn(code) : kube_curl_error();
}

struct curl_slist *
curl_slist_append(struct curl_slist *list, const char *s)
{
	struct curl_slist *(*fn)(struct curl_slist *, const char *) = CURL_FN(
		struct curl_slist * (*)(struct curl_slist *, const char *), "curl_slist_append");

	return fn ? fn(list, s) : NULL;
}

void
curl_slist_free_all(struct curl_slist *list)
{
	void (*fn)(struct curl_slist *);

	if (!list)
		return;
	fn = CURL_FN(void (*)(struct curl_slist *), "curl_slist_free_all");
	if (fn)
		fn(list);
}

curl_version_info_data *
curl_version_info(CURLversion stamp)
{
	static curl_version_info_data none = { .version = "(not found: libcurl.so.4)" };
	curl_version_info_data *(*fn)(CURLversion) =
		CURL_FN(curl_version_info_data * (*)(CURLversion), "curl_version_info");

	return fn ? fn(stamp) : &none;
}
