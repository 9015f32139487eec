#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/mpi-netns.sh MPI-WPSIM [CHECK-ARGS...] - issue 34: one split
# search over 4 MPI ranks on two "machines", two network namespaces of
# this host joined by a veth pair, Open MPI talking TCP between them (no
# shared memory: --mca btl tcp,self); the report compared byte for byte
# with the single process's `--jobs 2` report of the same binary.
#
# Root only (it adds the namespace wpsim-b, the veth pair wpsim-a0 /
# wpsim-b0 with 10.231.0.1/24 and 10.231.0.2/24, and removes them at the
# end).  Open MPI starts its daemon (orted) on the second "machine" the
# way it would over ssh, with an agent (--mca plm_rsh_agent) that runs
# the command in the namespace instead (`ip netns exec`, with a UTS
# namespace of its own, hostname wpsim-b); the hostfile names the two
# addresses with 2 slots each: ranks 0-1 here, 2-3 there.  The two
# namespaces share this host's file system, which stands for what a
# cluster needs (the same binary and scenario files on every node, at the
# same path: docs/mpi.md).
#
# Default CHECK-ARGS: the issue's largest search,
#   --exhaustive --format json scenarios/writethrough/noserial-overlap.litmus
#   --variant writethrough=v3
# Prints where each rank ran (its hostname and its network namespace's
# address), wall and CPU seconds, and "same report: yes" or "NO"; exit 0
# only when the reports are the same.  Not part of any test suite (it
# changes the host's network configuration): run by hand, as root.
set -eu
[ $# -ge 1 ] || { echo "usage: bench/mpi-netns.sh MPI-WPSIM [CHECK-ARGS...]" >&2; exit 2; }
wpsim=$(readlink -f "$1")
shift
[ $# -gt 0 ] || set -- --exhaustive --format json \
	scenarios/writethrough/noserial-overlap.litmus --variant writethrough=v3
[ "$(id -u)" -eq 0 ] || { echo "bench/mpi-netns.sh: root only (ip netns)" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "bench/mpi-netns.sh: no mpirun (apt-get install openmpi-bin)" >&2; exit 2; }

ns="wpsim-b"
a=10.231.0.1
b=10.231.0.2
tmp=$(mktemp -d)
cleanup() {
	ip link del wpsim-a0 2>/dev/null || true
	ip netns del "$ns" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
cleanup_ns_only() {
	ip link del wpsim-a0 2>/dev/null || true
	ip netns del "$ns" 2>/dev/null || true
}
cleanup_ns_only
mkdir -p "$tmp"

# The second "machine": a network namespace, a veth pair to it.
ip netns add "$ns"
ip link add wpsim-a0 type veth peer name wpsim-b0
ip link set wpsim-b0 netns "$ns"
ip addr add "$a/24" dev wpsim-a0
ip link set wpsim-a0 up
ip netns exec "$ns" ip addr add "$b/24" dev wpsim-b0
ip netns exec "$ns" ip link set wpsim-b0 up
ip netns exec "$ns" ip link set lo up

# The "ssh" of the launcher: Open MPI calls it as `AGENT [options] HOST
# COMMAND...`; the command runs in the namespace, a shell of its own
# hostname (a UTS namespace), as sshd would run it.
cat >"$tmp/agent" <<EOF
#!/bin/sh
while [ \$# -gt 0 ] && [ "\${1#-}" != "\$1" ]; do shift; done
host=\$1
shift
[ "\$host" = "$b" ] || { echo "agent: unknown host \$host" >&2; exit 255; }
exec ip netns exec $ns unshare --uts sh -c 'hostname wpsim-b; exec sh -c "\$0"' "\$*"
EOF
chmod +x "$tmp/agent"
printf '%s slots=2\n%s slots=2\n' "$a" "$b" >"$tmp/hosts"

run() {
	mpirun --allow-run-as-root --hostfile "$tmp/hosts" -np 4 \
		--mca plm_rsh_agent "$tmp/agent" \
		--mca btl tcp,self \
		--mca btl_tcp_if_include 10.231.0.0/24 \
		--mca oob_tcp_if_include 10.231.0.0/24 "$@"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "where each rank runs:"
run sh -c 'echo "  rank $OMPI_COMM_WORLD_RANK: host $(hostname), address $(ip -o -4 addr show | grep -o "10\.231\.0\.[0-9]*" | head -1)"' |
	sort

# The 4 ranks, each under /usr/bin/time (its CPU seconds).
t0=$(date +%s.%N)
run sh -c 'exec /usr/bin/time -f "%U %S" -o "$0/rank.$OMPI_COMM_WORLD_RANK" "$@"' \
	"$tmp" "$wpsim" check "$@" >"$tmp/ranks.out" 2>"$tmp/ranks.err" || true
t1=$(date +%s.%N)
echo "mpirun -np 4 over two namespaces: $(echo "$t1 - $t0" | bc) s wall"
for k in 0 1 2 3; do
	echo "  rank $k: $(awk '{ printf "%.2f", $(NF-1) + $NF }' "$tmp/rank.$k" 2>/dev/null || echo '?') CPU s"
done

t0=$(date +%s.%N)
/usr/bin/time -f "%U %S" -o "$tmp/one.time" \
	"$wpsim" check --jobs 2 "$@" >"$tmp/one.out" 2>"$tmp/one.err" || true
t1=$(date +%s.%N)
echo "one process, --jobs 2: $(echo "$t1 - $t0" | bc) s wall, $(awk '{ printf "%.2f", $(NF-1) + $NF }' "$tmp/one.time") CPU s"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
head -c 300 "$tmp/ranks.out"
echo
if cmp -s "$tmp/one.out" "$tmp/ranks.out"; then
	echo "same report: yes"
else
	echo "same report: NO"
	diff "$tmp/one.out" "$tmp/ranks.out" | head -20
	sed -n 1,20p "$tmp/ranks.err"
	exit 1
fi
