#!/bin/bash
# Runs every per-operation example pair (examples/) as two processes that
# exchange their blobs through files, and checks what each printed.
#
#   run_examples.sh BINDIR shm|tcp
set -u

bin=$1
export SOFTDOCA_TRANSPORT=$2
LIMIT=${SDOCA_TEST_LIMIT:-60}
dir=$(mktemp -d /tmp/sdoca-examples.XXXXXX)
trap 'rm -rf "$dir"' EXIT
failed=0

# expect_all LOG "LINE1;;LINE2..." - every line appears in LOG.
expect_all() {
	local log=$1 rest=$2 want
	while [ -n "$rest" ]; do
		want=${rest%%;;*}
		[ "$want" = "$rest" ] && rest= || rest=${rest#*;;}
		grep -qF -- "$want" "$log" || return 1
	done
}

# pair NAME RESPONDER "ARGS" REQUESTER "ARGS" RESPONDER_EXPECTS REQUESTER_EXPECTS
pair() {
	local name=$1 resp=$2 resp_args=$3 req=$4 req_args=$5 resp_want=$6 req_want=$7
	local d="$dir/$name" rc_resp rc_req
	mkdir -p "$d"
	# shellcheck disable=SC2086 # the argument strings are split on purpose
	timeout -s KILL "$LIMIT" "$bin/$resp" -l "$d/resp.blob" -r "$d/req.blob" -m "$d/mem.blob" \
		$resp_args >"$d/resp.log" 2>&1 &
	local resp_pid=$!
	# shellcheck disable=SC2086
	timeout -s KILL "$LIMIT" "$bin/$req" -l "$d/req.blob" -r "$d/resp.blob" -m "$d/mem.blob" \
		$req_args >"$d/req.log" 2>&1
	rc_req=$?
	wait "$resp_pid"
	rc_resp=$?
	if [ $rc_req -ne 0 ] || [ $rc_resp -ne 0 ] || ! expect_all "$d/resp.log" "$resp_want" ||
		! expect_all "$d/req.log" "$req_want"; then
		echo "FAIL: $name (requester exit $rc_req, responder exit $rc_resp)"
		echo "  responder should print: $resp_want"
		sed 's/^/  | /' "$d/resp.log"
		echo "  requester should print: $req_want"
		sed 's/^/  | /' "$d/req.log"
		failed=1
	else
		echo "ok: $name"
	fi
}

pair send rdma_receive "" rdma_send "-t hello-send" \
	'received 11 bytes: "hello-send"' "send of 11 bytes: DOCA_SUCCESS"
pair send_imm rdma_receive "" rdma_send_imm "-t hello-imm -v 0xabcd1234" \
	'received 10 bytes: "hello-imm";;with immediate 0xabcd1234' "send with immediate 0xabcd1234 of 10 bytes: DOCA_SUCCESS"
pair write rdma_write_responder "" rdma_write_requester "-t written-by-peer" \
	'memory now holds: "written-by-peer"' "write of 16 bytes: DOCA_SUCCESS"
pair write_imm rdma_write_imm_responder "" rdma_write_imm_requester "-t with-imm -v 77" \
	'immediate 0x4d, memory now holds: "with-imm"' "write with immediate 0x4d of 9 bytes: DOCA_SUCCESS"
pair read rdma_read_responder "-t exported-text" rdma_read_requester "" \
	'exported: "exported-text"' 'read: "exported-text"'
pair fetch_add rdma_atomic_responder "-v 100" rdma_atomic_fetch_add "-v 5" \
	"counter is now 105" "the counter held 100 before"
pair cmp_swp rdma_atomic_responder "-v 100" rdma_atomic_cmp_swp "-c 100 -v 42" \
	"counter is now 42" "the counter held 100 before (swapped)"
pair cmp_swp_miss rdma_atomic_responder "-v 7" rdma_atomic_cmp_swp "-c 100 -v 42" \
	"counter is now 7" "the counter held 7 before (not swapped)"
# DOCA 2.2 programs (the programming guide's snippets), with each other and
# with DOCA 3.x programs.
pair v22_write rdma_write_responder "" rdma_v22_write_requester "-t written-by-2.2" \
	'memory now holds: "written-by-2.2"' "write job of 15 bytes: DOCA_SUCCESS, result DOCA_SUCCESS"
pair v22_send_imm rdma_v22_receive "" rdma_v22_send_imm "-t hello-2.2 -v 0xdeadbeef" \
	'received 10 bytes: "hello-2.2";;with immediate 0xdeadbeef' "send with immediate 0xdeadbeef of 10 bytes: DOCA_SUCCESS, result DOCA_SUCCESS"
pair v22_to_3x rdma_receive "" rdma_v22_send_imm "-t from-2.2 -v 0x1234" \
	'received 9 bytes: "from-2.2";;with immediate 0x1234' "send with immediate 0x1234 of 9 bytes: DOCA_SUCCESS"
pair 3x_to_v22 rdma_v22_receive "" rdma_send_imm "-t from-3.x -v 0x4321" \
	'received 9 bytes: "from-3.x";;with immediate 0x4321' "send with immediate 0x4321 of 9 bytes: DOCA_SUCCESS"
exit $failed
