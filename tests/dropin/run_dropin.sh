#!/bin/bash
# The drop-in check: installs softdoca into a temporary prefix, copies the
# programs of this directory (shaped like DOCA 3.x's RDMA samples) out of the
# tree and builds them against that prefix alone (pkg-config) three times:
# meson + ninja with CC, CMake with CC, and meson with clang. For each build
# and each transport (shared memory, TCP) it runs every pair and checks the
# bytes that arrived (or the sync-event exchange) and both exit codes; it
# checks -h and refused flags. The pairs connect out of band (descriptor
# files) and through RDMA-CM (-cm: the responder or receiver listens, the
# requester or sender connects to 127.0.0.1, or ::1 where the host has it;
# the memory or sync-event descriptor goes over the new connection): write,
# read, send/receive, sync event, write with immediate, and send with
# immediate over IPv6. The multi-connection pair makes 4 connections
# (RDMA-CM, the sender connecting and then the receiver) or 3 (files) and
# must see each connection's message once, on the right connection; and as
# DOCA runs its multi-connection samples with RDMA-CM, a receiver serves 3
# sender processes of one connection each. The DOCA 2.2 programs of v22/ build with meson through
# the prefix's pkgconfig/doca-2.2 and run as pairs, with each other and
# with 3.x ones.
# Then the stress case, on the meson build: rdma_receive (which stops its
# context in the completion callback and exits at once) against rdma_send
# kept busy for a few milliseconds after its submit, STRESS_RUNS times per
# transport, no failure allowed.
#
#   run_dropin.sh <softdoca build dir> <this directory>
#
# CC and SDOCA_PROGRAM_FLAGS (set by CMake) build the programs like the
# libraries: under a sanitizer build they must carry the same runtime, so
# the clang build is then compiled only (clang's sanitizer runtime is not
# the libraries' gcc one).
set -eu

build=$1
src=$2
LIMIT=${SDOCA_TEST_LIMIT:-90}               # seconds any one program of a pair may run
STRESS_RUNS=${SDOCA_DROPIN_STRESS_RUNS:-200} # stress runs per transport
STRESS_LIMIT=20                             # seconds one stress program may run
BUSY_MS=5                                   # rdma_send's busy time after its submit
JOBS=2

for tool in meson ninja clang; do
	command -v "$tool" >/dev/null 2>&1 ||
		{ echo "FAIL: $tool is not installed (./run.sh deps installs it)"; exit 1; }
done

work=$(mktemp -d /tmp/sdoca-dropin.XXXXXX)
bg_pid=
client_pids=()
# shellcheck disable=SC2317 # called from the trap
cleanup() {
	# A responder (or clients) left running when a step failed: ours, by
	# their pids (timeout passes the TERM on to the program).
	for pid in $bg_pid "${client_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# --- install, and only the prefix is visible to the builds -----------------
cmake --install "$build" --prefix "$work/prefix" >/dev/null
libdir=$(find "$work/prefix" -name libdoca_rdma.so -printf '%h\n' | head -n1)
[ -n "$libdir" ] || { echo "FAIL: libdoca_rdma.so not installed"; exit 1; }
export PKG_CONFIG_PATH="$libdir/pkgconfig"
unset CPATH C_INCLUDE_PATH LIBRARY_PATH
case $(pkg-config --cflags doca-rdma doca-argp) in
*"$work/prefix"* | *"$libdir/pkgconfig/"*) ;;
*) echo "FAIL: pkg-config does not point into the prefix"; exit 1 ;;
esac

