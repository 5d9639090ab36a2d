#!/bin/sh
# t1145-markdown-escape: every user string gpusite writes into Markdown
# (a branch or revision in diff --base's and hydrate's headings, an object
# name in a table, a free string such as a chart version on the fleet
# page) goes through the one Markdown escaper: rendered as GitHub would
# (markdown-it with GFM's autolinks), it is text - no HTML comment or
# </details> that swallows or closes the rest of the comment, no link,
# image, emphasis, strikethrough or cell - and reads back as what was
# written.  Bidi controls are dropped from the Markdown and the HTML page;
# report --drift-json refuses a severity gpusite drift never writes.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/git.sh"
cd "$SCRATCH" || exit 1

export MARKDOWN_IT="$TEST_TOP/.tools/node_modules/markdown-it"
if command -v node >/dev/null && test -d "$MARKDOWN_IT"; then
	test_set_prereq MARKDOWN_IT
else
	echo "# markdown-it missing (run make deps): the rendering checks are skipped"
fi

# render FILE: FILE as HTML, as GitHub would render the comment
render() {
	node "$TEST_TOP/tests/e2e/markdown_render.js" "$1"
}

# read_back HTML TAG TEXT: the first TAG element of HTML is TEXT as text
# (no element inside it), and the page has no link, comment, image,
# emphasis or strikethrough, and as many </details> as <details>
read_back() {
	python3 - "$@" <<-\PY
	import html, re, sys
	page = open(sys.argv[1]).read()
	el = re.search(r"<%s>(.*?)</%s>" % (sys.argv[2], sys.argv[2]), page, re.S).group(1)
	assert "<" not in el, el
	# a zero-width space after each @ keeps it from being an address
	assert html.unescape(el).replace("\u200b", "") == sys.argv[3], (el, sys.argv[3])
	for bad in ("<a ", "<!--", "<del>", "<s>", "<em>", "<img", "<script"):
	    assert bad not in page, (bad, page)
	assert page.count("<details>") == page.count("</details>"), page
	PY
}

F="$GIT_FIXTURES"
git init -q work && (
	cd work &&
	mkdir sites &&
	cp "$F/sites/frankfurt-lab.yaml" sites/ &&
	git_commit one
) >/dev/null

# what Git allows in a branch name of the syntax Markdown and HTML know
BRANCH='h<!--x/</details>/_b_|d|`e`!&www.h.com@i.com#j'
cat >branch.md <<\END
&lt;\!--x/&lt;/details&gt;/\_b\_\|d\|\`e\`\!&amp;www&#46;h.com@&#8203;i.com\#j
END

test_expect_success 'hydrate --dry-run --format markdown: the branch in the heading is escaped' '
	(cd work && "$GPUSITE" hydrate --branch "$BRANCH" --dry-run --format markdown >../md.out) &&
	head -n 1 md.out >head &&
	! grep -F "<!--" head && ! grep -F "</details>" head &&
	grep -F -f branch.md head
'

test_expect_success MARKDOWN_IT 'rendered, the heading reads back as the branch' '
	render md.out >md.html &&
	read_back md.html h3 "gpusite hydrate: what the commit on $BRANCH would change"
'

test_expect_success 'diff --base: a revision with markup stays inside its code span' '
	(cd work && git branch -q "$BRANCH" &&
		"$GPUSITE" diff --base "$BRANCH" --format markdown >../diff.md) &&
	printf "### gpusite diff: \`\` %s \`\` " "$BRANCH" >want &&
	head -c "$(wc -c <want)" diff.md >got &&
	test_cmp want got
'

test_expect_success MARKDOWN_IT 'rendered, the revision reads back from its code span' '
	render diff.md >diff.html &&
	read_back diff.html code "$BRANCH"
'

# a chart version is a free string the fleet page shows; \u202e and
# \u2066 are bidi controls (YAML escapes)
EVIL='0.20.0<!--x</details>*a*_b_~~c~~|d|`e`[f](http://g.com)![i](j)www.h.com@i.com#k\u202e!\u2066'
EVIL_SHOWN='0.20.0<!--x</details>*a*_b_~~c~~|d|`e`[f](http://g.com)![i](j)www.h.com@i.com#k!'
cat >evil.md <<\END
0.20.0&lt;\!--x&lt;/details&gt;\*a\*\_b\_\~\~c\~\~\|d\|\`e\`\[f\](http&#58;&#47;/g.com)\!\[i\](j)www&#46;h.com@&#8203;i.com\#k\!
END

test_expect_success 'the fleet page: every Markdown syntax escaped, bidi controls dropped' '
	mkdir evil &&
	python3 - "$EVIL" "$TEST_TOP/testdata/fleet/sites/seoul-dc1.yaml" evil/s.yaml <<-\PY &&
	import sys
	text = open(sys.argv[2]).read()
	assert "version: 0.20.0" in text
	open(sys.argv[3], "w").write(text.replace("version: 0.20.0", "version: \"%s\"" % sys.argv[1], 1))
	PY
	{ "$GPUSITE" report --format html -o page.html evil 2>/dev/null || test $? -eq 1; } &&
	{ "$GPUSITE" report --format markdown -o page.md evil 2>/dev/null || test $? -eq 1; } &&
	for f in page.html page.md
	do
		grep -q "0.20.0" $f &&
		! grep -q "$(printf "\342\200\256")" $f &&
		! grep -q "$(printf "\342\201\246")" $f || return 1
	done &&
	grep -F -f evil.md page.md
'

test_expect_success MARKDOWN_IT 'rendered, the fleet page Markdown reads back the version as text' '
	render page.md >page.md.html &&
	python3 - "$EVIL_SHOWN" <<-\PY
	import html, re, sys
	page = open("page.md.html").read()
	cells = [html.unescape(c).replace("\u200b", "") for c in re.findall(r"<td>([^<]*)</td>", page)]
	assert any(sys.argv[1] in c for c in cells), (sys.argv[1], cells)
	for bad in ("<a ", "<!--", "<del>", "<s>", "<em>", "<img", "<details"):
	    assert bad not in page, (bad, page)
	PY
'

test_expect_success 'report --drift-json with an unknown severity: exit 3, one line' '
	printf "{\"diagnostics\":[{\"severity\":\"fatal\",\"rule\":\"GS201\",\"message\":\"x\"}]}" >drift.json &&
	expect_exit 3 "$GPUSITE" report --format markdown -o page2.md --drift-json drift.json "$TEST_TOP/testdata/fleet/sites" 2>err &&
	test "$(wc -l <err)" = 1 &&
	grep -x "gpusite report: cannot read the drift findings drift.json: diagnostic 1 has an unknown severity (gpusite drift writes error, warning or note)" err &&
	test ! -e page2.md
'

test_done
