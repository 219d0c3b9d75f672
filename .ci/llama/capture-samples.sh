#!/usr/bin/env bash
# Records what a real llama-server sends, as test resources for the Java side: raw streamed bodies and
# headers, error shapes, /metrics, /health, /v1/models, /props, the token ids of the prompts in
# prompts.json (from /tokenize), and the chat template's token overhead.
#
# Usage (after .ci/setup-llama.sh has built the server and the model):
#   eval "$(bash .ci/setup-llama.sh)" && bash .ci/llama/capture-samples.sh
# Writes core/src/test/resources/real-streams/llama.cpp/. The servers listen on 127.0.0.1 only, on free
# ports, and are stopped on exit. Sampling uses a fixed seed, but the text is random: do not compare bodies
# byte for byte across llama.cpp versions, compare their shape.
set -euo pipefail
cd "$(dirname "$0")/../.."

: "${GOODPUT_LLAMA_SERVER:?run eval \"\$(bash .ci/setup-llama.sh)\" first}"
: "${GOODPUT_LLAMA_MODEL:?run eval \"\$(bash .ci/setup-llama.sh)\" first}"
OUT=core/src/test/resources/real-streams/llama.cpp
PROMPTS=.ci/llama/prompts.json
mkdir -p "$OUT"

PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT

free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# start_server <variable for the base URL> <log file> <server options...>
start_server() {
  local var=$1 log=$2 port
  shift 2
  port=$(free_port)
  "$GOODPUT_LLAMA_SERVER" -m "$GOODPUT_LLAMA_MODEL" --host 127.0.0.1 --port "$port" "$@" >"$log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 150); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && { printf -v "$var" '%s' "http://127.0.0.1:$port"; return 0; }
    sleep 0.2
  done
  echo "server did not start; log:" >&2
  tail -30 "$log" >&2
  return 1
}

# post <name> <path> <json>: the raw body to <name>.sse (or .json) and the headers to <name>.headers
post() {
  local name=$1 path=$2 body=$3 ext=${4:-sse}
  curl -sN -D "$OUT/$name.headers" -o "$OUT/$name.$ext" -H 'Content-Type: application/json' \
    -d "$body" "$URL$path"
  echo "$name: $(head -1 "$OUT/$name.headers" | tr -d '\r'), $(wc -c <"$OUT/$name.$ext") bytes" >&2
}

start_server URL /tmp/goodput-capture-server.log --parallel 4 -c 8192 -t 1 --metrics --alias tiny-llama3

MSG='[{"role": "user", "content": "Write one short sentence about the sea."}]'
post chat-stream /v1/chat/completions \
  "{\"model\": \"tiny-llama3\", \"messages\": $MSG, \"stream\": true, \"max_tokens\": 6, \"seed\": 42}"
post chat-stream-usage /v1/chat/completions \
  "{\"model\": \"tiny-llama3\", \"messages\": $MSG, \"stream\": true, \"max_tokens\": 6, \"seed\": 42,
    \"stream_options\": {\"include_usage\": true}}"
post chat-stream-continuous-usage /v1/chat/completions \
  "{\"model\": \"tiny-llama3\", \"messages\": $MSG, \"stream\": true, \"max_tokens\": 6, \"seed\": 42,
    \"stream_options\": {\"include_usage\": true, \"continuous_usage_stats\": true}}"
post chat-stream-no-cache-prompt /v1/chat/completions \
  "{\"model\": \"tiny-llama3\", \"messages\": $MSG, \"stream\": true, \"max_tokens\": 6, \"seed\": 42,
    \"stream_options\": {\"include_usage\": true}, \"cache_prompt\": false}"
post completions-stream /v1/completions \
  '{"model": "tiny-llama3", "prompt": "The sea is", "stream": true, "max_tokens": 6, "seed": 42}'
post completions-stream-usage /v1/completions \
  '{"model": "tiny-llama3", "prompt": "The sea is", "stream": true, "max_tokens": 6, "seed": 42,
    "stream_options": {"include_usage": true}}'
post chat-nonstream /v1/chat/completions \
  "{\"model\": \"tiny-llama3\", \"messages\": $MSG, \"max_tokens\": 6, \"seed\": 42}" json

