# bash completion for gpusite.  The commands and each command's options
# are read from `gpusite --help` and `gpusite COMMAND --help` when asked,
# so they always match the installed binary.
_gpusite() {
	local cur prev cmd i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$(gpusite --help 2>/dev/null |
			awk '/^commands:$/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
			--help --version" -- "$cur"))
		return
	fi
	case $prev in
	--format)
		COMPREPLY=($(compgen -W "text json github sarif junit markdown yaml html" -- "$cur"))
		return ;;
	--color)
		COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
		return ;;
	-o | --output | --out | --upstream | --kubeconfig | --record | --repo | --nodeconfigs | --values)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(gpusite "$cmd" --help 2>/dev/null |
			grep -oE '^ +(-[a-zA-Z], )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+$')" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _gpusite gpusite
