#!/usr/bin/env bash
# Discovery mode on the full descriptions of GitHub (1,223 operations) and
# Stripe (468), end to end: generates each wrapper with `mcpgen init
# --openapi` from the whole document, builds it (GitHub's package takes
# about 40 s and 2.4 GB on two cores, which is why go test ./... and
# scripts/test.sh leave this out), serves the document with
# `prism mock --errors` (Stripe's pruned to the customer reads, see
# below), and drives the server with the official MCP TypeScript client
# (e2e/ts/bigdocs.test.mjs): tools/list within 2,000 tokens, search then
# call of the top hit accepted by Prism, and a write refused in read-only
# mode; for GitHub also the default surface chosen in its config (surface:
# defaultToolsets, outputSchemas: false).
#
# Usage: ./scripts/bigdocs-e2e.sh [github] [stripe]   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
docs_dir=../shared/openapi
if [ ! -d "$docs_dir" ]; then
  echo "bigdocs-e2e: no documents at $docs_dir; nothing to check"
  exit 0
fi
prism=e2e/openapi/node_modules/.bin/prism
[ -x "$prism" ] || { echo "bigdocs-e2e: prism is not installed (npm ci in e2e/openapi)"; exit 1; }
[ -d e2e/ts/node_modules ] || { echo "bigdocs-e2e: npm ci in e2e/ts first"; exit 1; }
if [ -z "${GOTOOLCHAIN:-}" ]; then
  GOTOOLCHAIN=$(awk '/^toolchain /{print $2}' go.mod)
  export GOTOOLCHAIN
fi

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/mcpgen" ./cmd/mcpgen
port=47900
env_args=()
for doc in "${@:-github stripe}"; do
  for d in $doc; do
    surface=
    # The operations Prism serves, when not the whole document: the
    # document pruned to them and what they reach (internal/oaprune),
    # which judges requests to them exactly as the whole document does.
    mock_ops=()
    mock_flags=()
    case $d in
      github) file=$docs_dir/github/api.github.com.json
        # GitHub's wrapper also chooses a default surface near GitHub's own
        # (~14k tokens): two toolsets, listed without output schemas.
        surface='surface: {defaultToolsets: [git, search], outputSchemas: false}'
        env_args+=("GITHUB_DEFAULT_TOOLSETS=git,search") ;;
      stripe) file=$docs_dir/stripe/spec3.yaml
        # Prism checks that a request carries one of the document's
        # security schemes; the token never reaches the model.
        export MCPGEN_BEARERAUTH_TOKEN=sk_test_e2e
        # Prism does not load Stripe's whole document in useful time, nor
        # the customer reads with all they reach (every error response
        # reaches most of the document's schemas): it serves the customer
        # reads, among which the test's search ("list all customers")
        # finds what it calls, judging their requests as the whole
        # document does and answering any object (oaprune
        # -requests-only); the refused write never reaches it.
        mock_flags=(-requests-only)
        mock_ops=(GetCustomers GetCustomersSearch GetCustomersCustomer GetCustomersCustomerBalanceTransactions
          GetCustomersCustomerBalanceTransactionsTransaction GetCustomersCustomerBankAccounts GetCustomersCustomerBankAccountsId
          GetCustomersCustomerCards GetCustomersCustomerCardsId GetCustomersCustomerCashBalance
          GetCustomersCustomerCashBalanceTransactions GetCustomersCustomerCashBalanceTransactionsTransaction
          GetCustomersCustomerDiscount GetCustomersCustomerPaymentMethods GetCustomersCustomerPaymentMethodsPaymentMethod
          GetCustomersCustomerSources GetCustomersCustomerSourcesId GetCustomersCustomerSubscriptions
          GetCustomersCustomerSubscriptionsSubscriptionExposedId GetCustomersCustomerSubscriptionsSubscriptionExposedIdDiscount
          GetCustomersCustomerTaxIds GetCustomersCustomerTaxIdsId) ;;
      *) echo "bigdocs-e2e: unknown document $d (github, stripe)"; exit 2 ;;
    esac
    mod=$work/$d
    mkdir -p "$mod"
    cp "$file" "$mod/"
    printf 'module example.com/wrapped\n\ngo 1.26\n\nrequire github.com/mcpgen-dev/mcpgen v0.0.0\n\nreplace github.com/mcpgen-dev/mcpgen => %s\n' "$root" >"$mod/go.mod"
    cp go.sum "$mod/"
    (cd "$mod" && "$work/mcpgen" init --openapi "$(basename "$file")" --dir srv >/dev/null 2>&1 &&
      if [ -n "$surface" ]; then echo "$surface" >>srv/mcpgen.yaml && "$work/mcpgen" generate -q -f srv/mcpgen.yaml; fi &&
      GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 &&
      start=$(date +%s) && nice go build -o server ./srv &&
      echo "bigdocs-e2e: $d built in $(( $(date +%s) - start )) s")
    port=$((port + 1))
    mock=$mod/$(basename "$file")
    if [ ${#mock_ops[@]} -gt 0 ]; then
      mock=$work/$d-mock.json
      go run ./internal/oaprune/cmd/oaprune "${mock_flags[@]}" -o "$mock" "$file" "${mock_ops[@]}"
    fi
    nice "$prism" mock --errors -h 127.0.0.1 -p "$port" "$mock" >"$work/prism-$d.log" 2>&1 &
    pids+=($!)
    upper=$(echo "$d" | tr a-z A-Z)
    env_args+=("${upper}_MCP_BIN=$mod/server" "${upper}_UPSTREAM=http://127.0.0.1:$port")
  done
done

# Prism reads a large document for a minute or more before it listens
# (Stripe's YAML: over ten minutes on two busy cores).
for kv in "${env_args[@]}"; do
  case $kv in
    *_UPSTREAM=*) url=${kv#*=}
      for _ in $(seq 1800); do curl -s -o /dev/null "$url" && break; sleep 1; done
      curl -s -o /dev/null "$url" || { echo "bigdocs-e2e: prism at $url did not start"; cat "$work"/prism-*.log; exit 1; } ;;
  esac
done
cd e2e/ts
env "${env_args[@]}" node --test bigdocs.test.mjs
