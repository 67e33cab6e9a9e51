// Package guc knows PostgreSQL 15's run-time parameters ("grand unified
// configuration") that a session may set, and reads and prints their
// values exactly as PostgreSQL does.
//
// The parameters, their types, units, bounds, enum values, boot values and
// descriptions are generated from a PostgreSQL 15 server (gen/main.go →
// params_gen.go), so pg_settings and SET agree with PostgreSQL's by
// construction rather than by a hand-kept list. Parse follows guc.c's
// parse_bool, parse_int, parse_real and enum lookup, unit conversion and
// rounding included, and Value.Show is what SHOW prints (the largest unit
// that divides the value, as _ShowOption picks it). guc_test.go compares
// both with answers recorded from PostgreSQL 15.
//
// The package says nothing about what zproxy does with a parameter; the
// session decides which it implements, which cannot change a result and
// which it refuses to change (session/settings_meta.go).
package guc
