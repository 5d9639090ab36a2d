# crd.sh - checking manifests against Argo CD's and Kubernetes' schemas (source
# after lib.sh): YAML to JSON, a CRD's schema, and the validator.
CRD_VALIDATE="$TEST_TOP/tests/tools/crd-validate.js"

# Both read YAML with libyaml's safe loader where PyYAML has it (the pure
# Python one takes seconds over a CRD of Argo CD's).

# yaml2json IN OUT: every document of IN as one JSON list.
yaml2json() {
	python3 -c 'import json,sys,yaml
L = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
json.dump([d for d in yaml.load_all(open(sys.argv[1]), Loader=L) if d is not None], open(sys.argv[2], "w"))' "$1" "$2"
}

# crd_schema CRD OUT: the openAPIV3Schema of the CRD's served version.
crd_schema() {
	python3 -c 'import json,sys,yaml
crd = yaml.load(open(sys.argv[1]), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
v = [v for v in crd["spec"]["versions"] if v.get("served")][0]
json.dump(v["schema"]["openAPIV3Schema"], open(sys.argv[2], "w"))' "$1" "$2"
}
