#!/bin/sh
# t4006-plugin-name.sh - the plugin's one name.  Argo CD 4.0's cmp-server
# does not start when plugin.yaml sets spec.version (its 3.6 to 4.0
# upgrade notes); the version is part of metadata.name instead, which is
# the name Applications already used under 3.x (<name>-<version>).  Every
# `plugin: {name: ...}` of plugin/ (hydrated/ and fleet/ too), examples/
# and the README's YAML, and the socket the README names, say that name;
# the test cmp-server refuses a plugin.yaml with spec.version as 4.0 does.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

if ! python3 -c "import yaml" 2>/dev/null; then
	test_skip "the plugin's name" "python3-yaml not found"
	test_done
	exit
fi

test_expect_success 'plugin.yaml: no spec.version, the version in metadata.name' '
	python3 - "$TEST_TOP/plugin/plugin.yaml" <<-\EOF
	import re, sys, yaml
	p = yaml.safe_load(open(sys.argv[1]))
	assert "version" not in p["spec"], "spec.version: Argo CD 4.0 refuses to start"
	assert re.fullmatch(r"gpusite-v[0-9]+\.[0-9]+", p["metadata"]["name"]), p["metadata"]
	EOF
'

test_expect_success 'every plugin name in plugin/, examples/ and the README is metadata.name' '
	python3 - "$TEST_TOP" <<-\EOF >names &&
	import os, re, sys, yaml
	top = sys.argv[1]
	want = yaml.safe_load(open(top + "/plugin/plugin.yaml"))["metadata"]["name"]
	seen = []
	def walk(n, where):
	    if isinstance(n, dict):
	        for k, v in n.items():
	            # an Application source names a plugin (the ApplicationSet
	            # plugin generator has configMapRef, no name)
	            if k == "plugin" and isinstance(v, dict) and "name" in v:
	                seen.append(where)
	                assert v["name"] == want, "%s: plugin name %r, not %r" % (where, v["name"], want)
	            walk(v, where)
	    elif isinstance(n, list):
	        for v in n:
	            walk(v, where)
	files = []
	for d in ("plugin", "examples"):
	    for root, _, names in os.walk(os.path.join(top, d)):
	        files += [os.path.join(root, f) for f in names if f.endswith((".yaml", ".yml"))]
	for f in sorted(files):
	    for doc in yaml.safe_load_all(open(f)):
	        walk(doc, os.path.relpath(f, top))
	readme = open(top + "/README.md").read()
	for i, block in enumerate(re.findall(r"```yaml\n(.*?)```", readme, re.S)):
	    for doc in yaml.safe_load_all(block):
	        walk(doc, "README.md yaml block %d" % i)
	for m in re.finditer(r"plugin\.name[:=] *([A-Za-z0-9.-]+)", readme):
	    seen.append("README.md text")
	    assert m.group(1) == want, m.group(0)
	socks = re.findall(r"cmp-server/plugins/([A-Za-z0-9.-]+)\.sock", readme)
	assert socks and all(s == want for s in socks), socks
	assert "spec.version" not in readme, "the README speaks of spec.version"
	for w in sorted(set(seen)):
	    print(w)
	EOF
	grep -x "plugin/applicationset.yaml" names &&
	grep -x "plugin/fleet/applicationset-spokes.yaml" names &&
	grep -x "README.md yaml block [0-9]*" names
'

test_expect_success 'the test cmp-server refuses spec.version as Argo CD 4.0 does' '
	python3 -c "import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))
p[\"metadata\"][\"name\"] = \"gpusite\"
p[\"spec\"][\"version\"] = \"v0.1\"
yaml.safe_dump(p, open(\"old-plugin.yaml\", \"w\"))" "$TEST_TOP/plugin/plugin.yaml" &&
	test_must_fail python3 "$TEST_TOP/tests/tools/cmp-server.py" run \
		--plugin old-plugin.yaml --repo "$TEST_TOP/testdata/cmp/fleet" \
		--app "$TEST_TOP/testdata/cmp/apps/busan.yaml" --gpusite "$GPUSITE" \
		--out old 2>old.err &&
	grep "spec.version, which Argo CD 4.0 no longer supports" old.err &&
	python3 "$TEST_TOP/tests/tools/cmp-server.py" run \
		--plugin "$TEST_TOP/plugin/plugin.yaml" --repo "$TEST_TOP/testdata/cmp/fleet" \
		--app "$TEST_TOP/testdata/cmp/apps/busan.yaml" --gpusite "$GPUSITE" --out new &&
	test "$(cat new/rc)" = 0
'

test_done