# The programs as a user has them: a directory of their own.
mkdir "$work/src"
cp "$src"/*.c "$src"/*.h "$src/meson.build" "$src/CMakeLists.txt" "$work/src/"
cp -r "$src/v22" "$work/src/"

programs=(rdma_write_requester rdma_write_responder rdma_read_requester rdma_read_responder
	rdma_send rdma_receive rdma_send_immediate rdma_receive_immediate
	rdma_write_immediate_requester rdma_write_immediate_responder
	rdma_sync_event_requester rdma_sync_event_responder
	rdma_multi_conn_send rdma_multi_conn_receive)
MULTI_CM=4  # connections of the RDMA-CM multi-connection pair
MULTI_OOB=3 # and of the out-of-band one
CLIENTS=3   # sender processes of one connection against one receiver
flags="${SDOCA_PROGRAM_FLAGS:-}"
cc="${CC:-cc}"

# setup_build NAME CC FLAGS COMMAND... - configures build NAME with compiler
# CC and CFLAGS/LDFLAGS FLAGS; the output in $work/NAME-setup.log.
setup_build() {
	local name=$1 compiler=$2 build_flags=$3
	shift 3
	CC=$compiler CFLAGS=$build_flags LDFLAGS=$build_flags "$@" >"$work/$name-setup.log" 2>&1 ||
		{ cat "$work/$name-setup.log"; echo "FAIL: $name: configure"; exit 1; }
}

# compile NAME [TARGET...] - builds build NAME (its TARGETs only, if given).
compile() {
	local name=$1
	shift
	ninja -C "$work/$name" -j "$JOBS" "$@" >"$work/$name-build.log" 2>&1 ||
		{ cat "$work/$name-build.log"; echo "FAIL: $name: build"; exit 1; }
}

echo "== meson + ninja ($cc)"
setup_build meson "$cc" "$flags" meson setup "$work/meson" "$work/src"
compile meson
echo "== cmake ($cc)"
setup_build cmake "$cc" "$flags" cmake -S "$work/src" -B "$work/cmake" -G Ninja \
	-DCMAKE_BUILD_TYPE=Debug
compile cmake
builds=(meson cmake)
echo "== meson + ninja (clang)"
setup_build clang clang "" meson setup "$work/clang" "$work/src"
if [ -n "$flags" ]; then
	# Every object, not linked: see the header.
	mapfile -t objects < <(ninja -C "$work/clang" -t targets all | sed -n 's/\.o: .*/.o/p')
	compile clang "${objects[@]}"
	echo "clang: compiled only (sanitizer build)"
else
	compile clang
	builds+=(clang)
fi

# The gcc builds compiled and linked with the flags given (the sanitizers).
if [ -n "$flags" ]; then
	for dir in meson cmake; do
		for program in "${programs[@]}"; do
			ninja -C "$work/$dir" -t commands "doca_$program" | grep -qF -- "$flags" ||
				{ echo "FAIL: $dir: doca_$program built without $flags"; exit 1; }
		done
	done
fi

# The installed libraries, whatever run path a build system recorded.
export LD_LIBRARY_PATH="$libdir"
failed=0

# fail WHAT LOG... - reports a failed step with the logs that explain it.
fail() {
	echo "FAIL: $1"
	shift
	for log in "$@"; do
		echo "  --- $log"
		sed 's/^/  | /' "$log"
	done
	failed=1
}

# expect LOG TEXT - LOG holds TEXT (fixed string).
expect() {
	grep -qF -- "$2" "$1"
}

# run_pair LIMIT RESPONDER_LOG REQUESTER_LOG - runs resp_cmd in the
# background and req_cmd in the foreground, each killed after LIMIT
# seconds; fails unless both exit 0.
run_pair() {
	local req_rc=0 resp_rc=0
	timeout -s KILL "$1" "${resp_cmd[@]}" >"$2" 2>&1 &
	bg_pid=$!
	timeout -s KILL "$1" "${req_cmd[@]}" >"$3" 2>&1 || req_rc=$?
	wait "$bg_pid" || resp_rc=$?
	bg_pid=
	[ "$req_rc" -eq 0 ] && [ "$resp_rc" -eq 0 ] && return 0
	echo "requester exit $req_rc, responder exit $resp_rc" >>"$3"
	return 1
}

