#!/bin/sh
# t2082-report-browser.sh - the fleet page in a real browser: Debian's
# chromium, headless, driven over the DevTools protocol on a pipe
# (tests/e2e/fleetpage_browser.py).  At a desktop and a phone width: no
# console error or exception, no request but the page itself, no page
# wider than the screen, one titled chart per site, and the figures shown
# equal to those of `explain --format json` (each priced cost with its unit
# price, and the line that says what made the page), for the example fleet
# and a generated one.  The screenshots are kept in $O/test-artifacts/fleetpage/.
# Skipped, visibly, where chromium is not installed (make deps installs it).
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

fleet="$TEST_TOP/testdata/fleet/sites"
rec="$TEST_TOP/testdata/live/drill-drain-met/record.json"
case ${O:-build} in
/*) art=${O:-build}/test-artifacts/fleetpage ;;
*) art=$TEST_TOP/${O:-build}/test-artifacts/fleetpage ;;
esac
chromium=$(command -v chromium || command -v chromium-browser || true)
if test -n "$chromium" && "$chromium" --headless=new --no-sandbox --disable-gpu \
	--dump-dom about:blank >/dev/null 2>&1; then
	test_set_prereq CHROMIUM
else
	echo "# chromium is not installed or cannot start headless: run make deps"
fi

test_expect_success CHROMIUM 'the example fleet: no error, no request, same figures' '
	"$GPUSITE" report --format html -o page.html --drill-record "$rec" "$fleet" &&
	"$GPUSITE" explain --format json "$fleet" >explain.json &&
	python3 "$TEST_TOP/tests/e2e/fleetpage_browser.py" "$chromium" page.html explain.json \
		"$art/example" &&
	test -s "$art/example/desktop.png" &&
	test -s "$art/example/phone.png"
'

test_expect_success CHROMIUM 'a generated fleet of 40 sites in 8 clusters, K 2' '
	sh "$TEST_TOP/bench/gen-fleet.sh" --per-cluster 5 40 gen >/dev/null &&
	"$GPUSITE" report --format html -o gen.html gen &&
	"$GPUSITE" explain --format json gen >gen.json &&
	python3 "$TEST_TOP/tests/e2e/fleetpage_browser.py" "$chromium" gen.html gen.json \
		"$art/generated"
'

test_expect_success CHROMIUM 'the check fails on a page that asks the network' '
	sed "s|</main>|<img src=\"http://127.0.0.1:9/x.png\" alt=\"\"></main>|" page.html >net.html &&
	! python3 "$TEST_TOP/tests/e2e/fleetpage_browser.py" "$chromium" net.html explain.json \
		"$SCRATCH/net" 2>err &&
	grep -q "a request for http://127.0.0.1:9/x.png" err
'

test_done
