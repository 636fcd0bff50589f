# shellcheck shell=bash
# A throw-away Redis Cluster on loopback: 6 redis-server nodes (3 masters, each with one
# replica) on ports BASE..BASE+5, made with `redis-cli --cluster create`. Used by
# scripts/redis-cluster.sh. Requires lib/common.sh. Each node keeps its redis.conf,
# nodes.conf, pid file and log in DIR/<port>/, so a stopped node can be started again
# (`redis-server DIR/<port>/redis.conf`) and rejoins as a replica.
# ACL as deployed (deploy/k8s/redis-cluster.yaml): no default user; `gds` (the service:
# every command but the administrative ones) and `admin` (this script's redis-cli,
# replication), each with a password made for the run (RC_GDS_PASSWORD,
# RC_ADMIN_PASSWORD, set by rc_start; redis-cli reads admin's from REDISCLI_AUTH).

rc_password() { head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n'; }

# redis-cli as admin against the node on port $1, then the rest of the arguments.
rc_cli() {
  local port="$1"
  shift
  REDISCLI_AUTH="$RC_ADMIN_PASSWORD" redis-cli --user admin -h 127.0.0.1 -p "$port" "$@"
}

RC_NODES=6

rc_ports() {
  local base="$1" i
  for ((i = 0; i < RC_NODES; i++)); do echo $((base + i)); done
}

rc_node_start() {
  local dir="$1" port="$2"
  mkdir -p "$dir/$port"
  cat >"$dir/$port/redis.conf" <<CONF
port $port
bind 127.0.0.1
protected-mode yes
cluster-enabled yes
# the cluster bus below the kernel's ephemeral ports (32768 and up, where port + 10000,
# the default, lands): a client connection holding that port would stop the node
cluster-port $((port - 1000))
cluster-config-file $dir/$port/nodes.conf
# a dead master's replica is promoted after about this long
cluster-node-timeout 2000
cluster-replica-validity-factor 0
save ""
appendonly no
user default off
user gds on >$RC_GDS_PASSWORD ~* &* +@all -@admin
user admin on >$RC_ADMIN_PASSWORD ~* &* +@all
masteruser admin
masterauth $RC_ADMIN_PASSWORD
dir $dir/$port
daemonize yes
pidfile $dir/$port/redis.pid
logfile $dir/$port/redis.log
CONF
  redis-server "$dir/$port/redis.conf"
}

rc_wait_ping() {
  local port="$1" start
  start="$(now_ms)"
  until [[ "$(rc_cli "$port" ping 2>/dev/null || true)" == "PONG" ]]; do
    (($(now_ms) - start < 20000)) || die "redis cluster node $port did not answer PING within 20s"
    sleep 0.1
  done
}

# rc_start DIR BASE: starts the nodes, creates the cluster, waits until cluster_state is ok.
rc_start() {
  local dir="$1" base="$2" port hosts=() start
  RC_GDS_PASSWORD="$(rc_password)"
  RC_ADMIN_PASSWORD="$(rc_password)"
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null ||
    die "redis-server/redis-cli not found: run scripts/ensure-deps.sh"
  for port in $(rc_ports "$base"); do
    check_port "$port" "redis cluster port"
    ! port_open "$port" || die "cannot start the Redis Cluster: port $port is busy"
  done
  rm -rf "$dir"
  mkdir -p "$dir"
  # the run's credentials, for whoever starts the cluster on its own (`start`)
  (umask 077 && printf 'REDIS_USERNAME=gds\nREDIS_PASSWORD=%s\nREDIS_CLUSTER_ADMIN_PASSWORD=%s\n' \
    "$RC_GDS_PASSWORD" "$RC_ADMIN_PASSWORD" >"$dir/acl.env")
  log "starting a 6-node Redis Cluster on 127.0.0.1:$base-$((base + RC_NODES - 1)) (dir $dir)"
  for port in $(rc_ports "$base"); do
    rc_node_start "$dir" "$port"
    hosts+=("127.0.0.1:$port")
  done
  for port in $(rc_ports "$base"); do rc_wait_ping "$port"; done
  REDISCLI_AUTH="$RC_ADMIN_PASSWORD" redis-cli --user admin --cluster create "${hosts[@]}" \
    --cluster-replicas 1 --cluster-yes >"$dir/create.log" 2>&1 ||
    {
      cat "$dir/create.log" >&2
      die "redis-cli --cluster create failed"
    }
  start="$(now_ms)"
  for port in $(rc_ports "$base"); do
    until rc_cli "$port" cluster info 2>/dev/null | grep -q 'cluster_state:ok'; do
      (($(now_ms) - start < 30000)) || die "Redis Cluster not ok within 30s (node $port)"
      sleep 0.2
    done
  done
  log "Redis Cluster ready: REDIS_CLUSTER_NODES=$(rc_nodes "$base")"
}

rc_nodes() {
  local base="$1" port out=""
  for port in $(rc_ports "$base"); do out+="${out:+,}127.0.0.1:$port"; done
  echo "$out"
}

# rc_stop DIR BASE: stops every node that is still running (pid files written by redis-server).
rc_stop() {
  local dir="$1" base="$2" port pid
  for port in $(rc_ports "$base"); do
    pid=""
    [[ -f "$dir/$port/redis.pid" ]] && read -r pid <"$dir/$port/redis.pid" || true
    if [[ -n "$pid" ]] && pid_alive "$pid" && pid_matches "$pid" "redis-server"; then
      stop_pid "$pid" "redis cluster node $port" 10 || true
    fi
    rm -f "$dir/$port/redis.pid"
  done
}
