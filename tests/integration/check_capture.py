#!/usr/bin/env python3
# Reads the captures of the `capture` scenario (peer_capture.c) with tshark
# and checks that what Wireshark's InfiniBand dissector decodes is what the
# scenario did: the opcodes, QP numbers, PSNs, RETH lengths, immediates,
# atomic values and the NAK's syndrome, both directions in both files, no
# malformed packet, and the HELLO as a custom block.
#
#   check_capture.py PAIR_LOG FILE...    the capture scenario's files
#   check_capture.py --killed FILE...    a killed process's files still open
#   check_capture.py --events FILE...    sync_ops's: its requests as custom blocks
import re
import struct
import subprocess
import sys

FIELDS = ["frame.packet_flags_direction", "ip.src", "ip.dst", "infiniband.bth.opcode",
          "infiniband.bth.destqp", "infiniband.bth.psn", "infiniband.bth.a",
          "infiniband.reth.dmalen", "infiniband.immdt", "infiniband.aeth.syndrome",
          "infiniband.aeth.msn", "infiniband.atomicacketh.origremdt", "frame.comment"]
OUT, IN = 2, 1

# What the client asked for, in order: opcode, RETH length, immediate.
REQUESTS = [(0x0a, 200, None), (0x0b, 64, "11223344"), (0x0c, 300, None), (0x04, None, None),
            (0x05, None, "cafef00d"), (0x14, None, None), (0x13, None, None), (0x0a, 100, None)]
ACK, NAK_ACCESS = 0x1f, 0x62

errors = []


def check(cond, what):
    if not cond:
        errors.append(what)
    return cond


def tshark(args):
    r = subprocess.run(["tshark", "-n"] + args, capture_output=True, text=True, timeout=120)
    stderr = "\n".join(l for l in r.stderr.splitlines() if "Running as user" not in l)
    return r.returncode, r.stdout, stderr


def num(v):
    v = v.split(",")[0]
    return int(v, 0) if v else None


def packets(path):
    code, out, err = tshark(["-r", path, "-Y", "infiniband", "-T", "fields",
                             "-E", "separator=\t", "-E", "occurrence=f"] +
                            sum([["-e", f] for f in FIELDS], []))
    check(code == 0 and not err, f"{path}: tshark exited {code}: {err}")
    rows = []
    for line in out.splitlines():
        v = dict(zip(FIELDS, line.split("\t")))
        rows.append({"dir": num(v["frame.packet_flags_direction"]), "src": v["ip.src"],
                     "dst": v["ip.dst"], "op": num(v["infiniband.bth.opcode"]),
                     "qp": num(v["infiniband.bth.destqp"]), "psn": num(v["infiniband.bth.psn"]),
                     "ackreq": v["infiniband.bth.a"] in ("1", "True"),
                     "len": num(v["infiniband.reth.dmalen"]),
                     "imm": v["infiniband.immdt"].replace(":", "") or None,
                     "syn": num(v["infiniband.aeth.syndrome"]),
                     "msn": num(v["infiniband.aeth.msn"]),
                     "orig": num(v["infiniband.atomicacketh.origremdt"]),
                     "comment": v["frame.comment"]})
    return rows


def no_malformed(path):
    code, out, err = tshark(["-r", path, "-q", "-z", "expert,warn"])
    check(code == 0 and not err, f"{path}: tshark -z expert exited {code}: {err}")
    check(not re.search(r"^(Errors|Warnings) \(", out, re.M),
          f"{path}: tshark reports errors or warnings:\n{out}")
    code, out, _ = tshark(["-r", path, "-Y", "_ws.malformed"])
    check(out.strip() == "", f"{path}: malformed packets:\n{out}")


def blocks(path):
    """The pcapng blocks of a file, (type, body); checks that they chain whole."""
    data = open(path, "rb").read()
    out, at = [], 0
    while at < len(data):
        if not check(at + 12 <= len(data), f"{path}: a block cut short at byte {at}"):
            break
        btype, blen = struct.unpack_from("<II", data, at)
        if not check(blen >= 12 and blen % 4 == 0 and at + blen <= len(data),
                     f"{path}: block at {at} of length {blen} runs past the end"):
            break
        check(struct.unpack_from("<I", data, at + blen - 4)[0] == blen,
              f"{path}: block at {at}: trailing length differs")
        out.append((btype, data[at + 8:at + blen - 4]))
        at += blen
    check(out and out[0][0] == 0x0a0d0d0a, f"{path}: no section header first")
    check(len(out) > 1 and out[1][0] == 1, f"{path}: no interface block second")
    return out


def custom_texts(path):
    return [body[12:].rstrip(b"\0").decode() for t, body in blocks(path)
            if t == 0xbad and struct.unpack_from("<I", body)[0] == 32473]


def ip_of(pid):
    return f"127.{(pid >> 16) & 255}.{(pid >> 8) & 255}.{pid & 255}"