# Keep-alive: two streamed requests in one curl; its log says whether the second reused the connection.
curl -sN -v -o /dev/null -o /dev/null -H 'Content-Type: application/json' \
  -d '{"model": "tiny-llama3", "prompt": "One", "stream": true, "max_tokens": 3}' \
  "$URL/v1/completions" "$URL/v1/completions" 2>&1 | grep -E '^[<>*]' | sed "s#127.0.0.1:[0-9][0-9]*#127.0.0.1:PORT#g; s#port [0-9][0-9]*#port PORT#g" \
  >"$OUT/keepalive-curl-v.txt"
curl -s -v -o /dev/null -o /dev/null "$URL/health" "$URL/health" 2>&1 | grep -E '^[<>*]' |
  sed "s#127.0.0.1:[0-9][0-9]*#127.0.0.1:PORT#g; s#port [0-9][0-9]*#port PORT#g" >"$OUT/keepalive-nonstream-curl-v.txt"

# Token ids of the prompts, without BOS, and the chat template's fixed overhead for one user message.
URL=$URL PROMPTS=$PROMPTS OUT=$OUT /usr/bin/python3 - <<'EOF'
import json, os, urllib.request

url, out = os.environ["URL"], os.environ["OUT"]

def call(path, body):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)

prompts = json.load(open(os.environ["PROMPTS"], encoding="utf-8"))
samples = [{"text": t, "ids": call("/tokenize", {"content": t, "add_special": False})["tokens"]} for t in prompts]
with open(f"{out}/tokenize-samples.json", "w", encoding="utf-8") as f:
    json.dump(samples, f, ensure_ascii=False, indent=1)
    f.write("\n")

overhead = []
for content in ["Write one short sentence about the sea.", "Hello, world!", "a", prompts[9], prompts[14]]:
    n = len(call("/tokenize", {"content": content, "add_special": False})["tokens"])
    usage = call("/v1/chat/completions", {"model": "tiny-llama3", "max_tokens": 1,
                                          "messages": [{"role": "user", "content": content}]})["usage"]
    overhead.append({"content": content, "content_tokens": n, "prompt_tokens": usage["prompt_tokens"],
                     "overhead": usage["prompt_tokens"] - n})
with open(f"{out}/chat-template-overhead.json", "w", encoding="utf-8") as f:
    json.dump(overhead, f, ensure_ascii=False, indent=1)
    f.write("\n")
print("tokenize samples:", len(samples), "chat overhead:", sorted({o["overhead"] for o in overhead}),
      file=__import__("sys").stderr)
EOF

curl -s -D "$OUT/health.headers" -o "$OUT/health.json" "$URL/health"
curl -s -D "$OUT/models.headers" -o "$OUT/models.json" "$URL/v1/models"
curl -s -D "$OUT/props.headers" -o "$OUT/props.json" "$URL/props"
curl -s -D "$OUT/metrics.headers" -o "$OUT/metrics.txt" "$URL/metrics"

# Over-context prompts: a second server with a 256-token context.
start_server SMALL /tmp/goodput-capture-small.log --parallel 1 -c 256 -t 1 --metrics --alias tiny-llama3
LONG=$(/usr/bin/python3 -c 'print(" ".join(["the sea is wide and the sky is grey"] * 60))')
URL=$SMALL
post over-context-chat-stream /v1/chat/completions \
  "{\"model\": \"tiny-llama3\", \"messages\": [{\"role\": \"user\", \"content\": \"$LONG\"}], \"stream\": true, \"max_tokens\": 6}"
post over-context-chat /v1/chat/completions \
  "{\"model\": \"tiny-llama3\", \"messages\": [{\"role\": \"user\", \"content\": \"$LONG\"}], \"max_tokens\": 6}" json
post over-context-completions-stream /v1/completions \
  "{\"model\": \"tiny-llama3\", \"prompt\": \"$LONG\", \"stream\": true, \"max_tokens\": 6}"
post over-context-completions /v1/completions \
  "{\"model\": \"tiny-llama3\", \"prompt\": \"$LONG\", \"max_tokens\": 6}" json

# Dates in headers change on every run; they are kept as captured.
echo "captured into $OUT" >&2