# check_pair NAME RESPONDER_TEXT REQUESTER_TEXT - runs the pair in $d and
# checks what each side printed.
check_pair() {
	local resp_log="$d/$1-responder.log" req_log="$d/$1-requester.log"
	if ! run_pair "$LIMIT" "$resp_log" "$req_log"; then
		fail "$run $1: a program failed" "$resp_log" "$req_log"
	elif ! expect "$resp_log" "$2" || ! expect "$req_log" "$3"; then
		fail "$run $1: not what was expected (\"$2\" / \"$3\")" "$resp_log" "$req_log"
	else
		echo "ok: $run $1"
	fi
}

# check_multi NAME COUNT TEXT [swapped] - runs the multi-connection pair in
# $d (resp_cmd the receiver, req_cmd the sender; swapped: the other way
# round): the receiver must print each of the sender's COUNT messages once,
# on the connection whose user data (its place in the order of connecting)
# is the index the sender put in the message, and no other message; and the
# COUNT messages must come on COUNT different connection ids.
check_multi() {
	local recv_log="$d/$1-receive.log" send_log="$d/$1-send.log" i seen
	local bg_log=$recv_log fg_log=$send_log
	if [ "${4:-}" = swapped ]; then
		bg_log=$send_log fg_log=$recv_log
	fi
	if ! run_pair "$LIMIT" "$bg_log" "$fg_log"; then
		fail "$run $1: a program failed" "$recv_log" "$send_log"
		return
	fi
	for ((i = 0; i < $2; i++)); do
		seen=$(grep -cF -- "(user data $i): \"$3 (sender connection $i)\"" "$recv_log" || true)
		if [ "$seen" -ne 1 ]; then
			fail "$run $1: connection $i's message seen $seen times" "$recv_log" "$send_log"
			return
		fi
	done
	seen=$(grep -c ": message on connection id " "$recv_log" || true)
	if [ "$seen" -ne "$2" ]; then
		fail "$run $1: $seen messages, $2 expected" "$recv_log" "$send_log"
		return
	fi
	# Each message on a connection of its own: COUNT different ids.
	seen=$(grep -o ": message on connection id [0-9]*" "$recv_log" | sort -u | wc -l)
	if [ "$seen" -ne "$2" ]; then
		fail "$run $1: $2 messages on $seen connection ids" "$recv_log" "$send_log"
		return
	fi
	echo "ok: $run $1"
}

# check_clients NAME COUNT TEXT - runs resp_cmd (a multi-connection receiver
# serving COUNT connections) in the background and COUNT clients req_cmd,
# client k sending "TEXT client k", at once. The receiver must print each
# client's message once, and each connection (user data 0 .. COUNT-1, in
# the order the requests came) must carry exactly one of them.
check_clients() {
	local resp_log="$d/$1-receive.log" logs=() k rc=0 seen
	timeout -s KILL "$LIMIT" "${resp_cmd[@]}" >"$resp_log" 2>&1 &
	bg_pid=$!
	client_pids=()
	for ((k = 0; k < $2; k++)); do
		logs+=("$d/$1-send-$k.log")
		timeout -s KILL "$LIMIT" "${req_cmd[@]}" -s "$3 client $k" >"${logs[k]}" 2>&1 &
		client_pids+=($!)
	done
	for ((k = 0; k < $2; k++)); do
		wait "${client_pids[k]}" || { echo "client exit $?" >>"${logs[k]}"; rc=1; }
	done
	client_pids=()
	wait "$bg_pid" || { echo "receiver exit $?" >>"$resp_log"; rc=1; }
	bg_pid=
	if [ "$rc" -ne 0 ]; then
		fail "$run $1: a program failed" "$resp_log" "${logs[@]}"
		return
	fi
	for ((k = 0; k < $2; k++)); do
		seen=$(grep -cF -- ": \"$3 client $k (sender connection 0)\"" "$resp_log" || true)
		[ "$seen" -eq 1 ] || { fail "$run $1: client $k's message seen $seen times" "$resp_log"; return; }
		seen=$(grep -cF -- "(user data $k): \"$3 client " "$resp_log" || true)
		[ "$seen" -eq 1 ] || { fail "$run $1: connection $k carried $seen messages" "$resp_log"; return; }
	done
	echo "ok: $run $1"
}