def check_side(path, me, peer, role):
    rows = packets(path)
    no_malformed(path)
    client, server = (me, peer) if role == "client" else (peer, me)
    req_dir = OUT if role == "client" else IN
    reqs = [r for r in rows if r["dir"] == req_dir]
    answers = [r for r in rows if r["dir"] != req_dir]
    check(len(reqs) == len(REQUESTS), f"{path}: {len(reqs)} requests, expected {len(REQUESTS)}")
    for i, (r, (op, length, imm)) in enumerate(zip(reqs, REQUESTS)):
        where = f"{path}: request {i}"
        check(r["op"] == op, f"{where}: opcode {r['op']:#x}, expected {op:#x}")
        check(r["psn"] == i, f"{where}: PSN {r['psn']}, expected {i}")
        check(r["qp"] == server["qp"], f"{where}: destination QP {r['qp']}, "
              f"expected the server's {server['qp']}")
        check(r["ackreq"], f"{where}: no ack request")
        check(r["len"] == length, f"{where}: RETH length {r['len']}, expected {length}")
        check(r["imm"] == imm, f"{where}: immediate {r['imm']}, expected {imm}")
        check((r["src"], r["dst"]) == (ip_of(client["pid"]), ip_of(server["pid"])),
              f"{where}: addresses {r['src']} -> {r['dst']}")
        check(f"QP {client['qp']} (pid {client['pid']}) -> QP {server['qp']}" in r["comment"],
              f"{where}: comment '{r['comment']}' names another connection")
    for r in answers:
        check(r["qp"] == client["qp"] and r["src"] == ip_of(server["pid"]),
              f"{path}: an answer to QP {r['qp']} from {r['src']}")
    by_op = {}
    for r in answers:
        by_op.setdefault(r["op"], []).append(r)
    reads = by_op.get(0x10, [])
    check([r["psn"] for r in reads] == [2], f"{path}: read responses {reads}")
    atomics = by_op.get(0x12, [])
    check([(r["psn"], r["orig"], r["syn"]) for r in atomics] == [(5, 1000, ACK), (6, 1005, ACK)],
          f"{path}: atomic acknowledgements {atomics}")
    acks = [r for r in by_op.get(0x11, []) if r["syn"] == ACK]
    naks = [r for r in by_op.get(0x11, []) if r["syn"] != ACK]
    psns = [r["psn"] for r in acks]
    check(psns == sorted(set(psns)) and psns and psns[-1] == 4,
          f"{path}: ACK PSNs {psns} (ascending, the last the send-imm's, 4)")
    check(all(r["msn"] == r["psn"] + 1 for r in acks), f"{path}: an ACK's MSN is not PSN + 1")
    check([(r["psn"], r["syn"], r["msn"]) for r in naks] == [(7, NAK_ACCESS, 7)],
          f"{path}: NAKs {[(r['psn'], r['syn'], r['msn']) for r in naks]}, expected one "
          f"remote access error (0x62) for PSN 7")
    texts = custom_texts(path)
    check(any(": HELLO seq" in t for t in texts), f"{path}: no HELLO custom block in {texts}")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--events":
        # No RoCE packet for a sync event's requests: text, both ways, and
        # the connection's HELLO and DISCONNECT.
        want = {"HELLO", "DISCONNECT", "EVENT_GET", "EVENT_SET", "EVENT_ADD", "EVENT_RESP"}
        for path in sys.argv[2:]:
            no_malformed(path)
            seen = {m.group(1) for t in custom_texts(path)
                    for m in [re.search(r"\): (\w+) seq \d+", t)] if m}
            check(want <= seen, f"{path}: custom blocks of {sorted(seen)}, expected {sorted(want)}")
            check(not packets(path), f"{path}: RoCE packets for sync-event messages")
            print(f"{path}: sync-event messages as custom blocks: {sorted(seen)}")
    elif len(sys.argv) > 1 and sys.argv[1] == "--killed":
        for path in sys.argv[2:]:
            code, out, err = tshark(["-r", path, "-q", "-z", "io,stat,0"])
            check(code == 0 and not err, f"{path}: tshark exited {code}: {err}")
            r = subprocess.run(["capinfos", path], capture_output=True, text=True, timeout=60)
            check(r.returncode == 0 and "cut short" not in r.stderr,
                  f"{path}: capinfos exited {r.returncode}: {r.stderr}")
            blocks(path)
            no_malformed(path)
            print(f"{path}: opens, {len(packets(path))} RoCE packets")
    else:
        log = open(sys.argv[1]).read()
        ends = {m[0]: {"pid": int(m[1]), "qp": int(m[2]), "peer_qp": int(m[3])}
                for m in re.findall(r"capture (server|client) pid (\d+) qp (\d+) peer_qp (\d+)",
                                    log)}
        if not check(set(ends) == {"server", "client"}, f"no QP numbers in the log:\n{log}"):
            return report()
        check(ends["client"]["peer_qp"] == ends["server"]["qp"] and
              ends["server"]["peer_qp"] == ends["client"]["qp"], f"QP numbers disagree: {ends}")
        files = {int(re.search(r"(\d+)\.pcapng$", p).group(1)): p for p in sys.argv[2:]}
        for role, other in (("client", "server"), ("server", "client")):
            path = files.get(ends[role]["pid"])
            if check(path, f"no capture of the {role} (pid {ends[role]['pid']})"):
                check_side(path, ends[role], ends[other], role)
                print(f"{path}: the {role}'s capture decodes as the scenario ran")
    return report()


def report():
    for e in errors:
        print("FAIL:", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
