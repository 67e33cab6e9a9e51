// Package main is the zproxy command, the zproxy server: a PostgreSQL-wire SQL front end for a
// sorted key-value store (embedded Pebble by default, or Amazon DynamoDB).
//
// This package owns configuration and wiring only. It reads the settings
// (flags, ZPROXY_* environment variables, an optional config file, built-in
// defaults, in that order of precedence), opens the store, builds the SQL
// session engine on it, serves the Postgres protocol through package wire and
// Prometheus metrics over HTTP, and shuts all of it down in reverse order on
// SIGTERM or SIGINT:
//
//	settings → store (kv/pebble or kv/dynamodb) → session engine → wire server
//	                         ↘ metrics (private registry) ↗ → /metrics
//	                           console (--console, a SQL client of the wire server) → /console/
//
// Shutdown first stops accepting connections and waits (bounded by
// --shutdown-timeout) for in-flight statements, then closes the engine and
// finally the store, which makes every acknowledged write durable.
//
// The first argument may name a subcommand; with none, zproxy serves. The
// dispatcher in main.go is where later subcommands (such as "check") plug in.
package main
