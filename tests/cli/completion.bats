#!/usr/bin/env bats
# ballcast completion bash|zsh|fish: scripts written from the option tables,
# run by the shells themselves.

load helpers

setup() {
	common_setup
	"$BALLCAST" completion bash >ballcast.bash
}

# complete WORDS... : what bash's completion offers for the last word of
# the command line "WORDS..." (the last one may be empty), one a line,
# sorted. Runs the generated script in a fresh bash, as the shell would.
complete_line() {
	bash -c '
		source ./ballcast.bash
		COMP_WORDS=("$@")
		COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_ballcast ballcast "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"
	' complete "$@" | sed '/^$/d' | sort
}

@test "completion bash: a command from its prefix" {
	[ "$(complete_line ballcast ca)" = "cast" ]
	[ "$(complete_line ballcast si)" = "simulate" ]
	[ "$(complete_line ballcast co | tr '\n' ' ')" = "compare completion " ]
	[ "$(complete_line ballcast help gr)" = "grade" ]
}

@test "completion bash: a command's options from their prefix, and only that command's" {
	[ "$(complete_line ballcast cast --nor)" = "--normal" ]
	[ "$(complete_line ballcast cast --in | tr '\n' ' ')" = "--initial-overlap --input-format " ]
	[ "$(complete_line ballcast render --u)" = "--up" ]
	# render takes cast's --normal and grade's --normal-tol; intersect neither
	[ "$(complete_line ballcast render --nor | tr '\n' ' ')" = "--normal --normal-tol " ]
	[ "$(complete_line ballcast intersect --nor)" = "" ]
	[ "$(complete_line ballcast grade --nor | tr '\n' ' ')" = "--normal --normal-tol " ]
	[ "$(complete_line ballcast compare -)" != "" ]
	complete_line ballcast compare - | grep -qx -- '--report'
	complete_line ballcast compare - | grep -qx -- '-m'
	# -r is --radius wherever it is (issue 22): compare's --report has no letter
	if complete_line ballcast compare - | grep -qx -- '-r'; then return 1; fi
}

@test "completion bash: the values of an option" {
	[ "$(complete_line ballcast cast --normal '' | tr '\n' ' ')" = "average contact triangle " ]
	[ "$(complete_line ballcast cast -f '' | tr '\n' ' ')" = "csv json jsonl ndjson " ]
	[ "$(complete_line ballcast cast --format n)" = "ndjson" ]
	[ "$(complete_line ballcast cast -i '' | tr '\n' ' ')" = "auto csv json jsonl ndjson " ]
	[ "$(complete_line ballcast grade --convention '')" = "cs121" ]
	[ "$(complete_line ballcast render --up '' | tr '\n' ' ')" = "x y z " ]
	[ "$(complete_line ballcast compare --report '' | tr '\n' ' ')" = "csv gradescope html json junit text " ]
	[ "$(complete_line ballcast grade --report '' | tr '\n' ' ')" = "csv gradescope html json junit text " ]
	# --normal=tri: bash splits the word at '='
	[ "$(complete_line ballcast cast --normal = tri)" = "triangle" ]
	# a number to type: nothing offered
	[ -z "$(complete_line ballcast cast --radius '')" ]
	[ "$(complete_line ballcast completion '' | tr '\n' ' ')" = "bash fish zsh " ]
}

@test "completion bash: file names for operands and for -o" {
	mkdir meshes
	touch meshes/room.obj meshes/rock.obj throws.json
	[ "$(complete_line ballcast cast meshes/ro | tr '\n' ' ')" = "meshes/rock.obj meshes/room.obj " ]
	[ "$(complete_line ballcast cast meshes/room.obj thr)" = "throws.json" ]
	[ "$(complete_line ballcast cast -o thr)" = "throws.json" ]
}

@test "completion: every value offered is one the command accepts, every option one it parses" {
	# for each command, each option of the bash script: 'ballcast CMD --opt
	# VALUE --help' stops at --help (status 0) only when VALUE was accepted
	for cmd in $("$BALLCAST" --help | awk '/^commands:/ { on = 1; next } on && NF == 0 { on = 0 } on { print $1 }'); do
		for opt in $(complete_line ballcast "$cmd" -- | grep -- '^--'); do
			values=$(complete_line ballcast "$cmd" "$opt" '')
			for v in $values; do
				"$BALLCAST" "$cmd" "$opt" "$v" --help >/dev/null 2>err.txt || {
					echo "ballcast $cmd $opt $v: $(cat err.txt)"
					return 1
				}
			done
		done
		# the options offered are the ones --help lists
		complete_line ballcast "$cmd" -- | grep -- '^--' >offered.txt
		# (the options a line of --help starts with, before its description)
		"$BALLCAST" "$cmd" --help | grep -E '^ +(-[a-z], )?--[a-z]' | sed -e 's/^ *//' -e 's/  .*//' |
			grep -oE -- '--[a-z][a-z-]+' | sort -u >listed.txt
		diff -u listed.txt offered.txt
	done
}