# next_port - sets $port to a TCP port nobody uses, for the next RDMA-CM
# pair: this run's own walk through 10000-29999, below the ephemeral ports,
# skipping any port /proc/net lists.
port=$((10000 + $$ % 20000))
next_port() {
	while :; do
		port=$((port + 1))
		[ "$port" -lt 30000 ] || port=10000
		grep -qF "$(printf ':%04X ' "$port")" /proc/net/tcp /proc/net/tcp6 2>/dev/null || return 0
	done
}
# Loopback over IPv6 only where the host has ::1.
have_ipv6=0
grep -q '^0\{31\}1 ' /proc/net/if_inet6 2>/dev/null && have_ipv6=1

# check_help PROGRAM TEXT... - PROGRAM -h exits 0 and lists every TEXT.
check_help() {
	local program=$1 out="$work/$tool-$1-help.log"
	shift
	"$bin/doca_$program" -h >"$out" 2>&1 || { fail "$tool: $program -h failed" "$out"; return; }
	for text in "$@"; do
		expect "$out" "$text" || { fail "$tool: $program -h lacks \"$text\"" "$out"; return; }
	done
}

for tool in "${builds[@]}"; do
	bin="$work/$tool"

	# The command line is doca_argp's: help, a refused flag, a mandatory one.
	check_help rdma_write_requester "-d, --device" "-ld, --local-descriptor-path" \
		"-re, --remote-descriptor-path" "-m, --remote-resource-descriptor-path" \
		"-g, --gid-index" "-w, --write-string" "-cm, --use-rdma-cm" "-lp, --listen-port" \
		"-sa, --server-addr" "-sat, --server-addr-type" "--sdk-log-level"
	check_help rdma_read_responder "-r, --read-string"
	check_help rdma_send "-s, --send-string"
	check_help rdma_multi_conn_receive "-nc, --num-connections" "-cm, --use-rdma-cm"
	if grep -qF "busy-after-submit" "$work/$tool-rdma_send-help.log"; then
		fail "$tool: rdma_send -h shows the hidden --busy-after-submit-ms" \
			"$work/$tool-rdma_send-help.log"
	fi
	bad="$work/$tool-bad-flags.log"
	if "$bin/doca_rdma_send" -d sdoca_lo --no-such-flag >"$bad" 2>&1 ||
		"$bin/doca_rdma_receive" -ld "$work/unused.desc" >>"$bad" 2>&1; then
		fail "$tool: an unknown flag or a missing -d was accepted" "$bad"
	fi
	# Out of range: a port and a number of connections.
	if timeout -s KILL 10 "$bin/doca_rdma_receive" -d sdoca_lo -cm -lp 65536 >"$bad" 2>&1 ||
		timeout -s KILL 10 "$bin/doca_rdma_multi_conn_receive" -d sdoca_lo -cm -nc 0 \
			>>"$bad" 2>&1 ||
		timeout -s KILL 10 "$bin/doca_rdma_multi_conn_receive" -d sdoca_lo -cm -nc 17 \
			>>"$bad" 2>&1; then
		fail "$tool: -lp 65536, -nc 0 or -nc 17 was accepted" "$bad"
	elif [ "$(grep -c "The port must be\|The number of connections must be" "$bad")" -ne 3 ]; then
		fail "$tool: -lp 65536, -nc 0 and -nc 17 not refused for their range" "$bad"
	fi

	for transport in shm tcp; do
		export SOFTDOCA_TRANSPORT=$transport
		run="$tool/$transport"
		d="$work/run-$tool-$transport"
		mkdir "$d"
		text="by the $tool build over $transport, pid $$"

		# Write: the responder waits in its RUNNING callback for the
		# requester's ".done", then prints its memory. Long flag names on
		# one side, short ones on the other.
		resp_cmd=("$bin/doca_rdma_write_responder" -d sdoca_lo -ld "$d/write-resp.desc"
			-re "$d/write-req.desc" -m "$d/write-mmap.desc" -g 0 -l 50)
		req_cmd=("$bin/doca_rdma_write_requester" --device sdoca_lo
			--local-descriptor-path "$d/write-req.desc"
			--remote-descriptor-path "$d/write-resp.desc"
			--remote-resource-descriptor-path "$d/write-mmap.desc"
			--write-string "written $text" --sdk-log-level 40)
		check_pair write "Requester has written: \"written $text\"" \
			"RDMA write task was done successfully"

		# Read: the requester prints what it read from the responder's memory.
		resp_cmd=("$bin/doca_rdma_read_responder" -d sdoca_lo -ld "$d/read-resp.desc"
			-re "$d/read-req.desc" -m "$d/read-mmap.desc" -r "offered $text")
		req_cmd=("$bin/doca_rdma_read_requester" -d sdoca_lo -ld "$d/read-req.desc"
			-re "$d/read-resp.desc" -m "$d/read-mmap.desc")
		check_pair read "Requester has read" "Read from the responder: \"offered $text\""

		# Send/receive; the receiver takes its flags from a JSON file (-j).
		printf '{ "doca_general_flags": { "log-level": 50 },\n  "doca_program_flags": { "device": "sdoca_lo", "local-descriptor-path": "%s", "remote-descriptor-path": "%s" } }\n' \
			"$d/send-recv.desc" "$d/send-send.desc" >"$d/receive.json"
		resp_cmd=("$bin/doca_rdma_receive" -j "$d/receive.json")
		req_cmd=("$bin/doca_rdma_send" -d sdoca_lo -ld "$d/send-send.desc"
			-re "$d/send-recv.desc" -s "sent $text")
		check_pair send "\"sent $text\"" "RDMA send task was done successfully"

		# Send with immediate: the receiver checks the opcode and 0xABCD.
		resp_cmd=("$bin/doca_rdma_receive_immediate" -d sdoca_lo -ld "$d/imm-recv.desc"
			-re "$d/imm-send.desc")
		req_cmd=("$bin/doca_rdma_send_immediate" -d sdoca_lo -ld "$d/imm-send.desc"
			-re "$d/imm-recv.desc" -s "sent with immediate $text")
		check_pair send_immediate \
			"Message received with immediate 0xabcd: \"sent with immediate $text\"" \
			"RDMA send with immediate task was done successfully"

		# Write with immediate: the responder's bufferless receive completes
		# with the immediate; it prints its memory.
		resp_cmd=("$bin/doca_rdma_write_immediate_responder" -d sdoca_lo
			-ld "$d/wimm-resp.desc" -re "$d/wimm-req.desc" -m "$d/wimm-mmap.desc")
		req_cmd=("$bin/doca_rdma_write_immediate_requester" -d sdoca_lo
			-ld "$d/wimm-req.desc" -re "$d/wimm-resp.desc" -m "$d/wimm-mmap.desc"
			-w "written with immediate $text")
		check_pair write_immediate \
			"Requester has written with immediate 0xabcd: \"written with immediate $text\"" \
			"RDMA write with immediate task was done successfully"

		# Remote sync event: the responder blocks in wait_gt in its RUNNING
		# callback; the requester sets the event, gets it until the
		# responder's answer, and notifies completion.
		resp_cmd=("$bin/doca_rdma_sync_event_responder" -d sdoca_lo -ld "$d/se-resp.desc"
			-re "$d/se-req.desc" -m "$d/se-event.desc")
		req_cmd=("$bin/doca_rdma_sync_event_requester" -d sdoca_lo -ld "$d/se-req.desc"
			-re "$d/se-resp.desc" -m "$d/se-event.desc")
		check_pair sync_event "The requester notified completion" \
			"Remote sync event get read the responder's answer: 2"

		# RDMA-CM: the responder listens, the requester connects; the
		# responder sends its memory descriptor over the connection and
		# takes the requester's disconnection for its end.
		next_port
		resp_cmd=("$bin/doca_rdma_write_responder" -d sdoca_lo -cm -lp "$port")
		req_cmd=("$bin/doca_rdma_write_requester" -d sdoca_lo --use-rdma-cm
			--server-addr 127.0.0.1 --server-addr-type ipv4 --listen-port "$port"
			-w "written over RDMA-CM $text")
		check_pair write_cm "Requester has written: \"written over RDMA-CM $text\"" \
			"RDMA write task was done successfully"

		next_port
		resp_cmd=("$bin/doca_rdma_read_responder" -d sdoca_lo -cm -lp "$port"
			-r "offered over RDMA-CM $text")
		req_cmd=("$bin/doca_rdma_read_requester" -d sdoca_lo -cm -sa 127.0.0.1 -sat ipv4
			-lp "$port")
		check_pair read_cm "Requester has read" \
			"Read from the responder: \"offered over RDMA-CM $text\""

		next_port
		resp_cmd=("$bin/doca_rdma_receive" -d sdoca_lo -cm -lp "$port")
		req_cmd=("$bin/doca_rdma_send" -d sdoca_lo -cm -sa 127.0.0.1 -lp "$port"
			-s "sent over RDMA-CM $text")
		check_pair send_cm "\"sent over RDMA-CM $text\"" "RDMA send task was done successfully"

		# The sync event's descriptor, and the write with immediate's
		# memory descriptor, over the connection too.
		next_port
		resp_cmd=("$bin/doca_rdma_sync_event_responder" -d sdoca_lo -cm -lp "$port")
		req_cmd=("$bin/doca_rdma_sync_event_requester" -d sdoca_lo -cm -sa 127.0.0.1
			-sat ipv4 -lp "$port")
		check_pair sync_event_cm "The requester notified completion" \
			"Remote sync event get read the responder's answer: 2"

		next_port
		resp_cmd=("$bin/doca_rdma_write_immediate_responder" -d sdoca_lo -cm -lp "$port")
		req_cmd=("$bin/doca_rdma_write_immediate_requester" -d sdoca_lo -cm -sa 127.0.0.1
			-lp "$port" -w "written with immediate over RDMA-CM $text")
		check_pair write_immediate_cm \
			"Requester has written with immediate 0xabcd: \"written with immediate over RDMA-CM $text\"" \
			"RDMA write with immediate task was done successfully"

		if [ "$have_ipv6" -eq 1 ]; then
			next_port
			resp_cmd=("$bin/doca_rdma_write_responder" -d sdoca_lo -cm -lp "$port")
			req_cmd=("$bin/doca_rdma_write_requester" -d sdoca_lo -cm -sa ::1 -sat ipv6
				-lp "$port" -w "written over RDMA-CM and IPv6 $text")
			check_pair write_cm_ipv6 \
				"Requester has written: \"written over RDMA-CM and IPv6 $text\"" \
				"RDMA write task was done successfully"

			next_port
			resp_cmd=("$bin/doca_rdma_receive_immediate" -d sdoca_lo -cm -lp "$port")
			req_cmd=("$bin/doca_rdma_send_immediate" -d sdoca_lo -cm -sa ::1 -sat ipv6
				-lp "$port" -s "sent with immediate over IPv6 $text")
			check_pair send_immediate_cm_ipv6 \
				"Message received with immediate 0xabcd: \"sent with immediate over IPv6 $text\"" \
				"RDMA send with immediate task was done successfully"
		else
			echo "skip: $run write_cm_ipv6, send_immediate_cm_ipv6: this host has no ::1"
		fi

		# Many connections in one context: through RDMA-CM (the sender
		# connects again each time its last connection is up) and out of
		# band (a descriptor file pair per connection).
		next_port
		resp_cmd=("$bin/doca_rdma_multi_conn_receive" -d sdoca_lo -cm -lp "$port"
			-nc "$MULTI_CM")
		req_cmd=("$bin/doca_rdma_multi_conn_send" -d sdoca_lo -cm -sa 127.0.0.1
			-lp "$port" -nc "$MULTI_CM" -s "multi $text")
		check_multi multi_cm "$MULTI_CM" "multi $text"

		# The other way round: the receiver connects, the sender listens.
		next_port
		resp_cmd=("$bin/doca_rdma_multi_conn_send" -d sdoca_lo -cm -lp "$port"
			-nc "$MULTI_CM" -s "multi reversed $text")
		req_cmd=("$bin/doca_rdma_multi_conn_receive" -d sdoca_lo -cm -sa 127.0.0.1
			-lp "$port" -nc "$MULTI_CM")
		check_multi multi_cm_reversed "$MULTI_CM" "multi reversed $text" swapped

		resp_cmd=("$bin/doca_rdma_multi_conn_receive" -d sdoca_lo -nc "$MULTI_OOB"
			-ld "$d/multi-recv.desc" -re "$d/multi-send.desc")
		req_cmd=("$bin/doca_rdma_multi_conn_send" -d sdoca_lo -nc "$MULTI_OOB"
			-ld "$d/multi-send.desc" -re "$d/multi-recv.desc" -s "multi files $text")
		check_multi multi_oob "$MULTI_OOB" "multi files $text"

		next_port
		resp_cmd=("$bin/doca_rdma_multi_conn_receive" -d sdoca_lo -cm -lp "$port"
			-nc "$CLIENTS")
		req_cmd=("$bin/doca_rdma_multi_conn_send" -d sdoca_lo -cm -sa 127.0.0.1
			-lp "$port")
		check_clients multi_clients "$CLIENTS" "many $text"
	done
