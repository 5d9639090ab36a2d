#!/bin/sh
# embed.sh NAME FILE: write a C file defining `const char NAME[]` (the
# bytes of FILE as signed values, so any byte fits a char; NUL-terminated)
# and `const size_t NAME_len`.
set -eu
name=$1 file=$2
printf '/* generated from %s by mk/embed.sh; do not edit */\n' "$file"
printf '#include <stddef.h>\n'
printf 'extern const char %s[];\nextern const size_t %s_len;\n' "$name" "$name"
printf 'const char %s[] = {\n' "$name"
od -An -v -td1 "$file" | awk '{ for (i = 1; i <= NF; i++) printf "%s,", $i; printf "\n" }'
printf '0 };\nconst size_t %s_len = sizeof(%s) - 1;\n' "$name" "$name"