@test "completion: every word an option's refusal names is offered, in the three shells (issue 26: --report lacked junit and gradescope)" {
	"$BALLCAST" completion zsh >_ballcast
	"$BALLCAST" completion fish >ballcast.fish
	local cmd opt words w offered
	for cmd in $("$BALLCAST" --help | awk '/^commands:/ { on = 1; next } on && NF == 0 { on = 0 } on { print $1 }'); do
		for opt in $(complete_line ballcast "$cmd" -- | grep -- '^--'); do
			# the parser's own message for a word it does not take: "--report is
			# text, json, csv, html, junit or gradescope, not 'frob'"
			"$BALLCAST" "$cmd" "$opt" frob --help >/dev/null 2>err.txt && continue
			case "$(head -n 1 err.txt)" in
			*" is "*", not 'frob'" | *" knows only "*", not 'frob'") ;;
			*) continue ;;
			esac
			words=$(head -n 1 err.txt | sed -e "s/.*$opt \(is\|knows only\) //" -e "s/, not 'frob'\$//" -e 's/,/ /g' -e 's/ or / /g')
			offered=" $(complete_line ballcast "$cmd" "$opt" '' | tr '\n' ' ')"
			for w in $words; do
				case "$offered" in *" $w "*) ;; *) echo "bash: ballcast $cmd $opt: '$w' not offered ($offered)"; return 1 ;; esac
				grep -F -- "$opt=" _ballcast | grep -qw -- "$w" || { echo "zsh: ballcast $cmd $opt: '$w'"; return 1; }
				grep "__fish_seen_subcommand_from $cmd' .*-l ${opt#--} -x -a '" ballcast.fish | grep -q "[' ]$w[' ]" ||
					{ echo "fish: ballcast $cmd $opt: '$w'"; return 1; }
			done
		done
	done
}

@test "completion: an unknown shell is a usage error; help completion" {
	bcast completion tcsh
	[ "$status" -eq 2 ]
	assert_contains "$err" "bash, zsh or fish"
	bcast help completion
	[ "$status" -eq 0 ]
	assert_contains "$out" "usage: ballcast completion bash|zsh|fish"
}

@test "completion zsh and fish: the scripts parse and name every command" {
	"$BALLCAST" completion zsh >_ballcast
	"$BALLCAST" completion fish >ballcast.fish
	for cmd in cast render compare grade balls closest intersect simulate completion; do
		grep -q "'$cmd:" _ballcast
		grep -q -- "-a $cmd -d" ballcast.fish
	done
	grep -q "'(-f --format)'{-f+,--format=}':format:(json ndjson jsonl csv)'" _ballcast
	grep -q "__fish_seen_subcommand_from cast' -l normal -x -a 'contact triangle average'" ballcast.fish
	if command -v zsh >/dev/null; then zsh -n _ballcast; fi
	if command -v fish >/dev/null; then fish -n ballcast.fish; fi
}

@test "completion fish: fish's own completion of a few command lines" {
	command -v fish >/dev/null || skip "fish is not installed (scripts/install-deps test installs it)"
	"$BALLCAST" completion fish >ballcast.fish
	fish_complete() {
		fish -c "source ./ballcast.fish; complete -C '$1'" | cut -f1 | sort | tr '\n' ' '
	}
	[ "$(fish_complete 'ballcast ca')" = "cast " ]
	[ "$(fish_complete 'ballcast cast --nor')" = "--normal " ]
	[ "$(fish_complete 'ballcast cast --normal ')" = "average contact triangle " ]
	[ "$(fish_complete 'ballcast cast -f ')" = "csv json jsonl ndjson " ]
	[ "$(fish_complete 'ballcast grade --report ')" = "csv gradescope html json junit text " ]
	[ "$(fish_complete 'ballcast completion ')" = "bash fish zsh " ]
}

@test "make install puts the three scripts where the shells look (DESTDIR, PREFIX)" {
	make -s -C "$REPO" install DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/opt/bc >/dev/null
	share="$BATS_TEST_TMPDIR/root/opt/bc/share"
	"$BALLCAST" completion bash | cmp - "$share/bash-completion/completions/ballcast"
	"$BALLCAST" completion zsh | cmp - "$share/zsh/site-functions/_ballcast"
	"$BALLCAST" completion fish | cmp - "$share/fish/vendor_completions.d/ballcast.fish"
	make -s -C "$REPO" uninstall DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/opt/bc
	[ ! -e "$share/bash-completion/completions/ballcast" ]
	[ ! -e "$share/fish/vendor_completions.d/ballcast.fish" ]
}

# zsh_complete LINE: what an interactive zsh (compinit, the script in its
# fpath) shows after LINE and a Tab, escape sequences removed
zsh_complete() {
	cat >complete.zsh <<'ZSH'
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PS1='> '; fpath=($PWD/fn \$fpath); autoload -Uz compinit; compinit -u -D; ballcast() { :; }"
sleep 1
zpty -w -n z "$1"$'\t'
sleep 1
all=""
while zpty -r -t z out; do all+=$out; done
print -r -- "$all"
zpty -d z
ZSH
	timeout 20 zsh -f complete.zsh "$1" | sed -e 's/\x1b\[[0-9;?]*[a-zA-Z]//g' | tr '\r' '\n' | tail -3
}

@test "completion zsh: an interactive zsh completes commands, options and values" {
	command -v zsh >/dev/null || skip "zsh is not installed (scripts/install-deps test installs it)"
	mkdir fn
	"$BALLCAST" completion zsh >fn/_ballcast
	zsh_complete 'ballcast cast --normal ' >normal.txt
	grep -qE 'average +contact +triangle' normal.txt || { cat normal.txt; return 1; }
	zsh_complete 'ballcast cast -f ' >format.txt
	grep -qE 'csv +json +jsonl +ndjson' format.txt || { cat format.txt; return 1; }
	zsh_complete 'ballcast grade --report ' >report.txt
	grep -qE 'csv +gradescope +html +json +junit +text' report.txt || { cat report.txt; return 1; }
	zsh_complete 'ballcast simu' >command.txt
	grep -q 'ballcast simulate' command.txt || { cat command.txt; return 1; }
}
