#!/bin/sh
# t6904-completion.sh - the shell completions of completion/, without a
# package: zsh (loaded in `zsh -f` with compinit, driven through a pty with
# zsh/zpty, a tab typed after "gpusite ") offers every command of
# `gpusite --help`, and a command's options; bash offers every command too.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

mkdir bin && ln -s "$GPUSITE" bin/gpusite || exit 1
"$GPUSITE" --help | awk '/^commands:$/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }' |
	sort >cmds
"$GPUSITE" validate --help | grep -oE -- '^ +(-[a-zA-Z], )?--[a-z0-9-]+' |
	grep -oE -- '--[a-z0-9-]+$' | sort -u >validate-opts

# drive.zsh COMPDIR OUT LINE: type LINE and a tab into an interactive
# `zsh -f` with compinit and the completion of COMPDIR; every match the
# completion system adds goes to OUT, one a line.
cat >drive.zsh <<'ZSH'
zmodload zsh/zpty || exit 3
compdir=$1 out=$2 line=$3
: >$out
zpty z env PATH="$PWD/bin:$PATH" TERM=dumb zsh -f -i
zpty -w z "PS1= PS2= RPS1=; fpath=(${(q)compdir} \$fpath)"
zpty -w z "autoload -Uz compinit && compinit -u -D"
zpty -w z "compadd() { if (( \${@[(I)-[OAD]]} )); then builtin compadd \"\$@\"; return; fi; local -a hits; builtin compadd -A hits \"\$@\"; (( \$#hits )) && print -rl -- \$hits >>${(q)out}; builtin compadd \"\$@\"; }"
zpty -w z "print ready >${(q)out}.ready"
for i in {1..100}; do [[ -s $out.ready ]] && break; sleep 0.1; done
[[ -s $out.ready ]] || exit 4
zpty -w -n z "$line"$'\t'
for i in {1..100}; do [[ -s $out ]] && break; sleep 0.1; done
sleep 0.3
zpty -d z
[[ -s $out ]]
ZSH

test_expect_success 'the commands and validate options are known' '
	test "$(wc -l <cmds)" -ge 10 &&
	grep -x hydrate cmds &&
	grep -x -- --staged validate-opts
'

if command -v zsh >/dev/null 2>&1; then
	test_expect_success 'zsh: the completion file parses (zsh -n)' '
		zsh -n "$TEST_TOP/completion/_gpusite"
	'

	test_expect_success 'zsh: a tab after "gpusite " offers every command and --help' '
		zsh -f drive.zsh "$TEST_TOP/completion" zcmds "gpusite " &&
		sort -u zcmds >zcmds.sorted &&
		grep -x -- --help zcmds.sorted &&
		grep -x -- --version zcmds.sorted &&
		grep -v "^--" zcmds.sorted >zcmds.only &&
		test_cmp cmds zcmds.only
	'

	test_expect_success 'zsh: a tab after "gpusite validate --" offers its options' '
		zsh -f drive.zsh "$TEST_TOP/completion" zopts "gpusite validate --" &&
		sort -u zopts >zopts.sorted &&
		test_cmp validate-opts zopts.sorted
	'
else
	test_skip 'zsh completion' "zsh is not installed (make deps)"
fi

test_expect_success 'bash: gpusite <tab> offers every command, --help and --version' '
	PATH="$PWD/bin:$PATH" bash -c ". \"$TEST_TOP/completion/gpusite.bash\"
		COMP_WORDS=(gpusite \"\"); COMP_CWORD=1; _gpusite
		printf \"%s\n\" \"\${COMPREPLY[@]}\"" >bcmds &&
	sort bcmds >bcmds.sorted &&
	grep -x -- --help bcmds.sorted &&
	grep -x -- --version bcmds.sorted &&
	grep -v "^--" bcmds.sorted >bcmds.only &&
	test_cmp cmds bcmds.only
'

test_expect_success 'bash: gpusite validate --<tab> offers its options' '
	PATH="$PWD/bin:$PATH" bash -c ". \"$TEST_TOP/completion/gpusite.bash\"
		COMP_WORDS=(gpusite validate --); COMP_CWORD=2; _gpusite
		printf \"%s\n\" \"\${COMPREPLY[@]}\"" >bopts &&
	sort -u bopts >bopts.sorted &&
	test_cmp validate-opts bopts.sorted
'

test_done
