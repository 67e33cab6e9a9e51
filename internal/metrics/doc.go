// Package metrics defines zproxy's Prometheus metrics in one struct built
// from a Registerer, so tests and embedders use a private registry and the
// names are declared in one place.
//
// Each layer records what it alone knows: wire the open connections and the
// errors it turns into ErrorResponse (by SQLSTATE); the SQL session the
// statements, their access paths and durations, and the rows read and
// returned; the kv backends every store request and DynamoDB's consumed
// capacity (through kv.Observer, which *Metrics implements). All methods are
// safe on a nil *Metrics, which records nothing.
//
// /metrics is unauthenticated, so no label carries client text: the
// per-statement series (statements.go) are labelled by queryid and the
// statement's normal form (parser.Normalize: no constant, password or
// comment), at most LimitStatements of them plus one "other" series, so the
// series count is bounded whatever the workload.
package metrics