done

# --- DOCA 2.2 programs (v22/) ------------------------------------------------
# Laid out like DOCA 2.2's RDMA samples, asking for one module, "doca", which
# the doca-2.2 directory gives with DOCA 2.2's API. Run as pairs, and paired
# with the 3.x programs (the meson build): the generations talk to each other.
echo "== DOCA 2.2 programs: meson + ninja ($cc) via pkgconfig/doca-2.2"
PKG_CONFIG_PATH="$libdir/pkgconfig/doca-2.2" setup_build v22 "$cc" "$flags" \
	meson setup "$work/v22" "$work/src/v22"
compile v22
v22="$work/v22"
x3="$work/meson"
"$v22/doca_rdma_write_requester" -h >"$work/v22-help.log" 2>&1 || fail "v22: -h failed" "$work/v22-help.log"
for text in "-d, --device" "-ld, --local-descriptor-path" "-re, --remote-descriptor-path" \
	"-m, --mmap-descriptor-path" "-s, --send-string" "-r, --read-string" \
	"-w, --write-string" "-g, --gid-index"; do
	expect "$work/v22-help.log" "$text" || fail "v22: -h lacks \"$text\"" "$work/v22-help.log"
done
# pair RESPONDER REQUESTER NAME [mmap]: resp_cmd and req_cmd with the
# descriptor files of pair NAME (the programs' own flags are appended).
pair() {
	local m=()
	[ "${4:-}" = mmap ] && m=(-m "$d/$3-mmap.desc")
	resp_cmd=("$1" -d sdoca_lo -ld "$d/$3-resp.desc" -re "$d/$3-req.desc" "${m[@]}")
	req_cmd=("$2" -d sdoca_lo -ld "$d/$3-req.desc" -re "$d/$3-resp.desc" "${m[@]}")
}
for transport in shm tcp; do
	export SOFTDOCA_TRANSPORT=$transport
	run="v22/$transport"
	d="$work/run-v22-$transport"
	mkdir "$d"
	text="by a DOCA 2.2 program over $transport, pid $$"
	w22="RDMA write job was done successfully"
	w3="RDMA write task was done successfully"
	i22="RDMA send with immediate job was done successfully"
	i3="RDMA send with immediate task was done successfully"
	got="Message received with immediate 0xabcd"

	pair "$v22/doca_rdma_write_responder" "$v22/doca_rdma_write_requester" w mmap
	req_cmd+=(-w "written $text" -g 0)
	check_pair write "Requester has written: \"written $text\"" "$w22"

	pair "$v22/doca_rdma_read_responder" "$v22/doca_rdma_read_requester" r mmap
	resp_cmd+=(-r "offered $text")
	check_pair read "Requester has read" "Read from the responder: \"offered $text\""

	pair "$v22/doca_rdma_receive" "$v22/doca_rdma_send" s
	req_cmd+=(-s "sent $text")
	check_pair send "\"sent $text\"" "RDMA send job was done successfully"

	pair "$v22/doca_rdma_receive_immediate" "$v22/doca_rdma_send_immediate" i
	req_cmd+=(-s "sent with immediate $text")
	check_pair send_immediate "$got: \"sent with immediate $text\"" "$i22"

	# 2.2 <-> 3.x: a write and sends with immediate, each way.
	run="v22-3x/$transport"
	pair "$x3/doca_rdma_write_responder" "$v22/doca_rdma_write_requester" xw mmap
	req_cmd+=(-w "2.2 to 3.x $text")
	check_pair write "Requester has written: \"2.2 to 3.x $text\"" "$w22"

	pair "$v22/doca_rdma_write_responder" "$x3/doca_rdma_write_requester" yw mmap
	req_cmd+=(-w "3.x to 2.2 $text")
	check_pair write_to_v22 "Requester has written: \"3.x to 2.2 $text\"" "$w3"

	pair "$x3/doca_rdma_receive_immediate" "$v22/doca_rdma_send_immediate" xi
	req_cmd+=(-s "2.2 to 3.x $text")
	check_pair send_immediate "$got: \"2.2 to 3.x $text\"" "$i22"

	pair "$v22/doca_rdma_receive_immediate" "$x3/doca_rdma_send_immediate" yi
	req_cmd+=(-s "3.x to 2.2 $text")
	check_pair send_immediate_to_v22 "$got: \"3.x to 2.2 $text\"" "$i3"
