# startup.mk - link with --as-needed.  libcurl is loaded on first use by
# src/kube/kube_curl.c, whose definitions satisfy every libcurl call, so
# libcurl (and its ~30 dependencies) is no longer loaded at every start:
# 4 ms of a one-site `gpusite generate` (README, Performance).
# tests/e2e/t6500-startup.sh checks the binary does not need libcurl.
LDFLAGS += -Wl,--as-needed
