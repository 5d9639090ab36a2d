# crd.sh - checking manifests against Argo CD's and Kubernetes' schemas (source
# after lib.sh): YAML to JSON, a CRD's schema, and the validator.
CRD_VALIDATE="$TEST_TOP/tests/tools/crd-validate.js"

# yaml2json IN OUT: every document of IN as one JSON list.
yaml2json() {
	python3 -c 'import json,sys,yaml
json.dump([d for d in yaml.safe_load_all(open(sys.argv[1])) if d is not None], open(sys.argv[2], "w"))' "$1" "$2"
}

# crd_schema CRD OUT: the openAPIV3Schema of the CRD's served version.
crd_schema() {
	python3 -c 'import json,sys,yaml
crd = yaml.safe_load(open(sys.argv[1]))
v = [v for v in crd["spec"]["versions"] if v.get("served")][0]
json.dump(v["schema"]["openAPIV3Schema"], open(sys.argv[2], "w"))' "$1" "$2"
}