done

# --- stress: the receiver is gone before the sender progresses --------------
bin="$work/meson"
for transport in shm tcp; do
	export SOFTDOCA_TRANSPORT=$transport
	start=$EPOCHREALTIME
	failures=0
	for ((i = 1; i <= STRESS_RUNS; i++)); do
		d="$work/stress-$transport-$i"
		mkdir "$d"
		resp_cmd=("$bin/doca_rdma_receive" -d sdoca_lo -ld "$d/recv.desc" -re "$d/send.desc")
		req_cmd=("$bin/doca_rdma_send" -d sdoca_lo -ld "$d/send.desc" -re "$d/recv.desc"
			-s "stress message $i" --busy-after-submit-ms "$BUSY_MS")
		if run_pair "$STRESS_LIMIT" "$d/receive.log" "$d/send.log" &&
			expect "$d/receive.log" "\"stress message $i\""; then
			rm -rf "$d"
			continue
		fi
		failures=$((failures + 1))
		# The logs of the first few failures; the count says the rest.
		if [ "$failures" -le 3 ]; then
			fail "stress $transport run $i" "$d/receive.log" "$d/send.log"
		fi
	done
	seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	echo "stress $transport: $STRESS_RUNS runs, $failures failed, ${seconds} s" \
		"(rdma_send busy ${BUSY_MS} ms after its submit)"
	[ "$failures" -eq 0 ] || failed=1
done

[ "$failed" -eq 0 ] && echo "drop-in (${builds[*]}; DOCA 2.2 and with 3.x; shm and tcp; files and RDMA-CM; stress): OK"
exit "$failed"
