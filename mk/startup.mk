# startup.mk - what a command that needs neither a cluster nor Git loads
# at start: libyaml, cJSON, PCRE2 and libc.  Both heavy libraries are loaded on
# first use instead (README, Performance):
# - libcurl (and its ~30 dependencies) by src/kube/kube_curl.c, whose
#   definitions satisfy every libcurl call; linking with --as-needed drops
#   it from the binary's needs.
# - libgit2 (and its SSH, TLS, HTTP and PCRE libraries) by
#   src/source/source_git2.c, which loads the soname of the headers the
#   build used; libgit2 is left off the link line (DLOPEN_PKGS) and kept
#   in PKGS for its headers.
# tests/e2e/t6500-startup.sh checks the binary needs neither at start, and
# t6501 that a command reading Git without libgit2 fails clearly.
LDFLAGS += -Wl,--as-needed
DLOPEN_PKGS := libgit2
