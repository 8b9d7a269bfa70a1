#!/usr/bin/env bash
# init with 10 providers of ~20 MB each, tofu-rs against terraform, given
# to both the same way:
#   mirror: a filesystem mirror given with -plugin-dir (offline);
#   https:  a provider registry on loopback over HTTPS (a test CA that
#           SSL_CERT_FILE makes both tools trust, SHA256SUMS signed with
#           a GPG key made for the run); needs openssl and gpg.
# Each cold (empty .terraform, no cache) and warm (TF_PLUGIN_CACHE_DIR
# filled by an earlier run, that run's lock file present). Prints the
# best of RUNS times and the ratios (terraform time / tofu-rs time).
#   TOFU_RS=path/to/tofu-rs (default target/release/tofu-rs)  RUNS=3
set -euo pipefail
TOFU_RS=${TOFU_RS:-$(cd "$(dirname "$0")/.." && pwd)/target/release/tofu-rs}
TF=${TERRAFORM:-terraform}
RUNS=${RUNS:-3}
command -v "$TF" >/dev/null || { echo "terraform not on PATH: skipped"; exit 0; }
[ -x "$TOFU_RS" ] || { echo "no tofu-rs binary at $TOFU_RS"; exit 1; }
W=$(mktemp -d)
SERVER_PID=
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT
PLAT=linux_$(uname -m | sed 's/x86_64/amd64/;s/aarch64/arm64/')
python3 - "$W/mirror" "$PLAT" <<'PY'
import os, sys, zipfile
mirror, plat = sys.argv[1], sys.argv[2]
for i in range(10):
    d = os.path.join(mirror, "registry.opentofu.org/bench", f"p{i}")
    os.makedirs(d, exist_ok=True)
    with zipfile.ZipFile(os.path.join(d, f"terraform-provider-p{i}_1.0.0_{plat}.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo(f"terraform-provider-p{i}_v1.0.0"); info.external_attr = 0o755 << 16
        z.writestr(info, b"#!/bin/sh\n" + os.urandom(20 * 1024 * 1024))
PY
# $1 = host part of the source addresses
main_tf() {
  echo 'terraform {'; echo '  required_providers {'
  for i in $(seq 0 9); do echo "    p$i = { source = \"$1/bench/p$i\" }"; done
  echo '  }'; echo '}'
}
main_tf registry.opentofu.org > "$W/main-mirror.tf"
export TF_CLI_CONFIG_FILE=$W/empty.tfrc; : > "$TF_CLI_CONFIG_FILE"
unset TF_PLUGIN_CACHE_DIR TF_DATA_DIR

# best of $RUNS, in seconds: $1=tool $2=cold|warm $3=variant $4=tool name
time_init() {
  local tool=$1 mode=$2 variant=$3 name=$4 best=
  for _ in $(seq "$RUNS"); do
    local d; d=$(mktemp -d -p "$W"); cp "$W/main-$variant.tf" "$d/main.tf"
    if [ "$mode" = warm ]; then
      cp "$W/lock-$variant-$name" "$d/.terraform.lock.hcl"; export TF_PLUGIN_CACHE_DIR=$W/cache-$variant-$name
    fi
    local s e; s=$(date +%s.%N)
    (cd "$d" && "$tool" init -input=false -no-color $(extra_args "$variant") >/dev/null)
    e=$(date +%s.%N); unset TF_PLUGIN_CACHE_DIR
    local t; t=$(echo "$e - $s" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
    rm -rf "$d"
  done
  echo "$best"
}
extra_args() { [ "$1" = mirror ] && echo "-plugin-dir=$W/mirror" || true; }

# Fills each tool's cache once, keeping the lock file it wrote, then times.
bench_variant() {
  local variant=$1
  for t in tofu terraform; do
    local bin=$TOFU_RS; [ $t = terraform ] && bin=$TF
    local d; d=$(mktemp -d -p "$W"); cp "$W/main-$variant.tf" "$d/main.tf"; mkdir -p "$W/cache-$variant-$t"
    (cd "$d" && TF_PLUGIN_CACHE_DIR=$W/cache-$variant-$t "$bin" init -input=false -no-color $(extra_args "$variant") >/dev/null)
    cp "$d/.terraform.lock.hcl" "$W/lock-$variant-$t"; rm -rf "$d"
  done
  local cold_rs cold_tf warm_rs warm_tf
  cold_rs=$(time_init "$TOFU_RS" cold "$variant" tofu); cold_tf=$(time_init "$TF" cold "$variant" terraform)
  warm_rs=$(time_init "$TOFU_RS" warm "$variant" tofu); warm_tf=$(time_init "$TF" warm "$variant" terraform)
  printf '%-6s cold: tofu-rs %.3fs  terraform %.3fs  ratio %.2fx\n' "$variant" "$cold_rs" "$cold_tf" "$(echo "$cold_tf / $cold_rs" | bc -l)"
  printf '%-6s warm: tofu-rs %.3fs  terraform %.3fs  ratio %.2fx\n' "$variant" "$warm_rs" "$warm_tf" "$(echo "$warm_tf / $warm_rs" | bc -l)"
}

bench_variant mirror

if ! command -v openssl >/dev/null || ! command -v gpg >/dev/null; then
  echo "https: skipped (needs openssl and gpg)"; exit 0
fi
# A test CA and a certificate for localhost signed by it.
(
  cd "$W"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 1 -subj "/CN=bench test CA" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -keyout srv.key -out srv.csr -subj "/CN=localhost" 2>/dev/null
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' > srv.ext
  openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out srv.pem -days 1 -extfile srv.ext 2>/dev/null
)
export SSL_CERT_FILE=$W/ca.pem
export GNUPGHOME=$W/gnupg; mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key 'bench registry <bench@localhost>' rsa2048 sign never 2>/dev/null
KEY_ID=$(gpg --batch --with-colons --list-keys | awk -F: '/^pub/ {print $5; exit}')
gpg --batch --armor --export "$KEY_ID" > "$W/key.asc"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
HOST=localhost:$PORT
# The registry's answers as files: discovery, versions, download, and
# each release's zip, SHA256SUMS and signature.
python3 - "$W" "$PLAT" "$KEY_ID" <<'PY'
import hashlib, json, os, shutil, subprocess, sys
w, plat, key_id = sys.argv[1:]
root = os.path.join(w, "registry")
os.makedirs(os.path.join(root, ".well-known"))
json.dump({"providers.v1": "/v1/providers/"}, open(os.path.join(root, ".well-known/terraform.json"), "w"))
osname, arch = plat.split("_")
armor = open(os.path.join(w, "key.asc")).read()
for i in range(10):
    ty = f"p{i}"
    files = os.path.join(root, "files", ty)
    os.makedirs(files)
    name = f"terraform-provider-{ty}_1.0.0_{plat}.zip"
    shutil.copy(os.path.join(w, "mirror/registry.opentofu.org/bench", ty, name), files)
    sha = hashlib.sha256(open(os.path.join(files, name), "rb").read()).hexdigest()
    open(os.path.join(files, "SHA256SUMS"), "w").write(f"{sha}  {name}\n")
    subprocess.run(["gpg", "--batch", "--quiet", "--detach-sign", "-o", os.path.join(files, "SHA256SUMS.sig"), os.path.join(files, "SHA256SUMS")], check=True)
    base = os.path.join(root, "v1/providers/bench", ty)
    os.makedirs(os.path.join(base, "1.0.0/download", osname))
    json.dump({"versions": [{"version": "1.0.0", "protocols": ["5.0"], "platforms": [{"os": osname, "arch": arch}]}]}, open(os.path.join(base, "versions"), "w"))
    json.dump({
        "protocols": ["5.0"], "os": osname, "arch": arch, "filename": name,
        "download_url": f"/files/{ty}/{name}", "shasums_url": f"/files/{ty}/SHA256SUMS",
        "shasums_signature_url": f"/files/{ty}/SHA256SUMS.sig", "shasum": sha,
        "signing_keys": {"gpg_public_keys": [{"key_id": key_id, "ascii_armor": armor}]},
    }, open(os.path.join(base, "1.0.0/download", osname, arch), "w"))
PY
python3 - "$W/registry" "$PORT" "$W/srv.pem" "$W/srv.key" <<'PY' &
import http.server, ssl, sys
root, port, cert, key = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
class H(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k): super().__init__(*a, directory=root, **k)
    def guess_type(self, path):
        return "application/zip" if path.endswith(".zip") else "text/plain" if "SHA256SUMS" in path else "application/json"
    def log_message(self, *a): pass
# A listen backlog of 128 as real servers have: socketserver's default of 5
# drops the SYNs of a client that connects 10 times at once, which then
# waits a second for the retransmission.
class S(http.server.ThreadingHTTPServer):
    request_queue_size = 128
srv = S(("127.0.0.1", port), H)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); ctx.load_cert_chain(cert, key)
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
srv.serve_forever()
PY
SERVER_PID=$!
for _ in $(seq 50); do curl -s --cacert "$W/ca.pem" "https://$HOST/.well-known/terraform.json" >/dev/null && break; sleep 0.1; done
main_tf "$HOST" > "$W/main-https.tf"
bench_variant https
