// Package integration holds retrylint's end-to-end tests: each runs a real
// tool the way a user does (a custom golangci-lint binary with the module
// plugin, pre-commit, go vet -vettool, the SARIF validators) on a sample
// module written to a temporary directory.
//
// They are skipped unless RETRYLINT_E2E=1, because they need tools that a
// developer may not have and the network to the Go module proxy. .ci/run
// installs the tools and runs them with RETRYLINT_E2E=1 and
// RETRYLINT_E2E_REQUIRE=1 (a missing tool is then a failure, not a skip):
//
//	RETRYLINT_E2E=1 go test -v -count=1 -timeout 40m ./integration/
//
// Slow artefacts are cached under $RETRYLINT_E2E_CACHE (default
// ~/.cache/retrylint-ci): the custom golangci-lint binary, keyed by the
// sources it is built from, and the npm tools (npm/). The first build of
// golangci-lint takes a few minutes on two cores; later builds after a
// change to retrylint take about fifteen seconds, from the Go build cache.
package integration
