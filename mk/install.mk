# install.mk - `make install` (DESTDIR, prefix), the man pages, `make dist`
# and `make deb`.
#
# install: the binary, a man page per command generated from its --help
# (mk/man.sh), bash and zsh completion (completion/), the JSON Schema and
# the pre-commit hook under $(prefix)/share/gpusite/.
#
# dist: $(O)/dist/gpusite-$(VERSION).tar.gz, the files git tracks at HEAD
# (git archive: fixed order, owner root, modes by tar.umask 0022, every
# time the commit's; .commit filled in with its hash) through gzip -n (no
# name, no time), and SHA256SUMS; two runs give the same bytes (t6901).
#
# deb: dpkg-buildpackage on that tarball unpacked under $(O)/deb/, so the
# tree is never written to; the .deb, .buildinfo and .changes land in
# $(O)/deb/, then lintian checks the package (debian/ says why each
# choice).  The work tree's uncommitted changes are packaged too
# (DEB_FROM=worktree, the default): `git ls-files` of the tree, not HEAD.
prefix     ?= /usr/local
bindir     ?= $(prefix)/bin
mandir     ?= $(prefix)/share/man
datadir    ?= $(prefix)/share
INSTALL    ?= install
# The pages' date: the release's SOURCE_DATE_EPOCH (dpkg-buildpackage sets
# it from debian/changelog), else the last commit's, else a fixed one.
MAN_EPOCH   = $(or $(SOURCE_DATE_EPOCH),$(shell git log -1 --format=%ct 2>/dev/null),0)
MAN_DATE    = $(shell date -u -d @$(MAN_EPOCH) +%Y-%m-%d)
# The commit --version names (mk/commit.sh), when one is known.
GIT_COMMIT := $(shell sh mk/commit.sh)
ifneq ($(GIT_COMMIT),)
ALL_CFLAGS += -DGPUSITE_COMMIT='"$(GIT_COMMIT)"'
$(O)/src/main.o: $(O)/gen/commit
endif
$(O)/gen/commit: FORCE
	@mkdir -p $(@D)
	@echo '$(GIT_COMMIT)' | cmp -s - $@ || echo '$(GIT_COMMIT)' >$@

.PHONY: install man dist deb image FORCE
FORCE:

man: $(BIN) mk/man.sh
	@rm -rf $(O)/man
	sh mk/man.sh $(BIN) $(O)/man $(VERSION) $(MAN_DATE)

install: $(BIN) man
	$(INSTALL) -d $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1 \
		$(DESTDIR)$(datadir)/gpusite/hooks \
		$(DESTDIR)$(datadir)/bash-completion/completions \
		$(DESTDIR)$(datadir)/zsh/vendor-completions
	$(INSTALL) -m 0755 $(BIN) $(DESTDIR)$(bindir)/gpusite
	$(INSTALL) -m 0644 $(O)/man/*.1 $(DESTDIR)$(mandir)/man1/
	$(INSTALL) -m 0644 schemas/gpusite.v1alpha1.schema.json $(DESTDIR)$(datadir)/gpusite/
	$(INSTALL) -m 0755 hooks/pre-commit $(DESTDIR)$(datadir)/gpusite/hooks/pre-commit
	$(INSTALL) -m 0644 .pre-commit-hooks.yaml $(DESTDIR)$(datadir)/gpusite/pre-commit-hooks.yaml
	$(INSTALL) -m 0644 completion/gpusite.bash \
		$(DESTDIR)$(datadir)/bash-completion/completions/gpusite
	$(INSTALL) -m 0644 completion/_gpusite $(DESTDIR)$(datadir)/zsh/vendor-completions/_gpusite

DIST_NAME := gpusite-$(VERSION)
DIST_TGZ  := $(O)/dist/$(DIST_NAME).tar.gz

dist:
	@mkdir -p $(O)/dist
	@git diff --quiet HEAD -- || echo "dist: uncommitted changes are not in the tarball (it holds HEAD)" >&2
	git -c tar.umask=0022 archive --format=tar --prefix=$(DIST_NAME)/ HEAD | gzip -n -9 >$(DIST_TGZ).tmp
	mv $(DIST_TGZ).tmp $(DIST_TGZ)
	cd $(O)/dist && sha256sum $(DIST_NAME).tar.gz >SHA256SUMS
	@cat $(O)/dist/SHA256SUMS

DEB_DIR := $(O)/deb
deb:
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/$(DIST_NAME)
	git ls-files -z --cached --others --exclude-standard | \
		xargs -0 sh -c 'for f; do [ -e "$$f" ] && printf "%s\0" "$$f"; done' sh | \
		tar --null -T - -cf - | tar -xf - -C $(DEB_DIR)/$(DIST_NAME)
	echo '$(GIT_COMMIT)' >$(DEB_DIR)/$(DIST_NAME)/.commit
	cd $(DEB_DIR)/$(DIST_NAME) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u O \
		dpkg-buildpackage -b -us -uc -j2 >../build.log 2>&1 || \
		{ tail -40 ../build.log; exit 1; }
	lintian --fail-on warning,error --info --display-info $(DEB_DIR)/*.changes | \
		tee $(DEB_DIR)/lintian.log
	@ls $(DEB_DIR)/*.deb

# image: the Argo CD plugin sidecar image, an OCI layout in $(O)/image/oci
# (mk/image.sh), from the package `make deb` builds (or IMAGE_DEB).  Push
# it with: skopeo copy oci:$(O)/image/oci:$(VERSION) docker://REGISTRY/gpusite-cmp:$(VERSION)
IMAGE_DEB ?=
IMAGE_CACHE ?= $(O)/e2e-cache
image: $(if $(IMAGE_DEB),,deb)
	sh mk/image.sh $(or $(IMAGE_DEB),$$(ls $(DEB_DIR)/gpusite_$(VERSION)_*.deb)) \
		$(O)/image $(IMAGE_CACHE) $(VERSION)
