"""An attack bot for the sandbox tests: it tries to cheat and to harm, and reports what worked.

``spy_bot.py TARGETS.json [keep]``: TARGETS names what to go after (paths, a loopback port, a secret, a victim's
argv token).  On its fourth request (every other bot has started by then) it tries everything and puts a JSON
report in its answer's ``debug``; then it plays along (PASS, or plays the tile it drew).  Victims are picked
only by the token in their argv.
"""

import contextlib
import json
import os
import socket
import sys


def read(path, limit=4096):
    try:
        with open(path, "rb") as handle:
            return handle.read(limit)
    except OSError:
        return None


def pids():
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def attack(targets):
    secret = targets["secret"].encode()
    report = {}
    # the judge's argv and environment, and its memory
    report["argv_secret"] = any(secret in (read(f"/proc/{pid}/cmdline") or b"") for pid in pids())
    report["environ_secret"] = any(secret in (read(f"/proc/{pid}/environ", 1 << 20) or b"") for pid in pids())
    report["own_env_secret"] = any(targets["secret"] in value for value in os.environ.values())
    report["env"] = sorted(os.environ)
    mem = 0
    for pid in pids():
        try:
            with open(f"/proc/{pid}/mem", "rb"):
                mem += 1
        except OSError:
            pass
    report["foreign_mem_opened"] = mem - 1 if mem else 0  # its own is always there
    report["visible_pids"] = len(pids())
    # files: the wall, another bot's source, the results
    report["wall_read"] = read(targets["wall"]) is not None
    report["other_source_read"] = read(targets["other_source"]) is not None
    try:
        with open(targets["results"], "a") as handle:
            handle.write('{"game": "forged"}\n')
        report["results_written"] = True
    except OSError:
        report["results_written"] = False
    # the network, loopback included
    try:
        with socket.create_connection(("127.0.0.1", targets["port"]), timeout=1) as conn:
            conn.sendall(b"hello from a bot\n")
        report["network"] = True
    except OSError:
        report["network"] = False
    # other processes: another bot, found by the token in its argv
    token = targets["victim_token"].encode()
    victims = [pid for pid in pids() if token in (read(f"/proc/{pid}/cmdline") or b"")]
    report["victims_seen"] = len(victims)
    fds = 0
    for pid in victims:
        with contextlib.suppress(OSError):
            fds += len(os.listdir(f"/proc/{pid}/fd"))
    report["victim_fds_seen"] = fds
    killed = 0
    for pid in victims:
        try:
            os.kill(pid, 9)
            killed += 1
        except OSError:
            pass
    report["victims_killed"] = killed
    # the disk: fill /tmp, then the working folder
    written = 0
    try:
        with open("/tmp/fill", "wb") as handle:
            chunk = b"x" * (1 << 20)
            for _ in range(targets.get("fill_mib", 256)):
                handle.write(chunk)
                written += 1
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            os.remove("/tmp/fill")
    report["tmp_mib_written"] = written
    try:
        with open(os.path.join(os.getcwd(), "spy-was-here"), "w") as handle:
            handle.write("x")
        report["cwd_written"] = True
    except OSError:
        report["cwd_written"] = False
    return report


def answer(request, report):
    words = request.split()
    reply = "PASS"
    if words and words[0] == "2":
        reply = "PLAY " + words[1]
    return {"response": reply} if report is None else {"response": reply, "debug": json.dumps(report)}


def main():
    targets = json.loads(read(sys.argv[1], 1 << 16))
    keep = "keep" in sys.argv[2:]
    line = sys.stdin.readline()
    message = json.loads(line)
    later = len(message["requests"]) == 4  # by then every other bot has started
    print(json.dumps(answer(message["requests"][-1], attack(targets) if later else None)), flush=True)
    while keep:
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        print(json.dumps(answer(json.loads(line), None)), flush=True)


if __name__ == "__main__":
    main()
