// Package e2e tests zproxy from the outside, through real clients against the
// real binary.
//
// TestMain builds cmd/zproxy once (with the race detector when the tests run
// with it). Each test starts its own zproxy process on a free loopback port
// (--listen 127.0.0.1:0, the address read back from the start-up log) with a
// temporary data directory, drives it with the psql binary or with pgx, and
// stops it with SIGTERM, checking that it exits cleanly. The flow under test
// is the whole chain: client → wire → parser → planner → optimizer → executor
// → kv/pebble on disk, and back.
//
// psql must be installed (`make test` installs it); outside CI (CI=true) a
// missing psql skips the psql tests, in CI it fails them.
//
// The package holds tests only.
package e2e
